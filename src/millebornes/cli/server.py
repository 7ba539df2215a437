"""``millebornes serve``: the browser game's server, every option also from its environment variable.

An option that sets a field of :class:`~millebornes.web.settings.Settings` or ``Limits`` takes its default and
its range from that field (:func:`_setting`): no number here repeats one of web/settings.py.  That module needs
no web extra, so it is imported here; the rest of the web app is imported when ``serve`` runs."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import typer

from ..documentation import address
from ..web.settings import DEFAULT_DATABASE_URL, Limits, Range, Settings, default_of, range_of
from .database import ready_schema, web_missing

PORTS: dict[str, Any] = {"min": 1, "max": 65535}
SERVE_EPILOG = "\n\n".join(
    (
        f"The web app: {address('web.md')}",
        f"Its options as environment variables: {address('deploy.md', 'Configuration')}",
        f"The game review's budget: {address('review.md', 'The budget and its time')}",
    )
)
"""Where ``serve`` is documented: the end of its help, a line each."""


def _env(option: str) -> str:
    """The environment variable that gives a `serve` option when the command line does not: --port is
    MILLEBORNES_PORT (docs/deploy.md, "Configuration")."""
    return "MILLEBORNES_" + option.upper()


def _owner(name: str) -> type:
    return Settings if name in Settings.__dataclass_fields__ else Limits


def _default(name: str) -> Any:
    """The default of the Settings (or Limits) field ``name``."""
    return default_of(_owner(name), name)


def _range(name: str) -> Range:
    found = range_of(_owner(name), name)
    if found is None:
        raise LookupError(f"{name} declares no range in web/settings.py")
    return found


def _span(name: str) -> str:
    """The field's range as the help says it: "0 to 600"."""
    return _range(name).span()


def _setting(name: str, help: str, *, bounded: bool = False) -> Any:
    """The option --name (MILLEBORNES_NAME) for the Settings or Limits field ``name``, with its default.
    ``bounded``: the command line refuses a value out of the field's range itself, and the help shows it
    ("[0<=x<=64]"); otherwise Settings refuses it, in its words ("from 1 to 10000, not 0"), which ``serve``
    gives as the option's."""
    bounds: dict[str, Any] = {}
    if bounded:
        within = _range(name)
        if within.low_open or within.whole:
            raise ValueError(f"{name}: the command line bounds only a closed range")
        bounds = {"min": within.low, "max": within.high}
    return typer.Option(_default(name), "--" + name.replace("_", "-"), **bounds, envvar=_env(name), help=help)


