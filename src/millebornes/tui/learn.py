"""``millebornes learn``: the guided first match in the terminal (:mod:`millebornes.tutorial`), the table of
``millebornes play`` with the lesson over its prompt: what to do and why, a refused move explained, and the hand's
score as the last lesson, on an end screen that says what to do next; nothing moves after it, and nothing is saved."""

from __future__ import annotations

from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..events import HandResult
from ..observation import Observation
from ..rules import Ruleset, ruleset
from ..tutorial import EDITION, GOAL, LEARNER, LESSONS, Tutor, Tutorial, scored
from .app import GameScreen, MilleBornesApp
from .bindings import localized
from .render import breakdown_table
from .rules import RulesScreen
from .session import PlaySession
from .words import Words

RULES_KEY = "?"


class LessonEndScreen(Screen):
    """The last lesson, the hand's score sheet and what each point was for, then the end: what to do next, and the
    keys to read the rules or to leave.  The table behind it stays as the hand left it."""

    BINDINGS = [
        Binding("q", "app.quit", "tui.key.quit"),
        Binding("question_mark", "rules", "tui.key.rules"),
    ]

    def __init__(self, tutorial: Tutorial, result: HandResult, words: Words, lang: str):
        super().__init__()
        self.tutorial, self.result, self.w, self.lang = tutorial, result, words, lang

    def compose(self) -> ComposeResult:
        t, w = self.tutorial, self.w
        game = t.game
        with VerticalScroll(id="lesson-end", classes="dialog"):
            yield Static(
                Text(
                    f"{w.t('learn.title')} · {w.t('learn.step', n=t.number, total=len(LESSONS) + 1)}", style="bold cyan"
                )
            )
            yield Static(Text(w.t("learn.score.do"), style="bold"))
            yield Static(Padding(breakdown_table(self.result, game.match_scores, w), (1, 0, 1, 2)))
            yield Static(Text(w.t("learn.scored.title"), style="bold"))
            for item, points in scored(game):
                yield Static(Padding(Text("• " + w.t(f"learn.scored.{item}", points=w.num(points))), (0, 0, 0, 2)))
            yield Static(Text("\n" + w.t("learn.score.why", goal=w.num(GOAL)), style="italic"))
            yield Static(Text("\n" + w.t("learn.end.title"), style="bold yellow"))
            for line in (
                w.t("learn.tui.play", command="millebornes play"),
                w.t("learn.tui.rules", command=f"millebornes rules {EDITION} --explain", key=RULES_KEY),
                w.t("learn.tui.again", command="millebornes learn"),
            ):
                yield Static(Padding(Text("• " + line), (0, 0, 0, 2)))
            yield Static(Text("\n" + w.t("learn.tui.keys", key=RULES_KEY), style="bold"))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lesson-end").focus()

    def action_rules(self) -> None:
        """The edition's own rules, a match of several hands (the guided match is one)."""
        self.app.push_screen(localized(RulesScreen, self.lang)(ruleset(EDITION), self.lang, self.tutorial.game.players))


class LearnScreen(GameScreen):
    """The table, where only the lesson's move is taken; the tutor plays its script.  Nothing is saved: ``q``
    quits."""

    BINDINGS = [
        Binding("q", "app.quit", "tui.key.quit"),
        *(b for b in GameScreen.BINDINGS if isinstance(b, Binding) and b.key != "q"),
    ]

    def __init__(self, tutorial: Tutorial, lang: str = "en", pace: float = 0.6, session: PlaySession | None = None):
        self.tutorial = tutorial
        super().__init__(session or PlaySession(tutorial.game, ["human", Tutor(tutorial)]), lang, pace)

    @property
    def rules(self) -> Ruleset:
        """The edition's own rules: a real match goes on hand after hand, as the last lesson says."""
        return ruleset(EDITION)

    def lesson_text(self) -> Text:
        t, w = self.tutorial, self.w
        head = w.t("learn.step", n=t.number, total=len(LESSONS) + 1)
        return Text.assemble(
            (f"{w.t('learn.title')} · {head}\n", "bold cyan"),
            (w.t(f"learn.{t.lesson}.do") + "\n", "bold"),
            (w.t(f"learn.{t.lesson}.why", goal=w.num(GOAL)), "italic"),
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

    def show_hand_over(self, result: HandResult) -> None:
        """The hand was the match: its score is the last lesson, on the end screen, and nothing moves after it."""
        self.busy = True
        self.message = Text("")
        self.refresh_view()
        self.app.push_screen(localized(LessonEndScreen, self.lang)(self.tutorial, result, self.w, self.lang))


class LearnApp(MilleBornesApp):
    """``millebornes learn``: nothing is saved; quitting leaves the lesson."""

    CSS = MilleBornesApp.CSS + "\n#prompt { max-height: 9; }\nLessonEndScreen { align: center middle; }\n"
    """The lesson's three lines above the prompt; the end screen in the middle."""

    def __init__(self, lang: str = "en", pace: float = 0.6):
        super().__init__(session=None, lang=lang, pace=pace)
        self.tutorial = Tutorial()
        self.session = PlaySession(self.tutorial.game, ["human", Tutor(self.tutorial)])

    def start(self) -> None:
        self.push_screen(localized(LearnScreen, self.lang)(self.tutorial, self.lang, self.pace, self.session))
