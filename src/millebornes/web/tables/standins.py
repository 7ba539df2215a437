"""Absent players and their stand-ins: a human seat nobody is on for the table's grace period, or whose turn clock
ran out, is played by a bot until its person takes it back; at a rated table, a seat abandoned after both sides
played forfeits the match instead (:mod:`.forfeits`).

Why apart from :mod:`.room`: the room seats sockets and tells who is connected; this part counts down each empty
human seat's grace period (one task per seat, ``Room.away_tasks``), decides which seats a stand-in takes and when
(only while someone else is at the table to wait for them: nobody waits on an empty table), saves the stand-in or
the return with a note in the table's log, and answers a remote player's time-out (a bot account's).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

from ..errors import Refused
from ..logfields import at_table
from .clock import until
from .host import Host
from .rows import PLAYING, SavedTable

log = logging.getLogger("millebornes.web")


def stood_in(table: SavedTable) -> set[int]:
    """The human seats a stand-in bot plays."""
    return {s.seat for s in table.seats if s.kind == "human" and s.stood_in}


class StandIns:
    """One room's absent players and stand-ins; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    def takeovers(self, at: float) -> dict[int, float]:
        """Seconds until a stand-in plays each seat whose person left, as :meth:`take_over_due` will decide:
        the grace period's end, or the turn clock's when the decision is theirs and it comes first; none while
        the table is not being played."""
        if self.room.status != PLAYING or self.room.game.is_over or self.room.closed:
            return {}
        due = self.room.presence.grace_left(self.room.humans, self.room.table.grace, at)
        late = self.room.game.to_act
        if late in due and self.room.window is None and self.room.turn.ends is not None:
            due[late] = round(min(due[late], max(0.0, self.room.turn.ends - at)), 1)
        return due

    def arrived(self, seat: int) -> None:
        self.room.presence.arrived(seat)
        task = self.room.away_tasks.pop(seat, None)
        if task is not None:
            task.cancel()

    def watch_absence(self, seat: int) -> None:
        """Count down the grace period of a human seat with no socket, unless it is counting already."""
        if (
            self.room.status != PLAYING
            or seat not in self.room.humans
            or seat not in self.room.presence.away_since
            or seat in self.room.away_tasks
            or self.room.closed
        ):
            return
        left = self.room.table.grace - (time.monotonic() - self.room.presence.away_since[seat])
        self.room.away_tasks[seat] = asyncio.create_task(self._absent(seat, left), context=at_table(self.room.id))

    async def _absent(self, seat: int, delay: float) -> None:
        try:
            await until(time.monotonic() + delay)
            self.room.away_tasks.pop(seat, None)
            async with self.room.lock:
                await self.take_over_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a stand-in could not take seat %d", self.room.id, seat)

    async def take_over_due(self) -> None:
        """Stand-in bots take the seats whose people are gone past the grace period, or whose clock ran
        out; only while someone else is at the table to wait for them (nobody waits on an empty table).
        Called under the lock."""
        if self.room.status != PLAYING or self.room.game.is_over or self.room.closed:
            return
        at = time.monotonic()
        present = {s for s, on in self.room.connected().items() if on}
        due = [
            (s, "away")
            for s in sorted(self.room.humans)
            if self.room.presence.away_past(s, self.room.table.grace, at) and present - {s}
        ]
        late = self.room.game.to_act
        if (
            self.room.turn.run_out(at)
            and self.room.window is None
            and late in self.room.humans
            and present - {late}
            and late not in dict(due)
        ):
            due.append((late, "time"))
        away = {seat for seat, why in due if why == "away"}
        if away and self.room.table.rated:  # abandoned after both sides played: lost, not played on by a bot
            await self.room.forfeits.leave(away, "away")
            if self.room.status != PLAYING:
                return
        told: list[Mapping[str, Any]] = []
        for seat, why in due:
            told += await self.stand_in(seat, why)
        if told:
            self.room.schedule(told)
            self.room.broadcast_state(told)

    async def stand_in(self, seat: int, why: str) -> list[Mapping[str, Any]]:
        note = {"type": "standin", "seat": seat, "why": why}
        try:
            await asyncio.to_thread(self.room.repo.set_standin, self.room.id, seat, True, self.room.actions, note)
        except Exception:
            log.exception("table %s: could not save the stand-in of seat %d; the seat waits", self.room.id, seat)
            return []
        self.room.table.seats[seat].stood_in = True
        self.room.notes += 1
        self.room.reseat()
        task = self.room.away_tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        return self.room.view.note(note)

    async def reclaim(self, seat: int) -> list[Mapping[str, Any]]:
        """The human takes the seat back from the stand-in, with a whole clock again."""
        note = {"type": "back", "seat": seat}
        await asyncio.to_thread(self.room.repo.set_standin, self.room.id, seat, False, self.room.actions, note)
        self.room.table.seats[seat].stood_in = False
        self.room.notes += 1
        self.room.reseat()
        self.room.table.clock_deadline = None
        return self.room.view.note(note)

    async def time_out(self, seat: int, seq: int) -> None:
        """A remote player's decision at ``seq`` ran past its own limit (a bot account's:
        web/botaccounts/gateway.py): the stand-in plays for the seat, as when the turn clock runs out; nothing when
        the table moved on."""
        async with self.room.lock:
            if self.room.closed or self.room.seq != seq or self.room.status != PLAYING or self.room.game.is_over:
                return
            if self.room.window is not None or self.room.game.to_act != seat or seat not in self.room.humans:
                return
            told = await self.stand_in(seat, "time")
            if told:
                self.room.schedule(told)
                self.room.broadcast_state(told)

    async def back(self, seat: int) -> None:
        """A person still at the table takes the seat back (their clock had run out)."""
        async with self.room.lock:
            if not self.room.table.seats[seat].stood_in:
                raise Refused("malformed", "your seat is yours already: no bot plays it")
            try:
                told = await self.reclaim(seat)
            except Exception:
                log.exception("table %s: could not save seat %d's return", self.room.id, seat)
                raise Refused("server", "your return could not be saved; try again") from None
            self.room.schedule(told)
            self.room.broadcast_state(told)
