"""Where every table lives between two actions: six SQL tables through SQLAlchemy 2 (the accounts' and ratings'
models, on the same ``Base``, are web/accountstore.py's and web/ratingstore.py's).

A match is stored as its record (ruleset, options, players, teams, seed, deck) plus one row per
accepted action, so a restart replays the actions and lands on exactly the same game.  Every write
is its own committed transaction: when :meth:`Store.append_action` returns, the action survives a
crash, which is why the server calls it before telling anyone about the action.

The same models run on the embedded SQLite file (in WAL mode, fully synced) and on PostgreSQL.
Methods return plain dataclasses, never ORM objects, so nothing lazy leaks into the async code.
The schema is made and upgraded by the revisions of web/migrations (web/schema.py), never by the models.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    exists,
    false,
    func,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import CursorResult, Engine, Result
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column
from sqlalchemy.sql import ColumnElement

from ..notation import RECORD_FORMAT
from ..review import REVIEW_FORMAT
from . import schema
from .errors import Stale
from .notices import CHANNEL, Kind, action_args, encode, undo_args
from .settings import normalize_database_url

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
BROKEN = "broken"
"""A table whose move could not be saved after every retry: it stays as it was, and is not resumed."""
EXPIRED = "expired"
"""An unfinished table nobody used for ``Settings.expire_idle``: its moves are gone, its row says it expired."""
EXPIRE_BATCH = 1000
SQLITE_BUSY_SECONDS = 30
"""How long a save waits for another writer of the SQLite file before it fails."""
PING_WRITE_WAIT = 1.0
"""How long /healthz waits for SQLite's write lock before it says the database takes no move."""


class _Lost(Exception):
    """A rematch linked by someone else while this one was being created."""


class Base(DeclarativeBase):
    pass


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
    """Whether the lobby lists the table and a stranger may claim its free seats (docs/web.md, "Lobby")."""
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """A finished table's rematch: the id of the new table its players were offered (docs/web.md, "Rematch")."""
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """A rematch's finished table."""
    touched: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When someone last used the table: a join, or a sweep that found a socket on it (None: not since this column
    came; the creation counts then).  An expired table's: when it expired.  (New: a migration adds it.)"""
    pace: Mapped[str] = mapped_column(String(8), default="normal", server_default=text("'normal'"))
    """How soon the table's bots move (``pacing.PACES``), chosen at its creation (revision 0003 adds it)."""
    casual: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A move was taken back (docs/web.md, "Taking back a move"): a rating leaves the match out (revision 0004)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The finished match rates its players' accounts (web/ratingstore.py; revision 0006)."""


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
    """The account the seat's player signed in to, if any (web/accountstore.py; revision 0005); none for a guest,
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


class ReviewRow(Base):
    """A finished table's game review (millebornes.review's JSON, as text), computed once and kept: a second
    view is instant and a restart keeps it (docs/web.md, "Game review")."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    format: Mapped[str] = mapped_column(String(32))
    worlds: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


class ReviewJobRow(Base):
    """A review being worked out, so that every server process on the database reports it and none starts it
    twice (docs/web.md, "Game review"); gone once the review is saved.  ``beat`` is its holder's last word:
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
    """A move was taken back at this table (:meth:`Store.take_back`)."""
    rated: bool = False
    """The finished match rates its players' accounts (docs/web.md, "Ratings")."""

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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_opens(token_hash: str | None, token: str) -> bool:
    """Whether ``token`` is the one whose hash was stored; in constant time, so timing tells nothing."""
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def now() -> datetime:
    """UTC without a zone: SQLite keeps no zones, and both databases then agree."""
    return datetime.now(UTC).replace(tzinfo=None)


_APPEND_NOTIFYING = text(
    "WITH saved AS (INSERT INTO actions (table_id, n, seat, action, time, deadline) "
    "VALUES (:table_id, :n, :seat, :action, :time, :deadline) RETURNING n) "
    "SELECT pg_notify(:channel, :payload) FROM saved"
)
_AFTER_LAST = (
    "WITH last AS (SELECT n FROM actions WHERE table_id = :table_id AND n = :n - 1 FOR KEY SHARE), "
    "saved AS (INSERT INTO actions (table_id, n, seat, action, time, deadline) "
    "SELECT CAST(:table_id AS VARCHAR), CAST(:n AS INTEGER), CAST(:seat AS INTEGER), CAST(:action AS VARCHAR), "
    "CAST(:time AS TIMESTAMP), CAST(:deadline AS TIMESTAMP) FROM last RETURNING n) "
)
_APPEND_AFTER = text(_AFTER_LAST + "SELECT n FROM saved")
_APPEND_AFTER_NOTIFYING = text(_AFTER_LAST + "SELECT pg_notify(:channel, :payload) FROM saved")
"""PostgreSQL's action n written only while action n - 1 is there, held for the statement (``FOR KEY SHARE``): a
process that has not heard that moves were taken back (:meth:`Store.take_back`) cannot leave a gap behind them."""


