"""Wrong passwords slow the guesser down, never the owner (OWASP ASVS 2.2; docs/web-api.md, "Accounts").

Only failures count, under keys that the guesser owns:

- the client address, whatever the names it tries (``Limits.failures_per_address`` free);
- the name and the address together (``Limits.failures_per_name`` free), so that wrong guesses from one address
  never refuse the owner's right password from another;
- a device that signed in to the account before (the ``mb_device`` cookie, :class:`.guard_repo.DeviceRow`) is
  counted on its own key instead: someone else's wrong guesses, from the owner's own address even, never lock
  the owner's browser out.

Past the free failures, each new one doubles the wait before the next try under that key (1 s, 2 s, 4 s... up to
``Limits.failure_wait_max``); a right password clears the name's key (not the address's).  A key left alone for
``FORGET`` after its wait is forgotten.  The counts are rows of the database (keyed by a SHA-256, so it holds no
name nor address), read and written in one transaction under the row's lock, so every process of the server
counts alike.  Guessing from many addresses at one name is slowed by argon2, by each address's own budget, and
made hopeless by the password rules (:mod:`.passwords`).
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.base import now, rowcount
from ..db.database import Database
from ..tokens import hash_token
from .guard_repo import DeviceRow, FailureRow
from .repo import AccountRow, username_key

FORGET = timedelta(hours=1)
"""A key with no failure for this long after its wait ended starts again from nothing."""
DEVICE_DAYS = 365
"""A device cookie's life after its last sign-in."""
DEVICE_COOKIE = "mb_device"
RETRIES = 3


@dataclass(frozen=True)
class Key:
    """One count of failures: its database key, how many failures are free under it, and whether a right password
    clears it (a name's or a device's does; an address's does not: a guesser's own account would reset it)."""

    key: str
    free: int
    cleared: bool = True


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class SignInGuard:
    """The failure counts and the devices, for the sign-in routes (and the password change)."""

    def __init__(self, db: Database, per_address: int, per_name: int, wait_max: float):
        self.engine = db.engine
        self.per_address = per_address
        self.per_name = per_name
        self.wait_max = wait_max

    def keys(self, name: str, address: str, device: str | None) -> list[Key]:
        """The keys a sign-in to ``name`` counts under: the device's alone when it signed in to that account
        before, else the address's and the name-and-address's."""
        if device is not None and self.trusted(device, name):
            return [Key(_key("device", hash_token(device)), self.per_name)]
        return [
            Key(_key("address", address), self.per_address, cleared=False),
            Key(_key("name", name.casefold(), address), self.per_name),
        ]

    def account_key(self, account_id: str) -> Key:
        """The key of a signed-in change that asks for the password again (a stolen session guessing it)."""
        return Key(_key("account", account_id), self.per_name)

    def wait(self, keys: list[Key]) -> int | None:
        """Whole seconds to wait before a try under these keys, or None when it may be tried now."""
        t = now()
        with Session(self.engine) as s:
            untils = s.scalars(select(FailureRow.until).where(FailureRow.key.in_([k.key for k in keys]))).all()
        left = max((u - t for u in untils if u is not None and u > t), default=None)
        return None if left is None else max(1, math.ceil(left.total_seconds()))

    def failed(self, keys: list[Key]) -> None:
        """Count a wrong password under each key, and set its wait once past its free failures."""
        t = now()
        for k in keys:
            for attempt in range(RETRIES):
                try:
                    self._count(k, t)
                    break
                except IntegrityError:  # another process made the row first: count on it
                    if attempt == RETRIES - 1:
                        raise
        with Session(self.engine) as s, s.begin():
            s.execute(delete(FailureRow).where(FailureRow.last < t - FORGET - timedelta(seconds=self.wait_max)))

    def _count(self, k: Key, t: datetime) -> None:
        with Session(self.engine) as s, s.begin():
            row = s.scalar(select(FailureRow).where(FailureRow.key == k.key).with_for_update())
            if row is None:
                row = FailureRow(key=k.key, failures=0, last=t, until=None)
                s.add(row)
            elif (row.until or row.last) + FORGET < t:
                row.failures, row.until = 0, None
            row.failures += 1
            row.last = t
            over = row.failures - k.free
            if over > 0:
                row.until = t + timedelta(seconds=min(self.wait_max, 2.0 ** min(over - 1, 40)))

    def succeeded(self, keys: list[Key]) -> None:
        """A right password: the name's (or the device's) count starts again; the address's keeps its count."""
        names = [k.key for k in keys if k.cleared]
        with Session(self.engine) as s, s.begin():
            s.execute(delete(FailureRow).where(FailureRow.key.in_(names)))

    # ---------------------------------------------------------------- devices
    def trusted(self, device: str, name: str) -> bool:
        """Whether the device's cookie signed in to the account named ``name`` before (and is still live)."""
        with Session(self.engine) as s:
            found = s.scalar(
                select(DeviceRow.token_hash)
                .join(AccountRow, AccountRow.id == DeviceRow.account_id)
                .where(
                    DeviceRow.token_hash == hash_token(device),
                    AccountRow.username_key == username_key(name),
                    DeviceRow.used > now() - timedelta(days=DEVICE_DAYS),
                )
            )
        return found is not None

    def remember(self, account_id: str, device: str | None) -> str:
        """The device cookie's token after a sign-in to the account: the browser's own when it already names this
        account, else a new one (a browser keeps one device cookie, for the account it last signed in to)."""
        t = now()
        with Session(self.engine) as s, s.begin():
            if device is not None:
                done = s.execute(
                    update(DeviceRow)
                    .where(DeviceRow.token_hash == hash_token(device), DeviceRow.account_id == account_id)
                    .values(used=t)
                )
                if rowcount(done):
                    return device
            token = secrets.token_urlsafe(32)
            s.add(DeviceRow(token_hash=hash_token(token), account_id=account_id, created=t, used=t))
            s.execute(delete(DeviceRow).where(DeviceRow.used < t - timedelta(days=DEVICE_DAYS)))
            return token

    def forget_devices(self, account_id: str) -> None:
        """Every device of the account is a stranger again (its password changed: a thief's browser too)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(DeviceRow).where(DeviceRow.account_id == account_id))
