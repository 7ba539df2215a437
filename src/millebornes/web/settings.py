"""What one server process is told at start: where the games live, how fast bots play, the limits.

A plain dataclass, so tests build one with the values they need (no bot delay, a tiny rate limit)
and the command line builds the real one from its options and the environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..review import DEFAULT_WORLDS, MAX_WORLDS

DEFAULT_DATABASE_URL = "sqlite:///millebornes.db"
TABLES_PER_MINUTE_MAX = 10_000
SECONDS_MAX = 365 * 24 * 3600
WINDOW_SLACK_MAX = 5.0
SOCKETS_MAX = 100_000


@dataclass(frozen=True)
class Limits:
    """The guard rails of docs/web.md: what one client may send, and how many hints the server takes on."""

    frame_bytes: int = 4096
    frames_per_second: int = 20
    join_seconds: float = 10.0
    log_events: int = 200
    history_max: int = 200
    cf_timeout_min: float = 3.0
    cf_timeout_max: float = 600.0
    save_retries: int = 5
    """A bot's or countdown's move the database refused is tried again this many times, after
    save_backoff seconds, then twice that, and so on (1 + 2 + 4 + 8 + 16 s); then the table is broken."""
    save_backoff: float = 1.0
    tables_per_minute: int = 10
    """New tables one client address may create in any minute (``POST /api/tables``)."""
    hint_cooldown: float = 2.0
    """Seconds a seat waits after its hint is answered before it may ask for the next one."""
    hint_backlog: int = 8
    """Hints being worked out or waiting for a worker, on the whole server; one more is refused (``busy``)."""
    spectators_per_table: int = 50
    """Sockets watching one table at once (``watch``); one more is refused (``full``)."""
    sockets_per_seat: int = 4
    """Sockets on one seat at once in this process: a phone, a computer and a tab or two that has not noticed
    its connection died; one more is refused (``seat-full``, close 4429)."""
    sockets_per_table: int = 64
    """Sockets at one table at once in this process, seats and spectators: every step is a frame to each, so
    this bounds a step's cost.  One more is refused (``table-full``, close 4429), except a seat's first socket,
    so that spectators never lock a player out (the most is then this plus the seats, 72)."""
    sockets_per_address: int = 32
    """Table sockets open at once from one client address (as uvicorn reports it), over every table of this
    process: a household or a small office behind one address; one more is refused (``too-many``, close 4429)."""
    clock_min: float = 10.0
    clock_max: float = 3600.0
    """A turn clock (seconds per human decision) is 0 (none) or within these; --test-mode allows 0.2 s."""
    grace_min: float = 10.0
    grace_max: float = 3600.0
    """Seconds a disconnected human keeps the seat before a stand-in plays it; --test-mode allows 0.2 s."""
    sheet_seconds: float = 120.0
    """Seconds at most that a person's turn clock waits while their page shows the score of the hand just over
    (until the page sends ``sheet-closed``): reading is never hurried, and a sheet left open stalls no table."""
    chat_messages: int = 3
    """Quick-chat messages one seat may say in any ``chat_seconds``; one more is refused (``rate``)."""
    chat_seconds: float = 10.0
    chat_repeat_seconds: float = 5.0
    """Seconds before a seat may say the same message again."""
    chat_lines: int = 20
    """The last quick-chat lines a room keeps for the ``welcome`` frame (in memory only)."""
    claims_per_minute: int = 10
    """Seats one client address may claim from the lobby in any minute (``POST /api/tables/{id}/seats/{n}/claim``)."""
    lobby_max: int = 50
    """Tables ``GET /api/lobby`` lists at most (the newest)."""
    reviews_at_once: int = 1
    """Game reviews being worked out at once on the whole server; one more is refused (503, ``Retry-After``)."""
    archive_max: int = 1000
    """Records one page of ``GET /api/archive`` holds at most (its ``limit``); the next page is a link away."""

    signups_per_minute: int = 5
    """Accounts one client address may make in any minute (``POST /api/account/signup``)."""
    signins_per_minute: int = 10
    """Sign-in attempts one client address may make in any minute, right or wrong (``POST /api/account/signin``)."""
    signins_per_name_minute: int = 5
    """Sign-in attempts on one username in any minute, from any address: a password is not guessed by many hosts."""
    session_days: float = 30.0
    """Days a sign-in lasts after its last use."""
    account_seats: int = 200
    archive_per_minute: int = 60
    """Archive downloads one client address may start in any minute (a page of ``GET /api/archive``, a month's file):
    each streams up to thousands of records from the database."""
    """Seats ``GET /api/account`` lists at most (the newest tables'); a claim brings at most this many seats too."""

    def __post_init__(self) -> None:
        for name in (
            "tables_per_minute",
            "claims_per_minute",
            "signups_per_minute",
            "signins_per_minute",
            "signins_per_name_minute",
            "archive_per_minute",
        ):
            if not 1 <= getattr(self, name) <= TABLES_PER_MINUTE_MAX:
                raise ValueError(f"{name}: from 1 to {TABLES_PER_MINUTE_MAX}, not {getattr(self, name)}")
        if not 1 <= self.chat_messages <= 100 or not 0 <= self.chat_lines <= 200:
            raise ValueError(
                f"chat_messages: from 1 to 100, chat_lines: from 0 to 200, "
                f"not {self.chat_messages} and {self.chat_lines}"
            )
        if not 1 / 24 <= self.session_days <= 400:
            raise ValueError(f"session_days: from 1/24 (an hour) to 400, not {self.session_days}")
        if not 1 <= self.account_seats <= 10_000:
            raise ValueError(f"account_seats: from 1 to 10000, not {self.account_seats}")
        if not 1 <= self.reviews_at_once <= 64:
            raise ValueError(f"reviews_at_once: from 1 to 64, not {self.reviews_at_once}")
        for name in ("sockets_per_seat", "sockets_per_table", "sockets_per_address"):
            if not 1 <= getattr(self, name) <= SOCKETS_MAX:
                raise ValueError(f"{name}: from 1 to {SOCKETS_MAX}, not {getattr(self, name)}")


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    bot_delay: float = 0.8
    hand_pause: float = 6.0
    standby: float = 5.0
    """Seconds a process that did not write a table's last action waits, beyond the leader's time, before it
    makes the table's next timed step itself (a bot's move, a window's end, a clock's time-out): several
    processes on one PostgreSQL compute each step once, and a dead leader's tables go on after it."""
    window_slack: float = 0.05
    """Seconds after a coup-fourré window's deadline that its closing frame goes out, whoever holds what: the
    holder's pass (or a bot holder's answer) is saved within them, so the moment tells nothing (docs/web.md)."""
    test_mode: bool = False
    workers: int = 2
    """Processes for the searching bots (hard, expert); 0 thinks in threads instead, hints included
    (tests: no process start-up)."""
    hint_workers: int | None = None
    """Processes for hints, at the lowest scheduling priority so bots go first; None: as many as ``workers``."""
    review_workers: int | None = None
    """Processes for game reviews, behind the bots and the hints; None: as many as ``hint_workers``."""
    review_worlds: int = DEFAULT_WORLDS
    """The game review's budget: possible worlds dealt for each decision (docs/review.md)."""
    sqlite_sync: str = "FULL"
    """SQLite's synchronous level: FULL survives power cuts; NORMAL (tests) survives a killed process."""
    hint_iterations: int = 2000
    hint_ms: float = 1500.0
    expire_unjoined: float = 24 * 3600.0
    """Seconds after its creation a table nobody joined is deleted (a joined one expires: ``expire_idle``)."""
    expire_idle: float = 7 * 24 * 3600.0
    """Seconds an unfinished table someone joined may go with no socket and no move before it expires: its moves
    are deleted and its links say it expired, for as long again, then its row goes too.  At least twice
    ``sweep_every``, so that a process's sweep always marks its tables in use before another's could expire them."""
    evict_idle: float = 600.0
    """Seconds a room stays in memory with no socket connected; the next join loads it again."""
    sweep_every: float = 60.0
    """Seconds between two sweeps of the hall (expiry and eviction)."""
    migrate: bool = True
    """Upgrade the database's schema at start (web/db/schema.py); False: refuse to start on one that is behind."""
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if not 0 <= self.standby <= 600:
            raise ValueError(f"standby: seconds, from 0 to 600, not {self.standby}")
        if not 0 <= self.window_slack <= WINDOW_SLACK_MAX:
            raise ValueError(f"window_slack: seconds, from 0 to {WINDOW_SLACK_MAX:g}, not {self.window_slack}")
        for name in ("expire_unjoined", "expire_idle", "evict_idle", "sweep_every"):
            if not 0 < getattr(self, name) <= SECONDS_MAX:
                raise ValueError(
                    f"{name}: seconds, more than 0 and at most {SECONDS_MAX} (a year), not {getattr(self, name)}"
                )
        if self.expire_idle < 2 * self.sweep_every:
            raise ValueError(
                f"expire_idle: seconds, at least twice --sweep-every ({2 * self.sweep_every:g}), not {self.expire_idle}"
            )
        if not isinstance(self.review_worlds, int) or not 2 <= self.review_worlds <= MAX_WORLDS:
            raise ValueError(f"review_worlds: a whole number from 2 to {MAX_WORLDS}, not {self.review_worlds}")

    @classmethod
    def from_env(cls, **given) -> Settings:
        """Command-line values win; then ``DATABASE_URL`` and ``MILLEBORNES_TEST_MODE``."""
        values = {k: v for k, v in given.items() if v is not None}
        values.setdefault("database_url", os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        if not values.get("test_mode"):
            values["test_mode"] = os.environ.get("MILLEBORNES_TEST_MODE", "") in ("1", "true", "yes")
        return cls(**values)


def normalize_database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` go through psycopg 3, the driver the `web` extra installs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
