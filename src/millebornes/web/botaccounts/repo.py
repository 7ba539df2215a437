"""Bot accounts in the database (docs/web-api.md, "Bots online"): programs that play through ``/ws/bot`` under an
account of their own, made and owned by a person's account.

A bot is an ``accounts`` row like a person's (its username in the same namespace, its own ratings, the seats it
holds through ``seats.account_id``) plus a ``bots`` row: its owner, the SHA-256 of its token (the token itself is
shown once, when it is made, and never kept), when it was made and last connected, and the id of its live
connection.  Its password hash is :data:`NO_PASSWORD`, which no password matches (argon2 refuses it as a hash), so
a bot never signs in.  Each method is one short transaction, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column

from ..accounts.repo import Account, AccountRow, Accounts, Taken, username_key
from ..db.base import Base, now
from ..db.database import Database
from ..db.notices import WITHDRAWN_NOTICE, Kind
from ..tables.rows import EXPIRED, PLAYING, WAITING, SeatRow, TableRow
from ..tokens import hash_token

NO_PASSWORD = "!bot"
"""A bot account's password hash: not an argon2 hash, so every password check says no."""
TOKEN_PREFIX = "mbb_"
"""Tokens start with it, so that a token pasted in the wrong place is recognised (and a secret scanner finds it)."""


class BotRow(Base):
    __tablename__ = "bots"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)
    """None once the token was revoked and not renewed."""
    created: Mapped[datetime] = mapped_column(DateTime)
    last_connected: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    connection: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The id of the bot's live WebSocket: a newer one replaces it, and the older one, at any process, closes; None
    once it ended (:meth:`Bots.disconnect`), so that "connected" means at some process (a process that died leaves
    its id: a challenge there goes unanswered, and is declined)."""
    accepts: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    """The tables the live connection's hello said the bot takes (web/botaccounts/accepts.py), so that every
    process refuses a challenge outside them; None: any (or no live connection)."""


@dataclass(frozen=True)
class Bot:
    account_id: str
    username: str
    owner_id: str
    created: datetime
    last_connected: datetime | None
    revoked: bool
    connected: bool = False
    """Its row names a live connection, at some server process (a process that died leaves a stale one)."""
    accepts: dict[str, Any] | None = None
    """What its live connection takes (web/botaccounts/accepts.py); None: any."""


@dataclass(frozen=True)
class Online:
    """A bot connected now, as anybody may see it (docs/web-api.md, "Bots online"): never its token."""

    account_id: str
    username: str
    owner: str
    tables: int
    """Live tables (waiting or playing) where its account holds a seat, challenges not yet answered included."""
    accepts: dict[str, Any] | None


class TooMany(Exception):
    """The owner has as many bots as one person may."""


class Disabled(Exception):
    """The bot's account, or its owner's, was disabled by the server's operator (``millebornes admin disable``):
    its token opens nothing while it is.  ``owner``: the owner's account is the disabled one."""

    def __init__(self, owner: bool):
        super().__init__("owner" if owner else "bot")
        self.owner = owner


