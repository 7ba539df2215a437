"""The ``millebornes`` command: thin, it delegates to the modules below it. One module per group of commands:
:mod:`.research` (rules, simulations, tournaments, bots, self-play), :mod:`.server` and :mod:`.database` (the
web server and its database), :mod:`.admin` (the operator's tools), :mod:`.play` (the terminal game, its levels and
replays), :mod:`.review` (game reviews); :mod:`.words` says what the player-facing commands say, in the player's
language."""

from __future__ import annotations

import typer

from ..documentation import address
from . import admin, database, play, research, review, server

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="The open Mille Bornes system: rules for every edition, simulation and play.",
    epilog=f"Documentation: {address('index.md')}",
)


def _version(value: bool) -> None:
    """The version, and a second line when the engine runs as pure Python: which engine, and how to get the
    compiled one (English, as the rest of the command's options and help)."""
    if value:
        from .. import __version__, _pure_advice, compiled

        typer.echo(f"millebornes {__version__}")
        if not compiled():
            typer.echo(f"engine: pure Python (slower); for the compiled engine, {_pure_advice()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print the version and stop"
    ),
) -> None:
    """Options that come before any command (the command's help is the app's)."""


# in the order `millebornes --help` lists them, with what the command's help ends with: where it is documented
for command, epilog in (
    (research.rules, f"The rules of each edition: {address('rules.md')}"),
    (research.simulate, f"Researchers: {address('researchers.md')}"),
    (research.bot, f"The bot protocol: {address('protocol.md')}"),
    (research.tournament, f"Bot strength: {address('strength.md')}"),
    (server.serve, server.SERVE_EPILOG),
    (database.backup, f"Backups: {address('deploy.md', '6. Backup and restore')}"),
    (play.play, f"Playing: {address('players.md')}"),
    (play.learn, f"Playing: {address('players.md')}"),
    (play.levels, f"Bot strength: {address('strength.md')}"),
    (play.replay, f"Playing: {address('players.md')}"),
    (review.review, review.REVIEW_EPILOG),
    (research.selfplay, f"Researchers: {address('researchers.md')}"),
    (research.puzzles, f"Puzzles: {address('review.md', 'Learn from your mistakes: puzzles')}"),
):
    app.command(epilog=epilog)(command)
app.add_typer(database.db, name="db")
app.add_typer(admin.admin, name="admin")


def main(prog_name: str | None = None) -> None:
    app(prog_name=prog_name)
