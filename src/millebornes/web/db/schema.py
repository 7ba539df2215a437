"""The database brought to this version's schema once, however many processes start at the same moment.

The schema is versioned by Alembic: web/db/migrations/versions/ holds the revisions, run from here (configured
in code: no ``alembic.ini``, no ``env.py``).  Each server's start (and ``millebornes db upgrade``) calls
:func:`upgrade`, which upgrades under a lock held by the connection that upgrades:

- PostgreSQL: the transaction-level advisory lock ``pg_advisory_xact_lock(LOCK_KEY)``; the whole upgrade is
  that one transaction (PostgreSQL's DDL is transactional), so a failed upgrade leaves nothing half made and
  its lock goes with its transaction.  A second process waits for the first one's commit, then finds the
  database at head.  Before this, three processes started on an empty database each ran ``CREATE TABLE``
  and one of them could die of ``DuplicateTable``.
- SQLite: ``BEGIN IMMEDIATE``, the file's write lock, until the upgrade commits.

A process that finds the database at head already reads one row, takes no lock and imports no Alembic
(about 0.7 s of a server's start).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection, Engine

from ..errors import SchemaError
from ..settings import normalize_database_url

if TYPE_CHECKING:
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0012"
"""The revision this version needs, the last in versions/ (tests/web/db/test_migrations.py checks it is Alembic's
head): known without reading the revisions, so that a start on a database at it needs no Alembic."""
LOCK_KEY = 0x6D62_7363_6865_6D61
"""The advisory lock's key on PostgreSQL ("mbschema" in ASCII): the same in every process and version."""

_proxies = threading.Lock()
"""Alembic's ``op`` and ``context`` are module-wide: one upgrade at a time in a process."""


def scripts() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS), version_locations=[str(MIGRATIONS / "versions")])


def head() -> str:
    """The revision this version of millebornes needs."""
    return HEAD


def current(connection: Connection) -> str | None:
    """The database's revision; None for an empty one, or one made before there were revisions."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def engine(url: str) -> Engine:
    """An engine for the ``db`` commands; a busy SQLite file is waited for as the server does."""
    url = normalize_database_url(url)
    return create_engine(url, connect_args={"timeout": 30} if url.startswith("sqlite") else {}, hide_parameters=True)


def upgrade(db: Engine) -> tuple[str | None, str]:
    """Bring the database to :func:`head` under the lock; returns its revisions (before, after)."""
    target = HEAD
    with db.connect() as c:
        before = current(c)
    if before == target:
        return before, target
    from alembic.config import Config
    from alembic.runtime.environment import EnvironmentContext

    found = scripts()
    with db.connect() as c:
        _lock(c)
        before = current(c)  # again, under the lock: another process may have upgraded meanwhile
        _known(found, before)
        if before != target:
            with (
                _proxies,
                EnvironmentContext(
                    Config(), found, fn=lambda rev, _: found._upgrade_revs(target, rev), destination_rev=target
                ) as env,
            ):
                env.configure(connection=c)
                env.run_migrations()
        c.commit()
    return before, target


def check(db: Engine) -> str:
    """The database's revision when it is :func:`head`; otherwise :class:`SchemaError`, saying what to do
    (``serve --no-migrate``: the operator upgrades separately)."""
    with db.connect() as c:
        rev = current(c)
    if rev == HEAD:
        return rev
    _known(scripts(), rev)
    raise SchemaError(
        f"the database is at revision {rev or 'none (empty, or made before revisions)'} and "
        f"this version of millebornes needs {HEAD}: run `millebornes db "
        "upgrade` with the same --database-url, or serve without --no-migrate"
    )


def _lock(c: Connection) -> None:
    if c.dialect.name == "postgresql":
        c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    elif c.dialect.name == "sqlite":
        c.exec_driver_sql("BEGIN IMMEDIATE")


def _known(found: ScriptDirectory, rev: str | None) -> None:
    if rev is not None and rev not in {s.revision for s in found.walk_revisions()}:
        raise SchemaError(
            f"the database is at revision {rev}, which this version of millebornes does not know: "
            "a newer version upgraded it; serve it with that version (or restore a backup)"
        )