class LogLevel(StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


def serve(
    host: str = typer.Option("127.0.0.1", "--host", envvar=_env("host"), help="address to listen on"),
    port: int = typer.Option(8000, "--port", **PORTS, envvar=_env("port")),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        envvar=[_env("database_url"), "DATABASE_URL"],
        help=f"SQLAlchemy URL (default: {DEFAULT_DATABASE_URL}); PostgreSQL: postgresql+psycopg://user:pw@host/db",
    ),
    bot_delay: float = _setting("bot_delay", "seconds a bot waits before it acts", bounded=True),
    hand_pause: float = _setting("hand_pause", "seconds a bot waits after a hand ends", bounded=True),
    standby: float = _setting(
        "standby",
        "with several processes on one PostgreSQL: seconds "
        "a process waits, beyond the time of the one that wrote a table's last "
        f"action, before it moves the table's bots and clocks itself ({_span('standby')})",
    ),
    window_slack: float = _setting(
        "window_slack",
        "seconds after a coup-fourré window's "
        "deadline that it closes for everyone, whoever holds the safety: the "
        f"holder's pass is saved within them ({_span('window_slack')})",
    ),
    test_mode: bool = _setting("test_mode", "allow stacked decks and chosen seeds; for tests only"),
    workers: int = _setting(
        "workers", "processes for hard/expert bots (0: bots and hints think in threads)", bounded=True
    ),
    hint_workers: int | None = _setting(
        "hint_workers", "processes for hints, at the lowest priority (default: as many as --workers)", bounded=True
    ),
    hint_cooldown: float = _setting("hint_cooldown", "seconds a seat waits after a hint before the next", bounded=True),
    hint_backlog: int = _setting(
        "hint_backlog", "hints waiting or being worked out at once; more are refused", bounded=True
    ),
    review_worlds: int = _setting(
        "review_worlds",
        f"the game review's budget: possible worlds dealt for each decision ({_span('review_worlds')})",
    ),
    reviews_at_once: int = _setting(
        "reviews_at_once", "game reviews worked out at once; more are refused", bounded=True
    ),
    review_workers: int | None = _setting(
        "review_workers",
        "processes for game reviews, behind bots and hints (default: as many as --hint-workers)",
        bounded=True,
    ),
    tables_per_minute: int = _setting(
        "tables_per_minute",
        f"new tables one client address may create in a minute ({_span('tables_per_minute')})",
    ),
    expire_unjoined: float = _setting(
        "expire_unjoined",
        "seconds after which a table whose human seats nobody joined is deleted "
        f"(default {_default('expire_unjoined') / 3600:g} h)",
    ),
    expire_idle: float = _setting(
        "expire_idle",
        "seconds after which an unfinished table "
        f"someone joined, with no socket and no move since, expires (default {_default('expire_idle') / 86400:g} days)",
    ),
    evict_idle: float = _setting(
        "evict_idle",
        "seconds a table's room stays in memory with nobody connected; the next join loads it again",
    ),
    sweep_every: float = _setting("sweep_every", "seconds between two sweeps for --expire-unjoined and --evict-idle"),
    sockets_per_seat: int = _setting(
        "sockets_per_seat", f"sockets open on one seat at once ({_span('sockets_per_seat')})"
    ),
    sockets_per_table: int = _setting(
        "sockets_per_table",
        f"sockets open at one table at once, seats and spectators ({_span('sockets_per_table')})",
    ),
    sockets_per_address: int = _setting(
        "sockets_per_address",
        f"table sockets open at once from one client address, as uvicorn reports it ({_span('sockets_per_address')})",
    ),
    signups_per_hour: int = _setting(
        "signups_per_hour", f"accounts made from one client address in any hour ({_span('signups_per_hour')})"
    ),
    failures_per_address: int = _setting(
        "failures_per_address",
        f"wrong passwords from one address, to any names, before it waits ({_span('failures_per_address')})",
    ),
    failures_per_name: int = _setting(
        "failures_per_name",
        f"wrong passwords for one name from one address (or device) before it waits ({_span('failures_per_name')})",
    ),
    failure_wait_max: float = _setting(
        "failure_wait_max", f"the longest wait after wrong passwords, seconds ({_span('failure_wait_max')})"
    ),
    session_days: float = _setting("session_days", "days a sign-in lasts after its last use (1/24 to 400)"),
    session_max_days: float = _setting(
        "session_max_days", "days a sign-in lasts at most, however much it is used (session-days to 400)"
    ),
    rated_pair_per_day: int = _setting(
        "rated_pair_per_day",
        f"rated matches two players (a bot counting as its owner) may play in 24 hours ({_span('rated_pair_per_day')})",
    ),
    rated_same_address_hours: float = _setting(
        "rated_same_address_hours",
        "hours within which accounts made from one address are never rated against each other "
        f"({_span('rated_same_address_hours')}; 0: no such guard)",
    ),
    forwarded_allow_ips: str | None = typer.Option(
        None,
        "--forwarded-allow-ips",
        envvar=[_env("forwarded_allow_ips"), "FORWARDED_ALLOW_IPS"],
        help="addresses of the reverse proxies whose X-Forwarded-For gives the "
        "client address (comma-separated, * for any; default: 127.0.0.1,::1)",
    ),
    no_migrate: bool = typer.Option(
        not _default("migrate"),
        "--no-migrate",
        envvar=_env("no_migrate"),
        help="leave the database's schema as it is (the "
        "operator runs `millebornes db upgrade`) and refuse to start if it is behind",
    ),
    metrics_port: int | None = typer.Option(
        None,
        "--metrics-port",
        **PORTS,
        envvar=_env("metrics_port"),
        help="serve Prometheus metrics on this port (default: none)",
    ),
    metrics_host: str | None = typer.Option(
        None, "--metrics-host", envvar=_env("metrics_host"), help="address for --metrics-port (default: --host)"
    ),
    log_level: LogLevel = typer.Option(
        LogLevel.info, "--log-level", envvar=_env("log_level"), help="the least severe log records written"
    ),
    log_json: bool = typer.Option(
        False, "--log-json", envvar=_env("log_json"), help="log JSON lines (time, level, logger, message, exception)"
    ),
) -> None:
    """Serve the browser game: tables, invitations, bots, history, replays and game reviews.
    Every option may come from its environment variable instead."""
    try:
        import logging.config

        from sqlalchemy.engine import make_url

        from ..web import logs, metrics
        from ..web.app import create_app
        from ..web.settings import normalize_database_url
        from ..web.tables import drain
    except ImportError as exc:
        web_missing(exc)
    try:
        settings = Settings.from_env(
            database_url=database_url,
            bot_delay=bot_delay,
            hand_pause=hand_pause,
            standby=standby,
            window_slack=window_slack,
            test_mode=test_mode,
            workers=workers,
            hint_workers=hint_workers,
            review_workers=review_workers,
            review_worlds=review_worlds,
            expire_unjoined=expire_unjoined,
            expire_idle=expire_idle,
            evict_idle=evict_idle,
            sweep_every=sweep_every,
            migrate=not no_migrate,
            limits=Limits(
                tables_per_minute=tables_per_minute,
                hint_cooldown=hint_cooldown,
                hint_backlog=hint_backlog,
                reviews_at_once=reviews_at_once,
                sockets_per_seat=sockets_per_seat,
                sockets_per_table=sockets_per_table,
                sockets_per_address=sockets_per_address,
                signups_per_hour=signups_per_hour,
                failures_per_address=failures_per_address,
                failures_per_name=failures_per_name,
                failure_wait_max=failure_wait_max,
                session_days=session_days,
                session_max_days=session_max_days,
                rated_pair_per_day=rated_pair_per_day,
                rated_same_address_hours=rated_same_address_hours,
            ),
        )
    except ValueError as exc:
        field, _, words = str(exc).partition(": ")
        raise typer.BadParameter(words, param_hint=f"--{field.replace('_', '-')}") from None
    try:
        shown = make_url(normalize_database_url(settings.database_url)).render_as_string(hide_password=True)
    except Exception as exc:
        raise typer.BadParameter(f"not a database URL: {exc}", param_hint="--database-url") from None
    from ..web.db import onefile

    try:
        held = onefile.hold(settings.database_url)  # told here in words, before the server starts
    except onefile.SharedFile as exc:
        typer.echo(f"millebornes: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        ready_schema(settings.database_url, settings.migrate)  # told here in words, before the server starts
    except BaseException:
        onefile.release(held)
        raise
    scraped = None
    try:
        if metrics_port is not None:
            at = metrics_host or host
            try:
                scraped = metrics.serve(metrics_port, at)
            except OSError as exc:
                typer.echo(
                    f"millebornes: cannot serve the metrics on {at} port {metrics_port}: {exc.strerror or exc}",
                    err=True,
                )
                raise typer.Exit(2) from None
        logging.config.dictConfig(logs.config(log_level.value, log_json))  # uvicorn's loggers follow it
        shown_host = f"[{host}]" if ":" in host else host
        logging.getLogger("millebornes").info(
            "serving the game at http://%s:%d/ (database %s%s%s); press Ctrl+C to stop it",
            shown_host,
            port,
            shown,
            ", test mode" if settings.test_mode else "",
            f", metrics at http://{metrics_host or host}:{metrics_port}/metrics" if scraped else "",
        )
        drain.serve(
            create_app(settings),
            host=host,
            port=port,
            ws_max_size=64 * 1024,
            log_level=log_level.value,
            log_config=None,
            forwarded_allow_ips=forwarded_allow_ips,
        )
    finally:
        if scraped is not None:
            scraped.shutdown()
        onefile.release(held)
