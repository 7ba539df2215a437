"""Wrong passwords slow the guesser, never the owner (web/accounts/guard.py; docs/web-api.md, "Accounts"): only
failures count, per address and per name and address, with a doubling wait; the owner's right password from another
address, and a browser that signed in before from the guesser's own address, go through; sign-ups are counted per
address in the database."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from millebornes.web.accounts import guard as guard_module  # noqa: E402
from millebornes.web.accounts.guard import SignInGuard  # noqa: E402
from millebornes.web.db.base import now  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402

PASSWORD = "correct horse battery"
GUESSER, OWNER_AWAY = ("198.51.100.7", 40000), ("203.0.113.9", 40001)


def client(web, address: tuple[str, int]) -> TestClient:
    return web.stack.enter_context(TestClient(web.app, client=address))


def sign_in(c, password: str, username: str = "ann_1"):
    return c.post("/api/account/signin", json={"username": username, "password": password})


class Clock:
    """The guard's clock, moved on by hand: waits are checked without waiting."""

    def __init__(self, monkeypatch):
        self.t = now()
        monkeypatch.setattr(guard_module, "now", lambda: self.t)

    def forward(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)


def test_wrong_guesses_slow_the_guesser_and_never_the_owner(web, monkeypatch):
    home = web.start(limits=Limits(frames_per_second=100_000, failures_per_name=3, failures_per_address=50))
    assert home.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD}).status_code == 201
    clock = Clock(monkeypatch)
    guesser = client(web, GUESSER)
    assert [sign_in(guesser, f"guess number {i}").status_code for i in range(3)] == [401] * 3  # free
    assert sign_in(guesser, "guess number 3").status_code == 401  # the 4th: counted, and now the guesser waits
    r = sign_in(guesser, PASSWORD)
    assert (r.status_code, r.json()["code"], r.headers["retry-after"]) == (429, "rate", "1")
    assert "set-cookie" not in r.headers  # the right password, while waiting, opened nothing
    away = client(web, OWNER_AWAY)
    assert sign_in(away, PASSWORD).status_code == 200  # the owner elsewhere is not held up
    home.cookies.delete("mb_session")
    assert sign_in(home, PASSWORD).status_code == 200  # nor the owner's own browser (another address here)
    waits = [1]
    for _ in range(5):
        clock.forward(waits[-1])
        assert sign_in(guesser, "still guessing").status_code == 401
        waits.append(int(sign_in(guesser, "and again").headers["retry-after"]))
    assert waits == [1, 2, 4, 8, 16, 32]  # doubling with each failure past the free ones
    clock.forward(10**6)  # long after its wait: forgotten
    assert [sign_in(guesser, f"fresh guess {i}").status_code for i in range(4)] == [401] * 4


def test_the_wait_is_bounded_and_a_right_password_clears_the_names_count(web, monkeypatch):
    c = web.start(limits=Limits(frames_per_second=100_000, failures_per_name=2, failure_wait_max=60))
    assert c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD}).status_code == 201
    c.cookies.clear()
    clock = Clock(monkeypatch)
    for _ in range(12):
        sign_in(c, "a wrong one")
        clock.forward(100)
    assert sign_in(c, "a wrong one").status_code == 401
    assert int(sign_in(c, PASSWORD).headers["retry-after"]) == 60  # capped at failure_wait_max
    clock.forward(61)
    assert sign_in(c, PASSWORD).status_code == 200
    c.cookies.clear()
    assert [sign_in(c, "a wrong one").status_code for _ in range(3)] == [401] * 3  # counting from nothing again


def test_the_outcomes_are_counted_for_the_operator(web):
    from millebornes.web.metrics import REGISTRY

    def seen(outcome: str) -> float:
        return REGISTRY.get_sample_value("millebornes_signins_total", {"outcome": outcome}) or 0.0

    c = web.start(limits=Limits(frames_per_second=100_000, failures_per_name=1))
    c.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
    before = {o: seen(o) for o in ("password", "wrong", "waiting")}
    assert sign_in(c, PASSWORD).status_code == 200
    assert [sign_in(c, "a wrong one").status_code for _ in range(3)] == [401, 401, 429]
    assert {o: seen(o) - before[o] for o in before} == {"password": 1, "wrong": 2, "waiting": 1}


def test_a_browser_that_signed_in_before_is_not_locked_out_from_the_guessers_address(web, monkeypatch):
    web.start(limits=Limits(frames_per_second=100_000, failures_per_name=2))
    Clock(monkeypatch)
    owner = client(web, GUESSER)  # the owner shares the guesser's address (one network), and signed in before
    assert owner.post("/api/account/signup", json={"username": "ann_1", "password": PASSWORD}).status_code == 201
    assert owner.cookies.get("mb_device")
    owner.cookies.delete("mb_session")
    guesser = client(web, GUESSER)
    for _ in range(3):
        sign_in(guesser, "a wrong one")
    assert sign_in(guesser, PASSWORD).status_code == 429
    assert sign_in(owner, PASSWORD).status_code == 200  # the device cookie names ann_1: counted on its own
    r = sign_in(guesser, PASSWORD, username="ANN_1")
    assert r.status_code == 429  # any case of the name is the same name


