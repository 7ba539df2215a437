"""Rated tables (docs/web-api.md, "Ratings"): standard options and measured bots only, no move taken back, and a
finished match rates each account at it once, against the bots' anchored ratings, as web/ratings/skill.py computes it."""

from __future__ import annotations

import random

import pytest

import millebornes as mb  # noqa: E402

pytest.importorskip("fastapi")

from tests.conftest import Hasty, token_of  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
PASSWORD = "correct horse battery"


def account(web, username: str, seats: list[dict]) -> dict:
    """A new account (in a client of its own) that claims ``seats``; its client and the answer."""
    from fastapi.testclient import TestClient

    c = web.stack.enter_context(TestClient(web.app))
    r = c.post("/api/account/signup", json={"username": username, "password": PASSWORD, "seats": seats})
    assert r.status_code == 201, r.text
    return {"client": c, "claimed": r.json()["claimed"]}


def ratings(web):
    from millebornes.web.ratings.repo import Ratings

    return Ratings(web.app.state.db)


def account_id(web, username: str) -> str:
    from millebornes.web.accounts.repo import Accounts

    found = Accounts(web.app.state.db).credentials(username)
    assert found is not None
    return found[0].id


@pytest.mark.parametrize(
    "body, says",
    [
        ({"options": {"target": 1500}}, "standard options"),
        (
            {"deck": [c for c, n in zip(mb.CARD_IDS, mb.ruleset("dujardin").deck_counts(2)) for _ in range(n)]},
            "no stacked deck",
        ),
    ],
)
def test_a_rated_table_plays_the_edition_as_it_comes(web, body, says):
    web.start()
    r = web.client.post(
        "/api/tables", json={"ruleset": "dujardin", "players": 2, "seats": [HUMAN, MEDIUM], "rated": True, **body}
    )
    assert r.status_code == 422 and says in r.json()["detail"], r.text


