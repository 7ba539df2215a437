"""Every room of this process: the unfinished tables are loaded at start, finished ones on demand.

A room is built from its saved table (the record replayed), so loading one twice gives the same
room; the lock makes sure two sockets asking for the same table at once share one.
"""

from __future__ import annotations

import asyncio
import logging

from ..actions import IllegalAction
from .room import Room
from .settings import Settings
from .store import SavedTable, Store
from .thinking import Thinker

log = logging.getLogger("millebornes.web")


class Hall:
    """Every room of this process; loads the unfinished tables at start and finished ones on demand."""

    def __init__(self, store: Store, settings: Settings, thinker: Thinker):
        self.store = store
        self.settings = settings
        self.thinker = thinker
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def start(self) -> None:
        for saved in await asyncio.to_thread(self.store.load_unfinished):
            try:
                room = Room(saved, self.store, self.settings, self.thinker)
            except (ValueError, IllegalAction):
                log.exception("table %s cannot be replayed; it stays closed", saved.id)
                continue
            self.rooms[saved.id] = room
            room.schedule(room.last_events)
        log.info("%d unfinished tables resumed", len(self.rooms))

    async def room(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is None:
                saved = await asyncio.to_thread(self.store.get, table_id, True)
                if saved is None:
                    return None
                try:
                    room = Room(saved, self.store, self.settings, self.thinker)
                except (ValueError, IllegalAction):
                    log.exception("table %s cannot be replayed", table_id)
                    return None
                self.rooms[table_id] = room
                room.schedule(room.last_events)
            return room

    def add(self, saved: SavedTable) -> Room:
        room = Room(saved, self.store, self.settings, self.thinker)
        self.rooms[saved.id] = room
        return room

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
