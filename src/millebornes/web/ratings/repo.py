"""Ratings in the database: each account's rating per edition family, and what each rated match did to it
(docs/web-api.md, "Ratings"; the arithmetic is web/ratings/skill.py's).

A rated table (``tables.rated``) rates its match once it is finished, if no move was taken back (``casual``) and
every human seat is held by an account, a different one each (web/accounts/repo.py).  Otherwise it is unrated for
good (``rated`` turns false, so a seat claimed once the result is known rates nothing), and the log says why.
Bots count at their anchored ratings, which never move; a seat a stand-in played for is still its person's.

Two guards keep ratings from being farmed (:func:`refusal`, the same words refused up front where a rated seat is
taken): the same two players, a bot account counting as its owner, are rated against each other at most
``Limits.rated_pair_per_day`` times in any 24 hours, and accounts made from one client address within
``Limits.rated_same_address_hours`` of each other (or their bots) never are.  Both are read from the database under
the players' account rows locked, so several processes, or two matches finishing at once, cannot pass one more.
A side whose player left the match after it started forfeited it (web/tables/forfeits.py, a ``forfeit`` note in the
table's log): it ranks last whatever the scores.

The match is rated in one transaction that writes the new ratings and one ``rating_changes`` row per account,
whose key (table, account) makes a second rating of the same match fail: two processes, or a sweep after a
crash, cannot rate it twice.  Ratings are read and written under the row locks of PostgreSQL (``FOR UPDATE``) or
SQLite's write lock, taken by the transaction's first statement (the SQLite driver begins a transaction at its
first write, and reads before it see no snapshot), so two matches of one account finishing at once both count.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String, exists, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ... import new_game
from ...rules import ruleset as get_ruleset
from ..accounts.repo import AccountRow
from ..botaccounts.repo import BotRow
from ..db.base import Base, now
from ..db.database import Database
from ..settings import Limits
from ..tables.rows import FINISHED, NoteRow, SeatRow, TableRow
from .skill import Rating, bot_rating, family_of, rate_match

log = logging.getLogger("millebornes.web")

RETRIES = 5
"""Attempts at rating one match when another writer got in the way (SQLite's busy snapshot, a new row raced)."""
PAIR_SPAN = timedelta(hours=24)
"""The span ``Limits.rated_pair_per_day`` counts over: the last 24 hours, whatever the calendar says."""
FORFEIT = "forfeit"
"""The type of the log's note that says a seat left the match after it started (web/tables/forfeits.py)."""


class RatingRow(Base):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_family_updated", "family", "updated"),)

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime)


class RatingChangeRow(Base):
    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True)
    family: Mapped[str] = mapped_column(String(32))
    before: Mapped[int] = mapped_column(Integer)
    """The display before the match."""
    after: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime)


@dataclass(frozen=True)
class Change:
    """One point of an account's rating graph."""

    table_id: str
    family: str
    before: int
    after: int
    provisional: bool
    at: datetime


