"""Spectators (docs/web-api.md, "Spectators"): a socket that sends ``watch`` instead of ``join`` gets every
public step of the table from no seat: no hand, no choice, nothing a seat's hidden cards could change,
no coup-fourré tell.  It cannot act; the creator may forbid watching (kept through a restart); a table
takes a bounded number of spectators."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("fastapi")

from tests.conftest import Closed, SeatClient  # noqa: E402
from tests.web.tables.test_frames import SECRET_KEY, normalize, twin_decks, what_was_shown  # noqa: E402
from tests.web.test_hardening import cf_twins  # noqa: E402

HUMAN = {"kind": "human"}
ANY_HAND = re.compile(r'"(hands|token|seed|deck|stock_order)"\s*:|"(stock|hand)"\s*:\s*\[')


def watch(web, table_id: str) -> SeatClient:
    c = web.connect(table_id)
    c.send({"type": "watch"})
    welcome = c.expect("welcome")
    assert welcome["seat"] is None and welcome["spectator"] is True
    c.expect("state")
    return c


def refused_watch(web, table_id: str) -> tuple[str, int]:
    """The error code and the close code of a watch the server refuses."""
    c = web.connect(table_id)
    c.send({"type": "watch"})
    code = c.expect("error")["code"]
    with pytest.raises(Closed) as closed:
        c.recv()
    return code, closed.value.code


def read_to_the_end(c: SeatClient) -> None:
    while not (c.state["observation"]["is_over"] and c.state["status"] == "finished"):
        c.expect("state")


def public_known(game, asked) -> list[list[str]]:
    out = []
    for s in range(game.players):
        cards = list(game.known_cards(s))
        for card in asked[s]:
            cards.remove(card)
        out.append(cards)
    return out


def expected_live(game, asked) -> dict:
    obs = game.observation(0)
    del obs["hand"]
    obs.update(seat=None, side=None, legal_actions=[], known_cards=public_known(game, asked))
    return obs


def check_spectator(web, table_id: str, c: SeatClient, whole: bool = True) -> int:
    """Every frame the spectator got is the public table at its step, with no seat's hand or choice."""
    steps, public = what_was_shown(web, table_id)
    checked = 0
    for text, frame in zip(c.texts, c.frames, strict=True):
        assert not SECRET_KEY.search(text) and not ANY_HAND.search(text), text
        if frame["type"] != "state":
            continue
        obs, shown = frame["observation"], steps[frame["seq"]]
        assert obs["legal_actions"] == [] and obs["seat"] is None and "hand" not in obs
        if shown[0] == "live":
            assert obs == expected_live(shown[1], shown[2])
            assert frame["cf_deadline"] is None
        else:
            before, after, attacker, hazard, side, asked = shown[1:]
            sizes = [before.hand_size(s) for s in range(before.players)]
            sizes[attacker] -= 1
            assert obs["to_act"] is None and obs["decision"] == "coup-fourre" and obs["hand_sizes"] == sizes
            assert obs["pending_attack"] == {"attacker": attacker, "hazard": hazard, "side": side}
            assert obs["stock_size"] == before.stock_size and obs["discard_pile"] == before.discard_pile
            assert obs["known_cards"] == public_known(after, asked)
            pile = obs["tableaux"][side]["speed" if hazard == "speed-limit" else "battle"]
            assert pile[-1] == hazard and frame["cf_deadline"] is not None
        checked += 1
    told = [e for f in c.frames if f["type"] == "state" for e in f["events"]]
    assert told == (public if whole else public[: len(told)])
    return checked


