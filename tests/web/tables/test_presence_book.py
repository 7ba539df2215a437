"""Who is at a table, without a server (web/tables/presence.py): sockets here, seats at other processes, absences."""

from __future__ import annotations

from dataclasses import dataclass

from millebornes.web.tables.presence import Presence


@dataclass(eq=False)
class Socket:
    seat: int | None

    def send(self, frame: dict) -> None:
        pass


def test_a_seat_is_away_until_someone_sits_here_or_elsewhere():
    at = Presence([0, 1], away=[0, 1])
    assert at.connected() == {0: False, 1: False} and set(at.away_since) == {0, 1} and at.empty()
    first, second = Socket(0), Socket(0)
    assert at.sit(0, first) is True and at.sit(0, second) is False
    assert at.connected() == {0: True, 1: False} and set(at.away_since) == {1} and at.sockets() == 2
    at.there("p2", 1, True)
    assert at.connected() == {0: True, 1: True} and at.away_since == {}


def test_a_seat_s_last_socket_going_starts_its_absence_once():
    at = Presence([0, 1], away=[])
    here = Socket(0)
    at.sit(0, here)
    at.there("p2", 0, True)
    assert at.leave(here) == 0 and at.empty()
    assert at.missed(0) is False  # still on it at the other process
    at.there("p2", 0, False)
    assert at.missed(0) is True and at.missed(0) is False
    assert at.away_past(0, 0.0, at.away_since[0]) and not at.away_past(0, 5.0, at.away_since[0])


def test_a_spectator_leaving_frees_no_seat():
    at = Presence([0], away=[0])
    watcher = Socket(None)
    at.watchers.add(watcher)
    assert not at.empty() and at.leave(watcher) is None and at.empty()
    assert at.leave(Socket(0)) is None  # never seated here
