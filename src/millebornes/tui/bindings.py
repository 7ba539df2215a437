"""Key bindings in the player's language: a screen's footer labels are keys of the message catalog."""

from __future__ import annotations

from textual.binding import Binding

from ..i18n import catalog


def localized(cls, lang: str):
    """The screen class with its key labels (the footer) in the language: a binding's description is a key
    of the message catalog ("tui.key.hint")."""
    words = catalog(lang)
    bindings = [
        Binding(b.key, b.action, words.t(b.description) if b.description else "", show=b.show, priority=b.priority)
        for b in cls.BINDINGS
    ]
    return type(cls.__name__, (cls,), {"BINDINGS": bindings})