@pytest.mark.parametrize(
    "ruleset, seats, teams, seed",
    [
        ("classic", [HUMAN, HUMAN], None, 41),
        ("classic", [HUMAN, HUMAN, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}], True, 42),
        ("family", [HUMAN, {"kind": "bot", "level": "medium"}, HUMAN], None, 43),
        ("dujardin", [HUMAN, {"kind": "bot", "level": "easy"}], None, 44),
        ("parker", [HUMAN, HUMAN], None, 45),
    ],
)
def test_a_spectator_sees_the_public_table_and_no_hand(web, ruleset, seats, teams, seed):
    web.start()
    table = web.create(ruleset=ruleset, seats=seats, teams=teams, seed=seed)
    early = watch(web, table["id"])  # before anyone joined
    clients = [web.join(table, s, f"P{s}") for s, spec in enumerate(seats) if spec["kind"] == "human"]
    web.play_random(clients, random.Random(seed))
    read_to_the_end(early)
    assert check_spectator(web, table["id"], early) > 20
    # a match that is over is for its replay: a new watch is refused, in memory or not, and loads nothing
    assert refused_watch(web, table["id"]) == ("finished", 4403)
    web.hall.rooms.pop(table["id"])
    assert refused_watch(web, table["id"]) == ("finished", 4403) and table["id"] not in web.hall.rooms


def test_hidden_cards_do_not_change_what_a_spectator_sees(web):
    """The twin deals of test_frames differ in seat 1's hand and deep in the stock."""
    web.start()
    seen = []
    for deck in twin_decks()[:2]:
        table = web.create(seats=[HUMAN, HUMAN], deck=deck, seed=9, cf_timeout=60)
        spectator = watch(web, table["id"])
        a, b = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
        rng, differ = random.Random(5), twin_decks()[2]
        for _ in range(40):
            seq = max(a.state["seq"], b.state["seq"])
            for c in (a, b):
                if c.state["seq"] < seq:
                    c.state_after(c.state["seq"])
            if a.obs["to_act"] == 0:
                a.act(rng.choice(a.obs["legal_actions"]))
            else:
                b.act(next(x for x in b.obs["legal_actions"] if not set(x.split()) & differ))
            a.state_after(seq), b.state_after(seq)
        while spectator.state["seq"] < a.state["seq"]:
            spectator.expect("state")
        seen.append([normalize(f) for f in spectator.frames])
    assert len(seen[0]) > 40 and seen[0] == seen[1]


def test_holding_the_safety_shows_nothing_to_a_spectator(web):
    """Twin tables where seat 1 holds the safety against seat 0's Stop, or not (and passes): a spectator
    gets the very same frames, during the coup-fourré window and after it."""
    web.start()
    seen, could = [], []
    for deck in cf_twins():
        table = web.create(seats=[HUMAN, HUMAN], deck=deck, seed=8, cf_timeout=0.3)
        spectator = watch(web, table["id"])
        ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")

        def step(actor, action):
            seq = ann.state["seq"]
            actor.act(action)
            ann.state_after(seq), bob.state_after(seq)

        def turn(actor, action):
            if actor.obs["decision"] == "draw":
                step(actor, "draw")
            step(actor, action or next(x for x in actor.obs["legal_actions"] if x.startswith("discard")))

        for actor, action in ((ann, "play roll"), (bob, "play roll"), (ann, "play stop 1")):
            turn(actor, action)
        could.append(bob.obs["legal_actions"])
        if bob.obs["legal_actions"]:
            bob.act("pass")
            assert bob.expect("state")["observation"]["legal_actions"] == []
        seq = ann.state["seq"]
        ann.state_after(seq), bob.state_after(seq)  # the window closes
        for _ in range(3):
            turn(bob, "discard end-of-limit")
            turn(ann, None)
        while spectator.state["seq"] < ann.state["seq"]:
            spectator.expect("state")
        seen.append([normalize(f) for f in spectator.frames])
    assert could == [["coup-fourre", "pass"], []]
    assert len(seen[0]) > 8 and seen[0] == seen[1]


