"""What one server process is told at start: where the games live, how fast bots play, the limits.

A plain dataclass, so tests build one with the values they need (no bot delay, a tiny rate limit)
and the command line builds the real one from its options and the environment.  Each field's default and,
where it has one, its range (:class:`Range`, in the field's metadata) are written here only: ``Settings`` and
``Limits`` check the ranges when built, and ``millebornes serve`` (cli/server.py) takes its options' defaults,
bounds and the ranges its help states from these fields.  This module needs no web extra (FastAPI, SQLAlchemy):
the command line imports it to build its options.
"""

from __future__ import annotations

import os
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any

from ..review import DEFAULT_WORLDS, MAX_WORLDS

DEFAULT_DATABASE_URL = "sqlite:///millebornes.db"
TABLES_PER_MINUTE_MAX = 10_000
SECONDS_MAX = 365 * 24 * 3600
WINDOW_SLACK_MAX = 5.0
SOCKETS_MAX = 100_000
WORKERS_MAX = 64


@dataclass(frozen=True)
class Range:
    """The values one setting may take: from ``low`` to ``high`` (either may be None: no bound), more than
    ``low`` rather than at least with ``low_open``, a whole number with ``whole``.  ``unit`` and ``high_note``
    are only words, said in the refusal: "standby: seconds, from 0 to 600, not 601"."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    whole: bool = False
    unit: str = ""
    high_note: str = ""

    def holds(self, value: Any) -> bool:
        if self.whole and not isinstance(value, int):
            return False
        if self.low is not None and not (self.low < value if self.low_open else self.low <= value):
            return False  # written so that NaN is refused
        return self.high is None or value <= self.high

    def span(self) -> str:
        """The range as ``serve --help`` says it: "0 to 600"."""
        return f"{_number(self.low)} to {_number(self.high)}"

    def words(self) -> str:
        """The range in a refusal: "from 0 to 600", "more than 0 and at most 31536000 (a year)"."""
        note = f" ({self.high_note})" if self.high_note else ""
        if self.low is None:
            said = f"at most {_number(self.high)}{note}"
        elif self.high is None:
            said = f"{'more than' if self.low_open else 'at least'} {_number(self.low)}"
        elif self.low_open:
            said = f"more than {_number(self.low)} and at most {_number(self.high)}{note}"
        else:
            said = f"from {_number(self.low)} to {_number(self.high)}{note}"
        return ("a whole number " if self.whole else "") + said

    def refusal(self, name: str, value: Any) -> str:
        """The ValueError's words, the field's name first (``serve`` names its option from it)."""
        return f"{name}: {self.unit + ', ' if self.unit else ''}{self.words()}, not {value}"


def _number(x: float | None) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def within(low: float | None = None, high: float | None = None, **more: Any) -> dict[str, Range]:
    """A field's metadata that gives its range: ``field(default=2, metadata=within(0, WORKERS_MAX))``."""
    return {"range": Range(low, high, **more)}


def range_of(owner: type, name: str) -> Range | None:
    """The range that field ``name`` of ``Settings`` or ``Limits`` declares, if any."""
    found: Range | None = _field(owner, name).metadata.get("range")
    return found


def default_of(owner: type, name: str) -> Any:
    """The default of field ``name`` of ``Settings`` or ``Limits``: ``serve``'s option shows and gives it."""
    f = _field(owner, name)
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise LookupError(f"{owner.__name__}.{name} has no default")


def _field(owner: type, name: str) -> Field[Any]:
    found: Field[Any] = owner.__dataclass_fields__[name]  # type: ignore[attr-defined]
    return found


def check_ranges(values: Any) -> None:
    """ValueError, in the words of :meth:`Range.refusal`, for the first field outside its range (None: unset)."""
    for f in fields(values):
        within_ = f.metadata.get("range")
        value = getattr(values, f.name)
        if within_ is not None and value is not None and not within_.holds(value):
            raise ValueError(within_.refusal(f.name, value))


