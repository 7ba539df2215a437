"""Key bindings in the player's language: a screen's footer labels are keys of the message catalog, and the key that
answers yes is the language's own (``tui.yes_key``: ``y`` for yes, ``o`` for oui)."""

from __future__ import annotations

from textual.binding import Binding

from ..i18n import catalog

YES = ("tui.key.yes", "tui.key.resume")
"""The labels of bindings that answer yes: their key becomes the language's."""


def localized(cls, lang: str):
    """The screen class with its key labels (the footer) in the language: a binding's description is a key
    of the message catalog ("tui.key.hint").  A yes binding takes the language's key, and keeps its own hidden (a
    habit of ``y`` still answers in French)."""
    words = catalog(lang)
    yes = words.t("tui.yes_key")
    bindings = []
    for b in cls.BINDINGS:
        label = words.t(b.description) if b.description else ""
        if b.description in YES and b.key != yes:
            bindings += [Binding(b.key, b.action, show=False), Binding(yes, b.action, label, priority=b.priority)]
            continue
        bindings.append(Binding(b.key, b.action, label, show=b.show, priority=b.priority))
    return type(cls.__name__, (cls,), {"BINDINGS": bindings})
