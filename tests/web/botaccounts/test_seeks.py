"""A bot's seek (docs/protocol.md, "Playing online"): a public table with the bot on seat 0 that the lobby lists; a
person takes it through the lobby's claim, or another bot with ``join``, and the match starts with the bot getting
its decides; a seek nobody took is withdrawn in time (a setting), or by ``unseek``; one open seek a bot."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tests.conftest import Closed  # noqa: E402
from tests.web.botaccounts.test_botaccounts import Wire, play_out, signed_up  # noqa: E402

SEEK = {"type": "seek", "id": 1, "edition": "dujardin", "players": 2, "rated": False, "clock": 0, "cf_timeout": 0.05}


def two_bots(web, seek_seconds: float | None = None) -> tuple[Wire, Wire]:
    c = web.start()
    if seek_seconds is not None:
        web.app.state.gateway.seek_seconds = seek_seconds
    tokens = []
    for owner, name in (("ann_1", "red"), ("bob_1", "blue")):
        c.cookies.clear()
        csrf = signed_up(c, owner)
        tokens.append(c.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"])
    c.cookies.clear()
    return Wire(web, tokens[0]), Wire(web, tokens[1])


def lobby(web) -> list[str]:
    return [t["id"] for t in web.client.get("/api/lobby").json()["tables"]]


def test_a_person_takes_a_bots_seek_from_the_lobby_and_the_match_starts(web):
    red, _ = two_bots(web)
    assert red.hello["limits"]["seek_seconds"] == 600
    red.send(SEEK)
    sought = red.expect("sought")
    assert sought == {"type": "sought", "id": 1, "table": sought["table"]}
    table_id = sought["table"]
    assert lobby(web) == [table_id]
    facts = web.client.get(f"/api/tables/{table_id}").json()
    assert facts["public"] and facts["status"] == "waiting" and facts["seats"][0]["nickname"] == "red"
    link = web.client.post(f"/api/tables/{table_id}/seats/1/claim").json()["url"]
    ann = web.join({"id": table_id, "seats": [{"seat": 1, "url": link}]}, 1, "Ann")
    assert play_out(table_id, [red], ann, decides=3) >= 3
    assert web.client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    assert lobby(web) == []
    red.send(SEEK | {"id": 2})  # the first seek was taken: another may open
    assert red.expect("sought")["id"] == 2


def test_a_bot_joins_another_bots_seek_and_both_play_it_out(web):
    red, blue = two_bots(web)
    red.send(SEEK)
    table_id = red.expect("sought")["table"]
    blue.send({"type": "join", "id": 9, "table": "nosuchtable"})
    got = blue.expect("error")
    assert (got["id"], got["code"]) == (9, "no-seat")
    blue.send({"type": "join", "id": 10, "table": table_id})
    assert play_out(table_id, [red, blue]) > 10
    facts = web.client.get(f"/api/tables/{table_id}").json()
    assert facts["status"] == "finished" and [s["nickname"] for s in facts["seats"]] == ["red", "blue"]
    red.send({"type": "join", "id": 11, "table": table_id})  # over: nothing to join
    assert red.expect("error")["code"] == "no-seat"


def test_a_seek_nobody_takes_is_withdrawn_in_time_and_one_is_open_at_once(web):
    red, blue = two_bots(web, seek_seconds=0.5)
    assert red.hello["limits"]["seek_seconds"] == 0.5  # the hello says how long a seek stays open
    red.send(SEEK)
    table_id = red.expect("sought")["table"]
    red.send(SEEK | {"id": 2})
    got = red.expect("error")
    assert (got["id"], got["code"]) == (2, "seek-open") and table_id in got["message"]
    assert red.expect("withdrawn", timeout=10) == {"type": "withdrawn", "table": table_id}
    assert lobby(web) == []
    r = web.client.get(f"/api/tables/{table_id}")
    assert r.status_code == 410 or r.json()["status"] == "expired", r.text
    blue.send({"type": "join", "id": 3, "table": table_id})
    assert blue.expect("error")["code"] == "no-seat"
    red.send(SEEK | {"id": 4})
    assert red.expect("sought")["id"] == 4


def test_a_bot_withdraws_its_seek_with_unseek(web):
    red, _ = two_bots(web)
    red.send(SEEK | {"players": 9})
    assert red.expect("error")["code"] == "bad-challenge"
    red.send(SEEK | {"opponent": "blue"})
    assert "no field 'opponent'" in red.expect("error")["message"]
    red.send(SEEK)
    table_id = red.expect("sought")["table"]
    red.send({"type": "unseek", "table": table_id})
    assert red.expect("withdrawn") == {"type": "withdrawn", "table": table_id}
    assert lobby(web) == []
    red.send({"type": "unseek", "table": table_id})
    assert red.expect("error")["code"] == "unknown-seek"


def test_everyone_at_a_seek_withdrawn_before_its_match_is_told_and_turned_away(web):
    """A four-player seek: a person and another bot took two seats, the fourth never came; when the seek is withdrawn
    the person's page is told why (``withdrawn``) and its socket closed for good (4410), the other bot hears
    ``withdrawn`` of the table it joined, and a spectator is turned away too."""
    red, blue = two_bots(web)
    red.send(SEEK | {"players": 4})
    table_id = red.expect("sought")["table"]
    link = web.client.post(f"/api/tables/{table_id}/seats/1/claim").json()["url"]
    ann = web.join({"id": table_id, "seats": [{"seat": 1, "url": link}]}, 1, "Ann")
    blue.send({"type": "join", "id": 5, "table": table_id})
    ann.expect("seats")
    watcher = web.connect(table_id)
    watcher.send({"type": "watch"})
    watcher.expect("state")
    assert web.client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
    red.send({"type": "unseek", "table": table_id})
    assert red.expect("withdrawn") == {"type": "withdrawn", "table": table_id}
    assert blue.expect("withdrawn") == {"type": "withdrawn", "table": table_id}
    assert red.poll(0.3) is None and blue.poll(0.3) is None  # told once each
    for browser in (ann, watcher):
        told = browser.expect("error")
        assert told["code"] == "withdrawn" and "withdrew" in told["message"]
        with pytest.raises(Closed) as closed:
            browser.recv()
        assert closed.value.code == 4410
    r = web.client.get(f"/api/tables/{table_id}")
    assert r.status_code == 410 or r.json()["status"] == "expired", r.text
    blue.send({"type": "seek", "id": 6, "edition": "classic", "players": 2, "rated": False, "clock": 0})
    assert blue.expect("sought")["id"] == 6  # the table it joined is no longer one of its tables


def test_what_a_bots_move_writes_in_the_log_is_about_its_table(web, monkeypatch):
    """A bot's answers come on its own socket (``/ws/bot``, about no one table): the records its move writes carry
    the table it was made at, beside the socket's request id."""
    import logging

    from millebornes.web.tables.room import Room
    from tests.web.test_request_ids import Lines

    red, blue = two_bots(web)
    red.send(SEEK)
    table_id = red.expect("sought")["table"]
    submit = Room.submit

    async def logged(self, seat, *args, **kwargs):
        logging.getLogger("millebornes.web").info("a move from seat %d", seat)
        return await submit(self, seat, *args, **kwargs)

    monkeypatch.setattr(Room, "submit", logged)
    handler, logger = Lines(), logging.getLogger("millebornes")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        blue.send({"type": "join", "id": 2, "table": table_id})
        assert play_out(table_id, [red, blue], decides=4) >= 4
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    moves = handler.saying("a move from seat")
    assert len(moves) >= 4
    assert all(m["table_id"] == table_id and m["request_id"] for m in moves), moves
    assert len({m["request_id"] for m in moves}) == 2  # each bot's own socket
