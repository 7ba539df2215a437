"""The one message catalog: every word a player reads, in English and French, for the terminal, the browser
pages and the command line.

The catalogs are gettext ``.po`` files kept with Babel, one per language, next to this module. A message id
is a key ("reason.not_moving", "tui.your_play"); its text uses Python's brace placeholders ("{card}"), which
the pages fill the same way. A message with a plural has two forms chosen by the language's plural rule
(French counts 0 and 1 as singular). The server hands a page its catalog as JSON (``Catalog.as_json``).

>>> catalog("fr").t("msg.illegal", reason="…")
'Interdit\\xa0: …'
>>> catalog("en").n("table.cards_in_hand", 1), catalog("fr").n("table.cards_in_hand", 0)
('1 card', '0\\xa0carte')
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from ..actions import PARAM_KINDS

LANGS = ("en", "fr")
HERE = Path(__file__).parent


def lang_of(lang: str | None) -> str:
    """Any language asked for, as one the catalog has (English unless French is asked for)."""
    return "fr" if str(lang or "").lower().startswith("fr") else "en"


class Catalog:
    """The messages of one language."""

    def __init__(self, lang: str):
        self.lang = lang_of(lang)
        self.locale = Locale.parse(self.lang)
        with open(HERE / f"{self.lang}.po", "rb") as f:
            po = read_po(f, locale=self.lang)
        self.messages: dict[str, str] = {}
        self.plurals: dict[str, tuple[str, ...]] = {}
        for message in po:
            key, text = message.id, message.string or ""
            if not key:
                continue
            if isinstance(key, str):
                self.messages[key] = text if isinstance(text, str) else text[0]
            else:
                self.plurals[key[0]] = (text,) if isinstance(text, str) else tuple(text)
        self._plural = gettext.c2py(po.plural_expr)

    def keys(self) -> set[str]:
        return set(self.messages) | set(self.plurals)

    def t(self, key: str, /, **params) -> str:
        """The message `key` with its placeholders filled; a missing key is an error, not a silent gap."""
        return self.messages[key].format(**params)

    def n(self, key: str, count: int, /, **params) -> str:
        """The plural message `key` for `count` (given to the text as {n}, written as this language writes
        numbers)."""
        forms = self.plurals[key]
        index = self._plural(abs(int(count)))
        return forms[min(index, len(forms) - 1)].format(n=self.number(count), **params)

    def number(self, n: int | float) -> str:
        """5000 as '5,000' or '5 000' (French groups with a narrow no-break space)."""
        return format_decimal(n, locale=self.locale)

    def reason(
        self,
        reason: str,
        params: dict,
        seat: Callable[[int], str] | None = None,
        side: Callable[[int], str] | None = None,
    ) -> str:
        """Why the engine refused an action (``IllegalAction.reason`` and ``.params``) in this language.

        Each parameter is rendered by its kind (``millebornes.actions.PARAM_KINDS``): a card id as the
        card's name (an empty battle pile as "empty"), a number as this language writes it, a decision by
        what it asks, and seats and sides by the app's ``seat`` and ``side`` (default "Seat 2", counting
        from 1 as people do).

        >>> catalog("fr").reason("not_moving", {"side": 1, "card": "flat-tire", "top": None})
        'chez Place 2, la voiture est à l’arrêt (pile de bataille\\xa0: vide)\\xa0: Crevaison ne touche qu’une voiture qui roule'
        """
        seat = seat or (lambda s: self.t("seat.name", n=s + 1))
        side = side or seat
        values = {}
        for name, value in params.items():
            kind = PARAM_KINDS.get(name)
            if kind == "card":
                values[name] = self.t(f"card.{value}") if value is not None else self.t("pile.empty")
            elif value is None:
                values[name] = ""
            elif kind == "seat":
                values[name] = seat(value)
            elif kind == "side":
                values[name] = side(value)
            elif kind == "number":
                values[name] = self.number(value)
            elif kind == "decision":
                values[name] = self.t(f"decision.{value}")
        return self.t(f"reason.{reason}", **values)

    def as_json(self) -> dict:
        """What a page needs: {lang, messages: {key: text}, plurals: {key: [one, other]}}."""
        return {
            "lang": self.lang,
            "messages": dict(self.messages),
            "plurals": {k: list(v) for k, v in self.plurals.items()},
        }


def placeholders(text: str) -> set[str]:
    """The names of a message's {placeholders}."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@cache
def catalog(lang: str | None = "en") -> Catalog:
    return Catalog(lang_of(lang))
