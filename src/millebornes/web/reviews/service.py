"""The game review of a finished table, worked out in the thinking pool and kept in the database.

A review judges every decision of every seat (a finished replay shows every hand, so it tells nothing new),
each from what that seat's frames showed at the table (:func:`decisions`: the engine's observation, less the
safeties its coup-fourré questions showed it alone, as :class:`~..tables.view.Asked` takes them out of the frames), so
that a move is not judged by a card its player could not know of; the reviews' pool judges them a few at a time
(:func:`millebornes.review._judge_many`, behind the bots and the hints) while the reviewer counts them for
the page's progress bar, and :func:`millebornes.review.assemble` builds the review, saved once done.

One review at a time per table, whichever server process is asked (a second request joins the running one), at
most ``reviews_at_once`` on each process (one more: :class:`ReviewsBusy`), and only for a finished match (a live one is
:class:`NotFinished`).  The process working a review out holds its claim in the database (``review_jobs``) and
writes its progress there every :data:`BEAT` seconds, so a page polling another process follows it; a claim
silent for :data:`SILENT` seconds is a dead process's and is taken over.  The review itself is saved in the
database once done, and its inaccuracies and worse join the puzzles that grow from real games (:mod:`.puzzle_repo`;
not the guided match's, whose deck is stacked).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from ... import puzzles as P
from ... import review as R
from ...notation import replay
from ...observation import Observation
from ...tutorial import TUTOR_LEVEL
from .. import metrics
from ..errors import NoTable, NotFinished, ReviewsBusy
from ..logfields import at_table
from ..tables.repo import Tables
from ..tables.rows import FINISHED
from ..tables.view import Asked
from ..thinking import Thinker
from .puzzle_repo import Grown
from .repo import Reviews

log = logging.getLogger("millebornes.web")

BATCH = 4
"""Decisions judged in one go by a worker: a fraction of a second each at the default budget."""
AHEAD = 2
"""Batches asked of the pool per worker at once: enough to keep it busy, few enough that two reviews share it."""
RETRY_AFTER = 30
"""Seconds a refused review is told to wait (about what a short match's review takes on two cores)."""
SEED = 0
"""The review's own seed (docs/review.md): nothing of the table's deal."""
BEAT = 1.0
"""Seconds between two writes of a running review's progress to its claim."""
SILENT = 15.0
"""Seconds after which a claim not written is a dead process's (the servers' clocks agree within a second or so)."""


def decisions(record: dict) -> tuple[list[tuple[Observation, int, str]], dict[int, int]]:
    """:func:`millebornes.review.decisions` of every seat, each observation's ``known_cards`` as the seat's
    frame showed them at the table."""
    todo, forced = R.decisions(record)
    wanted = {index: obs for obs, index, _ in todo}
    game = replay(record, 0)
    asked = Asked(game.players)
    for index, action in enumerate(record["actions"]):
        if index in wanted:
            seat = wanted[index]["seat"]
            wanted[index]["known_cards"] = [k if s != seat else [] for s, k in enumerate(asked.known_cards(game))]
        known = [game.known_cards(s) for s in range(game.players)]
        game.act(action)
        asked.note(game, known)
    return todo, forced


@dataclass
class Job:
    table_id: str
    total: int
    done: int = 0
    task: asyncio.Task | None = field(default=None, repr=False)
    saving: bool = False

    def state(self) -> dict:
        return {"state": "running", "done": self.done, "total": self.total}


def done_state(review: dict) -> dict:
    n = len(review["moves"])
    return {"state": "done", "done": n, "total": n, "review": review}


class Reviewer:
    """Starts, runs and reports the reviews of one server process."""

    def __init__(
        self, tables: Tables, reviews: Reviews, thinker: Thinker, worlds: int, at_once: int, grown: Grown | None = None
    ):
        self.tables, self.reviews, self.thinker, self.grown = tables, reviews, thinker, grown
        self.worlds, self.at_once = worlds, at_once
        self.ahead = AHEAD * max(1, thinker.review_slots)
        self.jobs: dict[str, Job] = {}
        self._starting = asyncio.Lock()

    async def _known(self, table_id: str) -> dict | None:
        """The state of a review running here or done, else None."""
        job = self.jobs.get(table_id)
        if job is not None and not job.saving:
            return job.state()
        # a review being saved is done once the database has it, for this process as for any other
        saved = await asyncio.to_thread(self.reviews.get, table_id)
        if saved is not None:
            return done_state(saved)
        return None if job is None else job.state()

    async def _elsewhere(self, table_id: str) -> dict | None:
        """The state of a review another process works out, or one that failed, else None."""
        claim = await asyncio.to_thread(self.reviews.job, table_id)
        if claim is None:
            return None
        if self.reviews.alive(claim, SILENT):
            return {"state": "running", "done": claim.done, "total": claim.total}
        return {"state": "failed", "done": 0, "total": 0} if claim.failed else None

    async def state(self, table_id: str) -> dict:
        """What ``GET /api/tables/{id}/review`` answers; raises NoTable."""
        known = await self._known(table_id) or await self._elsewhere(table_id)
        if known is not None:
            return known
        if await asyncio.to_thread(self.tables.watch_facts, table_id) is None:
            raise NoTable(table_id)
        return {"state": "none", "done": 0, "total": 0}

    async def start(self, table_id: str) -> dict:
        """Start the table's review, or join the one running, or give the one done; raises NoTable,
        NotFinished or ReviewsBusy (and starts nothing).  Starts go one at a time, so a check and the start it
        allows are never split by another request's."""
        async with self._starting:
            known = await self._known(table_id)
            if known is not None:
                return known
            table = await asyncio.to_thread(self.tables.get, table_id, True)
            if table is None:
                raise NoTable(table_id)
            if table.status != FINISHED:
                raise NotFinished(f"table {table_id} is not finished: a game is reviewed once it is over")
            running = await self._elsewhere(table_id)
            if running is not None and running["state"] == "running":
                return running
            if len(self.jobs) >= self.at_once:
                raise ReviewsBusy(
                    f"the server is reviewing as many games as it takes at once ({self.at_once}): "
                    f"ask again in {RETRY_AFTER} s"
                )
            record = table.record()
            todo, forced = await asyncio.to_thread(decisions, record)
            other = await asyncio.to_thread(self.reviews.claim, table_id, len(todo), SILENT)
            if other is not None:  # another process claimed it meanwhile
                return {"state": "running", "done": other.done, "total": other.total}
            job = self.jobs[table_id] = Job(table_id, len(todo))
            # the guided match's deck is stacked for its lessons: its positions teach nothing of a real game
            grows = None if any(s.level == TUTOR_LEVEL for s in table.seats) else table.public
            job.task = asyncio.create_task(
                self._run(job, record, todo, forced, grows), name=f"review-{table_id}", context=at_table(table_id)
            )
            metrics.reviewed("started")
            return job.state()

    async def _run(self, job: Job, record: dict, todo: list, forced: dict, grows: bool | None = None) -> None:
        """``grows``: whether the table is public (its puzzles join the public set), None to keep none."""
        beating = asyncio.create_task(self._beat(job), name=f"review-beat-{job.table_id}")
        try:
            judged = await self._judge(job, todo)
            review = await asyncio.to_thread(R.assemble, record, todo, forced, judged, self.worlds, SEED)
            beating.cancel()
            job.saving = True
            await asyncio.to_thread(self.reviews.save, job.table_id, review)
            metrics.reviewed("done")
            if grows is not None:
                await self._grow(job.table_id, grows, record, review, todo)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the review failed", job.table_id)
            metrics.reviewed("failed")
            await asyncio.to_thread(self.reviews.fail, job.table_id)
        finally:
            beating.cancel()
            self.jobs.pop(job.table_id, None)

    async def _grow(self, table_id: str, public: bool, record: dict, review: dict, todo: list) -> None:
        """Keep the review's puzzles, each position as the seat's frames showed it; a failure here loses
        puzzles, never the review saved."""
        if self.grown is None:
            return
        seen = {index: obs for obs, index, _ in todo}
        try:
            made = P.from_review(record, review, None, seen)
            await asyncio.to_thread(self.grown.add, table_id, public, made)
        except Exception:
            log.warning("table %s: its puzzles could not be kept", table_id, exc_info=True)

    async def _beat(self, job: Job) -> None:
        """Write the job's progress to its claim every BEAT seconds; a claim taken over (this process was
        thought dead) stops the job, the other process's review stands."""
        while True:
            await asyncio.sleep(BEAT)
            try:
                held = await asyncio.to_thread(self.reviews.beat, job.table_id, job.done)
            except Exception:  # the database away a moment: the next beat tries again
                log.warning("table %s: the review's progress could not be written", job.table_id, exc_info=True)
                continue
            if not held:
                log.warning("table %s: the review was taken over by another process; stopped here", job.table_id)
                if job.task is not None:
                    job.task.cancel()
                return

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
                group.create_task(one(todo[i : i + BATCH]))
        return judged

    def close(self) -> None:
        """Stop the reviews under way (the server is stopping); nothing half done is saved, and their claims
        are let go so that another process may start them at once."""
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
            try:
                self.reviews.drop(job.table_id)
            except Exception:  # the claim falls silent and is taken over later
                log.warning("table %s: the review's claim could not be let go", job.table_id, exc_info=True)
