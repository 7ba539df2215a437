"""Ratings cannot be farmed (docs/web-api.md, "Ratings"): the issue's farm, two accounts made from one address a
second apart, one bot each, the loser always discarding, stops gaining at the day's limit on rated matches between
the same two players (counted at rating time, so two matches begun together cannot pass it), and gains nothing at
all with the same-address guard on; both guards refuse up front where a rated table is made."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")

from tests.web.botaccounts.test_botaccounts import Wire, signed_up  # noqa: E402

HUMAN = {"kind": "human"}


def limits(**values):
    from millebornes.web.settings import Limits

    return Limits(frames_per_second=100_000, **values)


def farm(web) -> tuple[Wire, Wire, dict[str, str]]:
    """The farm: ann_1 and bob_1 signed up from one address, a second apart, with one bot each (red, blue)
    connected; their account ids by name."""
    from millebornes.web.accounts.repo import Accounts

    tokens = []
    c = web.client
    for n, (owner, name) in enumerate((("ann_1", "red"), ("bob_1", "blue"))):
        if n:
            time.sleep(1)
        c.cookies.clear()
        tokens.append(c.post("/api/account/bots", json={"username": name}, headers=signed_up(c, owner)).json()["token"])
    accounts = Accounts(web.app.state.db)
    ids = {}
    for name in ("ann_1", "bob_1", "red", "blue"):
        found = accounts.credentials(name)
        assert found is not None
        ids[name] = found[0].id
    return Wire(web, tokens[0]), Wire(web, tokens[1]), ids


def dare(red: Wire, n: int, rated: bool = True) -> dict:
    """Red challenges blue to a (rated) match: the answer (``challenged``, or an ``error``)."""
    red.send(
        {
            "type": "challenge",
            "id": n,
            "opponent": "blue",
            "edition": "dujardin",
            "players": 2,
            "rated": rated,
            "clock": 0,
            "cf_timeout": 0.05,
        }
    )
    while True:
        m = red.recv()
        if m["type"] in ("challenged", "error") and m.get("id") == n:
            return m


def rig(red: Wire, blue: Wire, tables: set[str], seconds: float = 120) -> None:
    """Play the tables out: blue accepts every challenge and always discards, red plays its best (the longest
    distance first), until both bots were told each table is over."""
    ended: dict[str, set[str]] = {t: set() for t in tables}
    deadline = time.monotonic() + seconds
    while any(len(e) < 2 for e in ended.values()):
        assert time.monotonic() < deadline, "the farm's matches did not end in time"
        for name, bot in (("red", red), ("blue", blue)):
            while (m := bot.poll()) is not None:
                if m["type"] == "challenge":
                    bot.send({"type": "accept", "id": m["id"]})
                elif m["type"] == "decide":
                    legal = m["legal_actions"]
                    if name == "blue":
                        action = next((a for a in legal if a.startswith("discard")), legal[0])
                    else:
                        action = next(
                            (
                                a
                                for best in ("200", "100", "75", "50", "25", "roll")
                                for a in legal
                                if a == f"play {best}"
                            ),
                            next((a for a in legal if not a.startswith("discard")), legal[0]),
                        )
                    bot.send({"type": "action", "id": m["id"], "action": action})
                elif m["type"] == "over" and m["table"] in ended:
                    ended[m["table"]].add(name)
                    assert m["winners"] == [0], m  # red, who made the table, sits on seat 0 and always wins


def changes(web, account_id: str) -> list[tuple[str, int, int]]:
    """The account's rated matches: (table, before, after), oldest first."""
    from millebornes.web.ratings.repo import Ratings

    return [(c.table_id, c.before, c.after) for c in Ratings(web.app.state.db).history(account_id)]


