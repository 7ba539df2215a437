"""An unfinished saved match, before a new one replaces it: ``millebornes play`` asks first whether to go on with it,
replace it, or quit and keep it (every move of a match is saved as it is made, so the new match's first move would
overwrite the file)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..i18n.words import Words
from .session import PlaySession

RESUME, REPLACE, KEEP = "resume", "replace", "keep"


def unfinished(path: Path) -> PlaySession | None:
    """The match saved at ``path`` when it is not over yet (a missing or unreadable file holds none)."""
    try:
        session, _ = PlaySession.load(path)
    except (ValueError, OSError):
        return None
    return None if session.game.is_over else session


class UnfinishedScreen(ModalScreen[str]):
    """The question, answered by a key: the saved match goes on, is replaced, or is kept as the app quits."""

    BINDINGS = [
        Binding("y", f"choose('{RESUME}')", "tui.key.resume"),
        Binding("n", f"choose('{REPLACE}')", "tui.key.replace"),
        Binding("q", f"choose('{KEEP}')", "tui.key.quit"),
        Binding("escape", f"choose('{KEEP}')", show=False),
    ]

    def __init__(self, saved: PlaySession, path: Path, lang: str):
        super().__init__()
        self.saved, self.path, self.words = saved, path, Words(lang)

    def compose(self) -> ComposeResult:
        w, game = self.words, self.saved.game
        body = w.t("tui.save_ask_text", path=self.path, edition=w.edition(game.ruleset.name), hand=game.hand_number + 1)
        keys = w.t("tui.save_ask_keys", yes=w.t("tui.yes_key"))
        yield Static(
            Text.assemble((w.t("tui.save_ask_title"), "bold yellow"), "\n", body, "\n\n", (keys, "bold")),
            classes="dialog",
            id="unfinished",
        )
        yield Footer()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
