"""Optional accounts (docs/web-api.md, "Accounts"): sign up and in with a password kept as an argon2id hash, a session
cookie no script reads, changes guarded against other sites, a guest's seats claimed by their
links, the account's data exported, and the account deleted with its games kept, anonymised."""

from __future__ import annotations

import random
import threading

import pytest

pytest.importorskip("fastapi")

from tests.conftest import token_of  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
PASSWORD = "correct horse battery"


def sign_up(c, username="ann_1", password=PASSWORD, **body):
    return c.post("/api/account/signup", json={"username": username, "password": password, **body})


def csrf(c) -> dict:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def finished_guest_table(web, nickname="Ann") -> tuple[dict, str]:
    """A private dujardin race played to its end by a guest on seat 0 against a medium bot; (the table, the
    seat's token as the guest's page keeps it after the first join)."""
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=5)
    a = web.join(table, 0, nickname)
    web.play_random([a], random.Random(2))
    assert a.state["status"] == "finished"
    return table, token_of(table, 0)


def test_sign_up_keeps_an_argon2id_hash_and_sets_an_httponly_cookie(web):
    c = web.start()
    assert c.get("/api/account").status_code == 401
    r = sign_up(c)
    assert r.status_code == 201 and r.json()["username"] == "ann_1"
    cookie = r.headers["set-cookie"]
    assert "mb_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert r.headers["cache-control"] == "no-store"
    me = c.get("/api/account").json()
    assert me["username"] == "ann_1" and len(me["csrf"]) >= 32 and me["seats"] == []
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.connect() as conn:
        (stored,) = conn.execute(text("SELECT password_hash FROM accounts")).one()
        (session_hash,) = conn.execute(text("SELECT token_hash FROM account_sessions")).one()
    db.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert c.cookies["mb_session"] not in session_hash  # only the token's hash is kept


@pytest.mark.parametrize(
    "body, field",
    [
        ({"username": "ab", "password": PASSWORD}, "username"),
        ({"username": "ann smith", "password": PASSWORD}, "username"),
        ({"username": "_ann", "password": PASSWORD}, "username"),
        ({"username": "a" * 21, "password": PASSWORD}, "username"),
        ({"username": "anné", "password": PASSWORD}, "username"),
        ({"username": "ann", "password": "short"}, "password"),
        ({"username": "ann", "password": "x" * 257}, "password"),
        ({"username": "ann", "password": 12345678}, "password"),
        ({"username": "ann", "password": PASSWORD, "admin": True}, "admin"),
        ({"username": "ann", "password": PASSWORD, "seats": [{"table": "t", "seat": 9, "token": "x"}]}, "seats"),
    ],
)
def test_a_bad_sign_up_is_refused_and_makes_nothing(web, body, field):
    c = web.start()
    r = c.post("/api/account/signup", json=body)
    assert r.status_code == 422 and r.json()["field"] == field, r.text
    assert sign_up(c, "ann", PASSWORD).status_code == 201  # the name was not taken by the refused attempt


def test_a_name_is_taken_whatever_its_case_and_the_password_is_not_the_name(web):
    c = web.start()
    assert sign_up(c, "Ann_1").status_code == 201
    c.cookies.clear()
    r = sign_up(c, "aNN_1")
    assert (r.status_code, r.json()["code"]) == (409, "taken")
    r = sign_up(c, "dave_4444", "DAVE_4444")
    assert (r.status_code, r.json()["code"], r.json()["reason"]) == (422, "weak-password", "name")


