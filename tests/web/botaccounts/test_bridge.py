"""The online bridge (docs/protocol.md, "The bridge"): ``millebornes bot cmd:PROGRAM --server URL`` plays a stdio bot
program as a bot account of a real server: a whole match of the JavaScript example against another bot, the
challenges its settings exclude declined, a server restart survived, a wrong token ending it with a clear word, one
process per table (or one for all), and a program that breaks the protocol started afresh."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")

import millebornes as mb  # noqa: E402
from millebornes.online import ConfigError, build, read_file, read_token  # noqa: E402
from millebornes.online.challenges import accepts, refusal  # noqa: E402
from millebornes.online.config import Challenges  # noqa: E402
from tests.serving import MILLEBORNES, Account, Seat, Server, bot_seat, until  # noqa: E402
from tests.web.botaccounts.test_processes import Bot, person_plays  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
JS_BOT = "cmd:node examples/external_bot.js"
HUMAN = {"kind": "human"}


class Bridge:
    """``millebornes bot ... --server`` as a process, its stderr kept in a file."""

    def __init__(self, tmp_path: Path, server: Server | None, token: str, *args: str, name: str = "bridge"):
        self.err = tmp_path / f"{name}.err"
        self.logs = tmp_path / f"{name}-logs"
        where = ["--server", server.base] if server is not None else []
        self.proc = subprocess.Popen(
            [str(MILLEBORNES), "bot", *args, *where, "--log-dir", str(self.logs)],
            cwd=ROOT,
            env={**os.environ, "MILLEBORNES_BOT_TOKEN": token},
            stdout=subprocess.DEVNULL,
            stderr=open(self.err, "wb"),
        )

    @property
    def said(self) -> str:
        return self.err.read_text(encoding="utf-8", errors="replace")

    def table_log(self, table: str) -> str:
        path = self.logs / f"{table}.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def decisions(self, table: str) -> int:
        return self.table_log(table).count(" decide ")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("bridge")
    s = Server(path / "mb.db", path / "server.log", 0.0)
    yield s
    s.stop()


@pytest.fixture
def owner(server, request):
    return Account(server, f"own_{abs(hash(request.node.name)) % 10**8}")


def facts(server: Server, table_id: str) -> dict:
    return httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()


def dare(opponent: str, **changes) -> dict:
    """A bot's challenge to the bridge's bot (one owner: casual)."""
    return {
        "type": "challenge",
        "id": 1,
        "opponent": opponent,
        "edition": "dujardin",
        "players": 2,
        "rated": False,
        "clock": 0,
        "cf_timeout": 0.3,
    } | changes


# --------------------------------------------------------------------------------------- settings
def test_the_settings_come_from_the_file_and_the_options_override_them(tmp_path, monkeypatch):
    monkeypatch.delenv("MILLEBORNES_BOT_TOKEN", raising=False)
    (tmp_path / "bot.token").write_text("mbb_fromfile\n")
    path = tmp_path / "bridge.toml"
    path.write_text(
        textwrap.dedent(
            """
            server = "https://mb.example.org"
            token_file = "bot.token"
            program = "cmd:node examples/external_bot.js"
            processes = "shared"
            margin = 0.5
            [challenges]
            editions = ["classic", "dujardin"]
            players = [2, 3]
            rated = false
            max_clock = 60
            tables = 3
            """
        )
    )
    config = build(read_file(path))
    assert (config.server, config.processes, config.margin, config.socket_url) == (
        "https://mb.example.org",
        "shared",
        0.5,
        "wss://mb.example.org/ws/bot",
    )
    assert config.command == "node examples/external_bot.js"
    assert config.challenges == Challenges(("classic", "dujardin"), (2, 3), False, True, True, 0.0, 60.0, 3)
    assert read_token(config) == "mbb_fromfile"
    over = build(read_file(path), server="http://127.0.0.1:9", program="heuristic", processes="per-table", tables=1)
    assert (over.socket_url, over.processes, over.challenges.tables) == ("ws://127.0.0.1:9/ws/bot", "per-table", 1)
    assert over.command == [sys.executable, "-m", "millebornes.protocol", "heuristic"]
    assert over.challenges.editions == ("classic", "dujardin")  # the file's, where no option says otherwise


@pytest.mark.parametrize(
    "line, key",
    [
        ('processes = "many"', "processes"),
        ("margin = -1", "margin"),
        ("speed = 3", "speed"),
        ('program = "superbot"', "program"),
        ('server = "ftp://x"', "server"),
        ("[challenges]\ntables = 20", "challenges.tables"),
        ('[challenges]\neditions = ["chess"]', "challenges.editions"),
        ("[challenges]\nplayers = [1]", "challenges.players"),
        ("[challenges]\nplayers = [7]", "challenges.players"),
        ('[challenges]\nrated = "yes"', "challenges.rated"),
        ("[challenges]\nmin_clock = 30\nmax_clock = 10", "challenges.max_clock"),
        ("[challenges]\nmax_clock = 1e9", "challenges.max_clock"),
        ("[challenges]\nrated = false\ncasual = false", "challenges.rated"),
        ("[challenges]\nclock = 5", "challenges.clock"),
    ],
)
def test_an_absurd_setting_is_refused_naming_its_key(tmp_path, line, key):
    path = tmp_path / "bridge.toml"
    head = [f"{k} = {v!r}" for k, v in (("server", "http://127.0.0.1:9"), ("program", "random")) if k != key]
    path.write_text("\n".join([*head, line]) + "\n")
    with pytest.raises(ConfigError) as refused:
        build(read_file(path))
    assert key in str(refused.value)


def test_the_token_comes_from_the_environment_or_a_file_never_an_option(tmp_path, monkeypatch):
    config = build({}, server="http://127.0.0.1:9", program="random")
    monkeypatch.delenv("MILLEBORNES_BOT_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="MILLEBORNES_BOT_TOKEN"):
        read_token(config)
    monkeypatch.setenv("MILLEBORNES_BOT_TOKEN", "mbb_env")
    assert read_token(config) == "mbb_env"
    (tmp_path / "t").write_text("mbb_file\n")
    assert read_token(config, tmp_path / "t") == "mbb_file"  # --token-file wins over the environment
    (tmp_path / "two").write_text("mbb_a mbb_b")
    with pytest.raises(ConfigError, match="holds no token"):
        read_token(config, tmp_path / "two")
    done = subprocess.run(
        [str(MILLEBORNES), "bot", "random", "--server", "http://127.0.0.1:9", "--token", "mbb_x"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "--token" in done.stderr
    done = subprocess.run([str(MILLEBORNES), "bot", JS_BOT], capture_output=True, text=True)
    assert done.returncode == 2 and "online only" in done.stderr


def test_a_program_that_cannot_start_stops_the_bridge_before_it_connects(tmp_path):
    done = subprocess.run(
        [str(MILLEBORNES), "bot", f"cmd:{sys.executable} -c 'raise SystemExit(5)'", "--server", "http://127.0.0.1:9"],
        env={**os.environ, "MILLEBORNES_BOT_TOKEN": "mbb_x"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "the program cannot play" in done.stderr and "exited with status 5" in done.stderr
    assert "connect" not in done.stderr


def test_the_filter_declares_what_it_accepts_and_refuses_the_rest():
    c = Challenges(editions=("classic",), players=(2,), rated=False, untimed=False, min_clock=10, max_clock=60)
    assert accepts(c) == {"rated": False, "casual": True, "editions": ["classic"], "players": [2]}
    assert accepts(Challenges()) == {"rated": True, "casual": True}
    ok = {"edition": "classic", "players": 2, "rated": False, "clock": 30}
    assert refusal(c, ok, 0) is None
    for change, words in [
        ({"edition": "parker"}, "edition"),
        ({"players": 3}, "players"),
        ({"rated": True}, "rated"),
        ({"clock": 0}, "without a turn clock"),
        ({"clock": 5}, "below"),
        ({"clock": 120}, "above"),
    ]:
        assert words in refusal(c, ok | change, 0), change
    assert "tables already" in refusal(Challenges(tables=2), ok, 2)


TELLS_TIME = """
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "timer"}), flush=True)
    elif m["type"] == "decide":
        with open(sys.argv[1], "a") as told:
            told.write(f"{os.getpid()} {m.get('seconds_left')}\\n")
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal_actions"][-1]}), flush=True)
    else:
        break
