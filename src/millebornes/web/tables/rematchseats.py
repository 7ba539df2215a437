"""The rematch as the rooms do it: the finished table opens it, and the waiting rematch's seats come back to their
players or go to bots.

Why apart from :mod:`.rematch` (the frames' side: who answered what, told to whom): that module takes both rooms
and imports room.py, which builds this part.  Why apart from :mod:`.room`: here a seat of the waiting rematch
changes hands (given to a bot, or back to a human with a new token), and the rematch starts when the last human
seat left has joined, as a join would start it.
"""

from __future__ import annotations

import asyncio

from ..errors import Gone, Refused
from ..tokens import hash_token, new_token
from . import outbound
from .host import Host
from .rows import PLAYING, WAITING


class RematchSeats:
    """One room's side of the rematch; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    async def open_rematch(self, seed: int) -> str:
        """Under the lock of this finished table: its rematch, created at the first answer (Tables.create_rematch)."""
        self.room.table.rematch = await asyncio.to_thread(self.room.repo.create_rematch, self.room.id, seed)
        return self.room.table.rematch

    async def seat_back(self, seat: int) -> str:
        """At the waiting rematch: a new token for the seat (its hash stored, the old one's forgotten), the
        seat a human's again if a bot was given it meanwhile.  Refused once its player sat down or the rematch
        started: the finished table's link must not take the seat, and its hand, from the one playing it."""
        async with self.room.lock:
            if self.room.closed:
                raise Gone(self.room.id)
            s = self.room.table.seats[seat]
            if s.kind == "human" and s.joined:
                raise Refused("joined", "this seat has taken its place at the rematch already")
            if self.room.status != WAITING:
                raise Refused("started", "the rematch has started without this seat")
            token = new_token()
            if not await asyncio.to_thread(self.room.repo.issue_token, self.room.id, seat, hash_token(token)):
                # another process seated it or started the table: this copy was behind
                await self.room.following.read_seats()
                seated = self.room.table.seats[seat]
                raise Refused(
                    "joined" if seated.kind == "human" and seated.joined else "started",
                    "this seat of the rematch is taken or the rematch has started",
                )
            if s.kind == "bot":
                s.kind, s.level, s.joined = "human", None, False
                self.room.reseat()
                self.room.broadcast(outbound.seats(self.room.seat_facts()))
            s.token_hash = hash_token(token)
            return token

    async def decline(self, seat: int) -> None:
        """At the waiting rematch: the seat's player said no, and a bot takes it."""
        async with self.room.lock:
            if self.room.closed:
                raise Gone(self.room.id)
            s = self.room.table.seats[seat]
            if s.kind == "human" and s.joined:
                raise Refused("joined", "this seat has taken its place at the rematch already")
            if s.kind == "human":
                await self._to_bots([seat])

    async def fill_bots(self) -> None:
        """Give every human seat of the waiting rematch that nobody joined to a bot, and start it."""
        async with self.room.lock:
            if self.room.status != WAITING:
                raise Refused("not-waiting", "this table is not waiting for players")
            empty = [s.seat for s in self.room.table.seats if s.kind == "human" and not s.joined]
            if empty:
                await self._to_bots(empty)

    async def _to_bots(self, seats: list[int]) -> None:
        """Under the lock: the seats are bots' (stored, then in memory), and the table starts when every
        human seat left has joined, as a join would start it."""
        level = self.room.table.standin_level  # the table's stand-in level, chosen at the first match's creation
        status = await asyncio.to_thread(self.room.repo.seats_to_bots, self.room.id, seats, level)
        for n in seats:
            s = self.room.table.seats[n]
            s.kind, s.level, s.token_hash, s.nickname, s.joined = "bot", level, None, None, True
        self.room.reseat()
        started = self.room.status == WAITING and status == PLAYING
        self.room.table.status = status
        if started:
            self.room.schedule(self.room.last_events)
            self.room.broadcast_state([])
        self.room.broadcast(outbound.seats(self.room.seat_facts()))