def test_sign_in_and_out(web):
    c = web.start()
    sign_up(c)
    c.cookies.clear()
    for name, password in (("ann_1", "wrong password"), ("nobody", PASSWORD)):
        r = c.post("/api/account/signin", json={"username": name, "password": password})
        assert (r.status_code, r.json()["code"]) == (401, "wrong") and "set-cookie" not in r.headers
    r = c.post("/api/account/signin", json={"username": "ANN_1", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["username"] == "ann_1"
    assert c.get("/api/account").json()["username"] == "ann_1"
    r = c.post("/api/account/signout", json={}, headers=csrf(c))
    assert r.status_code == 200 and 'mb_session=""' in r.headers["set-cookie"]
    assert c.get("/api/account").status_code == 401


def test_who_is_signed_in_is_an_answer_even_signed_out(web):
    """GET /api/me: what a page asks without knowing; signed out is a 200, never the 401 a console logs."""
    c = web.start()
    r = c.get("/api/me")
    assert (r.status_code, r.json(), r.headers["cache-control"]) == (200, {"signed_in": False}, "no-store")
    sign_up(c)
    me, account = c.get("/api/me").json(), c.get("/api/account").json()
    assert me == {"signed_in": True, **account} and me["username"] == "ann_1"
    c.post("/api/account/signout", json={}, headers=csrf(c))
    assert c.get("/api/me").json() == {"signed_in": False}


def test_a_sign_in_survives_a_restart(web):
    c = web.start()
    sign_up(c)
    cookie = c.cookies["mb_session"]
    c = web.start()
    c.cookies.set("mb_session", cookie)
    assert c.get("/api/account").json()["username"] == "ann_1"


def test_changes_need_the_csrf_token_and_this_sites_pages(web):
    c = web.start()
    sign_up(c)
    token = csrf(c)
    for headers in (
        {},
        {"X-CSRF-Token": "x" * 43},
        {**token, "Sec-Fetch-Site": "cross-site"},
        {**token, "Origin": "https://evil.example"},
    ):
        r = c.post("/api/account/signout", json={}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] in ("csrf", "cross-site"), headers
        assert c.get("/api/account").status_code == 200  # still signed in
    r = c.post("/api/account/signout", content="{}", headers={**token, "Content-Type": "text/plain"})
    assert r.status_code in (415, 422) and c.get("/api/account").status_code == 200
    r = c.post(
        "/api/account/signin",
        json={"username": "ann_1", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    ok = c.post(
        "/api/account/signout",
        json={},
        headers={**token, "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert ok.status_code == 200


def test_a_guest_table_is_claimed_on_sign_up_and_listed_with_the_account(web):
    c = web.start()
    table, token = finished_guest_table(web)
    other, other_token = finished_guest_table(web)
    links = [
        {"table": table["id"], "seat": 0, "token": token},
        {"table": other["id"], "seat": 0, "token": "not-its-token"},
        {"table": table["id"], "seat": 1, "token": token},  # the bot's seat
        {"table": "nosuchtable", "seat": 0, "token": token},
    ]
    r = sign_up(c, seats=links)
    assert r.json()["claimed"] == [{"table": table["id"], "seat": 0}]
    seats = c.get("/api/account").json()["seats"]
    assert [(s["table"], s["seat"], s["status"], s["nickname"]) for s in seats] == [(table["id"], 0, "finished", "Ann")]
    assert token not in str(seats)
    # a seat another account holds is not taken by bringing its link again
    c.cookies.clear()
    sign_up(c, "bob_2", seats=[{"table": table["id"], "seat": 0, "token": token}])
    assert c.get("/api/account").json()["seats"] == []
    r = c.post(
        "/api/account/claim", json={"seats": [{"table": other["id"], "seat": 0, "token": other_token}]}, headers=csrf(c)
    )
    assert r.json()["claimed"] == [{"table": other["id"], "seat": 0}]
    assert [s["table"] for s in c.get("/api/account").json()["seats"]] == [other["id"]]


def test_two_accounts_claiming_one_seat_at_once_one_of_them_gets_it(web, monkeypatch):
    """Ann's seat link, brought by two accounts at the same moment (two devices, two processes): each reads the seat
    free, but only one may write itself in; the other is told it holds nothing."""
    import time

    from millebornes.web.accounts import repo

    c = web.start()
    table, token = finished_guest_table(web)
    ids = []
    for name in ("ann_1", "bob_2"):
        c.cookies.clear()
        sign_up(c, name)
        ids.append(repo.Accounts(web.app.state.db).credentials(name)[0].id)
    another = repo.Accounts._another_rated_seat

    def slowly(*args):
        time.sleep(0.3)  # the other claim has read the seat free by now
        return another(*args)

    monkeypatch.setattr(repo.Accounts, "_another_rated_seat", staticmethod(slowly))
    held: dict[str, list] = {}

    def claim(account_id: str) -> None:
        held[account_id] = repo.Accounts(web.app.state.db).claim(account_id, [(table["id"], 0, token)])

    threads = [threading.Thread(target=claim, args=(i,)) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(len(seats) for seats in held.values()) == [0, 1], held
    (winner,) = [i for i, seats in held.items() if seats]
    with web.app.state.db.engine.connect() as conn:
        from sqlalchemy import text

        stored = conn.execute(text("SELECT account_id FROM seats WHERE table_id = :t AND seat = 0"), {"t": table["id"]})
        assert stored.scalar() == winner


def test_the_export_holds_the_accounts_data_and_no_secret(web):
    c = web.start()
    table, token = finished_guest_table(web)
    sign_up(c, seats=[{"table": table["id"], "seat": 0, "token": token}])
    me = c.get("/api/account").json()
    r = c.get("/api/account/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["username"] == "ann_1" and [s["table"] for s in data["seats"]] == [table["id"]]
    assert len(data["sign_ins"]) == 1 and set(data["sign_ins"][0]) == {"created", "seen", "expires", "address", "agent"}
    assert data["sign_ins"][0]["address"] == "testclient"  # where the sign-in was made: the person's own data
    for secret in (token, me["csrf"], c.cookies["mb_session"], "argon2", PASSWORD):
        assert secret not in r.text


def test_deleting_the_account_keeps_its_games_anonymised(web):
    c = web.start()
    table, token = finished_guest_table(web, nickname="Annie")
    sign_up(c, seats=[{"table": table["id"], "seat": 0, "token": token}])
    r = c.request("DELETE", "/api/account", json={"password": "not the one"}, headers=csrf(c))
    assert (r.status_code, r.json()["code"]) == (401, "wrong")
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(c))
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert c.get("/api/account").status_code == 401
    assert c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code == 401
    saved = web.app.state.tables.get(table["id"], actions=True)
    assert saved.status == "finished" and saved.actions  # the game stays
    assert saved.seats[0].nickname is None  # without the account's name
    assert sign_up(c, "ann_1").status_code == 201  # the name is free again


def test_an_expired_sign_in_opens_nothing(web):
    c = web.start()
    sign_up(c)
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.begin() as conn:
        conn.execute(text("UPDATE account_sessions SET expires = '2000-01-01 00:00:00'"))
    db.dispose()
    assert c.get("/api/account").status_code == 401
    sign_up(c, "bea_2")
    db = create_engine(web.url)
    with db.begin() as conn:
        conn.execute(text("UPDATE account_sessions SET expires = '2000-01-01 00:00:00'"))
    db.dispose()
    r = c.get("/api/me")  # signed out, and the ended sign-in's cookie goes
    assert r.json() == {"signed_in": False} and 'mb_session=""' in r.headers["set-cookie"]


def test_accounts_on_postgresql_with_two_sign_ups_of_one_name_at_once(web, fresh_postgres):
    c = web.start(fresh_postgres())
    table, token = finished_guest_table(web)
    answers: list[int] = []

    def attempt(i: int) -> None:
        from fastapi.testclient import TestClient

        with TestClient(web.app) as other:
            answers.append(sign_up(other, "same_name", f"racing carts {i} quietly").status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [201, 409]
    r = sign_up(c, seats=[{"table": table["id"], "seat": 0, "token": token}])
    assert r.json()["claimed"] == [{"table": table["id"], "seat": 0}]
    assert [s["table"] for s in c.get("/api/account").json()["seats"]] == [table["id"]]
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(c))
    assert r.status_code == 200 and web.app.state.tables.get(table["id"]).seats[0].nickname is None


def test_a_private_replay_opens_to_the_account_that_holds_its_seat(web):
    c = web.start()
    table, token = finished_guest_table(web)
    replay, review = f"/api/tables/{table['id']}/replay?step=1", f"/api/tables/{table['id']}/review"
    assert c.get(replay).status_code == 403
    sign_up(c, "owner_1", seats=[{"table": table["id"], "seat": 0, "token": token}])
    assert c.get(replay).status_code == 200 and c.get(review).status_code != 403  # the sign-in opens it
    assert c.get(f"/api/tables/{table['id']}/record").status_code == 200
    c.cookies.clear()
    sign_up(c, "stranger_2")
    assert c.get(replay).status_code == 403 and c.get(review).status_code == 403
    assert c.get(f"/api/tables/{table['id']}/record").status_code == 403