def test_the_farm_stops_gaining_at_the_days_limit_between_two_players(web):
    web.start(limits=limits(rated_pair_per_day=2, rated_same_address_hours=0))
    red, blue, ids = farm(web)
    first = dare(red, 1)["table"]
    rig(red, blue, {first})
    # two matches begun together, each allowed up front (one rated match so far): the second to finish is unrated
    both = {dare(red, 2)["table"], dare(red, 3)["table"]}
    rig(red, blue, both)
    rated = changes(web, ids["red"])
    assert len(rated) == 2 and rated[0][0] == first and rated[1][0] in both
    assert rated[0][1] < rated[0][2] < rated[1][2]  # the winner gained twice, then no more
    assert [t for t, _, _ in changes(web, ids["blue"])] == [t for t, _, _ in rated]
    unrated = (both - {rated[1][0]}).pop()
    assert web.client.get(f"/api/tables/{unrated}").json()["rated"] is False
    # the limit reached, a third challenge is refused up front, and nothing is made
    refused = dare(red, 4)
    assert refused["type"] == "error" and "2 times in the last 24 hours" in refused["message"], refused
    assert blue.poll(0.3) is None
    # the owners count as their bots: a person's table with both bots is refused too, in the page's words
    r = web.client.post(
        "/api/tables",
        json={
            "ruleset": "dujardin",
            "players": 3,
            "seats": [HUMAN, {"kind": "bot-account", "name": "red"}, {"kind": "bot-account", "name": "blue"}],
            "rated": True,
        },
    )
    assert (r.status_code, r.json()["field"], r.json()["code"]) == (422, "rated", "rated-pair-limit"), r.text
    assert changes(web, ids["red"]) == rated


def test_the_farm_gains_nothing_with_the_same_address_guard_on(web):
    web.start(limits=limits(rated_same_address_hours=24))
    red, blue, ids = farm(web)
    refused = dare(red, 1)
    assert refused["type"] == "error" and "from one address" in refused["message"], refused
    assert blue.poll(0.3) is None
    # a casual match between them is still theirs to play
    assert dare(red, 2, rated=False)["type"] == "challenged"
    assert blue.expect("challenge")["rated"] is False
    assert changes(web, ids["red"]) == [] and changes(web, ids["blue"]) == []


def test_accounts_made_from_one_address_are_not_rated_when_the_match_ends(web):
    """A person (whose account comes to the seat after the table is made, so nothing refuses it up front) against
    a bot whose owner signed up from the same address: the finished match is unrated, and says so."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, text

    from tests.conftest import Hasty, token_of

    web.start(limits=limits(rated_same_address_hours=24))
    person = web.stack.enter_context(TestClient(web.app))  # made before the table: one app's lifespan holds it
    csrf = signed_up(person, "ann_1")
    c = web.client
    token = c.post("/api/account/bots", json={"username": "blue"}, headers=signed_up(c, "bob_1")).json()["token"]
    blue = Wire(web, token)
    table = web.create(ruleset="dujardin", seats=[HUMAN, {"kind": "bot-account", "name": "blue"}], rated=True)
    blue.send({"type": "accept", "id": blue.expect("challenge")["id"]})
    ann = web.join(table, 0, "Ann")
    seats = [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}]
    assert person.post("/api/account/claim", json={"seats": seats}, headers=csrf).json()["claimed"]
    db = create_engine(web.url)
    with db.begin() as conn:  # as sign-up records it (the accounts' part of issue 54): both from the test client
        conn.execute(text("UPDATE accounts SET signup_address = 'testclient' WHERE username IN ('ann_1', 'bob_1')"))
    db.dispose()
    hasty = Hasty(3)
    deadline = time.monotonic() + 120
    while not ann.state["observation"]["is_over"]:
        assert time.monotonic() < deadline
        while (m := blue.poll()) is not None:
            if m["type"] == "decide":
                blue.send({"type": "action", "id": m["id"], "action": m["legal_actions"][0]})
        obs = ann.state["observation"]
        if ann.state["status"] == "playing" and obs["legal_actions"] and obs["to_act"] == 0:
            ann.act(hasty.choice(obs["legal_actions"]))
        try:
            ann.recv(0.02)
        except TimeoutError:
            pass
    assert web.client.get(f"/api/tables/{table['id']}").json()["rated"] is False
    from millebornes.web.ratings.repo import Ratings

    assert Ratings(web.app.state.db).history(account_id(web, "ann_1")) == []


def account_id(web, username: str) -> str:
    from millebornes.web.accounts.repo import Accounts

    found = Accounts(web.app.state.db).credentials(username)
    assert found is not None
    return found[0].id
