"""A table that does not hurry its players (issue 39): a quick game alone with bots has no turn clock, a person's
clock waits while their page shows the score of the hand just over, and the bots move at the pace chosen at the
table's creation.  On the in-process app, with the test mode's short clocks."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import millebornes as mb  # noqa: E402
from tests.util import stacked_deck

pytest.importorskip("fastapi")

from millebornes.web.db.base import now  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402
from millebornes.web.tables.pacing import FAST_DELAY, BotMoves, next_wait  # noqa: E402
from millebornes.web.tables.rows import TableRow  # noqa: E402

HUMAN = {"kind": "human"}
QUICK = {"ruleset": "classic", "options": {}, "players": 2, "teams": False, "clock": 0, "pace": "normal"}
"""The body the home page's quick game sends (static/js/quick.js): you and bots, no turn clock."""
SHORT = {"target": 25, "extension": False, "extension_target": 25}
"""A hand of 25 km: Ann's Roll, Bob's discard, Ann's 25, and it is over; Bob opens the next hand."""
SHORT_DECK = stacked_deck(mb.ruleset("classic", **SHORT), 2, hands={0: ["roll", "25"]})


def frames_limits(**values) -> Limits:
    return Limits(frames_per_second=100_000, **values)


def short_hand(web, clock: float) -> tuple[dict, dict, dict]:
    """Two people play the short hand to its end: (table, Ann, Bob), each at the first state of the next hand."""
    table = web.create(seats=[HUMAN, HUMAN], options=SHORT, deck=SHORT_DECK, seed=1, clock=clock)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    for c in (ann, bob):
        while c.state["status"] != "playing":
            c.expect("state")
    for seat, action in ((0, "play roll"), (1, None), (0, "draw"), (0, "play 25")):
        me = (ann, bob)[seat]
        while me.obs["to_act"] != seat or not me.obs["legal_actions"]:
            me.expect("state")
        me.act(action or next(a for a in me.obs["legal_actions"] if a.startswith("discard")))
        me.state_after(me.state["seq"])
    for c in (ann, bob):
        while not any(e["type"] == "hand-over" for e in c.state["events"]):
            c.expect("state")
    return table, ann, bob


def stored(web, table: dict):
    """The deadline a load would take (the tables row's, or the last action's), and the number of actions."""
    saved = web.hall.repo.get(table["id"], actions=True)
    return saved.clock_deadline, saved.clock_at, len(saved.actions)


def until(what: str, check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.02)
    return found


def test_a_quick_game_alone_with_bots_has_no_turn_clock(web):
    web.start()
    table = web.create(**QUICK, seats=[HUMAN, {"kind": "bot", "level": "easy"}])
    ann = web.join(table, 0, "Ann")
    while not (ann.state["status"] == "playing" and ann.obs["to_act"] == 0):
        ann.expect("state")
    assert ann.state["turn"] == {**ann.state["turn"], "seat": 0, "left": None, "paused": None}
    facts = web.client.get(f"/api/tables/{table['id']}").json()
    assert (facts["clock"], facts["pace"]) == (0, "normal")
    assert web.hall.repo.get(table["id"]).clock_deadline is None


def test_the_clock_waits_while_the_score_is_read_and_runs_once_it_is_closed(web):
    web.start(limits=frames_limits())
    table, ann, bob = short_hand(web, clock=30)
    turn = bob.state["turn"]
    assert turn["seat"] == 1 and bob.obs["to_act"] == 1
    assert turn["left"] == 30 and 110 < turn["paused"] <= 120  # held for the score, then the whole clock
    assert ann.state["turn"]["paused"] is not None  # the other seats see it held too
    deadline, at, actions = stored(web, table)
    assert at == actions and timedelta(seconds=140) < deadline - now() <= timedelta(seconds=150)

    ann.send({"type": "sheet-closed"})  # not Ann's decision: her closing changes nobody's clock
    bob.send({"type": "sheet-closed"})
    seq = bob.state["seq"]
    running = bob.expect("state")
    while running["turn"]["paused"] is not None:
        running = bob.expect("state")
    assert running["seq"] == seq and running["events"] == []
    assert 25 < running["turn"]["left"] <= 30
    deadline, at, actions = stored(web, table)
    assert at == actions and timedelta(seconds=25) < deadline - now() <= timedelta(seconds=30)
    assert web.hall.repo.get(table["id"]).clock_at == actions  # the tables row holds it, written by the close
    bob.send({"type": "sheet-closed"})  # again: nothing is held any more, nothing changes
    bob.send({"type": "ping"})
    assert bob.expect("pong") == {"type": "pong"}

    web.stop()
    web.start(limits=frames_limits())
    again = web.join(table, 1, None)
    assert web.hall.rooms[table["id"]].table.clock_deadline == deadline  # a restart keeps the started clock
    assert again.state["turn"]["paused"] is None and again.state["turn"]["left"] <= running["turn"]["left"]


