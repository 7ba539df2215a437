"""Who is at a table: the sockets on each seat and the spectators here, the seats someone is on at other
server processes, and since when each human seat has had nobody (what its grace period counts).

Pure bookkeeping on ``time.monotonic``: the room tells the other processes, broadcasts and starts the
stand-ins' countdowns from what these methods answer.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Protocol

from .outbound import ServerFrame


class Connection(Protocol):
    seat: int | None
    """None for a spectator (and before a join)."""

    def send(self, frame: ServerFrame) -> None: ...

    def turn_away(self, code: str, message: str, close_code: int) -> None:
        """The table is gone for good: the error, then the close."""


class Presence:
    def __init__(self, seats: Iterable[int], away: Iterable[int]):
        self.conns: dict[int, set[Connection]] = {seat: set() for seat in seats}
        self.watchers: set[Connection] = set()
        """Spectators' sockets."""
        self.remote: dict[str, set[int]] = {}
        """The seats someone is on at each other server process (their notices' ``origin``)."""
        self.idle_since = time.monotonic()
        """Since when no socket is here."""
        self.away_since = {seat: self.idle_since for seat in away}
        """Human seats with nobody on them, since when: since the load for every seat."""

    def connected(self) -> dict[int, bool]:
        """Each seat: whether someone is on it, here or at another server process."""
        there = set().union(*self.remote.values()) if self.remote else set()
        return {seat: bool(conns) or seat in there for seat, conns in self.conns.items()}

    def away_for(self, at: float) -> dict[int, float]:
        return {s: round(at - t, 1) for s, t in self.away_since.items()}

    def sockets(self) -> int:
        return sum(map(len, self.conns.values())) + len(self.watchers)

    def empty(self) -> bool:
        return not any(self.conns.values()) and not self.watchers

    def sit(self, seat: int, conn: Connection) -> bool:
        """A socket on the seat; True when it is the seat's first here (the other processes hear of it)."""
        first = not self.conns[seat]
        self.conns[seat].add(conn)
        self.arrived(seat)
        return first

    def arrived(self, seat: int) -> None:
        self.away_since.pop(seat, None)

    def leave(self, conn: Connection) -> int | None:
        """A socket went: the seat that lost its last socket here, if any."""
        if conn in self.watchers:
            self.watchers.discard(conn)
            self._maybe_idle()
            return None
        seat = conn.seat
        if seat is None or conn not in self.conns.get(seat, ()):
            return None
        self.conns[seat].discard(conn)
        self._maybe_idle()
        return None if self.conns[seat] else seat

    def _maybe_idle(self) -> None:
        if self.empty():
            self.idle_since = time.monotonic()

    def missed(self, seat: int) -> bool:
        """The seat's last socket here or elsewhere went: True when nobody is on it now and its absence
        starts counting (it was not counting already)."""
        if self.connected()[seat] or seat in self.away_since:
            return False
        self.away_since[seat] = time.monotonic()
        return True

    def there(self, origin: str, seat: int, on: bool) -> None:
        """Someone came to ``seat`` at another server process, or its last socket there went."""
        seats = self.remote.setdefault(origin, set())
        if on:
            seats.add(seat)
            self.arrived(seat)
        else:
            seats.discard(seat)

    def away_past(self, seat: int, grace: float, at: float) -> bool:
        """Whether the seat has had nobody for ``grace`` seconds."""
        return seat in self.away_since and at - self.away_since[seat] >= grace

    def grace_left(self, seats: Iterable[int], grace: float, at: float) -> dict[int, float]:
        """Seconds until the grace period of each of ``seats`` nobody is on runs out, for the seats someone
        else is at the table to wait for: a stand-in comes only then (``StandIns.take_over_due``)."""
        present = {s for s, on in self.connected().items() if on}
        return {
            s: round(max(0.0, grace - (at - self.away_since[s])), 1)
            for s in seats
            if s in self.away_since and present - {s}
        }
