"""A game review's claim in the database (docs/web-api.md, "Game review"): whichever server process a page asks, it
follows the one review under way, never starts a second, takes over a dead process's claim, and stops its own
when another took it over.  Two server processes are two stores (each its own name) and two reviewers on one
PostgreSQL; the reviews' pool is a stand-in that judges a batch when the test lets it."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

pytest.importorskip("fastapi")

from millebornes import review as R  # noqa: E402
from millebornes.web.db.base import now  # noqa: E402
from millebornes.web.db.database import Database  # noqa: E402
from millebornes.web.reviews import service as reviewing  # noqa: E402
from millebornes.web.reviews.repo import (
    ReviewJobRow,  # noqa: E402
    Reviews,  # noqa: E402
)
from millebornes.web.reviews.service import BATCH, SILENT, Reviewer  # noqa: E402
from millebornes.web.tables.repo import Tables  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
WORLDS = 3


class Pool:
    """The reviews' pool, judging a batch only when the test lets one through."""

    review_slots = 1

    def __init__(self, broken: bool = False):
        self.gate = asyncio.Semaphore(0)
        self.batches, self.broken = 0, broken

    def let(self, batches: int = 10_000) -> None:
        for _ in range(batches):
            self.gate.release()

    async def review(self, fn, *args):
        if self.broken:
            raise RuntimeError("a worker fell over")
        await self.gate.acquire()
        self.batches += 1
        return fn(*args)


def finished_tables(web, url: str, n: int) -> list[str]:
    web.start(url=url)
    ids = []
    for i in range(n):
        table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=7_000 + i)
        ann = web.join(table, 0, "Ann")
        web.play_random([ann], random.Random(i))
        assert ann.state["status"] == "finished"
        ids.append(table["id"])
    web.stop()
    return ids


async def until(check, seconds: float = 20.0) -> None:
    async def wait():
        while not await check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), seconds)


def backdate(store: Reviews, table_id: str, seconds: float) -> None:
    """The claim's holder fell silent ``seconds`` ago (its process was killed)."""
    from sqlalchemy import update

    with store.engine.begin() as c:
        c.execute(
            update(ReviewJobRow)
            .where(ReviewJobRow.table_id == table_id)
            .values(beat=now() - timedelta(seconds=seconds))
        )


@pytest.fixture
def fast(monkeypatch):
    monkeypatch.setattr(reviewing, "BEAT", 0.05)


@pytest.mark.postgres
def test_two_processes_share_one_review(web, postgres_url, fast, monkeypatch):
    tid, other = finished_tables(web, postgres_url, 2)
    da, db = Database(postgres_url), Database(postgres_url)
    sa, sb = Reviews(da), Reviews(db)
    assert sa.origin != sb.origin

    async def scenario():
        pa, pb = Pool(), Pool()
        a, b = Reviewer(Tables(da), sa, pa, WORLDS, 2), Reviewer(Tables(db), sb, pb, WORLDS, 2)
        started = await a.start(tid)
        total = started["total"]
        assert started == {"state": "running", "done": 0, "total": total} and total > 2 * BATCH
        assert await b.state(tid) == started  # b follows a's review from the database
        assert await b.start(tid) == started and b.jobs == {}  # and joins it rather than start another

        pa.let(1)
        await until(lambda: _done_is(b, tid, BATCH))  # a's progress, written by its heartbeat

        # a is thought dead (b's patience runs out): b takes the review over, and a stops its own
        monkeypatch.setattr(reviewing, "SILENT", 0.0)
        taken = await b.start(tid)
        monkeypatch.setattr(reviewing, "SILENT", SILENT)
        assert taken == {"state": "running", "done": 0, "total": total} and tid in b.jobs
        await until(lambda: _empty(a))
        assert sa.job(tid).owner == sb.origin
        assert (await a.state(tid))["state"] == "running"
        pa.let()
        pb.let()
        await until(lambda: _state_is(a, tid, "done"))
        done = await a.state(tid)
        assert done == await b.state(tid) and done["done"] == done["total"] == len(done["review"]["moves"])
        assert pb.batches * BATCH >= total and sa.job(tid) is None  # the claim went with the save
        assert sb.get(tid) == done["review"]

        # a failure on b is a failure for a too, and a may start it again; a closing lets go of its claim
        a.thinker = pa = Pool()
        assert sb.claim(other, 5, SILENT) is None
        assert await a.state(other) == {"state": "running", "done": 0, "total": 5}
        sb.fail(other)
        assert await a.state(other) == {"state": "failed", "done": 0, "total": 0}
        assert (await a.start(other))["state"] == "running" and sa.job(other).owner == sa.origin
        assert (await b.state(other))["state"] == "running"
        a.close()
        await until(lambda: _empty(a))
        assert sa.job(other) is None and await b.state(other) == {"state": "none", "done": 0, "total": 0}

        # a claim silent for longer than SILENT is a dead process's: nothing runs, and a start takes it over
        assert sb.claim(other, 5, SILENT) is None
        backdate(sb, other, SILENT + 1)
        assert await a.state(other) == {"state": "none", "done": 0, "total": 0}
        assert (await a.start(other))["state"] == "running" and sa.job(other).owner == sa.origin
        pa.let()
        await until(lambda: _state_is(b, other, "done"))

    try:
        asyncio.run(scenario())
    finally:
        da.close()
        db.close()


def test_on_sqlite_a_claim_left_by_another_process_is_a_dead_ones(web, tmp_path, fast):
    """One process serves an SQLite file, so a claim it did not make was left by a server killed mid-review;
    a failure, though, is still told after a restart."""
    url = f"sqlite:///{tmp_path}/mb.db"
    (tid,) = finished_tables(web, url, 1)
    killed, db = Reviews(Database(url)), Database(url)
    store, tables = Reviews(db), Tables(db)
    assert killed.claim(tid, 5, SILENT) is None

    async def scenario():
        reviewer = Reviewer(tables, store, Pool(broken=True), WORLDS, 1)
        assert await reviewer.state(tid) == {"state": "none", "done": 0, "total": 0}
        assert (await reviewer.start(tid))["state"] == "running" and store.job(tid).owner == store.origin
        await until(lambda: _state_is(reviewer, tid, "failed"))
        assert reviewer.jobs == {}
        pool = Pool()
        restarted = Database(url)
        again = Reviewer(Tables(restarted), Reviews(restarted), pool, WORLDS, 1)  # the server restarted
        assert await again.state(tid) == {"state": "failed", "done": 0, "total": 0}
        assert (await again.start(tid))["state"] == "running"
        pool.let()
        await until(lambda: _state_is(again, tid, "done"))
        assert again.reviews.job(tid) is None
        assert (await again.state(tid))["review"] == R.review(tables.get(tid, True).record(), worlds=WORLDS, seed=0)
        restarted.close()

    try:
        asyncio.run(scenario())
    finally:
        killed.db.close()
        db.close()


async def _done_is(reviewer: Reviewer, tid: str, done: int) -> bool:
    return (await reviewer.state(tid))["done"] == done


async def _state_is(reviewer: Reviewer, tid: str, state: str) -> bool:
    return (await reviewer.state(tid))["state"] == state


async def _empty(reviewer: Reviewer) -> bool:
    return not reviewer.jobs
