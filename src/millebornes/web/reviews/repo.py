"""A finished table's game review, kept once worked out, and the claim of the process working it out, so that
every server process on the database reports it and none starts it twice (docs/web-api.md, "Game review")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...review import REVIEW_FORMAT
from ..db.base import Base, now, rowcount
from ..db.database import Database


class ReviewRow(Base):
    """A finished table's game review (millebornes.review's JSON, as text), computed once and kept: a second
    view is instant and a restart keeps it (docs/web-api.md, "Game review")."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    format: Mapped[str] = mapped_column(String(32))
    worlds: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


class ReviewJobRow(Base):
    """A review being worked out, so that every server process on the database reports it and none starts it
    twice (docs/web-api.md, "Game review"); gone once the review is saved.  ``beat`` is its holder's last word:
    a claim that falls silent (its process died) is taken over."""

    __tablename__ = "review_jobs"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    failed: Mapped[bool] = mapped_column(Boolean, default=False)
    beat: Mapped[datetime] = mapped_column(DateTime)


@dataclass
class ReviewJob:
    owner: str
    done: int
    total: int
    failed: bool
    beat: datetime


class Reviews:
    """The reviews' rows; each method is one short transaction."""

    def __init__(self, db: Database):
        self.db = db
        self.engine = db.engine
        self.origin = db.origin

    def save(self, table_id: str, review: dict) -> None:
        """Keep a finished table's review and let go of its claim; the first one saved stays (a claim taken
        over from a process thought dead may still finish: same record, same budget, same review), but it
        replaces one of another format, which :meth:`get` no longer gives."""
        let_go = delete(ReviewJobRow).where(ReviewJobRow.table_id == table_id)
        try:
            with Session(self.engine) as s, s.begin():
                s.execute(delete(ReviewRow).where(ReviewRow.table_id == table_id, ReviewRow.format != review["format"]))
                s.add(
                    ReviewRow(
                        table_id=table_id,
                        format=review["format"],
                        worlds=review["budget"]["worlds"],
                        seed=review["budget"]["seed"],
                        body=json.dumps(review, separators=(",", ":")),
                        created=now(),
                    )
                )
                s.flush()
                s.execute(let_go)
        except IntegrityError:
            if self.get(table_id) is None:
                raise
            with Session(self.engine) as s, s.begin():
                s.execute(let_go.where(ReviewJobRow.owner == self.origin))

    def job(self, table_id: str) -> ReviewJob | None:
        with Session(self.engine) as s:
            row = s.get(ReviewJobRow, table_id)
            return None if row is None else ReviewJob(row.owner, row.done, row.total, row.failed, row.beat)

    def alive(self, job: ReviewJob, silent: float) -> bool:
        """Whether a claim is another process's review under way: not failed, and heard from within ``silent``
        seconds.  This process knows its own reviews without asking; on SQLite one process serves the file, so a
        claim of another is a dead one's."""
        if job.failed or job.owner == self.origin or not self.db.notifies:
            return False
        return (now() - job.beat).total_seconds() < silent

    def claim(self, table_id: str, total: int, silent: float) -> ReviewJob | None:
        """Take the table's review for this process: None once taken, else the claim of the process working it
        out.  A failed or dead claim is taken over; comparing its heartbeat makes two takers one."""
        for _ in range(5):
            try:
                with Session(self.engine) as s, s.begin():
                    s.add(
                        ReviewJobRow(
                            table_id=table_id, owner=self.origin, done=0, total=total, failed=False, beat=now()
                        )
                    )
                return None
            except IntegrityError:
                pass
            old = self.job(table_id)
            if old is None:  # let go meanwhile: try again
                continue
            if self.alive(old, silent):
                return old
            with Session(self.engine) as s, s.begin():
                taken = rowcount(
                    s.execute(
                        update(ReviewJobRow)
                        .where(
                            ReviewJobRow.table_id == table_id,
                            ReviewJobRow.owner == old.owner,
                            ReviewJobRow.beat == old.beat,
                        )
                        .values(owner=self.origin, done=0, total=total, failed=False, beat=now())
                    )
                )
            if taken == 1:
                return None
        raise RuntimeError(f"table {table_id}: the review's claim kept changing hands")

    def beat(self, table_id: str, done: int) -> bool:
        """Say that this process still works the review out, and how far it is; False if it was taken over."""
        with Session(self.engine) as s, s.begin():
            return (
                rowcount(
                    s.execute(
                        update(ReviewJobRow)
                        .where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin)
                        .values(done=done, beat=now())
                    )
                )
                == 1
            )

    def fail(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(ReviewJobRow)
                .where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin)
                .values(failed=True, beat=now())
            )

    def drop(self, table_id: str) -> None:
        """Let go of an unfinished review (the server stops): another process may start it at once."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ReviewJobRow).where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin))

    def get(self, table_id: str) -> dict | None:
        """The table's review, if one of this version's format is kept: an older one is worked out again."""
        with Session(self.engine) as s:
            body = s.scalar(
                select(ReviewRow.body).where(ReviewRow.table_id == table_id, ReviewRow.format == REVIEW_FORMAT)
            )
            return None if body is None else json.loads(body)