def test_a_spectator_cannot_act_or_ask_for_hints(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN], seed=3)
    ann, _bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    ann.expect("state")
    spectator = watch(web, table["id"])
    seq = spectator.state["seq"]
    store = web.app.state.tables
    for frame in (
        {"type": "act", "action": "draw", "seq": seq},
        {"type": "hint"},
        {"type": "act", "action": ann.obs["legal_actions"][0], "seq": seq},
    ):
        spectator.send(frame)
        error = spectator.expect("error")
        assert error["code"] == "spectator" and "spectator" in error["message"]
    for frame in ({"type": "watch"}, {"type": "join", "seat": 0, "token": "x" * 32}):
        spectator.send(frame)
        assert spectator.expect("error")["code"] == "malformed"
    spectator.send({"type": "ping"})
    assert spectator.expect("pong")
    assert store.action_count(table["id"]) == 0 and web.hall.rooms[table["id"]].seq == seq
    # the seats still play, and the spectator sees it
    ann.act(ann.obs["legal_actions"][0])
    assert spectator.state_after(seq)["events"][0]["seat"] == 0


def test_a_table_may_forbid_spectators_and_it_survives_a_restart(web):
    web.start()
    closed = web.create(seats=[HUMAN, HUMAN], spectators=False)
    open_ = web.create(seats=[HUMAN, HUMAN])
    assert web.client.get(f"/api/tables/{closed['id']}").json()["spectators"] is False
    assert web.client.get(f"/api/tables/{open_['id']}").json()["spectators"] is True

    def refused(table_id: str) -> None:
        assert refused_watch(web, table_id) == ("no-spectators", 4403)

    refused(closed["id"])
    web.start()  # a restart on the same database: from the row, without loading the room
    assert closed["id"] in web.hall.rooms  # unfinished tables come back at start
    web.hall.rooms.pop(closed["id"]).close()
    refused(closed["id"])
    assert closed["id"] not in web.hall.rooms
    web.hall.rooms.pop(open_["id"]).close()
    watch(web, open_["id"])
    refused(closed["id"])
    assert web.app.state.tables.get(closed["id"]).spectators is False
    r = web.client.post(
        "/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], "spectators": "no"}
    )
    assert r.status_code == 422


def test_an_unknown_table_cannot_be_watched(web):
    web.start()
    assert refused_watch(web, "nosuchtable") == ("auth", 4401) and "nosuchtable" not in web.hall.rooms


def test_a_table_takes_a_bounded_number_of_spectators(web):
    from millebornes.web.settings import Limits

    web.start(limits=Limits(frames_per_second=100_000, spectators_per_table=2))
    table = web.create(seats=[HUMAN, HUMAN])
    first, _ = watch(web, table["id"]), watch(web, table["id"])
    c = web.connect(table["id"])
    c.send({"type": "watch"})
    assert c.expect("error")["code"] == "full"
    first.ws.close()
    room = web.hall.rooms[table["id"]]
    for _ in range(100):
        if len(room.watchers) < 2:
            break
        import time

        time.sleep(0.02)
    watch(web, table["id"])  # a place came free


def test_an_older_database_gets_the_spectators_column(tmp_path):
    """A database made before the option: the column is added at start, every table allowing spectators."""
    from sqlalchemy import text

    from millebornes.web.db.base import now
    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables
    from millebornes.web.tables.rows import SavedSeat, SavedTable

    url = f"sqlite:///{tmp_path}/old.db"
    store = Tables(Database(url, sqlite_sync="NORMAL"))
    store.create(
        SavedTable(
            id="old1",
            ruleset="classic",
            options={},
            players=2,
            teams=False,
            seed=1,
            deck=None,
            cf_timeout=6.0,
            status="waiting",
            created=now(),
            seats=[SavedSeat(0, "human"), SavedSeat(1, "human")],
            spectators=False,
        )
    )
    with store.engine.begin() as c:
        c.execute(text("ALTER TABLE tables DROP COLUMN spectators"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    store.db.close()
    again = Tables(Database(url, sqlite_sync="NORMAL"))
    assert again.get("old1").spectators is True and again.watch_facts("old1") == (True, "waiting")
    again.db.close()