def test_a_score_left_open_holds_the_clock_no_longer_than_the_limit(web):
    web.start(limits=frames_limits(sheet_seconds=0.3))
    table, ann, bob = short_hand(web, clock=30)
    assert bob.state["turn"]["left"] == 30 and 0 < bob.state["turn"]["paused"] <= 0.3
    room = web.hall.rooms[table["id"]]
    facts = until("the clock never started", lambda: (f := room.turn_facts())["paused"] is None and f)
    assert facts["seat"] == 1 and 29 < facts["left"] <= 30  # its whole time, from the limit's end
    until("the clock does not run", lambda: room.turn_facts()["left"] < 30)
    deadline, _, _ = stored(web, table)
    assert deadline - now() < timedelta(seconds=30)


def test_each_seat_reads_its_own_score_and_a_move_ends_the_reading(web):
    """Bob plays without closing his sheet (he is back at the table): Ann, still reading hers, gets her next
    decision held; once she closed it and moved, Bob's next decision runs at once."""
    web.start(limits=frames_limits())
    table, ann, bob = short_hand(web, clock=30)

    def move(me, them) -> dict:
        """``me`` draws and discards until the decision is the other seat's: that state, as ``them`` got it."""
        while True:
            seq = me.state["seq"]
            me.act(next(a for a in me.obs["legal_actions"] if a.split()[0] in ("draw", "discard")))
            me.state_after(seq)
            state = them.state_after(seq)
            if state["observation"]["to_act"] != me.seat:
                return state

    assert bob.state["turn"]["paused"] is not None
    held = move(bob, ann)
    assert held["turn"]["seat"] == 0 and held["turn"]["left"] == 30 and held["turn"]["paused"] is not None
    ann.send({"type": "sheet-closed"})
    running = ann.expect("state")
    assert running["seq"] == held["seq"] and running["turn"]["paused"] is None and running["turn"]["left"] <= 30
    bobs = move(ann, bob)
    assert bobs["turn"]["seat"] == 1 and bobs["turn"]["paused"] is None and 25 < bobs["turn"]["left"] <= 30


def test_a_seat_whose_page_is_gone_reads_no_score(web):
    web.start(limits=frames_limits())
    table, ann, bob = short_hand(web, clock=30)
    assert bob.state["turn"]["paused"] is not None
    bob.ws.close()
    running = ann.expect("state")
    while running["turn"]["paused"] is not None:
        running = ann.expect("state")
    assert running["turn"]["seat"] == 1 and 25 < running["turn"]["left"] <= 30
    deadline, at, actions = stored(web, table)
    assert at == actions and deadline - now() <= timedelta(seconds=30)


def test_sheet_closed_is_checked_like_every_frame(web):
    web.start(limits=frames_limits())
    table = web.create(seats=[HUMAN, HUMAN], clock=30)
    ann = web.join(table, 0, "Ann")
    ann.send({"type": "sheet-closed", "hand": 1})
    assert ann.expect("error")["code"] == "malformed"
    watcher = web.connect(table["id"])
    watcher.send({"type": "watch"})
    watcher.expect("welcome")
    watcher.send({"type": "sheet-closed"})
    assert watcher.expect("error")["code"] == "spectator"


def tables(web) -> int:
    with Session(web.hall.repo.db.engine) as s:
        return s.scalar(select(func.count()).select_from(TableRow))


def test_the_pace_is_chosen_at_creation_stored_and_shown(web):
    web.start(bot_delay=0.8)
    made = {}
    for pace in ("relaxed", "fast", None):
        body = {} if pace is None else {"pace": pace}
        made[pace] = table = web.create(seats=[{"kind": "bot", "level": "easy"}, HUMAN], **body)
        assert web.hall.repo.get(table["id"]).pace == (pace or "normal")
        assert web.client.get(f"/api/tables/{table['id']}").json()["pace"] == (pace or "normal")

    def bot_wait(pace) -> BotMoves:
        room = web.hall.rooms[made[pace]["id"]]
        move = next_wait(room.view, room.bots, room.settings, [], True, True)
        assert isinstance(move, BotMoves) and move.seat == 0
        return move

    assert bot_wait("fast").delay == FAST_DELAY < bot_wait(None).delay == 0.8 < bot_wait("relaxed").delay == 1.6

    before = tables(web)
    for absurd in ("warp", "", "FAST", 3, None, ["fast"]):
        r = web.client.post("/api/tables", json={**QUICK, "seats": [HUMAN, HUMAN], "pace": absurd})
        assert r.status_code == 422 and r.json()["field"] == "pace", r.text
        assert "relaxed" in r.json()["detail"]
    assert tables(web) == before  # nothing created
