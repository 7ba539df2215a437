"""The public archive's reads: finished public tables in (finished, id) order, a page at a time."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.sql import ColumnElement

from ..db.database import Database
from ..tables.rows import FINISHED, SavedTable, TableRow, saved


class Archive:
    """The archive's queries on the tables' rows (written by :mod:`..tables.repo`)."""

    def __init__(self, db: Database):
        self.engine = db.engine

    def end(self, after: tuple[datetime, str] | None, count: int) -> tuple[tuple[datetime, str] | None, bool]:
        """The (finished, id) of the last table of an archive page of ``count`` tables after ``after`` (None: the
        page is empty), and whether another follows it: a page's bound and its next link, before it is read."""
        order = (TableRow.finished, TableRow.id)
        with Session(self.engine) as s:
            listed = select(*order).where(*self._archived(after))
            found = s.execute(listed.order_by(*order).offset(count - 1).limit(2)).all()
            more = len(found) == 2
            if not found:
                found = s.execute(listed.order_by(*(c.desc() for c in order)).limit(1)).all()
            keys = [(at, table_id) for at, table_id in found if at is not None]
            return (keys[0] if keys else None), more

    def page(
        self,
        after: tuple[datetime, str] | None,
        count: int,
        upto: tuple[datetime, str] | None = None,
        since: datetime | None = None,
        before: datetime | None = None,
    ) -> list[SavedTable]:
        """At most ``count`` archived tables after ``after`` (and at most ``upto``, finished from ``since`` and
        before ``before``), in (finished, id) order, with their actions: finished public tables only."""
        bounds: list[ColumnElement[bool]] = list(self._archived(after))
        if upto is not None:
            bounds.append((TableRow.finished < upto[0]) | ((TableRow.finished == upto[0]) & (TableRow.id <= upto[1])))
        if since is not None:
            bounds.append(TableRow.finished >= since)
        if before is not None:
            bounds.append(TableRow.finished < before)
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow).where(*bounds).order_by(TableRow.finished, TableRow.id).limit(count)
            ).all()
            return saved(s, rows, True)

    @staticmethod
    def _archived(after: tuple[datetime, str] | None) -> tuple[ColumnElement[bool], ...]:
        """A finished public table, after the (finished, id) key ``after`` if given: the archive's order."""
        listed = (TableRow.status == FINISHED, TableRow.public.is_(True), TableRow.finished.is_not(None))
        if after is None:
            return listed
        at, table_id = after
        later = (TableRow.finished > at) | ((TableRow.finished == at) & (TableRow.id > table_id))
        return (*listed, TableRow.finished >= at, later)
