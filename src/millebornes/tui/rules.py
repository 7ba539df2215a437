"""The terminal's "how to play" screen: the edition's rules told to a newcomer (``?`` at the table and in a replay),
the same text as the browser's rules page and ``millebornes rules EDITION --explain``."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..i18n.howto import how_to_play
from ..i18n.words import Words
from ..rules import Ruleset


class RulesScreen(ModalScreen[None]):
    """How to play the table's edition, scrolled with the arrows and Page keys; Escape or ``?`` goes back."""

    BINDINGS = [
        Binding("escape", "close", "tui.key.back"),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, rules: Ruleset, lang: str, players: int):
        super().__init__()
        self.guide = how_to_play(rules, lang, players)
        self.words = Words(lang)

    def compose(self) -> ComposeResult:
        g = self.guide
        with VerticalScroll(id="rules", classes="dialog"):
            yield Static(Text(g["title"], style="bold yellow"))
            yield Static(Text(g["summary"], style="italic"))
            for s in g["sections"]:
                yield Static(Text("\n" + s["title"], style="bold"))
                for line in s["lines"]:
                    yield Static(Text(line))
                for group in s["groups"]:
                    yield Static(Text("\n" + group["title"], style="bold cyan"))
                    for c in group["cards"]:
                        yield Static(Text("  " + self.words.t("howto.text.card", **c)))
                for r in s["rows"]:
                    yield Static(Text("  " + self.words.t("howto.text.row", **r)))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules").focus()

    def action_close(self) -> None:
        self.dismiss(None)
