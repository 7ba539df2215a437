"""Helpers for tests that play rules out with a stacked deck."""

from __future__ import annotations

import millebornes as mb
from millebornes.cards import CARD_IDS


def stacked_deck(rules, players: int, hands: dict[int, list[str]] | None = None,
                 stock: list[str] | None = None, filler: list[str] | None = None) -> list[str]:
    """A full deck for ``rules`` and ``players``: the given hands (missing cards of a hand are
    filled), then the given stock cards (drawn first, in order), then every other card.

    Filling takes cards in ``filler`` order first (default: plain distance and remedy cards that
    rarely matter: 25, 50, 75, end-of-limit, gasoline...), so tests stay readable.
    """
    r = mb.ruleset(rules) if isinstance(rules, str) else rules
    left = dict(zip(CARD_IDS, r.deck_counts(players)))
    hands = {s: list(h) for s, h in (hands or {}).items()}
    stock = list(stock or [])

    def take(card: str) -> str:
        if left.get(card, 0) <= 0:
            raise ValueError(f"the deck has no more {card!r}")
        left[card] -= 1
        return card

    for s, h in hands.items():
        if len(h) > 6:
            raise ValueError(f"hand {s} has more than 6 cards")
        for c in h:
            take(c)
    for c in stock:
        take(c)
    order = list(filler or []) + ["end-of-limit", "gasoline", "spare-tire", "repairs", "25", "50",
                                  "75", "100", "roll", "200", "speed-limit", "stop", "out-of-gas",
                                  "flat-tire", "accident", "right-of-way", "extra-tank",
                                  "puncture-proof", "driving-ace"]

    def fill() -> str:
        for c in order:
            if left.get(c, 0) > 0:
                left[c] -= 1
                return c
        raise ValueError("deck exhausted")

    deck: list[str] = []
    for s in range(players):
        h = hands.get(s, [])
        deck += h + [fill() for _ in range(6 - len(h))]
    deck += stock
    while sum(left.values()):
        deck.append(fill())
    return deck


def game_with(rules, players: int, hands=None, stock=None, teams=None, filler=None, seed: int = 1,
              **options):
    """A new game on a stacked deck; rule options may be switched by keyword."""
    r = mb.ruleset(rules, **options) if options else rules
    deck = stacked_deck(r, players, hands, stock, filler)
    return mb.new_game(r, players=players, teams=teams, seed=seed, deck=deck)


def play(game, *actions: str) -> list[dict]:
    """Apply actions in order; returns all events."""
    events = []
    for a in actions:
        events += game.act(a)
    return events
