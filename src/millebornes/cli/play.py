"""The terminal game's commands: ``play``, ``levels`` and ``replay``."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..bots import LEVELS
from ..bots.ladder import offered_levels, table_of
from ..rules import RULESETS
from ..rules import ruleset as get_ruleset
from .review import review_budget

if TYPE_CHECKING:
    from ..tui.session import PlaySession
    from .words import Words


def _check_new(words: Words, ruleset: str, players: int, teams: bool | None, bots: list[str] | None) -> None:
    """A new table's edition, player count and seats, refused in the player's words; a level must be one offered at
    the table (another bot spec stays anyone's choice)."""
    from ..tui.session import check_kind

    _check_table(words, ruleset, players, teams)
    offered = offered_levels(ruleset, players, teams)
    for item in bots or []:
        for kind in str(item).split(","):
            if kind.strip():
                try:
                    kind = check_kind(kind)
                except ValueError:
                    words.fail("cli.bad_bot", name=kind.strip())
                if kind in LEVELS and kind not in offered:
                    words.fail(
                        "cli.level_not_offered",
                        level=kind,
                        levels=", ".join(offered),
                        table=_table_options(ruleset, players, teams),
                    )


def _table_options(ruleset: str, players: int, teams: bool | None) -> str:
    """The options of ``millebornes levels`` that name the table: '--ruleset classic --players 4 --teams'."""
    resolved = table_of(ruleset, players, teams)[2]
    return f"--ruleset {ruleset} --players {players} " + ("--teams" if resolved else "--no-teams")


def _check_table(words: Words, ruleset: str, players: int, teams: bool | None) -> None:
    """A table's edition and player count, refused in the player's words."""
    if ruleset not in RULESETS:
        words.fail("cli.no_edition", name=ruleset, names=", ".join(RULESETS))
    r = get_ruleset(ruleset)
    counts = sorted(set(r.solo_players) | set(r.team_players))
    if players not in counts or (teams is not None and not r.allows(players, teams)):
        none = words.t("tui.none")
        words.stop(
            words.n(
                "cli.bad_players",
                players,
                edition=words.t(f"edition.{ruleset}"),
                solo=", ".join(map(str, r.solo_players)) or none,
                teams=", ".join(map(str, r.team_players)) or none,
            )
        )


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
    from .words import Words, lang_option, load_record, tui_missing

    words = Words(lang_option(lang))
    try:
        from ..tui.app import MilleBornesApp
        from ..tui.keepsave import unfinished
        from ..tui.session import PlaySession, default_save_path
    except ImportError as exc:
        tui_missing(exc, words)

    path = Path(save) if save else default_save_path()
    session: PlaySession | None = None
    saved: dict = {}
    resume_command = "millebornes play --resume" + (f" --save {shlex.quote(save)}" if save else "")
    if resume:
        load_record(words, str(path), save=True)
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
        lang=words.lang,
        pace=pace if pace is not None else saved.get("pace", 1.0),
        seed=seed,
        save_path=path,
        unfinished=None if resume else unfinished(path),
    )
    tui.run()
    if tui.kept:
        typer.echo(words.t("cli.kept", path=path, command=resume_command))
    elif tui.saved_to and tui.session and tui.session.game.is_over:  # nothing to go on with: the replay shows it
        typer.echo(
            words.t("cli.saved_over", path=tui.saved_to, command=f"millebornes replay {shlex.quote(str(tui.saved_to))}")
        )
    elif tui.saved_to:
        typer.echo(words.t("cli.saved", path=tui.saved_to, command=resume_command))


def learn(
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
    pace: float = typer.Option(0.6, "--pace", min=0, help="seconds between the tutor's moves"),
) -> None:
    """The guided first match: one short hand against a tutor, one idea at a time (nothing is saved)."""
    from .words import Words, lang_option, tui_missing

    words = Words(lang_option(lang))
    try:
        from ..tui.learn import LearnApp
    except ImportError as exc:
        tui_missing(exc, words)
    LearnApp(lang=words.lang, pace=pace).run()


def levels(
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
) -> None:
    """The levels of bots offered to people at a table, weakest first, and how often each beat the one below
    there (measured by bench/ladder.py; a table not measured shows two-player classic's, and says so)."""
    from ..i18n.words import standing_line
    from .words import Words, lang_option

    words = Words(lang_option(lang))
    _check_table(words, ruleset, players, teams)
    for level in offered_levels(ruleset, players, teams):
        typer.echo(standing_line(words.lang, level, ruleset, players, teams))


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
    from .words import Words, lang_option, load_record, read_json, tui_missing

    words = Words(lang_option(lang))
    try:
        from ..tui.app import ReplayApp
    except ImportError as exc:
        tui_missing(exc, words)
    record = load_record(words, file)
    worlds = review_budget(words, budget)
    review = None
    if review_file is not None:
        from ..tui.review_text import check_review

        review = read_json(words, review_file, not_json="cli.not_review")
        if not check_review(review, record):
            words.fail("cli.not_review", path=review_file)
    ReplayApp(record, lang=words.lang, step=step, review=review, budget=worlds, workers=workers).run()
