"""What an operator sees of a real `millebornes serve`: Prometheus metrics on a port of their own (never on the
app's), the log's level and its JSON lines, and every option given by a ``MILLEBORNES_*`` variable instead
(docs/deploy.md, "Configuration" and "Metrics and logs")."""

from __future__ import annotations

import json
import logging
import os
import random
import socket
import subprocess
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")

from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from millebornes.web import metrics  # noqa: E402
from millebornes.web.logs import JsonLines  # noqa: E402
from tests.serving import MILLEBORNES, Seat, Server, free_port  # noqa: E402
from tests.web.reviews.test_review import finished  # noqa: E402

HUMAN = {"kind": "human"}


def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """Every sample of the process's /metrics, by name and sorted labels."""
    r = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def play(ann: Seat, moves: int, rng: random.Random) -> int:
    """Ann plays random legal moves against the bot, each once it is hers to make; returns how many she made."""
    made = 0
    while made < moves and not ann.obs["is_over"]:
        if not ann.obs["legal_actions"]:
            ann.next_state()
            continue
        ann.act(rng.choice(ann.obs["legal_actions"]))
        ann.next_state()
        made += 1
    return made


@pytest.mark.server
def test_metrics_count_moves_sockets_thinking_and_refusals_on_their_own_port(tmp_path):
    port = free_port()
    log = tmp_path / "server.log"
    server = Server(tmp_path / "mb.db", log, 0, "--metrics-port", str(port), "--log-json")
    try:
        assert httpx.get(f"{server.base}/metrics").status_code == 404  # the app's port never serves them
        before = scrape(port)
        assert value(before, "millebornes_moves_total", mover="person") == 0
        assert value(before, "millebornes_rooms") == 0

        table = server.create(
            ruleset="classic", players=2, seed=11, cf_timeout=1.0, seats=[HUMAN, {"kind": "bot", "level": "hard"}]
        )
        ann = Seat(server, table, 0, "Ann")
        made = play(ann, 6, random.Random(3))
        assert made == 6
        while not ann.obs["legal_actions"]:  # her turn again, so the refusal is the engine's, not the turn's
            ann.next_state()
        ann.ws.send(json.dumps({"type": "act", "action": "play nonsense", "seq": ann.state["seq"]}))
        assert ann.answer()["code"] == "illegal"

        after = scrape(port)
        assert value(after, "millebornes_move_seconds_count", mover="person") == made
        assert value(after, "millebornes_moves_total", mover="person") >= made  # a window's pass counts too
        assert value(after, "millebornes_moves_total", mover="bot") >= 1
        assert value(after, "millebornes_move_seconds_count", mover="bot") >= 1
        assert 0 < value(after, "millebornes_move_seconds_sum", mover="person") < 60
        assert value(after, "millebornes_thinking_seconds_count", pool="bots") >= 1  # the hard bot's searches
        assert value(after, "millebornes_thinking_in_flight", pool="bots") in (0, 1)
        assert value(after, "millebornes_refusals_total", code="illegal") == 1
        assert value(after, "millebornes_http_responses_total", status="201") == 1
        assert value(after, "millebornes_sockets", role="player") == 1
        assert value(after, "millebornes_sockets", role="spectator") == 0
        assert value(after, "millebornes_rooms") == 1
        assert value(after, "process_resident_memory_bytes") > 0

        ann.close()
        deadline = time.monotonic() + 10
        while value(scrape(port), "millebornes_sockets", role="player") != 0:
            assert time.monotonic() < deadline, "the closed socket is still counted"
            time.sleep(0.05)
    finally:
        server.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines()]  # every line is one JSON object
    assert all(set(x) >= {"time", "level", "logger", "message"} for x in lines)
    assert any(x["logger"] == "millebornes" and "serving the game" in x["message"] for x in lines)
    assert any(x["logger"] == "uvicorn.access" and "POST /api/tables" in x["message"] for x in lines)
    assert not [x for x in lines if x["level"] in ("error", "critical")]


