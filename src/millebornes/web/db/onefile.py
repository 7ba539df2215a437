"""One serving process per SQLite file.

Every process keeps its tables' games in memory and trusts them: a second process on the same file would
accept actions on copies that do not know of each other's (and SQLite has no way to tell it of them).  A
server holds an exclusive ``flock`` on the database file while it runs; the kernel lets it go however the
process ends, so a killed server never leaves the file locked.  Several processes share a PostgreSQL database.

The file held is the one SQLite opened, as ``PRAGMA database_list`` names it, not what the URL's text seems to
say: a URL has many spellings of one file (``uri=t``, ``file:`` URIs, a relative path, a symlink, ``..``, a hard
link), and SQLite reads them all.  The lock is taken on that file's inode, so every name of it is the same file.
An SQLite database in memory has no file: each connection of the pool would see its own empty database, so it
cannot be served at all (:class:`NoFile`).
"""

from __future__ import annotations

import fcntl
import os
import threading
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from ...documentation import address
from ..errors import NoFile, SharedFile
from ..settings import normalize_database_url

__all__ = ["NoFile", "SharedFile", "hold", "opened_file", "release", "sqlite_path"]

Held = tuple[int, int]
"""A held file's device and inode: what :func:`release` takes."""

_held: dict[Held, list[int]] = {}
"""The files this process holds: (device, inode) -> [descriptor, holders] (a process may open its app more than
once, and by any of the file's names)."""
_lock = threading.Lock()


def _is_sqlite(url: str) -> bool:
    return make_url(normalize_database_url(url)).get_backend_name() == "sqlite"


def sqlite_path(url: str) -> str | None:
    """The file an SQLite URL names, found without opening it (a backup, ``db current``), or None for another
    database or SQLite in memory.  Read as SQLAlchemy hands it to SQLite: the filename and the ``uri`` flag its
    driver makes of the URL (any spelling SQLAlchemy takes for true), a ``file:`` URI then read as SQLite reads one."""
    u = make_url(normalize_database_url(url))
    if u.get_backend_name() != "sqlite":
        return None
    args, kwargs = u.get_dialect()().create_connect_args(u)
    path, options = str(args[0]), dict[str, str]()
    if kwargs.get("uri") and path.startswith("file:"):
        path, options = _file_uri(path)
    if path in ("", ":memory:") or options.get("mode") == "memory":
        return None
    return os.path.realpath(path)


def _file_uri(uri: str) -> tuple[str, dict[str, str]]:
    """The path and options of an SQLite ``file:`` URI, as SQLite reads it: a percent-encoded path
    (SQLite refuses any authority but ``localhost``), options after ``?``."""
    parts = urlsplit(uri)
    return unquote(parts.path), {k: v[-1] for k, v in parse_qs(parts.query).items()}


def opened_file(url: str) -> str | None:
    """The file SQLite opens for ``url``, as it reports it itself (``PRAGMA database_list``, the ``main`` row),
    with every symlink resolved; None in memory (or SQLite's private temporary file, an empty name).  Opening
    creates the file as SQLite would; raises SQLAlchemy's error when SQLite cannot open it."""
    engine = create_engine(normalize_database_url(url), poolclass=NullPool)
    try:
        with engine.connect() as c:
            rows = c.execute(text("PRAGMA database_list")).all()
    finally:
        engine.dispose()
    path = next((r[2] for r in rows if r[1] == "main"), "")
    return os.path.realpath(path) if path else None


def hold(url: str) -> Held | None:
    """Hold the database file of ``url`` for this process (nothing for PostgreSQL); raises :class:`SharedFile`
    when another process serves it, :class:`NoFile` for SQLite in memory.  A file SQLite cannot open is not held
    here: the database's opening then says why.  Returns what :func:`release` takes."""
    if not _is_sqlite(url):
        return None
    named = sqlite_path(url)
    if named is not None and os.path.isdir(os.path.dirname(named)) and not os.path.exists(named):
        os.close(os.open(named, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))  # only its owner reads a new one
    try:
        path = opened_file(url)
    except SQLAlchemyError:
        return None
    if path is None:
        raise NoFile(
            "an SQLite database in memory cannot be served: every connection would see its own empty "
            "database; give a file (--database-url sqlite:///path/millebornes.db)"
        )
    fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    with _lock:
        if key in _held:
            os.close(fd)
            _held[key][1] += 1
            return key
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SharedFile(
                f"another millebornes server serves {path}: an SQLite database is served by one "
                "process; several processes share a PostgreSQL database (--database-url "
                f"postgresql://..., {address('web.md')})"
            ) from None
        _held[key] = [fd, 1]
        return key


def release(held: Held | None) -> None:
    if held is None:
        return
    with _lock:
        found = _held.get(held)
        if found is None:
            return
        found[1] -= 1
        if found[1] == 0:
            del _held[held]
            os.close(found[0])
