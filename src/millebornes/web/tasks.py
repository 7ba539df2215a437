"""The one keeper of background work: a task started and forgotten is still held (asyncio keeps only a weak
reference, so an unheld task may vanish mid-way) and its failure still reaches the log.

Every owner of background work (the hall, a room, the bots' gateway, a bot's session) holds a :class:`Tasks` and
hands it what it starts: ``self.tasks.keep(work, "what failed")``.  Closing the owner cancels what is left.
A table's work runs in its table's context (:func:`.logfields.at_table`): its records, its failure's included,
carry the table's id and no request's.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Coroutine
from typing import Any

from .logfields import at_table

log = logging.getLogger("millebornes.web")


class Tasks:
    """The background tasks of one owner, each held until it ends, a failure logged with what it was doing;
    ``table_id``: the table whose work they all are (a room's)."""

    def __init__(self, table_id: str | None = None) -> None:
        self.running: set[asyncio.Future[Any]] = set()
        self.table_id = table_id

    def keep(self, work: Coroutine[Any, Any, Any], failed: str, table_id: str | None = None) -> asyncio.Future[Any]:
        """Run ``work`` in the background; if it raises, log ``failed`` with the exception.  ``table_id``: the
        table the work is for, if not the owner's."""
        table_id = table_id or self.table_id
        context = contextvars.copy_context() if table_id is None else at_table(table_id)
        task = asyncio.get_running_loop().create_task(work, context=context)
        self.running.add(task)

        def done(task: asyncio.Future[Any]) -> None:
            self.running.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error(failed, exc_info=task.exception())

        task.add_done_callback(done, context=context)
        return task

    def cancel(self) -> None:
        """Stop what is left (the owner closes)."""
        for task in list(self.running):
            task.cancel()

    def __len__(self) -> int:
        return len(self.running)
