"""Where every table lives between two actions: its rows (:mod:`.rows`) written and read, each method one short
transaction.

Every write is its own committed transaction: when :meth:`Tables.append_action` returns, the action survives a
crash, which is why the server calls it before telling anyone about the action.  On PostgreSQL a write that
changes what other server processes show also sends them a notice (:mod:`..db.notices`), at its commit.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, exists, false, func, insert, select, text, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql import ColumnElement

from ..db.base import Base, now, rowcount
from ..db.database import Database
from ..db.notices import CHANNEL, Kind, action_args, encode, undo_args
from ..errors import Stale
from .rows import (
    BROKEN,
    EXPIRE_BATCH,
    EXPIRED,
    FINISHED,
    NOT_COPIED,
    PLAYING,
    WAITING,
    ActionRow,
    NoteRow,
    SavedTable,
    SeatRow,
    TableRow,
    finishing,
    new_table_id,
    saved,
    table_row,
)


class _Lost(Exception):
    """A rematch linked by someone else while this one was being created."""


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
process that has not heard that moves were taken back (:meth:`Tables.take_back`) cannot leave a gap behind them."""


class Tables:
    """The tables' rows; each method is one short transaction."""

    def __init__(self, db: Database):
        self.db = db
        self.engine = db.engine
        self.notifies = db.notifies
        self.origin = db.origin

    def notify(self, table_id: str, kind: Kind, *args) -> None:
        """A notice of the table's own (who is connected here): nothing is written."""
        self.db.notify(table_id, kind, *args)

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
            if rowcount(s.execute(update(SeatRow).where(*seat_row).values(**values))) != 1:
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
            self.db.notice(s, table_id, Kind.SEATS)
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
                    self.db.notice(s, table_id, Kind.EXPIRED)
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
            if self.db.hot is not None and result is None:
                self._append_notifying(self.db.hot, table_id, n, seat, action, clock)
                return
            with self.engine.begin() as c:  # Core, not the ORM's unit of work: this is the server's hottest write
                row = {"table_id": table_id, "n": n, "seat": seat, "action": action, "time": now(), "deadline": clock}
                if self.notifies and n > 0:
                    if c.execute(_APPEND_AFTER, row).first() is None:
                        raise Stale(f"action {n - 1} of table {table_id} was taken back by another server process")
                else:
                    c.execute(insert(Base.metadata.tables[ActionRow.__tablename__]).values(**row))
                if result is not None:
                    c.execute(finishing(table_id, *result))
                self.db.notice(c, table_id, Kind.ACTION, *action_args(n, seat, action, clock))
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
        again (docs/web-api.md, "Taking back a move").  One transaction: when another server process wrote or took
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
            self.db.notice(c, table_id, Kind.UNDO, *undo_args(keep, seat))

    def finish(self, table_id: str, scores: list, winners: list) -> None:
        """The match ended behind a coup-fourré window: it is finished when the window closes."""
        with Session(self.engine) as s, s.begin():
            s.execute(finishing(table_id, scores, winners))

    def forfeit(self, table_id: str, at: int, notes: list[dict], scores: list, winners: list) -> bool:
        """A seat left the rated match being played (web/tables/forfeits.py): the table is finished with this
        result and the log's ``notes`` after ``at`` actions, in one transaction, and the other server processes are
        told; False, and nothing written, when the table is not being played any more (finished meanwhile, here or
        at another process)."""
        with Session(self.engine) as s, s.begin():
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == PLAYING)
                .values(status=FINISHED, scores=scores, winners=winners, finished=now())
                .execution_options(synchronize_session=False)
            )
            if rowcount(done) != 1:
                return False
            self._add_notes(s, table_id, at, notes)
            self.db.notice(s, table_id, Kind.FORFEIT)
            return True

    def unrate(self, table_id: str, at: int, note: dict) -> bool:
        """A seat left the rated match before both sides played: the table is casual from now on (unrated for
        good), with the log's ``note`` of it; False, and nothing written, when it was not rated any more."""
        with Session(self.engine) as s, s.begin():
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rated.is_(True), TableRow.status == PLAYING)
                .values(rated=False)
                .execution_options(synchronize_session=False)
            )
            if rowcount(done) != 1:
                return False
            self._add_notes(s, table_id, at, [note])
            self.db.notice(s, table_id, Kind.SEATS)
            return True

    @staticmethod
    def _add_notes(s: Session, table_id: str, at: int, notes: list[dict]) -> None:
        n = s.scalar(select(func.count()).select_from(NoteRow).where(NoteRow.table_id == table_id)) or 0
        for i, note in enumerate(notes):
            s.add(NoteRow(table_id=table_id, n=n + i, at=at, event=note, time=now()))

    def held_by_accounts(self, table_id: str) -> bool:
        """Whether every human seat of the table is held by an account: a guest's seat leaves a match unrated."""
        with Session(self.engine) as s:
            guests = s.scalar(
                select(func.count())
                .select_from(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "human", SeatRow.account_id.is_(None))
            )
            return not guests

    def rated_playing(self, account_ids: list[str]) -> list[tuple[str, int]]:
        """The rated tables being played where these accounts hold a seat: (table, seat) each."""
        if not account_ids:
            return []
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(
                    SeatRow.account_id.in_(account_ids),
                    SeatRow.kind == "human",
                    TableRow.status == PLAYING,
                    TableRow.rated.is_(True),
                )
                .order_by(SeatRow.table_id, SeatRow.seat)
            ).all()
            return [(r.table_id, r.seat) for r in rows]

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
            self.db.notice(s, table_id, Kind.SEATS)

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
            if rowcount(done) == 1:
                self.db.notice(s, table_id, Kind.SEATS)
            return rowcount(done) == 1

    def mark_broken(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=BROKEN))

    # ---------------------------------------------------------------- rematch (web/tables/rematch.py)
    def create_rematch(self, table_id: str, seed: int) -> str:
        """The finished table's rematch, created now if it has none (or its rematch expired): a new
        waiting table with the same creation options and seats (a bot keeps its level, a human seat
        has no token yet), this ``seed``, and the link both ways.  One transaction, and the link is
        set only if nobody set it meanwhile, so two players accepting at once make one table."""
        for _ in range(5):
            try:
                with Session(self.engine) as s, s.begin():
                    old = table_row(s, table_id)
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
                    if rowcount(linked) != 1:
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
            self.db.notice(s, table_id, Kind.SEATS)
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
            row = table_row(s, table_id)
            humans = [
                x.joined
                for x in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.kind == "human"))
            ]
            if row.status == WAITING and humans and all(humans):
                row.status = PLAYING
            self.db.notice(s, table_id, Kind.SEATS)
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

    # ---------------------------------------------------------------- reads
    def get(self, table_id: str, actions: bool = False) -> SavedTable | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return saved(s, [row], actions)[0]

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
        """Whether the table is public, and its human seats' token hashes (web/tables/privacy.py); None when there
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

    def holders(self, table_id: str) -> list[tuple[int, str | None, str | None]]:
        """Each human seat of the table: (seat, its token's hash, the account that holds it), to tell whether
        a request is that seat's player (web/tables/privacy.py)."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatRow.seat, SeatRow.token_hash, SeatRow.account_id)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "human")
                .order_by(SeatRow.seat)
            ).all()
            return [(r[0], r[1], r[2]) for r in rows]

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
            return saved(s, rows, True)

    def history(self, limit: int = 50) -> list[SavedTable]:
        """Finished public tables, newest first: a private one is its players' alone (web/tables/privacy.py)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow)
                .where(TableRow.status == FINISHED, TableRow.public.is_(True))
                .order_by(TableRow.finished.desc(), TableRow.id)
                .limit(limit)
            ).all()
            return saved(s, rows, False)

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
            return saved(s, rows, False)

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

    def existing(self, ids: list[str]) -> set[str]:
        """Those of ``ids`` that are still tables (an operator may delete one: ``millebornes admin delete-table``)."""
        found: set[str] = set()
        for at in range(0, len(ids), EXPIRE_BATCH):
            with Session(self.engine) as s:
                found.update(s.scalars(select(TableRow.id).where(TableRow.id.in_(ids[at : at + EXPIRE_BATCH]))))
        return found

    def action_count(self, table_id: str) -> int:
        with Session(self.engine) as s:
            return s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id)) or 0


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
