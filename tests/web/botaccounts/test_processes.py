"""Bots online with several server processes on one PostgreSQL (docs/web-api.md, "Bots online"): a bot connected to one
process is challenged by a table made at another, sits down again at its tables from whichever process it connects
to, and challenges a bot connected elsewhere.  A challenge nobody can answer (a bot whose row says connected, at no
live process) is tested in test_botaccounts.py, on PostgreSQL too."""

from __future__ import annotations

import json
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
ws_sync = pytest.importorskip("websockets.sync.client")

from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.conftest import Hasty  # noqa: E402
from tests.serving import PASSWORD, Account, Seat, Server, bot_seat, until  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.server]

HUMAN = {"kind": "human"}


class Bot(threading.Thread):
    """A bot on a real socket to one process: accepts (or declines) challenges, answers each decide with its first
    legal action, keeps every message."""

    def __init__(self, server: Server, token: str, accept: bool = True):
        super().__init__(daemon=True)
        self.ws = ws_sync.connect(
            f"ws://127.0.0.1:{server.port}/ws/bot",
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=10,
            legacy=True,
        )
        self.accept = accept
        self.messages: list[dict] = []
        self.ready = threading.Event()
        self.start()
        assert self.ready.wait(10), "no hello"

    def run(self) -> None:
        try:
            for text in self.ws:
                m = json.loads(text)
                self.messages.append(m)
                if m["type"] == "hello":
                    self.send({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"})
                    self.ready.set()
                elif m["type"] == "challenge":
                    self.send({"type": "accept" if self.accept else "decline", "id": m["id"]})
                elif m["type"] == "decide":
                    self.send({"type": "action", "id": m["id"], "action": m["legal_actions"][0]})
        except Exception:
            pass

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def got(self, kind: str, table: str | None = None, seconds: float = 30) -> dict:
        """The first message of that type (about that table), waited for."""

        def found():
            return next((m for m in list(self.messages) if m["type"] == kind and table in (None, m.get("table"))), None)

        return until(found, seconds, f"a {kind} message")

    def decides(self, table: str) -> int:
        return sum(1 for m in list(self.messages) if m["type"] == "decide" and m["table"] == table)

    def close(self) -> None:
        self.ws.close()
        self.join(10)


def over(state: dict) -> bool:
    return state["status"] == "finished" or state["observation"]["is_over"]


def person_plays(seat: Seat, stop=lambda: False, seconds: float = 120) -> dict:
    """The person plays hasty legal moves until the match is over (or ``stop()``); the last state."""
    hasty, acted = Hasty(3), -1
    deadline = time.monotonic() + seconds
    while not over(seat.state) and not stop():
        assert time.monotonic() < deadline, "the match did not end in time"
        legal = seat.obs["legal_actions"]
        if seat.state["status"] == "playing" and legal and acted != seat.state["seq"]:
            acted = seat.state["seq"]
            seat.act(hasty.choice(legal))
        try:
            frame = json.loads(seat.ws.recv(timeout=1))
        except TimeoutError:
            continue
        if frame["type"] == "state":
            seat.state = frame
    return seat.state


def facts(server: Server, table_id: str) -> dict:
    return httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()


@pytest.fixture
def two(fresh_postgres, tmp_path):
    url = fresh_postgres()
    servers = [Server(url, tmp_path / f"server{i}.log", 0) for i in range(2)]
    yield servers
    for s in servers:
        s.stop()


def test_a_table_made_at_one_process_challenges_a_bot_connected_to_another(two):
    a, b = two
    owner = Account(a, "owner_1")
    bot = Bot(b, owner.bot("far_bot"))
    shy = Bot(b, owner.bot("shy_bot"), accept=False)
    # declined at the bot's process: the seat is a built-in bot's at once, at the creating process too
    table = a.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("shy_bot")], clock=0)
    assert shy.got("challenge", table["id"])["seat"] == 1
    until(lambda: facts(a, table["id"])["seats"][1]["kind"] == "bot", 5, "the declined seat")
    # accepted at the bot's process: the seat is the bot's, and the match is played across the two processes
    table = a.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("far_bot")], clock=0)
    assert table["seats"][1] == {"seat": 1, "kind": "bot-account", "name": "far_bot", "answer_within": 10.0}
    challenge = bot.got("challenge", table["id"])
    assert (challenge["edition"], challenge["seat"], challenge["clock"]) == ("dujardin", 1, 0.0)
    until(lambda: facts(a, table["id"])["seats"][1]["nickname"] == "far_bot", 10, "the bot's seat")
    ann = Seat(a, table, 0, "Ann")
    final = person_plays(ann)
    assert final["observation"]["is_over"]
    assert bot.decides(table["id"]) > 3
    assert bot.got("over", table["id"])["table"] == table["id"]
    seats = facts(a, table["id"])["seats"]
    assert seats[1]["kind"] == "human" and seats[1]["nickname"] == "far_bot"
    assert not any(s["standin"] for s in seats)
    bot.close()
    shy.close()


