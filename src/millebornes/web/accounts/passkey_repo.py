"""Passkeys in the database (docs/web-api.md, "Passkeys"): each account's WebAuthn credentials (their public keys
only) and the single-use challenges of registrations and sign-ins under way.  The WebAuthn checks themselves are
web/accounts/passkey_routes.py's.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, LargeBinary, String, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.sql import ColumnElement

from ..db.base import Base, now
from ..db.database import Database
from .repo import Account, AccountRow


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) registered to an account: its public key only, so a copy of the database
    signs nobody in."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """What the account's page names it by (DELETE /api/account/passkeys/{id}): not the credential's id."""
    credential_id: Mapped[str] = mapped_column(String(1366), unique=True, index=True)
    """Base64url, as the browser sends it: at most 1023 bytes (WebAuthn Level 3, "credential ID")."""
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """COSE-encoded, as the authenticator gave it."""
    sign_count: Mapped[int] = mapped_column(BigInteger)
    """The authenticator's counter (0 for those that keep none): one that goes back is a cloned key."""
    transports: Mapped[list] = mapped_column(JSON)
    """Hints the browser gave ("internal", "usb", ...), sent back in the options so it finds the key sooner."""
    name: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime)
    last_used: Mapped[datetime | None] = mapped_column(DateTime)


