"""``millebornes admin``: the operator's tools on the web server's database (docs/operators.md, "Operators' tools").

Each command opens the database the way ``serve`` is told to (``--database-url``, else ``$DATABASE_URL``, else the
default), never changes its schema, does one thing and says it in one line; a bad argument or an unknown name is
refused in words with exit status 2, and nothing changes.  The work is web/admin/service.py's."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from ..documentation import address
from .database import DATABASE_URL_HELP, _database_refused, _database_url, web_missing

if TYPE_CHECKING:
    from datetime import datetime

    from ..web.admin.repo import Signup
    from ..web.admin.service import Address
    from ..web.db.database import Database

admin = typer.Typer(
    no_args_is_help=True,
    help="The operator's tools: disable an account, revoke or issue a bot's token, delete a table, list the sign-ups.",
    epilog=f"Operators' tools: {address('operators.md', 'Operators' + chr(39) + ' tools')}",
)

DatabaseUrl = typer.Option(None, "--database-url", help=DATABASE_URL_HELP)


def _refused(message: str) -> NoReturn:
    typer.echo(f"millebornes: {message}", err=True)
    raise typer.Exit(2)


@contextmanager
def _database(given: str | None) -> Iterator[Database]:
    """The server's database as it is (a schema behind this version's is refused: ``millebornes db upgrade``)."""
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from ..web.db import onefile
        from ..web.db.database import Database
        from ..web.errors import SchemaError
    except ImportError as exc:
        web_missing(exc)
    url = _database_url(given)
    try:
        path = onefile.sqlite_path(url)
    except Exception as exc:
        raise typer.BadParameter(f"not a database URL: {exc}", param_hint="--database-url") from None
    if path is not None and not os.path.isfile(path):
        _refused(f"no database at {path}")
    try:
        db = Database(url, migrate=False)
    except SchemaError as exc:
        _refused(str(exc))
    except SQLAlchemyError as exc:
        _database_refused(exc)
    try:
        yield db
    finally:
        db.close()


def _run(given: str | None, work: Callable[[Database], Any]) -> Any:
    """``work`` on the database; its refusal in words (exit status 2)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..web.admin.service import AdminRefused

    with _database(given) as db:
        try:
            return work(db)
        except AdminRefused as exc:
            _refused(str(exc))
        except SQLAlchemyError as exc:
            _database_refused(exc)


@admin.command("disable")
def disable(
    username: str = typer.Argument(..., help="the account, a person's or a bot's"),
    database_url: str | None = DatabaseUrl,
) -> None:
    """Disable an account: it signs in nowhere, its sign-ins and known devices are forgotten, and its bots (or, a
    bot, itself) are disconnected and cannot reconnect until it is enabled."""
    from ..web.admin import service

    typer.echo("millebornes: " + _run(database_url, lambda db: service.disable(db, username)))


@admin.command("enable")
def enable(username: str = typer.Argument(..., help="the account"), database_url: str | None = DatabaseUrl) -> None:
    """Enable a disabled account again."""
    from ..web.admin import service

    typer.echo("millebornes: " + _run(database_url, lambda db: service.enable(db, username)))


@admin.command("revoke-bot")
def revoke_bot(
    botname: str = typer.Argument(..., help="the bot account"), database_url: str | None = DatabaseUrl
) -> None:
    """Revoke a bot's token, as its owner's page does: its live connection closes within seconds."""
    from ..web.admin import service

    typer.echo("millebornes: " + _run(database_url, lambda db: service.revoke_bot(db, botname)))


@admin.command("issue-bot-token")
def issue_bot_token(
    owner: str = typer.Argument(..., help="the person's account that owns the bot"),
    botname: str = typer.Argument(..., help="the bot: made if it does not exist, else its token renewed"),
    database_url: str | None = DatabaseUrl,
) -> None:
    """Print a bot's new token on stdout, once (what was done goes to stderr): for a local server's operator, who
    runs bots without the account pages."""
    from ..web.admin import service

    line, token = _run(database_url, lambda db: service.issue_bot_token(db, owner, botname))
    typer.echo("millebornes: " + line, err=True)
    typer.echo(token)


@admin.command("delete-table")
def delete_table(
    table_id: str = typer.Argument(..., help="the table's id, as in its link /t/<id>"),
    force: bool = typer.Option(False, "--force", help="delete a live table (waiting or playing) too"),
    database_url: str | None = DatabaseUrl,
) -> None:
    """Delete a table and everything of it. A live one only with --force: the server processes holding it close
    its room at their next sweep (--sweep-every). A finished rated match's rating changes stay applied."""
    from ..web.admin import service

    typer.echo("millebornes: " + _run(database_url, lambda db: service.delete_table(db, table_id, force)))


@admin.command("signups")
def signups(
    since: float = typer.Option(24.0, "--since", min=0.001, max=24 * 366, help="the last HOURS (at most a year)"),
    address: str | None = typer.Option(None, "--address", help="this address's sign-ups alone"),
    limit: int = typer.Option(100, "--limit", min=1, max=1000, help="at most this many sign-ups"),
    by_address: bool = typer.Option(False, "--by-address", help="one line per address, the most sign-ups first"),
    as_json: bool = typer.Option(False, "--json", help="JSON, one object (sign-ups, or addresses)"),
    database_url: str | None = DatabaseUrl,
) -> None:
    """The recent sign-ups, newest first, with the address each was made from (bots are their owners')."""
    from ..web.admin import service

    found = _run(database_url, lambda db: service.signups(db, since, address, limit))
    if by_address:
        groups = service.by_address(found)
        if as_json:
            typer.echo(json.dumps({"addresses": [_group(g) for g in groups], "limit": limit}))
            return
        typer.echo(f"{'ADDRESS':<40} {'SIGN-UPS':>8}  {'NEWEST':<19}  USERNAMES")
        for g in groups:
            typer.echo(f"{g.address or '-':<40} {g.count:>8}  {g.newest:%Y-%m-%d %H:%M:%S}  {' '.join(g.usernames)}")
    elif as_json:
        typer.echo(json.dumps({"signups": [_signup(s) for s in found], "limit": limit}))
        return
    else:
        typer.echo(f"{'CREATED':<19}  {'ADDRESS':<40} {'USERNAME':<20} DISABLED")
        for s in found:
            off = "yes" if s.disabled else ""
            typer.echo(f"{s.created:%Y-%m-%d %H:%M:%S}  {s.address or '-':<40} {s.username:<20} {off}".rstrip())
    typer.echo(
        f"millebornes: {len(found)} sign-ups in the last {since:g} hours"
        + (f" from {address}" if address else "")
        + (f" (the newest {limit}: --limit shows more)" if len(found) == limit else ""),
        err=True,
    )


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat(timespec="seconds") + "Z"


def _signup(s: Signup) -> dict:
    return {"username": s.username, "created": _iso(s.created), "address": s.address, "disabled": _iso(s.disabled)}


def _group(g: Address) -> dict:
    return {"address": g.address, "signups": g.count, "newest": _iso(g.newest), "usernames": g.usernames}