"""


def test_each_decide_goes_to_its_tables_program_with_the_time_left_less_the_margin(tmp_path):
    """The server's seconds_left when the decide has it, else the table's clock, else the hello's decision_seconds;
    less the margin (1 s), and a decision with no time left is not asked."""
    import asyncio

    from millebornes.online.bridge import Bridge as Routes
    from millebornes.online.engines import Engines
    from millebornes.online.logs import Logs

    (tmp_path / "timer.py").write_text(TELLS_TIME)
    told = tmp_path / "told"
    config = build({}, server="http://127.0.0.1:9", program=f"cmd:{sys.executable} {tmp_path / 'timer.py'} {told}")
    logs = Logs(None, "mbb_secret", io.StringIO())
    game = mb.new_game("classic", seed=2)
    decide = {"type": "decide", "observation": game.observation(game.to_act), "legal_actions": game.legal_actions()}
    sent: list[dict] = []

    async def send(message: dict) -> bool:
        sent.append(message)
        return True

    async def main() -> Engines:
        engines = Engines(config.command, "per-table", logs)
        bridge = Routes(config, logs, engines)
        bridge.greeted({"type": "hello", "limits": {"decision_seconds": 4}})
        challenge = {"id": 1, "table": "T1", "seat": 0, "edition": "classic", "players": 2, "rated": False}
        await bridge.challenge(challenge | {"type": "challenge", "clock": 6}, send)
        bridge.decide(decide | {"id": 2, "table": "T1", "seconds_left": 8.0}, send)
        bridge.decide(decide | {"id": 3, "table": "T1"}, send)
        bridge.decide(decide | {"id": 4, "table": "T2"}, send)
        bridge.decide(decide | {"id": 5, "table": "T3", "seconds_left": 0.5}, send)
        while bridge.tasks:
            await asyncio.gather(*bridge.tasks)
        assert sum(e.starts for e in engines.tables.values()) == 2  # T1's and T2's; none for T3
        await engines.close()
        return engines

    asyncio.run(main())
    by_process: dict[str, list[float]] = {}
    for line in told.read_text().splitlines():
        pid, left = line.split()
        by_process.setdefault(pid, []).append(float(left))
    (t2,), (t1_first, t1_then) = sorted(by_process.values(), key=len)  # T1's two decisions went to one process
    assert 6.5 <= t1_first <= 7.0 and 4.5 <= t1_then <= 5.0 and 2.5 <= t2 <= 3.0, by_process
    assert sent[0] == {"type": "accept", "id": 1}
    answers = {m["id"]: m["action"] for m in sent[1:]}
    assert answers == dict.fromkeys((2, 3, 4), game.legal_actions()[-1])
    assert "decide 5: no time left" in logs.stream.getvalue()


# --------------------------------------------------------------------------------------- online
@pytest.mark.server
def test_the_javascript_bot_plays_a_whole_match_through_the_bridge(server, owner, tmp_path):
    bridge = Bridge(tmp_path, server, owner.bot("js_bridged"), JS_BOT)
    try:
        until(lambda: owner.connected("js_bridged"), 30, "the bridge's connection")
        rival = Bot(server, owner.bot("js_rival"))
        rival.send(dare("js_bridged"))
        table = rival.got("challenged")["table"]
        over = rival.got("over", table, seconds=60)
        until(lambda: "over:" in bridge.table_log(table), 10, "the bridge's over")
        log = bridge.table_log(table)
        assert "challenge to table" in log and "accepted" in log
        assert bridge.decisions(table) > 3 and f"winners {json.dumps(over['winners'])}" in log
        assert ("(won)" if 1 in over["winners"] else "(lost)") in log  # the bridge's bot has seat 1, side 1
        seats = until(lambda: (f := facts(server, table))["status"] == "finished" and f["seats"], 10)
        assert [s["nickname"] for s in seats] == ["js_rival", "js_bridged"]
        assert not any(s["standin"] for s in seats)  # the program answered every decision in time
        until(lambda: "ended the program of table" in bridge.table_log(table), 10, "the end of its process")
        # what the bridge asks of a table whose over it may have missed while away
        from millebornes.online.bridge import Bridge as Routes
        from millebornes.online.engines import Engines
        from millebornes.online.logs import Logs

        logs = Logs(None, "")
        looker = Routes(build({}, server=server.base, program="random"), logs, Engines("true", "shared", logs))
        assert (looker.status(table), looker.status("No_Such_1")) == ("finished", "gone")
        rival.close()
    finally:
        assert bridge.stop() == 0
    said = bridge.said
    assert "playing as js_bridged with js-example" in said and "mbb_" not in said
    assert not any("mbb_" in p.read_text() for p in bridge.logs.iterdir())


@pytest.mark.server
def test_a_table_whose_over_came_while_the_bridge_was_away_is_forgotten_and_a_live_one_kept(server, monkeypatch):
    import asyncio

    from millebornes.online import bridge as routes
    from millebornes.online.engines import Engines
    from millebornes.online.logs import Logs

    monkeypatch.setattr(routes, "SWEEP_SECONDS", 0.05)
    monkeypatch.setattr(routes, "IDLE_SECONDS", 0.0)
    live = server.create(ruleset="dujardin", players=2, seats=[HUMAN, {"kind": "bot", "level": "easy"}])["id"]
    logs = Logs(None, "", io.StringIO())

    async def main() -> dict[str, float]:
        engines = Engines("true", "per-table", logs)
        bridge = routes.Bridge(build({}, server=server.base, program="random"), logs, engines)
        bridge.playing = {live: 0.0, "Gone_123": 0.0}
        sweep = asyncio.create_task(bridge.sweep())
        deadline = asyncio.get_running_loop().time() + 10
        while "Gone_123" in bridge.playing and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        sweep.cancel()
        await engines.close()
        return bridge.playing

    playing = asyncio.run(main())
    assert list(playing) == [live]  # waiting for its person: still live
    assert "the table is gone: its end came while the bridge was away" in logs.stream.getvalue()


@pytest.mark.server
def test_a_challenge_the_settings_exclude_is_declined(server, owner, tmp_path):
    config = tmp_path / "bridge.toml"
    config.write_text('program = "random"\n[challenges]\nmax_clock = 60\neditions = ["dujardin", "classic"]\n')
    bridge = Bridge(tmp_path, server, owner.bot("picky"), "--config", str(config))
    try:
        until(lambda: owner.connected("picky"), 30, "the bridge's connection")
        rival = Bot(server, owner.bot("picky_rival"))
        rival.send(dare("picky", clock=120))
        table = rival.got("challenged")["table"]
        until(lambda: facts(server, table)["seats"][1]["kind"] == "bot", 10, "the declined seat")
        until(lambda: "declined" in bridge.said, 5, "the bridge's word")
        assert "120 s a decision is above the most accepted, 60 s" in bridge.said
        assert not bridge.table_log(table)  # a declined table gets no log of its own
        # the hello declared the same filter: the server lists it and refuses, for the bridge, what it excludes
        listed = {b["name"]: b for b in httpx.get(f"{server.base}/api/bots/online", timeout=10).json()["bots"]}
        assert set(listed["picky"]["accepts"]["editions"]) == {"dujardin", "classic"}
        rival.send(dare("picky", id=2, edition="family"))
        assert rival.got("error")["code"] == "bot-refuses"
        rival.close()
    finally:
        assert bridge.stop() == 0


@pytest.mark.server
def test_a_wrong_token_ends_the_bridge_with_a_clear_word(server, tmp_path):
    bridge = Bridge(tmp_path, server, "mbb_not_a_token_at_all", "random")
    assert bridge.proc.wait(30) == 1
    said = bridge.said
    assert "stopped: the token opens no bot" in said and "4401" in said
    assert "mbb_not_a_token_at_all" not in said
    assert said.count("connected to") == 1  # not one attempt more


@pytest.mark.server
def test_each_table_gets_its_own_process_or_one_process_plays_them_all(server, owner, tmp_path):
    for processes, name in (("per-table", "many_procs"), ("shared", "one_proc")):
        bridge = Bridge(tmp_path, server, owner.bot(name), "random", "--processes", processes, name=name)
        try:
            until(lambda n=name: owner.connected(n), 30, "the bridge's connection")
            tables = [
                server.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat(name)], clock=0)["id"]
                for _ in range(2)
            ]
            until(lambda b=bridge: b.said.count("accepted") == 2, 15, "both challenges")
            started = until(
                lambda b=bridge: b.said.count("started the program") >= (2 if processes == "per-table" else 1)
            )
            time.sleep(0.5)  # a second process of a shared bridge would show by now
            pids = [
                int(line.rsplit("process ", 1)[1].rstrip(")"))
                for line in bridge.said.splitlines()
                if "started the program" in line
            ]
            if processes == "per-table":
                assert len(set(pids)) == 2 and all(_alive(p) for p in pids), bridge.said
                assert all(f"for table {t}" in bridge.said for t in tables)
            else:
                assert len(pids) == 1 and "for every table" in bridge.said
            assert started
        finally:
            assert bridge.stop() == 0
        assert not any(_alive(p) for p in pids)  # the bridge ends its programs when it stops


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet waited for, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "zombie" not in status.read_text().lower()


FAILING = """
import json, sys
answered = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "flaky"}), flush=True)
    elif m["type"] == "decide":
        answered += 1
        if answered > 4:
            sys.exit("flaky: four decisions are all I play")
        print(json.dumps({"type": "action", "id": m["id"], "action": m["legal_actions"][0]}), flush=True)
    elif m["type"] == "bye":
        break
