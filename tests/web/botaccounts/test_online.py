"""The bots a person may challenge (docs/web-api.md, "Bots online"): ``GET /api/bots/online`` lists a connected bot
with public facts only, and not once it disconnects or its token is revoked; it says a bot at its tables' limit is
busy; a table's creation refuses a bot seat with a code a page words; a profile lists a person's bots and names a
bot's owner."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from tests.serving import bot_seat, until  # noqa: E402
from tests.web.botaccounts.test_botaccounts import HUMAN, bot_socket, hello, signed_up  # noqa: E402

BODY = {"ruleset": "dujardin", "players": 2, "cf_timeout": 0.05}


def online(c) -> list[dict]:
    r = c.get("/api/bots/online")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    return r.json()["bots"]


def test_a_connected_bot_is_listed_with_public_facts_and_goes_when_it_disconnects_or_is_revoked(web):
    c = web.start()
    csrf = signed_up(c, "owner_1")
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf).json()["token"]
    c.post("/api/account/bots", json={"username": "idle_bot"}, headers=csrf)
    assert online(c) == []
    with bot_socket(c, token) as ws:
        hello(ws)
        listed = online(c)
        assert listed == [
            {
                "name": "robo",
                "owner": "owner_1",
                "ratings": {},
                "busy": False,
                "accepts": {"editions": None, "players": None, "rated": True, "casual": True},
            }
        ]
        text = c.get("/api/bots/online").text
        assert token not in text and "mbb_" not in text
        from sqlalchemy import create_engine
        from sqlalchemy import text as sql

        db = create_engine(web.url)
        with db.connect() as conn:
            stored, connection = conn.execute(
                sql("SELECT token_hash, connection FROM bots WHERE connection != ''")
            ).one()
        db.dispose()
        assert stored not in text and connection not in text
        # anybody may read it: a page signed out as well
        from fastapi.testclient import TestClient

        stranger = web.stack.enter_context(TestClient(web.app))
        assert [b["name"] for b in online(stranger)] == ["robo"]
    until(lambda: online(c) == [], 5, "the ended connection")
    with bot_socket(c, token) as ws:
        hello(ws)
        assert [b["name"] for b in online(c)] == ["robo"]
        assert c.request("DELETE", "/api/account/bots/robo/token", json={}, headers=csrf).status_code == 200
        assert online(c) == []  # revoked: the list forgets it at once
    for bad in (0, 51, "x"):
        r = c.get(f"/api/bots/online?limit={bad}")
        assert (r.status_code, r.json().get("field")) == (422, "limit"), r.text


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_list_is_bounded_and_the_latest_connected_come_first(web, database, request):
    c = web.start(request.getfixturevalue("fresh_postgres")() if database == "postgresql" else None)
    tokens = {}
    for owner in ("owner_1", "owner_2"):
        from fastapi.testclient import TestClient

        person = web.stack.enter_context(TestClient(web.app))
        csrf = signed_up(person, owner)
        for n in range(2):
            name = f"{owner[-1]}_bot_{n}"
            tokens[name] = person.post("/api/account/bots", json={"username": name}, headers=csrf).json()["token"]
    sockets = []
    for name in ("1_bot_0", "2_bot_1", "1_bot_1"):
        ws = web.stack.enter_context(bot_socket(c, tokens[name]))
        hello(ws)
        sockets.append(ws)
    assert [(b["name"], b["owner"]) for b in online(c)] == [
        ("1_bot_1", "owner_1"),
        ("2_bot_1", "owner_2"),
        ("1_bot_0", "owner_1"),
    ]
    assert [b["name"] for b in c.get("/api/bots/online?limit=2").json()["bots"]] == ["1_bot_1", "2_bot_1"]
    assert c.get("/api/bots/online").json()["most"] == 50
    # one of them at a live table: its seat is counted, and its owner's profile says it is online
    table = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("2_bot_1")]}).json()
    assert table["seats"][1]["name"] == "2_bot_1"
    assert [b["busy"] for b in online(c)] == [False, False, False]
    profile = c.get("/api/players/owner_2").json()
    assert [(b["name"], b["online"]) for b in profile["bots"]] == [("2_bot_0", False), ("2_bot_1", True)]


def test_a_bot_at_its_tables_limit_is_busy_and_a_table_asking_it_is_refused_with_a_code(web):
    from millebornes.web.botaccounts.gateway import TABLES_AT_ONCE
    from millebornes.web.settings import Limits

    c = web.start(limits=Limits(frames_per_second=100_000, tables_per_minute=100))
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    r = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("robo")]})
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (422, "bot-offline", "seats"), r.text
    r = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("nobody_here")]})
    assert r.json()["code"] == "bot-offline"
    with bot_socket(c, token) as ws:
        hello(ws)
        twice = BODY | {"players": 3, "seats": [HUMAN, bot_seat("robo"), bot_seat("ROBO")]}
        assert c.post("/api/tables", json=twice).json()["code"] == "bot-twice"
        for n in range(TABLES_AT_ONCE):
            assert online(c)[0]["busy"] is False, n
            assert c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("robo")]}).status_code == 201
            assert ws.receive_json()["type"] == "challenge"  # left unanswered: each holds a seat meanwhile
        assert online(c)[0]["busy"] is True
        r = c.post("/api/tables", json=BODY | {"seats": [HUMAN, bot_seat("robo")]})
        assert (r.status_code, r.json()["code"]) == (422, "bot-busy"), r.text
    # a refusal without a code keeps the answer it had
    r = c.post("/api/tables", json=BODY | {"seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 422 and "code" not in r.json()


def test_a_profile_lists_the_persons_bots_and_a_bots_profile_names_its_owner(web):
    c = web.start()
    csrf = signed_up(c, "owner_1")
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=csrf).json()["token"]
    c.post("/api/account/bots", json={"username": "robo_two"}, headers=csrf)
    from sqlalchemy import create_engine
    from sqlalchemy import text as sql

    from millebornes.web.db.base import now

    db = create_engine(web.url)
    with db.begin() as conn:
        (bot_id,) = conn.execute(sql("SELECT id FROM accounts WHERE username = 'robo'")).one()
        conn.execute(sql("INSERT INTO ratings VALUES (:a, 'dujardin', 30.0, 2.0, 12, :at)"), {"a": bot_id, "at": now()})
    db.dispose()
    with bot_socket(c, token) as ws:
        hello(ws)
        me = c.get("/api/players/owner_1").json()
    assert me["owner"] is None
    assert [(b["name"], b["online"]) for b in me["bots"]] == [("robo", True), ("robo_two", False)]
    assert set(me["bots"][0]["ratings"]) == {"dujardin"} and me["bots"][1]["ratings"] == {}
    assert me["bots"][0]["ratings"]["dujardin"]["matches"] == 12
    assert token not in json.dumps(me)
    until(lambda: [b["online"] for b in c.get("/api/players/owner_1").json()["bots"]] == [False, False], 5, "the end")
    bot = c.get("/api/players/ROBO").json()
    assert (bot["username"], bot["owner"], bot["bots"]) == ("robo", "owner_1", [])
    # a person without bots
    from fastapi.testclient import TestClient

    other = web.stack.enter_context(TestClient(web.app))
    signed_up(other, "plain_2")
    plain = c.get("/api/players/plain_2").json()
    assert (plain["owner"], plain["bots"]) == (None, [])
    # a deleted bot leaves its owner's profile
    assert c.request("DELETE", "/api/account/bots/robo_two", json={}, headers=csrf).status_code == 200
    assert [b["name"] for b in c.get("/api/players/owner_1").json()["bots"]] == ["robo"]


def test_the_bots_online_page_is_served_and_linked(web):
    """/bots is a page (its script reads GET /api/bots/online); the navigation and /account/bots link to it."""
    c = web.start()
    page = c.get("/bots")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Content-Security-Policy" in page.headers and page.headers["cache-control"] == "no-cache"
    assert "/js/online.js" in page.text and 'id="online-list"' in page.text and 'role="status"' in page.text
    for address in ("/", "/account", "/account/bots", "/leaderboard", "/players/anybody"):
        assert 'href="/bots"' in c.get(address).text, address
