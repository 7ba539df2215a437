"""Presence, the turn clock and stand-in bots (issue 24 item 2), on the in-process app with short clocks.

A human whose clock runs out, or who is gone past the grace period, has a bot of the table's stand-in
level play the seat while someone else is at the table; the seat is theirs again when they come back.
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import Closed, token_of

pytest.importorskip("fastapi")


def two(web, **body) -> tuple[dict, dict]:
    """A two-human classic table, both joined: (table, {seat: client})."""
    web.start()
    table = web.create(**body)
    a = web.join(table, 0, "Ann")
    b = web.join(table, 1, "Bob")
    for c in (a, b):
        while c.state["status"] != "playing":
            c.expect("state")
    return table, {0: a, 1: b}


def events_until(client, kind: str, timeout: float = 10.0) -> tuple[dict, dict]:
    """The first event of ``kind`` in the client's next states: (event, its state frame)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = client.expect("state", max(0.1, deadline - time.monotonic()))
        for e in frame["events"]:
            if e["type"] == kind:
                return e, frame


def saved_clock(web, table: dict):
    """The stored (clock_at, clock_deadline), once the clock's task wrote it (it writes off the event loop)."""
    deadline = time.monotonic() + 5
    while True:
        saved = web.hall.repo.get(table["id"])
        if saved.clock_deadline is not None or time.monotonic() > deadline:
            return saved.clock_at, saved.clock_deadline
        time.sleep(0.02)


def plays_until_seat_moves(client, seat: int, steps: int = 8) -> bool:
    """The client plays its decisions until an action of ``seat`` is seen (within ``steps`` states)."""
    for _ in range(steps):
        if client.obs["to_act"] == client.seat and client.obs["legal_actions"]:
            client.act(client.obs["legal_actions"][0])
        frame = client.expect("state")
        if any(e["type"] == "action" and e["seat"] == seat for e in frame["events"]):
            return True
    return False


def seat_fact(frame: dict, seat: int) -> dict:
    return next(s for s in frame["seats"] if s["seat"] == seat)


def test_state_frames_say_who_decides_for_how_long_and_the_time_left(web):
    table, c = two(web, clock=30)
    turn = c[0].state["turn"]
    assert turn["seat"] == c[0].obs["to_act"]
    assert 0 <= turn["for"] < 5
    assert 25 < turn["left"] <= 30
    facts = web.client.get(f"/api/tables/{table['id']}").json()
    assert (facts["clock"], facts["grace"], facts["standin"]) == (30, 60, "medium")


def test_a_human_out_of_time_gets_a_stand_in_until_they_take_the_seat_back(web):
    table, c = two(web, clock=0.4, standin="easy")
    late = c[0].obs["to_act"]
    other = c[1 - late]
    event, frame = events_until(other, "standin")
    assert event == {"type": "standin", "seat": late, "why": "time"}
    assert seat_fact(frame, late)["standin"] is True
    # the stand-in plays the late seat's decision: the next action is the late seat's
    moved, _ = events_until(other, "action")
    assert moved["seat"] == late
    # the person may not act while the bot plays for them, nor ask for hints
    me = c[late]
    while me.state["seq"] < other.state["seq"]:
        me.expect("state")
    me.send({"type": "hint"})
    assert me.expect("error")["code"] == "standin"
    # back: the seat is the person's again, and everyone is told
    me.send({"type": "back"})
    event, frame = events_until(other, "back")
    assert event == {"type": "back", "seat": late}
    assert seat_fact(frame, late)["standin"] is False
    me.send({"type": "back"})
    assert me.expect("error")["code"] == "malformed"
    saved = web.hall.repo.get(table["id"])
    assert saved.seats[late].stood_in is False


def test_a_disconnected_human_is_played_by_a_bot_after_the_grace_period_and_returns(web):
    table, c = two(web, clock=0, grace=0.3)
    ann, bob = c[0], c[1]
    bob.ws.close()
    seats = ann.expect("seats")
    while seat_fact(seats, 1)["connected"]:
        seats = ann.expect("seats")
    assert seat_fact(seats, 1)["connected"] is False and seat_fact(seats, 1)["away"] is not None
    event, frame = events_until(ann, "standin")
    assert event == {"type": "standin", "seat": 1, "why": "away"}
    # the table goes on: Ann plays, and Bob's seat moves by itself
    assert plays_until_seat_moves(ann, 1)
    # Bob comes back with his link: the seat is his again
    back = web.join(table, 1, None)
    assert seat_fact(back.state, 1)["standin"] is False
    event, _ = events_until(ann, "back")
    assert event == {"type": "back", "seat": 1}
    assert not web.hall.repo.get(table["id"]).seats[1].stood_in


def test_nobody_is_replaced_when_nobody_waits_for_them(web):
    """Alone with a bot, a person may take their time: the clock runs out, and no stand-in comes."""
    web.start()
    table = web.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}], clock=0.3)
    ann = web.join(table, 0, "Ann")
    while not (ann.state["status"] == "playing" and ann.obs["to_act"] == 0):
        ann.expect("state")
    with pytest.raises(TimeoutError):
        ann.expect("state", timeout=1.0)
    assert ann.state["turn"]["seat"] == 0
    assert not web.hall.repo.get(table["id"]).seats[0].stood_in


