"""Leaving a rated match after it started loses it (docs/web-api.md, "Ratings"; web/tables/forfeits.py): a bot deleted
or its token revoked mid-match, a person's account deleted, a seat abandoned past the grace period; each finishes the
table at once with the other side winning, rates it (the leaver's loss in ``rating_changes``, before any account
goes), tells every seat, and leaves the replay whole.  Before both sides played, leaving only makes the match
casual.  The real-server cases (a revoked token, a deleted bot) run ``millebornes serve``."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("fastapi")

from tests.conftest import Hasty, token_of  # noqa: E402
from tests.serving import Account, Seat, Server, bot_seat, until  # noqa: E402
from tests.web.botaccounts.test_botaccounts import PlayingBot, Wire, person_plays, signed_up  # noqa: E402
from tests.web.ratings.test_farming import dare, farm  # noqa: E402

HUMAN = {"kind": "human"}


def changes(db, table_id: str) -> dict[str, tuple[int, int]]:
    """What the match did to each account it rated: username: (before, after)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db) if isinstance(db, str) else db
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT a.username, r.before, r.after FROM rating_changes r JOIN accounts a ON a.id = r.account_id "
                "WHERE r.table_id = :t"
            ),
            {"t": table_id},
        ).all()
    if isinstance(db, str):
        engine.dispose()
    return {name: (before, after) for name, before, after in rows}


def started(red: Wire, blue: Wire, table_id: str, each: int = 2) -> None:
    """Both bots answer their decides (the first legal action) until each answered ``each`` of them: both sides
    played, so leaving now is a forfeit."""
    answered = {"red": 0, "blue": 0}
    deadline = time.monotonic() + 60
    while min(answered.values()) < each:
        assert time.monotonic() < deadline, answered
        for name, bot in (("red", red), ("blue", blue)):
            while (m := bot.poll()) is not None:
                if m["type"] == "challenge":
                    bot.send({"type": "accept", "id": m["id"]})
                elif m["type"] == "decide" and m["table"] == table_id:
                    bot.send({"type": "action", "id": m["id"], "action": m["legal_actions"][0]})
                    answered[name] += 1


def over(bot: Wire, table_id: str) -> dict:
    """The ``over`` the bot is sent for the table (decides on the way are left unanswered)."""
    deadline = time.monotonic() + 20
    while True:
        m = bot.recv(max(0.01, deadline - time.monotonic()))
        if m["type"] == "over" and m["table"] == table_id:
            return m


def owner_client(web, owner: str):
    """A client signed in as ``owner`` (the farm's owners), with its CSRF header."""
    from millebornes.web.accounts.repo import Accounts

    c = web.client
    c.cookies.clear()
    r = c.post("/api/account/signin", json={"username": owner, "password": "correct horse battery"})
    assert r.status_code == 200, r.text
    assert Accounts(web.app.state.db).credentials(owner) is not None
    return c, {"X-CSRF-Token": r.json()["csrf"]}


@pytest.mark.parametrize("leaves", ["delete", "revoke", "renew"])
def test_a_bot_that_leaves_a_rated_match_loses_it(web, leaves):
    web.start()
    red, blue, _ = farm(web)
    table_id = dare(red, 1)["table"]
    started(red, blue, table_id)
    c, csrf = owner_client(web, "bob_1")
    if leaves == "delete":
        r = c.request("DELETE", "/api/account/bots/blue", json={}, headers=csrf)
    elif leaves == "revoke":
        r = c.request("DELETE", "/api/account/bots/blue/token", json={}, headers=csrf)
    else:
        r = c.post("/api/account/bots/blue/token", json={}, headers=csrf)
    assert r.status_code == 200, r.text
    told = over(red, table_id)
    assert told["winners"] == [0]
    facts = c.get(f"/api/tables/{table_id}").json()
    assert (facts["status"], facts["winners"], facts["rated"]) == ("finished", [0], True)
    rated = changes(web.url, table_id)
    assert rated["red"][1] > rated["red"][0]
    if leaves == "delete":
        assert "blue" not in rated  # its rows went with its account, after the match was rated
    else:
        assert rated["blue"][1] < rated["blue"][0]
    replay = c.get(f"/api/tables/{table_id}/replay", params={"step": 1})
    assert replay.status_code == 200 and replay.json()["total"] >= 4