@pytest.mark.server
def test_every_option_may_come_from_the_environment(tmp_path):
    """No option on the command line: the port, database, limits, test mode, metrics and log level all come
    from MILLEBORNES_* variables."""
    port, mport = free_port(), free_port()
    env = {
        **os.environ,
        "DATABASE_URL": "",
        "MILLEBORNES_PORT": str(port),
        "MILLEBORNES_DATABASE_URL": f"sqlite:///{tmp_path}/env.db",
        "MILLEBORNES_WORKERS": "0",
        "MILLEBORNES_TABLES_PER_MINUTE": "1",
        "MILLEBORNES_TEST_MODE": "1",
        "MILLEBORNES_METRICS_PORT": str(mport),
        "MILLEBORNES_LOG_LEVEL": "warning",
    }
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([str(MILLEBORNES), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=1).json()["ok"] is True:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not listen on MILLEBORNES_PORT"
            time.sleep(0.1)
        body = {"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], "seed": 5}  # a seed: test mode only
        assert httpx.post(f"{base}/api/tables", json=body).status_code == 201
        assert httpx.post(f"{base}/api/tables", json=body).status_code == 429  # one table a minute
        assert value(scrape(mport), "millebornes_http_responses_total", status="429") == 1
        assert (tmp_path / "env.db").exists()
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
    text = (tmp_path / "server.log").read_text()
    assert "GET /healthz" not in text and " INFO " not in text, text  # warning and worse only


@pytest.mark.server
@pytest.mark.parametrize(
    "env, words",
    [
        ({"MILLEBORNES_PORT": "eighty"}, "MILLEBORNES_PORT"),
        ({"MILLEBORNES_LOG_LEVEL": "chatty"}, "MILLEBORNES_LOG_LEVEL"),
        ({"MILLEBORNES_TEST_MODE": "maybe"}, "MILLEBORNES_TEST_MODE"),
    ],
)
def test_a_bad_variable_is_refused_by_its_name(tmp_path, env, words):
    done = subprocess.run(
        [str(MILLEBORNES), "serve", "--database-url", f"sqlite:///{tmp_path}/x.db"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert not (tmp_path / "x.db").exists()


@pytest.mark.server
def test_a_metrics_port_taken_stops_the_server_at_once(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                str(MILLEBORNES),
                "serve",
                "--database-url",
                f"sqlite:///{tmp_path}/x.db",
                "--port",
                str(free_port()),
                "--metrics-port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "DATABASE_URL": ""},
        )
    assert done.returncode == 2 and f"cannot serve the metrics on 127.0.0.1 port {port}" in done.stderr, done


def test_a_json_log_line_carries_the_exception():
    try:
        _ = 1 / 0
    except ZeroDivisionError:
        record = logging.LogRecord(
            "millebornes.web",
            logging.ERROR,
            __file__,
            1,
            "table %s: it failed",
            ("abc",),
            exc_info=__import__("sys").exc_info(),
        )
    line = json.loads(JsonLines().format(record))
    assert (line["level"], line["logger"], line["message"]) == ("error", "millebornes.web", "table abc: it failed")
    assert line["exception"].startswith("Traceback") and "ZeroDivisionError" in line["exception"]
    assert line["time"].endswith("+00:00")


def test_reviews_are_counted_done_and_failed(web, monkeypatch):
    from millebornes import review as R

    def count(outcome: str) -> float:
        return metrics.REGISTRY.get_sample_value("millebornes_reviews_total", {"outcome": outcome})

    web.start(review_worlds=4)
    tid = finished(web)["id"]
    started, done, failed = count("started"), count("done"), count("failed")
    judge = R._judge_many

    def broken(*_):
        raise RuntimeError("a worker fell over")

    monkeypatch.setattr(R, "_judge_many", broken)
    assert web.client.post(f"/api/tables/{tid}/review").status_code == 202
    deadline = time.monotonic() + 30
    while web.client.get(f"/api/tables/{tid}/review").json()["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert (count("started"), count("failed")) == (started + 1, failed + 1)
    monkeypatch.setattr(R, "_judge_many", judge)
    assert web.client.post(f"/api/tables/{tid}/review").status_code == 202
    while web.client.get(f"/api/tables/{tid}/review").json()["state"] != "done" or count("done") == done:
        assert time.monotonic() < deadline  # a review is shown done once built, and counted once saved
        time.sleep(0.02)
    assert (count("started"), count("done"), count("failed")) == (started + 2, done + 1, failed + 1)


def test_each_serve_option_has_its_variable_in_the_table():
    """A new `serve` option gets its MILLEBORNES_* variable and its line in docs/deploy.md's table."""
    import typer.main

    from millebornes.cli import app

    doc = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    options = [p for p in typer.main.get_command(app).commands["serve"].params if p.name != "help"]
    assert len(options) >= 23
    for p in options:
        name = "MILLEBORNES_" + p.name.upper()
        envvars = [p.envvar] if isinstance(p.envvar, str) else list(p.envvar or ())
        assert envvars[:1] == [name], (p.opts, envvars)
        assert f"| `{p.opts[0]}` | `{name}`" in doc, p.opts
