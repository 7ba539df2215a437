"""The game review in the terminal replay: a review loaded or computed in the background, a badge on each
reviewed move, the next and previous mistakes, and the seats' summary.

:class:`Reviewing` is mixed into the replay screen (``tui.app.ReplayScreen``), which calls
:meth:`Reviewing.review_lines` when it draws and :meth:`Reviewing.review_badge` when it logs a move. The review is
computed by :func:`millebornes.review.review` in a worker thread, its decisions judged in a pool of
processes (spawned, not forked from the app's threads); quitting stops it at its next batch.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from .. import review as R
from .bindings import localized
from .render import bar
from .review_text import MARKED, ReviewWords

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..state import Game
    from .words import Words

    _Screen = Screen
else:
    _Screen = object


def prepare_processes() -> None:
    """Start multiprocessing's resource tracker now: once Textual runs, its stand-in for stderr has no file
    descriptor to hand the tracker, and a process pool could not start."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


class Stopped(Exception):
    """The replay closed while its review was computed."""


def end_pool(pool: ProcessPoolExecutor, *, at_once: bool) -> None:
    """Let go of the review's processes; ``at_once`` ends them now rather than after the decisions they are
    judging, which at a large budget may take many seconds."""
    processes = getattr(pool, "_processes", None) or {}  # the live dict: shutdown lets go of it, spawns add to it
    if at_once:
        for process in list(processes.values()):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    if at_once:
        threading.Thread(target=_reap, args=(processes,), daemon=True, name="review-reaper").start()


def _reap(processes: dict, grace: float = 1.0) -> None:
    """Kill what a terminate missed: a process the pool spawned for a batch submitted meanwhile, or one too
    busy starting up to act on the signal, so that no review outlives its replay."""
    time.sleep(grace)
    for process in list(processes.values()):
        process.terminate()
        process.join(grace)
        if process.is_alive():
            process.kill()


class SummaryScreen(ModalScreen[int | None]):
    """Each reviewed seat's accuracy and classes, and the key moments: a digit goes to one."""

    BINDINGS = [
        Binding("enter", "close", "tui.key.continue"),
        Binding("escape", "close", show=False),
        Binding("v", "close", show=False),
    ]
    BINDINGS += [Binding(str(n), f"go({n})", show=False) for n in range(1, 10)]

    def __init__(self, words: ReviewWords):
        super().__init__()
        self.words = words
        self.moments = [move["index"] for move, _ in words.key_moments()][:9]

    def compose(self) -> ComposeResult:
        w = self.words
        lines: list[RenderableType] = [
            Text(w.title(), style="bold yellow"),
            Text(w.t("tui.review.summary_keys", n=len(self.moments)), style="dim"),
            Text(""),
            w.summary_table(),
            Text(""),
            Text(w.t("tui.review.key_title"), style="bold underline"),
            w.key_table(numbered=True),
        ]
        yield Static(Group(*lines), classes="dialog summary", id="review-summary")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_go(self, n: int) -> None:
        if n <= len(self.moments):
            self.dismiss(self.moments[n - 1])


