"""One serving process per SQLite file.

Every process keeps its tables' games in memory and trusts them: a second process on the same file would
accept actions on copies that do not know of each other's (and SQLite has no way to tell it of them).  A
server holds an exclusive ``flock`` on the database file while it runs; the kernel lets it go however the
process ends, so a killed server never leaves the file locked.  Several processes share a PostgreSQL database.
"""

from __future__ import annotations

import fcntl
import os
import threading
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy.engine import make_url

from ..errors import SharedFile
from ..settings import normalize_database_url

_held: dict[str, list[int]] = {}
"""The files this process holds: path -> [descriptor, holders] (a process may open its app more than once)."""
_lock = threading.Lock()


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL, or None for another database or SQLite in memory.  The URI form
    (``sqlite:///file:/path/mb.db?uri=true``) names the same file as the plain one and is held the same."""
    u = make_url(normalize_database_url(url))
    if u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
        return None
    path, options = u.database, {k: v if isinstance(v, str) else v[-1] for k, v in u.query.items()}
    if options.get("uri", "").lower() in ("true", "1", "yes", "on") and path.startswith("file:"):
        path, options = _file_uri(path, options)
    if path in ("", ":memory:") or options.get("mode") == "memory":
        return None
    return os.path.realpath(path)


def _file_uri(uri: str, options: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The path and options of an SQLite ``file:`` URI, as SQLite reads it: a percent-encoded path
    (SQLite refuses any authority but ``localhost``), options after ``?`` (the URL's own come on top)."""
    parts = urlsplit(uri)
    inner = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    return unquote(parts.path), {**inner, **options}


def hold(url: str) -> str | None:
    """Hold the database file of ``url`` for this process (nothing for PostgreSQL); raises SharedFile when
    another process serves it.  Returns what :func:`release` takes."""
    path = sqlite_path(url)
    if path is None or not os.path.isdir(os.path.dirname(path)):
        return None
    with _lock:
        if path in _held:
            _held[path][1] += 1
            return path
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SharedFile(
                f"another millebornes server serves {path}: an SQLite database is served by one "
                "process; several processes share a PostgreSQL database (--database-url "
                "postgresql://..., docs/web.md)"
            ) from None
        _held[path] = [fd, 1]
        return path


def release(path: str | None) -> None:
    if path is None:
        return
    with _lock:
        held = _held.get(path)
        if held is None:
            return
        held[1] -= 1
        if held[1] == 0:
            del _held[path]
            os.close(held[0])
