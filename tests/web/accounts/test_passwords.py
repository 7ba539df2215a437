"""Which passwords an account may take (web/accounts/passwords.py; NIST SP 800-63B): long enough, long passphrases
welcome, common and guessable ones refused with a reason the page words; the password changed with the current one
asked again, every other sign-in ended."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from millebornes.i18n import catalog  # noqa: E402
from millebornes.web.accounts.passwords import weakness  # noqa: E402

PASSWORD = "correct horse battery"


def sign_up(c, password: str, username: str = "ann_1"):
    return c.post("/api/account/signup", json={"username": username, "password": password})


def csrf(c) -> dict:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


@pytest.mark.parametrize(
    "password, reason",
    [
        ("password", "common"),
        ("12345678", "common"),
        ("        ", "short"),
        ("short", "short"),
        ("qwertyuiop", "common"),
        ("abcdefghij", "pattern"),
        ("zzzzzzzzzzzz", "pattern"),
        ("ann_1ann_1", "pattern"),
        ("ANN_1", "short"),
        ("ann_1_ann", "name"),
        ("millebornes", "name"),
        ("iloveyou12", "common"),
    ],
)
def test_a_guessable_password_is_refused_with_its_reason_and_makes_nothing(web, password, reason):
    c = web.start()
    r = sign_up(c, password)
    assert r.status_code == 422 and r.json()["code"] == "weak-password", r.text
    assert (r.json()["field"], r.json()["reason"]) == ("password", reason)
    assert "mb_session" not in c.cookies and sign_up(c, PASSWORD).status_code == 201


def test_long_passphrases_and_any_script_are_welcome_and_the_same_typed_two_ways(web):
    c = web.start()
    long = " ".join(["tortoise", "lantern", "harbour", "violet", "gravel", "meadow"] * 6)[:256]
    assert len(long) == 256 and sign_up(c, long, "long_1").status_code == 201
    assert sign_up(c, "x" * 257, "long_2").json()["field"] == "password"  # the bound, said
    c.cookies.clear()
    assert sign_up(c, "ｃｏｒｒｅｃｔ ｈｏｒｓｅ ｂａｔｔｅｒｙ", "wide_1").status_code == 201  # full-width letters
    c.cookies.clear()
    r = c.post("/api/account/signin", json={"username": "wide_1", "password": PASSWORD})
    assert r.status_code == 200  # NFKC: the same passphrase from another keyboard
    assert weakness("été à la plage, en famille", "ann_1") is None


def test_every_reason_is_worded_in_both_languages():
    for lang in ("en", "fr"):
        words = catalog(lang)
        for reason in ("short", "name", "common", "pattern"):
            text = words.t(f"account.weak.{reason}")
            assert text and text != f"account.weak.{reason}"


def test_a_password_change_asks_for_the_current_one_and_ends_every_other_sign_in(web):
    c = web.start()
    assert sign_up(c, PASSWORD).status_code == 201
    other = web.stack.enter_context(TestClient(web.app, client=("203.0.113.4", 1)))
    assert other.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code == 200
    new = "purple tractor sings softly"
    r = c.post("/api/account/password", json={"current": "not the one", "password": new}, headers=csrf(c))
    assert (r.status_code, r.json()["code"]) == (401, "wrong")
    r = c.post("/api/account/password", json={"current": PASSWORD, "password": "password1"}, headers=csrf(c))
    assert (r.status_code, r.json()["reason"]) == (422, "common")
    r = c.post("/api/account/password", json={"current": PASSWORD, "password": new})
    assert (r.status_code, r.json()["code"]) == (403, "csrf")
    assert other.get("/api/account").status_code == 200  # nothing changed so far
    r = c.post("/api/account/password", json={"current": PASSWORD, "password": new}, headers=csrf(c))
    assert r.status_code == 200 and r.json() == {"changed": True, "signed_out": 1}
    assert other.get("/api/account").status_code == 401 and c.get("/api/account").status_code == 200
    c.cookies.clear()
    bad = c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    assert bad.status_code == 401
    assert c.post("/api/account/signin", json={"username": "ann_1", "password": new}).status_code == 200


def test_guessing_the_current_password_from_a_borrowed_session_is_slowed_down(web):
    from millebornes.web.settings import Limits

    c = web.start(limits=Limits(frames_per_second=100_000, failures_per_name=2))
    assert sign_up(c, PASSWORD).status_code == 201
    h = csrf(c)
    codes = [
        c.post(
            "/api/account/password", json={"current": f"guess {i}", "password": "new one here x"}, headers=h
        ).status_code
        for i in range(4)
    ]
    assert codes == [401, 401, 401, 429]
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=h)
    assert r.status_code == 429  # deleting the account asks the same password under the same count