def test_a_person_who_deletes_their_account_mid_match_loses_it_before_it_goes(web):
    """``DELETE /api/account`` leaves the account's rated matches first (``Hall.leave_rated``) while the account is
    there to be rated, then it goes with its rows."""
    from fastapi.testclient import TestClient

    web.start()
    person = web.stack.enter_context(TestClient(web.app))
    csrf = signed_up(person, "ann_1")
    c = web.client
    token = c.post("/api/account/bots", json={"username": "blue"}, headers=signed_up(c, "bob_1")).json()["token"]
    blue = Wire(web, token)
    table = web.create(ruleset="dujardin", seats=[HUMAN, bot_seat("blue")], rated=True, clock=0)
    blue.send({"type": "accept", "id": blue.expect("challenge")["id"]})
    ann = web.join(table, 0, "Ann")
    seats = [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}]
    assert person.post("/api/account/claim", json={"seats": seats}, headers=csrf).json()["claimed"]
    both_play(ann, blue, table["id"])
    r = person.request("DELETE", "/api/account", json={"password": "correct horse battery"}, headers=csrf)
    assert r.status_code == 200
    rated = changes(web.url, table["id"])
    assert rated["blue"][1] > rated["blue"][0]
    assert over(blue, table["id"])["winners"] == [1]
    end = ann.state_after(ann.state["seq"]) if ann.state["status"] != "finished" else ann.state
    while end["status"] != "finished":
        end = ann.state_after(end["seq"])
    assert end["observation"]["is_over"] and end["observation"]["winners"] == [1]
    assert {"type": "forfeit", "seat": 0, "why": "deleted"} in end["events"]
    assert set(rated) == {"blue"}  # ann's rows went with her account, after the match was rated (blue's rose)


def both_play(ann, blue: Wire, table_id: str) -> None:
    """The person and the bot each make decisions (the person's hasty, the bot's the first legal one) until both
    sides played twice."""
    hasty, played, acted = Hasty(2), {0: 0, 1: 0}, -1
    deadline = time.monotonic() + 60
    while min(played.values()) < 2:
        assert time.monotonic() < deadline, played
        while (m := blue.poll()) is not None:
            if m["type"] == "decide" and m["table"] == table_id:
                blue.send({"type": "action", "id": m["id"], "action": m["legal_actions"][0]})
        state = ann.state
        obs = state["observation"]
        if state["status"] == "playing" and obs["legal_actions"] and obs["to_act"] == 0 and acted != state["seq"]:
            acted = state["seq"]
            ann.act(hasty.choice(obs["legal_actions"]))
        try:
            frame = ann.recv(0.02)
        except TimeoutError:
            continue
        if frame["type"] == "state":
            for e in frame["events"]:
                if e.get("type") == "action" and e.get("action") != "pass":
                    played[e["seat"]] += 1


def people(web, **body) -> tuple:
    """A new rated table of two people, Ann on seat 0 and Bob on seat 1, each in an account of their own (made
    before the table, so that one app's lifespan holds everything): the table and their seats."""
    from fastapi.testclient import TestClient

    clients = []
    for name in ("ann_1", "bob_1"):
        c = web.stack.enter_context(TestClient(web.app))
        clients.append((c, signed_up(c, name)))
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], rated=True, **body)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    for n, (c, csrf) in enumerate(clients):
        seats = [{"table": table["id"], "seat": n, "token": token_of(table, n)}]
        assert c.post("/api/account/claim", json={"seats": seats}, headers=csrf).json()["claimed"]
    return table, ann, bob


def test_a_seat_abandoned_past_the_grace_period_loses_the_rated_match(web):
    web.start()
    table, ann, bob = people(web, grace=0.2, clock=0, seed=11)
    sides: set[int] = set()

    def both_played(state) -> bool:
        sides.update(e["seat"] for e in state["events"] if e.get("type") == "action" and e.get("action") != "pass")
        return sides == {0, 1}

    web.play_random([ann, bob], Hasty(4), stop=both_played)
    bob.ws.close()
    end = ann.state
    deadline = time.monotonic() + 10
    while end["status"] != "finished":
        assert time.monotonic() < deadline
        end = ann.state_after(end["seq"])
    assert {"type": "forfeit", "seat": 1, "why": "away"} in end["events"]
    assert end["observation"]["is_over"] and end["observation"]["winners"] == [0]
    assert end["observation"]["legal_actions"] == []
    rated = changes(web.url, table["id"])
    assert rated["ann_1"][1] > rated["ann_1"][0] and rated["bob_1"][1] < rated["bob_1"][0]
    facts = web.client.get(f"/api/tables/{table['id']}").json()
    assert (facts["status"], facts["winners"], facts["rated"]) == ("finished", [0], True)
    assert not any(s["standin"] for s in facts["seats"])  # no bot played on for Bob