class Ratings:
    """Ratings' reads and writes, on the tables' database."""

    def __init__(self, db: Database):
        self.engine = db.engine

    def rate(self, table_id: str, limits: Limits) -> bool | None:
        """Rate the finished match of a rated table, once: True; False when it is not to be rated (now unrated
        for good, or not a rated finished table); None when it was rated already.  ``limits``: the server's guards
        (:func:`refusal`)."""
        for attempt in range(RETRIES):
            try:
                return self._rate(table_id, limits)
            except (IntegrityError, OperationalError):
                if attempt == RETRIES - 1:
                    raise
        return False

    def refusal(self, sides: Sequence[Sequence[str]], limits: Limits) -> tuple[str, str] | None:
        """Why these sides' accounts (bot accounts among them) may not play a rated match now, as :func:`refusal`
        says it, read without a lock: the refusal up front, before a rated seat is taken."""
        with Session(self.engine) as s:
            return refusal(s, sides, limits)

    def _rate(self, table_id: str, limits: Limits) -> bool | None:
        with Session(self.engine) as s, s.begin():
            # a write first: SQLite's write lock (PostgreSQL's lock on the table's row) before anything is read, so
            # that no other rating commits between what this one reads and what it writes
            s.execute(update(TableRow).where(TableRow.id == table_id).values(rated=TableRow.rated))
            t = s.get(TableRow, table_id)
            if t is None or not t.rated or t.casual or t.status != FINISHED or t.scores is None:
                return False
            if s.scalar(select(exists().where(RatingChangeRow.table_id == table_id))):
                return None
            seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))
            people = [x.account_id for x in seats if x.kind == "human"]
            if None in people or len(set(people)) != len(people):
                log.info("table %s: rated, but not every person's seat is held by an account of its own: unrated", t.id)
                t.rated = False  # for good: a seat claimed after the end (once its result is known) rates nothing
                return False
            accounts = [a for a in people if a is not None]
            bots = dict(
                s.execute(select(BotRow.account_id, BotRow.owner_id).where(BotRow.account_id.in_(accounts))).all()
            )
            behind = [bots.get(a, a) for a in accounts]  # a bot account plays for its owner
            if len(set(behind)) != len(behind):
                log.info("table %s: rated, but a person and their own bot, or two bots of one owner: unrated", t.id)
                t.rated = False  # one owner on two sides could hand one of them the match
                return False
            locked = s.scalars(
                select(AccountRow.id)
                .where(AccountRow.id.in_(set(accounts) | set(behind)))
                .order_by(AccountRow.id)
                .with_for_update()
            ).all()
            if len(set(locked) & set(accounts)) != len(accounts):
                return False  # an account was deleted meanwhile
            game = new_game(get_ruleset(t.ruleset, **t.options), players=t.players, teams=t.teams, seed=0)
            owner = {x.seat: x for x in seats}
            playing = [[a for a in (owner[seat].account_id for seat in side) if a is not None] for side in game.sides]
            why = refusal(s, [side for side in playing if side], limits, exclude=table_id)
            if why is not None:
                log.info("table %s: rated, but %s: unrated", t.id, why[1])
                t.rated = False
                return False
            family = family_of(t.ruleset)
            rows = {
                r.account_id: r
                for r in s.scalars(
                    select(RatingRow)
                    .where(RatingRow.family == family, RatingRow.account_id.in_(accounts))
                    .with_for_update()
                )
            }
            current = {a: _rating(rows.get(a)) for a in accounts}
            sides = [
                [
                    current[owner[seat].account_id or ""]
                    if owner[seat].kind == "human"
                    else bot_rating(owner[seat].level or "", family)
                    for seat in side
                ]
                for side in game.sides
            ]
            notes = s.scalars(select(NoteRow.event).where(NoteRow.table_id == table_id)).all()
            left = {game.side_of(n["seat"]) for n in notes if isinstance(n, dict) and n.get("type") == FORFEIT}
            after = rate_match(sides, ranks=_ranks(list(t.scores), list(t.winners or []), left))
            at = now()
            for side, rated in zip(game.sides, after):
                for seat, new in zip(side, rated):
                    account = owner[seat].account_id
                    if owner[seat].kind != "human" or account is None:
                        continue
                    old = current[account]
                    row = rows.get(account)
                    if row is None:
                        s.add(
                            RatingRow(
                                account_id=account, family=family, mu=new.mu, sigma=new.sigma, matches=1, updated=at
                            )
                        )
                    else:
                        row.mu, row.sigma, row.matches, row.updated = new.mu, new.sigma, new.matches, at
                    s.add(
                        RatingChangeRow(
                            table_id=table_id,
                            account_id=account,
                            family=family,
                            before=old.display,
                            after=new.display,
                            mu=new.mu,
                            sigma=new.sigma,
                            at=at,
                        )
                    )
            return True

    def unrated(self, since: datetime) -> list[str]:
        """Rated tables finished since ``since`` with no rating change yet: a process may have died between the
        finish and the rating (the sweep rates them; those not to be rated are passed over again, cheaply)."""
        with Session(self.engine) as s:
            return list(
                s.scalars(
                    select(TableRow.id)
                    .where(
                        TableRow.rated.is_(True),
                        TableRow.status == FINISHED,
                        TableRow.finished >= since,
                        ~exists().where(RatingChangeRow.table_id == TableRow.id),
                    )
                    .limit(1000)
                )
            )

    def of(self, account_id: str) -> dict[str, Rating]:
        """The account's ratings by family (families it never played rated are missing)."""
        with Session(self.engine) as s:
            return {
                r.family: _rating(r) for r in s.scalars(select(RatingRow).where(RatingRow.account_id == account_id))
            }

    def history(self, account_id: str, limit: int = 1000) -> list[Change]:
        """The account's rated matches, oldest first, the last ``limit``."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(RatingChangeRow.at.desc(), RatingChangeRow.table_id)
                .limit(limit)
            ).all()
            counted: dict[str, int] = {}
            out = []
            for r in reversed(rows):
                counted[r.family] = counted.get(r.family, 0) + 1
                out.append(
                    Change(
                        r.table_id,
                        r.family,
                        r.before,
                        r.after,
                        Rating(r.mu, r.sigma, counted[r.family]).provisional,
                        r.at,
                    )
                )
            return out


def _rating(row: RatingRow | None) -> Rating:
    return Rating() if row is None else Rating(mu=row.mu, sigma=row.sigma, matches=row.matches)


def _ranks(scores: list, winners: list[int], left: set[int] | frozenset[int] = frozenset()) -> list[float]:
    """Each side's place: the winners first (together), then the others by their scores (equal scores tie), and the
    sides that ``left`` (forfeited) last of all, together."""
    others = sorted({float(v) for i, v in enumerate(scores) if i not in winners and i not in left}, reverse=True)
    last = 1.0 + len(others)
    return [last if i in left else 0.0 if i in winners else 1.0 + others.index(float(v)) for i, v in enumerate(scores)]


def refusal(
    s: Session, sides: Sequence[Sequence[str]], limits: Limits, exclude: str | None = None
) -> tuple[str, str] | None:
    """(code, English detail) why the accounts of these sides may not be rated against each other now, else None:
    ``rated-same-address`` when an account of one side and one of another (or a bot's owner) were made from one
    client address within ``limits.rated_same_address_hours``; ``rated-pair-limit`` when two players of different
    sides (a bot account counting as its owner) were rated against each other ``limits.rated_pair_per_day`` times in
    the last 24 hours (the match ``exclude`` not counted).  A person and their own bot are :meth:`Ratings._rate`'s."""
    everyone = {a for side in sides for a in side}
    if not everyone:
        return None
    owners: dict[str, str] = dict(
        s.execute(select(BotRow.account_id, BotRow.owner_id).where(BotRow.account_id.in_(everyone))).all()
    )
    pairs = [(a, b) for i, side in enumerate(sides) for other in sides[i + 1 :] for a in side for b in other]
    if limits.rated_same_address_hours > 0:
        made = {
            r.id: (r.signup_address, r.created)
            for r in s.execute(
                select(AccountRow.id, AccountRow.signup_address, AccountRow.created).where(
                    AccountRow.id.in_(everyone | set(owners.values()))
                )
            )
        }
        span = timedelta(hours=limits.rated_same_address_hours)
        for a, b in pairs:
            for x in {a, owners.get(a, a)}:
                for y in {b, owners.get(b, b)}:
                    (ax, at), (ay, by) = made.get(x, (None, None)), made.get(y, (None, None))
                    if ax is not None and ax == ay and at is not None and by is not None and abs(at - by) <= span:
                        return (
                            "rated-same-address",
                            f"accounts made from one address within {limits.rated_same_address_hours:g} hours "
                            "are not rated against each other",
                        )
    behind = {(owners.get(a, a), owners.get(b, b)) for a, b in pairs}
    since = now() - PAIR_SPAN
    for p, q in behind:
        mine, theirs = _played_as(s, p), _played_as(s, q)
        together = select(RatingChangeRow.table_id).where(
            RatingChangeRow.account_id.in_(mine), RatingChangeRow.at >= since
        )
        if exclude is not None:
            together = together.where(RatingChangeRow.table_id != exclude)
        count = s.scalar(
            select(func.count(func.distinct(RatingChangeRow.table_id))).where(
                RatingChangeRow.table_id.in_(together),
                RatingChangeRow.account_id.in_(theirs),
                RatingChangeRow.at >= since,
            )
        )
        if (count or 0) >= limits.rated_pair_per_day:
            return (
                "rated-pair-limit",
                f"these two players were rated against each other {limits.rated_pair_per_day} times in the last "
                "24 hours, the most a day allows",
            )
    return None


def _played_as(s: Session, player: str) -> list[str]:
    """The accounts a player is rated through: their own and their bots'."""
    return [player, *s.scalars(select(BotRow.account_id).where(BotRow.owner_id == player))]
