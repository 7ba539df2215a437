"""``millebornes serve``: the browser game's server, every option also from its environment variable."""

from __future__ import annotations

from enum import StrEnum

import typer

from .database import ready_schema, web_missing


def _env(option: str) -> str:
    """The environment variable that gives a `serve` option when the command line does not: --port is
    MILLEBORNES_PORT (docs/deploy.md, "Configuration")."""
    return "MILLEBORNES_" + option.upper()


class LogLevel(StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


def serve(
    host: str = typer.Option("127.0.0.1", "--host", envvar=_env("host"), help="address to listen on"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, envvar=_env("port")),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        envvar=[_env("database_url"), "DATABASE_URL"],
        help="SQLAlchemy URL (default: sqlite:///millebornes.db); PostgreSQL: postgresql+psycopg://user:pw@host/db",
    ),
    bot_delay: float = typer.Option(
        0.8, "--bot-delay", min=0, envvar=_env("bot_delay"), help="seconds a bot waits before it acts"
    ),
    hand_pause: float = typer.Option(
        6.0, "--hand-pause", min=0, envvar=_env("hand_pause"), help="seconds a bot waits after a hand ends"
    ),
    standby: float = typer.Option(
        5.0,
        "--standby",
        envvar=_env("standby"),
        help="with several processes on one PostgreSQL: seconds "
        "a process waits, beyond the time of the one that wrote a table's last "
        "action, before it moves the table's bots and clocks itself (0 to 600)",
    ),
    window_slack: float = typer.Option(
        0.05,
        "--window-slack",
        envvar=_env("window_slack"),
        help="seconds after a coup-fourré window's "
        "deadline that it closes for everyone, whoever holds the safety: the "
        "holder's pass is saved within them (0 to 5)",
    ),
    test_mode: bool = typer.Option(
        False, "--test-mode", envvar=_env("test_mode"), help="allow stacked decks and chosen seeds; for tests only"
    ),
    workers: int = typer.Option(
        2,
        "--workers",
        min=0,
        max=64,
        envvar=_env("workers"),
        help="processes for hard/expert bots (0: bots and hints think in threads)",
    ),
    hint_workers: int | None = typer.Option(
        None,
        "--hint-workers",
        min=1,
        max=64,
        envvar=_env("hint_workers"),
        help="processes for hints, at the lowest priority (default: as many as --workers)",
    ),
    hint_cooldown: float = typer.Option(
        2.0,
        "--hint-cooldown",
        min=0,
        max=600,
        envvar=_env("hint_cooldown"),
        help="seconds a seat waits after a hint before the next",
    ),
    hint_backlog: int = typer.Option(
        8,
        "--hint-backlog",
        min=1,
        max=1000,
        envvar=_env("hint_backlog"),
        help="hints waiting or being worked out at once; more are refused",
    ),
    review_worlds: int = typer.Option(
        1000,
        "--review-worlds",
        envvar=_env("review_worlds"),
        help="the game review's budget: possible worlds dealt for each decision (2 to 5000; docs/review.md)",
    ),
    reviews_at_once: int = typer.Option(
        1,
        "--reviews-at-once",
        min=1,
        max=64,
        envvar=_env("reviews_at_once"),
        help="game reviews worked out at once; more are refused",
    ),
    review_workers: int | None = typer.Option(
        None,
        "--review-workers",
        min=1,
        max=64,
        envvar=_env("review_workers"),
        help="processes for game reviews, behind bots and hints (default: as many as --hint-workers)",
    ),
    tables_per_minute: int = typer.Option(
        10,
        "--tables-per-minute",
        envvar=_env("tables_per_minute"),
        help="new tables one client address may create in a minute (1 to 10000)",
    ),
    expire_unjoined: float = typer.Option(
        86400.0,
        "--expire-unjoined",
        envvar=_env("expire_unjoined"),
        help="seconds after which a table whose human seats nobody joined is deleted (default 24 h)",
    ),
    expire_idle: float = typer.Option(
        604800.0,
        "--expire-idle",
        envvar=_env("expire_idle"),
        help="seconds after which an unfinished table "
        "someone joined, with no socket and no move since, expires (default 7 days)",
    ),
    evict_idle: float = typer.Option(
        600.0,
        "--evict-idle",
        envvar=_env("evict_idle"),
        help="seconds a table's room stays in memory with nobody connected; the next join loads it again",
    ),
    sweep_every: float = typer.Option(
        60.0,
        "--sweep-every",
        envvar=_env("sweep_every"),
        help="seconds between two sweeps for --expire-unjoined and --evict-idle",
    ),
    sockets_per_seat: int = typer.Option(
        4, "--sockets-per-seat", envvar=_env("sockets_per_seat"), help="sockets open on one seat at once (1 to 100000)"
    ),
    sockets_per_table: int = typer.Option(
        64,
        "--sockets-per-table",
        envvar=_env("sockets_per_table"),
        help="sockets open at one table at once, seats and spectators (1 to 100000)",
    ),
    sockets_per_address: int = typer.Option(
        32,
        "--sockets-per-address",
        envvar=_env("sockets_per_address"),
        help="table sockets open at once from one client address, as uvicorn reports it (1 to 100000)",
    ),
    forwarded_allow_ips: str | None = typer.Option(
        None,
        "--forwarded-allow-ips",
        envvar=[_env("forwarded_allow_ips"), "FORWARDED_ALLOW_IPS"],
        help="addresses of the reverse proxies whose X-Forwarded-For gives the "
        "client address (comma-separated, * for any; default: 127.0.0.1,::1)",
    ),
    no_migrate: bool = typer.Option(
        False,
        "--no-migrate",
        envvar=_env("no_migrate"),
        help="leave the database's schema as it is (the "
        "operator runs `millebornes db upgrade`) and refuse to start if it is behind",
    ),
    metrics_port: int | None = typer.Option(
        None,
        "--metrics-port",
        min=1,
        max=65535,
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
    """Serve the browser game: tables, invitations, bots, history, replays and game reviews (docs/web.md).
    Every option may come from its environment variable instead (docs/deploy.md, "Configuration")."""
    try:
        import logging.config

        from sqlalchemy.engine import make_url

        from ..web import logs, metrics
        from ..web.app import create_app
        from ..web.settings import Limits, Settings, normalize_database_url
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
