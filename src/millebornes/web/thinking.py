"""Where the slow thinking happens: searching bots, hints and game reviews, away from the event loop.

``hard`` and ``expert`` search for 30 ms to a second and a hint for up to a second and a half;
done on the event loop that would freeze every table.  They run in process pools started on
first use with the ``spawn`` method (forking a process that runs an event loop and threads
copies their locks in whatever state they are).  This module imports the engine only, so a worker
starts quickly.  ``easy`` and ``medium`` take well under a millisecond and stay inline.

Bots come first.  They have a pool of their own, so a bot's move never waits behind a hint, and
the hint workers run at the lowest scheduling priority, so when the cores are busy a bot's search
(and the server itself) gets the CPU first.  Hints are refused (:class:`HintsBusy`) rather than queued
without bound.  Game reviews (web/reviews/service.py) come last: a pool of their own whose workers run at
nice 19 under Linux's idle scheduling class, which gets the CPU only when nothing else, hints included,
wants it; the reviewer limits how many run at once.  Every worker exits when the server is gone, even killed with
SIGKILL: an orphan
would keep its memory and its share of the CPU for nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..bots import analyse, make_bot
from ..observation import Observation
from ..reasons import reason
from .errors import HintsBusy
from .settings import Limits

log = logging.getLogger("millebornes.web")

HINT_NICENESS = 19
"""How much lower than the server a hint worker runs (``os.nice``): on Linux a nice-19 process gets
about 1.5% of a core that a nice-0 process wants."""
REVIEW_NICENESS = 19
"""Review workers run this low, and in the SCHED_IDLE class where the system has it (behind the hints too)."""
THREADS = 2
"""Threads per pool when ``workers`` is 0 (the in-process tests)."""


def bot_seed(table_seed: int, n: int) -> int:
    """A bot's seed for action ``n``: fixed by the table, so a replayed table plays the same way."""
    digest = hashlib.sha256(f"millebornes-bot/{table_seed}/{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def choose(level: str, seed: int, observation: Observation, legal: list[str]) -> str:
    """One bot decision from the seat's observation only (runs inline or in a worker); ``level`` is a
    level of LEVELS or a bot's name (a coup fourré's quick answer uses ``neural``)."""
    return make_bot(level, seed).choose(observation, legal)


def hint(observation: Observation, iterations: int, ms: float, seed: int) -> list[dict]:
    """Every legal action of the seat with its chance to win the hand (and the match, where one is played), the
    search's choice first with its ``reason`` (:func:`hint_reason`); thought out from the observation the seat's
    frame showed, never from the game (whose observation still knows a safety a coup-fourré window showed the
    engine alone)."""
    actions = [
        {"action": a["action"], "win_chance": a["win_chance"], "match_chance": a["match_chance"], "visits": a["visits"]}
        for a in analyse(observation, iterations=iterations, ms=ms, seed=seed)
    ]
    if actions:
        actions[0]["reason"] = hint_reason(observation, actions)
    return actions


def hint_reason(observation: Observation, actions: list[dict]) -> dict:
    """Why the search's choice (``actions[0]``) beats the next best of the others (by the match's chance where
    there is one, else the hand's), with the search's chances of both as the figure."""
    first, rest = actions[0], [a for a in actions[1:] if a["win_chance"] is not None]
    by = "match_chance" if first["match_chance"] is not None else "win_chance"
    second = max(rest, key=lambda a: (a[by] or 0.0, a["win_chance"])) if rest else None
    figures = {"best_chance": first["win_chance"], "best_match_chance": first["match_chance"]}
    if second is not None:
        figures |= {"chance": second["win_chance"], "match_chance": second["match_chance"]}
    return reason(observation, first["action"], second["action"] if second else None, figures)


def start_worker(niceness: int, idle: bool = False) -> None:
    """A worker's first step: step aside for the bots (hint and review workers), and for everything else
    (``idle``: review workers), and go when the server goes."""
    if niceness:
        os.nice(niceness)
    if idle and hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # not allowed here: nice 19 alone
            pass
    server = multiprocessing.parent_process()
    if server is not None:
        threading.Thread(target=exit_with, args=(server,), name="exit-with-server", daemon=True).start()


def exit_with(server: multiprocessing.process.BaseProcess) -> None:
    """Wait for the server's end, then end this worker, in the middle of a search if need be.

    A spawned process holds the read end of a pipe whose write end only its parent holds, and which
    the kernel closes however the parent dies; waiting on it costs nothing until then."""
    server.join()
    os._exit(0)


class Thinker:
    """Runs thinking off the event loop: bots, hints and reviews in process pools of their own (``workers``,
    ``hint_workers`` and ``review_workers`` processes), or in threads when ``workers`` is 0."""

    def __init__(
        self,
        workers: int,
        hint_workers: int | None = None,
        hint_backlog: int = Limits.hint_backlog,
        review_workers: int | None = None,
    ):
        self.workers = workers
        self.hint_workers = workers if hint_workers is None else hint_workers
        self.review_workers = self.hint_workers if review_workers is None else review_workers
        self.hint_backlog = hint_backlog
        self._pools: dict[str, Executor] = {}
        self._hints: set[Future] = set()

    @property
    def review_slots(self) -> int:
        """How many review batches the reviews' pool works on at once."""
        return self.review_workers if self.workers > 0 else THREADS

    def _pool(self, kind: str) -> Executor:
        pool = self._pools.get(kind)
        if pool is None:
            if self.workers <= 0:
                pool = ThreadPoolExecutor(THREADS, thread_name_prefix=f"think-{kind}")
            else:
                size, niceness, idle = {
                    "bots": (self.workers, 0, False),
                    "hints": (self.hint_workers, HINT_NICENESS, False),
                    "reviews": (self.review_workers, REVIEW_NICENESS, True),
                }[kind]
                pool = ProcessPoolExecutor(
                    size,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_worker,
                    initargs=(niceness, idle),
                )
            self._pools[kind] = pool
        return pool

    def _forget(self, kind: str, pool: Executor) -> None:
        if self._pools.get(kind) is pool:
            log.warning("a thinking process died; starting a new %s pool", kind)
            del self._pools[kind]

    def _submit(self, kind: str, fn, *args) -> tuple[Executor, Future]:
        """Hand the work to the pool of its kind, in a new pool if that one lost a worker."""
        from . import metrics  # here, not at the top: a worker imports this module and never counts

        for attempt in (1, 2):
            pool = self._pool(kind)
            try:
                future = pool.submit(fn, *args)
                metrics.thinking(kind, future)
                return pool, future
            except BrokenProcessPool:
                self._forget(kind, pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _retried(self, kind: str, fn, *args):
        """Work in the pool of ``kind``; tried once more in a new pool if a worker died on it."""
        for attempt in (1, 2):
            pool, future = self._submit(kind, fn, *args)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._forget(kind, pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def bot(self, fn, *args):
        """A bot's decision in the bots' pool."""
        return await self._retried("bots", fn, *args)

    async def review(self, fn, *args):
        """Part of a game review in the reviews' pool, behind the bots and the hints (the reviewer decides
        how much is asked at once)."""
        return await self._retried("reviews", fn, *args)

    def hint(self, fn, *args) -> asyncio.Future:
        """Start a hint in the hints' pool at once, or raise HintsBusy and start nothing when ``hint_backlog``
        hints are already waiting or being worked out.  A hint counts until its worker is done with it,
        even if nobody waits for it any more, so hints asked and dropped cannot pile up unseen."""
        self._hints = {f for f in self._hints if not f.done()}
        if len(self._hints) >= self.hint_backlog:
            raise HintsBusy(
                f"the server is working out as many hints as it takes ({len(self._hints)}): ask again in a few seconds"
            )
        _, future = self._submit("hints", fn, *args)
        self._hints.add(future)
        return asyncio.wrap_future(future)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
        self._pools.clear()
