"""A person's signed-in devices (web/accounts/device_routes.py; docs/web-api.md, "Signed-in devices"): listed with
roughly where from and on what, this one marked, never a token; one signed out, or all but this one; a sign-in's
absolute lifetime however much it is used; a disabled account's sign-ins open nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import text  # noqa: E402

from millebornes.web.accounts import repo as repo_module  # noqa: E402
from millebornes.web.accounts.devices import browser, network, system  # noqa: E402
from millebornes.web.db.base import now  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402

PASSWORD = "correct horse battery"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.5 Mobile/15E148 Safari/604.1"
)


def device(web, address: str, agent: str) -> TestClient:
    c = web.stack.enter_context(TestClient(web.app, client=(address, 1), headers={"User-Agent": agent}))
    r = c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    assert r.status_code == 200, r.text
    return c


def csrf(c) -> dict:
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def test_the_devices_are_listed_roughly_and_this_one_marked(web):
    c = web.start()
    assert c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD}).status_code == 201
    laptop = device(web, "203.0.113.77", FIREFOX)
    phone = device(web, "2001:db8:85a3::8a2e:370:7334", SAFARI)
    r = laptop.get("/api/account/sessions")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    listed = r.json()["sessions"]
    assert len(listed) == 3 and sum(d["current"] for d in listed) == 1
    mine = next(d for d in listed if d["current"])
    assert (mine["browser"], mine["system"], mine["network"]) == ("firefox", "linux", "203.0.113.*")
    assert {(d["browser"], d["system"], d["network"]) for d in listed if not d["current"]} == {
        ("safari", "ios", "2001:0db8:85a3:*"),
        ("other", "other", None),  # the sign-up's: a test client says nothing of itself, from no real address
    }
    assert set(mine) == {"id", "created", "seen", "expires", "network", "browser", "system", "current"}
    said = r.text
    for secret in (laptop.cookies["mb_session"], phone.cookies["mb_session"], "203.0.113.77", "8a2e"):
        assert secret not in said
    first = c.get("/api/account/sessions").json()["sessions"][0]
    assert (first["browser"], first["system"]) == ("safari", "ios")  # the last used first (within 10 min: newest)


def test_one_device_or_every_other_one_is_signed_out(web):
    c = web.start()
    c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
    laptop, phone = device(web, "203.0.113.7", FIREFOX), device(web, "198.51.100.3", SAFARI)
    phone_id = next(d["id"] for d in phone.get("/api/account/sessions").json()["sessions"] if d["current"])
    r = laptop.request("DELETE", f"/api/account/sessions/{phone_id}", json={})
    assert (r.status_code, r.json()["code"]) == (403, "csrf")  # a change: the CSRF token
    assert phone.get("/api/account").status_code == 200
    r = laptop.request("DELETE", f"/api/account/sessions/{phone_id}", json={}, headers=csrf(laptop))
    assert r.status_code == 200 and r.json() == {"signed_out": phone_id, "current": False}
    assert phone.get("/api/account").status_code == 401 and laptop.get("/api/account").status_code == 200
    again = laptop.request("DELETE", f"/api/account/sessions/{phone_id}", json={}, headers=csrf(laptop))
    assert (again.status_code, again.json()["code"]) == (404, "no-session")
    bad = laptop.request("DELETE", "/api/account/sessions/NOT-AN-ID", json={}, headers=csrf(laptop))
    assert bad.status_code == 422
    phone = device(web, "198.51.100.3", SAFARI)
    r = laptop.post("/api/account/sessions/others/signout", json={}, headers=csrf(laptop))
    assert r.json() == {"signed_out": 2}  # the phone and the sign-up's
    assert phone.get("/api/account").status_code == 401 and c.get("/api/account").status_code == 401
    assert [d["current"] for d in laptop.get("/api/account/sessions").json()["sessions"]] == [True]
    mine = laptop.get("/api/account/sessions").json()["sessions"][0]["id"]
    r = laptop.request("DELETE", f"/api/account/sessions/{mine}", json={}, headers=csrf(laptop))
    assert r.json()["current"] is True and "mb_session" not in laptop.cookies
    assert laptop.get("/api/account").status_code == 401


def test_another_accounts_device_cannot_be_signed_out(web):
    c = web.start()
    c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
    ann = next(d["id"] for d in c.get("/api/account/sessions").json()["sessions"])
    bob = web.stack.enter_context(TestClient(web.app, client=("192.0.2.9", 1)))
    bob.post("/api/account/signup", json={"username": "bob_2", "password": PASSWORD})
    r = bob.request("DELETE", f"/api/account/sessions/{ann}", json={}, headers=csrf(bob))
    assert r.status_code == 404 and c.get("/api/account").status_code == 200


def test_a_sign_in_in_constant_use_still_ends_at_its_absolute_lifetime(web, monkeypatch):
    c = web.start(limits=Limits(frames_per_second=100_000, session_days=1, session_max_days=3))
    c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
    t = [now()]
    monkeypatch.setattr(repo_module, "now", lambda: t[0])
    for _ in range(5):  # used every 12 hours: never idle for a day
        t[0] += timedelta(hours=12)
        assert c.get("/api/account").status_code == 200
    t[0] += timedelta(hours=12)  # three days since it was made
    assert c.get("/api/account").status_code == 401
    assert c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code == 200


def test_a_disabled_account_signs_in_nowhere_and_its_sign_ins_end(web):
    c = web.start()
    c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
    with web.app.state.db.engine.begin() as conn:
        conn.execute(text("UPDATE accounts SET disabled = :t WHERE username = 'ann_1'"), {"t": now()})
    assert c.get("/api/account").status_code == 401
    c.cookies.clear()
    r = c.post("/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (403, "disabled") and "mb_session" not in c.cookies
    r = c.post("/api/account/signin", json={"username": "ann_1", "password": "not the one at all"})
    assert (r.status_code, r.json()["code"]) == (401, "wrong")  # a guesser learns nothing of it


@pytest.mark.parametrize(
    "agent, words",
    [
        (FIREFOX, ("firefox", "linux")),
        (SAFARI, ("safari", "ios")),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 "
            "Safari/537.36 Edg/140.0.0.0",
            ("edge", "windows"),
        ),
        (
            "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile "
            "Safari/537.36",
            ("chrome", "android"),
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 "
            "Safari/605.1.15",
            ("safari", "macos"),
        ),
        ("curl/8.9.1", ("other", "other")),
        (None, ("other", "other")),
    ],
)
def test_an_agent_is_worded_as_one_browser_on_one_system(agent, words):
    assert (browser(agent), system(agent)) == words


def test_an_address_is_cut_to_its_network():
    assert network("192.0.2.200") == "192.0.2.*"
    assert network("::ffff:192.0.2.200") == "192.0.2.*"
    assert network("2001:db8::1") == "2001:0db8:0000:*"
    assert network("testclient") is None and network(None) is None
