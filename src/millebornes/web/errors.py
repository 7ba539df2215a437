"""Every way the web app says no, in one place: what a newcomer reads to learn what a request may meet.

Most become an error frame or an HTTP status where they are caught (:mod:`.tables.socket`, :mod:`.tables.routes`,
:mod:`.reviews`); none of them means something changed.  The module imports nothing of the app, so the
bot worker processes (:mod:`.thinking`) import it as cheaply as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .settings import Settings


GONE_CLOSE = 4410
"""The close code of a socket to a table that is gone for good (expired, or a withdrawn seek's): the page does not
come back."""
WITHDRAWN = ("withdrawn", "the bot withdrew its seek: this table is cancelled")
"""The error (code, words) told to everyone at a bot's seek that was withdrawn before its match started."""


class Refused(Exception):
    """A frame the server will not act on; becomes an error frame, and nothing changed.  ``extra`` goes
    into the frame too: an illegal action's ``reason`` and ``params``, a hint's ``retry_after``."""

    def __init__(self, code: str, message: str, **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def expired(settings: Settings) -> Refused:
    """The refusal of a table that expired (``Settings.expire_idle``): its links and id say so."""
    days = settings.expire_idle / 86400
    idle = f"{days:g} days" if days >= 1 else f"{settings.expire_idle:g} seconds"
    return Refused("expired", f"this table expired: nobody played it for {idle}")


class Gone(Exception):
    """The room left the hall's memory (evicted or expired) before this join could take a seat:
    the hall loads the table again, or finds it deleted."""


class Stale(Exception):
    """Another server process wrote that action first: this process's copy of the table is behind."""


class HintsBusy(Exception):
    """The hint pool has all the hints it takes; nothing was started."""


class NoTable(Exception):
    """No such table to review."""


class NotFinished(Exception):
    """The match is still waiting or being played: it is not reviewed, and nothing was started."""


class ReviewsBusy(Exception):
    """The server works out as many reviews as it takes at once; nothing was started."""


class Throttled(Exception):
    """The address made as many tables as it may this minute; nothing was made."""

    def __init__(self, wait: int, per_minute: int):
        self.wait, self.per_minute = wait, per_minute


class Unprocessable(Exception):
    """A request the server understood but will not carry out; ``field`` names what is wrong, and ``code``, when
    given, why, for a page to word it (a challenged bot's seat: ``bot-offline``...)."""

    def __init__(self, field: str, message: str, code: str | None = None):
        self.field = field
        self.message = message
        self.code = code


class SharedFile(Exception):
    """Another process serves this SQLite file (or, :class:`NoFile`, there is no file to serve)."""


class NoFile(SharedFile):
    """An SQLite database in memory: no file, so nothing one server could hold or serve."""


class SchemaError(Exception):
    """The database is not at the schema this version needs, and is not to be upgraded here."""


class BackupRefused(Exception):
    """Nothing was copied, for the reason given."""
