"""The one keeper of background work: a task started and forgotten is still held (asyncio keeps only a weak
reference, so an unheld task may vanish mid-way) and its failure still reaches the log.

Every owner of background work (the hall, a room, the bots' gateway, a bot's session) holds a :class:`Tasks` and
hands it what it starts: ``self.tasks.keep(work, "what failed")``.  Closing the owner cancels what is left.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger("millebornes.web")


class Tasks:
    """The background tasks of one owner, each held until it ends, a failure logged with what it was doing."""

    def __init__(self) -> None:
        self.running: set[asyncio.Future[Any]] = set()

    def keep(self, work: Awaitable[Any], failed: str) -> asyncio.Future[Any]:
        """Run ``work`` in the background; if it raises, log ``failed`` with the exception."""
        task = asyncio.ensure_future(work)
        self.running.add(task)

        def done(task: asyncio.Future[Any]) -> None:
            self.running.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error(failed, exc_info=task.exception())

        task.add_done_callback(done)
        return task

    def cancel(self) -> None:
        """Stop what is left (the owner closes)."""
        for task in list(self.running):
            task.cancel()

    def __len__(self) -> int:
        return len(self.running)
