"""Passkeys' API without a browser (docs/web-api.md, "Passkeys"): the guards every change to an account passes, the
bounds of what is sent, the challenges used once and expired, the limit of passkeys an account holds, and the
passkeys deleted with their account.  Real keys made and used by Chromium's authenticator:
tests/browser/test_passkeys.py."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("webauthn")

PASSWORD = "correct horse battery"
B64 = "AAAA"


def sign_up(c, username="ann_1"):
    r = c.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201
    return {"X-CSRF-Token": r.json()["csrf"]}


def registration(credential_id: str = "cred1", **response) -> dict:
    """A registration's answer in the browser's shape (its content is not a real key's)."""
    return {
        "id": credential_id,
        "rawId": credential_id,
        "type": "public-key",
        "response": {"clientDataJSON": B64, "attestationObject": B64, "transports": ["internal"], **response},
        "clientExtensionResults": {},
    }


def assertion(credential_id: str = "cred1", **response) -> dict:
    return {
        "id": credential_id,
        "rawId": credential_id,
        "type": "public-key",
        "response": {"clientDataJSON": B64, "authenticatorData": "A" * 50, "signature": B64, **response},
    }


def rows(web, table: str) -> int:
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    try:
        with db.connect() as conn:
            return conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
    finally:
        db.dispose()


def passkeys(web):
    from millebornes.web.accounts.passkey_repo import Passkeys

    return Passkeys(web.app.state.accounts)


def cred(n: int) -> str:
    """A credential id in base64url, as the browser sends it."""
    return f"cred{n:04d}"


def fake_passkey(web, account_id: str, n: int) -> None:
    passkeys(web).add(account_id, cred(n), b"key", 0, ["usb"], f"Key {n}", 10)


def account_id(web, username: str) -> str:
    found = web.app.state.accounts.credentials(username)
    assert found is not None
    return found[0].id


def test_registration_options_need_a_sign_in_its_csrf_token_and_this_sites_pages(web):
    c = web.start()
    r = c.post("/api/account/passkeys/options", json={})
    assert (r.status_code, r.json()["code"]) == (401, "signed-out")
    r = c.post("/api/account/passkeys", json={"credential": registration(), "name": "Mine"})
    assert (r.status_code, r.json()["code"]) == (401, "signed-out")
    csrf = sign_up(c)
    assert c.post("/api/account/passkeys/options", json={}).json()["code"] == "csrf"
    r = c.post("/api/account/passkeys/options", json={}, headers={**csrf, "Origin": "https://evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    r = c.post("/api/account/passkeys/options", content="{}", headers={**csrf, "Content-Type": "text/plain"})
    assert r.status_code in (415, 422)
    assert rows(web, "passkey_challenges") == 0  # no refused request made a challenge
    r = c.post("/api/account/passkeys/options", json={}, headers=csrf)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    options = r.json()["options"]
    assert options["rp"] == {"name": "Mille Bornes", "id": "testserver"}
    assert options["user"]["name"] == "ann_1" and options["excludeCredentials"] == []
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert rows(web, "passkey_challenges") == 1
    c.post("/api/account/passkeys/options", json={}, headers=csrf)
    assert rows(web, "passkey_challenges") == 1  # a new registration replaces the account's earlier one


def test_a_registration_uses_its_challenge_once_and_a_bad_answer_stores_nothing(web):
    c = web.start()
    csrf = sign_up(c)
    body = {"credential": registration(), "name": "Laptop"}
    r = c.post("/api/account/passkeys", json=body, headers=csrf)
    assert (r.status_code, r.json()["code"]) == (409, "expired")  # no options asked for
    c.post("/api/account/passkeys/options", json={}, headers=csrf)
    r = c.post("/api/account/passkeys", json=body, headers=csrf)
    assert (r.status_code, r.json()["code"]) == (400, "invalid")
    r = c.post("/api/account/passkeys", json=body, headers=csrf)
    assert r.json()["code"] == "expired"  # the challenge went with the failed attempt
    assert c.get("/api/account").json()["passkeys"] == [] and rows(web, "passkeys") == 0


@pytest.mark.parametrize(
    "body, field",
    [
        ({"credential": registration(), "name": "x" * 65}, "name"),
        ({"credential": registration(), "name": "   "}, "name"),
        ({"credential": registration(), "name": "two\nlines"}, "name"),
        ({"credential": registration(), "name": 7}, "name"),
        ({"credential": registration("x" * 1367), "name": "Key"}, "credential"),
        ({"credential": registration("not base64!"), "name": "Key"}, "credential"),
        ({"credential": registration(attestationObject="A" * 16385), "name": "Key"}, "credential"),
        ({"credential": registration(transports=["usb"] * 9), "name": "Key"}, "credential"),
        ({"credential": registration(extra=1), "name": "Key"}, "credential"),
        ({"credential": {**registration(), "type": "password"}, "name": "Key"}, "credential"),
        ({"credential": registration(), "name": "Key", "admin": True}, "admin"),
    ],
)
def test_a_bad_registration_is_refused_before_anything_is_checked(web, body, field):
    c = web.start()
    csrf = sign_up(c)
    c.post("/api/account/passkeys/options", json={}, headers=csrf)
    r = c.post("/api/account/passkeys", json=body, headers=csrf)
    assert r.status_code == 422 and r.json()["field"] == field, r.text
    assert rows(web, "passkey_challenges") == 1  # still there for the right answer


def test_a_passkey_sign_in_needs_a_live_challenge_and_a_key_that_signs(web):
    c = web.start()
    sign_up(c)
    c.cookies.clear()
    r = c.post("/api/account/passkey/options", json={})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    handle, options = r.json()["challenge"], r.json()["options"]
    assert options["rpId"] == "testserver" and options["allowCredentials"] == []  # the browser offers its own
    assert options["userVerification"] == "preferred"
    r = c.post("/api/account/passkey/signin", json={"challenge": handle, "credential": assertion()})
    assert (r.status_code, r.json()["code"]) == (401, "wrong") and "set-cookie" not in r.headers
    assert rows(web, "passkey_challenges") == 0  # used up by the failed attempt
    for challenge in ("no-such-challenge", handle):
        r = c.post("/api/account/passkey/signin", json={"challenge": challenge, "credential": assertion()})
        assert (r.status_code, r.json()["code"]) == (401, "wrong")
    # a passkey it knows, and an answer that is not one of its signatures
    fake_passkey(web, account_id(web, "ann_1"), 1)
    handle = c.post("/api/account/passkey/options", json={}).json()["challenge"]
    r = c.post("/api/account/passkey/signin", json={"challenge": handle, "credential": assertion(cred(1))})
    assert (r.status_code, r.json()["code"]) == (401, "wrong")
    assert c.get("/api/account").status_code == 401


@pytest.mark.parametrize(
    "body, field",
    [
        ({"challenge": "x" * 65, "credential": assertion()}, "challenge"),
        ({"challenge": "", "credential": assertion()}, "challenge"),
        ({"challenge": "h", "credential": assertion(signature="A" * 2049)}, "credential"),
        ({"challenge": "h", "credential": assertion(authenticatorData="AAAA")}, "credential"),
        ({"challenge": "h", "credential": assertion(userHandle="x" * 129)}, "credential"),
        (
            {"challenge": "h", "credential": {**assertion(), "clientExtensionResults": {str(i): 1 for i in range(17)}}},
            "credential",
        ),
        ({"challenge": "h", "credential": assertion(), "seats": [{"table": "t", "seat": 9, "token": "x"}]}, "seats"),
        ({"challenge": "h", "credential": assertion(), "username": "ann_1"}, "username"),
    ],
)
def test_a_bad_passkey_sign_in_is_refused(web, body, field):
    c = web.start()
    r = c.post("/api/account/passkey/signin", json=body)
    assert r.status_code == 422 and r.json()["field"] == field, r.text


def test_passkey_sign_ins_are_guarded_and_throttled_by_address(web):
    from millebornes.web.settings import Limits

    c = web.start(limits=Limits(frames_per_second=100_000, signins_per_minute=3))
    r = c.post("/api/account/passkey/options", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    r = c.post(
        "/api/account/passkey/signin",
        json={"challenge": "h", "credential": assertion()},
        headers={"Origin": "https://evil.example"},
    )
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    assert [c.post("/api/account/passkey/options", json={}).status_code for _ in range(3)] == [200, 200, 200]
    r = c.post("/api/account/passkey/options", json={})
    assert r.status_code == 429 and r.json()["code"] == "rate" and int(r.headers["retry-after"]) >= 1
    # a password sign-in is not held up by them: only wrong passwords slow one down (web/accounts/guard.py)
    r = c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (401, "wrong")


def test_an_expired_challenge_opens_nothing_and_goes_with_the_next_one(web):
    c = web.start()
    handle = c.post("/api/account/passkey/options", json={}).json()["challenge"]
    from sqlalchemy import create_engine, text

    db = create_engine(web.url)
    with db.begin() as conn:
        conn.execute(text("UPDATE passkey_challenges SET expires = '2000-01-01 00:00:00'"))
    db.dispose()
    c.post("/api/account/passkey/options", json={})
    assert rows(web, "passkey_challenges") == 1  # the expired one purged
    r = c.post("/api/account/passkey/signin", json={"challenge": handle, "credential": assertion()})
    assert r.status_code == 401
    from datetime import datetime

    c.post("/api/account/passkey/options", json={})
    assert passkeys(web).purge_challenges(datetime(3000, 1, 1)) == 2


def test_an_account_holds_at_most_ten_passkeys_listed_without_their_keys(web):
    from millebornes.web.accounts.passkey_repo import Known, TooMany
    from millebornes.web.accounts.passkey_routes import PASSKEYS_MAX

    c = web.start()
    csrf = sign_up(c)
    me = account_id(web, "ann_1")
    for n in range(PASSKEYS_MAX):
        fake_passkey(web, me, n)
    with pytest.raises(TooMany):
        fake_passkey(web, me, 99)
    r = c.post("/api/account/passkeys/options", json={}, headers=csrf)
    assert (r.status_code, r.json()["code"]) == (409, "too-many")
    listed = c.get("/api/account").json()["passkeys"]
    assert [p["name"] for p in listed] == [f"Key {n}" for n in range(PASSKEYS_MAX)]
    assert all(set(p) == {"id", "name", "created", "last_used"} for p in listed)
    exported = c.get("/api/account/export")
    assert exported.json()["passkeys"] == listed and cred(0) not in exported.text
    # one deleted (another account's cannot be), the options list the others for the browser to leave out
    c.cookies.clear()
    other = sign_up(c, "bob_2")
    r = c.request("DELETE", f"/api/account/passkeys/{listed[0]['id']}", json={}, headers=other)
    assert (r.status_code, r.json()["code"]) == (404, "no-passkey")
    with pytest.raises(Known):
        passkeys(web).add(account_id(web, "bob_2"), cred(1), b"key", 0, [], "Mine too", 10)
    c.cookies.clear()
    c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    csrf = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}
    r = c.request("DELETE", f"/api/account/passkeys/{listed[0]['id']}", json={}, headers=csrf)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    r = c.post("/api/account/passkeys/options", json={}, headers=csrf)
    excluded = r.json()["options"]["excludeCredentials"]
    assert sorted(x["id"] for x in excluded) == sorted(cred(n) for n in range(1, PASSKEYS_MAX))
    assert excluded[0]["transports"] == ["usb"]
    r = c.request("DELETE", "/api/account/passkeys/" + "x" * 17, json={}, headers=csrf)
    assert r.status_code == 422


def test_a_passkey_is_renamed_by_its_account_alone_within_the_bounds_of_a_name(web):
    c = web.start()
    csrf = sign_up(c)
    fake_passkey(web, account_id(web, "ann_1"), 1)
    (made,) = c.get("/api/account").json()["passkeys"]
    path = f"/api/account/passkeys/{made['id']}"
    # the guards of every change: this site's pages, a JSON body, the sign-in's CSRF token
    assert c.patch(path, json={"name": "Phone"}).json()["code"] == "csrf"
    r = c.patch(path, json={"name": "Phone"}, headers={**csrf, "Origin": "https://evil.example"})
    assert (r.status_code, r.json()["code"]) == (403, "cross-site")
    r = c.patch(path, content='{"name": "Phone"}', headers={**csrf, "Content-Type": "text/plain"})
    assert r.status_code in (415, 422)
    for body, field in (
        ({"name": "x" * 65}, "name"),
        ({"name": " \t "}, "name"),
        ({"name": "two\nlines"}, "name"),
        ({"name": 7}, "name"),
        ({}, "name"),
        ({"name": "Phone", "admin": True}, "admin"),
    ):
        r = c.patch(path, json=body, headers=csrf)
        assert r.status_code == 422 and r.json()["field"] == field, (body, r.text)
    assert c.patch("/api/account/passkeys/" + "x" * 17, json={"name": "Phone"}, headers=csrf).status_code == 422
    assert c.get("/api/account").json()["passkeys"] == [made]  # no refused request changed it
    r = c.patch(path, json={"name": "  Téléphone de Léa  "}, headers=csrf)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    renamed = {**made, "name": "Téléphone de Léa"}  # trimmed; when it was made and used stay
    assert r.json() == renamed
    assert c.patch(path, json={"name": "x" * 64}, headers=csrf).json()["name"] == "x" * 64
    assert c.get("/api/account").json()["passkeys"] == [{**made, "name": "x" * 64}]
    assert c.get("/api/account/export").json()["passkeys"] == [{**made, "name": "x" * 64}]
    # another account cannot rename it, nor can anyone signed out
    c.cookies.clear()
    assert c.patch(path, json={"name": "Mine"}).json()["code"] == "signed-out"
    other = sign_up(c, "bob_2")
    r = c.patch(path, json={"name": "Mine"}, headers=other)
    assert (r.status_code, r.json()["code"]) == (404, "no-passkey")
    assert passkeys(web).listed(account_id(web, "ann_1"))[0].name == "x" * 64


def test_deleting_the_account_deletes_its_passkeys_and_challenges(web):
    c = web.start()
    csrf = sign_up(c)
    fake_passkey(web, account_id(web, "ann_1"), 1)
    c.post("/api/account/passkeys/options", json={}, headers=csrf)
    assert (rows(web, "passkeys"), rows(web, "passkey_challenges")) == (1, 1)
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf)
    assert r.status_code == 200
    assert (rows(web, "passkeys"), rows(web, "passkey_challenges")) == (0, 0)


def test_passkeys_on_postgresql(web, fresh_postgres):
    from millebornes.web.accounts.passkey_repo import TooMany

    c = web.start(fresh_postgres())
    sign_up(c)
    me = account_id(web, "ann_1")
    for n in range(10):
        fake_passkey(web, me, n)
    with pytest.raises(TooMany):
        fake_passkey(web, me, 10)
    c.cookies.clear()
    handle = c.post("/api/account/passkey/options", json={}).json()["challenge"]
    r = c.post("/api/account/passkey/signin", json={"challenge": handle, "credential": assertion(cred(1))})
    assert (r.status_code, r.json()["code"]) == (401, "wrong") and rows(web, "passkey_challenges") == 0
    c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    csrf = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}
    listed = c.get("/api/account").json()["passkeys"]
    assert len(listed) == 10
    r = c.patch(f"/api/account/passkeys/{listed[3]['id']}", json={"name": "Clé USB"}, headers=csrf)
    assert r.status_code == 200 and passkeys(web).listed(me)[3].name == "Clé USB"
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf)
    assert r.status_code == 200 and rows(web, "passkeys") == 0
