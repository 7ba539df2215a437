"""Where the documentation is: the address on the hosted site of a page of docs/ and of a heading on it, for the
command line's help and the apps' messages (a pip user has no docs/ folder to open).

The site's address is the installed package's (its metadata's ``Project-URL: Documentation``, from pyproject.toml's
``[project.urls]``), so a fork that publishes its own site points there; :data:`SITE` stands in when the package
is run from a checkout that was never installed.

>>> address("deploy.md", "Backup and restore").removeprefix(site())
'deploy/#backup-and-restore'
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib import metadata

SITE = "https://millebornes.github.io/millebornes/"
"""The documentation's address when the package's metadata gives none (pyproject.toml's, tests/cli checks)."""

_NOT_IN_SLUG = re.compile(r"[^\w\s-]")
_SPACES = re.compile(r"[-\s]+")


@cache
def site() -> str:
    """The documentation site's address, ending in a slash."""
    try:
        urls = metadata.metadata("millebornes").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return url.strip().rstrip("/") + "/"
    return SITE


def slug(heading: str) -> str:
    """A heading's anchor as the site makes it: its words in lower case, joined by hyphens, without accents or
    punctuation.

    >>> slug("Operators' tools"), slug("Taking back a move"), slug("Coup fourré")
    ('operators-tools', 'taking-back-a-move', 'coup-fourre')
    """
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    return _SPACES.sub("-", _NOT_IN_SLUG.sub("", text).strip().lower())


def address(page: str, heading: str | None = None) -> str:
    """The address of ``page`` (a file of docs/, e.g. ``"deploy.md"``) on the site, at ``heading`` when given.

    >>> address("index.md") == site()
    True
    """
    if not page.endswith(".md"):
        raise ValueError(f"a page of docs/ is a .md file, not {page!r}")
    path = "" if page == "index.md" else page.removesuffix(".md") + "/"
    return site() + path + (f"#{slug(heading)}" if heading else "")
