"""The accounts in the database: who signed up, their sign-ins, and the seats they hold (docs/web-api.md, "Accounts").

An account is optional: anyone still plays as a guest with a nickname and a link.  One keeps a person's tables
across devices.  Its password is stored as an argon2id hash (web/accounts/signin.py hashes and checks it, never this
module), and each sign-in as the SHA-256 of its cookie's random token with a CSRF token beside it, so that a copy
of the database opens no session.  A seat belongs to an account through ``seats.account_id``, set when a signed-in
person brings the seat's token (their own "My tables" from a guest's browser): holding the link is what proves
the seat theirs.  Deleting an account deletes its sign-ins and takes its name off its seats (their nicknames
too): its games stay, anonymised.  Each method is one short transaction, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.base import Base, now, rowcount
from ..db.database import Database
from ..tables.rows import SeatRow, TableRow
from ..tokens import hash_token, token_opens


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    """As its owner wrote it."""
    username_key: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    """Lower case: two accounts never differ by case alone."""
    password_hash: Mapped[str] = mapped_column(String(256))
    created: Mapped[datetime] = mapped_column(DateTime)
    disabled: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When an operator disabled the account (``millebornes admin``); None while it may sign in."""
    signup_address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The client address it was made from: the operators' list of sign-ups, and the ratings' guard against
    accounts made together rating each other."""


class SessionRow(Base):
    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    id: Mapped[str | None] = mapped_column(String(16), unique=True, index=True)
    """What the account page names the sign-in by (to sign it out): never its token."""
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    agent: Mapped[str | None] = mapped_column(String(160), nullable=True)
    """The browser's ``User-Agent`` as sent, cut to 160 characters: the page words it as a browser and a system."""
    csrf: Mapped[str] = mapped_column(String(64))
    """Sent back in ``X-CSRF-Token`` by the page with every change: a page of another site cannot read it."""
    created: Mapped[datetime] = mapped_column(DateTime)
    seen: Mapped[datetime] = mapped_column(DateTime)
    expires: Mapped[datetime] = mapped_column(DateTime, index=True)


@dataclass(frozen=True)
class Account:
    id: str
    username: str
    created: datetime
    disabled: datetime | None = None


@dataclass(frozen=True)
class SignedIn:
    """A live sign-in: its account and the CSRF token its changes must carry."""

    account: Account
    csrf: str
    token_hash: str
    id: str


@dataclass(frozen=True)
class Device:
    """A live sign-in as the account page lists it: never its token."""

    id: str
    created: datetime
    seen: datetime
    expires: datetime
    address: str | None
    agent: str | None


@dataclass(frozen=True)
class HeldSeat:
    """A seat an account holds, with what "My tables" shows of its table."""

    table_id: str
    seat: int
    ruleset: str
    players: int
    teams: bool
    status: str
    public: bool
    created: datetime
    finished: datetime | None
    scores: list | None
    winners: list | None
    nickname: str | None


class Taken(Exception):
    """The username is another account's (whatever its case)."""


def username_key(username: str) -> str:
    return username.casefold()


