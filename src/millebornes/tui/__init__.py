"""Play Mille Bornes in the terminal (Textual): ``millebornes play`` and ``millebornes replay``.

Textual is a dependency of millebornes.  :mod:`.words` and :mod:`.session` hold
the parts that do not need a terminal: the sentences in English and French, and the table with
its seats, bots and save file.
"""

from .session import PlaySession, default_save_path, seat_kinds
from .words import Words, card_label

__all__ = ["PlaySession", "Words", "card_label", "default_save_path", "seat_kinds"]
