"""``millebornes backup``: a consistent copy of a served SQLite database, taken while the server runs.

SQLite's online backup copies the pages of one read transaction: in WAL mode the server's writers go on
meanwhile, and the copy is the database as of that transaction's start, every committed action in it and no
half-written one.  The copy is made beside the target under another name, checked (``PRAGMA
integrity_check``), written to disk, then linked into place: a backup never overwrites a file and never
leaves a half copy under the target's name.  PostgreSQL has its own tools (``pg_dump``; docs/deploy.md).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from ...documentation import address
from ..errors import BackupRefused
from ..settings import normalize_database_url
from .onefile import sqlite_path


@dataclass
class Copied:
    path: Path
    bytes: int
    tables: int
    actions: int
    revision: str | None


def backup(url: str, target: str | Path) -> Copied:
    """Copy the SQLite database of ``url`` to ``target``, a file that must not exist yet."""
    if make_url(normalize_database_url(url)).get_backend_name() != "sqlite":
        raise BackupRefused(
            "backup copies an SQLite database; back up PostgreSQL with pg_dump "
            f"({address('deploy.md', '6. Backup and restore')})"
        )
    source = sqlite_path(url)
    if source is None:
        raise BackupRefused("an SQLite database in memory has nothing to back up")
    if not os.path.isfile(source):
        raise BackupRefused(f"no database at {source}")
    target = Path(target).absolute()
    if target.exists():
        raise BackupRefused(f"{target} exists: a backup never overwrites a file; remove it or name another")
    if not target.parent.is_dir():
        raise BackupRefused(f"no directory {target.parent}")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        try:
            _copy(source, partial)
            counts = _check(partial)
        except sqlite3.Error as exc:
            raise BackupRefused(f"SQLite could not copy {source}: {exc}") from None
        try:
            os.link(partial, target)  # fails if the target appeared meanwhile: still never overwritten
        except FileExistsError:
            raise BackupRefused(f"{target} exists: a backup never overwrites a file") from None
    finally:
        partial.unlink(missing_ok=True)
    return Copied(target, target.stat().st_size, *counts)


def _copy(source: str, to: Path) -> None:
    src = sqlite3.connect(Path(source).as_uri() + "?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(to)
    try:
        src.backup(dst)  # all pages in one step: one read transaction, one consistent copy
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file (a served one turns WAL again)
    finally:
        dst.close()
        src.close()
    with open(to, "rb+") as f:
        os.fsync(f.fileno())


def _check(path: Path) -> tuple[int, int, str | None]:
    """The copy's tables, actions and schema revision, once SQLite finds it sound."""
    db = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True)
    try:
        verdict = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise BackupRefused(f"the copy failed SQLite's integrity check: {'; '.join(verdict[:5])}")
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "tables" not in names:
            raise BackupRefused("not a millebornes database: it has no 'tables' table")
        tables = db.execute("SELECT count(*) FROM tables").fetchone()[0]
        actions = db.execute("SELECT count(*) FROM actions").fetchone()[0] if "actions" in names else 0
        revision = (
            db.execute("SELECT version_num FROM alembic_version").fetchone()[0] if "alembic_version" in names else None
        )
        return tables, actions, revision
    finally:
        db.close()
