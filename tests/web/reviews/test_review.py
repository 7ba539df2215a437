"""The game review on the server (docs/web-api.md, "Game review"): only finished tables, worked out in the
reviews' pool with progress, one at a time per table, a limit on the server, kept in the database across a
restart, and the same review the library gives for the same record and budget."""

from __future__ import annotations

import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")

from millebornes import review as R  # noqa: E402
from millebornes.web.reviews.service import BATCH  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
WORLDS = 4
SEED = 987_654_321_987


def finished(web, seed: int = SEED, rng: int = 2) -> dict:
    """A dujardin race between random moves and a medium bot, played to its end."""
    table = web.create(
        ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=seed, public=True
    )  # tables/test_private.py: a private one's
    a = web.join(table, 0, "Ann")
    web.play_random([a], random.Random(rng))
    assert a.state["status"] == "finished"
    return table


def wait_state(web, tid: str, until, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        r = web.client.get(f"/api/tables/{tid}/review")
        assert r.status_code == 200, r.text
        if until(r.json()):
            return r.json()
        assert time.monotonic() < deadline, r.json()
        time.sleep(0.02)


@pytest.fixture
def gate(monkeypatch):
    """Review batches wait for the test to let them through, one permit a batch; counts the batches."""
    permits = threading.Semaphore(0)
    calls: list[int] = []
    judge = R._judge_many

    def gated(batch, worlds, seed):
        assert permits.acquire(timeout=30), "the test did not let the batch through"
        calls.append(len(batch))
        return judge(batch, worlds, seed)

    monkeypatch.setattr(R, "_judge_many", gated)
    permits.calls = calls
    yield permits
    permits.release(10_000)  # nothing stays blocked when the test ends


def start(web, **settings):
    settings.setdefault("review_worlds", WORLDS)
    return web.start(**settings)


def test_unknown_and_live_tables_are_never_reviewed(web, monkeypatch):
    start(web)
    c = web.client
    assert c.get("/api/tables/nope/review").status_code == 404
    assert c.post("/api/tables/nope/review").status_code == 404

    def forbidden(*_):
        raise AssertionError("a match that is not over was looked at for a review")

    monkeypatch.setattr(R, "decisions", forbidden)
    monkeypatch.setattr(R, "_judge_many", forbidden)
    waiting = web.create(seats=[HUMAN, HUMAN], public=True)
    live = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=3, public=True)
    a = web.join(live, 0, "Ann")
    web.play_random([a], random.Random(1), stop=lambda s: s["seq"] >= 6)
    for table in (waiting, live):
        r = c.post(f"/api/tables/{table['id']}/review")
        assert r.status_code == 409 and r.json()["code"] == "not-finished", r.text
        assert "is not finished: a game is reviewed once it is over" in r.json()["detail"]
        assert c.get(f"/api/tables/{table['id']}/review").json() == {
            "state": "none",
            "done": 0,
            "total": 0,
            "yours": [],
        }
        assert web.app.state.reviewer.reviews.get(table["id"]) is None
    assert web.app.state.reviewer.jobs == {}


def test_progress_then_done_then_kept_across_a_restart(web, gate, monkeypatch):
    start(web)
    tid = finished(web)["id"]
    c = web.client
    assert c.get(f"/api/tables/{tid}/review").json()["state"] == "none"
    r = c.post(f"/api/tables/{tid}/review")
    assert r.status_code == 202, r.text
    total = r.json()["total"]
    assert r.json() == {"state": "running", "done": 0, "total": total, "yours": []} and total > 2 * BATCH
    gate.release()
    state = wait_state(web, tid, lambda s: s["done"] > 0)
    assert state == {"state": "running", "done": BATCH, "total": total, "yours": []}
    assert c.post(f"/api/tables/{tid}/review").json()["state"] == "running"  # joins the running one
    gate.release(10_000)
    done = wait_state(web, tid, lambda s: s["state"] == "done")
    assert done["done"] == done["total"] == len(done["review"]["moves"])
    assert sum(gate.calls) == total  # every decision judged once

    # the library's review of the same record at the same budget: the server's is that one
    record = web.app.state.tables.get(tid, True).record()
    assert done["review"] == R.review(record, worlds=WORLDS, seed=0)
    assert done["review"]["seats"] == [0, 1] and done["review"]["budget"] == {"worlds": WORLDS, "seed": 0}
    assert str(SEED) not in c.get(f"/api/tables/{tid}/review").text  # the table's seed never shows

    # a restart on the same database: instant, nothing worked out again
    monkeypatch.setattr(R, "decisions", lambda *_: pytest.fail("a kept review was worked out again"))
    start(web)
    assert web.client.get(f"/api/tables/{tid}/review").json() == done
    again = web.client.post(f"/api/tables/{tid}/review")
    assert again.status_code == 200 and again.json() == done


