"""The ``millebornes`` command (also ``python -m millebornes``): the CLI, or, when an extra it needs is not
installed, a word saying which one to install rather than a traceback."""

from __future__ import annotations

import sys

# the first module of each extra the commands import, and the extra that brings it
EXTRA_OF = {
    "typer": "cli",
    "click": "cli",
    "babel": "cli",
    "websockets": "cli",
    "textual": "tui",
    "rich": "tui",
    "fastapi": "web",
    "starlette": "web",
    "uvicorn": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "psycopg": "web",
    "limits": "web",
    "prometheus_client": "web",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "ray": "ray",
    "matplotlib": "plot",
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The extra whose package the failed import names, if it is one of ours."""
    return EXTRA_OF.get((error.name or "").partition(".")[0])


def main() -> None:
    """Run the command line; exit with a clear message if an extra it needs is missing."""
    try:
        from .cli import main as cli

        cli(prog_name="millebornes")
    except ModuleNotFoundError as error:
        extra = missing_extra(error)
        if extra is None:
            raise
        sys.exit(
            f"millebornes: this command needs the [{extra}] extra ({error.name} is not installed): "
            f"pip install 'millebornes[{extra}]'"
        )


if __name__ == "__main__":
    main()
