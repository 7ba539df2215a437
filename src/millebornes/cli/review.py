"""``millebornes review``: a finished match's decisions judged, printed in words or as JSON."""

from __future__ import annotations

import json
import os
import shutil
from typing import TYPE_CHECKING

import typer

from ..documentation import address

if TYPE_CHECKING:
    from typer._click._termui_impl import ProgressBar

    from .words import Words


REVIEW_EPILOG = f"The game review: {address('review.md')}\n\nIts JSON (--json): {address('review.md', 'The format')}"
"""Where ``review`` is documented: the end of its help."""


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
    as_json: bool = typer.Option(False, "--json", help="print the review as JSON (its format: below)"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    lang: str | None = typer.Option(None, "--lang", help="en or fr (default: from LC_ALL/LANG, else en)"),
) -> None:
    """Judge every decision of a finished match as chess sites do: accuracy, mistakes, the better moves."""
    import sys
    from concurrent.futures import ProcessPoolExecutor

    from .. import review as R
    from ..notation import replay as rebuild
    from ..tui.review_text import review_text
    from .words import Words, lang_option, load_record

    words = Words(lang_option(lang))
    record = load_record(words, file)
    players = record["players"]
    chosen = review_seats(words, seats, players)
    worlds = review_budget(words, budget)
    if not rebuild(record).is_over:
        words.fail("cli.review_unfinished", path=file)
    bar = ReviewBar(words.t("tui.review.progress"))
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
    typer.echo(review_text(record, result, words.lang, width=width, color=tty))


def review_budget(words: Words, budget: int | None) -> int:
    """--budget as worlds a decision (the default when not given), or the command stopped with the bounds."""
    from .. import review as R

    worlds = R.DEFAULT_WORLDS if budget is None else budget
    if not 2 <= worlds <= R.MAX_WORLDS:
        words.fail("cli.review_bad_budget", most=R.MAX_WORLDS, n=worlds)
    return worlds


def review_seats(words: Words, seats: str | None, players: int) -> list[int] | None:
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


class ReviewBar:
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
