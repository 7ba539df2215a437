"""Wrong passwords counted in the database, so that every server process throttles alike: the rows of
:mod:`.guard` (which decides) and the devices that signed in to an account before."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db.base import Base


class FailureRow(Base):
    """Wrong passwords under one key (an address, a name and an address, a device): the SHA-256 of what it counts,
    so the table holds no name nor address."""

    __tablename__ = "signin_failures"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last: Mapped[datetime] = mapped_column(DateTime, index=True)
    until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """No sign-in is tried under this key before then."""


class DeviceRow(Base):
    """A browser that signed in to the account (its cookie's token hashed): someone else's wrong guesses never lock
    it out."""

    __tablename__ = "account_devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    used: Mapped[datetime] = mapped_column(DateTime, index=True)