class Reviewing(_Screen):
    """The review side of the replay screen (which has ``record``, ``step``, ``lang``, ``w``, ``draw``,
    ``action_step``); a screen to the type checker only, the replay screen being the one at run time."""

    if TYPE_CHECKING:
        record: dict
        step: int
        lang: str
        replay: Callable[..., Game]

        @property
        def w(self) -> Words: ...

        def draw(self) -> None: ...

        def action_step(self, n: int) -> None: ...

    review: dict | None = None
    review_words: ReviewWords | None = None
    review_progress: Text | None = None
    review_message: Text | None = None
    review_budget: int = R.DEFAULT_WORLDS
    review_workers: int | None = None
    review_stopped: bool = False
    review_pool: ProcessPoolExecutor | None = None

    def set_review(self, review: dict) -> None:
        self.review = review
        self.review_words = ReviewWords(self.record, review, self.lang)
        self.review_progress = None

    # -- what the replay shows --------------------------------------------------------------
    def review_lines(self) -> list[Text]:
        """The prompt's lines: the progress of the review, a message or the verdict on the move just played,
        then the keys."""
        lines = [self.review_progress, self.review_message or (None if self.review_progress else self.step_line())]
        keys = Text(self.w.t("tui.review.keys" if self.review else "tui.replay_keys"), style="dim")
        return [line for line in lines if line is not None] + [keys]

    def step_line(self) -> Text | None:
        """The verdict on the move that led to this step, if its seat was reviewed."""
        words, review = self.review_words, self.review
        if words is None or review is None or self.step == 0:
            return None
        i = self.step - 1
        move = words.by_index.get(i)
        if move is not None:
            return words.move_line(move)
        seat = words.seat_at(i)
        if seat not in review["seats"]:
            return None
        said = self.w.t("tui.move", who=self.w.seat(seat), action=words.action(i, self.record["actions"][i]))
        return Text(self.w.t("tui.review.forced", move=said), style="dim")

    def review_badge(self, index: int) -> Text | None:
        """The class of move ``index`` for the log, when it was an inaccuracy or worse."""
        words = self.review_words
        move = words.by_index.get(index) if words else None
        return words.badge(move["class"]) if words and move and move["class"] in MARKED else None

    def say_review(self, key: str, style: str = "bold yellow", **kw) -> None:
        self.review_message = Text(self.w.t(key, **kw), style=style)
        self.draw()

    # -- keys ------------------------------------------------------------------------------
    def action_mistake(self, direction: int) -> None:
        """Go to the next (1) or previous (-1) inaccuracy, mistake or blunder: the step after it."""
        if self.review_words is None:
            self.say_review("tui.review.busy" if self.review_progress else "tui.review.none")
            return
        steps = [m["index"] + 1 for m in self.review_words.marked()]
        ahead = [s for s in steps if s > self.step] if direction > 0 else [s for s in steps if s < self.step]
        if not ahead:
            self.say_review("tui.review.no_next" if direction > 0 else "tui.review.no_previous")
            return
        target = ahead[0] if direction > 0 else ahead[-1]
        self.action_step(target - self.step)

    def action_summary(self) -> None:
        if self.review_words is None:
            self.say_review("tui.review.busy" if self.review_progress else "tui.review.none")
            return

        def chosen(index: int | None) -> None:
            if index is not None:
                self.action_step(index + 1 - self.step)

        self.app.push_screen(localized(SummaryScreen, self.lang)(self.review_words), callback=chosen)

    def action_review(self) -> None:
        """Compute the review of every seat in the background, its progress in the prompt."""
        if self.review is not None:
            self.say_review("tui.review.ready")
            return
        if self.review_progress is not None:
            return
        if not self.replay(self.record).is_over:
            self.say_review("tui.review.unfinished", style="bold red")
            return
        record, worlds, workers = self.record, self.review_budget, self.review_workers or os.cpu_count() or 1
        self.review_progress = Text(self.w.t("tui.review.start", worlds=self.w.catalog.number(worlds)), style="yellow")
        self.review_message = None
        self.draw()

        def progress(done: int, total: int) -> None:
            if self.review_stopped:
                raise Stopped
            try:
                self.app.call_from_thread(self._review_progress, done, total)
            except RuntimeError:  # the app has closed meanwhile
                raise Stopped from None

        def work() -> None:
            pool, finished = None, False
            result: dict | str
            try:
                if workers > 1:
                    pool = self.review_pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
                result = R.review(record, worlds=worlds, progress=progress, executor=pool)
                finished = True
            except Exception as exc:  # shown in the prompt, never a crash of the replay
                if self.review_stopped:
                    return
                result = str(exc) or type(exc).__name__
            finally:
                self.review_pool = None
                if pool is not None:  # stopped or failed: the app may be closing before on_unmount sees the pool
                    end_pool(pool, at_once=not finished)
            try:
                self.app.call_from_thread(self._review_done, result)
            except RuntimeError:  # the app has closed meanwhile
                pass

        self.run_worker(work, thread=True, group="review", exit_on_error=False)

    def _review_progress(self, done: int, total: int) -> None:
        if self.review is not None:
            return
        line = Text(bar(done, max(total, 1), 20) + " ", style="green")
        line.append(self.w.t("tui.review.running", done=done, total=total), style="yellow")
        self.review_progress = line
        self.draw()

    def _review_done(self, result: dict | str) -> None:
        self.review_progress = None
        if isinstance(result, str):
            self.say_review("tui.review.failed", style="bold red", error=result)
            return
        self.set_review(result)
        self.say_review("tui.review.ready")

    def on_unmount(self) -> None:
        """The replay closes: the review stops now (its worker at its next batch, its processes at once, so
        that quitting does not wait for the decisions they were judging)."""
        pool = self.review_pool  # read before the flag: once the worker sees it, it lets go of the pool
        self.review_stopped = True
        if pool is not None:
            end_pool(pool, at_once=True)