class Accounts:
    """The accounts' reads and writes, on the tables' database (the same engine, so one backup holds both)."""

    def __init__(self, db: Database):
        self.db = db
        self.engine = db.engine

    def create(self, username: str, password_hash: str, address: str | None = None) -> Account:
        """A new account, made from client ``address``; :class:`Taken` when the name is another's (the unique index
        decides, so two processes signing up the same name at once make one account)."""
        account = Account(secrets.token_hex(8), username, now())
        row = AccountRow(
            id=account.id,
            username=username,
            username_key=username_key(username),
            password_hash=password_hash,
            created=account.created,
            signup_address=None if address is None else address[:64],
        )
        try:
            with Session(self.engine) as s, s.begin():
                s.add(row)
        except IntegrityError as exc:
            raise Taken(username) from exc
        return account

    def credentials(self, username: str) -> tuple[Account, str] | None:
        """The account of that name (any case) and its password hash, or None."""
        with Session(self.engine) as s:
            row = s.scalar(select(AccountRow).where(AccountRow.username_key == username_key(username)))
            return None if row is None else (_account(row), row.password_hash)

    def signups_since(self, address: str, since: datetime, limit: int) -> list[datetime]:
        """When the accounts made from ``address`` since then were made, the newest ``limit`` of them, oldest first
        (the sign-up limit, site-wide)."""
        with Session(self.engine) as s:
            made = s.scalars(
                select(AccountRow.created)
                .where(AccountRow.signup_address == address, AccountRow.created >= since)
                .order_by(AccountRow.created.desc())
                .limit(limit)
            ).all()
            return sorted(made)

    def set_password(self, account_id: str, password_hash: str, keep: str | None) -> int:
        """A new password: every sign-in of the account but ``keep`` (a token hash) ends; how many ended."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))
            return self._close_others(s, account_id, keep)

    def password_hash(self, account_id: str) -> str | None:
        with Session(self.engine) as s:
            return s.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))

    def rehash(self, account_id: str, password_hash: str) -> None:
        """Store the hash of the same password made with today's parameters (web/accounts/signin.py)."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    # ---------------------------------------------------------------- sign-ins
    def open_session(
        self, account_id: str, lifetime: timedelta, address: str | None = None, agent: str | None = None
    ) -> tuple[str, str]:
        """A new sign-in from client ``address`` with browser ``agent``: (the cookie's token, its CSRF token); only
        the token's hash is kept."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        t = now()
        with Session(self.engine) as s, s.begin():
            s.add(
                SessionRow(
                    token_hash=hash_token(token),
                    id=secrets.token_hex(8),
                    account_id=account_id,
                    address=address,
                    agent=None if agent is None else agent[:160],
                    csrf=csrf,
                    created=t,
                    seen=t,
                    expires=t + lifetime,
                )
            )
        return token, csrf

    def session(
        self, token: str, lifetime: timedelta, touch_every: timedelta, longest: timedelta | None = None
    ) -> SignedIn | None:
        """The live sign-in of a cookie's token, or None (unknown, expired or past ``longest`` since it was made:
        deleted; or its account disabled).  Its expiry moves on with use, written at most once every
        ``touch_every``, never past ``longest`` after it was made."""
        key = hash_token(token)
        t = now()
        with Session(self.engine) as s, s.begin():
            found = s.execute(
                select(SessionRow, AccountRow).join(AccountRow).where(SessionRow.token_hash == key)
            ).first()
            if found is None:
                return None
            row, account = found
            if row.expires <= t or (longest is not None and row.created + longest <= t):
                s.delete(row)
                return None
            if account.disabled is not None:
                return None
            if t - row.seen >= touch_every:
                end = t + lifetime
                row.seen, row.expires = t, end if longest is None else min(end, row.created + longest)
            return SignedIn(_account(account), row.csrf, key, row.id or "")

    def close_session(self, token_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def close_device(self, account_id: str, session_id: str) -> str | None:
        """End the account's sign-in of that public id; its token hash, or None when it has none such."""
        with Session(self.engine) as s, s.begin():
            gone = s.scalars(
                delete(SessionRow)
                .where(SessionRow.account_id == account_id, SessionRow.id == session_id)
                .returning(SessionRow.token_hash)
            ).all()
            return gone[0] if gone else None

    def close_others(self, account_id: str, keep: str) -> int:
        """End every sign-in of the account but the one of token hash ``keep``; how many ended."""
        with Session(self.engine) as s, s.begin():
            return self._close_others(s, account_id, keep)

    @staticmethod
    def _close_others(s: Session, account_id: str, keep: str | None) -> int:
        return len(
            s.scalars(
                delete(SessionRow)
                .where(SessionRow.account_id == account_id, SessionRow.token_hash != (keep or ""))
                .returning(SessionRow.token_hash)
            ).all()
        )

    def devices(self, account_id: str, at: datetime) -> list[Device]:
        """The account's live sign-ins (expired at ``at`` left out), the last used first."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(SessionRow)
                .where(SessionRow.account_id == account_id, SessionRow.expires > at)
                .order_by(SessionRow.seen.desc(), SessionRow.created.desc())
            ).all()
            return [Device(r.id or "", r.created, r.seen, r.expires, r.address, r.agent) for r in rows]

    def sessions(self, account_id: str) -> list[dict]:
        """The account's sign-ins, for its export (when and where made, on what, last used: never a token)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(SessionRow).where(SessionRow.account_id == account_id).order_by(SessionRow.created)
            ).all()
            return [
                {"created": r.created, "seen": r.seen, "expires": r.expires, "address": r.address, "agent": r.agent}
                for r in rows
            ]

    def purge_sessions(self, before: datetime) -> int:
        """Delete the sign-ins expired before ``before``; how many."""
        with Session(self.engine) as s, s.begin():
            return len(
                s.scalars(delete(SessionRow).where(SessionRow.expires < before).returning(SessionRow.token_hash)).all()
            )

    # ---------------------------------------------------------------- seats
    def claim(self, account_id: str, seats: list[tuple[str, int, str]]) -> list[tuple[str, int]]:
        """Give the account each (table, seat, token) whose token opens that human seat, which someone joined
        and which no account holds yet; the seats it now holds of those asked for.  A wrong token, a seat nobody
        sat at yet, or a seat another account holds, is passed over, saying nothing of why.

        Only a joined seat: its first join replaced the invite's token, so a table's creator, whose page lists
        every invite, cannot bring the invited players' seats into an account (and open them from it)."""
        held: list[tuple[str, int]] = []
        with Session(self.engine) as s, s.begin():
            for table_id, seat, token in seats:
                row = s.get(SeatRow, (table_id, seat))
                if row is None or row.kind != "human" or not row.joined or not token_opens(row.token_hash, token):
                    continue
                if row.account_id is None and not self._another_rated_seat(s, account_id, table_id, seat):
                    # only if still free as it is written: two accounts claiming one seat at once, one gets it
                    taken = s.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.account_id.is_(None))
                        .values(account_id=account_id)
                        .execution_options(synchronize_session=False)
                    )
                    if rowcount(taken) == 1:
                        held.append((table_id, seat))
                elif row.account_id == account_id:
                    held.append((table_id, seat))
        return held

    @staticmethod
    def _another_rated_seat(s: Session, account_id: str, table_id: str, seat: int) -> bool:
        """Whether the account holds another seat of this table and the table is rated: one person, one seat,
        where the match rates them (playing both sides would rate a match against oneself)."""
        rated = s.scalar(select(TableRow.rated).where(TableRow.id == table_id))
        if not rated:
            return False
        return (
            s.scalar(
                select(SeatRow.seat).where(
                    SeatRow.table_id == table_id, SeatRow.account_id == account_id, SeatRow.seat != seat
                )
            )
            is not None
        )

    def seats(self, account_id: str, limit: int) -> list[HeldSeat]:
        """The seats the account holds, newest table first, at most ``limit``."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatRow, TableRow)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account_id)
                .order_by(TableRow.created.desc(), TableRow.id, SeatRow.seat)
                .limit(limit)
            ).all()
            return [
                HeldSeat(
                    t.id,
                    seat.seat,
                    t.ruleset,
                    t.players,
                    t.teams,
                    t.status,
                    t.public,
                    t.created,
                    t.finished,
                    t.scores,
                    t.winners,
                    seat.nickname,
                )
                for seat, t in rows
            ]

    def holds(self, account_id: str, table_id: str) -> bool:
        """Whether the account holds a seat of the table (a private table's replay and review then open to it)."""
        with Session(self.engine) as s:
            found = s.scalar(
                select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.account_id == account_id).limit(1)
            )
            return found is not None

    def delete(self, account_id: str) -> bool:
        """Delete the account and its sign-ins; its seats keep their games but lose its name and their nicknames.
        Its passkeys and ratings go with it through their foreign keys (``ON DELETE CASCADE``; the database turns
        SQLite's ``foreign_keys`` on for every connection).  A person's bot accounts are deleted first by the caller
        (``Bots.delete_owned``, web/botaccounts/repo.py, which builds on this module).  False when there was no such
        account."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.account_id == account_id)
                .values(account_id=None, nickname=None)
                .execution_options(synchronize_session=False)
            )
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            gone = s.scalars(delete(AccountRow).where(AccountRow.id == account_id).returning(AccountRow.id)).all()
            return bool(gone)


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.created, row.disabled)
