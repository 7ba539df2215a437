"""The game review of a finished table, worked out in the thinking pool and kept in the database.

A review judges every decision of every seat (a finished replay shows every hand, so it tells nothing new):
:func:`millebornes.review.decisions` lists them, the reviews' pool judges them a few at a time
(:func:`millebornes.review._judge_many`, behind the bots and the hints) while the reviewer counts them for
the page's progress bar, and :func:`millebornes.review.assemble` builds the review, saved once done.

One review at a time per table (a second request joins the running one), at most ``reviews_at_once`` on the
server (one more is :class:`Busy`), and only for a finished match (a live one is :class:`NotFinished`).  The
state a page polls lives in memory while a review runs, then in the database.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from .. import review as R
from .store import FINISHED, Store
from .thinking import Thinker

log = logging.getLogger("millebornes.web")

BATCH = 4
"""Decisions judged in one go by a worker: a fraction of a second each at the default budget."""
AHEAD = 2
"""Batches asked of the pool per worker at once: enough to keep it busy, few enough that two reviews share it."""
RETRY_AFTER = 30
"""Seconds a refused review is told to wait (about what a short match's review takes on two cores)."""
SEED = 0
"""The review's own seed (docs/review.md): nothing of the table's deal."""


class NoTable(Exception):
    pass


class NotFinished(Exception):
    """The match is still waiting or being played: it is not reviewed, and nothing was started."""


class Busy(Exception):
    """The server works out as many reviews as it takes at once; nothing was started."""


@dataclass
class Job:
    table_id: str
    total: int
    done: int = 0
    task: asyncio.Task | None = field(default=None, repr=False)

    def state(self) -> dict:
        return {"state": "running", "done": self.done, "total": self.total}


def done_state(review: dict) -> dict:
    n = len(review["moves"])
    return {"state": "done", "done": n, "total": n, "review": review}


class Reviewer:
    """Starts, runs and reports the reviews of one server process."""

    def __init__(self, store: Store, thinker: Thinker, worlds: int, at_once: int):
        self.store, self.thinker = store, thinker
        self.worlds, self.at_once = worlds, at_once
        self.ahead = AHEAD * max(1, thinker.review_slots)
        self.jobs: dict[str, Job] = {}
        self.failed: set[str] = set()
        self._starting = asyncio.Lock()

    async def _known(self, table_id: str) -> dict | None:
        """The state of a review running or done, else None."""
        job = self.jobs.get(table_id)
        if job is not None:
            return job.state()
        saved = await asyncio.to_thread(self.store.get_review, table_id)
        return None if saved is None else done_state(saved)

    async def state(self, table_id: str) -> dict:
        """What ``GET /api/tables/{id}/review`` answers; raises NoTable."""
        known = await self._known(table_id)
        if known is not None:
            return known
        if await asyncio.to_thread(self.store.watch_facts, table_id) is None:
            raise NoTable(table_id)
        return {"state": "failed" if table_id in self.failed else "none", "done": 0, "total": 0}

    async def start(self, table_id: str) -> dict:
        """Start the table's review, or join the one running, or give the one done; raises NoTable,
        NotFinished or Busy (and starts nothing).  Starts go one at a time, so a check and the start it
        allows are never split by another request's."""
        async with self._starting:
            known = await self._known(table_id)
            if known is not None:
                return known
            table = await asyncio.to_thread(self.store.get, table_id, True)
            if table is None:
                raise NoTable(table_id)
            if table.status != FINISHED:
                raise NotFinished(f"table {table_id} is not finished: a game is reviewed once it is over")
            if len(self.jobs) >= self.at_once:
                raise Busy(f"the server is reviewing as many games as it takes at once ({self.at_once}): "
                           f"ask again in {RETRY_AFTER} s")
            record = table.record()
            todo, forced = await asyncio.to_thread(R.decisions, record)
            job = self.jobs[table_id] = Job(table_id, len(todo))
            self.failed.discard(table_id)
            job.task = asyncio.create_task(self._run(job, record, todo, forced), name=f"review-{table_id}")
            return job.state()

    async def _run(self, job: Job, record: dict, todo: list, forced: dict) -> None:
        try:
            judged = await self._judge(job, todo)
            review = await asyncio.to_thread(R.assemble, record, todo, forced, judged, self.worlds, SEED)
            await asyncio.to_thread(self.store.save_review, job.table_id, review)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the review failed", job.table_id)
            self.failed.add(job.table_id)
        finally:
            self.jobs.pop(job.table_id, None)

    async def _judge(self, job: Job, todo: list) -> dict:
        """Every decision judged in the reviews' pool, ``self.ahead`` batches asked at a time."""
        judged: dict = {}
        room = asyncio.Semaphore(self.ahead)

        async def one(batch: list) -> None:
            async with room:
                part = await self.thinker.review(R._judge_many, batch, self.worlds, SEED)
            judged.update(part)
            job.done += len(part)

        async with asyncio.TaskGroup() as group:  # one batch failing stops the others
            for i in range(0, len(todo), BATCH):
                group.create_task(one(todo[i:i + BATCH]))
        return judged

    def close(self) -> None:
        """Stop the reviews under way (the server is stopping); nothing half done is saved."""
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