PER_MINUTE = within(1, TABLES_PER_MINUTE_MAX)
SOCKETS = within(1, SOCKETS_MAX)
SECONDS = within(0, SECONDS_MAX, low_open=True, unit="seconds", high_note="a year")


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
    tables_per_minute: int = field(default=10, metadata=PER_MINUTE)
    """New tables one client address may create in any minute (``POST /api/tables``)."""
    hint_cooldown: float = field(default=2.0, metadata=within(0, 600))
    """Seconds a seat waits after its hint is answered before it may ask for the next one."""
    hint_backlog: int = field(default=8, metadata=within(1, 1000))
    """Hints being worked out or waiting for a worker, on the whole server; one more is refused (``busy``)."""
    spectators_per_table: int = 50
    """Sockets watching one table at once (``watch``); one more is refused (``full``)."""
    sockets_per_seat: int = field(default=4, metadata=SOCKETS)
    """Sockets on one seat at once in this process: a phone, a computer and a tab or two that has not noticed
    its connection died; one more is refused (``seat-full``, close 4429)."""
    sockets_per_table: int = field(default=64, metadata=SOCKETS)
    """Sockets at one table at once in this process, seats and spectators: every step is a frame to each, so
    this bounds a step's cost.  One more is refused (``table-full``, close 4429), except a seat's first socket,
    so that spectators never lock a player out (the most is then this plus the seats, 72)."""
    sockets_per_address: int = field(default=32, metadata=SOCKETS)
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
    claims_per_minute: int = field(default=10, metadata=PER_MINUTE)
    """Seats one client address may claim from the lobby in any minute (``POST /api/tables/{id}/seats/{n}/claim``)."""
    lobby_max: int = 50
    """Tables ``GET /api/lobby`` lists at most (the newest)."""
    reviews_at_once: int = field(default=1, metadata=within(1, WORKERS_MAX))
    """Game reviews being worked out at once on the whole server; one more is refused (503, ``Retry-After``)."""
    archive_max: int = 1000
    """Records one page of ``GET /api/archive`` holds at most (its ``limit``); the next page is a link away."""

    signups_per_hour: int = field(default=20, metadata=within(1, 10_000))
    """Accounts one client address may make in any hour (``POST /api/account/signup``), counted in the database
    (``accounts.signup_address``), so that every process of the server counts alike."""
    signins_per_minute: int = field(default=10, metadata=PER_MINUTE)
    """Passkey sign-in options one client address may ask for in any minute (``POST /api/account/passkey/options``)."""
    failures_per_address: int = field(default=20, metadata=within(1, 10_000))
    """Wrong passwords one client address may send, to any names, before it must wait (web/accounts/guard.py)."""
    failures_per_name: int = field(default=5, metadata=within(1, 1000))
    """Wrong passwords for one name from one address (or from one device that signed in to it before) before that
    address (or device) must wait for that name; nobody else waits."""
    failure_wait_max: float = field(default=900.0, metadata=within(1, 86_400, unit="seconds", high_note="a day"))
    """The longest wait the doubling backoff after wrong passwords reaches."""
    session_days: float = 30.0
    """Days a sign-in lasts after its last use."""
    session_max_days: float = 90.0
    """Days a sign-in lasts at most, however much it is used: a stolen cookie does not open the account forever."""
    rated_pair_per_day: int = field(default=5, metadata=within(1, 1000, whole=True))
    """Rated matches the same two players (a bot account counting as its owner) may play in any 24 hours; past it a
    match is refused up front, and one that finishes anyway is unrated (web/ratings/repo.py)."""
    rated_same_address_hours: float = field(default=24.0, metadata=within(0, 24 * 365, unit="hours"))
    """Accounts made from one client address within this many hours of each other are never rated against each
    other (nor their bots); 0 turns the guard off."""
    account_seats: int = field(default=200, metadata=within(1, 10_000))
    """Seats ``GET /api/account`` lists at most (the newest tables'); a claim brings at most this many seats too."""
    archive_per_minute: int = field(default=60, metadata=PER_MINUTE)
    """Archive downloads one client address may start in any minute (a page of ``GET /api/archive``, a month's file):
    each streams up to thousands of records from the database."""

    def __post_init__(self) -> None:
        check_ranges(self)
        if not 1 <= self.chat_messages <= 100 or not 0 <= self.chat_lines <= 200:
            raise ValueError(
                f"chat_messages: from 1 to 100, chat_lines: from 0 to 200, "
                f"not {self.chat_messages} and {self.chat_lines}"
            )
        if not 1 / 24 <= self.session_days <= 400:
            raise ValueError(f"session_days: from 1/24 (an hour) to 400, not {self.session_days}")
        if not self.session_days <= self.session_max_days <= 400:
            raise ValueError(
                f"session_max_days: from session_days ({self.session_days:g}) to 400, not {self.session_max_days}"
            )


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    bot_delay: float = field(default=0.8, metadata=within(0))
    hand_pause: float = field(default=6.0, metadata=within(0))
    standby: float = field(default=5.0, metadata=within(0, 600, unit="seconds"))
    """Seconds a process that did not write a table's last action waits, beyond the leader's time, before it
    makes the table's next timed step itself (a bot's move, a window's end, a clock's time-out): several
    processes on one PostgreSQL compute each step once, and a dead leader's tables go on after it."""
    window_slack: float = field(default=0.05, metadata=within(0, WINDOW_SLACK_MAX, unit="seconds"))
    """Seconds after a coup-fourré window's deadline that its closing frame goes out, whoever holds what: the
    holder's pass (or a bot holder's answer) is saved within them, so the moment tells nothing (docs/web-api.md)."""
    test_mode: bool = False
    workers: int = field(default=2, metadata=within(0, WORKERS_MAX))
    """Processes for the searching bots (hard, expert); 0 thinks in threads instead, hints included
    (tests: no process start-up)."""
    hint_workers: int | None = field(default=None, metadata=within(1, WORKERS_MAX))
    """Processes for hints, at the lowest scheduling priority so bots go first; None: as many as ``workers``."""
    review_workers: int | None = field(default=None, metadata=within(1, WORKERS_MAX))
    """Processes for game reviews, behind the bots and the hints; None: as many as ``hint_workers``."""
    review_worlds: int = field(default=DEFAULT_WORLDS, metadata=within(2, MAX_WORLDS, whole=True))
    """The game review's budget: possible worlds dealt for each decision (docs/review.md)."""
    sqlite_sync: str = "FULL"
    """SQLite's synchronous level: FULL survives power cuts; NORMAL (tests) survives a killed process."""
    hint_iterations: int = 2000
    hint_ms: float = 1500.0
    expire_unjoined: float = field(default=24 * 3600.0, metadata=SECONDS)
    """Seconds after its creation a table nobody joined is deleted (a joined one expires: ``expire_idle``)."""
    expire_idle: float = field(default=7 * 24 * 3600.0, metadata=SECONDS)
    """Seconds an unfinished table someone joined may go with no socket and no move before it expires: its moves
    are deleted and its links say it expired, for as long again, then its row goes too.  At least twice
    ``sweep_every``, so that a process's sweep always marks its tables in use before another's could expire them."""
    evict_idle: float = field(default=600.0, metadata=SECONDS)
    """Seconds a room stays in memory with no socket connected; the next join loads it again."""
    sweep_every: float = field(default=60.0, metadata=SECONDS)
    """Seconds between two sweeps of the hall (expiry and eviction)."""
    migrate: bool = True
    """Upgrade the database's schema at start (web/db/schema.py); False: refuse to start on one that is behind."""
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        check_ranges(self)
        if self.expire_idle < 2 * self.sweep_every:
            raise ValueError(
                f"expire_idle: seconds, at least twice --sweep-every ({2 * self.sweep_every:g}), not {self.expire_idle}"
            )

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