"""


@pytest.mark.server
def test_a_program_that_breaks_the_protocol_is_started_afresh_and_the_match_goes_on(server, owner, tmp_path):
    (tmp_path / "flaky.py").write_text(FAILING)
    bridge = Bridge(tmp_path, server, owner.bot("flaky"), f"cmd:{sys.executable} {tmp_path / 'flaky.py'}")
    try:
        until(lambda: owner.connected("flaky"), 30, "the bridge's connection")
        rival = Bot(server, owner.bot("flaky_rival"))
        rival.send(dare("flaky"))
        table = rival.got("challenged")["table"]
        rival.got("over", table, seconds=60)
        log = until(lambda: "over:" in (t := bridge.table_log(table)) and t, 10, "the bridge's over")
        assert "the program failed, a new one plays the next decision" in log
        assert "four decisions are all I play" in log  # the end of its error output, for its author
        assert log.count("started the program") >= 2
        rival.close()
    finally:
        assert bridge.stop() == 0


@pytest.mark.server
def test_the_bridge_connects_again_after_a_server_restart_and_the_match_goes_on(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0.0)
    try:
        owner = Account(server, "own_restart")
        bridge = Bridge(tmp_path, server, owner.bot("sturdy"), JS_BOT)
        until(lambda: owner.connected("sturdy"), 30, "the bridge's connection")
        table = server.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("sturdy")], clock=0)
        ann = Seat(server, table, 0, "Ann")
        person_plays(ann, stop=lambda: bridge.decisions(table["id"]) >= 3, seconds=30)
        before = bridge.decisions(table["id"])
        ann.close()
        server.stop()
        until(lambda: "the connection was lost" in bridge.said or "closed the connection" in bridge.said, 10)
        server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0.0, port=server.port)
        until(lambda: bridge.said.count("playing as sturdy") >= 2, 40, "the bridge's new connection")
        ann = Seat(server, table, 0, "Ann")
        final = person_plays(ann, seconds=60)
        assert final["observation"]["is_over"]
        until(lambda: "over:" in bridge.table_log(table["id"]), 10, "the bridge's over")
        assert bridge.decisions(table["id"]) > before
        assert "connecting again in" in bridge.said
        seats = facts(server, table["id"])["seats"]
        assert seats[1]["nickname"] == "sturdy" and not seats[1]["standin"]
        assert bridge.stop() == 0
    finally:
        server.stop()
