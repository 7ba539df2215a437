"""Everything the terminal app says, in English or French, from the one message catalog
(:mod:`millebornes.i18n`): card labels, names of seats and sides, the log of events, the engine's
reasons for a refused move, score breakdowns.

Kept apart from the widgets so that it can be tested without a terminal.

>>> card_label("right-of-way", "fr"), card_label("75")
('Véhicule prioritaire', '75 miles')
>>> Words("fr", players=2, teams=False, viewer=0).reason("needs_roll", {"card": "75", "top": None, "need": "roll"})
'Il vous faut d’abord un Feu vert (pile de bataille\\xa0: vide)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import IllegalAction
from ..bots.ladder import offered_levels, standing
from ..cards import CARD_IDS, GROUP
from ..i18n import catalog, lang_of

LANGS = ("en", "fr")


def card_label(card: str, lang: str = "en") -> str:
    """The printed name of a card (the names of docs/rules.md): '25 miles', 'Feu vert'..."""
    return catalog(lang).t(f"card.{card}")


def standing_line(lang: str, level: str) -> str:
    """How an offered level did against the one below it, as the pickers say it (docs/strength.md); nothing for a
    level that is not offered."""
    cat = catalog(lang)
    offered = offered_levels()
    if level not in offered:
        return ""
    step = standing(level)
    name = cat.t(f"level.{level}")
    if step is None:
        return cat.t("level.lowest", level=name)
    return cat.n(
        "level.standing",
        step["in_ten"],
        level=name,
        below=cat.t(f"level.{step['below']}"),
        matches=cat.n("level.matches", step["matches"]),
    )


class Words:
    """The sentences of one table, seen by one viewer seat, in one language."""

    def __init__(self, lang: str, players: int, teams: bool, viewer: int | None, kinds: list[str] | None = None):
        self.lang = lang_of(lang)
        self.catalog = catalog(self.lang)
        self.players = players
        self.teams = teams
        self.nsides = players // 2 if teams else players
        self.viewer = viewer
        self.kinds = kinds

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

    def label(self, label: str) -> str:
        """'Battle:' ('Bataille :' in French, with its no-break space)."""
        return self.t("tui.label", label=label)

    # -- names --------------------------------------------------------------------------
    def seat(self, seat: int) -> str:
        """'Seat 2' (seats are numbered from 1 for people)."""
        return self.t("seat.name", n=seat + 1)

    def who(self, seat: int) -> str:
        return self.t("tui.you") if seat == self.viewer else self.seat(seat)

    def side(self, side: int) -> str:
        """A side as a target or a winner: 'you', 'Seat 2', 'Team 1'."""
        if self.viewer is not None and side == self.viewer % self.nsides:
            return self.t("tui.your_team" if self.teams else "tui.you")
        return self.side_title(side)

    def side_title(self, side: int) -> str:
        if not self.teams:
            return self.seat(side)
        seats = "+".join(str(s + 1) for s in range(side, self.players, self.nsides))
        return f"{self.t('tui.team', n=side + 1)} ({seats})"

    def kind(self, seat: int) -> str:
        if not self.kinds:
            return ""
        k = self.kinds[seat]
        if k == "human":
            return self.t("tui.human")
        level = f"level.{k}"
        return self.t("tui.bot", level=self.t(level) if level in self.catalog.messages else k)

    def level(self, level: str) -> str:
        return self.t(f"level.{level}")

    def names_list(self, names: list[str]) -> str:
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + self.t("and") + names[-1]

    # -- actions and events -------------------------------------------------------------
    def action(self, action: str, top: str | None = None) -> str:
        """An action string in words: 'play flat-tire 1' -> 'Play Flat Tire on Seat 2'; ``top`` is the
        card on the discard pile, named by 'take-discard'."""
        words = action.split()
        if words[0] == "play" and len(words) == 3:
            return self.t("action.play_on", card=self.card(words[1]), side=self.side(int(words[2])))
        if words[0] in ("play", "discard"):
            return self.t(f"action.{words[0]}", card=self.card(words[1]))
        if words[0] == "take-discard":
            return self.t("action.take-discard", card=self.card(top) if top else self.t("table.discard"))
        return self.t(f"action.{words[0]}")

    def _ev(self, key: str, seat: int, **kw) -> str:
        if seat == self.viewer:
            return self.t(f"tui.ev.{key}_you", **kw)
        return self.t(f"tui.ev.{key}", who=self.seat(seat), **kw)

    def event(self, ev: Mapping[str, Any]) -> str | None:
        """One public event in words, or None for events not worth a log line (other seats' draws)."""
        kind = ev["type"]
        if kind == "play":
            card = ev["card"]
            if GROUP[CARD_IDS.index(card)] == "hazard":
                return self._ev("attack", ev["seat"], card=self.card(card), target=self.side(ev["side"]))
            key = "safety" if GROUP[CARD_IDS.index(card)] == "safety" else "play"
            return self._ev(key, ev["seat"], card=self.card(card))
        if kind == "discard":
            return self._ev("discard", ev["seat"], card=self.card(ev["card"]))
        if kind == "take-discard":
            return self._ev("take", ev["seat"], card=self.card(ev["card"]))
        if kind == "coup-fourre":
            return self._ev("cf", ev["seat"], card=self.card(ev["card"]), hazard=self.card(ev["hazard"]))
        if kind == "extend":
            return self._ev("extend", ev["seat"], target=self.num(ev["target"]))
        if kind == "end-hand":
            return self._ev("end", ev["seat"])
        if kind == "deal":
            return self._ev("deal", ev["first"], n=ev["hand"] + 1, target=self.num(ev["target"]))
        if kind == "hand-over":
            return self.t("tui.ev.hand_over", n=ev["hand"] + 1, result=self.result(ev["winners"], ev["points"]))
        if kind == "match-over":
            return self.t("tui.ev.match_over", result=self.result(ev["winners"], ev["scores"]))
        return None

    def result(self, winners: list[int], points: list[int]) -> str:
        names = [self.side(s) for s in winners]
        mine = self.viewer is not None and self.viewer % self.nsides in winners and not self.teams
        verb = self.t("tui.win_you" if mine else "tui.wins" if len(names) == 1 else "tui.win_plural")
        head = self.t("tui.winners", names=self.names_list(names), verb=verb)
        head = head[0].upper() + head[1:]
        pts = ", ".join(
            self.t("tui.points_list", name=self.side_title(s), pts=self.num(p)) for s, p in enumerate(points)
        )
        return f"{head} ({pts})"

    def drew(self, before: list[str], after: list[str], events: Sequence[Mapping[str, Any]]) -> str | None:
        """'You drew 75 miles': the viewer's new cards, from its own hand before and after."""
        if self.viewer is None or any(e["type"] == "deal" for e in events):
            return None
        if not any(e["type"] == "draw" and e["seat"] == self.viewer for e in events):
            return None
        gone: Counter[str] = Counter()
        came: Counter[str] = Counter()
        for e in events:
            if e.get("seat") != self.viewer:
                continue
            if e["type"] in ("play", "discard"):
                gone[e["card"]] += 1
            elif e["type"] == "coup-fourre":
                gone[e["card"]] += 1
            elif e["type"] == "take-discard":
                came[e["card"]] += 1
        new = Counter(after) - (Counter(before) - gone + came)
        cards = [self.card(c) for c in CARD_IDS for _ in range(new[c])]
        return self.t("tui.ev.drew_you", cards=self.names_list(cards)) if cards else None

    # -- refused actions ---------------------------------------------------------------
    def reason(self, refusal: IllegalAction | str, params: dict | None = None) -> str:
        """Why the engine refused an action (an IllegalAction, or its reason code and parameters), in this
        language, seats and sides by their names at this table."""
        if isinstance(refusal, IllegalAction):
            code, params = refusal.reason, refusal.params
        else:
            code = refusal
        text = self.catalog.reason(code, params or {}, seat=self.seat, side=self.side_title)
        return text[:1].upper() + text[1:]

    # -- scores --------------------------------------------------------------------------
    def item(self, key: str) -> str:
        name = f"item.{key}"
        return self.t(name) if name in self.catalog.messages else key.replace("_", " ")

    def edition(self, name: str) -> str:
        return self.t(f"edition.{name}")

    def edition_summary(self, name: str) -> str:
        key = f"edition.{name}.summary"
        return self.t(key) if key in self.catalog.messages else ""
