"""The bridge's settings: a TOML file (``--config``), the command line's options over it, and the token, read from
the environment or a file, never from the command line (``ps`` shows every process's arguments to everyone)."""

from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..rules import RULESETS

TOKEN_VARIABLE = "MILLEBORNES_BOT_TOKEN"
MAX_TABLES = 8
"""The server plays a bot at 8 tables at most (web/botaccounts/gateway.py, TABLES_AT_ONCE)."""
MAX_CLOCK = 3600.0
MAX_MARGIN = 30.0
PROCESSES = ("per-table", "shared")
PLAYERS = tuple(sorted({n for r in RULESETS.values() for n in (*r.solo_players, *r.team_players)}))
"""The table sizes some edition seats (the server refuses a hello that accepts another)."""


class ConfigError(ValueError):
    """A setting that cannot be used; the message names its key."""


@dataclass(frozen=True)
class Challenges:
    """Which challenges the bridge accepts; None: any."""

    editions: tuple[str, ...] | None = None
    players: tuple[int, ...] | None = None
    rated: bool = True
    casual: bool = True
    untimed: bool = True
    """Tables without a turn clock (the server gives the bot its ``decision_seconds`` a decision there)."""
    min_clock: float = 0.0
    """The fewest seconds a decision of a table with a turn clock."""
    max_clock: float | None = None
    """The most seconds a decision of a table with a turn clock (None: no bound)."""
    tables: int = MAX_TABLES
    """Tables played at once."""


@dataclass(frozen=True)
class Config:
    server: str
    """The server's address, ``https://host`` (or ``http://``, ``ws://``, ``wss://``)."""
    program: str
    """``cmd:COMMAND`` (a program speaking the stdio bot protocol) or a built-in bot's spec."""
    token_file: Path | None = None
    processes: str = "per-table"
    log_dir: Path | None = None
    margin: float = 1.0
    """Seconds kept back from each decision's time for the network."""
    challenges: Challenges = field(default_factory=Challenges)

    @property
    def socket_url(self) -> str:
        """The address of the server's ``/ws/bot``."""
        server = self.server.rstrip("/")
        for plain, secure in (("http://", "ws://"), ("https://", "wss://")):
            if server.startswith(plain):
                server = secure + server[len(plain) :]
        return server + "/ws/bot"

    @property
    def http_url(self) -> str:
        server = self.server.rstrip("/")
        for socket, plain in (("ws://", "http://"), ("wss://", "https://")):
            if server.startswith(socket):
                server = plain + server[len(socket) :]
        return server

    @property
    def command(self) -> list[str] | str:
        """The program's command line: a ``cmd:`` program's own, or the built-in bot served by this Python."""
        if self.program.startswith("cmd:"):
            return self.program[4:].strip()
        return [sys.executable, "-m", "millebornes.protocol", self.program]


TOP_KEYS = {"server", "program", "token_file", "processes", "log_dir", "margin", "challenges"}
CHALLENGE_KEYS = {"editions", "players", "rated", "casual", "untimed", "min_clock", "max_clock", "tables"}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_program(program: Any, key: str) -> str:
    if not isinstance(program, str) or not program.strip():
        raise ConfigError(f"{key} is a bot program, cmd:COMMAND, or a built-in bot's name (heuristic, expert ...)")
    program = program.strip()
    if program.startswith("cmd:"):
        if not program[4:].strip():
            raise ConfigError(f"{key}: cmd: needs a command after it, e.g. cmd:node examples/external_bot.js")
        return program
    from ..bots import make_bot

    try:
        make_bot(program, 0)
    except ValueError as exc:
        raise ConfigError(f"{key}: {exc}") from None
    return program


def _check_server(server: Any, key: str) -> str:
    if not isinstance(server, str) or not server.startswith(("http://", "https://", "ws://", "wss://")):
        raise ConfigError(f"{key} is the server's address, starting with https:// (or http://), not {server!r}")
    if "?" in server or "#" in server or "@" in server.partition("://")[2].partition("/")[0]:
        raise ConfigError(f"{key} is the server's address alone: no query, fragment or credentials in it")
    return server


