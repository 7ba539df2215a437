"""Nicknames that only look like something else.

A nickname is shown beside the table's own names for seats and bots ("Seat 2", "Bot 1"), so one that reads
as such a name, whatever letters draw it, could pass its player off as the table itself or as another seat.
Two checks, after the usual NFKC folding that turns full-width and styled letters into plain ones:

- letters of one writing system only (Latin mixed with the Han, kana or Hangul that are written beside it
  is allowed; Latin with Cyrillic or Greek is not), the usual defence against words drawn from two scripts;
- a name in a single script that draws a reserved word in letters of another ("ЅЕАТ 2" all in Cyrillic)
  is read through the table of such letters below, then checked like a Latin one.
"""

from __future__ import annotations

import re
import unicodedata

RESERVED = re.compile(r"^(b[o0]t|r[o0]b[o0]t|seat|p[l1|]ace)\W*\d")
"""The table's own names, once read as Latin (``l``, ``1`` and ``|`` look alike, and so do ``o`` and ``0``)."""

# Cyrillic and Greek letters (lower case, after casefold) drawn like a Latin letter in common fonts.
_LATIN_LOOK = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "ь": "b",
        "с": "c",
        "ԁ": "d",
        "е": "e",
        "ё": "e",
        "һ": "h",
        "н": "h",
        "і": "l",
        "ї": "l",
        "ӏ": "l",
        "ј": "j",
        "к": "k",
        "м": "m",
        "п": "n",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "г": "r",
        "ѕ": "s",
        "т": "t",
        "ѵ": "v",
        "ԝ": "w",
        "х": "x",
        "у": "y",
        "α": "a",
        "β": "b",
        "ϲ": "c",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "ζ": "z",
        "i": "l",
    }
)

_NEUTRAL = {"MODIFIER", "COMBINING"}
"""Letters every script borrows (the ʻ of Hawaiʻi)."""
_WRITTEN_TOGETHER = (
    {"CJK", "IDEOGRAPHIC", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"},
    {"CJK", "IDEOGRAPHIC", "HANGUL"},
    {"CJK", "IDEOGRAPHIC", "BOPOMOFO"},
)
"""Scripts one language writes side by side, each also with Latin."""


def script(letter: str) -> str:
    """The writing system of a letter, read from its Unicode name ("CYRILLIC CAPITAL LETTER DZE")."""
    return unicodedata.name(letter, "UNKNOWN").split(" ")[0]


def mixes_scripts(name: str) -> bool:
    """Letters from writing systems no language writes together."""
    scripts = {script(c) for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c)[0] == "L"}
    scripts -= _NEUTRAL
    return len(scripts) > 1 and not any(scripts - {"LATIN"} <= together for together in _WRITTEN_TOGETHER)


def reads_as_reserved(name: str) -> bool:
    """Whether the name, read as the Latin letters it looks like, is one of the table's own."""
    return bool(RESERVED.match(unicodedata.normalize("NFKC", name).casefold().translate(_LATIN_LOOK)))
