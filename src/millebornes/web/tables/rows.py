"""A table's rows (the table, its seats, its actions, the log's notes) and the plain dataclasses the repository
hands out, never ORM objects, so nothing lazy leaks into the async code.

A match is stored as its record (ruleset, options, players, teams, seed, deck) plus one row per accepted action,
so a restart replays the actions and lands on exactly the same game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    false,
    select,
    text,
    true,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...notation import RECORD_FORMAT
from ..db.base import Base, now

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
BROKEN = "broken"
"""A table whose move could not be saved after every retry: it stays as it was, and is not resumed."""
EXPIRED = "expired"
"""An unfinished table nobody used for ``Settings.expire_idle``: its moves are gone, its row says it expired."""
EXPIRE_BATCH = 1000


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    teams: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    deck: Mapped[list | None] = mapped_column(JSON, nullable=True)
    cf_timeout: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16), index=True)
    scores: Mapped[list | None] = mapped_column(JSON, nullable=True)
    winners: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether a page without a seat link may watch (older databases: added by the first revision)."""
    clock: Mapped[float] = mapped_column(Float, default=0.0, server_default=text("0"))
    """Seconds a human has for each decision; 0: no clock (every table made before there was one)."""
    grace: Mapped[float] = mapped_column(Float, default=60.0, server_default=text("60"))
    """Seconds a disconnected human keeps the seat before a stand-in bot plays it."""
    standin_level: Mapped[str] = mapped_column("standin", String(16), default="medium", server_default=text("'medium'"))
    """The level of the bot that plays for an absent human (the column keeps its first name: every process of
    a rolling upgrade reads it)."""
    clock_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock_deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """The deadline of the human decision that came after ``clock_at`` actions (UTC): a restart keeps it."""
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the lobby lists the table and a stranger may claim its free seats (docs/web-api.md, "Lobby")."""
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """A finished table's rematch: the id of the new table its players were offered (docs/web-api.md, "Rematch")."""
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """A rematch's finished table."""
    touched: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When someone last used the table: a join, or a sweep that found a socket on it (None: not since this column
    came; the creation counts then).  An expired table's: when it expired.  (New: a migration adds it.)"""
    pace: Mapped[str] = mapped_column(String(8), default="normal", server_default=text("'normal'"))
    """How soon the table's bots move (``pacing.PACES``), chosen at its creation (revision 0003 adds it)."""
    casual: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A move was taken back (docs/web-api.md, "Taking back a move"): a rating leaves the match out (revision 0004)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The finished match rates its players' accounts (web/ratings/repo.py; revision 0006)."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    stood_in: Mapped[bool] = mapped_column("standin", Boolean, default=False, server_default=false())
    """A bot plays this human's seat until the human comes back (column ``standin``, its first name)."""
    claimed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether someone took the seat from the lobby (its token was drawn again then): claimed once only."""
    account_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """The account the seat's player signed in to, if any (web/accounts/repo.py; revision 0005); none for a guest,
    and none again once that account is deleted."""


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(40))
    time: Mapped[datetime] = mapped_column(DateTime)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When the human deciding after this action runs out of time, on a table with a clock: in the action's
    own row, so the clock costs no write of its own (the tables row holds the others: ``clock_deadline``)."""


class NoteRow(Base):
    """What the log tells besides the actions (a stand-in took a seat, its human came back), after ``at``
    actions: kept so a restart shows the same log."""

    __tablename__ = "notes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[int] = mapped_column(Integer)
    event: Mapped[dict] = mapped_column(JSON)
    time: Mapped[datetime] = mapped_column(DateTime)


@dataclass
class SavedSeat:
    seat: int
    kind: str
    level: str | None = None
    nickname: str | None = None
    token_hash: str | None = None
    joined: bool = False
    stood_in: bool = False
    """A stand-in bot plays this human's seat (the seat frames' ``standin``)."""
    claimed: bool = False

    @property
    def free(self) -> bool:
        """A human seat nobody joined nor claimed: the lobby offers it."""
        return self.kind == "human" and not self.joined and not self.claimed


