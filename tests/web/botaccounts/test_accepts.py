"""What a bot online takes (docs/web-api.md, "Bots online"): the ``accepts`` of its hello is checked and bounded
(a bad one closes with ``bad-hello``), kept with its connection in the database, listed by ``GET /api/bots/online``,
and a table outside it is refused before the bot hears of it (``bot-refuses``), by a person's creation or a bot's
challenge, and wherever the bot is connected (its row says what it takes)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from tests.serving import bot_seat  # noqa: E402
from tests.web.botaccounts.test_botaccounts import HUMAN, Wire, bot_socket, closed_with, signed_up  # noqa: E402

BODY = {"ruleset": "classic", "players": 2, "cf_timeout": 0.05, "clock": 0}
ANY = {"editions": None, "players": None, "rated": True, "casual": True}


def say_hello(ws, accepts) -> None:
    ws.receive_json()
    ws.send_json({"type": "hello", "protocol": "millebornes-bot/1", "name": "t", "accepts": accepts})


def stored(url: str) -> dict | None:
    from sqlalchemy import create_engine, text

    db = create_engine(url)
    with db.connect() as c:
        (value,) = c.execute(text("SELECT accepts FROM bots")).one()
    db.dispose()
    return json.loads(value) if isinstance(value, str) else value


@pytest.mark.parametrize(
    ("accepts", "said"),
    [
        ("classic", "accepts is an object"),
        ({"editions": []}, "non-empty list"),
        ({"editions": "classic"}, "non-empty list"),
        ({"editions": ["nope"]}, "'nope' is not one of the editions (classic, parker, dujardin, family)"),
        ({"editions": ["classic", "classic"]}, "once"),
        ({"editions": ["classic"] * 50}, "4 at most"),
        ({"players": [2, 3, 4, 5, [6]]}, "[6] is not one of"),
        ({"players": [1]}, "1 is not one of the player counts (2, 3, 4, 5, 6, 8)"),
        ({"players": [7]}, "7 is not one of"),
        ({"players": [True]}, "True is not one of"),
        ({"players": [2.0]}, "2.0 is not one of"),
        ({"players": [2, 3, 2]}, "once"),
        ({"rated": "yes"}, "accepts.rated is true or false"),
        ({"casual": None}, "accepts.casual is true or false"),
        ({"rated": False, "casual": False}, "both false"),
        ({"edition": ["classic"]}, "no member 'edition'"),
    ],
)
def test_a_bad_accepts_closes_the_connection_and_keeps_nothing(web, accepts, said):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    with bot_socket(c, token) as ws:
        say_hello(ws, accepts)
        got, code = closed_with(ws)
    assert code == 4400 and got[-1]["code"] == "bad-hello" and said in got[-1]["message"], got
    assert stored(web.url) is None


def test_what_a_bot_accepts_is_kept_listed_and_refuses_tables_outside_it(web):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    with bot_socket(c, token) as ws:
        say_hello(ws, {"players": [3, 2], "editions": ["family", "classic"], "rated": False})
        kept = {"editions": ["classic", "family"], "players": [2, 3], "rated": False, "casual": True}
        assert c.get("/api/bots/online").json()["bots"][0]["accepts"] == kept
        assert stored(web.url) == kept  # with its connection: another server process reads it there
        for change, why in (
            ({"ruleset": "dujardin"}, "takes the editions classic, family only"),
            ({"players": 4, "seats": [HUMAN, HUMAN, HUMAN, bot_seat("robo")]}, "takes tables of 2, 3 players only"),
        ):
            r = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("robo")]} | change)
            assert (r.status_code, r.json()["code"], r.json()["field"]) == (422, "bot-refuses", "seats"), r.text
            assert why in r.json()["detail"]
        r = c.post("/api/tables", json=BODY | {"players": 3, "seats": [HUMAN, HUMAN, bot_seat("robo")]})
        assert r.status_code == 201, r.text
        assert ws.receive_json()["type"] == "challenge"  # the first message since the hello: nothing else asked it
    # the next connection says nothing: any table again
    from tests.serving import until

    until(lambda: c.get("/api/bots/online").json()["bots"] == [], 5, "the ended connection")
    assert stored(web.url) is None
    with bot_socket(c, token) as ws:
        say_hello(ws, None)
        assert c.get("/api/bots/online").json()["bots"][0]["accepts"] == ANY


def test_a_bot_connected_to_another_process_is_refused_from_its_row(web):
    """A bot connected elsewhere: its row's ``accepts`` is what this process reads."""
    c = web.start()
    c.post("/api/account/bots", json={"username": "faraway"}, headers=signed_up(c))
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.begin() as conn:
        conn.execute(
            text("UPDATE bots SET connection = 'elsewhere', accepts = :a"),
            {"a": json.dumps({"editions": None, "players": None, "rated": True, "casual": False})},
        )
    db.dispose()
    r = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("faraway")]})
    assert (r.status_code, r.json()["code"]) == (422, "bot-refuses") and "rated tables only" in r.json()["detail"]


def test_a_bots_challenge_outside_its_opponents_accepts_is_refused(web):
    c = web.start()
    tokens = []
    for owner, name in (("ann_1", "red"), ("bob_1", "blue")):
        c.cookies.clear()
        csrf = signed_up(c, owner)
        tokens.append(c.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"])
    red = Wire(web, tokens[0])
    with bot_socket(c, tokens[1]) as blue:
        say_hello(blue, {"editions": ["dujardin"]})
        dare = {"type": "challenge", "id": 4, "opponent": "blue", "players": 2, "rated": False, "clock": 0}
        red.send(dare | {"edition": "classic"})
        got = red.expect("error")
        assert (got["id"], got["code"]) == (4, "bot-refuses") and "dujardin only" in got["message"]
        red.send(dare | {"edition": "dujardin", "id": 5})
        assert red.expect("challenged")["id"] == 5
        assert blue.receive_json()["type"] == "challenge"
