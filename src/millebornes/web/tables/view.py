"""What a frame shows a seat: the engine's observation, less what a real table would not show.

The engine asks the one seat holding the safety whether it calls coup fourré, so its observation
tells every seat who holds it (``decision``, ``to_act``, and ``known_cards`` keeps the safety even
after a pass); and when nobody holds it the game has already moved on to the next draw.  At a real
table a hazard is followed by the same short pause whoever holds what.  So, after every hazard that
a human could answer, the room opens a *window* of ``cf_timeout`` seconds for everyone:

- every seat sees the hazard played and nothing after it (:class:`Window`); nobody may act but the
  holder, who alone gets the coup-fourré buttons; bots answer when it closes;
- a pass is never shown (:func:`shown_events`), the safeties the engine showed by asking are taken
  out of ``known_cards`` (:class:`Asked`), and the state counter ``seq`` counts what was shown, not
  the actions saved (:func:`is_hidden`).

A hazard no human could answer gets no window: the bot that holds the safety answers at once, in the
same step, so that nothing shows either.  The engine's observation stays as it is, for research.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ... import cards as C
from ...actions import IllegalAction, parse
from ...events import Event
from ...observation import Observation, ObservedTableau
from ...state import Game


def is_hidden(action: str) -> bool:
    """A coup fourré passed: the one action no other seat may learn of."""
    return action == "pass"


def shown_events(seat: int, action: str, events: list[Event]) -> list[Mapping[str, Any]]:
    """The events every seat hears of an action: the action first, unless it is a pass (what follows a
    pass, the next draw, is public).  A replay of a finished match shows everything instead."""
    if is_hidden(action):
        return list(events)
    return [{"type": "action", "seat": seat, "action": action}, *events]


def hazard_of(action: str) -> tuple[str, int] | None:
    """(hazard, side) when the action plays a hazard on a side."""
    try:
        move = parse(action)
    except IllegalAction:
        return None
    return (C.CARD_IDS[move.kind], move.side) if move.verb == "attack" else None


def answerable(game: Game, attacker: int, side: int, humans: set[int]) -> bool:
    """Could a human be asked for a coup fourré against this hazard, whatever anyone holds?"""
    return any(game.may_coup_fourre(seat, attacker, side) for seat in humans)


class Asked:
    """The safeties each seat showed only by being asked for a coup fourré, to be taken out of every
    ``known_cards`` a frame or a bot gets.  Call :meth:`note` after every action of the game."""

    def __init__(self, players: int):
        self.safeties: list[list[str]] = [[] for _ in range(players)]

    def note(self, game: Game, known_before: list[list[str]]) -> None:
        """``known_before``: every seat's ``known_cards`` just before the action."""
        for seat, asked in enumerate(self.safeties):
            known = Counter(game.known_cards(seat))
            kept = []
            for card in asked:  # a safety laid since, or a new hand, leaves the list
                if known[card] > 0:
                    known[card] -= 1
                    kept.append(card)
            self.safeties[seat] = kept
        pending, asker = game.pending_attack, game.to_act
        if game.decision == "coup-fourre" and pending is not None and asker is not None:
            safety = C.CARD_IDS[C.SAFETY_OF[C.CARD_IDS.index(pending["hazard"])]]
            if safety not in known_before[asker] and safety in game.known_cards(asker):
                self.safeties[asker].append(safety)

    def known_cards(self, game: Game) -> list[list[str]]:
        out = []
        for seat, asked in enumerate(self.safeties):
            cards = list(game.known_cards(seat))
            for card in asked:
                cards.remove(card)
            out.append(cards)
        return out


class Window:
    """The few seconds after a hazard that a human could answer: what each seat sees meanwhile.

    Built from the game just before the hazard (``before``): the hazard leaves the attacker's hand and
    lands on its pile, nothing else moves, nobody is to act.  The tableaux come from the engine itself
    (the hazard played on a copy that stops at the end of the hand), so no rule is written twice."""

    def __init__(self, before: Game, attacker: int, action: str, deadline: float | None):
        played_hazard = hazard_of(action)
        if played_hazard is None:
            raise ValueError(f"{action!r} plays no hazard: it opens no window")
        hazard, side = played_hazard
        self.before = before
        self.attacker = attacker
        self.hazard = hazard
        self.side = side
        self.action = action
        self.deadline = deadline
        played = before.clone(halt=True)
        played.act(action, attacker)
        self.tableaux = [ObservedTableau(**played.tableau(s), moving=played.is_moving(s)) for s in range(played.nsides)]
        self.deferred: list[Mapping[str, Any]] = []
        """Public events that happened behind the window (the next draw...): told when it closes."""

    def observation(self, seat: int, known_cards: list[list[str]], legal: list[str]) -> Observation:
        obs = self.before.observation(seat)
        if seat == self.attacker:
            obs["hand"].remove(self.hazard)
        obs["hand_sizes"][self.attacker] -= 1
        obs["tableaux"] = self.tableaux
        obs["turn"] = self.attacker
        obs["to_act"] = None
        obs["decision"] = "coup-fourre"
        obs["legal_actions"] = legal
        obs["known_cards"] = [k if s != seat else [] for s, k in enumerate(known_cards)]
        obs["pending_attack"] = {"attacker": self.attacker, "hazard": self.hazard, "side": self.side}
        obs["pickup_available"] = False
        return obs
