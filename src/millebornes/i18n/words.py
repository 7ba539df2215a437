"""The words every app says of the game, from the one message catalog: the names of cards, seats, levels and
editions, a side's title at a table, and the engine's reason for a refused move.

The terminal game builds on it its viewer's second person (:mod:`millebornes.tui.words`), the command line its
refusals of a bad option or file (:mod:`millebornes.cli`); it imports neither Textual nor Typer, so each app
needs only its own extra.

>>> card_label("right-of-way", "fr"), card_label("75")
('Véhicule prioritaire', '75 miles')
>>> TableWords("fr", players=4, teams=True).side_title(1)
'Équipe 2 (2+4)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..actions import IllegalAction
from ..bots.ladder import measured_at, offered_levels, standing
from . import catalog, lang_of


def card_label(card: str, lang: str = "en") -> str:
    """The printed name of a card (the names of docs/rules.md): '25 miles', 'Feu vert'..."""
    return catalog(lang).t(f"card.{card}")


def standing_line(lang: str, level: str, ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> str:
    """How an offered level did against the one below it at the table, as the pickers say it (docs/strength.md);
    where the table was not measured, the figure is two-player classic's and the line says so; nothing for a
    level that is not offered there."""
    cat = catalog(lang)
    if level not in offered_levels(ruleset, players, teams):
        return ""
    step = standing(level, ruleset, players, teams)
    name = cat.t(f"level.{level}")
    if step is None:
        return cat.t("level.lowest", level=name)
    params = {
        "level": name,
        "below": cat.t(f"level.{step['below']}"),
        "matches": cat.n("level.matches", step["matches"]),
    }
    # "about 10 times in 10" would read as "always" (the pages say it the same way)
    line = (
        cat.t("level.standing_always", **params)
        if step["in_ten"] >= 10
        else cat.n("level.standing", step["in_ten"], **params)
    )
    return line if measured_at(ruleset, players, teams) else cat.t("level.elsewhere", standing=line)


class Words:
    """The catalog's words in one language (English unless French is asked for)."""

    def __init__(self, lang: str | None):
        self.lang = lang_of(lang)
        self.catalog = catalog(self.lang)

    def t(self, key: str, /, **kw) -> str:
        """The catalog's message ``key`` ("tui.status", "table.battle"...) with its placeholders filled."""
        return self.catalog.t(key, **kw)

    def num(self, n: int) -> str:
        """A number as the language writes it (1,000 or 1 000), like the pages."""
        return self.catalog.number(n)

    def n(self, key: str, count: int, /, **kw) -> str:
        """A plural message of the catalog for ``count``."""
        return self.catalog.n(key, count, **kw)

    def card(self, card: str) -> str:
        return self.t(f"card.{card}")

    def seat(self, seat: int) -> str:
        """'Seat 2' (seats are numbered from 1 for people)."""
        return self.t("seat.name", n=seat + 1)

    def level(self, level: str) -> str:
        return self.t(f"level.{level}")

    def edition(self, name: str) -> str:
        return self.t(f"edition.{name}")

    def edition_summary(self, name: str) -> str:
        key = f"edition.{name}.summary"
        return self.t(key) if key in self.catalog.messages else ""

    def item(self, key: str) -> str:
        """A line of a score breakdown; a key the catalog lacks, in plain letters."""
        name = f"item.{key}"
        return self.t(name) if name in self.catalog.messages else key.replace("_", " ")

    def names_list(self, names: list[str]) -> str:
        """'Seat 1, Seat 2 and Seat 3'."""
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + self.t("and") + names[-1]

    def why(
        self, reason: Mapping[str, Any], side: Callable[[int], str] | None = None, shown: Iterable[str] = ()
    ) -> str:
        """Why a move is better (:func:`millebornes.reasons.reason`'s ``{"code", "params"}``) in one line, its figure
        after it: cards by name, distances in miles or bornes, a side by ``side`` (default: its first seat).
        ``shown``: the figures already beside it ("chance", "match"), left out."""
        params = dict(reason.get("params") or {})
        side = side or self.seat
        values: dict[str, str] = {}
        for name, value in params.items():
            kind = REASON_PARAMS.get(name)
            if kind == "card":
                values[name] = self.card(value)
            elif kind == "side":
                values[name] = side(value)
            elif kind == "miles":
                values[name] = self.n("reason.miles", value)
            elif kind == "points":
                values[name] = self.n("reason.points", value)
            elif kind == "number":
                values[name] = self.num(value)
        text = self.t(f"reason.{reason['code']}", **values)
        figure = self.figure(params, shown)
        return self.t("reason.line", why=text, figure=figure) if figure else text

    def figure(self, params: Mapping[str, Any], shown: Iterable[str] = ()) -> str:
        """What is at stake, as a reason's params quote it: the figure that tells most (``figure``), or when that one
        is ``shown`` already the next of points gained, the match's chance and the hand's."""
        hidden = set(shown)
        for kind in (params.get("figure"), "points", "match", "chance"):
            if kind is None or kind in hidden:
                continue
            if kind == "points" and "gain_points" in params:
                return self.n("reason.figure.points", params["gain_points"])
            if kind in ("match", "chance") and kind in params:
                other = params.get(f"other_{kind}")
                if other is None:
                    return self.t(f"reason.figure.{kind}_alone", chance=self.num(params[kind]))
                return self.t(f"reason.figure.{kind}", chance=self.num(params[kind]), other=self.num(other))
        return ""


REASON_PARAMS = {
    "card": "card",
    "other_card": "card",
    "safety": "card",
    "hazard": "card",
    "remedy": "card",
    "side": "side",
    "km": "miles",
    "left": "miles",
    "more": "miles",
    "distance": "miles",
    "target": "number",
    "bonus": "points",
}
"""How each parameter of a move's reason is said (the figure's own are said by :meth:`Words.figure`); the pages
say them alike (``REASON_PARAMS`` in js/lib/words.js)."""


class TableWords(Words):
    """The words of one table, seen by nobody in particular: its sides by seat, or by team with their seats."""

    def __init__(self, lang: str | None, players: int, teams: bool):
        super().__init__(lang)
        self.players = players
        self.teams = teams
        self.nsides = players // 2 if teams else players

    def side_title(self, side: int) -> str:
        if not self.teams:
            return self.seat(side)
        seats = "+".join(str(s + 1) for s in range(side, self.players, self.nsides))
        return f"{self.t('tui.team', n=side + 1)} ({seats})"

    def because(self, refusal: IllegalAction | str, params: dict | None = None) -> str:
        """Why the engine refused an action (an IllegalAction, or its reason code and parameters), as a clause
        that goes inside a sentence: seats and sides by their names at this table."""
        if isinstance(refusal, IllegalAction):
            code, params = refusal.reason, refusal.params
        else:
            code = refusal
        return self.catalog.reason(code, params or {}, seat=self.seat, side=self.side_title)

    def reason(self, refusal: IllegalAction | str, params: dict | None = None) -> str:
        """The refusal said on its own, with a capital."""
        text = self.because(refusal, params)
        return text[:1].upper() + text[1:]
