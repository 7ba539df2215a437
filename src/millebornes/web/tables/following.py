"""Following the other server processes on the same database (PostgreSQL; web/db/listener.py): the notices this
room sends them, and what it does with theirs.

Why apart from :mod:`.room`: the database is the one source of truth, and another process may write this table's
next action, its seats or its log's notes.  This part adopts an action another process wrote (as if played here,
``Room.leads`` false), reads the rows it lacks when a notice went missing, reads the seats and notes again, and
keeps who is on a seat at the other processes (presence notices; a process gone silent has nobody on a seat).
The take-backs another process made are :mod:`.takebacks`'s.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ...actions import IllegalAction
from ..db.notices import Kind, presence_args
from . import outbound
from .host import Host
from .rows import BROKEN, WAITING

log = logging.getLogger("millebornes.web")


class Following:
    """One room's following of the other server processes; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    def notify(self, kind: Kind, *args: str) -> None:
        """A notice to the other server processes about this table, sent in the background."""
        if self.room.repo.notifies:
            work = asyncio.to_thread(self.room.repo.notify, self.room.id, kind, *args)
            self.room.tasks.keep(work, f"table {self.room.id}: a notice to the other server processes failed")

    def tell_presence(self, seat: int, on: bool) -> None:
        """The other server processes hear when a seat gets its first socket here, or loses its last."""
        self.notify(Kind.PRESENCE, *presence_args(seat, on))

    def process_gone(self, origin: str) -> None:
        """A server process stopped telling it is alive: nobody is on a seat there any more."""
        for seat in sorted(self.room.presence.remote.get(origin, set())):
            self.remote_presence(origin, seat, False)
        self.room.presence.remote.pop(origin, None)

    async def rematch_moved(self) -> None:
        """Someone answered the rematch at another server process: the answers so far, to everyone here."""
        self.room.broadcast(outbound.rematch(**await asyncio.to_thread(self.room.repo.rematch_state, self.room.id)))

    def announce(self) -> None:
        """A process that just opened the table asks who is here: every seat with a socket here says so."""
        for seat, conns in self.room.conns.items():
            if conns:
                self.tell_presence(seat, True)

    def remote_presence(self, origin: str, seat: int, on: bool) -> None:
        """Someone came to ``seat`` at another server process, or its last socket there went."""
        if seat not in self.room.conns:
            return
        was_there = self.room.connected()[seat]
        self.room.presence.there(origin, seat, on)
        if on:
            self.room.standins.arrived(seat)
        elif self.room.presence.missed(seat):
            self.room.standins.watch_absence(seat)
        if self.room.connected()[seat] != was_there:
            self.room.broadcast(outbound.seats(self.room.seat_facts()))

    async def refresh_seats(self) -> None:
        """Another server process changed the seats (a join, a claim, a stand-in, a seat given to a bot):
        the seats and the table's start from the database, and the log's notes written there."""
        async with self.room.lock:
            if not self.room.closed:
                await self.read_seats()

    async def read_seats(self) -> None:
        """Under the lock: the body of :meth:`refresh_seats`."""
        saved = await asyncio.to_thread(self.room.repo.get, self.room.id)
        notes = await asyncio.to_thread(self.room.repo.notes_after, self.room.id, self.room.notes)
        if saved is None:
            return
        before, seats_before = self.room.status, self.room.table.seats
        self.room.table.seats = saved.seats
        if before == WAITING:
            self.room.table.status = saved.status
        self.room.reseat()
        told: list[Mapping[str, Any]] = []
        for _, note in notes:
            self.room.notes += 1
            told += self.room.view.note(note)
        if self.room.status != before or told:
            self.room.schedule(told or self.room.last_events)
            self.room.broadcast_state(told)
        if saved.seats != seats_before:
            self.room.broadcast(outbound.seats(self.room.seat_facts()))

    async def catch_up(self) -> None:
        """Adopt the actions other server processes wrote (PostgreSQL told of them): as if played here."""
        async with self.room.lock:
            if not self.room.closed and self.room.table.status != BROKEN:
                await self.read_actions()

    async def adopt(self, count: int, seat: int, action: str, deadline: datetime | None) -> None:
        """Another process wrote the table's action number ``count`` (from 1), as its notice tells: adopted
        as it is when it is the next one here, read with those missed when some notice was lost."""
        async with self.room.lock:
            if self.room.closed or self.room.table.status == BROKEN or count <= self.room.actions:
                return
            if count == self.room.actions + 1:
                await self._adopt([(seat, action, deadline)])
            else:
                await self.read_actions()

    async def read_actions(self) -> None:
        """Under the lock: every action saved after this copy's, applied, shown and scheduled from."""
        rows = await asyncio.to_thread(self.room.repo.actions_after, self.room.id, self.room.actions)
        if rows:
            await self._adopt(rows)

    async def _adopt(self, rows: list[tuple[int, str, datetime | None]]) -> None:
        """Under the lock: the next actions, saved by another process, applied, shown and scheduled from."""
        told: list[Mapping[str, Any]] = []
        hidden: set[int] = set()
        self.room.leads = False
        for seat, action, clock in rows:
            try:
                shown = self.room.view.advance(seat, action, time.monotonic() + self.room.table.cf_timeout)
            except IllegalAction:
                log.error(
                    "table %s: action %d (%s) saved by another process does not follow from this copy",
                    self.room.id,
                    self.room.actions,
                    action,
                )
                raise
            if clock is not None:
                self.room.table.clock_at, self.room.table.clock_deadline = self.room.actions, clock
            if shown is None:
                hidden.add(seat)
            else:
                told += shown
        if any(e["type"] == "hand-over" for e in told):
            self.room.reading = {}  # the process that wrote the hand's end holds the clocks of the pages it serves
        await self.room._finish_if_over()
        self.room.schedule(told)
        if told:
            self.room.broadcast_state(told)
        else:
            for seat in hidden:
                self.room.send_state(seat, [])
