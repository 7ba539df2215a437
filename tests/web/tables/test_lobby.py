"""The lobby's HTTP side (docs/web-api.md, "Lobby"): ``GET /api/lobby`` lists the open public tables and never
a private one nor a token; ``POST /api/tables/{id}/seats/{n}/claim`` gives the first comer a free seat of a
public table with a fresh token (the creation's link stops opening it), once; a private table is 404."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tests.conftest import Closed, token_of  # noqa: E402

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}


def public_table(web, seats=(HUMAN, HUMAN, BOT), **body) -> dict:
    return web.create(seats=list(seats), players=len(seats), public=True, **body)


def lobby_ids(web) -> list[str]:
    r = web.client.get("/api/lobby")
    assert r.status_code == 200
    return [t["id"] for t in r.json()["tables"]]


def claim(web, table_id: str, seat: int):
    return web.client.post(f"/api/tables/{table_id}/seats/{seat}/claim")


def test_the_lobby_lists_a_public_table_once_someone_sits_and_never_a_private_one(web):
    web.start()
    public = public_table(web)
    private = web.create(seats=[HUMAN, HUMAN, BOT], players=3)
    assert lobby_ids(web) == []  # nobody sits yet: the creator's own seat is not offered to strangers
    web.join(public, 0, "Ann")
    web.join(private, 0, "Bob")
    assert lobby_ids(web) == [public["id"]]
    entry = web.client.get("/api/lobby").json()["tables"][0]
    assert entry["ruleset"] == "classic" and entry["players"] == 3 and entry["free"] == 1
    assert [(s["kind"], s["nickname"], s["free"]) for s in entry["seats"]] == [
        ("human", "Ann", False),
        ("human", None, True),
        ("bot", None, False),
    ]
    assert entry["seats"][2]["level"] == "easy"
    assert web.client.get(f"/api/tables/{public['id']}").json()["public"] is True
    assert web.client.get(f"/api/tables/{private['id']}").json()["public"] is False


def test_the_lobby_body_holds_no_token(web):
    web.start()
    made = [public_table(web) for _ in range(3)]
    for m in made:
        web.join(m, 0, "Ann")
    body = web.client.get("/api/lobby").text
    assert len(web.client.get("/api/lobby").json()["tables"]) == 3
    for m in made:
        for s in m["seats"]:
            if s["kind"] == "human":
                assert token_of(m, s["seat"]) not in body
    assert "token" not in body and "#seat=" not in body and "seed" not in body


def test_a_started_table_leaves_the_lobby_and_so_does_a_full_one(web):
    web.start()
    two = public_table(web, (HUMAN, HUMAN))
    web.join(two, 0, "Ann")
    assert lobby_ids(web) == [two["id"]]
    web.join(two, 1, "Bob")  # every seat taken: the match starts
    assert web.client.get(f"/api/tables/{two['id']}").json()["status"] == "playing"
    assert lobby_ids(web) == []
    assert claim(web, two["id"], 1).status_code == 409


def test_newest_first_and_bounded(web):
    from millebornes.web.settings import Limits

    web.start(limits=Limits(frames_per_second=100_000, lobby_max=3))
    made = [public_table(web, (HUMAN, HUMAN)) for _ in range(4)]
    for m in made:
        web.join(m, 0, "Ann")
    assert lobby_ids(web) == [m["id"] for m in reversed(made)][:3]


def test_a_claimed_seat_joins_with_its_new_link_and_only_once(web):
    web.start()
    made = public_table(web)
    ann = web.join(made, 0, "Ann")
    r = claim(web, made["id"], 1)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    url = r.json()["url"]
    assert url.startswith(f"/t/{made['id']}#seat=1&token=")
    assert claim(web, made["id"], 1).status_code == 409  # the first claim won
    assert lobby_ids(web) == []  # no free seat left
    # the creation's link of that seat no longer opens it
    old = web.connect(made["id"])
    old.send({"type": "join", "seat": 1, "token": token_of(made, 1), "nickname": "Eve"})
    assert old.expect("error")["code"] == "auth"
    with pytest.raises(Closed):
        old.recv()
    bob = web.join({"id": made["id"], "seats": [{"seat": 1, "url": url}]}, 1, "Bob")
    assert bob.state["status"] == "playing"  # every human seat taken: the match is on
    ann.expect("state")


def test_private_unknown_bot_and_joined_seats_are_not_claimable(web):
    web.start()
    private = web.create(seats=[HUMAN, HUMAN], players=2)
    web.join(private, 0, "Ann")
    assert claim(web, private["id"], 1).status_code == 404
    assert claim(web, "nosuchtable", 1).status_code == 404
    assert "private" not in claim(web, private["id"], 1).text  # the same answer as for no table at all
    made = public_table(web)
    assert claim(web, made["id"], 1).status_code == 409  # nobody sits yet: not offered
    web.join(made, 0, "Ann")
    assert claim(web, made["id"], 0).status_code == 409  # joined
    assert claim(web, made["id"], 2).status_code == 409  # a bot's
    assert claim(web, made["id"], 7).status_code == 409  # no such seat at this table
    assert claim(web, made["id"], 8).status_code == 422
    assert claim(web, made["id"], 1).status_code == 200


def test_a_claim_made_while_the_room_is_out_of_memory_holds_after_a_restart(web):
    web.start()
    made = public_table(web, (HUMAN, HUMAN))
    web.join(made, 0, "Ann").ws.close()
    web.hall.rooms.clear()  # as if evicted: the claim goes through the store alone
    url = claim(web, made["id"], 1).json()["url"]
    web.start()
    assert claim(web, made["id"], 1).status_code == 409
    bob = web.join({"id": made["id"], "seats": [{"seat": 1, "url": url}]}, 1, "Bob")
    assert bob.state["status"] == "playing"


def test_claims_are_rate_limited_per_address(web):
    from millebornes.web.settings import Limits

    web.start(limits=Limits(frames_per_second=100_000, claims_per_minute=2))
    made = public_table(web, (HUMAN, HUMAN, HUMAN, HUMAN))
    web.join(made, 0, "Ann")
    assert claim(web, made["id"], 1).status_code == 200
    assert claim(web, made["id"], 2).status_code == 200
    r = claim(web, made["id"], 3)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert lobby_ids(web) == [made["id"]]  # seat 3 is still free


def test_public_must_be_a_boolean(web):
    web.start()
    r = web.client.post(
        "/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, BOT], "public": "yes"}
    )
    assert r.status_code == 422 and r.json()["field"] == "public"


def test_an_older_sqlite_database_gets_the_lobby_columns(web):
    """A database made before the lobby: its tables become private and no seat is claimed."""
    from sqlalchemy import text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    web.start()
    made = public_table(web, (HUMAN, HUMAN))
    web.join(made, 0, "Ann")
    web.stop()
    old = Tables(Database(web.url))
    with old.engine.begin() as c:
        c.execute(text("ALTER TABLE tables DROP COLUMN public"))
        c.execute(text("ALTER TABLE seats DROP COLUMN claimed"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    old.db.close()
    web.start()
    assert lobby_ids(web) == []
    assert claim(web, made["id"], 1).status_code == 404
    assert web.client.get(f"/api/tables/{made['id']}").json()["public"] is False


def test_a_join_on_its_way_with_the_old_link_is_refused_under_the_lock(web):
    """The creation's link was checked before the claim, and the join comes after it: the room checks the
    token again under its lock, so the seat is not taken with a link that no longer opens it."""
    from millebornes.web.tables.room import Refused

    class Conn:
        seat = None

        def send(self, frame) -> None:
            pass

    web.start()
    made = public_table(web, (HUMAN, HUMAN))
    web.join(made, 0, "Ann")
    room = web.hall.rooms[made["id"]]
    old = token_of(made, 1)
    assert room.authenticate(1, old)  # the socket's check, before the claim
    assert claim(web, made["id"], 1).status_code == 200
    with pytest.raises(Refused) as refused:
        web.client.portal.call(room.join, Conn(), 1, "Eve", old)
    assert refused.value.code == "auth"
    assert not room.table.seats[1].joined and room.status == "waiting"
