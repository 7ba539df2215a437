"""Every room of this process: loading and holding them, and hearing what the other server processes did.

A room is built from its saved table (the record replayed), so loading one twice gives the same room, and a
room may leave memory and come back exactly as it was.  At start only the unfinished tables used in the last
``evict_idle`` seconds are loaded (those a running server would still hold, so that their bots, windows and
clocks go on as after any restart); any other table is loaded when a socket asks for it, and what it was
waiting for (a bot's move, a coup-fourré window, a clock) goes on from then, as after an eviction.  What keeps
the number of rooms and tables bounded is the hall's :class:`.sweeper.Sweeper`.  One lock orders loading and
deleting, so a join never loads a table being deleted; a room being dropped is closed first, so a join waiting
for it starts again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import timedelta

from ...actions import IllegalAction
from ..db.base import now
from ..db.listener import LISTEN_TIMEOUT, Listener
from ..db.notices import (
    NO_TABLE,
    WITHDRAWN_NOTICE,
    Kind,
    Notice,
    action_row,
    challenge_of,
    presence_of,
    said_of,
    undo_of,
)
from ..errors import Gone, Refused, expired
from ..logfields import about_table
from ..settings import Settings
from ..tasks import Tasks
from ..thinking import Thinker
from ..tokens import token_opens
from .creation import MAX_SEATS
from .presence import Connection
from .repo import Tables
from .room import Room
from .rows import EXPIRED, FINISHED, SavedTable
from .sweeper import Sweeper

log = logging.getLogger("millebornes.web")

HEARTBEAT = 5.0
"""Seconds between a process's notices that it is alive (with several processes on PostgreSQL)."""
SILENT = 3
"""Heartbeats missed before a process is taken for gone."""


