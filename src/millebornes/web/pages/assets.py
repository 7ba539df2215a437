"""The pages' files as this process serves them: read once at start, named by a build id that is a hash of them.

Every script, style and picture a page uses is served at ``/static/<build>/<path>`` (:mod:`.static`), where
``<build>`` is :attr:`Build.id`, the first 12 hex digits of a SHA-256 over every asset's path and bytes.  The same
files give the same id in every process and every installation (a wheel, an sdist, a checkout: only the suffixes
the wheel ships count, :data:`SUFFIXES`), and any changed byte gives another.  The package's version is not part of
it: two releases whose pages are byte for byte the same serve the same files, so a browser keeps what it cached.

The files are held in memory from the start on (some 450 KB), so what a process answers under its id is exactly
what the id was computed from, even if the package is installed anew on disk under the running process.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
"""The assets, by suffix, and the type each is served with: what the wheel ships of ``web/static`` (pyproject.toml's
package-data) but the pages themselves, which are served at their own addresses (:mod:`.routes`)."""
BUILD = re.compile(r"[0-9a-f]{12}")
"""What a build id looks like."""


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str
    """A strong validator: the file's own hash, quoted."""


@dataclass(frozen=True)
class Build:
    id: str
    files: dict[str, Asset]
    """Each asset by its path under the static folder, ``/``-separated (``js/table.js``)."""


def build_id(files: dict[str, bytes]) -> str:
    """The id of a set of files: their paths and contents, in path order, each length-prefixed."""
    digest = hashlib.sha256()
    for path in sorted(files):
        name, body = path.encode(), files[path]
        digest.update(b"%d:%s%d:" % (len(name), name, len(body)))
        digest.update(body)
    return digest.hexdigest()[:12]


def is_safe(path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) may name a file under a build: no part empty or hidden (an
    editor's lock file is not one, nor ``..``)."""
    return not any(p.startswith(".") or not p for p in path.split("/"))


def is_asset(path: str) -> bool:
    """Whether ``path`` names a file this version serves under its build: a safe path with an asset's suffix."""
    return Path(path).suffix in SUFFIXES and is_safe(path)


def media_type(path: str) -> str:
    """The type an asset is served with; a suffix this version does not know (another version's build may have one)
    is served as bytes."""
    return SUFFIXES.get(Path(path).suffix, "application/octet-stream")


def etag(body: bytes) -> str:
    """A strong validator of ``body``: its hash, quoted."""
    return f'"{hashlib.sha256(body).hexdigest()[:16]}"'


def build_of(files: dict[str, bytes], types: dict[str, str] | None = None) -> Build:
    """The build made of ``files`` (path: bytes), each with its validator and its type: from ``types`` (path: type,
    as the version that made the build served it) where given, else from its suffix."""
    types = types or {}
    return Build(
        build_id(files),
        {path: Asset(body, types.get(path) or media_type(path), etag(body)) for path, body in files.items()},
    )


def snapshot(root: Path) -> Build:
    """Read every asset under ``root`` now."""
    files = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_file() and is_asset(name):
            files[name] = path.read_bytes()
    return build_of(files)
