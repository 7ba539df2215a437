"""Every ``error`` the server sends a bot has a stable ``code`` (web/botaccounts/codes.py) and a message naming the
rule broken; docs/web-api.md ("Error codes") tables exactly those codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tests.serving import bot_seat  # noqa: E402
from tests.web.botaccounts.test_botaccounts import HUMAN, Wire, bot_socket, closed_with, signed_up  # noqa: E402

DOCS = Path(__file__).resolve().parents[3] / "docs" / "web-api.md"


def error(bot: Wire, code: str) -> dict:
    """The next error, checked to have that code."""
    got = bot.expect("error")
    assert got["code"] == code, got
    assert set(got) == {"type", "id", "code", "message"} and got["message"]
    return got


def test_the_documented_codes_are_the_servers():
    from millebornes.web.botaccounts.codes import CODES, known

    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("#### Error codes") : text.index("#### Limits", text.index("#### Error codes"))]
    assert re.findall(r"^\| `([a-z-]+)` \|", section, re.M) == list(CODES)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", c) for c in CODES)
    with pytest.raises(KeyError):
        known("no-such-code")


def test_a_bots_wrong_messages_get_their_codes(web):
    from millebornes.web.throttle import CreationThrottle

    c = web.start()
    csrf = signed_up(c)
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf).json()["token"]
    bot = Wire(web, token)
    bot.ws.send_text("not json")
    assert "not valid JSON" in error(bot, "bad-json")["message"]
    bot.ws.send_text("[1]")
    error(bot, "not-object")
    bot.ws.send_text("x" * 20_000)
    assert "16384 bytes" in error(bot, "too-big")["message"]
    bot.send({"type": "dance", "id": 3})
    assert error(bot, "unknown-type") == {
        "type": "error",
        "id": 3,
        "code": "unknown-type",
        "message": "unknown message type 'dance': a bot sends hello, action, error, accept, decline, challenge, "
        "seek, join or unseek",
    }
    bot.send({"type": "hello", "protocol": "millebornes-bot/1", "name": "again"})
    error(bot, "hello-again")
    bot.send({"type": "action", "id": "7", "action": "draw"})
    error(bot, "bad-id")
    bot.send({"type": "action", "id": 99, "action": "draw"})
    assert error(bot, "stale")["id"] == 99
    bot.send({"type": "accept", "id": 5})
    assert "no open challenge" in error(bot, "unknown-challenge")["message"]
    dare = {"type": "challenge", "id": 1, "opponent": "nobody", "edition": "dujardin", "players": 2, "rated": False}
    bot.send(dare | {"clock": 0, "colour": "red"})
    assert "no field 'colour'" in error(bot, "bad-challenge")["message"]
    bot.send(dare | {"players": 3, "clock": 0})
    assert "players is 2" in error(bot, "bad-challenge")["message"]
    bot.send(dare | {"opponent": "ROBO", "clock": 0})
    assert "itself" in error(bot, "self-challenge")["message"]
    web.app.state.gateway.throttle = CreationThrottle(1, "bot-challenges")
    bot.send(dare | {"clock": 0})
    assert "not connected" in error(bot, "bot-offline")["message"]  # the creation's own code
    bot.send(dare | {"id": 2, "clock": 0})
    got = error(bot, "challenge-rate")
    assert got["id"] == 2 and "at most 1 times a minute; again in" in got["message"]


def test_wrong_answers_to_a_decide_get_their_codes_and_the_third_gives_it_to_the_stand_in(web):
    c = web.start()
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    bot = Wire(web, token)
    table = web.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("robo")], clock=0)
    bot.send({"type": "accept", "id": bot.expect("challenge")["id"]})
    ann = web.join(table, 0, "Ann")
    while (decide := bot.poll(0.05)) is None or decide["type"] != "decide":
        state = ann.state
        if state["status"] == "playing" and state["observation"]["to_act"] == 0:
            ann.act(state["observation"]["legal_actions"][0])
            ann.expect("state")
    bot.send({"type": "action", "id": decide["id"], "action": "play 300"})
    got = error(bot, "illegal-action")
    assert got["id"] == decide["id"] and "'play 300' is not one of" in got["message"]
    second = bot.expect("decide")
    bot.send({"type": "error", "id": second["id"], "message": "my search crashed"})
    assert "my search crashed" in error(bot, "bot-error")["message"]
    third = bot.expect("decide")
    bot.send({"type": "action", "id": third["id"], "action": "nonsense"})
    error(bot, "illegal-action")
    assert error(bot, "stand-in-plays")["id"] == third["id"]
    bot.send({"type": "action", "id": third["id"], "action": third["legal_actions"][0]})
    error(bot, "stale")  # the stand-in played it: the answer comes too late and costs nothing


def test_closing_errors_have_codes(web):
    c = web.start()
    csrf = signed_up(c)
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf).json()["token"]
    for wrong, code in ((None, "no-token"), ("mbb_nope", "bad-token")):
        with bot_socket(c, wrong) as ws:
            got, close = closed_with(ws)
        assert (close, [m["code"] for m in got]) == (4401, [code])
    with bot_socket(c, token) as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "id": 1, "action": "draw"})
        got, close = closed_with(ws)
    assert (close, got[-1]["code"]) == (4400, "no-hello")
    with bot_socket(c, token) as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"})
        c.post("/api/account/bots/robo/token", json={}, headers=csrf)
        got, close = closed_with(ws)
    assert (close, got[-1]["code"]) == (4401, "token-gone")
