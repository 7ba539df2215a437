"""What every domain's rows share: one declarative ``Base`` (so one schema, checked against the migrations), the
database's clock and the count of rows a statement changed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


def now() -> datetime:
    """UTC without a zone: SQLite keeps no zones, and both databases then agree."""
    return datetime.now(UTC).replace(tzinfo=None)


def rowcount(result: Result) -> int:
    """The rows an UPDATE changed: the session hands back the cursor's own result, though typed as any result."""
    return cast(CursorResult, result).rowcount
