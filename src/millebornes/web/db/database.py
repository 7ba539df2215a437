"""The database every domain shares: its engine (SQLite's pragmas, PostgreSQL's pool for moves), whether it can
take a write now, and the notices a commit sends the other server processes.

The domains' repositories (:class:`..tables.repo.Tables`, :class:`..accounts.repo.Accounts`,
:class:`..reviews.repo.Reviews`...) each take this one object and run their own SQL on its engine, each method one
short transaction.  The same models run on the embedded SQLite file (in WAL mode, fully synced) and on
PostgreSQL.  The schema is made and upgraded by the revisions of :mod:`.migrations` (:mod:`.schema`), never by the
models.
"""

from __future__ import annotations

import functools
import secrets

from sqlalchemy import create_engine, event, text

from ..settings import normalize_database_url
from . import schema
from .notices import CHANNEL, Kind, encode

SQLITE_BUSY_SECONDS = 30
"""How long a save waits for another writer of the SQLite file before it fails."""
PING_WRITE_WAIT = 1.0
"""How long /healthz waits for SQLite's write lock before it says the database takes no move."""


class Database:
    """The engines of one database, opened once per process (the app's lifespan) and handed to every repository."""

    def __init__(self, url: str, sqlite_sync: str = "FULL", migrate: bool = True):
        """``migrate``: bring the schema to this version's (web/db/schema.py); False: refuse a database that
        is not there already (``serve --no-migrate``, the operator runs ``millebornes db upgrade``)."""
        url = normalize_database_url(url)
        self.url = url
        sqlite = url.startswith("sqlite")
        # hide_parameters: a failed statement is logged without its values (a table row holds the seed)
        self.engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS} if sqlite else {},
            pool_pre_ping=not sqlite,
            hide_parameters=True,
        )
        if sqlite:
            if sqlite_sync not in ("FULL", "NORMAL"):
                raise ValueError(f"sqlite_sync is FULL or NORMAL, not {sqlite_sync!r}")
            event.listen(self.engine, "connect", functools.partial(_sqlite_pragmas, sqlite_sync))
        self.notifies = url.startswith("postgresql")
        self.hot = (
            create_engine(url, pool_size=5, max_overflow=5, hide_parameters=True, isolation_level="AUTOCOMMIT")
            if self.notifies
            else None
        )
        """The moves' own pool (PostgreSQL): single statements in autocommit, without the ping before each."""
        self.origin = secrets.token_hex(6)
        """This process's name in its notices, so that it does not adopt its own actions."""
        try:
            if migrate:
                schema.upgrade(self.engine)
            else:
                schema.check(self.engine)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.engine.dispose()
        if self.hot is not None:
            self.hot.dispose()

    def ping(self) -> None:
        """Whether a move could be saved now; raises if not.  A database that answers reads may still
        take no write: an SQLite file another program holds write-locked (a copy in progress, a shell's
        open transaction), a PostgreSQL server in read-only mode (a standby, a full disk's safeguard)."""
        with self.engine.connect() as c:
            if self.engine.dialect.name != "sqlite":
                if c.execute(text("SELECT current_setting('transaction_read_only')")).scalar() != "off":
                    raise RuntimeError("the database takes no writes")
                return
            raw = c.connection.dbapi_connection
            assert raw is not None  # a connection just checked out of the pool is live
            raw.execute(f"PRAGMA busy_timeout={int(PING_WRITE_WAIT * 1000)}")
            try:
                raw.execute("BEGIN IMMEDIATE")  # the write lock, taken and let go: nothing is written
                raw.execute("ROLLBACK")
            finally:
                raw.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")

    def notice(self, c, table_id: str, kind: Kind, *args) -> None:
        """Tell the other server processes, at the commit of ``c``'s transaction, what changed at the table."""
        if self.notifies:
            payload = encode(table_id, kind, self.origin, *args)
            c.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def notify(self, table_id: str, kind: Kind, *args) -> None:
        """A notice of its own (who is connected here): nothing is written."""
        if self.notifies:
            with self.engine.begin() as c:
                self.notice(c, table_id, kind, *args)


def _sqlite_pragmas(sync: str, dbapi_connection, _record) -> None:
    """WAL lets readers run beside the writer.  A commit survives the process being killed with
    either sync level; FULL (the default) also makes it survive a power cut, at an fsync per action."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={sync}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