def test_a_guest_who_abandons_a_rated_table_is_stood_in_for_as_at_a_casual_one(web):
    """With a guest at the table the match would not be rated: nothing is forfeited, the stand-in plays on."""
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], rated=True, grace=0.2, clock=0, seed=13)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    sides: set[int] = set()

    def both_played(state) -> bool:
        sides.update(e["seat"] for e in state["events"] if e.get("type") == "action" and e.get("action") != "pass")
        return sides == {0, 1}

    web.play_random([ann, bob], Hasty(5), stop=both_played)
    bob.ws.close()
    seen: list[dict] = []
    deadline = time.monotonic() + 10
    while not any(e.get("type") == "standin" for e in seen):
        assert time.monotonic() < deadline, seen
        seen += ann.state_after(ann.state["seq"])["events"]
    assert not any(e.get("type") in ("forfeit", "unrated") for e in seen)
    assert ann.state["status"] == "playing"


def test_leaving_before_both_sides_played_makes_the_match_casual_and_a_stand_in_plays_on(web):
    web.start()
    table, ann, bob = people(web, grace=0.2, clock=0, seed=12)
    (bob if ann.state["observation"]["to_act"] == 0 else ann).ws.close()  # the one who waits for their turn goes
    stayed = ann if ann.state["observation"]["to_act"] == 0 else bob
    deadline = time.monotonic() + 10
    seen: list[dict] = []
    while not any(e.get("type") == "standin" for e in seen):
        assert time.monotonic() < deadline, seen
        seen += stayed.state_after(stayed.state["seq"])["events"]
    left = 1 - stayed.seat
    assert {"type": "unrated", "seat": left, "why": "away"} in seen
    assert stayed.state["status"] == "playing"
    assert web.client.get(f"/api/tables/{table['id']}").json()["rated"] is False


# ---------------------------------------------------------------- a real server
@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "mb.db", tmp_path / "server.log", 0.0)
    yield s
    s.stop()


@pytest.mark.server
@pytest.mark.parametrize("leaves", ["revoke", "delete"])
def test_a_bot_that_leaves_a_rated_match_on_a_real_server_loses_it(server, tmp_path, leaves):
    ann = Account(server, "ann_1")
    owner = Account(server, "owner_2")
    bot = PlayingBot(server, owner.bot("leaver"))
    until(lambda: owner.connected("leaver"), what="the bot's connection")
    table = server.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("leaver")], rated=True, clock=0)
    seat = Seat(server, table, 0, "Ann")
    token0 = next(s["url"] for s in table["seats"] if s["seat"] == 0).split("token=")[1]
    r = ann.http.post(
        "/api/account/claim", json={"seats": [{"table": table["id"], "seat": 0, "token": token0}]}, headers=ann.csrf
    )
    assert r.json()["claimed"] == [{"table": table["id"], "seat": 0}]
    sides: set[int] = set()

    def both_played(state) -> bool:
        sides.update(e["seat"] for e in state["events"] if e.get("type") == "action" and e.get("action") != "pass")
        return sides == {0, 1}

    person_plays(seat, random.Random(8), both_played, seconds=60)
    if leaves == "revoke":
        r = owner.http.request("DELETE", "/api/account/bots/leaver/token", json={}, headers=owner.csrf)
    else:
        r = owner.http.request("DELETE", "/api/account/bots/leaver", json={}, headers=owner.csrf)
    assert r.status_code == 200, r.text
    while seat.state["status"] != "finished":
        seat.recv()
    assert {"type": "forfeit", "seat": 1, "why": "revoked" if leaves == "revoke" else "deleted"} in seat.state["events"]
    assert seat.state["observation"]["winners"] == [0]
    assert bot.over.wait(10)
    rated = changes(f"sqlite:///{tmp_path / 'mb.db'}", table["id"])
    assert rated["ann_1"][1] > rated["ann_1"][0]
    if leaves == "revoke":
        assert rated["leaver"][1] < rated["leaver"][0]
    else:
        assert "leaver" not in rated
    facts = ann.http.get(f"/api/tables/{table['id']}").json()
    assert (facts["status"], facts["winners"], facts["rated"]) == ("finished", [0], True)
    seat.close()
