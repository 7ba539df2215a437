"""A player who left, as the others hear it (issue 39 part 4): from the moment a seat's last socket closes,
every seat and spectator is told, in the seat's facts, how many seconds are left before a stand-in bot plays
for them (``takeover``), or that none is coming; the seat's return clears it.  Every frame is checked against
web/tables/outbound.py's types (conftest.check_sent), the seats' facts field for field."""

from __future__ import annotations

import time

import pytest

from millebornes.web.tables.presence import Presence
from tests.web.tables.test_presence import events_until, seat_fact, two
from tests.web.tables.test_presence_book import Socket
from tests.web.tables.test_spectators import watch

pytest.importorskip("fastapi")


def seats_until(client, seat: int, connected: bool, timeout: float = 10.0) -> dict:
    """The client's next seats facts (from a seats or a state frame) in which ``seat`` is or is not connected."""
    deadline = time.monotonic() + timeout
    while True:
        frame = client.recv(max(0.1, deadline - time.monotonic()))
        if frame["type"] in ("seats", "state") and seat_fact(frame, seat)["connected"] is connected:
            return frame


def test_the_grace_left_counts_for_the_seats_someone_else_waits_for():
    at = Presence([0, 1, 2], away=[1, 2])
    since = at.away_since[1]
    assert at.grace_left([1, 2], 30, since + 10) == {}  # nobody at the table: no stand-in comes
    at.sit(0, Socket(0))
    assert at.grace_left([0, 1, 2], 30, since + 10) == {1: 20.0, 2: 20.0}
    assert at.grace_left([1], 30, since + 45) == {1: 0.0}
    at.there("p2", 1, True)
    assert at.grace_left([0, 1, 2], 30, since + 10) == {2: 20.0}


def test_the_others_hear_when_a_bot_takes_the_seat_of_a_player_who_left_and_that_they_came_back(web):
    table, c = two(web, clock=0, grace=30)
    ann = c[0]
    spectator = watch(web, table["id"])
    assert all(s["takeover"] is None for s in spectator.state["seats"])
    c[1].ws.close()
    for client in (ann, spectator):
        frame = seats_until(client, 1, False)
        assert frame["type"] == "seats"
        bob = seat_fact(frame, 1)
        assert 28 < bob["takeover"] <= 30 and bob["away"] is not None and bob["standin"] is False
        assert seat_fact(frame, 0)["takeover"] is None
    # a page that comes in meanwhile (a reload, a new spectator) hears it in its first state
    late = watch(web, table["id"])
    assert 20 < seat_fact(late.state, 1)["takeover"] <= 30
    web.join(table, 1, None)
    for client in (ann, spectator, late):
        bob = seat_fact(seats_until(client, 1, True), 1)
        assert bob["takeover"] is None and bob["away"] is None


def test_the_countdown_ends_when_the_stand_in_takes_the_seat(web):
    table, c = two(web, clock=0, grace=0.8)
    ann = c[0]
    c[1].ws.close()
    assert 0 < seat_fact(seats_until(ann, 1, False), 1)["takeover"] <= 0.8
    event, frame = events_until(ann, "standin")
    assert event == {"type": "standin", "seat": 1, "why": "away"}
    bob = seat_fact(frame, 1)
    assert bob["standin"] is True and bob["takeover"] is None and bob["connected"] is False


def test_the_turn_clock_ends_the_countdown_when_it_comes_first(web):
    """The one deciding leaves with 1.5 s on the clock and a minute of grace: the bot comes with the clock."""
    table, c = two(web, clock=1.5, grace=60)
    late = c[0].obs["to_act"]
    other = c[1 - late]
    c[late].ws.close()
    assert 0 < seat_fact(seats_until(other, late, False), late)["takeover"] <= 1.5
    event, frame = events_until(other, "standin")
    assert event == {"type": "standin", "seat": late, "why": "time"}
    assert seat_fact(frame, late)["takeover"] is None


def test_no_countdown_while_nobody_waits_for_the_seat(web):
    """A stand-in comes only while another player is at the table: with only a spectator left, the seats say
    who left and nothing more."""
    table, c = two(web, clock=0, grace=30)
    spectator = watch(web, table["id"])
    c[1].ws.close()
    assert seat_fact(seats_until(spectator, 1, False), 1)["takeover"] is not None
    c[0].ws.close()
    frame = seats_until(spectator, 0, False)
    assert [s["takeover"] for s in frame["seats"]] == [None, None]
    assert all(s["away"] is not None for s in frame["seats"])
    web.join(table, 0, None)
    frame = seats_until(spectator, 0, True)
    assert seat_fact(frame, 0)["takeover"] is None and seat_fact(frame, 1)["takeover"] is not None


@pytest.mark.server
@pytest.mark.postgres
def test_a_player_who_leaves_at_another_process_is_counted_down_here(postgres_url, tmp_path):
    """Ann plays through process a, Bob through b: Bob's socket closes at b, and a, which hears it by a
    presence notice, tells Ann the countdown; Bob's return at b clears it."""
    from tests.conftest import check_sent
    from tests.serving import Seat, Server

    servers = [Server(postgres_url, tmp_path / f"server{i}.log", 0) for i in range(2)]
    try:
        a, b = servers
        table = a.create(ruleset="classic", players=2, seats=[{"kind": "human"}] * 2, clock=0, grace=30)
        ann, bob = Seat(a, table, 0, "Ann"), Seat(b, table, 1, "Bob")

        def heard(connected: bool) -> dict:
            while True:
                frame = ann.recv()
                check_sent(frame)
                if frame["type"] in ("seats", "state") and seat_fact(frame, 1)["connected"] is connected:
                    return seat_fact(frame, 1)

        heard(True)
        while ann.state["status"] != "playing":
            ann.expect("state")
        bob.ws.close()
        left = heard(False)
        assert 25 < left["takeover"] <= 30 and left["standin"] is False
        Seat(b, table, 1)
        back = heard(True)
        assert back["takeover"] is None and back["away"] is None
    finally:
        for s in servers:
            s.stop()