def new_bot_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class Bots:
    """The bot accounts' reads and writes, on the tables' database."""

    def __init__(self, db: Database):
        self.db = db
        self.engine = db.engine
        self.accounts = Accounts(db)

    def create(self, owner_id: str, username: str, most: int, address: str | None = None) -> tuple[Bot, str]:
        """A new bot of ``owner_id`` and its token (shown once), made from the owner's client ``address`` (the
        ratings compare it as a person's: web/ratings/repo.py); :class:`Taken` when the name is any account's,
        :class:`TooMany` past ``most`` bots.  The owner's row is locked, so two requests at once cannot both pass
        the count."""
        token, at = new_bot_token(), now()
        bot = Bot(secrets.token_hex(8), username, owner_id, at, None, False)
        try:
            with Session(self.engine) as s, s.begin():
                s.execute(select(AccountRow.id).where(AccountRow.id == owner_id).with_for_update())
                count = s.scalar(select(func.count()).select_from(BotRow).where(BotRow.owner_id == owner_id)) or 0
                if count >= most:
                    raise TooMany(owner_id)
                s.add(
                    AccountRow(
                        id=bot.account_id,
                        username=username,
                        username_key=username_key(username),
                        password_hash=NO_PASSWORD,
                        created=at,
                        signup_address=None if address is None else address[:64],
                    )
                )
                s.flush()
                s.add(BotRow(account_id=bot.account_id, owner_id=owner_id, token_hash=hash_token(token), created=at))
        except IntegrityError as exc:
            raise Taken(username) from exc
        return bot, token

    def owned(self, owner_id: str) -> list[Bot]:
        """The owner's bots, oldest first."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(BotRow, AccountRow)
                .join(AccountRow, AccountRow.id == BotRow.account_id)
                .where(BotRow.owner_id == owner_id)
                .order_by(BotRow.created, AccountRow.username_key)
            ).all()
            return [_bot(b, a) for b, a in rows]

    def named(self, username: str) -> Bot | None:
        """The bot of that name (any case), or None (no account of that name, or a person's)."""
        with Session(self.engine) as s:
            found = s.execute(
                select(BotRow, AccountRow)
                .join(AccountRow, AccountRow.id == BotRow.account_id)
                .where(AccountRow.username_key == username_key(username))
            ).first()
            return None if found is None else _bot(*found)

    def online(self, most: int) -> list[Online]:
        """The bots whose row names a live connection and whose token opens them, the latest connected first, at
        most ``most``, each with its owner's name and its live tables (in one read: a page asks every few
        seconds)."""
        owner = aliased(AccountRow)
        with Session(self.engine) as s:
            rows = s.execute(
                select(BotRow.account_id, AccountRow.username, owner.username, BotRow.accepts)
                .join(AccountRow, AccountRow.id == BotRow.account_id)
                .join(owner, owner.id == BotRow.owner_id)
                .where(BotRow.connection.is_not(None), BotRow.token_hash.is_not(None))
                .order_by(BotRow.last_connected.desc(), AccountRow.username_key)
                .limit(most)
            ).all()
            ids = [r[0] for r in rows]
            live = dict(
                s.execute(
                    select(SeatRow.account_id, func.count(func.distinct(SeatRow.table_id)))
                    .join(TableRow, TableRow.id == SeatRow.table_id)
                    .where(
                        SeatRow.account_id.in_(ids),
                        SeatRow.kind == "human",
                        TableRow.status.in_((WAITING, PLAYING)),
                    )
                    .group_by(SeatRow.account_id)
                ).all()
            )
        return [Online(i, name, owner_name, int(live.get(i, 0)), accepts) for i, name, owner_name, accepts in rows]

    def owner_of(self, account_id: str) -> str | None:
        """The username of the person who owns this bot account; None for a person's account."""
        owner = aliased(AccountRow)
        with Session(self.engine) as s:
            return s.scalar(
                select(owner.username).join(BotRow, BotRow.owner_id == owner.id).where(BotRow.account_id == account_id)
            )

    def of_owner(self, owner_id: str, username: str) -> Bot | None:
        bot = self.named(username)
        return bot if bot is not None and bot.owner_id == owner_id else None

    def renew(self, account_id: str) -> str:
        """A new token for the bot; the old one opens nothing from now on."""
        token = new_bot_token()
        self._set_token(account_id, hash_token(token))
        return token

    def revoke(self, account_id: str) -> None:
        self._set_token(account_id, None)

    def _set_token(self, account_id: str, token_hash: str | None) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(BotRow)
                .where(BotRow.account_id == account_id)
                .values(token_hash=token_hash, connection=None, accepts=None)
            )

    def delete(self, account_id: str) -> None:
        """The bot's account goes as a person's does (its games stay, anonymised), its ``bots`` row with it."""
        self.accounts.delete(account_id)

    def delete_owned(self, owner_id: str) -> None:
        """An owner's account is being deleted: its bots go first."""
        for bot in self.owned(owner_id):
            self.delete(bot.account_id)

    # ---------------------------------------------------------------- the bot's connection (web/botaccounts/gateway.py)
    def connect(self, token: str, connection: str) -> Account | None:
        """The bot account the token opens, now connected as ``connection`` (which replaces any other); None for
        a wrong or revoked token; :class:`Disabled` (and not connected) while the bot or its owner is disabled."""
        owner = aliased(AccountRow)
        with Session(self.engine) as s, s.begin():
            found = s.execute(
                select(BotRow, AccountRow, owner.disabled)
                .join(AccountRow, AccountRow.id == BotRow.account_id)
                .join(owner, owner.id == BotRow.owner_id)
                .where(BotRow.token_hash == hash_token(token))
            ).first()
            if found is None:
                return None
            row, account, owner_disabled = found
            if account.disabled is not None or owner_disabled is not None:
                raise Disabled(account.disabled is None)
            row.connection, row.last_connected, row.accepts = connection, now(), None
            return Account(account.id, account.username, account.created)

    def lost(self, account_id: str, token: str, connection: str) -> str | None:
        """Why ``connection`` may no longer play for the bot: ``token`` (revoked, renewed, or the bot deleted),
        ``disabled`` (the bot or its owner disabled by the operator), ``replaced`` (a newer connection took over);
        None while it may."""
        owner = aliased(AccountRow)
        with Session(self.engine) as s:
            found = s.execute(
                select(BotRow, AccountRow.disabled, owner.disabled)
                .join(AccountRow, AccountRow.id == BotRow.account_id)
                .join(owner, owner.id == BotRow.owner_id)
                .where(BotRow.account_id == account_id)
            ).first()
            if found is None or found[0].token_hash != hash_token(token):
                return "token"
            row, bot_disabled, owner_disabled = found
            if bot_disabled is not None or owner_disabled is not None:
                return "disabled"
            return None if row.connection == connection else "replaced"

    def disconnect(self, account_id: str, connection: str) -> None:
        """The connection ended: the bot is no longer connected, unless a newer connection replaced this one."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(BotRow)
                .where(BotRow.account_id == account_id, BotRow.connection == connection)
                .values(connection=None, accepts=None)
            )

    def accept(self, account_id: str, connection: str, accepts: dict[str, Any]) -> None:
        """What ``connection``'s hello said the bot takes, kept while it is the bot's live connection."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(BotRow)
                .where(BotRow.account_id == account_id, BotRow.connection == connection)
                .values(accepts=accepts)
            )

    def seats_held(self, account_id: str, most: int) -> list[tuple[str, int]]:
        """The seats the bot sat down at and still holds at live tables (waiting or playing), the newest tables
        first, at most ``most``: (table, seat) each, for a new connection to take back, at any process."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(
                    SeatRow.account_id == account_id,
                    SeatRow.kind == "human",
                    SeatRow.joined.is_(True),
                    TableRow.status.in_((WAITING, PLAYING)),
                )
                .order_by(TableRow.created.desc(), TableRow.id)
                .limit(most)
            ).all()
            return [(r.table_id, r.seat) for r in rows]

    def challenge_open(self, table_id: str, seat: int, account_id: str) -> str | None:
        """The stand-in level of the waiting table whose seat the bot holds and has not sat down at (its
        challenge is open); None once it sat down, or the seat went to a built-in bot, or the table moved on."""
        with Session(self.engine) as s:
            return s.scalar(
                select(TableRow.standin_level)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(
                    TableRow.id == table_id,
                    TableRow.status == WAITING,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.account_id == account_id,
                    SeatRow.joined.is_(False),
                )
            )

    def withdraw(self, table_id: str) -> bool:
        """A bot's seek nobody took: its table, still waiting, is expired (every process hears it); False once its
        match started."""
        with Session(self.engine) as s, s.begin():
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == WAITING)
                .values(status=EXPIRED, touched=now())
                .execution_options(synchronize_session=False)
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                self.db.notice(s, table_id, Kind.EXPIRED, WITHDRAWN_NOTICE)
            return done.rowcount == 1  # type: ignore[attr-defined]

    def hold_seat(self, table_id: str, seat: int, account_id: str) -> None:
        """The bot's account holds the seat it was challenged to (a rated table rates it there), and the seat is
        not free: the lobby never offers it to a stranger."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(account_id=account_id, claimed=True)
            )


def _bot(b: BotRow, a: AccountRow) -> Bot:
    return Bot(
        b.account_id,
        a.username,
        b.owner_id,
        b.created,
        b.last_connected,
        b.token_hash is None,
        b.connection is not None,
        b.accepts,
    )