def test_one_address_guessing_many_names_is_slowed_down(web):
    c = web.start(limits=Limits(frames_per_second=100_000, failures_per_address=4, failures_per_name=100))
    codes = [sign_in(c, "a wrong one", username=f"name_{i}").status_code for i in range(5)]
    assert codes == [401] * 5
    assert sign_in(c, "a wrong one", username="name_9").status_code == 429
    other = client(web, OWNER_AWAY)
    assert sign_in(other, "a wrong one", username="name_9").status_code == 401  # another address is not


def test_the_counts_are_shared_by_every_process_of_the_server(web):
    c = web.start(limits=Limits(frames_per_second=100_000, failures_per_name=1))
    for _ in range(2):
        sign_in(c, "a wrong one")
    other_process = SignInGuard(web.app.state.db, 20, 1, 900)  # the same database, another process's guard
    assert other_process.wait(other_process.keys("ann_1", "testclient", None)) == 1
    assert other_process.wait(other_process.keys("ann_1", "192.0.2.1", None)) is None


def test_sign_ups_are_counted_per_address_in_the_database(web):
    c = web.start(limits=Limits(frames_per_second=100_000, signups_per_hour=2))
    made = [
        c.post("/api/account/signup", json={"username": f"user_{i}", "password": PASSWORD}).status_code
        for i in range(3)
    ]
    assert made == [201, 201, 429]
    r = c.post("/api/account/signup", json={"username": "user_9", "password": PASSWORD})
    assert r.json()["code"] == "rate" and 3500 <= int(r.headers["retry-after"]) <= 3600
    other = client(web, OWNER_AWAY)
    assert other.post("/api/account/signup", json={"username": "user_9", "password": PASSWORD}).status_code == 201
    web.start(limits=Limits(frames_per_second=100_000, signups_per_hour=2))  # a restart forgets nothing
    again = web.client.post("/api/account/signup", json={"username": "user_8", "password": PASSWORD})
    assert again.status_code == 429


@pytest.mark.server
def test_two_processes_on_postgresql_count_guard_and_end_sign_ins_alike(fresh_postgres, tmp_path):
    """The counts, the device cookie, a device signed out and a password changed hold at whichever process a request
    reaches (limits that must hold site-wide are in the database)."""
    import httpx

    from tests.serving import Server

    url = fresh_postgres()
    a, b = (Server(url, tmp_path / f"server{i}.log", 0) for i in range(2))
    try:
        owner = httpx.Client(timeout=20)
        r = owner.post(f"{a.base}/api/account/signup", json={"username": "ann_1", "password": PASSWORD})
        assert r.status_code == 201 and owner.cookies.get("mb_device")
        guesser = httpx.Client(timeout=20)
        for i in range(6):  # five free, the sixth sets a wait: half of them at each process
            server = a if i % 2 else b
            assert (
                guesser.post(
                    f"{server.base}/api/account/signin", json={"username": "ann_1", "password": f"no {i}"}
                ).status_code
                == 401
            )
        refused = guesser.post(f"{a.base}/api/account/signin", json={"username": "ann_1", "password": PASSWORD})
        assert refused.status_code == 429
        owner.cookies.delete("mb_session")
        assert (
            owner.post(f"{b.base}/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code
            == 200
        )
        csrf = {"X-CSRF-Token": owner.get(f"{a.base}/api/account").json()["csrf"]}
        time.sleep(int(refused.headers["retry-after"]) + 0.5)  # the phone shares the guesser's address: its wait ends
        phone = httpx.Client(
            timeout=20, headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5) Safari/604.1"}
        )
        assert (
            phone.post(f"{a.base}/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code
            == 200
        )
        listed = owner.get(f"{b.base}/api/account/sessions").json()["sessions"]
        theirs = next(d["id"] for d in listed if d["browser"] == "safari")
        r = owner.request("DELETE", f"{b.base}/api/account/sessions/{theirs}", json={}, headers=csrf)
        assert r.status_code == 200
        assert phone.get(f"{a.base}/api/account").status_code == 401  # ended at the other process too
        assert (
            phone.post(f"{b.base}/api/account/signin", json={"username": "ann_1", "password": PASSWORD}).status_code
            == 200
        )
        new = "walnut orchard at dawn"
        r = owner.post(f"{a.base}/api/account/password", json={"current": PASSWORD, "password": new}, headers=csrf)
        assert r.json() == {"changed": True, "signed_out": 2}  # the phone and the sign-up's
        assert phone.get(f"{b.base}/api/account").status_code == 401
        assert owner.get(f"{b.base}/api/account").status_code == 200
    finally:
        a.stop()
        b.stop()