@dataclass
class SavedTable:
    """One table as stored: the match record, its seats and (when asked for) its actions."""

    id: str
    ruleset: str
    options: dict
    players: int
    teams: bool
    seed: int
    deck: list | None
    cf_timeout: float
    status: str
    created: datetime
    seats: list[SavedSeat]
    scores: list | None = None
    winners: list | None = None
    finished: datetime | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    notes: list[tuple[int, dict]] = field(default_factory=list)
    """(actions before it, event) of each note, in order; loaded with the actions."""
    spectators: bool = True
    clock: float = 0.0
    grace: float = 60.0
    standin_level: str = "medium"
    """The level of a stand-in bot (the creation's and the table facts' ``standin``)."""
    clock_at: int | None = None
    clock_deadline: datetime | None = None
    public: bool = False
    rematch: str | None = None
    rematch_of: str | None = None
    pace: str = "normal"
    """How soon the bots move: ``relaxed``, ``normal`` or ``fast`` (``pacing.PACES``)."""
    casual: bool = False
    """A move was taken back at this table (:meth:`.repo.Tables.take_back`)."""
    rated: bool = False
    """The finished match rates its players' accounts (docs/web-api.md, "Ratings")."""

    def record(self) -> dict:
        """The engine's record of this match (it holds the seed: never for a client's eyes)."""
        return {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset,
            "options": self.options,
            "players": self.players,
            "teams": self.teams,
            "seed": self.seed,
            "deck": self.deck,
            "actions": [a for _, a in self.actions],
        }


NOT_COPIED = (
    "id",
    "seed",
    "deck",
    "status",
    "scores",
    "winners",
    "created",
    "finished",
    "rematch",
    "rematch_of",
    "clock_at",
    "clock_deadline",
    "public",
    "touched",
    "casual",
)
"""The attributes of a table's row a rematch does not copy: the match itself, its result and its clock's
deadline, and ``public`` (a rematch is for the players who played, not for the lobby).  Every other column is
a creation option (edition, options, players, teams, cf_timeout, spectators, clock, grace, standin...) and is
copied, so an option added later is kept by a rematch without a change here; a column that holds the state of
a match rather than how it was created belongs in this list."""


def table_row(s: Session, table_id: str) -> TableRow:
    """The row of a table that its caller knows is there."""
    row = s.get(TableRow, table_id)
    if row is None:
        raise LookupError(f"no table {table_id}")
    return row


def finishing(table_id: str, scores: list, winners: list):
    """The update that finishes a table with its result, once: a table finished already (its match forfeited, by
    another server process maybe: web/tables/forfeits.py) keeps its result."""
    return (
        update(TableRow)
        .where(TableRow.id == table_id, TableRow.status != FINISHED)
        .values(status=FINISHED, scores=scores, winners=winners, finished=now())
    )


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


def saved(s: Session, rows, with_actions: bool) -> list[SavedTable]:
    """The dataclasses of ``rows``, with their seats (and their actions and notes when ``with_actions``)."""
    ids = [r.id for r in rows]
    seats: dict[str, list[SavedSeat]] = {i: [] for i in ids}
    acts: dict[str, list[tuple[int, str]]] = {i: [] for i in ids}
    last: dict[str, datetime | None] = {}
    notes: dict[str, list[tuple[int, dict]]] = {i: [] for i in ids}
    if ids:
        for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)):
            seats[seat.table_id].append(
                SavedSeat(
                    seat.seat,
                    seat.kind,
                    seat.level,
                    seat.nickname,
                    seat.token_hash,
                    seat.joined,
                    bool(seat.stood_in),
                    bool(seat.claimed),
                )
            )
        if with_actions:
            for a in s.scalars(select(ActionRow).where(ActionRow.table_id.in_(ids)).order_by(ActionRow.n)):
                acts[a.table_id].append((a.seat, a.action))
                last[a.table_id] = a.deadline
            for note in s.scalars(select(NoteRow).where(NoteRow.table_id.in_(ids)).order_by(NoteRow.n)):
                notes[note.table_id].append((note.at, note.event))
    clock = {r.id: (r.clock_at, r.clock_deadline) for r in rows}
    for r in rows:  # the clock's deadline: the tables row's if written after the last action, else that action's
        if with_actions and r.clock_at != len(acts[r.id]) and last.get(r.id) is not None:
            clock[r.id] = len(acts[r.id]), last[r.id]
    return [
        SavedTable(
            id=r.id,
            ruleset=r.ruleset,
            options=r.options,
            players=r.players,
            teams=r.teams,
            seed=r.seed,
            deck=r.deck,
            cf_timeout=r.cf_timeout,
            status=r.status,
            created=r.created,
            seats=seats[r.id],
            scores=r.scores,
            winners=r.winners,
            finished=r.finished,
            actions=acts[r.id],
            notes=notes[r.id],
            spectators=r.spectators is not False,
            public=bool(r.public),
            clock=r.clock or 0.0,
            grace=r.grace if r.grace is not None else 60.0,
            standin_level=r.standin_level or "medium",
            clock_at=clock[r.id][0],
            clock_deadline=clock[r.id][1],
            rematch=r.rematch,
            rematch_of=r.rematch_of,
            pace=r.pace or "normal",
            casual=bool(r.casual),
            rated=bool(r.rated),
        )
        for r in rows
    ]