class ChallengeRow(Base):
    """A WebAuthn challenge waiting for its answer: used once (deleted as it is read), and only until it expires.
    A registration's belongs to its account (one at a time); a sign-in's to nobody, named by a random handle."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(43), primary_key=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    expires: Mapped[datetime] = mapped_column(DateTime, index=True)


@dataclass(frozen=True)
class Passkey:
    """What the account is shown of a passkey (never a key)."""

    id: str
    name: str
    created: datetime
    last_used: datetime | None


@dataclass(frozen=True)
class StoredPasskey:
    """What checking a sign-in needs of a passkey."""

    id: str
    account: Account
    public_key: bytes
    sign_count: int


class TooMany(Exception):
    """The account has as many passkeys as it may."""


class Known(Exception):
    """That credential is registered already (to this account or another)."""


class Passkeys:
    """The passkeys and their challenges, on the accounts' database.  Each method is one short transaction."""

    def __init__(self, db: Database):
        self.engine = db.engine

    def listed(self, account_id: str) -> list[Passkey]:
        with Session(self.engine) as s:
            rows = s.scalars(
                select(PasskeyRow).where(PasskeyRow.account_id == account_id).order_by(PasskeyRow.created)
            ).all()
            return [Passkey(r.id, r.name, r.created, r.last_used) for r in rows]

    def descriptors(self, account_id: str) -> list[tuple[str, list[str]]]:
        """The account's (credential id, transports), for the browser not to register one of them again."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(PasskeyRow.credential_id, PasskeyRow.transports).where(PasskeyRow.account_id == account_id)
            ).all()
            return [(c, list(t or [])) for c, t in rows]

    def challenge(self, challenge: bytes, lifetime: timedelta, account_id: str | None = None) -> str:
        """Keep a new challenge; its handle.  A registration's replaces the account's earlier one, and every
        expired challenge goes, so that the table holds no more than the live ones."""
        handle = secrets.token_urlsafe(32)
        t = now()
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ChallengeRow).where(ChallengeRow.expires <= t))
            if account_id is not None:
                s.execute(delete(ChallengeRow).where(ChallengeRow.account_id == account_id))
            s.add(ChallengeRow(id=handle, account_id=account_id, challenge=challenge, expires=t + lifetime))
        return handle

    def take_challenge(self, handle: str | None = None, account_id: str | None = None) -> bytes | None:
        """Use a challenge up: a sign-in's by its ``handle``, or else the ``account_id``'s registration challenge;
        None when unknown, used already or expired.  Deleting it is what reads it, so two requests bringing the
        same answer at once use it once between them."""
        where: ColumnElement[bool]
        if handle is not None:
            where = (ChallengeRow.id == handle) & ChallengeRow.account_id.is_(None)
        elif account_id is not None:
            where = ChallengeRow.account_id == account_id
        else:
            return None
        with Session(self.engine) as s, s.begin():
            found = s.execute(
                delete(ChallengeRow).where(where).returning(ChallengeRow.challenge, ChallengeRow.expires)
            ).first()
        if found is None or found.expires <= now():
            return None
        return found.challenge

    def count(self, account_id: str) -> int:
        with Session(self.engine) as s:
            return (
                s.scalar(select(func.count()).select_from(PasskeyRow).where(PasskeyRow.account_id == account_id)) or 0
            )

    def add(
        self,
        account_id: str,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        transports: list[str],
        name: str,
        most: int,
    ) -> Passkey:
        """Register a passkey; :class:`TooMany` when the account has ``most`` already (its row is locked while
        counting on PostgreSQL, so two registrations at once do not both pass), :class:`Known` when that
        credential is anyone's already."""
        passkey = Passkey(secrets.token_hex(8), name, now(), None)
        try:
            with Session(self.engine) as s, s.begin():
                s.execute(select(AccountRow.id).where(AccountRow.id == account_id).with_for_update())
                held = (
                    s.scalar(select(func.count()).select_from(PasskeyRow).where(PasskeyRow.account_id == account_id))
                    or 0
                )
                if held >= most:
                    raise TooMany(account_id)
                s.add(
                    PasskeyRow(
                        id=passkey.id,
                        credential_id=credential_id,
                        account_id=account_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        transports=transports,
                        name=name,
                        created=passkey.created,
                        last_used=None,
                    )
                )
        except IntegrityError as exc:
            raise Known(credential_id) from exc
        return passkey

    def find(self, credential_id: str) -> StoredPasskey | None:
        with Session(self.engine) as s:
            found = s.execute(
                select(PasskeyRow, AccountRow).join(AccountRow).where(PasskeyRow.credential_id == credential_id)
            ).first()
            if found is None:
                return None
            row, account = found
            return StoredPasskey(
                row.id,
                Account(account.id, account.username, account.created, account.disabled),
                row.public_key,
                row.sign_count,
            )

    def used(self, passkey_id: str, was: int, sign_count: int) -> bool:
        """Record a sign-in with the passkey: its new counter and when.  False when the counter is no longer
        ``was`` (another sign-in with it came first) or the passkey is gone: that sign-in is refused."""
        with Session(self.engine) as s, s.begin():
            done = s.scalars(
                update(PasskeyRow)
                .where(PasskeyRow.id == passkey_id, PasskeyRow.sign_count == was)
                .values(sign_count=sign_count, last_used=now())
                .returning(PasskeyRow.id)
            ).all()
            return bool(done)

    def rename(self, account_id: str, passkey_id: str, name: str) -> Passkey | None:
        """Give one of the account's passkeys a new name; None when it has none of that id."""
        with Session(self.engine) as s, s.begin():
            row = s.scalars(
                update(PasskeyRow)
                .where(PasskeyRow.id == passkey_id, PasskeyRow.account_id == account_id)
                .values(name=name)
                .returning(PasskeyRow)
            ).first()
            return None if row is None else Passkey(row.id, row.name, row.created, row.last_used)

    def remove(self, account_id: str, passkey_id: str) -> bool:
        """Delete one of the account's passkeys; False when it has none of that id."""
        with Session(self.engine) as s, s.begin():
            gone = s.scalars(
                delete(PasskeyRow)
                .where(PasskeyRow.id == passkey_id, PasskeyRow.account_id == account_id)
                .returning(PasskeyRow.id)
            ).all()
            return bool(gone)

    def purge_challenges(self, before: datetime) -> int:
        """Delete the challenges expired before ``before``; how many."""
        with Session(self.engine) as s, s.begin():
            return len(
                s.scalars(delete(ChallengeRow).where(ChallengeRow.expires < before).returning(ChallengeRow.id)).all()
            )
