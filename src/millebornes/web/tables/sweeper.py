"""The hall's periodic jobs (lichess's Titivate): what keeps the number of rooms and tables bounded.

Why apart from :mod:`.hall`: the hall loads and holds rooms and hears the other processes' notices; this part
only takes rooms and tables away, every ``sweep_every`` seconds and once at start.  The sweep drops rooms nobody
has been connected to for ``evict_idle`` seconds, deletes tables whose human seats nobody joined within
``expire_unjoined`` seconds, and expires tables someone joined that nobody used for ``expire_idle`` seconds (their
moves deleted, their row kept as long again to tell their links so, then deleted).  It also marks the tables with
a socket on them as used, so that another server process on the same database never expires them, and rates the
rated matches a process finished without rating.  It deletes under the hall's loading lock, so a join never loads
a table being deleted; a room being dropped is closed first, so a join waiting for it starts again.  A room whose
table the operator deleted (``millebornes admin delete-table``) is closed at the next sweep.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from ..db.base import now
from ..logfields import about_table
from ..ratings.repo import Ratings
from ..settings import Settings
from .repo import Tables
from .room import Room
from .rows import EXPIRE_BATCH

log = logging.getLogger("millebornes.web")


class Sweeper:
    """The hall's sweep: its rooms (the hall's own dict), the tables' rows, and the hall's loading lock."""

    def __init__(self, rooms: dict[str, Room], repo: Tables, settings: Settings, loading: asyncio.Lock):
        self.rooms = rooms
        self.repo = repo
        self.settings = settings
        self.loading = loading
        """The hall's: it orders loading a room and deleting its table."""
        self._task: asyncio.Task | None = None

    async def at_start(self) -> None:
        """Before the hall loads any room: every table due to go goes, a batch at a time."""
        while len(await self.expire()) == EXPIRE_BATCH:
            pass
        while len(await self.expire_idle()) == EXPIRE_BATCH:
            pass
        while await asyncio.to_thread(self.repo.purge_expired, self._idle_before()) == EXPIRE_BATCH:
            pass

    def start(self) -> None:
        """The sweep, every ``sweep_every`` seconds from now on."""
        self._task = asyncio.create_task(self._sweep_forever())

    async def sweep(self) -> None:
        await self.touch()
        unjoined, idle = await self.expire(), await self.expire_idle()
        purged = await asyncio.to_thread(self.repo.purge_expired, self._idle_before())
        await self.rate_unrated()
        evicted = self.evict()
        deleted = await self.forget_deleted()
        if unjoined or idle or purged or evicted or deleted:
            log.info(
                "sweep: %d unjoined tables deleted, %d idle tables expired, %d expired tables deleted, "
                "%d idle rooms left memory, %d rooms of tables deleted by the operator closed; %d rooms in memory",
                len(unjoined),
                len(idle),
                purged,
                len(evicted),
                len(deleted),
                len(self.rooms),
            )

    async def rate_unrated(self) -> None:
        """Rate the rated matches of the last day that a process finished without rating (it died in between)."""
        ratings = Ratings(self.repo.db)
        for table_id in await asyncio.to_thread(ratings.unrated, now() - timedelta(days=1)):
            with about_table(table_id):
                try:
                    await asyncio.to_thread(ratings.rate, table_id, self.settings.limits)
                except Exception:
                    log.exception("table %s: the rated match could not be rated", table_id)

    async def touch(self) -> None:
        """Mark the tables with a socket on them as used now (Tables.touch), so that no process expires them: a
        table's row says when it was last joined, not how long a socket stays (nor whether one watches)."""
        used = [i for i, room in self.rooms.items() if room.in_use]
        if used:
            await asyncio.to_thread(self.repo.touch, used)

    def _idle_before(self) -> datetime:
        """Tables idle since before this expire; tables expired before this are deleted."""
        return now() - timedelta(seconds=self.settings.expire_idle)

    async def expire_idle(self) -> list[str]:
        """Expire the tables someone joined that nobody used for ``expire_idle`` seconds (Tables.expire_idle), at
        most EXPIRE_BATCH a call, leaving out those with a room in use here; returns their ids."""
        before = self._idle_before()
        return await self._drop(
            lambda: self.repo.idle(before), lambda room: room.in_use, lambda ids: self.repo.expire_idle(ids, before)
        )

    async def expire(self) -> list[str]:
        """Delete the tables created ``expire_unjoined`` seconds ago or more whose human seats nobody
        joined (at most EXPIRE_BATCH a call); returns their ids."""
        before = now() - timedelta(seconds=self.settings.expire_unjoined)
        return await self._drop(
            lambda: self.repo.unjoined(before),
            lambda room: room.in_use or any(s.joined for s in room.table.seats if s.kind == "human"),
            lambda ids: self.repo.delete_unjoined(ids, before),
        )

    async def _drop(
        self, found: Callable[[], list[str]], kept: Callable[[Room], bool], gone: Callable[[list[str]], list[str]]
    ) -> list[str]:
        """The tables ``found`` lists leave memory, but those whose room is ``kept``, then ``gone`` takes them
        out of the database (and says which it did); under the loading lock, so no join loads one meanwhile."""
        async with self.loading:
            doomed = []
            for table_id in await asyncio.to_thread(found):
                room = self.rooms.get(table_id)
                if room is not None:
                    if kept(room):
                        continue
                    del self.rooms[table_id]
                    room.close()
                doomed.append(table_id)
            return await asyncio.to_thread(gone, doomed) if doomed else []

    def evict(self) -> list[str]:
        """Drop the rooms nobody has used for ``evict_idle`` seconds; the next join loads them again."""
        at = time.monotonic()
        idle = [i for i, room in self.rooms.items() if room.idle_for(at) >= self.settings.evict_idle]
        for table_id in idle:
            self.rooms.pop(table_id).close()
        return idle

    async def forget_deleted(self) -> list[str]:
        """Close the rooms whose table is no longer in the database (``millebornes admin delete-table --force``, at
        any process): their bots and clocks stop, and a join finds no table."""
        async with self.loading:
            ids = list(self.rooms)
            kept = await asyncio.to_thread(self.repo.existing, ids) if ids else set()
            gone = [i for i in ids if i not in kept and i in self.rooms]
            for table_id in gone:
                self.rooms.pop(table_id).close()
            return gone

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of the hall failed; it runs again in %g s", self.settings.sweep_every)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