def test_two_requests_at_once_make_one_review(web, gate, monkeypatch):
    start(web)
    tid = finished(web)["id"]
    seen: list[int] = []
    decisions = R.decisions
    monkeypatch.setattr(R, "decisions", lambda record: seen.append(1) or decisions(record))
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: web.client.post(f"/api/tables/{tid}/review"), range(2)))
    assert [a.status_code for a in answers] == [202, 202], [a.text for a in answers]
    assert answers[0].json() == answers[1].json() and seen == [1]
    gate.release(10_000)
    wait_state(web, tid, lambda s: s["state"] == "done")
    assert sum(gate.calls) == answers[0].json()["total"]


def test_the_server_takes_so_many_reviews_at_once(web, gate):
    start(web, limits=Limits(frames_per_second=100_000, reviews_at_once=1))
    first, second = finished(web)["id"], finished(web, SEED + 1, 3)["id"]
    c = web.client
    assert c.post(f"/api/tables/{first}/review").status_code == 202
    busy = c.post(f"/api/tables/{second}/review")
    assert busy.status_code == 503 and busy.json()["code"] == "busy" and busy.headers["Retry-After"] == "30"
    assert busy.json()["detail"] == ("the server is reviewing as many games as it takes at once (1): ask again in 30 s")
    assert c.get(f"/api/tables/{second}/review").json()["state"] == "none"  # nothing started
    gate.release(10_000)
    wait_state(web, first, lambda s: s["state"] == "done")
    assert c.post(f"/api/tables/{second}/review").status_code == 202
    wait_state(web, second, lambda s: s["state"] == "done")


def test_a_failed_review_says_so_and_may_be_asked_again(web, monkeypatch):
    start(web)
    tid = finished(web)["id"]
    judge = R._judge_many

    def broken(*_):
        raise RuntimeError("a worker fell over")

    monkeypatch.setattr(R, "_judge_many", broken)
    assert web.client.post(f"/api/tables/{tid}/review").status_code == 202
    assert wait_state(web, tid, lambda s: s["state"] != "running") == {
        "state": "failed",
        "done": 0,
        "total": 0,
        "yours": [],
    }
    assert web.app.state.reviewer.reviews.get(tid) is None
    monkeypatch.setattr(R, "_judge_many", judge)
    assert web.client.post(f"/api/tables/{tid}/review").status_code == 202
    assert wait_state(web, tid, lambda s: s["state"] != "running")["state"] == "done"


def test_a_review_kept_in_an_older_format_is_worked_out_again(web):
    """A review saved by an older version (accuracy counted otherwise) is not given; the new one replaces it."""
    start(web)
    tid = finished(web)["id"]
    store = web.app.state.reviewer.reviews
    store.save(tid, {"format": "millebornes-review/1", "budget": {"worlds": WORLDS, "seed": 0}, "moves": []})
    assert store.get(tid) is None
    c = web.client
    assert c.get(f"/api/tables/{tid}/review").json()["state"] == "none"
    assert c.post(f"/api/tables/{tid}/review").status_code == 202
    done = wait_state(web, tid, lambda s: s["state"] == "done")
    assert done["review"]["format"] == R.REVIEW_FORMAT != "millebornes-review/1"
    assert store.get(tid) == done["review"]


def test_review_workers_come_after_bots_and_hints():
    """A review worker runs at nice 19, in the idle scheduling class: it gets what the bots and hints leave."""
    import asyncio

    from millebornes.web.thinking import Thinker

    thinker = Thinker(1)
    try:

        async def ask():
            return (
                await thinker.review(os.nice, 0),
                await thinker.review(os.sched_getscheduler, 0),
                await thinker.bot(os.nice, 0),
            )

        nice, policy, bot_nice = asyncio.run(ask())
    finally:
        thinker.close()
    assert (nice, policy, bot_nice) == (19, os.SCHED_IDLE, os.nice(0))


def test_an_older_database_gets_the_reviews_table(tmp_path):
    from sqlalchemy import inspect, text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    url = f"sqlite:///{tmp_path}/old.db"
    store = Tables(Database(url))
    with store.engine.begin() as c:
        c.execute(text("DROP TABLE reviews"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    store.db.close()
    store = Tables(Database(url))
    try:
        assert "reviews" in inspect(store.engine).get_table_names()
    finally:
        store.db.close()


@pytest.mark.parametrize(
    "option, value",
    [("--review-worlds", "1"), ("--review-worlds", "5001"), ("--reviews-at-once", "0"), ("--review-workers", "0")],
)
def test_serve_refuses_a_review_setting_out_of_range(option, value):
    from typer.testing import CliRunner

    from millebornes.cli import app

    result = CliRunner().invoke(app, ["serve", option, value], terminal_width=200)
    assert result.exit_code == 2 and "Invalid value for" in result.output and option in result.output, result.output