def test_a_rated_match_rates_its_account_once_against_the_anchored_bot(web):
    from millebornes.web.ratings.skill import Rating, bot_rating, rate_match

    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], rated=True, seed=3)
    assert web.client.get(f"/api/tables/{table['id']}").json()["rated"] is True
    ann = web.join(table, 0, "Ann")
    made = account(web, "ann_1", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    assert made["claimed"] == [{"table": table["id"], "seat": 0}]
    web.play_random([ann], Hasty(3))
    assert ann.state["status"] == "finished"
    winners = ann.state["observation"]["winners"]
    me = account_id(web, "ann_1")
    expected = rate_match(
        [[Rating()], [bot_rating("medium", "dujardin")]], ranks=[0 if 0 in winners else 1, 0 if 1 in winners else 1]
    )
    got = ratings(web).of(me)["dujardin"]
    assert (got.mu, got.sigma, got.matches) == pytest.approx((expected[0][0].mu, expected[0][0].sigma, 1))
    assert (got.display > 1500) == (winners == [0])
    [change] = ratings(web).history(me)
    assert (change.table_id, change.family, change.before, change.after, change.provisional) == (
        table["id"],
        "dujardin",
        1500,
        got.display,
        True,
    )
    shown = made["client"].get("/api/account").json()["ratings"]
    assert shown == {"dujardin": {"rating": got.display, "provisional": True, "matches": 1}}
    exported = made["client"].get("/api/account/export").json()
    assert [(m["table"], m["before"], m["after"]) for m in exported["rated_matches"]] == [
        (table["id"], 1500, got.display)
    ]
    # rated once: again, by this process or another's sweep, changes nothing
    assert (
        ratings(web).rate(table["id"], web.app.state.settings.limits) is None
        and ratings(web).unrated(change.at.replace(year=2000)) == []
    )
    assert ratings(web).of(me)["dujardin"].matches == 1


def test_two_people_are_rated_against_each_other_and_one_account_holds_one_seat(web):
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], rated=True, seed=4)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    links = [{"table": table["id"], "seat": s, "token": token_of(table, s)} for s in (0, 1)]
    # one account bringing both seats' links holds the first only: a match against oneself rates nothing
    assert account(web, "both_seats", links)["claimed"] == [{"table": table["id"], "seat": 0}]
    web.play_random([ann, bob], Hasty(4))
    assert ratings(web).history(account_id(web, "both_seats")) == []

    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], rated=True, seed=5)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    account(web, "ann_2", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    account(web, "bob_2", [{"table": table["id"], "seat": 1, "token": token_of(table, 1)}])
    web.play_random([ann, bob], Hasty(5))
    winners = ann.state["observation"]["winners"]
    a, b = (ratings(web).of(account_id(web, n))["dujardin"] for n in ("ann_2", "bob_2"))
    if len(winners) == 1:
        first, second = (a, b) if winners == [0] else (b, a)
        assert first.mu > 25 > second.mu and first.mu - 25 == pytest.approx(25 - second.mu)


def test_a_person_and_their_own_bot_are_not_rated_against_each_other(web):
    from millebornes.web.botaccounts.repo import Bots

    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, HUMAN], rated=True, seed=7)
    ann, other = web.join(table, 0, "Ann"), web.join(table, 1, "Annbot")
    account(web, "owner_1", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    bots = Bots(web.app.state.db)
    bot, _ = bots.create(account_id(web, "owner_1"), "owners_bot", 5)
    bots.hold_seat(table["id"], 1, bot.account_id)  # the owner's bot holds the other side
    web.play_random([ann, other], Hasty(7))
    assert ann.state["status"] == "finished"
    assert ratings(web).rate(table["id"], web.app.state.settings.limits) is False
    assert web.app.state.tables.get(table["id"]).rated is False  # unrated for good
    assert ratings(web).history(account_id(web, "owner_1")) == [] and ratings(web).history(bot.account_id) == []


def test_a_guest_at_a_rated_table_leaves_it_unrated(web):
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], rated=True, seed=6)
    ann = web.join(table, 0, "Ann")
    web.play_random([ann], Hasty(6))
    assert ann.state["status"] == "finished"
    assert ratings(web).rate(table["id"], web.app.state.settings.limits) is False
    assert web.client.get(f"/api/tables/{table['id']}").json()["rated"] is False  # unrated for good
    made = account(web, "late_1", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    assert made["claimed"]  # claimed after the end: the match was not rated with a guest, and is not now
    assert ratings(web).history(account_id(web, "late_1")) == []


def test_no_move_is_taken_back_at_a_rated_table(web):
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], rated=True, seed=7)
    ann = web.join(table, 0, "Ann")
    web.play_random([ann], Hasty(7), stop=lambda s: s["seq"] >= 4 and s["observation"]["to_act"] == 0)
    assert ann.state["undo"] is False  # not even offered
    ann.send({"type": "undo", "seq": ann.state["seq"]})
    error = ann.expect("error")
    assert (error["code"], error.get("reason")) == ("not-allowed", "rated"), error


def test_two_matches_of_one_account_rated_at_once_both_count(web, monkeypatch):
    """Two rated matches of Ann's (who has a rating already) finish and are rated at the same moment (two processes,
    or a sweep beside a room): each rating reads her rating, works the new one out slowly, and writes it; the second
    must start from the first's result, not from what both read, so that neither match is lost (SQLite here: its
    driver starts a transaction at the first write, so the rating writes first)."""
    import threading
    import time

    from millebornes.web.ratings import repo

    web.start()
    tables = [web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], rated=True, seed=seed) for seed in (3, 4, 5)]
    seats = [web.join(table, 0, "Ann") for table in tables]
    account(web, "ann_1", [{"table": t["id"], "seat": 0, "token": token_of(t, 0)} for t in tables])
    with monkeypatch.context() as m:
        m.setattr(repo.Ratings, "rate", lambda self, table_id, limits: False)  # rated below
        for seat in seats:
            web.play_random([seat], Hasty(3))
            assert seat.state["status"] == "finished"
    limits = web.app.state.settings.limits
    assert ratings(web).rate(tables[0]["id"], limits) is True  # her rating row is there: a write may now be lost
    rate_match = repo.rate_match

    def slowly(*args, **kwargs):
        time.sleep(0.3)  # the other rating has read by now, unless it waits for this one's lock
        return rate_match(*args, **kwargs)

    monkeypatch.setattr(repo, "rate_match", slowly)
    results: list = []
    threads = [
        threading.Thread(target=lambda t=t: results.append(ratings(web).rate(t["id"], limits))) for t in tables[1:]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results == [True, True]
    me = account_id(web, "ann_1")
    assert ratings(web).of(me)["dujardin"].matches == 3
    first, second, third = sorted(ratings(web).history(me), key=lambda c: c.at)
    assert first.before == 1500 and second.before == first.after and third.before == second.after
