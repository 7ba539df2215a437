"""What other server processes did, heard from PostgreSQL: several processes serve one database.

A notice (:mod:`.notices`: its kinds and their words) is sent at the commit of what it tells.  Every
process keeps one connection of its own that ``LISTEN``s, and a room it holds adopts what changed from the database
(:meth:`..tables.following.Following.catch_up`, :meth:`..tables.following.Following.refresh_seats`): the database
is the one source of truth.
An action's notice carries its committed row, so a room that holds every action before it adopts it without
reading it back (:meth:`..tables.following.Following.adopt`); a room further behind reads what it lacks.
A notice lost while the connection was down is made up for at the reconnection: every room catches up.
SQLite has a single process (:mod:`.onefile`), so nothing listens there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

from .notices import CHANNEL, Notice, decode

log = logging.getLogger("millebornes.web")

LISTEN_TIMEOUT = 30.0
"""Seconds a starting server waits to listen before it gives up (and does not start)."""
RECONNECT = (0.5, 1.0, 2.0, 5.0)
"""Seconds before each new try after the connection is lost (the last repeats)."""


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg reads it (no ``+psycopg`` driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """Calls ``heard(notice)`` for every other process's notice (``origin`` names this one), and ``missed()``
    after each reconnection."""

    def __init__(
        self,
        url: str,
        heard: Callable[[Notice], None],
        missed: Callable[[], Awaitable[None]],
        origin: str,
    ):
        self.url = libpq_url(url)
        self.heard, self.missed, self.origin = heard, missed, origin
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        self.task = asyncio.create_task(self._listen_forever(), name="listener")

    async def _listen_forever(self) -> None:
        import psycopg

        tries = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if tries:
                        log.info("listening to the other server processes again")
                        await self.missed()
                    tries = 0
                    self.ready.set()
                    async for notice in conn.notifies():
                        try:
                            heard = decode(notice.payload)
                            if heard.origin != self.origin:
                                self.heard(heard)
                        except Exception:
                            log.exception("a notice could not be followed: %r", notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.ready.clear()
                wait = RECONNECT[min(tries, len(RECONNECT) - 1)]
                tries += 1
                log.warning(
                    "lost the other server processes' notices (%s: %s); again in %.1f s", type(exc).__name__, exc, wait
                )
                await asyncio.sleep(wait)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
