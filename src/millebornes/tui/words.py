"""Everything the terminal app says, in English or French, from the one message catalog
(:mod:`millebornes.i18n`): the shared words of :mod:`millebornes.i18n.words` (cards, seats, sides, levels,
editions, refusals) said to one viewer seat, in the second person, with the log of events and the kinds of seats.

Kept apart from the widgets so that it can be tested without a terminal.

>>> Words("fr", players=2, teams=False, viewer=0).reason("needs_roll", {"card": "75", "top": None, "need": "roll"})
'Il vous faut d’abord un Feu vert (pile de bataille\\xa0: vide)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import CARD_IDS, GROUP
from ..i18n.words import TableWords, card_label, standing_line

__all__ = ["Words", "card_label", "standing_line"]


class Words(TableWords):
    """The sentences of one table, seen by one viewer seat, in one language."""

    def __init__(self, lang: str, players: int, teams: bool, viewer: int | None, kinds: list[str] | None = None):
        super().__init__(lang, players, teams)
        self.viewer = viewer
        self.kinds = kinds

    def label(self, label: str) -> str:
        """'Battle:' ('Bataille :' in French, with its no-break space)."""
        return self.t("tui.label", label=label)

    # -- names --------------------------------------------------------------------------
    def who(self, seat: int) -> str:
        return self.t("tui.you") if seat == self.viewer else self.seat(seat)

    def side(self, side: int) -> str:
        """A side as a target or a winner: 'you', 'Seat 2', 'Team 1'."""
        if self.viewer is not None and side == self.viewer % self.nsides:
            return self.t("tui.your_team" if self.teams else "tui.you")
        return self.side_title(side)

    def kind(self, seat: int) -> str:
        if not self.kinds:
            return ""
        k = self.kinds[seat]
        if k == "human":
            return self.t("tui.human")
        level = f"level.{k}"
        return self.t("tui.bot", level=self.t(level) if level in self.catalog.messages else k)

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