def test_the_deadline_and_the_stand_in_survive_a_restart(web):
    table, c = two(web, clock=0.5, grace=600)
    late = c[0].obs["to_act"]
    at, deadline = saved_clock(web, table)
    assert at == 0 and deadline is not None
    events_until(c[1 - late], "standin")
    web.stop()

    web.start()
    other = web.join(table, 1 - late, None)
    assert seat_fact(other.state, late)["standin"] is True
    welcome = next(f for f in other.frames if f["type"] == "welcome")
    assert {"type": "standin", "seat": late, "why": "time"} in welcome["log"]  # the log says so after the restart
    # the stand-in still plays the absent seat after the restart
    assert plays_until_seat_moves(other, late)


def test_a_stored_deadline_is_kept_across_a_restart(web):
    table, c = two(web, clock=20)
    first = saved_clock(web, table)[1]
    assert first is not None
    web.stop()
    web.start()
    a = web.join(table, 0, None)
    assert web.hall.repo.get(table["id"]).clock_deadline == first
    assert a.state["turn"]["left"] <= 20


def test_the_deadline_after_an_action_is_saved_with_it_and_kept_across_a_restart(web):
    table, c = two(web, clock=20)
    mover = c[c[0].obs["to_act"]]
    # the first decision's deadline is saved by the clock's own task: wait for it (a busy machine may run the
    # task after the test would act, and a move before it leaves nothing to save)
    deadline = time.monotonic() + 10
    while web.hall.repo.get(table["id"]).clock_at != 0:
        assert time.monotonic() < deadline, "the first deadline was never saved"
        time.sleep(0.02)
    # not a hazard ("play speed-limit 1"): its coup-fourré window would show nobody to act
    mover.act(next(a for a in mover.obs["legal_actions"] if len(a.split()) < 3))
    after = mover.state_after(mover.state["seq"])
    nxt = after["observation"]["to_act"]
    saved = web.hall.repo.get(table["id"], actions=True)
    room = web.hall.rooms[table["id"]]
    assert (
        (saved.clock_at, saved.clock_deadline)
        == (1, room.table.clock_deadline)
        == (room.actions, room.table.clock_deadline)
    )
    assert web.hall.repo.get(table["id"]).clock_at == 0  # the tables row was not written again: the action row holds it
    web.stop()
    web.start()
    again = web.join(table, nxt, None)
    assert web.hall.rooms[table["id"]].table.clock_deadline == saved.clock_deadline
    assert again.state["turn"]["seat"] == nxt and again.state["turn"]["left"] <= after["turn"]["left"]


def test_clock_and_grace_are_checked_at_creation(web):
    web.start(test_mode=False)
    base = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    for field, value in (
        ("clock", 5),
        ("clock", -1),
        ("clock", 4000),
        ("clock", "x"),
        ("grace", 0),
        ("grace", 1),
        ("standin", "god"),
    ):
        r = web.client.post("/api/tables", json={**base, field: value})
        assert r.status_code == 422, (field, value)
        assert field in r.text
    for body in ({"clock": 0}, {"clock": 10, "grace": 10}, {"clock": 3600, "standin": "expert"}):
        assert web.client.post("/api/tables", json={**base, **body}).status_code == 201


def test_a_spectator_cannot_take_a_seat_back(web):
    table, c = two(web)
    s = web.connect(table["id"])
    s.send({"type": "watch"})
    s.expect("welcome")
    s.send({"type": "back"})
    assert s.expect("error")["code"] == "spectator"


def presence_columns_survive(web, url: str) -> None:
    """The clock, grace, stand-in level, deadline and stand-ins survive a restart, and a database made before
    them gets their columns (no clock, a minute's grace, medium, nobody stood in)."""
    from datetime import datetime

    from sqlalchemy import text

    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables

    web.start(url=url)
    made = web.create(seats=[{"kind": "human"}] * 2, clock=30, grace=15, standin="hard")
    store = web.app.state.tables
    store.set_standin(made["id"], 1, True, 0, {"type": "standin", "seat": 1, "why": "away"})
    deadline = datetime(2030, 1, 2, 3, 4, 5)
    store.set_clock(made["id"], 7, deadline)
    store.set_clock(made["id"], 6, datetime(2020, 1, 1))  # an older decision's late write changes nothing
    web.start(url=url)
    saved = web.app.state.tables.get(made["id"])
    assert (saved.clock, saved.grace, saved.standin_level, saved.clock_at, saved.clock_deadline) == (
        30,
        15,
        "hard",
        7,
        deadline,
    )
    assert [s.stood_in for s in saved.seats] == [False, True]
    assert saved.notes == [] and web.app.state.tables.get(made["id"], actions=True).notes == [
        (0, {"type": "standin", "seat": 1, "why": "away"})
    ]
    web.stop()
    old = Tables(Database(url))
    with old.engine.begin() as c:
        for column in ("clock", "grace", "standin", "clock_at", "clock_deadline"):
            c.execute(text(f"ALTER TABLE tables DROP COLUMN {column}"))
        c.execute(text("ALTER TABLE seats DROP COLUMN standin"))
        c.execute(text("ALTER TABLE actions DROP COLUMN deadline"))
        c.execute(text("DROP TABLE alembic_version"))  # a database made before the revisions
    old.db.close()
    again = Tables(Database(url))
    saved = again.get(made["id"])
    assert (saved.clock, saved.grace, saved.standin_level, saved.clock_at, saved.clock_deadline) == (
        0,
        60,
        "medium",
        None,
        None,
    )
    assert [s.stood_in for s in saved.seats] == [False, False]
    again.db.close()


def test_the_presence_columns_live_in_sqlite(web):
    presence_columns_survive(web, web.url)
