"""The ``millebornes`` command: thin, it delegates to the modules below it."""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import time
from enum import StrEnum
from typing import TYPE_CHECKING, NoReturn

import typer

from .bots.ladder import offered_levels
from .rules import RULESETS
from .rules import ruleset as get_ruleset
from .state import new_game

if TYPE_CHECKING:
    from typer._click._termui_impl import ProgressBar

    from .tui.session import PlaySession

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="The open Mille Bornes system: rules for every edition, simulation and play.",
)


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"millebornes {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print the version and stop"
    ),
) -> None:
    """Options that come before any command (the command's help is the app's)."""


@app.command()
def rules(edition: str | None = typer.Argument(None, help="classic, parker, dujardin or family")) -> None:
    """Print an edition's rule options in words (all editions without an argument)."""
    from .i18n import catalog

    names = [edition] if edition else list(RULESETS)
    for i, name in enumerate(names):
        try:
            r = get_ruleset(name)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="EDITION") from None
        if i:
            typer.echo("")
        # the edition's summary as players read it (the catalog), not the engine's note on its sources
        typer.echo(f"{r.name}: {catalog('en').t(f'edition.{r.name}.summary')}")
        for option, words in r.describe():
            typer.echo(f"  {option:<19} {words}")


def random_match(rules, players: int, teams: bool | None, seed: int) -> tuple:
    """Play one match with uniformly random legal actions; (game, decisions)."""
    game = new_game(rules, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not game.is_over:
        codes = game.legal_codes()
        game.act_code(codes[rng.randrange(len(codes))])
        decisions += 1
    return game, decisions


@app.command()
def simulate(
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    games: int = typer.Option(100, "--games", "-n", min=1),
    seed: int = typer.Option(0, "--seed", "-s", help="game i uses seed + i"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
) -> None:
    """Play random games and print a summary: hands, decisions per hand, win shares."""
    try:
        r = get_ruleset(ruleset)
        new_game(r, players=players, teams=teams, seed=seed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    start = time.perf_counter()
    hands = decisions = 0
    wins: list[float] = []
    ties = 0
    for i in range(games):
        game, n = random_match(r, players, teams, seed + i)
        if not wins:
            wins = [0.0] * game.nsides
        hands += len(game.hand_results)
        decisions += n
        share = 1 / len(game.winners)
        ties += len(game.winners) > 1
        for side in game.winners:
            wins[side] += share
    elapsed = time.perf_counter() - start
    summary = {
        "ruleset": r.name,
        "players": players,
        "games": games,
        "hands": hands,
        "hands_per_game": hands / games,
        "decisions_per_hand": decisions / hands,
        "win_shares": [w / games for w in wins],
        "shared_wins": ties,
        "seconds": round(elapsed, 3),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    typer.echo(f"{r.name}, {players} players, {games} games with random play (seeds {seed}..{seed + games - 1})")
    typer.echo(f"  hands played        {hands} ({hands / games:.2f} per game)")
    typer.echo(f"  decisions per hand  {decisions / hands:.1f}")
    typer.echo(f"  games won shared    {ties}")
    for side, w in enumerate(wins):
        typer.echo(f"  side {side} win share   {w / games:.1%}")
    typer.echo(f"  time                {elapsed:.2f} s ({hands / elapsed:.0f} hands/s)")


@app.command()
def bot(
    name: str = typer.Argument(..., help="a bot spec: random, heuristic, ismcts, easy..expert, 'ismcts:ms=50'"),
    seed: int = typer.Option(0, "--seed", "-s", help="the bot's seed until the host's hello brings one"),
) -> None:
    """Serve a built-in bot over the JSON-lines bot protocol on stdin/stdout (docs/protocol.md)."""
    from .bots import make_bot
    from .protocol import serve_stdio

    try:
        make_bot(name, seed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="NAME") from None
    raise typer.Exit(serve_stdio(name, seed))


@app.command()
def tournament(
    bots: list[str] = typer.Option(
        ...,
        "--bots",
        "-b",
        help="bot specs, comma-separated or the option repeated; "
        "a value starting with cmd: is one external bot command",
    ),
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    games: int = typer.Option(
        100, "--games", "-n", min=1, help="matches per pairing (rounded up to whole deals x rotations)"
    ),
    seed: int = typer.Option(0, "--seed", "-s"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    hands: bool = typer.Option(False, "--hands", help="play single hands instead of full matches"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to connect to (default: start one)"),
    as_json: bool = typer.Option(False, "--json", help="print everything as one JSON object"),
    csv_path: str | None = typer.Option(None, "--csv", help="write the per-bot table as CSV (- for stdout)"),
    plot: str | None = typer.Option(None, "--plot", help="draw win rates with their intervals to this PNG"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Play a seat-balanced, paired tournament between bots and print wins, win rates, points and Elo."""
    import sys

    from . import tournament as T
    from .bots import make_bot
    from .executors import make_executor

    specs = T.parse_bot_options(bots)
    if len(specs) < 2:
        raise typer.BadParameter("give at least two bots", param_hint="--bots")
    if backend not in ("local", "ray"):
        raise typer.BadParameter("choose local or ray", param_hint="--backend")
    if as_json and csv_path == "-":
        raise typer.BadParameter("--json and --csv - both want stdout", param_hint="--csv")
    try:
        r = get_ruleset(ruleset)
        new_game(r, players=players, teams=teams, seed=0)
        for spec in specs:
            if not T.is_external(spec):
                make_bot(spec, 0)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None

    start = time.perf_counter()

    def show_progress(done: int, total: int) -> None:
        filled = 30 * done // max(total, 1)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} "
            f"{'hands' if hands else 'matches'}  {time.perf_counter() - start:.1f} s"
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    progress = show_progress if not quiet and sys.stderr.isatty() else None
    try:
        executor = make_executor(backend, workers, address)
    except RuntimeError as exc:
        raise typer.BadParameter(str(exc), param_hint="--backend") from None
    with executor:
        summary = T.run_tournament(
            specs,
            r,
            players=players,
            teams=teams,
            games=games,
            seed=seed,
            hands=hands,
            executor=executor,
            progress=progress,
        )
    if csv_path and csv_path != "-":
        with open(csv_path, "w", newline="") as f:
            T.write_csv(summary, f)
    if plot:
        T.plot_win_rates(summary, plot)
    if as_json:
        typer.echo(json.dumps(summary))
    elif csv_path == "-":
        T.write_csv(summary, sys.stdout)
    else:
        typer.echo(T.format_table(summary))


def _env(option: str) -> str:
    """The environment variable that gives a `serve` option when the command line does not: --port is
    MILLEBORNES_PORT (docs/deploy.md, "Configuration")."""
    return "MILLEBORNES_" + option.upper()


class LogLevel(StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


@app.command()
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

        from .web import drain, logs, metrics
        from .web.app import create_app
        from .web.settings import Limits, Settings, normalize_database_url
    except ImportError as exc:
        typer.echo(
            f"the web app needs the 'web' extra ({exc.name} is not installed): pip install 'millebornes[web]'", err=True
        )
        raise typer.Exit(1) from None
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
    from .web import onefile

    try:
        held = onefile.hold(settings.database_url)  # told here in words, before the server starts
    except onefile.SharedFile as exc:
        typer.echo(f"millebornes: {exc}", err=True)
        raise typer.Exit(2) from None
    try:
        _schema(settings.database_url, settings.migrate)  # told here in words, before the server starts
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


def _web_missing(exc: ImportError) -> NoReturn:
    typer.echo(
        f"the web app needs the 'web' extra ({exc.name} is not installed): pip install 'millebornes[web]'", err=True
    )
    raise typer.Exit(1) from None


def _database_url(given: str | None) -> str:
    from .web.settings import DEFAULT_DATABASE_URL

    return given or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def _schema(url: str, migrate: bool) -> tuple[str | None, str]:
    """The database upgraded to this version's schema (or, with ``migrate`` False, found there): its
    revisions before and after; a refusal in words (exit status 2) otherwise."""
    from sqlalchemy.exc import SQLAlchemyError

    from .web import schema

    engine = schema.engine(url)
    try:
        if migrate:
            return schema.upgrade(engine)
        rev = schema.check(engine)
        return rev, rev
    except schema.SchemaError as exc:
        typer.echo(f"millebornes: {exc}", err=True)
        raise typer.Exit(2) from None
    except SQLAlchemyError as exc:
        _database_refused(exc)
    finally:
        engine.dispose()


def _database_refused(exc: Exception) -> NoReturn:
    """The database's own words (a connection refused, a file that cannot be opened), without the SQL."""
    typer.echo(f"millebornes: the database refused: {str(getattr(exc, 'orig', None) or exc).strip()}", err=True)
    raise typer.Exit(2) from None


DATABASE_URL_HELP = "SQLAlchemy URL (default: $DATABASE_URL, else sqlite:///millebornes.db)"
db = typer.Typer(
    no_args_is_help=True,
    help="The web server's database: its schema's revision and its upgrade (docs/deploy.md, 'Schema migrations').",
)
app.add_typer(db, name="db")


@db.command("upgrade")
def db_upgrade(database_url: str | None = typer.Option(None, "--database-url", help=DATABASE_URL_HELP)) -> None:
    """Bring the database's schema to this version's, under the lock `serve` takes for it at start."""
    try:
        from sqlalchemy.engine import make_url

        from .web.settings import normalize_database_url
    except ImportError as exc:
        _web_missing(exc)
    url = _database_url(database_url)
    before, after = _schema(url, migrate=True)
    shown = make_url(normalize_database_url(url)).render_as_string(hide_password=True)
    typer.echo(
        f"millebornes: {shown} is at revision {after}"
        if before == after
        else f"millebornes: {shown} upgraded from revision {before or 'none'} to {after}"
    )


@db.command("current")
def db_current(database_url: str | None = typer.Option(None, "--database-url", help=DATABASE_URL_HELP)) -> None:
    """Print the database's schema revision and whether it is this version's; changes nothing."""
    try:
        from .web import onefile, schema
    except ImportError as exc:
        _web_missing(exc)
    url = _database_url(database_url)
    path = onefile.sqlite_path(url)
    if path is not None and not os.path.isfile(path):
        typer.echo(f"millebornes: no database at {path}", err=True)
        raise typer.Exit(2)
    from sqlalchemy.exc import SQLAlchemyError

    engine = schema.engine(url)
    try:
        with engine.connect() as c:
            rev = schema.current(c)
    except SQLAlchemyError as exc:
        _database_refused(exc)
    finally:
        engine.dispose()
    head = schema.head()
    typer.echo(
        f"{rev} (head)" if rev == head else f"{rev or 'none'} (this version needs {head}: millebornes db upgrade)"
    )


@app.command()
def backup(
    target: str = typer.Argument(..., help="the copy's file; it must not exist yet"),
    database_url: str | None = typer.Option(None, "--database-url", help=DATABASE_URL_HELP),
) -> None:
    """Copy a served SQLite database while the server runs (PostgreSQL: pg_dump; docs/deploy.md)."""
    try:
        from .web.backup import BackupRefused
        from .web.backup import backup as copy
    except ImportError as exc:
        _web_missing(exc)
    try:
        done = copy(_database_url(database_url), target)
    except BackupRefused as exc:
        typer.echo(f"millebornes: {exc}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:
        typer.echo(f"millebornes: cannot back up: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"millebornes: backed up to {done.path} ({done.bytes} bytes, {done.tables} tables, "
        f"{done.actions} actions, schema revision {done.revision or 'none'}; integrity ok)"
    )


def env_lang() -> str:
    """The language a player's environment asks for: LC_ALL, then LC_MESSAGES, then LANG (French or
    English, English otherwise)."""
    import os

    from .i18n import lang_of

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return lang_of(value)
    return "en"


class Words:
    """What a command says to a player, from the message catalog, in the player's language."""

    def __init__(self, lang: str | None):
        from .i18n import catalog

        self.catalog = catalog(lang or env_lang())

    def fail(self, key: str, **params) -> NoReturn:
        """Stop the command with the catalog's message (exit status 2, as for a bad option)."""
        self.stop(self.catalog.t(key, **params))

    def stop(self, message: str) -> NoReturn:
        typer.echo(self.catalog.t("cli.error", message=message), err=True)
        raise typer.Exit(2)

    def refused(self, path: str, record: dict, exc) -> None:
        """A record with an action the engine refuses (``exc.move``), its reason in words, seats and sides
        named as at the table."""
        from .notation import replay as rebuild
        from .tui.words import Words as TableWords

        game = rebuild(record, upto=exc.move or 0)
        table = TableWords(self.catalog.lang, game.players, game.teams, None)
        reason = self.catalog.reason(exc.reason, exc.params, seat=table.seat, side=table.side_title)
        self.fail("cli.record_illegal", path=path, n=(exc.move or 0) + 1, reason=reason)


def _lang_option(lang: str | None) -> str | None:
    if lang is not None and lang not in ("en", "fr"):
        Words(None).fail("cli.bad_lang")
    return lang


def _tui_missing(exc: ImportError, words: Words) -> NoReturn:
    typer.echo(words.catalog.t("cli.needs_textual", module=exc.name, command="pip install 'textual==8.2.8'"), err=True)
    raise typer.Exit(1)


def _check_new(words: Words, ruleset: str, players: int, teams: bool | None, bots: list[str] | None) -> None:
    """A new table's edition, player count and seats, refused in the player's words."""
    from .tui.session import check_kind

    if ruleset not in RULESETS:
        words.fail("cli.no_edition", name=ruleset, names=", ".join(RULESETS))
    r = get_ruleset(ruleset)
    counts = sorted(set(r.solo_players) | set(r.team_players))
    if players not in counts or (teams is not None and not r.allows(players, teams)):
        none = words.catalog.t("tui.none")
        words.stop(
            words.catalog.n(
                "cli.bad_players",
                players,
                edition=words.catalog.t(f"edition.{ruleset}"),
                solo=", ".join(map(str, r.solo_players)) or none,
                teams=", ".join(map(str, r.team_players)) or none,
            )
        )
    for item in bots or []:
        for kind in str(item).split(","):
            if kind.strip():
                try:
                    check_kind(kind)
                except ValueError:
                    words.fail("cli.bad_bot", name=kind.strip())


def _read_json(words: Words, path: str, save: bool = False, not_json: str = "cli.not_record"):
    """A JSON file's content, or the command stopped with the reason in words."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError as exc:
        if save:
            words.fail("cli.no_save", path=path)
        words.fail("cli.cannot_read", path=path, error=exc.strerror)
    except OSError as exc:
        words.fail("cli.cannot_read", path=path, error=exc.strerror or str(exc))
    except ValueError:
        words.fail(not_json, path=path)


def _load_record(words: Words, path: str, save: bool = False) -> dict:
    """A record (or save file) read and replayed, or the command stopped with the reason in words."""
    from .actions import IllegalAction
    from .notation import replay as rebuild

    record = _read_json(words, path, save)
    try:
        rebuild(record)
    except IllegalAction as exc:
        words.refused(path, record, exc)
    except (ValueError, TypeError, KeyError, AttributeError):
        words.fail("cli.not_record", path=path)
    return record


@app.command()
def play(
    ruleset: str | None = typer.Option(
        None, "--ruleset", "-r", help="edition; --ruleset, --players or --bots skip the setup screen"
    ),
    players: int | None = typer.Option(None, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    bots: list[str] | None = typer.Option(
        None,
        "--bots",
        "-b",
        help="the seats after yours: "
        f"{', '.join(offered_levels())} (millebornes levels) or human "
        "(hot-seat); comma-separated, the last repeats",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s"),
    lang: str | None = typer.Option(
        None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en; a resumed game keeps its own)"
    ),
    pace: float | None = typer.Option(None, "--pace", min=0, help="seconds between bot moves (default 1)"),
    save: str | None = typer.Option(
        None, "--save", help="the save file (default ~/.local/share/millebornes/save.json)"
    ),
    resume: bool = typer.Option(False, "--resume", help="go on with the saved game"),
) -> None:
    """Play in the terminal against bots, or hot-seat with several people (saves on quit)."""
    words = Words(_lang_option(lang))
    try:
        from .tui.app import MilleBornesApp
        from .tui.session import PlaySession, default_save_path
    except ImportError as exc:
        _tui_missing(exc, words)

    path = save or default_save_path()
    session: PlaySession | None = None
    saved: dict = {}
    if resume:
        _load_record(words, str(path), save=True)
        try:
            session, saved = PlaySession.load(path)
        except ValueError:
            words.fail("cli.not_save", path=path)
        if lang is None and saved.get("lang") in ("en", "fr"):
            words = Words(saved["lang"])
    elif ruleset or players or bots:
        _check_new(words, ruleset or "classic", players or 2, teams, bots)
        try:
            session = PlaySession.new(
                ruleset or "classic", players=players or 2, teams=teams, bots=bots, seed=seed, save_path=path
            )
        except ValueError as exc:  # what the checks above cannot tell (a bot spec's options): the engine's words
            words.stop(str(exc))
    tui = MilleBornesApp(
        session,
        lang=words.catalog.lang,
        pace=pace if pace is not None else saved.get("pace", 1.0),
        seed=seed,
        save_path=path,
    )
    tui.run()
    if tui.saved_to and tui.session and tui.session.game.is_over:  # nothing to go on with: the replay shows it
        typer.echo(
            words.catalog.t(
                "cli.saved_over", path=tui.saved_to, command=f"millebornes replay {shlex.quote(str(tui.saved_to))}"
            )
        )
    elif tui.saved_to:
        typer.echo(
            words.catalog.t(
                "cli.saved",
                path=tui.saved_to,
                command="millebornes play --resume" + (f" --save {save}" if save else ""),
            )
        )


@app.command()
def levels(
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
) -> None:
    """The levels of bots offered to people, weakest first, and how often each beat the one below
    (measured by bench/ladder.py)."""
    from .tui.words import standing_line

    words = Words(_lang_option(lang))
    for level in offered_levels():
        typer.echo(standing_line(words.catalog.lang, level))


@app.command()
def replay(
    file: str = typer.Argument(..., help="a game record (JSON, as Game.record() gives) or a save file"),
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
    step: int = typer.Option(0, "--step", min=0, help="start after this many actions"),
    review_file: str | None = typer.Option(
        None,
        "--review",
        help="a review of this record, as 'millebornes review --json' writes it; else the r key computes one",
    ),
    budget: int | None = typer.Option(
        None,
        "--budget",
        help="worlds a decision for the r key's review, 2 to 5000 (default 1000; 50 is quick and rough)",
    ),
    workers: int | None = typer.Option(
        None, "--workers", "-w", min=1, help="processes for the r key's review (default: all cores)"
    ),
) -> None:
    """Step through a recorded game with the arrow keys; with a review, each move's verdict."""
    words = Words(_lang_option(lang))
    try:
        from .tui.app import ReplayApp
    except ImportError as exc:
        _tui_missing(exc, words)
    record = _load_record(words, file)
    worlds = _review_budget(words, budget)
    review = None
    if review_file is not None:
        from .tui.review_text import check_review

        review = _read_json(words, review_file, not_json="cli.not_review")
        if not check_review(review, record):
            words.fail("cli.not_review", path=review_file)
    ReplayApp(record, lang=words.catalog.lang, step=step, review=review, budget=worlds, workers=workers).run()


@app.command()
def review(
    file: str = typer.Argument(..., help="a finished match's record (JSON, as Game.record() gives)"),
    seats: str | None = typer.Option(
        None,
        "--seats",
        help="seats to review, comma-separated, numbered from 0 as in the record (Seat 1 is 0); default: every seat",
    ),
    budget: int | None = typer.Option(
        None, "--budget", help="worlds a decision, 2 to 5000 (default 1000): more is steadier and slower"
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="picks the worlds: the same seed gives the same review"),
    as_json: bool = typer.Option(False, "--json", help="print the review as JSON (docs/review.md)"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
) -> None:
    """Judge every decision of a finished match as chess sites do: accuracy, mistakes, the better moves."""
    import sys
    from concurrent.futures import ProcessPoolExecutor

    from . import review as R
    from .notation import replay as rebuild
    from .tui.review_text import review_text

    words = Words(_lang_option(lang))
    record = _load_record(words, file)
    players = record["players"]
    chosen = _review_seats(words, seats, players)
    worlds = _review_budget(words, budget)
    if not rebuild(record).is_over:
        words.fail("cli.review_unfinished", path=file)
    bar = _ReviewBar(words.catalog.t("tui.review.progress"))
    workers = workers or os.cpu_count() or 1
    executor = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        result = R.review(record, seats=chosen, worlds=worlds, seed=seed, progress=bar, executor=executor)
    finally:
        bar.close()
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if as_json:
        typer.echo(json.dumps(result))
        return
    tty = sys.stdout.isatty()
    width = shutil.get_terminal_size().columns if tty else 200
    typer.echo(review_text(record, result, words.catalog.lang, width=width, color=tty))


def _review_budget(words: Words, budget: int | None) -> int:
    from . import review as R

    worlds = R.DEFAULT_WORLDS if budget is None else budget
    if not 2 <= worlds <= R.MAX_WORLDS:
        words.fail("cli.review_bad_budget", most=R.MAX_WORLDS, n=worlds)
    return worlds


def _review_seats(words: Words, seats: str | None, players: int) -> list[int] | None:
    """--seats "0,1" as seat numbers of the record, or the command stopped with the seats it may name."""
    if seats is None:
        return None
    try:
        chosen = sorted({int(s) for s in seats.split(",") if s.strip()})
    except ValueError:
        chosen = []
    if not chosen or not all(0 <= s < players for s in chosen):
        words.fail("cli.review_bad_seats", last=players - 1, seats=seats)
    return chosen


class _ReviewBar:
    """Click's progress bar on stderr (shown on a terminal only), started when the review knows its total."""

    def __init__(self, label: str):
        self.label, self.done = label, 0
        self.bar: ProgressBar[int] | None = None

    def __call__(self, done: int, total: int) -> None:
        import sys

        if self.bar is None:
            if not sys.stderr.isatty():
                return
            self.bar = typer.progressbar(
                length=max(total, 1), label=self.label, file=sys.stderr, show_pos=True, show_percent=True
            )
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@app.command()
def selfplay(
    games: int = typer.Option(100, "--games", "-n", min=1, help="matches to play"),
    bots: list[str] = typer.Option(
        ["greedy"], "--bots", "-b", help="bot specs, comma-separated or repeated; they take the sides in turn"
    ),
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    seed: int = typer.Option(0, "--seed", "-s"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to connect to (default: start one)"),
    hands: bool = typer.Option(False, "--hands", help="play single hands instead of full matches"),
    out: str = typer.Option("-", "--out", "-o", help="JSON-lines file to write (- for stdout)"),
) -> None:
    """Play bots against each other and write one JSON line per match: its record and result."""
    import sys

    from . import selfplay as S
    from .executors import make_executor
    from .tournament import parse_bot_options

    specs = parse_bot_options(bots)
    if backend not in ("local", "ray"):
        raise typer.BadParameter("choose local or ray", param_hint="--backend")
    try:
        new_game(get_ruleset(ruleset), players=players, teams=teams, seed=0)
        for spec in specs:
            if not spec.startswith("cmd:"):
                S.make_player(spec, 0)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    try:
        executor = make_executor(backend, workers, address)
    except RuntimeError as exc:
        raise typer.BadParameter(str(exc), param_hint="--backend") from None
    start = time.perf_counter()
    stream = sys.stdout if out == "-" else open(out, "w")
    try:
        with executor:
            n = S.write_selfplay(
                stream,
                games,
                specs,
                ruleset=ruleset,
                players=players,
                teams=teams,
                seed=seed,
                hands=hands,
                executor=executor,
            )
    finally:
        if stream is not sys.stdout:
            stream.close()
    if out != "-":
        typer.echo(f"{n} {'hands' if hands else 'matches'} written to {out} in {time.perf_counter() - start:.1f} s")


def main(prog_name: str | None = None) -> None:
    app(prog_name=prog_name)


if __name__ == "__main__":
    main()