class Store:
    """The database of tables; each method is one short transaction."""

    def __init__(self, url: str, sqlite_sync: str = "FULL", migrate: bool = True):
        """``migrate``: bring the schema to this version's (web/schema.py); False: refuse a database that
        is not there already (``serve --no-migrate``, the operator runs ``millebornes db upgrade``)."""
        url = normalize_database_url(url)
        self.url = url
        sqlite = url.startswith("sqlite")
        # hide_parameters: a failed statement is logged without its values (a table row holds the seed)
        self.engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS} if sqlite else {},
            pool_pre_ping=not sqlite,
            hide_parameters=True,
        )
        if sqlite:
            if sqlite_sync not in ("FULL", "NORMAL"):
                raise ValueError(f"sqlite_sync is FULL or NORMAL, not {sqlite_sync!r}")
            event.listen(self.engine, "connect", functools.partial(_sqlite_pragmas, sqlite_sync))
        self.notifies = url.startswith("postgresql")
        self._hot = (
            create_engine(url, pool_size=5, max_overflow=5, hide_parameters=True, isolation_level="AUTOCOMMIT")
            if self.notifies
            else None
        )
        """The moves' own pool (PostgreSQL): single statements in autocommit, without the ping before each."""
        self.origin = secrets.token_hex(6)
        """This process's name in its notices, so that it does not adopt its own actions."""
        try:
            if migrate:
                schema.upgrade(self.engine)
            else:
                schema.check(self.engine)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.engine.dispose()
        if self._hot is not None:
            self._hot.dispose()

    # ---------------------------------------------------------------- writes
    def create(self, table: SavedTable) -> SavedTable:
        """Insert a new table and its seats; draws another id if the short one is taken."""
        for _ in range(5):
            try:
                with Session(self.engine) as s, s.begin():
                    s.add(
                        TableRow(
                            id=table.id,
                            ruleset=table.ruleset,
                            options=table.options,
                            players=table.players,
                            teams=table.teams,
                            seed=table.seed,
                            deck=table.deck,
                            cf_timeout=table.cf_timeout,
                            status=table.status,
                            created=table.created,
                            spectators=table.spectators,
                            clock=table.clock,
                            grace=table.grace,
                            standin_level=table.standin_level,
                            public=table.public,
                            rematch_of=table.rematch_of,
                            pace=table.pace,
                            rated=table.rated,
                        )
                    )
                    s.flush()
                    for seat in table.seats:
                        s.add(
                            SeatRow(
                                table_id=table.id,
                                seat=seat.seat,
                                kind=seat.kind,
                                level=seat.level,
                                nickname=seat.nickname,
                                token_hash=seat.token_hash,
                                joined=seat.joined,
                                stood_in=seat.stood_in,
                            )
                        )
                return table
            except IntegrityError:
                table.id = new_table_id()
        raise RuntimeError("could not draw a free table id")

    def join(
        self,
        table_id: str,
        seat: int,
        nickname: str,
        token_hash: str | None = None,
        new_hash: str | None = None,
        account_id: str | None = None,
    ) -> str | None:
        """A human took the seat (again): its nickname; the match starts when every human seat has joined,
        decided here, so two joins on two server processes cannot both miss the other.  The table's status.

        With ``token_hash`` the seat's stored hash must still be that one, with ``account_id`` the seat must be
        held by that account, else None and nothing changed: the database has the last word on a link or a
        holder, whatever a process's copy says.  ``new_hash`` replaces the hash (a seat's first join: its invite
        link opens nothing any more)."""
        with Session(self.engine) as s, s.begin():
            # the table's row locked first: two last joins at once would each count the other missing
            status = s.scalar(select(TableRow.status).where(TableRow.id == table_id).with_for_update())
            if status == EXPIRED:
                return status
            seat_row: tuple[ColumnElement[bool], ...] = (SeatRow.table_id == table_id, SeatRow.seat == seat)
            if token_hash is not None:
                seat_row += (SeatRow.token_hash == token_hash,)
            if account_id is not None:
                seat_row += (SeatRow.account_id == account_id, SeatRow.kind == "human")
            values = {"nickname": nickname, "joined": True} | ({"token_hash": new_hash} if new_hash else {})
            if _rowcount(s.execute(update(SeatRow).where(*seat_row).values(**values))) != 1:
                return None
            s.execute(update(TableRow).where(TableRow.id == table_id).values(touched=now()))
            missing = s.scalar(
                select(func.count())
                .select_from(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "human", SeatRow.joined == false())
            )
            if not missing:
                s.execute(
                    update(TableRow).where(TableRow.id == table_id, TableRow.status == WAITING).values(status=PLAYING)
                )
            self._notice(s, table_id, Kind.SEATS)
            return s.scalar(select(TableRow.status).where(TableRow.id == table_id))

    def delete_unjoined(self, ids: list[str], before: datetime) -> list[str]:
        """Delete those of ``ids`` that are still unjoined tables created before ``before``, seats
        included (checked again here, in the deleting transaction); returns the ids deleted."""
        with Session(self.engine) as s, s.begin():
            ids = list(s.scalars(select(TableRow.id).where(TableRow.id.in_(ids), *_unjoined(before))))
            if ids:
                s.execute(delete(ActionRow).where(ActionRow.table_id.in_(ids)))
                s.execute(delete(NoteRow).where(NoteRow.table_id.in_(ids)))
                s.execute(delete(SeatRow).where(SeatRow.table_id.in_(ids)))
                s.execute(delete(TableRow).where(TableRow.id.in_(ids)))
            return ids

    def touch(self, ids: list[str]) -> None:
        """The unfinished tables of ``ids`` are in use now (a socket is on them): not idle, whatever their moves."""
        for at in range(0, len(ids), EXPIRE_BATCH):
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(TableRow)
                    .where(TableRow.id.in_(ids[at : at + EXPIRE_BATCH]), TableRow.status.in_((WAITING, PLAYING)))
                    .values(touched=now())
                )

    def expire_idle(self, ids: list[str], before: datetime) -> list[str]:
        """Mark those of ``ids`` that are still idle since ``before`` (see :meth:`idle`) expired, and delete their
        moves and notes, in one transaction checked again here; returns the ids expired.  Their rows and seats
        stay, so that their links say what became of them (:meth:`purge_expired` deletes them later)."""
        with Session(self.engine) as s, s.begin():
            ids = list(s.scalars(select(TableRow.id).where(TableRow.id.in_(ids), *_idle(before))))
            if ids:
                s.execute(delete(ActionRow).where(ActionRow.table_id.in_(ids)))
                s.execute(delete(NoteRow).where(NoteRow.table_id.in_(ids)))
                s.execute(
                    update(TableRow)
                    .where(TableRow.id.in_(ids))
                    .values(status=EXPIRED, touched=now(), clock_at=None, clock_deadline=None)
                )
                for table_id in ids:
                    self._notice(s, table_id, Kind.EXPIRED)
            return ids

    def purge_expired(self, before: datetime) -> int:
        """Delete the tables that expired before ``before``, seats included (at most EXPIRE_BATCH); how many."""
        with Session(self.engine) as s, s.begin():
            ids = list(
                s.scalars(
                    select(TableRow.id).where(TableRow.status == EXPIRED, TableRow.touched < before).limit(EXPIRE_BATCH)
                )
            )
            if ids:
                s.execute(delete(SeatRow).where(SeatRow.table_id.in_(ids)))
                s.execute(delete(TableRow).where(TableRow.id.in_(ids)))
            return len(ids)

    def append_action(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        result: tuple[list, list] | None = None,
        *,
        clock: datetime | None = None,
    ) -> None:
        """Commit action number ``n`` (from 0); with ``result`` (scores, winners) the match ended
        with it, and the table is finished in the same transaction; with ``clock``, the deadline of the
        human decision that follows it, in the action's own row.

        The database decides the order: when another server process wrote action ``n`` first, or took back
        action ``n - 1``, nothing is written and :class:`Stale` is raised.  On PostgreSQL the commit also tells
        every process listening (:data:`CHANNEL`) the row it wrote, so that they need not read it back."""
        try:
            if self._hot is not None and result is None:
                self._append_notifying(self._hot, table_id, n, seat, action, clock)
                return
            with self.engine.begin() as c:  # Core, not the ORM's unit of work: this is the server's hottest write
                row = {"table_id": table_id, "n": n, "seat": seat, "action": action, "time": now(), "deadline": clock}
                if self.notifies and n > 0:
                    if c.execute(_APPEND_AFTER, row).first() is None:
                        raise Stale(f"action {n - 1} of table {table_id} was taken back by another server process")
                else:
                    c.execute(insert(Base.metadata.tables[ActionRow.__tablename__]).values(**row))
                if result is not None:
                    c.execute(_finished(table_id, *result))
                self._notice(c, table_id, Kind.ACTION, *action_args(n, seat, action, clock))
        except IntegrityError:
            raise Stale(f"action {n} of table {table_id} was written by another server process") from None

    def _append_notifying(
        self, hot: Engine, table_id: str, n: int, seat: int, action: str, clock: datetime | None
    ) -> None:
        """The row and its notice in one statement and one round trip (most moves of a busy server): no
        BEGIN, no COMMIT, no ping before it.  A connection found dead (the database restarted) is tried
        once more on a new one; had the first try been written after all, the second is :class:`Stale`."""
        payload = encode(table_id, Kind.ACTION, self.origin, *action_args(n, seat, action, clock))
        values = {
            "table_id": table_id,
            "n": n,
            "seat": seat,
            "action": action,
            "time": now(),
            "deadline": clock,
            "channel": CHANNEL,
            "payload": payload,
        }
        for attempt in (1, 2):
            try:
                with hot.connect() as c:
                    if n == 0:
                        c.execute(_APPEND_NOTIFYING, values)
                    elif c.execute(_APPEND_AFTER_NOTIFYING, values).first() is None:
                        raise Stale(f"action {n - 1} of table {table_id} was taken back by another server process")
                return
            except DBAPIError as exc:
                if attempt == 2 or not exc.connection_invalidated:
                    raise

    def _notice(self, c, table_id: str, kind: Kind, *args) -> None:
        """Tell the other server processes, at this transaction's commit, what changed at the table."""
        if self.notifies:
            payload = encode(table_id, kind, self.origin, *args)
            c.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def notify(self, table_id: str, kind: Kind, *args) -> None:
        """A notice of its own (who is connected here): nothing is written."""
        if self.notifies:
            with self.engine.begin() as c:
                self._notice(c, table_id, kind, *args)

    def notes_after(self, table_id: str, n: int) -> list[tuple[int, dict]]:
        """The log's notes from number ``n`` on: (actions before it, event)."""
        with Session(self.engine) as s:
            return [
                (r.at, r.event)
                for r in s.scalars(
                    select(NoteRow).where(NoteRow.table_id == table_id, NoteRow.n >= n).order_by(NoteRow.n)
                )
            ]

    def actions_after(self, table_id: str, n: int) -> list[tuple[int, str, datetime | None]]:
        """The table's actions from number ``n`` on (seat, action, the deadline written with it), in order:
        what another server process wrote since this one's copy was made."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(ActionRow.seat, ActionRow.action, ActionRow.deadline)
                .where(ActionRow.table_id == table_id, ActionRow.n >= n)
                .order_by(ActionRow.n)
            )
            return [(r.seat, r.action, r.deadline) for r in rows]

    def take_back(self, table_id: str, count: int, keep: int, seat: int) -> None:
        """``seat`` takes back moves: of the table's ``count`` actions the first ``keep`` stay, and the log's notes
        written after them go; the table is casual from now on, and the clock of the decision it is back to starts
        again (docs/web.md, "Taking back a move").  One transaction: when another server process wrote or took
        back an action since this copy was made, nothing changes and :class:`Stale` is raised."""
        with self.engine.begin() as c:
            gone = c.execute(
                delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.n >= keep).returning(ActionRow.n)
            ).scalars()
            taken = sorted(gone)
            left = c.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id))
            if taken != list(range(keep, count)) or left != keep:
                raise Stale(f"table {table_id} does not have the {count} actions this process knows")
            c.execute(delete(NoteRow).where(NoteRow.table_id == table_id, NoteRow.at > keep))
            c.execute(
                update(TableRow).where(TableRow.id == table_id).values(casual=True, clock_at=keep, clock_deadline=None)
            )
            self._notice(c, table_id, Kind.UNDO, *undo_args(keep, seat))

    def finish(self, table_id: str, scores: list, winners: list) -> None:
        """The match ended behind a coup-fourré window: it is finished when the window closes."""
        with Session(self.engine) as s, s.begin():
            s.execute(_finished(table_id, scores, winners))

    def set_clock(self, table_id: str, at: int, deadline: datetime | None) -> None:
        """The deadline of the human decision after ``at`` actions; an older decision's late write
        never replaces a newer one's."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, (TableRow.clock_at.is_(None)) | (TableRow.clock_at <= at))
                .values(clock_at=at, clock_deadline=deadline)
            )

    def set_standin(self, table_id: str, seat: int, on: bool, at: int, note: dict) -> None:
        """A bot starts or stops playing for the human of ``seat``, and the log's ``note`` of it after
        ``at`` actions, in one transaction."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(stood_in=on))
            n = s.scalar(select(func.count()).select_from(NoteRow).where(NoteRow.table_id == table_id))
            s.add(NoteRow(table_id=table_id, n=n, at=at, event=note, time=now()))
            self._notice(s, table_id, Kind.SEATS)

    def claim(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a free seat of an open public table a new token (its hash), in one conditional update so the
        first claim wins; False when the seat is not there to take (joined, claimed, a bot's, or the table
        private, started or not listed yet: see :meth:`lobby`)."""
        other = aliased(SeatRow)
        seated = exists().where(other.table_id == table_id, other.kind == "human", other.joined.is_(True))
        open_table = exists().where(TableRow.id == table_id, TableRow.public.is_(True), TableRow.status == WAITING)
        with Session(self.engine) as s, s.begin():
            done = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.joined.is_(False),
                    SeatRow.claimed.is_(False),
                    open_table,
                    seated,
                )
                .values(token_hash=token_hash, claimed=True)
                .execution_options(synchronize_session=False)
            )
            if _rowcount(done) == 1:
                self._notice(s, table_id, Kind.SEATS)
            return _rowcount(done) == 1

    def mark_broken(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=BROKEN))

    # ---------------------------------------------------------------- rematch (web/rematch.py)
    def create_rematch(self, table_id: str, seed: int) -> str:
        """The finished table's rematch, created now if it has none (or its rematch expired): a new
        waiting table with the same creation options and seats (a bot keeps its level, a human seat
        has no token yet), this ``seed``, and the link both ways.  One transaction, and the link is
        set only if nobody set it meanwhile, so two players accepting at once make one table."""
        for _ in range(5):
            try:
                with Session(self.engine) as s, s.begin():
                    old = _table(s, table_id)
                    last = None if old.rematch is None else s.get(TableRow, old.rematch)
                    if last is not None and last.status != EXPIRED:
                        return last.id
                    values = {
                        a.key: getattr(old, a.key) for a in sa_inspect(TableRow).column_attrs if a.key not in NOT_COPIED
                    }
                    new_id = new_table_id()
                    s.add(
                        TableRow(
                            id=new_id,
                            seed=seed,
                            deck=None,
                            status=WAITING,
                            created=now(),
                            rematch_of=table_id,
                            **values,
                        )
                    )
                    s.flush()
                    for seat in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)):
                        s.add(
                            SeatRow(
                                table_id=new_id,
                                seat=seat.seat,
                                kind=seat.kind,
                                level=seat.level,
                                joined=seat.kind == "bot",
                            )
                        )
                    linked = s.execute(
                        update(TableRow)
                        .where(
                            TableRow.id == table_id,
                            TableRow.rematch.is_(None) if old.rematch is None else TableRow.rematch == old.rematch,
                        )
                        .values(rematch=new_id)
                    )
                    if _rowcount(linked) != 1:
                        raise _Lost  # another answer linked its rematch first: roll back, and take that one
                    return new_id
            except (_Lost, IntegrityError):  # (or the short id was taken)
                continue
        raise RuntimeError("could not create the rematch")

    def issue_token(self, table_id: str, seat: int, token_hash: str) -> bool:
        """A rematch's seat is a human's, opened by this token's hash alone (a new token replaces the
        old one; a seat given to a bot while the table waits is a human's again).  False, and nothing
        changed, once the table no longer waits or a human sits in the seat: a yes never takes a seat from
        its player, whatever another process's copy of the room says."""
        with Session(self.engine) as s, s.begin():
            status = s.scalar(select(TableRow.status).where(TableRow.id == table_id).with_for_update())
            row = s.get(SeatRow, (table_id, seat))
            if status != WAITING or row is None or (row.kind == "human" and row.joined):
                return False
            if row.kind == "bot":
                row.kind, row.level, row.joined = "human", None, False
            row.token_hash = token_hash
            self._notice(s, table_id, Kind.SEATS)
            return True

    def seats_to_bots(self, table_id: str, seats: list[int], level: str) -> str:
        """Give the waiting table's unjoined human ``seats`` to bots of ``level``; the table starts
        (playing) when a human seat is left and every human seat has joined.  Returns its status."""
        with Session(self.engine) as s, s.begin():
            s.execute(select(TableRow.id).where(TableRow.id == table_id).with_for_update())
            s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat.in_(seats),
                    SeatRow.kind == "human",
                    SeatRow.joined.is_(False),
                )
                .values(kind="bot", level=level, token_hash=None, nickname=None, joined=True)
            )
            row = _table(s, table_id)
            humans = [
                x.joined
                for x in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.kind == "human"))
            ]
            if row.status == WAITING and humans and all(humans):
                row.status = PLAYING
            self._notice(s, table_id, Kind.SEATS)
            return row.status

    def rematch_state(self, table_id: str) -> dict:
        """The finished table's rematch as its players see it: the new table's id (None before the
        first answer, or once the rematch expired) and each human seat's answer, worked out from the
        new table as stored: ``yes`` (its seat joined, or a token was issued), ``no`` (given to a
        bot), else None (not answered yet)."""
        with Session(self.engine) as s:
            old = s.get(TableRow, table_id)
            humans = list(
                s.scalars(
                    select(SeatRow.seat)
                    .where(SeatRow.table_id == table_id, SeatRow.kind == "human")
                    .order_by(SeatRow.seat)
                )
            )
            rematch = None if old is None else old.rematch
            last = None if rematch is None else s.get(TableRow, rematch)
            new = (
                {}
                if last is None or last.status == EXPIRED
                else {x.seat: x for x in s.scalars(select(SeatRow).where(SeatRow.table_id == rematch))}
            )
            if not new:
                return {"table": None, "seats": [{"seat": n, "answer": None} for n in humans]}

            def answer(x: SeatRow | None) -> str | None:
                if x is None:
                    return None
                if x.kind == "bot":
                    return "no"
                return "yes" if x.joined or x.token_hash is not None else None

            return {"table": rematch, "seats": [{"seat": n, "answer": answer(new.get(n))} for n in humans]}

    # ---------------------------------------------------------------- game reviews (web/reviewing.py)
    def save_review(self, table_id: str, review: dict) -> None:
        """Keep a finished table's review and let go of its claim; the first one saved stays (a claim taken
        over from a process thought dead may still finish: same record, same budget, same review), but it
        replaces one of another format, which :meth:`get_review` no longer gives."""
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
            if self.get_review(table_id) is None:
                raise
            with Session(self.engine) as s, s.begin():
                s.execute(let_go.where(ReviewJobRow.owner == self.origin))

    def review_job(self, table_id: str) -> ReviewJob | None:
        with Session(self.engine) as s:
            row = s.get(ReviewJobRow, table_id)
            return None if row is None else ReviewJob(row.owner, row.done, row.total, row.failed, row.beat)

    def review_alive(self, job: ReviewJob, silent: float) -> bool:
        """Whether a claim is another process's review under way: not failed, and heard from within ``silent``
        seconds.  This process knows its own reviews without asking; on SQLite one process serves the file, so a
        claim of another is a dead one's."""
        if job.failed or job.owner == self.origin or not self.notifies:
            return False
        return (now() - job.beat).total_seconds() < silent

    def claim_review(self, table_id: str, total: int, silent: float) -> ReviewJob | None:
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
            old = self.review_job(table_id)
            if old is None:  # let go meanwhile: try again
                continue
            if self.review_alive(old, silent):
                return old
            with Session(self.engine) as s, s.begin():
                taken = _rowcount(
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

    def beat_review(self, table_id: str, done: int) -> bool:
        """Say that this process still works the review out, and how far it is; False if it was taken over."""
        with Session(self.engine) as s, s.begin():
            return (
                _rowcount(
                    s.execute(
                        update(ReviewJobRow)
                        .where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin)
                        .values(done=done, beat=now())
                    )
                )
                == 1
            )

    def fail_review(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(ReviewJobRow)
                .where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin)
                .values(failed=True, beat=now())
            )

    def drop_review(self, table_id: str) -> None:
        """Let go of an unfinished review (the server stops): another process may start it at once."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ReviewJobRow).where(ReviewJobRow.table_id == table_id, ReviewJobRow.owner == self.origin))

    def get_review(self, table_id: str) -> dict | None:
        """The table's review, if one of this version's format is kept: an older one is worked out again."""
        with Session(self.engine) as s:
            body = s.scalar(
                select(ReviewRow.body).where(ReviewRow.table_id == table_id, ReviewRow.format == REVIEW_FORMAT)
            )
            return None if body is None else json.loads(body)

    # ---------------------------------------------------------------- reads
    def get(self, table_id: str, actions: bool = False) -> SavedTable | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return self._saved(s, [row], actions)[0]

    def token_hash(self, table_id: str, seat: int) -> str | None:
        """The stored hash of a human seat's token (None for a bot's seat or no such seat): enough to
        check a join without loading the table."""
        with Session(self.engine) as s:
            return s.scalar(
                select(SeatRow.token_hash).where(
                    SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human"
                )
            )

    def privacy(self, table_id: str) -> tuple[bool, list[str | None]] | None:
        """Whether the table is public, and its human seats' token hashes (web/privacy.py); None when there
        is no such table."""
        with Session(self.engine) as s:
            public = s.scalar(select(TableRow.public).where(TableRow.id == table_id))
            if public is None:
                return None
            return bool(public), list(
                s.scalars(
                    select(SeatRow.token_hash)
                    .where(SeatRow.table_id == table_id, SeatRow.kind == "human")
                    .order_by(SeatRow.seat)
                )
            )

    def join_facts(self, table_id: str, seat: int) -> tuple[str, str | None] | None:
        """The table's status and the stored hash of the human seat's token (None for a bot's seat or no such
        seat); None when there is no such table.  One small query, so a join is checked without loading."""
        return self._human_seat(table_id, seat, SeatRow.token_hash)

    def holder(self, table_id: str, seat: int) -> tuple[str, str | None] | None:
        """The table's status and the account that holds its human seat (None for a guest's, a bot's or no such
        seat); None when there is no such table."""
        return self._human_seat(table_id, seat, SeatRow.account_id)

    def _human_seat(self, table_id: str, seat: int, column) -> tuple[str, str | None] | None:
        with Session(self.engine) as s:
            row = s.execute(
                select(TableRow.status, column)
                .select_from(TableRow)
                .outerjoin(
                    SeatRow, (SeatRow.table_id == TableRow.id) & (SeatRow.seat == seat) & (SeatRow.kind == "human")
                )
                .where(TableRow.id == table_id)
            ).first()
            return None if row is None else (row[0], row[1])

    def unjoined(self, before: datetime) -> list[str]:
        """Tables created before ``before`` whose human seats nobody ever joined (at most EXPIRE_BATCH)."""
        with Session(self.engine) as s:
            return list(
                s.scalars(select(TableRow.id).where(*_unjoined(before)).order_by(TableRow.created).limit(EXPIRE_BATCH))
            )

    def ping(self) -> None:
        """Whether a move could be saved now; raises if not.  A database that answers reads may still
        take no write: an SQLite file another program holds write-locked (a copy in progress, a shell's
        open transaction), a PostgreSQL server in read-only mode (a standby, a full disk's safeguard)."""
        with self.engine.connect() as c:
            if self.engine.dialect.name != "sqlite":
                if c.execute(text("SELECT current_setting('transaction_read_only')")).scalar() != "off":
                    raise RuntimeError("the database takes no writes")
                return
            raw = c.connection.dbapi_connection
            assert raw is not None  # a connection just checked out of the pool is live
            raw.execute(f"PRAGMA busy_timeout={int(PING_WRITE_WAIT * 1000)}")
            try:
                raw.execute("BEGIN IMMEDIATE")  # the write lock, taken and let go: nothing is written
                raw.execute("ROLLBACK")
            finally:
                raw.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")

    def idle(self, before: datetime) -> list[str]:
        """Unfinished tables someone joined, idle since ``before``: nobody joined them since, no process found a
        socket on them since (:meth:`touch`) and no move was made since (at most EXPIRE_BATCH)."""
        with Session(self.engine) as s:
            return list(
                s.scalars(select(TableRow.id).where(*_idle(before)).order_by(TableRow.created).limit(EXPIRE_BATCH))
            )

    def load_used_since(self, since: datetime) -> list[SavedTable]:
        """The tables still waiting or playing that were used since ``since`` (created, joined, found in use or
        moved), with their actions, to be replayed at start: the rooms a running server would still hold."""
        moved = exists().where(ActionRow.table_id == TableRow.id, ActionRow.time >= since)
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow)
                .where(
                    TableRow.status.in_((WAITING, PLAYING)),
                    (func.coalesce(TableRow.touched, TableRow.created) >= since) | moved,
                )
                .order_by(TableRow.created)
            ).all()
            return self._saved(s, rows, True)

    def history(self, limit: int = 50) -> list[SavedTable]:
        """Finished public tables, newest first: a private one is its players' alone (web/privacy.py)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow)
                .where(TableRow.status == FINISHED, TableRow.public.is_(True))
                .order_by(TableRow.finished.desc(), TableRow.id)
                .limit(limit)
            ).all()
            return self._saved(s, rows, False)

    def lobby(self, limit: int) -> list[SavedTable]:
        """The open public tables, newest first: waiting, someone already sitting (so the creator's own
        seat is theirs before the table is offered) and a human seat free (nobody joined nor claimed it)."""
        seated = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human", SeatRow.joined.is_(True))
        free = exists().where(
            SeatRow.table_id == TableRow.id,
            SeatRow.kind == "human",
            SeatRow.joined.is_(False),
            SeatRow.claimed.is_(False),
        )
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow)
                .where(TableRow.public.is_(True), TableRow.status == WAITING, seated, free)
                .order_by(TableRow.created.desc(), TableRow.id)
                .limit(limit)
            ).all()
            return self._saved(s, rows, False)

    def public_facts(self, table_id: str) -> tuple[bool, str] | None:
        """Whether the table is public, and its status; None when there is no such table."""
        return self._flag_and_status(table_id, TableRow.public)

    def watch_facts(self, table_id: str) -> tuple[bool, str] | None:
        """Whether the table lets spectators watch, and its status; None when there is no such table (so a
        watch of a wrong id, a forbidden or a finished table never loads anything)."""
        return self._flag_and_status(table_id, TableRow.spectators)

    def _flag_and_status(self, table_id: str, flag) -> tuple[bool, str] | None:
        """One small query: a table's flag column and its status."""
        with Session(self.engine) as s:
            row = s.execute(select(flag, TableRow.status).where(TableRow.id == table_id)).first()
            return None if row is None else (bool(row[0]), row[1])

    def action_count(self, table_id: str) -> int:
        with Session(self.engine) as s:
            return s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id)) or 0

    @staticmethod
    def _saved(s: Session, rows, with_actions: bool) -> list[SavedTable]:
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

    # ---------------------------------------------------------------- the public archive (web/archive.py)
    def archive_end(self, after: tuple[datetime, str] | None, count: int) -> tuple[tuple[datetime, str] | None, bool]:
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

    def archive_page(
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
            return self._saved(s, rows, True)

    @staticmethod
    def _archived(after: tuple[datetime, str] | None) -> tuple[ColumnElement[bool], ...]:
        """A finished public table, after the (finished, id) key ``after`` if given: the archive's order."""
        listed = (TableRow.status == FINISHED, TableRow.public.is_(True), TableRow.finished.is_not(None))
        if after is None:
            return listed
        at, table_id = after
        later = (TableRow.finished > at) | ((TableRow.finished == at) & (TableRow.id > table_id))
        return (*listed, TableRow.finished >= at, later)


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


def _rowcount(result: Result) -> int:
    """The rows an UPDATE changed: the session hands back the cursor's own result, though typed as any result."""
    return cast(CursorResult, result).rowcount


def _table(s: Session, table_id: str) -> TableRow:
    """The row of a table that its caller knows is there."""
    row = s.get(TableRow, table_id)
    if row is None:
        raise LookupError(f"no table {table_id}")
    return row


def _finished(table_id: str, scores: list, winners: list):
    return (
        update(TableRow)
        .where(TableRow.id == table_id)
        .values(status=FINISHED, scores=scores, winners=winners, finished=now())
    )


def _idle(before: datetime) -> tuple:
    """An unfinished table someone joined (the others are :func:`_unjoined`'s), not used since ``before``."""
    joined = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human", SeatRow.joined.is_(True))
    moved = exists().where(ActionRow.table_id == TableRow.id, ActionRow.time >= before)
    return (
        TableRow.status.in_((WAITING, PLAYING)),
        joined,
        TableRow.created < before,
        func.coalesce(TableRow.touched, TableRow.created) < before,
        ~moved,
    )


def _unjoined(before: datetime) -> tuple:
    """A table still waiting, created before ``before``, with no human seat ever joined (bots' are)."""
    joined = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human", SeatRow.joined.is_(True))
    return TableRow.status == WAITING, TableRow.created < before, ~joined


def new_table_id() -> str:
    return secrets.token_urlsafe(6)


def _sqlite_pragmas(sync: str, dbapi_connection, _record) -> None:
    """WAL lets readers run beside the writer.  A commit survives the process being killed with
    either sync level; FULL (the default) also makes it survive a power cut, at an fsync per action."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={sync}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
