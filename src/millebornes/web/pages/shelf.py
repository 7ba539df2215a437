"""Which builds of the pages' files this process answers for: its own, from memory, and the others recorded in
the database (:mod:`.repo`), read when first asked for and kept whole.

A build nobody recorded costs nothing but a look at the list of recorded ids, and that list is read again at most
once every :data:`REFRESH` seconds: a client asking for made-up builds does not reach the database more often.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from .assets import Asset, Build
from .repo import KEEP, Builds

log = logging.getLogger("millebornes.web")

REFRESH = 1.0
"""Seconds before the list of recorded builds is read again for a build it does not name."""
OTHERS = KEEP - 1
"""Other builds held in memory at once (some 450 KB each): every other one recorded, so that a client asking for
them in turn does not make each request read one back from the database."""


class Shelf:
    """This process's build and, through ``builds`` (None: its own only), the others recorded."""

    def __init__(self, own: Build, builds: Builds | None = None):
        self.own = own
        self.builds = builds
        self.others: OrderedDict[str, Build] = OrderedDict()
        self.recorded: set[str] = set()
        self.read_at = -REFRESH
        self._reading = asyncio.Lock()

    async def find(self, build_id: str, path: str) -> Asset | None:
        """The file at ``path`` in build ``build_id``, or None if no build this process can have holds it."""
        if build_id == self.own.id:
            return self.own.files.get(path)
        build = await self._other(build_id)
        return None if build is None else build.files.get(path)

    async def _other(self, build_id: str) -> Build | None:
        if build_id in self.others:
            self.others.move_to_end(build_id)
            return self.others[build_id]
        if self.builds is None:
            return None
        async with self._reading:  # the requests of one page wait for one read
            if build_id in self.others:
                return self.others[build_id]
            try:
                if build_id not in self.recorded and time.monotonic() - self.read_at >= REFRESH:
                    self.read_at = time.monotonic()
                    self.recorded = await asyncio.to_thread(self.builds.ids)
                if build_id not in self.recorded:
                    return None
                build = await asyncio.to_thread(self.builds.load, build_id)
            except Exception:
                log.warning("the recorded build %s could not be read", build_id, exc_info=True)
                return None
            if build is None:  # let go of meanwhile, or damaged: looked for again after the next read of the list
                self.recorded.discard(build_id)
            else:
                self.others[build_id] = build
                while len(self.others) > OTHERS:
                    self.others.popitem(last=False)
            return build