def _challenges(table: Any) -> Challenges:
    if not isinstance(table, dict):
        raise ConfigError("challenges is a table: [challenges]")
    unknown = sorted(set(table) - CHALLENGE_KEYS)
    if unknown:
        raise ConfigError(f"challenges.{unknown[0]} is not a setting; they are {', '.join(sorted(CHALLENGE_KEYS))}")
    got: dict[str, Any] = {}
    if "editions" in table:
        editions = table["editions"]
        if not isinstance(editions, list) or not editions or not all(isinstance(e, str) for e in editions):
            raise ConfigError(f"challenges.editions is a list of editions among {', '.join(RULESETS)}")
        wrong = [e for e in editions if e not in RULESETS]
        if wrong:
            raise ConfigError(f"challenges.editions: {wrong[0]!r} is no edition; they are {', '.join(RULESETS)}")
        got["editions"] = tuple(dict.fromkeys(editions))
    if "players" in table:
        players = table["players"]
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, int) and not isinstance(p, bool) and p in PLAYERS for p in players)
        ):
            raise ConfigError(
                f"challenges.players is a list of table sizes some edition seats ({', '.join(map(str, PLAYERS))}), "
                "e.g. [2, 3]"
            )
        got["players"] = tuple(sorted(set(players)))
    for key in ("rated", "casual", "untimed"):
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"challenges.{key} is true or false, not {table[key]!r}")
            got[key] = table[key]
    for key in ("min_clock", "max_clock"):
        if key in table:
            value = table[key]
            if not _number(value) or not 0 <= value <= MAX_CLOCK:
                raise ConfigError(f"challenges.{key} is seconds a decision, from 0 to {MAX_CLOCK:g}, not {value!r}")
            got[key] = float(value)
    if "tables" in table:
        tables = table["tables"]
        if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= MAX_TABLES:
            raise ConfigError(
                f"challenges.tables is how many tables at once, from 1 to {MAX_TABLES} (the server's limit), "
                f"not {tables!r}"
            )
        got["tables"] = tables
    found = Challenges(**got)
    _check_challenges(found)
    return found


def _check_challenges(c: Challenges) -> None:
    if not (c.rated or c.casual):
        raise ConfigError("challenges.rated and challenges.casual are both false: the bridge would accept nothing")
    if c.max_clock is not None and c.max_clock < c.min_clock:
        raise ConfigError(f"challenges.max_clock ({c.max_clock:g}) is below challenges.min_clock ({c.min_clock:g})")


def read_file(path: Path) -> dict[str, Any]:
    """The file's settings, paths made absolute against the file's folder."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the config file {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise ConfigError(f"{unknown[0]} is not a setting; they are {', '.join(sorted(TOP_KEYS))}")
    for key in ("token_file", "log_dir"):
        if key in data:
            if not isinstance(data[key], str) or not data[key].strip():
                raise ConfigError(f"{key} is a path")
            data[key] = path.parent / Path(data[key]).expanduser()
    return data


def build(
    file: dict[str, Any],
    *,
    server: str | None = None,
    program: str | None = None,
    token_file: Path | None = None,
    processes: str | None = None,
    log_dir: Path | None = None,
    tables: int | None = None,
) -> Config:
    """The settings: the file's (:func:`read_file`), each overridden by the command line's option when given."""
    given = {
        "server": server,
        "program": program,
        "token_file": token_file,
        "processes": processes,
        "log_dir": log_dir,
    }
    data = dict(file) | {k: v for k, v in given.items() if v is not None}
    if "server" not in data:
        raise ConfigError('server is missing: --server URL, or server = "https://..." in the config file')
    if "program" not in data:
        raise ConfigError('program is missing: the bot, as NAME or cmd:COMMAND, or program = "..." in the file')
    processes = data.get("processes", "per-table")
    if processes not in PROCESSES:
        raise ConfigError(f'processes is "per-table" or "shared", not {processes!r}')
    margin = data.get("margin", 1.0)
    if not _number(margin) or not 0 <= margin <= MAX_MARGIN:
        raise ConfigError(f"margin is seconds kept back for the network, from 0 to {MAX_MARGIN:g}, not {margin!r}")
    challenges = _challenges(data.get("challenges", {}))
    if tables is not None:
        if not 1 <= tables <= MAX_TABLES:
            raise ConfigError(f"--tables is from 1 to {MAX_TABLES} (the server's limit), not {tables}")
        challenges = replace(challenges, tables=tables)
    return Config(
        server=_check_server(data["server"], "server"),
        program=_check_program(data["program"], "program"),
        token_file=data.get("token_file"),
        processes=processes,
        log_dir=data.get("log_dir"),
        margin=float(margin),
        challenges=challenges,
    )


def read_token(config: Config, from_option: Path | None = None) -> str:
    """The bot's token: ``--token-file``, else ``MILLEBORNES_BOT_TOKEN``, else the config file's ``token_file``."""
    path = from_option
    if path is None and os.environ.get(TOKEN_VARIABLE, "").strip():
        token = os.environ[TOKEN_VARIABLE].strip()
        where = TOKEN_VARIABLE
    else:
        path = path or config.token_file
        if path is None:
            raise ConfigError(f"the bot's token is missing: set {TOKEN_VARIABLE}, or give --token-file PATH")
        try:
            token = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"token_file: cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
        where = f"the token file {path}"
    if not token or len(token) > 128 or any(c.isspace() for c in token):
        raise ConfigError(f"{where} holds no token: a bot's token is one word of at most 128 characters")
    return token
