"""Bots online (docs/web-api.md, "Bots online"): a person makes bot accounts whose token is shown once and kept hashed;
a bot connects to /ws/bot with it, is challenged by a table a person creates, and plays its seat as a remote player
(the turn clock, stand-ins and ratings apply), seeing no more than its seat's observation; its seats are its
account's (a new connection or a restart gives them back), it challenges another bot, a revoked or renewed token
closes it, and the example bot plays a whole rated match against a person on a real server."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
ws_sync = pytest.importorskip("websockets.sync.client")

from tests.schemas import load, validate  # noqa: E402
from tests.serving import Account, Seat, Server, bot_seat, until  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

HUMAN = {"kind": "human"}
PASSWORD = "correct horse battery"
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "online_bot.py"


def signed_up(c, username: str = "ann_1") -> dict:
    r = c.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def test_a_bot_is_made_by_a_signed_in_person_and_its_token_shown_once(web):
    c = web.start()
    assert c.get("/api/account/bots").status_code == 401
    assert c.post("/api/account/bots", json={"username": "robo"}).status_code == 401
    csrf = signed_up(c)
    r = c.post("/api/account/bots", json={"username": "robo"})
    assert (r.status_code, r.json()["code"]) == (403, "csrf")
    r = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf | {"Origin": "https://evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    for bad in ("ab", "_robo", "robo bot", "a" * 21, 12):
        r = c.post("/api/account/bots", json={"username": bad}, headers=csrf)
        assert (r.status_code, r.json()["field"]) == (422, "username"), r.text
    r = c.post("/api/account/bots", json={"username": "Robo_1"}, headers=csrf)
    assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
    token = r.json()["token"]
    assert token.startswith("mbb_") and len(token) > 40
    listed = c.get("/api/account/bots").json()
    assert listed["bots"] == [
        {
            "name": "Robo_1",
            "created": r.json()["bot"]["created"],
            "last_connected": None,
            "revoked": False,
            "connected": False,
        }
    ]
    assert token not in json.dumps(listed)
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.connect() as conn:
        (stored,) = conn.execute(text("SELECT token_hash FROM bots")).one()
        (password,) = conn.execute(text("SELECT password_hash FROM accounts WHERE username = 'Robo_1'")).one()
    db.dispose()
    import hashlib

    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    # one namespace with people's accounts, whatever the case; and a bot never signs in
    assert c.post("/api/account/bots", json={"username": "ann_1"}, headers=csrf).json()["code"] == "taken"
    assert c.post("/api/account/bots", json={"username": "ROBO_1"}, headers=csrf).json()["code"] == "taken"
    other = web.stack.enter_context(__import__("fastapi.testclient").testclient.TestClient(web.app))
    assert other.post("/api/account/signup", json={"username": "robo_1", "password": PASSWORD}).status_code == 409
    for guess in (PASSWORD, password, token, ""):
        r = other.post("/api/account/signin", json={"username": "Robo_1", "password": guess or "x"})
        assert r.status_code == 401


def test_a_person_has_at_most_five_bots_and_deleting_a_bot_frees_its_name(web):
    c = web.start()
    csrf = signed_up(c)
    for n in range(5):
        assert c.post("/api/account/bots", json={"username": f"robo_{n}"}, headers=csrf).status_code == 201
    r = c.post("/api/account/bots", json={"username": "robo_5"}, headers=csrf)
    assert (r.status_code, r.json()["code"]) == (409, "too-many-bots")
    assert len(c.get("/api/account/bots").json()["bots"]) == 5
    assert c.request("DELETE", "/api/account/bots/robo_0", json={}, headers=csrf).json() == {"deleted": True}
    assert c.request("DELETE", "/api/account/bots/robo_0", json={}, headers=csrf).status_code == 404
    assert c.post("/api/account/bots", json={"username": "robo_0"}, headers=csrf).status_code == 201
    # another person cannot touch them
    from fastapi.testclient import TestClient

    bob = web.stack.enter_context(TestClient(web.app))
    bob_csrf = signed_up(bob, "bob_2")
    assert bob.post("/api/account/bots/robo_1/token", json={}, headers=bob_csrf).status_code == 404
    assert bob.request("DELETE", "/api/account/bots/robo_1", json={}, headers=bob_csrf).status_code == 404
    # deleting the owner deletes its bots
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf)
    assert r.status_code == 200
    assert bob.post("/api/account/bots", json={"username": "robo_1"}, headers=bob_csrf).status_code == 201


def bot_socket(c, token: str | None):
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return c.websocket_connect("/ws/bot", headers=headers)


def closed_with(ws) -> tuple[list[dict], int]:
    """The messages before the close, and its code."""
    from starlette.websockets import WebSocketDisconnect

    got = []
    try:
        while True:
            got.append(ws.receive_json())
    except WebSocketDisconnect as gone:
        return got, gone.code


def hello(ws) -> dict:
    first = ws.receive_json()
    assert first["type"] == "hello" and first["protocol"] == "millebornes-bot/1" and isinstance(first["seed"], int)
    ws.send_json({"type": "hello", "protocol": "millebornes-bot/1", "name": "test"})
    return first


def test_a_wrong_or_revoked_token_is_refused_and_a_renewal_closes_the_connection(web):
    c = web.start()
    csrf = signed_up(c)
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf).json()["token"]
    for wrong in (None, "mbb_nope", token + "x"):
        with bot_socket(c, wrong) as ws:
            got, code = closed_with(ws)
        assert code == 4401 and [m["type"] for m in got] == ["error"], got
    with bot_socket(c, token) as ws:
        assert hello(ws)["name"] == "robo"
        assert c.get("/api/account/bots").json()["bots"][0]["connected"] is True
        r = c.post("/api/account/bots/robo/token", json={}, headers=csrf)
        assert r.status_code == 200
        renewed = r.json()["token"]
        got, code = closed_with(ws)
        assert code == 4401 and "renewed" in got[-1]["message"]
    with bot_socket(c, token) as ws:
        assert closed_with(ws)[1] == 4401
    bots = c.get("/api/account/bots").json()["bots"]
    assert bots[0]["last_connected"] is not None and bots[0]["connected"] is False
    with bot_socket(c, renewed) as ws:
        hello(ws)
        # a second connection replaces the first
        with bot_socket(c, renewed) as second:
            hello(second)
            assert closed_with(ws)[1] == 4409
        assert c.request("DELETE", "/api/account/bots/robo/token", json={}, headers=csrf).json()["bot"]["revoked"]
    assert c.get("/api/account/bots").json()["bots"][0]["revoked"] is True
    with bot_socket(c, renewed) as ws:
        assert closed_with(ws)[1] == 4401


def test_a_bot_must_say_hello_and_its_bad_messages_are_refused(web):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    with bot_socket(c, token) as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "id": 1, "action": "draw"})
        got, code = closed_with(ws)
        assert code == 4400 and "hello" in got[-1]["message"]
    with bot_socket(c, token) as ws:
        hello(ws)
        ws.send_text("not json")
        assert ws.receive_json()["id"] is None
        ws.send_text("x" * 20_000)
        assert "at most" in ws.receive_json()["message"]
        ws.send_json({"type": "action", "id": 99, "action": "draw"})
        assert ws.receive_json() == {
            "type": "error",
            "id": 99,
            "code": "stale",
            "message": "request 99 is not open: answered already, or the table moved on",
        }
        ws.send_json({"type": "accept", "id": 5})
        assert "challenge" in ws.receive_json()["message"]


def test_a_table_for_a_bot_not_connected_is_refused_and_a_declined_seat_goes_to_a_built_in_bot(web):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    body = {"ruleset": "dujardin", "players": 2, "seats": [HUMAN, bot_seat("robo")], "cf_timeout": 0.05}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 422 and "not connected" in r.json()["detail"], r.text
    for seats in (
        [bot_seat("robo"), bot_seat("robo")],
        [HUMAN, {"kind": "bot-account"}],
        [HUMAN, {"kind": "human", "name": "robo"}],
    ):
        assert c.post("/api/tables", json=body | {"seats": seats}).status_code == 422
    with bot_socket(c, token) as ws:
        hello(ws)
        for seats in ([HUMAN, bot_seat("nobody")], [bot_seat("robo"), bot_seat("robo"), HUMAN]):
            r = c.post("/api/tables", json=body | {"seats": seats, "players": len(seats)})
            assert r.status_code == 422, r.text
        r = c.post("/api/tables", json=body)
        assert r.status_code == 201
        table = r.json()
        assert table["seats"][1] == {"seat": 1, "kind": "bot-account", "name": "robo", "answer_within": 10.0}
        challenge = ws.receive_json()
        assert challenge == {
            "type": "challenge",
            "id": challenge["id"],
            "table": table["id"],
            "seat": 1,
            "edition": "dujardin",
            "players": 2,
            "teams": False,
            "rated": False,
            "clock": 120.0,
        }
        ws.send_json({"type": "decline", "id": challenge["id"]})
        seats = until(lambda: (s := c.get(f"/api/tables/{table['id']}").json()["seats"])[1]["kind"] == "bot" and s)
        assert seats[1]["level"] is not None
        # the lobby never offers a bot's seat to a stranger
        public = c.post("/api/tables", json=body | {"public": True}).json()
        ws.receive_json()
        assert c.post(f"/api/tables/{public['id']}/seats/1/claim").status_code == 409


def test_a_challenge_nobody_answers_is_declined(web):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    web.app.state.gateway.challenge_seconds = 0.3
    with bot_socket(c, token) as ws:
        hello(ws)
        table = c.post(
            "/api/tables", json={"ruleset": "dujardin", "players": 2, "seats": [HUMAN, bot_seat("robo")]}
        ).json()
        assert ws.receive_json()["type"] == "challenge"
        until(lambda: c.get(f"/api/tables/{table['id']}").json()["seats"][1]["kind"] == "bot")


class Wire:
    """A bot's socket in the test's process, read with a timeout (closed with the app at the latest)."""

    def __init__(self, web, token: str):
        self.session = bot_socket(web.client, token)
        self.ws = self.session.__enter__()
        self.open = True
        web.stack.callback(self.close)
        self.hello = hello(self.ws)

    def recv(self, timeout: float = 10.0) -> dict:
        import anyio

        async def get():
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        msg = self.ws.portal.call(get)
        assert msg["type"] == "websocket.send", msg
        return json.loads(msg["text"])

    def poll(self, timeout: float = 0.01) -> dict | None:
        try:
            return self.recv(timeout)
        except TimeoutError:
            return None

    def expect(self, kind: str, timeout: float = 10.0) -> dict:
        """The next message of this type (others on the way are passed over)."""
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, deadline - time.monotonic()))
            if m["type"] == kind:
                return m

    def send(self, message: dict) -> None:
        self.ws.send_json(message)

    def close(self) -> None:
        if self.open:
            self.open = False
            self.session.__exit__(None, None, None)


def over(state: dict) -> bool:
    return state["status"] == "finished" or state["observation"]["is_over"]


def play_out(table_id: str, bots: list[Wire], person=None, decides: int | None = None, seconds: float = 120) -> int:
    """Play the table: each bot answers its decides with the first legal action, the person (a SeatClient) plays
    hasty moves; until every bot got ``over`` and the person's state is over, or until the bots answered
    ``decides`` decides.  Returns the decides answered."""
    from tests.conftest import Hasty

    hasty, acted, answered, ended = Hasty(7), -1, 0, set()
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        if decides is not None and answered >= decides:
            return answered
        if len(ended) == len(bots) and (person is None or over(person.state)):
            return answered
        for i, bot in enumerate(bots):
            while (m := bot.poll()) is not None:
                if m["type"] == "decide" and m["table"] == table_id:
                    bot.send({"type": "action", "id": m["id"], "action": m["legal_actions"][0]})
                    answered += 1
                elif m["type"] == "over" and m["table"] == table_id:
                    ended.add(i)
        if person is not None:
            state = person.state
            if (
                not over(state)
                and state["status"] == "playing"
                and person.obs["legal_actions"]
                and acted != state["seq"]
            ):
                acted = state["seq"]
                person.act(hasty.choice(person.obs["legal_actions"]))
            try:
                while True:
                    person.recv(0.01)
            except TimeoutError:
                pass


def test_a_bots_seats_are_its_accounts_on_a_new_connection_and_after_a_restart(web):
    """The bot's seats are its account's, not its connection's: a new connection takes them back, and so does one
    after a restart of the server, which remembers nothing of the bot but the database."""
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    bot = Wire(web, token)
    table = web.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("robo")], clock=0)
    challenge = bot.expect("challenge")
    bot.send({"type": "accept", "id": challenge["id"]})
    ann = web.join(table, 0, "Ann")
    assert play_out(table["id"], [bot], ann, decides=3) >= 3
    # a new connection (no restart): its seat again, and the decides with it
    bot.close()
    bot = Wire(web, token)
    assert play_out(table["id"], [bot], ann, decides=3) >= 3
    # a restart: the new process knows the bot from the database alone
    bot.close()
    c = web.start()
    ann = web.join(table, 0)
    bot = Wire(web, token)
    assert play_out(table["id"], [bot], ann, decides=1) >= 1
    play_out(table["id"], [bot], ann)
    facts = c.get(f"/api/tables/{table['id']}").json()
    assert facts["status"] == "finished" and facts["seats"][1]["kind"] == "human"
    assert facts["seats"][1]["nickname"] == "robo"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_table_for_a_bot_whose_row_says_connected_but_no_process_has_it_is_declined_in_time(web, database, request):
    """A process that died leaves the bot's row saying it is connected: the creation goes through, nobody asks the
    bot (on PostgreSQL the notice finds nobody), and the process that made the table gives the seat to a built-in
    bot once the answer is overdue."""
    c = web.start(request.getfixturevalue("fresh_postgres")() if database == "postgresql" else None)
    c.post("/api/account/bots", json={"username": "ghost"}, headers=signed_up(c))
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.begin() as conn:
        conn.execute(text("UPDATE bots SET connection = 'dead0process'"))
    db.dispose()
    gateway = web.app.state.gateway
    gateway.challenge_seconds, gateway.challenge_margin = 0.3, 0.3
    table = web.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("ghost")])
    assert table["seats"][1] == {"seat": 1, "kind": "bot-account", "name": "ghost", "answer_within": 0.3}
    assert c.get(f"/api/tables/{table['id']}").json()["seats"][1]["kind"] == "human"
    ann = web.join(table, 0)
    seats = until(lambda: (s := c.get(f"/api/tables/{table['id']}").json()["seats"])[1]["kind"] == "bot" and s, 10)
    assert seats[1]["level"] is not None
    assert ann.expect("state")["status"] == "playing"  # the person's table starts with the built-in bot


def test_a_bot_challenges_another_bot_and_both_play_the_match_out(web):
    c = web.start()
    tokens = []
    for owner, name in (("ann_1", "red"), ("bob_1", "blue")):  # two owners: a rated match between them counts
        c.cookies.clear()
        csrf = signed_up(c, owner)
        tokens.append(c.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"])
    red, blue = Wire(web, tokens[0]), Wire(web, tokens[1])
    dare = {"type": "challenge", "id": 7, "opponent": "blue", "edition": "dujardin", "players": 2, "rated": True}
    red.send(dare | {"clock": 0, "cf_timeout": 0.05})
    challenged = red.expect("challenged")
    assert challenged == {"type": "challenged", "id": 7, "table": challenged["table"]}
    messages = load("protocol.schema.json")
    assert validate(dare | {"clock": 0, "cf_timeout": 0.05}, messages["$defs"]["bot_challenge"], messages) == []
    assert validate(challenged, messages["$defs"]["challenged"], messages) == []
    table_id = challenged["table"]
    challenge = blue.expect("challenge")
    assert challenge == {
        "type": "challenge",
        "id": challenge["id"],
        "table": table_id,
        "seat": 1,
        "edition": "dujardin",
        "players": 2,
        "teams": False,
        "rated": True,
        "clock": 0.0,
    }
    facts = c.get(f"/api/tables/{table_id}").json()
    assert facts["public"] is True and facts["spectators"] is True
    assert c.post(f"/api/tables/{table_id}/seats/1/claim").status_code == 409  # the lobby offers neither seat
    blue.send({"type": "accept", "id": challenge["id"]})
    assert play_out(table_id, [red, blue]) > 10
    facts = c.get(f"/api/tables/{table_id}").json()
    assert facts["status"] == "finished"
    assert [s["nickname"] for s in facts["seats"]] == ["red", "blue"]
    assert not any(s["standin"] for s in facts["seats"])
    assert until(lambda: rated(web.url, table_id)) == ["blue", "red"]  # two bot accounts: the match rates both


def rated(url: str, table_id: str) -> list[str]:
    """The accounts a match rated, by name."""
    from sqlalchemy import create_engine, text

    db = create_engine(url)
    with db.connect() as conn:
        names = conn.execute(
            text(
                "SELECT a.username FROM rating_changes r JOIN accounts a ON a.id = r.account_id "
                "WHERE r.table_id = :t ORDER BY a.username"
            ),
            {"t": table_id},
        )
        found = list(names.scalars())
    db.dispose()
    return found


def test_a_bots_challenge_is_checked_and_a_refused_one_makes_nothing(web):
    c = web.start()
    csrf = signed_up(c)
    tokens = [c.post("/api/account/bots", json={"username": n}, headers=csrf).json()["token"] for n in ("red", "blue")]
    c.post("/api/account/bots", json={"username": "asleep"}, headers=csrf)
    red, blue = Wire(web, tokens[0]), Wire(web, tokens[1])
    good = {"type": "challenge", "id": 1, "opponent": "blue", "edition": "dujardin", "players": 2, "rated": False}
    good["clock"] = 0
    for n, (change, said) in enumerate(
        [
            ({"id": "1"}, "integer id"),
            ({"opponent": "red"}, "itself"),
            ({"opponent": "RED"}, "itself"),
            ({"opponent": "nobody"}, "not connected"),
            ({"opponent": "asleep"}, "not connected"),
            ({"opponent": "ann_1"}, "not connected"),
            ({"opponent": ""}, "opponent"),
            ({"opponent": 5}, "opponent"),
            ({"edition": "nope"}, "edition"),
            ({"edition": ["dujardin"]}, "edition"),
            ({"players": 3}, "players"),
            ({"players": True}, "players"),
            ({"rated": 1}, "rated"),
            ({"rated": True}, "one owner"),  # red and blue are both ann_1's
            ({"clock": -1}, "clock"),
            ({"clock": "0"}, "clock"),
            ({"clock": 10**6}, "clock"),
            ({"cf_timeout": 0.001}, "cf_timeout"),
            ({"cf_timeout": None}, "cf_timeout"),
            ({"seed": 3}, "seed"),
            ({"deck": []}, "deck"),
        ]
    ):
        red.send(good | {"id": 100 + n} | change)
        error = red.expect("error")
        assert said in error["message"], (change, error)
        assert error["id"] == (None if change == {"id": "1"} else 100 + n)
    red.send({k: v for k, v in good.items() if k != "clock"})
    assert "clock" in red.expect("error")["message"]
    assert blue.poll(0.3) is None  # nobody was challenged
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == 0
    db.dispose()


# ---------------------------------------------------------------- a real server
class PlayingBot(threading.Thread):
    """A bot in a thread on a real socket: accepts challenges, keeps every decide, answers at random (or never)."""

    def __init__(self, server: Server, token: str, answers: bool = True):
        super().__init__(daemon=True)
        self.ws = ws_sync.connect(
            f"ws://127.0.0.1:{server.port}/ws/bot",
            additional_headers={"Authorization": f"Bearer {token}"},
            legacy=True,
        )
        self.answers = answers
        self.decides: list[dict] = []
        self.messages: list[dict] = []
        self.over = threading.Event()
        self.rng = random.Random(5)
        self.start()

    def run(self) -> None:
        try:
            for text in self.ws:
                m = json.loads(text)
                self.messages.append(m)
                if m["type"] == "hello":
                    self.ws.send(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"}))
                elif m["type"] == "challenge":
                    self.ws.send(json.dumps({"type": "accept", "id": m["id"]}))
                elif m["type"] == "decide":
                    self.decides.append(m)
                    if self.answers:
                        action = self.rng.choice(m["legal_actions"])
                        self.ws.send(json.dumps({"type": "action", "id": m["id"], "action": action}))
                elif m["type"] == "over":
                    self.over.set()
        except Exception:
            pass


def person_plays(seat: Seat, rng: random.Random, stop=lambda state: False, seconds: float = 180) -> dict:
    """The person plays random legal moves until the match is over (or ``stop``); the last state."""
    deadline = time.monotonic() + seconds
    acted = -1
    while True:
        state = seat.state
        if state["status"] == "finished" or state["observation"]["is_over"] or stop(state):
            return state
        assert time.monotonic() < deadline, "the match did not end in time"
        legal = state["observation"]["legal_actions"]
        if state["status"] == "playing" and legal and acted != state["seq"]:
            acted = state["seq"]
            seat.act(rng.choice(legal))
        frame = json.loads(seat.ws.recv(timeout=60))
        if frame["type"] == "state":
            seat.state = frame


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "mb.db", tmp_path / "server.log", 0.0)
    yield s
    s.stop()


@pytest.mark.server
def test_the_example_bot_plays_a_whole_rated_match_against_a_person(server, tmp_path):
    ann = Account(server, "ann_1")
    owner = Account(server, "owner_2")
    token = owner.bot("example_bot")
    env = {**os.environ, "MILLEBORNES_URL": server.base, "MILLEBORNES_BOT_TOKEN": token}
    out = open(tmp_path / "bot.log", "wb")
    bot = subprocess.Popen([sys.executable, str(EXAMPLE), "--matches", "1"], env=env, stdout=out, stderr=out)
    try:
        until(lambda: owner.connected("example_bot"), what="the example bot's connection")
        table = server.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("example_bot")], rated=True)
        seat = Seat(server, table, 0, "Ann")
        token0 = next(s["url"] for s in table["seats"] if s["seat"] == 0).split("token=")[1]
        r = ann.http.post(
            "/api/account/claim",
            json={"seats": [{"table": table["id"], "seat": 0, "token": token0}]},
            headers=ann.csrf,
        )
        assert r.json()["claimed"] == [{"table": table["id"], "seat": 0}]
        final = person_plays(seat, random.Random(3))
        assert final["observation"]["is_over"]
        assert bot.wait(60) == 0, (tmp_path / "bot.log").read_text()
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        out.close()
    facts = httpx.get(f"{server.base}/api/tables/{table['id']}").json()
    assert facts["status"] == "finished" and facts["seats"][1]["nickname"] == "example_bot"
    assert not any(s["standin"] for s in facts["seats"])
    ratings = until(lambda: ann.http.get("/api/account").json()["ratings"], what="the rating")
    assert ratings["dujardin"]["matches"] == 1
    from sqlalchemy import create_engine, text

    db = create_engine(f"sqlite:///{tmp_path / 'mb.db'}")
    with db.connect() as c:
        rated = (
            c.execute(
                text(
                    "SELECT a.username FROM rating_changes r JOIN accounts a ON a.id = r.account_id "
                    "WHERE r.table_id = :t ORDER BY a.username"
                ),
                {"t": table["id"]},
            )
            .scalars()
            .all()
        )
    db.dispose()
    assert rated == ["ann_1", "example_bot"]
    assert "challenged to table" in (tmp_path / "bot.log").read_text()


@pytest.mark.server
def test_a_bot_sees_only_its_seats_observation(server):
    owner = Account(server, "owner_1")
    bot = PlayingBot(server, owner.bot("looker"))
    until(lambda: owner.connected("looker"))
    table = server.create(
        ruleset="dujardin", players=3, seats=[HUMAN, bot_seat("looker"), {"kind": "bot", "level": "easy"}]
    )
    seat = Seat(server, table, 0, "Ann")
    person_plays(seat, random.Random(4))
    assert bot.over.wait(30)
    assert len(bot.decides) > 5
    messages = load("protocol.schema.json")
    online = {"hello": "online_hello", "decide": "online_decide", "challenge": "challenge", "over": "over"}
    for m in bot.messages:
        assert validate(m, messages["$defs"][online[m["type"]]], messages) == [], m["type"]
    for d in bot.decides:
        assert set(d) == {"type", "id", "observation", "legal_actions", "table", "seconds_left"}
        assert 0 <= d["seconds_left"] <= 120
        obs = d["observation"]
        assert d["table"] == table["id"] and obs["seat"] == 1 and obs["to_act"] == 1
        assert d["legal_actions"] == obs["legal_actions"] and d["legal_actions"]
        assert len(obs["hand"]) == obs["hand_sizes"][1]
        assert obs["known_cards"][1] == []
        text_ = json.dumps(obs)
        assert "seed" not in text_ and "hands" not in obs and "deck" not in obs
    bot.ws.close()


@pytest.mark.server
def test_a_bot_asked_for_a_coup_fourre_is_told_it_is_its_decision_and_the_person_is_not(server):
    """The window shows every seat nobody to act; the bot holding the safety gets a decide naming its own seat, as
    docs/protocol.md says of ``to_act``, so a program that checks whose decision it is (or rebuilds the game from
    the observation) is not misled, and its answer is taken within the window."""
    owner = Account(server, "owner_1")
    bot = PlayingBot(server, owner.bot("holder"))
    until(lambda: owner.connected("holder"))
    bot.rng = CallsCoupFourre()
    deck = stacked_deck(
        "classic",
        2,
        hands={
            0: ["speed-limit", "25", "25", "50", "50", "75"],
            1: ["right-of-way", "25", "50", "75", "gasoline", "repairs"],
        },
    )
    table = server.create(ruleset="classic", players=2, seats=[HUMAN, bot_seat("holder")], deck=deck, cf_timeout=20)
    seat = Seat(server, table, 0, "Ann")
    while seat.obs["to_act"] != 0:
        seat.next_state()
    seat.act("play speed-limit 1")
    window = seat.next_state()
    assert window["observation"]["decision"] == "coup-fourre" and window["observation"]["to_act"] is None
    assert window["observation"]["legal_actions"] == [] and window["cf_deadline"] > 5
    until(lambda: bot.decides)
    asked = bot.decides[0]
    obs = asked["observation"]
    assert obs["decision"] == "coup-fourre" and obs["to_act"] == 1 and obs["seat"] == 1
    assert sorted(asked["legal_actions"]) == ["coup-fourre", "pass"]
    assert 0 < asked["seconds_left"] <= 20 and abs(asked["seconds_left"] - window["cf_deadline"]) < 2  # the window's
    assert obs["pending_attack"] == {"attacker": 0, "hazard": "speed-limit", "side": 1}
    closed = seat.next_state()
    assert closed["cf_deadline"] is None and closed["observation"]["tableaux"][1]["coups_fourres"] == ["right-of-way"]
    assert not [m for m in bot.messages if m["type"] == "error"]
    bot.ws.close()


class CallsCoupFourre(random.Random):
    """A bot's picks: a coup fourré whenever it may call one, else the first legal action."""

    def choice(self, seq):
        return "coup-fourre" if "coup-fourre" in seq else seq[0]


