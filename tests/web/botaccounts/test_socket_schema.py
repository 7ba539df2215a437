"""docs/bot-socket.schema.json, served at ``GET /api/schemas/bot-socket.schema.json`` beside the schemas it refers to:
every message of a real /ws/bot session, both directions, is valid against it (checked with jsonschema, the
schemas read from the server), and it refuses messages the server never sends or a bot must not."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

from tests.web.botaccounts.test_botaccounts import Wire, bot_socket, play_out, signed_up  # noqa: E402

BASE = "https://server.example/api/schemas/"
SERVED = ("protocol.schema.json", "observation.schema.json", "bot-socket.schema.json")


class Recorded(Wire):
    """A bot's socket whose every message, both ways, is kept; its hello may say what it accepts."""

    def __init__(self, web, token: str, accepts: dict | None = None):
        self.session = bot_socket(web.client, token)
        self.ws = self.session.__enter__()
        self.open = True
        web.stack.callback(self.close)
        self.heard: list[dict] = []
        self.said: list[dict] = []
        self.hello = self.recv()
        reply = {"type": "hello", "protocol": "millebornes-bot/1", "name": "t", "version": "1"}
        self.send(reply if accepts is None else reply | {"accepts": accepts})

    def recv(self, timeout: float = 10.0) -> dict:
        message = super().recv(timeout)
        self.heard.append(message)
        return message

    def send(self, message: dict) -> None:
        self.said.append(message)
        super().send(message)


def first_decide(bots: list[Recorded]) -> tuple[Recorded, dict]:
    """The first of the bots to be asked, and its decide."""
    while True:
        for b in bots:
            if (m := b.poll(0.05)) is not None and m["type"] == "decide":
                return b, m


def validators(c) -> tuple:
    """The server's and the bot's message validators, from the schemas as the server serves them."""
    from referencing.jsonschema import DRAFT202012

    resources = []
    for name in SERVED:
        r = c.get(f"/api/schemas/{name}")
        assert r.status_code == 200 and r.headers["content-type"] == "application/schema+json", name
        resources.append((BASE + name, referencing.Resource.from_contents(r.json(), DRAFT202012)))
    registry = referencing.Registry().with_resources(resources)
    jsonschema.Draft202012Validator.check_schema(c.get("/api/schemas/bot-socket.schema.json").json())
    made = [
        jsonschema.Draft202012Validator({"$ref": f"{BASE}bot-socket.schema.json#/$defs/{side}"}, registry=registry)
        for side in ("server_message", "bot_message")
    ]
    return made[0], made[1]


def test_the_schemas_are_served_and_an_unknown_one_is_not(web):
    c = web.start()
    for name in SERVED:
        assert c.get(f"/api/schemas/{name}").content.strip() == (web_docs() / name).read_bytes().strip()
    for wrong in ("events.schema.json", "nope.json", "..%2Fsettings.py"):
        assert c.get(f"/api/schemas/{wrong}").status_code == 404


def web_docs():
    from pathlib import Path

    return Path(__file__).resolve().parents[3] / "docs"


def test_every_message_of_a_real_session_is_valid_against_the_schema(web):
    c = web.start()
    tokens = []
    for owner, name in (("ann_1", "red"), ("bob_1", "blue")):
        c.cookies.clear()
        csrf = signed_up(c, owner)
        tokens.append(c.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"])
    c.cookies.clear()
    server, bot = validators(c)
    red = Recorded(web, tokens[0])
    blue = Recorded(web, tokens[1], {"editions": ["dujardin", "classic"], "players": [2], "rated": False})
    red.ws.send_json({"type": "dance", "id": 1})  # no message of the protocol: not kept, but its error is
    red.expect("error")
    red.send({"type": "accept", "id": 999})
    red.expect("error")
    seek = {"type": "seek", "id": 2, "edition": "dujardin", "players": 2, "rated": False, "clock": 0}
    red.send(seek | {"cf_timeout": 0.05})
    table = red.expect("sought")["table"]
    red.send({"type": "unseek", "table": table})
    red.expect("withdrawn")
    red.send(seek | {"id": 3, "cf_timeout": 0.05})
    table = red.expect("sought")["table"]
    blue.send({"type": "join", "id": 4, "table": table})
    first, asked = first_decide([red, blue])
    first.send({"type": "error", "id": asked["id"], "message": "thinking failed"})
    first.expect("error")
    assert play_out(table, [red, blue]) > 5
    dare = {"type": "challenge", "id": 5, "opponent": "blue", "edition": "dujardin", "players": 2, "rated": False}
    red.send(dare | {"clock": 30, "cf_timeout": 0.05})
    red.expect("challenged")
    blue.send({"type": "decline", "id": blue.expect("challenge")["id"]})
    red.expect("decide")
    heard = red.heard + blue.heard
    said = red.said + blue.said
    assert {m["type"] for m in heard} == {
        "hello",
        "decide",
        "challenge",
        "over",
        "challenged",
        "sought",
        "withdrawn",
        "error",
    }
    assert {m["type"] for m in said} == {
        "hello",
        "action",
        "error",
        "accept",
        "decline",
        "challenge",
        "seek",
        "join",
        "unseek",
    }
    for m in heard:
        assert list(server.iter_errors(m)) == [], m
        assert list(bot.iter_errors(m)) != [] or m["type"] in ("hello", "error"), m  # the others are the server's
    for m in said:
        assert list(bot.iter_errors(m)) == [], m
    # it refuses what the server never sends, or a bot must not
    decide = next(m for m in heard if m["type"] == "decide")
    error = next(m for m in heard if m["type"] == "error")
    for wrong in (
        {k: v for k, v in decide.items() if k != "seconds_left"},
        decide | {"seconds_left": -1},
        {k: v for k, v in error.items() if k != "code"},
        error | {"code": "no-such-code"},
    ):
        assert list(server.iter_errors(wrong)) != [], wrong
    for wrong in (
        seek | {"opponent": "blue"},
        seek | {"players": 1},
        {"type": "hello", "protocol": "millebornes-bot/1", "name": "t", "accepts": {"players": [7]}},
        {"type": "hello", "protocol": "millebornes-bot/1", "name": "t", "accepts": {"edition": ["classic"]}},
        {"type": "join", "id": 1},
    ):
        assert list(bot.iter_errors(wrong)) != [], wrong
    assert json.dumps(heard)  # JSON all the way
