"""A seat held by an account opens on any device where that account is signed in (docs/web-api.md, "Accounts"): the
join carries ``account: true`` instead of the link's token and the socket's cookie names the account.  Only this
site's pages may open it so, only the account that holds the seat, and an invite cannot be brought into an
account before its player sat down (the creator holds every invite)."""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest

pytest.importorskip("fastapi")

from tests.conftest import Closed, SeatClient, token_of  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
PASSWORD = "correct horse battery"


def sign_up(c, username="ann_1", **body) -> dict:
    r = c.post("/api/account/signup", json={"username": username, "password": PASSWORD, **body})
    assert r.status_code == 201, r.text
    return r.json()


def signed_in(c, username: str) -> str:
    """Another device's sign-in: its session cookie (the test client's own jar is left empty)."""
    c.cookies.clear()
    assert c.post("/api/account/signin", json={"username": username, "password": PASSWORD}).status_code == 200
    cookie = c.cookies["mb_session"]
    c.cookies.clear()
    return cookie


def open_by_account(c, stack: ExitStack, table_id: str, seat: int, cookie: str | None, **headers) -> SeatClient:
    if cookie is not None:
        headers["cookie"] = f"mb_session={cookie}"
    s = SeatClient(stack.enter_context(c.websocket_connect(f"/ws/{table_id}", headers=headers)), seat)
    s.send({"type": "join", "seat": seat, "account": True})
    return s


def refusal(s: SeatClient) -> tuple[str, int]:
    error = s.expect("error")
    with pytest.raises(Closed) as closed:
        s.recv()
    return error["code"], closed.value.code


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_accounts_seat_opens_on_another_device_and_both_play_it(web, database, request):
    c = web.start(request.getfixturevalue("fresh_postgres")() if database == "postgresql" else None)
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=3)
    a = web.join(table, 0, "Ann")
    sign_up(c, seats=[{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    phone = signed_in(c, "ann_1")
    with ExitStack() as stack:
        b = open_by_account(c, stack, table["id"], 0, phone)
        welcome = b.expect("welcome")
        assert welcome["seat"] == 0 and "token" not in welcome  # the seat keeps its link: no new one to hand out
        assert welcome["table"]["seats"][0]["nickname"] == "Ann"
        state = b.expect("state")
        assert state["observation"]["hand"] == a.obs["hand"]
        # a move made on the phone is the seat's, and the first device sees it
        web.play_random([b], random.Random(4), stop=lambda s: s["seq"] >= state["seq"] + 3)
        while a.state["seq"] < b.state["seq"]:
            a.expect("state")
        assert a.state["seq"] == b.state["seq"] > state["seq"] and a.obs["hand"] == b.obs["hand"]
        # the first device's link still opens the seat, and plays the match to its end
        again = web.join(table, 0, None)
        web.play_random([again], random.Random(5))
        assert again.state["status"] == "finished"


def test_a_seat_opens_by_account_only_for_its_account_and_this_sites_pages(web):
    c = web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], seed=3)
    web.join(table, 0, "Ann")
    sign_up(c, seats=[{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    c.cookies.clear()
    sign_up(c, "bob_2")
    ann, bob = signed_in(c, "ann_1"), signed_in(c, "bob_2")
    with ExitStack() as stack:
        assert refusal(open_by_account(c, stack, table["id"], 0, None)) == ("signed-out", 4401)
        assert refusal(open_by_account(c, stack, table["id"], 0, "not-a-sign-in")) == ("signed-out", 4401)
        assert refusal(open_by_account(c, stack, table["id"], 0, bob)) == ("auth", 4401)
        assert refusal(open_by_account(c, stack, table["id"], 1, ann)) == ("auth", 4401)  # a seat it does not hold
        assert refusal(open_by_account(c, stack, table["id"], 9, ann)) == ("auth", 4401)
        assert refusal(open_by_account(c, stack, "nosuchtable", 0, ann)) == ("auth", 4401)
        elsewhere = open_by_account(c, stack, table["id"], 0, ann, origin="https://elsewhere.example")
        assert refusal(elsewhere) == ("cross-site", 4403)
        both = SeatClient(stack.enter_context(c.websocket_connect(f"/ws/{table['id']}")), 0)
        both.send({"type": "join", "seat": 0, "account": True, "token": token_of(table, 0)})
        assert both.expect("error")["code"] == "malformed"
        # from this site's own page it opens
        mine = open_by_account(c, stack, table["id"], 0, ann, origin=str(c.base_url).rstrip("/"))
        assert mine.expect("welcome")["seat"] == 0
    assert web.app.state.tables.get(table["id"]).seats[1].joined is False  # nothing opened the other seat


def test_an_invite_is_not_brought_into_an_account_before_its_player_sits_down(web):
    c = web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], seed=3)
    web.join(table, 0, "Ann")
    invite = token_of(table, 1)  # the creator's page lists it
    answer = sign_up(
        c,
        seats=[
            {"table": table["id"], "seat": 0, "token": token_of(table, 0)},
            {"table": table["id"], "seat": 1, "token": invite},
        ],
    )
    assert answer["claimed"] == [{"table": table["id"], "seat": 0}]
    web.join(table, 1, "Bea")  # the invited player sits down: the invite opens nothing any more
    csrf = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}
    r = c.post("/api/account/claim", json={"seats": [{"table": table["id"], "seat": 1, "token": invite}]}, headers=csrf)
    assert r.json()["claimed"] == []
    ann = signed_in(c, "ann_1")
    with ExitStack() as stack:
        assert refusal(open_by_account(c, stack, table["id"], 1, ann)) == ("auth", 4401)
