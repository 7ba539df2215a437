"""What each seat did in a finished match, counted once and kept (docs/web-api.md, "Profiles and leaderboards"):
the profile's totals add these rows up instead of replaying every game of an account at each visit.

The counts come from the engine's replay of the table's record and the events each action returns
(millebornes.events), not from the points scored, so that they mean the same in every edition, including those
whose scoring has no bonus for them (dujardin counts distance only):

- ``coups_fourres``: the seat's own ``coup-fourre`` events;
- ``safe_trips``: hands whose trip the seat's side completed (``completed``, at the short target too) with no 200
  of its own played in that hand;
- ``shutouts``: hands whose trip the side completed while some other side had travelled nothing;
- ``extensions_taken``: hands whose extension the side called (``extender``); ``extensions_made``: those of them
  whose full trip it then completed;
- ``hands``: hands played to their end; ``won``: the side is among the match's winners.

Team-mates share a side, so each counts its side's trips; a coup fourré is the one seat's.  The rows are written
when the match finishes (web/tables/room.py), and for a table finished before this version, the first time a profile
needs them (:meth:`SeatStats.fill`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Integer, and_, case, distinct, exists, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...actions import IllegalAction
from ...notation import replay
from ..db.base import Base
from ..db.database import Database
from ..tables.repo import Tables
from ..tables.rows import FINISHED, SeatRow, TableRow

log = logging.getLogger("millebornes.web")


class SeatStatsRow(Base):
    __tablename__ = "seat_stats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    won: Mapped[bool] = mapped_column(Boolean)
    coups_fourres: Mapped[int] = mapped_column(Integer)
    safe_trips: Mapped[int] = mapped_column(Integer)
    shutouts: Mapped[int] = mapped_column(Integer)
    extensions_taken: Mapped[int] = mapped_column(Integer)
    extensions_made: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)


@dataclass
class Counts:
    """One seat's counts in one match (the module's docstring says what each means)."""

    won: bool = False
    coups_fourres: int = 0
    safe_trips: int = 0
    shutouts: int = 0
    extensions_taken: int = 0
    extensions_made: int = 0
    hands: int = 0


COUNTED = tuple(f.name for f in fields(Counts) if f.name != "won")
"""The counts a profile sums."""


def count(record: dict[str, Any], winners: list[int]) -> list[Counts]:
    """Each seat's counts in the match of ``record``, whose winning sides were ``winners``; the record's actions
    are checked again as they are replayed (IllegalAction for one that does not follow)."""
    game = replay(record, 0)
    seats = [Counts(won=game.side_of(s) in winners) for s in range(game.players)]
    two_hundreds = [0] * game.nsides
    for action in record["actions"]:
        for event in game.act(action):
            if event["type"] == "coup-fourre":
                seats[event["seat"]].coups_fourres += 1
            elif event["type"] == "play" and event["card"] == "200":
                two_hundreds[event["side"]] += 1
            elif event["type"] == "hand-over":
                done, extender, distance = event["completed"], event["extender"], event["distance"]
                for seat, counts in enumerate(seats):
                    side = game.side_of(seat)
                    counts.hands += 1
                    if done == side:
                        counts.safe_trips += two_hundreds[side] == 0
                        counts.shutouts += any(d == 0 for s, d in enumerate(distance) if s != side)
                    if extender == side:
                        counts.extensions_taken += 1
                        counts.extensions_made += done == side
                two_hundreds = [0] * game.nsides
    return seats


class SeatStats:
    """The ``seat_stats`` rows' reads and writes, on the tables' database."""

    def __init__(self, db: Database):
        self.tables = Tables(db)
        self.engine = db.engine

    def settle(self, table_id: str) -> bool:
        """Count a finished table's seats and keep them, once: True when written now; False when the table is not
        finished, was counted already (here or by another process: the key decides) or does not replay."""
        saved = self.tables.get(table_id, actions=True)
        if saved is None or saved.status != FINISHED or saved.winners is None:
            return False
        try:
            counted = count(saved.record(), list(saved.winners))
        except (IllegalAction, ValueError):
            log.exception("table %s: its record does not replay; its seats are not counted", table_id)
            return False
        try:
            with Session(self.engine) as s, s.begin():
                if s.scalar(select(exists().where(SeatStatsRow.table_id == table_id))):
                    return False
                s.add_all(SeatStatsRow(table_id=table_id, seat=n, **vars(c)) for n, c in enumerate(counted))
        except IntegrityError:
            return False
        return True

    def uncounted(self, account_id: str, limit: int) -> list[str]:
        """Finished tables where the account holds a seat and nothing is counted yet (finished before this
        version, or by a process that died first), the newest first."""
        with Session(self.engine) as s:
            return list(
                s.scalars(
                    select(TableRow.id)
                    .join(SeatRow, SeatRow.table_id == TableRow.id)
                    .where(
                        SeatRow.account_id == account_id,
                        TableRow.status == FINISHED,
                        ~exists().where(SeatStatsRow.table_id == TableRow.id),
                    )
                    .group_by(TableRow.id, TableRow.finished)
                    .order_by(TableRow.finished.desc(), TableRow.id)
                    .limit(limit)
                )
            )

    def fill(self, account_id: str, limit: int) -> int:
        """Count up to ``limit`` of the account's uncounted tables, a visit's bounded share of the work; how many
        are still uncounted after (at most ``limit``: the next visit goes on)."""
        for table_id in self.uncounted(account_id, limit):
            self.settle(table_id)
        return len(self.uncounted(account_id, limit))

    def totals(self, account_id: str) -> dict[str, int]:
        """The account's counted games: ``games`` and ``won`` count tables (an account holding two seats of one
        table played one game), the others add up its seats' counts."""
        row = SeatStatsRow
        held = and_(SeatRow.table_id == row.table_id, SeatRow.seat == row.seat, SeatRow.account_id == account_id)
        columns = [
            func.count(distinct(row.table_id)),
            func.count(distinct(case((row.won.is_(True), row.table_id)))),
            *(func.coalesce(func.sum(getattr(row, name)), 0) for name in COUNTED),
        ]
        with Session(self.engine) as s:
            games, won, *sums = s.execute(select(*columns).select_from(row).join(SeatRow, held)).one()
        return {"games": games, "won": won, **{name: int(v) for name, v in zip(COUNTED, sums)}}


def settle_finished(db: Database, table_id: str) -> None:
    """Count a table whose match just finished (web/tables/room.py calls it in a worker thread); a failure is logged
    and costs nothing: the first profile that needs the table counts it then."""
    try:
        SeatStats(db).settle(table_id)
    except Exception:
        log.exception("table %s: its seats could not be counted now; a profile counts them later", table_id)
