"""Seat links (docs/web-api.md, "Seat links"): a seat's first join replaces its token, the new one carried to that
socket alone in its welcome; the invite link, which the creator's page kept, opens nothing afterwards, so the
creator cannot read an invited player's hand or act for them; a reconnect with the new token works, also after
a restart; a lobby claim's link is replaced the same way (a rematch's: tests/web/tables/test_rematch.py)."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("fastapi")

from millebornes.web.tokens import hash_token  # noqa: E402
from tests.conftest import Closed, token_of  # noqa: E402

HUMAN = {"kind": "human"}


def open_seat(web, table_id: str, seat: int, token: str, nickname: str | None = "Eve"):
    """A socket's join with this token: (socket, first answer)."""
    c = web.connect(table_id)
    c.seat = seat
    c.send({"type": "join", "seat": seat, "token": token, "nickname": nickname})
    return c, c.recv()


def turned_away(web, table_id: str, seat: int, token: str) -> None:
    c, first = open_seat(web, table_id, seat, token)
    assert first["type"] == "error" and first["code"] == "auth", first
    with pytest.raises(Closed) as closed:
        c.recv()
    assert closed.value.code == 4401


def test_the_invite_link_opens_nothing_once_its_seat_joined(web):
    web.start()
    made = web.create(seats=[HUMAN, HUMAN])
    invites = copy.deepcopy(made)  # what the creator's page keeps: every seat's invite link
    ann, bob = web.join(made, 0, "Ann"), web.join(made, 1, "Bob")
    ann.expect("state")  # Bob's arrival started the table
    for seat in (0, 1):  # the creator's copies: an error and the close, never a state (a hand)
        turned_away(web, made["id"], seat, token_of(invites, seat))
    # nothing changed: Bob still plays his seat, under his name
    facts = web.client.get(f"/api/tables/{made['id']}").json()
    assert [s["nickname"] for s in facts["seats"]] == ["Ann", "Bob"]
    bob.send({"type": "ping"})
    assert bob.expect("pong")


def test_the_welcome_carries_a_fresh_token_to_that_socket_alone(web):
    web.start()
    made = web.create(seats=[HUMAN, HUMAN])
    invite = token_of(made, 1)
    ann = web.join(made, 0, "Ann")
    bob, welcome = open_seat(web, made["id"], 1, invite, "Bob")
    assert welcome["type"] == "welcome" and welcome["seat"] == 1
    fresh = welcome["token"]
    assert isinstance(fresh, str) and len(fresh) >= 32 and fresh != invite
    store = web.app.state.tables
    assert store.token_hash(made["id"], 1) == hash_token(fresh)  # only its hash is kept
    assert web.hall.rooms[made["id"]].table.seats[1].token_hash == hash_token(fresh)
    ann.expect("seats")  # after the state that started the table
    assert ann.state["status"] == "playing"
    assert not any(fresh in t for t in ann.texts)  # another seat never sees it
    watcher = web.connect(made["id"])
    watcher.send({"type": "watch"})
    watcher.expect("state")
    assert not any(fresh in t for t in watcher.texts)


def test_a_reload_with_the_new_token_takes_the_seat_back(web):
    web.start()
    made = web.create(seats=[HUMAN, HUMAN])
    invite = token_of(made, 1)
    web.join(made, 0, "Ann")
    bob, welcome = open_seat(web, made["id"], 1, invite, "Bob")
    fresh = welcome["token"]
    bob.ws.close()
    again, back = open_seat(web, made["id"], 1, fresh, None)  # the page's reload: no nickname needed
    assert back["type"] == "welcome" and back["seat"] == 1 and "token" not in back  # no second change
    assert again.expect("state")["observation"]["hand"]
    second, also = open_seat(web, made["id"], 1, fresh, None)  # a second tab with the new link
    assert also["type"] == "welcome" and "token" not in also
    turned_away(web, made["id"], 1, invite)  # a second tab with the old invite is refused
    web.stop()
    web.start()  # after a restart, out of memory: the stored hash decides
    turned_away(web, made["id"], 1, invite)
    assert made["id"] not in web.hall.rooms or web.hall.rooms[made["id"]].table.seats[1].token_hash == hash_token(fresh)
    c, back = open_seat(web, made["id"], 1, fresh, None)
    assert back["type"] == "welcome" and "token" not in back


def test_two_first_joins_at_once_seat_one(web):
    """Two sockets sending the same invite: the first is seated with a new token, the second is refused."""
    web.start()
    made = web.create(seats=[HUMAN, HUMAN])
    invite = token_of(made, 0)
    a, b = web.connect(made["id"]), web.connect(made["id"])
    for c in (a, b):
        c.send({"type": "join", "seat": 0, "token": invite, "nickname": "Ann"})
    answers = sorted((a.recv()["type"], b.recv()["type"]))
    assert answers == ["error", "welcome"]


def test_a_stale_copy_of_the_seat_cannot_take_it(web):
    """Another server process's room may still hold the invite's hash: the store's join checks the hash it
    has, so the old link is refused there too, and nothing is written."""
    web.start()
    made = web.create(seats=[HUMAN, HUMAN])
    invite = token_of(made, 1)
    web.join(made, 0, "Ann")
    web.join(made, 1, "Bob")
    store = web.app.state.tables
    assert store.join(made["id"], 1, "Eve", hash_token(invite)) is None
    assert store.join(made["id"], 1, "Eve", hash_token(invite), hash_token("mine")) is None
    saved = store.get(made["id"]).seats[1]
    assert saved.nickname == "Bob" and saved.token_hash == hash_token(token_of(made, 1))
    room = web.hall.rooms[made["id"]]
    room.table.seats[1].token_hash = hash_token(invite)  # as a process that missed the notice
    turned_away(web, made["id"], 1, invite)
    assert store.get(made["id"]).seats[1].nickname == "Bob"
    assert room.table.seats[1].token_hash == hash_token(token_of(made, 1))  # read again from the database


def test_a_claimed_seat_gets_its_own_token_too(web):
    web.start()
    made = web.create(seats=[HUMAN, HUMAN], public=True)
    web.join(made, 0, "Ann")
    link = web.client.post(f"/api/tables/{made['id']}/seats/1/claim").json()["url"]
    claimed = link.split("token=")[1]
    c, welcome = open_seat(web, made["id"], 1, claimed, "Eve")
    assert welcome["type"] == "welcome" and welcome["token"] not in (claimed, token_of(made, 1))
    turned_away(web, made["id"], 1, claimed)