class Hall:
    """Every room of this process; see the module docstring."""

    def __init__(self, repo: Tables, settings: Settings, thinker: Thinker):
        self.repo = repo
        self.settings = settings
        self.thinker = thinker
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.sweeper = Sweeper(self.rooms, repo, settings, self._loading)
        """What takes rooms and tables away (:mod:`.sweeper`)."""
        self.listener: Listener | None = None
        """PostgreSQL's notices of the other server processes' actions (none with SQLite)."""
        self.tasks = Tasks()
        """Following other server processes: a room's catching up, adopting, reloading."""
        self.alive: dict[str, float] = {}
        """When each other server process was last heard of (``time.monotonic``): a silent one is gone."""
        self._beating: asyncio.Task | None = None
        self.challenged: Callable[[str, int, str], None] = lambda table_id, seat, account_id: None
        """Told (table, seat, bot account) of a challenge another process made to a bot that may be connected
        here: the bots' gateway's (web/botaccounts/gateway.py), handed over by :meth:`start`."""

    async def start(self, challenged: Callable[[str, int, str], None] | None = None) -> None:
        """Load what a running server would hold and start the sweep; ``challenged`` hears the notices of challenges
        to a bot (the app's lifespan hands the bots' gateway over: the hall holds tables, not bots)."""
        if challenged is not None:
            self.challenged = challenged
        if self.repo.notifies:  # listening before the load: an action committed meanwhile is not missed
            self.listener = Listener(self.repo.db.url, self.heard, self.missed, self.repo.origin)
            self.listener.start()
            await asyncio.wait_for(self.listener.ready.wait(), LISTEN_TIMEOUT)
            self._beating = asyncio.create_task(self._beat_forever())
        await self.sweeper.at_start()
        since = now() - timedelta(seconds=self.settings.evict_idle)
        for saved in await asyncio.to_thread(self.repo.load_used_since, since):
            self._open(saved)
        log.info(
            "%d unfinished tables used in the last %g s resumed; the others load when asked for",
            len(self.rooms),
            self.settings.evict_idle,
        )
        self.sweeper.start()

    async def room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                saved = await asyncio.to_thread(self.repo.get, table_id, True)
                if saved is not None and saved.status == EXPIRED:
                    raise expired(self.settings)
                room = None if saved is None else self._open(saved)
                if room is not None and self.listener is not None:
                    # what another process wrote between the read and now: its notices found no room here
                    self._later(room.catch_up(), table_id)
                    self._later(room.refresh_seats(), table_id)
                    self._later(asyncio.to_thread(self.repo.notify, table_id, Kind.WHO), table_id)
            return room

    def heard(self, notice: Notice) -> None:
        """What another server process did at a table this one holds (web/db/listener.py)."""
        kind, args = notice.kind, notice.args
        self.alive[notice.origin] = time.monotonic()
        if kind == Kind.ALIVE:
            return
        if kind == Kind.CHALLENGE:  # about a bot, wherever the table is held
            self.challenged(notice.table_id, *challenge_of(args))
            return
        room = self.rooms.get(notice.table_id)
        if room is None:
            return
        with about_table(room.id):
            self._follow(room, notice)

    def _follow(self, room: Room, notice: Notice) -> None:
        """What ``room`` does with a notice of its table."""
        kind, args = notice.kind, notice.args
        if kind == Kind.ACTION:
            self._later(room.adopt(*action_row(args)), room.id)
        elif kind == Kind.SEATS:
            self._later(room.refresh_seats(), room.id)
        elif kind == Kind.UNDO:
            self._later(room.reload(*undo_of(args)), room.id)
        elif kind == Kind.PRESENCE:
            room.remote_presence(notice.origin, *presence_of(args))
        elif kind == Kind.WHO:
            room.announce()
        elif kind == Kind.SAID:
            room.hear(*said_of(args))
        elif kind == Kind.REMATCH:
            self._later(room.rematch_moved(), room.id)
        elif kind == Kind.FORFEIT:
            self._later(room.forfeit_heard(), room.id)
        elif kind == Kind.EXPIRED and args[:1] == [WITHDRAWN_NOTICE]:  # a bot's seek, at another process
            self.rooms.pop(notice.table_id).cancel()
        elif kind == Kind.EXPIRED and not room.in_use:  # expired by another process's sweep
            self.rooms.pop(notice.table_id).close()

    async def missed(self) -> None:
        """The notices were lost for a while: every room looks for what it missed."""
        for room in list(self.rooms.values()):
            self._later(room.recover(), room.id)
            self._later(room.refresh_seats(), room.id)

    async def _beat_forever(self) -> None:
        """Tell the other processes this one is alive, and forget the seats of those gone silent (killed)."""
        while True:
            try:
                await asyncio.to_thread(self.repo.notify, NO_TABLE, Kind.ALIVE)
            except Exception:
                log.warning("could not tell the other server processes this one is alive")
            at = time.monotonic()
            for origin in [o for o, t in self.alive.items() if at - t > HEARTBEAT * SILENT]:
                del self.alive[origin]
                log.warning("server process %s went silent: its players are counted away", origin)
                for room in list(self.rooms.values()):
                    room.process_gone(origin)
            await asyncio.sleep(HEARTBEAT)

    def _later(self, work, table_id: str) -> None:
        self.tasks.keep(work, f"table {table_id}: it could not follow another server process", table_id)

    def _open(self, saved: SavedTable) -> Room | None:
        """The table's room, replayed from its record and going on where it was; None (and a log line)
        for a record the engine cannot replay, which stays closed."""
        try:
            room = Room(saved, self.repo, self.settings, self.thinker)
        except (ValueError, IllegalAction):
            log.exception("table %s cannot be replayed; it stays closed", saved.id, extra={"table_id": saved.id})
            return None
        self.rooms[saved.id] = room
        room.schedule(room.last_events)
        return room

    async def leave_rated(self, account_ids: list[str], why: str) -> list[str]:
        """These accounts leave every rated match they play (``why``: web/tables/forfeits.py's ``WHYS``), before
        they or their token go: each match is forfeited, or its rating aborted before both sides played, in its
        room, loaded here if no room holds it.  The tables forfeited."""
        held: dict[str, set[int]] = {}
        for table_id, seat in await asyncio.to_thread(self.repo.rated_playing, account_ids):
            held.setdefault(table_id, set()).add(seat)
        lost = []
        for table_id, seats in held.items():
            try:
                room = await self.room(table_id)
            except Refused:  # expired meanwhile
                continue
            if room is not None and await room.forfeit(seats, why):
                lost.append(table_id)
        return lost

    async def authenticate(self, table_id: str, seat: int, token: str) -> bool:
        """Whether the token opens that human seat: asked of the room when it is in memory, else of
        the stored hash alone, so a wrong link never loads a table."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.authenticate(seat, token)
        if not 0 <= seat < MAX_SEATS:
            return False
        facts = await asyncio.to_thread(self.repo.join_facts, table_id, seat)
        if facts is not None and facts[0] == EXPIRED:  # whoever has its id may learn it (GET /api/tables says so)
            raise expired(self.settings)
        return facts is not None and token_opens(facts[1], token)

    async def holds(self, table_id: str, seat: int, account_id: str) -> bool:
        """Whether the account holds that human seat, as the database says (one small query: a seat held by
        nobody never loads a table)."""
        if not 0 <= seat < MAX_SEATS:
            return False
        facts = await asyncio.to_thread(self.repo.holder, table_id, seat)
        if facts is not None and facts[0] == EXPIRED:
            raise expired(self.settings)
        return facts is not None and facts[1] == account_id

    async def join(
        self,
        conn: Connection,
        table_id: str,
        seat: int,
        nickname: str | None,
        token: str | None = None,
        account: str | None = None,
    ) -> Room | None:
        """Seat an authenticated connection in the table's room, loading it if it is not in memory;
        None when the table is gone (expired).  Refused passes through."""
        while True:
            room = await self.room(table_id)
            if room is None:
                return None
            try:
                await room.join(conn, seat, nickname, token, account)
                return room
            except Gone:
                continue
            except Refused as r:
                if r.code == "expired" and self.rooms.get(table_id) is room and not room.in_use:
                    del self.rooms[table_id]  # expired by another process meanwhile
                    room.close()
                raise

    async def claim(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a free seat of an open public table the hash of a new token (Tables.claim); False when it is
        not free.  Under the loading lock, so the room cannot be loaded with the old hash meanwhile, and
        under the room's lock when it is in memory, so a join with the old link cannot slip in between."""
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                return await asyncio.to_thread(self.repo.claim, table_id, seat, token_hash)
            return await room.claim(seat, token_hash)

    async def watch(self, conn: Connection, table_id: str) -> Room | None:
        """Let a connection watch the table, loading it if it is not in memory; None when there is no
        such table.  A table out of memory that forbids spectators, or whose match is over (its replay
        shows it), is refused from its row alone, and an unknown id costs one small query: a watch never
        loads a table it cannot watch, and never brings a finished match back into memory."""
        while True:
            if table_id not in self.rooms:
                facts = await asyncio.to_thread(self.repo.watch_facts, table_id)
                if facts is None:
                    return None
                if not facts[0]:
                    raise Refused("no-spectators", "this table does not allow spectators")
                if facts[1] == FINISHED:
                    raise Refused("finished", "this match is over: its replay shows it")
                if facts[1] == EXPIRED:
                    raise expired(self.settings)
            room = await self.room(table_id)
            if room is None:
                return None
            try:
                await room.watch(conn)
                return room
            except Gone:
                continue

    def add(self, saved: SavedTable) -> Room:
        room = Room(saved, self.repo, self.settings, self.thinker)
        self.rooms[saved.id] = room
        return room

    def close(self) -> None:
        self.sweeper.close()
        if self.listener is not None:
            self.listener.close()
        if self._beating is not None:
            self._beating.cancel()
        for room in self.rooms.values():
            room.close()