@pytest.mark.server
def test_a_bot_that_never_answers_is_played_for_by_the_stand_in_and_the_match_goes_on(server):
    owner = Account(server, "owner_1")
    bot = PlayingBot(server, owner.bot("sleepy"), answers=False)
    until(lambda: owner.connected("sleepy"))
    table = server.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("sleepy")], clock=0.5)
    seat = Seat(server, table, 0, "Ann")
    played_for: list[int] = []

    def stop(state) -> bool:
        played_for.extend(1 for e in state["events"] if e.get("type") == "action" and e.get("seat") == 1)
        return len(played_for) >= 3

    person_plays(seat, random.Random(6), stop, seconds=60)
    assert len(bot.decides) >= 3  # asked each time, and each time the stand-in played after the clock ran out
    log = seat.welcome["log"]
    assert isinstance(log, list)
    bot.ws.close()


def test_bot_accounts_on_postgresql(web, fresh_postgres):
    """The same tables and the same guards on PostgreSQL: a bot made, connected, renewed (closing it), deleted."""
    c = web.start(url=fresh_postgres())
    csrf = signed_up(c)
    token = c.post("/api/account/bots", json={"username": "robo_pg"}, headers=csrf).json()["token"]
    with bot_socket(c, token) as ws:
        assert hello(ws)["name"] == "robo_pg"
        c.post("/api/account/bots/robo_pg/token", json={}, headers=csrf)
        assert closed_with(ws)[1] == 4401
    assert c.request("DELETE", "/api/account/bots/robo_pg", json={}, headers=csrf).json() == {"deleted": True}
    assert c.get("/api/account/bots").json()["bots"] == []