def test_a_bot_sits_down_again_at_its_table_from_another_process(two):
    a, b = two
    owner = Account(a, "owner_1")
    token = owner.bot("roamer")
    bot = Bot(a, token)
    table = a.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("roamer")], clock=0)
    bot.got("challenge", table["id"])
    until(lambda: facts(a, table["id"])["seats"][1]["nickname"] == "roamer", 10, "the bot's seat")
    ann = Seat(a, table, 0, "Ann")
    person_plays(ann, stop=lambda: bot.decides(table["id"]) >= 3)
    bot.close()
    moved = Bot(b, token)  # the same bot at the other process: its seat comes with its account
    final = person_plays(ann)
    assert final["observation"]["is_over"]
    assert moved.decides(table["id"]) > 0
    assert moved.got("over", table["id"])
    assert not any(m["type"] == "challenge" for m in moved.messages)
    moved.close()


def test_a_bot_challenges_a_bot_connected_to_another_process(two):
    a, b = two
    owner = Account(a, "owner_1")
    red, blue = Bot(a, owner.bot("red")), Bot(b, owner.bot("blue"))
    red.send(
        {
            "type": "challenge",
            "id": 1,
            "opponent": "blue",
            "edition": "dujardin",
            "players": 2,
            "rated": False,
            "clock": 0,
            "cf_timeout": 0.3,
        }
    )
    table_id = red.got("challenged")["table"]
    assert blue.got("challenge", table_id)["seat"] == 1
    for bot in (red, blue):
        bot.got("over", table_id, seconds=120)
        assert bot.decides(table_id) > 3
    for server in (a, b):
        seats = until(lambda s=server: (f := facts(s, table_id))["status"] == "finished" and f["seats"], 10)
        assert [s["nickname"] for s in seats] == ["red", "blue"]
    red.close()
    blue.close()


def test_a_seek_withdrawn_at_one_process_turns_away_the_people_at_another(two):
    """A bot at process a seeks a four-player table; a person (and another bot) sit down through process b; the seek
    withdrawn at a, b's person is told ``withdrawn`` and turned away (4410), b's bot hears ``withdrawn``."""
    a, b = two
    owner = Account(a, "owner_1")
    red, blue = Bot(a, owner.bot("red")), Bot(b, owner.bot("blue"))
    red.send({"type": "seek", "id": 1, "edition": "dujardin", "players": 4, "rated": False, "clock": 0})
    table_id = red.got("sought")["table"]
    link = httpx.post(f"{b.base}/api/tables/{table_id}/seats/1/claim", timeout=10).json()["url"]
    ann = Seat(b, {"id": table_id, "seats": [{"seat": 1, "url": link}]}, 1, "Ann")
    blue.send({"type": "join", "id": 2, "table": table_id})
    until(lambda: facts(a, table_id)["seats"][2]["nickname"] == "blue", 10, "blue's seat")
    red.send({"type": "unseek", "table": table_id})
    assert red.got("withdrawn", table_id)
    assert blue.got("withdrawn", table_id)
    frames = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(json.loads(ann.ws.recv(timeout=10)))
    told = [f for f in frames if f["type"] == "error"]
    assert [f["code"] for f in told] == ["withdrawn"], frames
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410
    assert httpx.get(f"{b.base}/api/tables/{table_id}", timeout=10).status_code == 410  # expired
    red.close()
    blue.close()
