"""``millebornes learn``: the guided first match in the terminal (:mod:`millebornes.tutorial`), the table of
``millebornes play`` with the lesson over its prompt: what to do and why, a refused move explained, and the hand's
score as the last lesson."""

from __future__ import annotations

from rich.text import Text

from ..observation import Observation
from ..tutorial import LEARNER, LESSONS, Tutor, Tutorial
from .app import GameScreen, MilleBornesApp
from .bindings import localized
from .session import PlaySession


class LearnScreen(GameScreen):
    """The table, where only the lesson's move is taken; the tutor plays its script."""

    def __init__(self, tutorial: Tutorial, lang: str = "en", pace: float = 0.6, session: PlaySession | None = None):
        self.tutorial = tutorial
        super().__init__(session or PlaySession(tutorial.game, ["human", Tutor(tutorial)]), lang, pace)

    def lesson_text(self) -> Text:
        t, w = self.tutorial, self.w
        head = w.t("learn.step", n=t.number, total=len(LESSONS) + 1)
        return Text.assemble(
            (f"{w.t('learn.title')} · {head}\n", "bold cyan"),
            (w.t(f"learn.{t.lesson}.do") + "\n", "bold"),
            (w.t(f"learn.{t.lesson}.why"), "italic"),
        )

    def prompt(self, obs: Observation) -> Text:
        if self.tutorial.over:
            return self.lesson_text()
        return Text.assemble(self.lesson_text(), "\n", super().prompt(obs))

    def apply(self, seat: int | None, action: str) -> bool:
        if seat not in (None, LEARNER) or self.game.to_act != LEARNER:
            return super().apply(seat, action)
        out = self.tutorial.check(action)
        if out.done:
            return super().apply(seat, action)
        self.selected = None
        self.say(self.w.reason(out.refusal) if out.refusal is not None else self.w.t("learn.not_this"))
        self.refresh_view()
        if self.game.decision in ("coup-fourre", "extension"):  # the question was answered the wrong way: again
            self.call_later(self.advance)
        return False

    def _after_hand(self) -> None:
        """The hand's score was the last lesson: the table stays, saying so, until the learner quits."""
        self.busy = False
        self.message = Text("")
        self.refresh_view()


class LearnApp(MilleBornesApp):
    """``millebornes learn``: nothing is saved; quitting leaves the lesson."""

    CSS = MilleBornesApp.CSS + "\n#prompt { max-height: 9; }\n"  # the lesson's three lines above the prompt

    def __init__(self, lang: str = "en", pace: float = 0.6):
        super().__init__(session=None, lang=lang, pace=pace)
        self.tutorial = Tutorial()
        self.session = PlaySession(self.tutorial.game, ["human", Tutor(self.tutorial)])

    def start(self) -> None:
        self.push_screen(localized(LearnScreen, self.lang)(self.tutorial, self.lang, self.pace, self.session))
