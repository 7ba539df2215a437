"""Where the slow thinking happens: searching bots and hints, away from the event loop.

``hard`` and ``expert`` search for 30 ms to a second and a hint for up to a second and a half;
done on the event loop that would freeze every table.  They run in a small process pool started
on first use with the ``spawn`` method (forking a process that runs an event loop and threads
copies their locks in whatever state they are).  This module imports the engine only, so a worker
starts quickly.  ``easy`` and ``medium`` take well under a millisecond and stay inline.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..bots import LEVELS, analyse, make_bot

log = logging.getLogger("millebornes.web")

SEARCHING_LEVELS = ("hard", "expert")


def bot_seed(table_seed: int, n: int) -> int:
    """A bot's seed for action ``n``: fixed by the table, so a replayed table plays the same way."""
    digest = hashlib.sha256(f"millebornes-bot/{table_seed}/{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def choose(level: str, seed: int, observation: dict, legal: list[str]) -> str:
    """One bot decision from the seat's observation only (runs inline or in a worker)."""
    return make_bot(LEVELS[level], seed).choose(observation, legal)


def hint(game, seat: int, iterations: int, ms: float, seed: int) -> list[dict]:
    """Every legal action of the seat with its win chance, the search's choice first."""
    return [{"action": a["action"], "win_chance": a["win_chance"], "visits": a["visits"]}
            for a in analyse(game, seat, iterations=iterations, ms=ms, seed=seed)]


class Thinker:
    """Runs a function off the event loop: in a process pool, or in a thread when ``workers`` is 0."""

    def __init__(self, workers: int):
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, fn, *args):
        if self.workers <= 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            try:
                return await loop.run_in_executor(self._pool, functools.partial(fn, *args))
            except BrokenProcessPool:
                log.warning("a thinking process died; starting a new pool")
                self._pool = None
                if attempt == 2:
                    raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
