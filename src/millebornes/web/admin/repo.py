"""The rows the operator's commands read and write, each method one short transaction, on SQLite and PostgreSQL
alike.  The commands run beside the server (another process, maybe on another machine): what they change reaches
the server processes through the database itself, as each process reads it (a bot's connection checks its account
every few seconds, web/botaccounts/socket.py; the hall's sweep drops the room of a deleted table,
web/tables/sweeper.py), and on PostgreSQL also through a notice."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from ..accounts.guard_repo import DeviceRow
from ..accounts.repo import AccountRow, SessionRow, username_key
from ..botaccounts.repo import BotRow
from ..db.base import Base, now
from ..db.database import Database
from ..db.notices import Kind
from ..ratings import repo as _ratings
from ..ratings import stats_repo as _stats
from ..reviews import puzzle_repo as _puzzles
from ..reviews import repo as _reviews
from ..tables.rows import TableRow

MODELS = (_ratings, _stats, _reviews, _puzzles)
"""Every model module with rows of a table: imported so that :data:`Base`'s metadata knows them all."""


@dataclass(frozen=True)
class Found:
    """An account as the operator sees it."""

    id: str
    username: str
    created: datetime
    disabled: datetime | None
    signup_address: str | None
    owner: str | None
    """A bot's owner's username; None for a person's account."""


@dataclass(frozen=True)
class Signup:
    username: str
    created: datetime
    address: str | None
    disabled: datetime | None


@dataclass(frozen=True)
class Disabling:
    """What disabling an account did."""

    since: datetime
    """When it was disabled (an earlier disabling keeps its time)."""
    signins: int
    devices: int
    bots: list[str]
    """The names of the bots whose connection must close: the account itself if a bot, else the bots it owns."""


class Admin:
    """The operator's reads and writes, on the server's database."""

    def __init__(self, db: Database):
        self.db = db
        self.engine = db.engine

    def account(self, username: str) -> Found | None:
        """The account of that name (any case), a person's or a bot's, or None."""
        owner = aliased(AccountRow)
        with Session(self.engine) as s:
            found = s.execute(
                select(AccountRow, owner.username)
                .outerjoin(BotRow, BotRow.account_id == AccountRow.id)
                .outerjoin(owner, owner.id == BotRow.owner_id)
                .where(AccountRow.username_key == username_key(username))
            ).first()
            if found is None:
                return None
            a, owned_by = found
            return Found(a.id, a.username, a.created, a.disabled, a.signup_address, owned_by)

    def disable(self, account_id: str) -> Disabling:
        """The account disabled (from now, or since an earlier disabling), its sign-ins and known devices deleted,
        and its bots' (or, a bot's, its own) connection marked ended, so that no table challenges them meanwhile."""
        at = now()
        with Session(self.engine) as s, s.begin():
            row = s.get(AccountRow, account_id, with_for_update=True)
            if row is None:
                raise LookupError(account_id)
            if row.disabled is None:
                row.disabled = at
            signins = len(
                s.scalars(
                    delete(SessionRow).where(SessionRow.account_id == account_id).returning(SessionRow.token_hash)
                ).all()
            )
            known = delete(DeviceRow).where(DeviceRow.account_id == account_id).returning(DeviceRow.token_hash)
            devices = len(s.scalars(known).all())
            hit = or_(BotRow.account_id == account_id, BotRow.owner_id == account_id)
            bots = list(
                s.scalars(
                    select(AccountRow.username)
                    .join(BotRow, BotRow.account_id == AccountRow.id)
                    .where(hit)
                    .order_by(AccountRow.username_key)
                )
            )
            s.execute(update(BotRow).where(hit).values(connection=None))
            return Disabling(row.disabled, signins, devices, bots)

    def enable(self, account_id: str) -> datetime | None:
        """The account may sign in again (its bots connect again); when it had been disabled, or None."""
        with Session(self.engine) as s, s.begin():
            row = s.get(AccountRow, account_id, with_for_update=True)
            if row is None:
                raise LookupError(account_id)
            was, row.disabled = row.disabled, None
            return was

    def signups(self, since: datetime, address: str | None, limit: int) -> list[Signup]:
        """People's accounts made since ``since`` (bots are made by their owners, not signed up), from ``address``
        alone if given, newest first, at most ``limit``."""
        query = (
            select(AccountRow)
            .outerjoin(BotRow, BotRow.account_id == AccountRow.id)
            .where(BotRow.account_id.is_(None), AccountRow.created >= since)
        )
        if address is not None:
            query = query.where(AccountRow.signup_address == address)
        with Session(self.engine) as s:
            rows = s.scalars(query.order_by(AccountRow.created.desc(), AccountRow.username_key).limit(limit)).all()
            return [Signup(r.username, r.created, r.signup_address, r.disabled) for r in rows]

    def table(self, table_id: str) -> tuple[str, bool] | None:
        """The table's status and whether it is rated; None when there is no such table."""
        with Session(self.engine) as s:
            row = s.execute(select(TableRow.status, TableRow.rated).where(TableRow.id == table_id)).first()
            return None if row is None else (row[0], bool(row[1]))

    def delete_table(self, table_id: str) -> dict[str, int]:
        """The table and every row of it (its seats, actions, notes, review, puzzles, rating history lines, per-seat
        counts), and the rematch links to it, in one transaction; on PostgreSQL the server processes hear that it
        expired (a room nobody is connected to leaves memory at once).  The rows deleted, by table; empty when there
        was no such table."""
        gone: dict[str, int] = {}
        with Session(self.engine) as s, s.begin():
            if s.get(TableRow, table_id, with_for_update=True) is None:
                return gone
            for t in reversed(Base.metadata.sorted_tables):
                for fk in t.foreign_keys:
                    if fk.column.table.name == TableRow.__tablename__ and t.name != TableRow.__tablename__:
                        n = s.execute(select(func.count()).select_from(t).where(fk.parent == table_id)).scalar() or 0
                        if n:
                            s.execute(delete(t).where(fk.parent == table_id))
                            gone[t.name] = n
            s.execute(update(TableRow).where(TableRow.rematch == table_id).values(rematch=None))
            s.execute(update(TableRow).where(TableRow.rematch_of == table_id).values(rematch_of=None))
            s.execute(delete(TableRow).where(TableRow.id == table_id))
            gone[TableRow.__tablename__] = 1
            self.db.notice(s, table_id, Kind.EXPIRED)
        return gone
