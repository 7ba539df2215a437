"""``millebornes db`` and ``millebornes backup``: the web server's database, its schema and its copy."""

from __future__ import annotations

import os
from typing import NoReturn

import typer

from ..documentation import address
from ..web.settings import DEFAULT_DATABASE_URL  # no web extra needed: the default is said in the help


def web_missing(exc: ImportError) -> NoReturn:
    """A web command without the [web] extra: which one to install, rather than a traceback."""
    typer.echo(
        f"the web app needs the 'web' extra ({exc.name} is not installed): pip install 'millebornes[web]'", err=True
    )
    raise typer.Exit(1) from None


def _database_url(given: str | None) -> str:
    return given or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def ready_schema(url: str, migrate: bool) -> tuple[str | None, str]:
    """The database upgraded to this version's schema (or, with ``migrate`` False, found there): its
    revisions before and after; a refusal in words (exit status 2) otherwise."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..web.db import schema

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


DATABASE_URL_HELP = f"SQLAlchemy URL (default: $DATABASE_URL, else {DEFAULT_DATABASE_URL})"
db = typer.Typer(
    no_args_is_help=True,
    help="The web server's database: its schema's revision and its upgrade.",
    epilog=f"Schema migrations: {address('deploy.md', '5. Schema migrations')}",
)


@db.command("upgrade")
def db_upgrade(database_url: str | None = typer.Option(None, "--database-url", help=DATABASE_URL_HELP)) -> None:
    """Bring the database's schema to this version's, under the lock `serve` takes for it at start."""
    try:
        from sqlalchemy.engine import make_url

        from ..web.settings import normalize_database_url
    except ImportError as exc:
        web_missing(exc)
    url = _database_url(database_url)
    before, after = ready_schema(url, migrate=True)
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
        from ..web.db import onefile, schema
    except ImportError as exc:
        web_missing(exc)
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


def backup(
    target: str = typer.Argument(..., help="the copy's file; it must not exist yet"),
    database_url: str | None = typer.Option(None, "--database-url", help=DATABASE_URL_HELP),
) -> None:
    """Copy a served SQLite database while the server runs (PostgreSQL: pg_dump)."""
    try:
        from ..web.db.backup import BackupRefused
        from ..web.db.backup import backup as copy
    except ImportError as exc:
        web_missing(exc)
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
