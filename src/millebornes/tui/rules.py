"""The terminal's "how to play" screen: the edition's rules told to a newcomer (``?`` at the table and in a replay),
the same text as the browser's rules page and ``millebornes rules EDITION --explain``."""

from __future__ import annotations

from rich.padding import Padding
from rich.table import Table
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
    """How to play the table's edition, after the table's keys when it has some (a replay's are in its footer),
    scrolled with the arrows and Page keys; Escape or ``?`` goes back."""

    BINDINGS = [
        Binding("escape", "close", "tui.key.back"),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, rules: Ruleset, lang: str, players: int, keys: list[tuple[str, str]] | None = None):
        super().__init__()
        self.guide = how_to_play(rules, lang, players)
        self.words = Words(lang)
        self.keys = keys or []

    def compose(self) -> ComposeResult:
        g = self.guide
        with VerticalScroll(id="rules", classes="dialog"):
            yield Static(Text(g["title"], style="bold yellow"))
            yield Static(Text(g["summary"], style="italic"))
            if self.keys:
                yield Static(Text("\n" + self.words.t("tui.keys_title"), style="bold"))
                grid = Table.grid(padding=(0, 2))  # a long line wraps under its words, not under its key
                grid.add_column(style="bold cyan", no_wrap=True)
                grid.add_column()
                for key, does in self.keys:
                    grid.add_row(key, does)
                yield Static(Padding(grid, (0, 0, 0, 2)), id="keys")
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
