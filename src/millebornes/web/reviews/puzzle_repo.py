"""The puzzles that grow from real games: a reviewed table's inaccuracies and worse, kept in the database
(docs/review.md, "A set that grows from real games").

Each row is one decision as its seat saw it (the review's observation, so no hidden card), its two moves, its theme,
its chances and where it came from (table, seat).  The set stays small: at most :data:`PER_SEAT` a seat and
:data:`PER_GAME` a game (the ones whose choice changed the chance of the hand the most), one row a position
(:func:`puzzle_id`), and at most :data:`KEPT` in all, the weakest pruned.  The public set (:meth:`Grown.public`)
draws on public tables only and names nobody; a player's own (:meth:`Grown.mine`) are those of the seats their
account held.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.base import Base, now
from ..db.database import Database
from ..tables.rows import SeatRow

PER_SEAT = 4
"""A seat's puzzles kept from one game, its strongest."""
PER_GAME = 8
"""A game's puzzles kept, the strongest of its seats'."""
KEPT = 5000
"""Puzzles the database keeps in all; past it the weakest (the least chance at stake, then the oldest) go."""
SERVED = 40
"""Puzzles from real games ``GET /api/puzzles`` adds to the shipped set, the newest."""
MINE = 40
"""Puzzles ``GET /api/puzzles/mine`` gives, the newest."""
FIELDS = ("edition", "seat", "observation", "played", "best", "chance", "best_chance", "stake", "class", "theme")
"""What a stored puzzle keeps of :func:`millebornes.puzzles.from_review`'s (its ``reason`` too, when it has one)."""


class PuzzleRow(Base):
    """A puzzle from a reviewed game: ``body`` is the puzzle's JSON (the seat's observation, the moves, the
    chances, the theme); the other columns sort and bound the set."""

    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    """Whether its table was public: only those join the public set."""
    edition: Mapped[str] = mapped_column(String(32))
    theme: Mapped[str] = mapped_column(String(16))
    stake: Mapped[float] = mapped_column(Float, index=True)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime, index=True)


def puzzle_id(puzzle: dict[str, Any]) -> str:
    """One id a position: the same decision met twice (a review worked out again) is kept once."""
    key = json.dumps([puzzle["edition"], puzzle["observation"], puzzle["played"], puzzle["best"]], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def chosen(puzzles: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's puzzles within the bounds: each seat's :data:`PER_SEAT` strongest, then the game's
    :data:`PER_GAME` strongest of those, in the game's order."""
    found = list(puzzles)
    kept: list[dict[str, Any]] = []
    for seat in sorted({p["seat"] for p in found}):
        kept += sorted((p for p in found if p["seat"] == seat), key=lambda p: -p["stake"])[:PER_SEAT]
    best = {id(p) for p in sorted(kept, key=lambda p: -p["stake"])[:PER_GAME]}
    return [p for p in found if id(p) in best]


def stored(puzzle: dict[str, Any]) -> dict[str, Any]:
    """What a row keeps of a puzzle: its fields, and its reason untouched."""
    out = {k: puzzle[k] for k in FIELDS}
    if "reason" in puzzle:
        out["reason"] = puzzle["reason"]
    return out


class Grown:
    """The puzzles' rows; each method is one short transaction."""

    def __init__(self, db: Database):
        self.engine = db.engine

    def add(self, table_id: str, public: bool, puzzles: Iterable[dict[str, Any]]) -> int:
        """Keep a reviewed game's puzzles (:func:`chosen` of them; a position kept already is not added again),
        then prune the weakest past :data:`KEPT`; the number added."""
        rows: dict[str, dict[str, Any]] = {}
        for p in chosen(puzzles):
            body = stored(p)
            rows.setdefault(puzzle_id(body), body)
        if not rows:
            return 0
        added = 0
        with Session(self.engine) as s, s.begin():
            there = set(s.scalars(select(PuzzleRow.id).where(PuzzleRow.id.in_(rows))))
            fresh = {k: v for k, v in rows.items() if k not in there}
        for key, body in fresh.items():  # one at a time: a position another game added meanwhile is skipped
            try:
                with Session(self.engine) as s, s.begin():
                    s.add(self._row(key, table_id, public, body))
                added += 1
            except IntegrityError:
                continue
        self.prune()
        return added

    @staticmethod
    def _row(key: str, table_id: str, public: bool, body: dict[str, Any]) -> PuzzleRow:
        return PuzzleRow(
            id=key,
            table_id=table_id,
            seat=body["seat"],
            public=public,
            edition=body["edition"],
            theme=body["theme"],
            stake=float(body["stake"]),
            body=json.dumps(body, separators=(",", ":")),
            created=now(),
        )

    def prune(self, kept: int = KEPT) -> int:
        """Delete the weakest puzzles past ``kept``; how many went."""
        with Session(self.engine) as s, s.begin():
            extra = (s.scalar(select(func.count()).select_from(PuzzleRow)) or 0) - kept
            if extra <= 0:
                return 0
            weakest = select(PuzzleRow.id).order_by(PuzzleRow.stake, PuzzleRow.created, PuzzleRow.id).limit(extra)
            s.execute(delete(PuzzleRow).where(PuzzleRow.id.in_(weakest.scalar_subquery())))
            return extra

    def public(self, limit: int = SERVED) -> list[dict[str, Any]]:
        """The newest puzzles of public tables, naming nobody: no table, no account, no nickname."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(PuzzleRow.id, PuzzleRow.body)
                .where(PuzzleRow.public)
                .order_by(PuzzleRow.created.desc(), PuzzleRow.stake.desc(), PuzzleRow.id)
                .limit(limit)
            ).all()
        return [{"id": key, **json.loads(body), "source": "games"} for key, body in rows]

    def mine(self, account_id: str, limit: int = MINE) -> list[dict[str, Any]]:
        """The newest puzzles of the seats the account holds (its own mistakes), each with its table."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(PuzzleRow.id, PuzzleRow.table_id, PuzzleRow.body)
                .join(SeatRow, (SeatRow.table_id == PuzzleRow.table_id) & (SeatRow.seat == PuzzleRow.seat))
                .where(SeatRow.account_id == account_id)
                .order_by(PuzzleRow.created.desc(), PuzzleRow.stake.desc(), PuzzleRow.id)
                .limit(limit)
            ).all()
        return [{"id": key, **json.loads(body), "source": "mine", "table": table} for key, table, body in rows]

    def count(self) -> int:
        with Session(self.engine) as s:
            return s.scalar(select(func.count()).select_from(PuzzleRow)) or 0
