"""Helpers for tests that play rules out with a stacked deck."""

from __future__ import annotations

import pytest

import millebornes as mb
from millebornes.cards import CARD_IDS


def stacked_deck(
    rules,
    players: int,
    hands: dict[int, list[str]] | None = None,
    stock: list[str] | None = None,
    filler: list[str] | None = None,
) -> list[str]:
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
    order = list(filler or []) + [
        "end-of-limit",
        "gasoline",
        "spare-tire",
        "repairs",
        "25",
        "50",
        "75",
        "100",
        "roll",
        "200",
        "speed-limit",
        "stop",
        "out-of-gas",
        "flat-tire",
        "accident",
        "right-of-way",
        "extra-tank",
        "puncture-proof",
        "driving-ace",
    ]

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


def configs() -> list[tuple[str, int, bool]]:
    """Every (preset, players, teams) setting the presets allow."""
    return [
        (name, n, teams)
        for name, r in mb.RULESETS.items()
        for teams, counts in ((False, r.solo_players), (True, r.team_players))
        for n in counts
    ]


def all_cards(g):
    """Every card outside the stock: hands, discard pile and tableaux."""
    from collections import Counter

    cards = Counter()
    for s in range(g.players):
        cards.update(g.hand(s))
    cards.update(g.discard_pile)
    for side in range(g.nsides):
        t = g.tableau(side)
        cards.update(t["battle"] + t["speed"] + t["safeties"] + t["distance_cards"])
    return cards


def game_with(rules, players: int, hands=None, stock=None, teams=None, filler=None, seed: int = 1, **options):
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


# Helpers of the rules and edge-case tests: ``hands`` stacks the six dealt cards of a seat; ``draws``
# says what each seat draws on its successive turns when play simply goes round the table from
# seat 0 (``None`` = any harmless card); ``go`` plays actions (drawing first when the classic draw
# decision is asked); ``pass_turn`` discards a filler.
DISTANCES = ("25", "50", "75", "100", "200")
HARMLESS = ("end-of-limit", "gasoline", "spare-tire", "repairs", "25", "50", "75", "100", "roll", "200")
DISCARD_FIRST = ("end-of-limit", "gasoline", "spare-tire", "repairs", "75", "25", "50", "100", "200", "roll")


def new(rules, players=2, hands=None, draws=None, stock=None, teams=None, **options):
    """A game on a stacked deck (see the module docstring)."""
    r = mb.ruleset(rules, **options)
    stock = list(stock or [])
    if draws:
        rounds = max(len(v) for v in draws.values())
        stock = [
            (draws.get(s, [])[i] if i < len(draws.get(s, [])) else None) for i in range(rounds) for s in range(players)
        ]
        while stock and stock[-1] is None:
            stock.pop()
    left = dict(zip(mb.CARD_IDS, r.deck_counts(players)))
    for h in (hands or {}).values():
        for c in h:
            left[c] -= 1
    for c in stock:
        if c is not None:
            left[c] -= 1
    resolved = []
    for c in stock:
        if c is None:
            c = next(x for x in HARMLESS if left[x] > 0)
            left[c] -= 1
        resolved.append(c)
    return game_with(r, players, hands=hands, stock=resolved, teams=teams)


def go(g, *actions):
    """Play actions in order, answering 'draw' first when the draw decision is pending."""
    events = []
    for a in actions:
        if g.decision == "draw" and a not in ("draw", "take-discard"):
            events += play(g, "draw")
        events += play(g, a)
    return events


def pass_turn(g, keep=(), draw=True):
    """The seat to act draws if asked, then discards a filler card (never one of ``keep``); with
    ``draw`` the next seat then draws too if the classic draw decision is asked."""
    events = []
    if g.decision == "draw":
        events += play(g, "draw")
    hand = g.hand(g.to_act)
    choices = [c for c in DISCARD_FIRST if c in hand and c not in keep]
    card = choices[0] if choices else next(c for c in hand if c not in keep)
    events += play(g, f"discard {card}")
    if draw and g.decision == "draw":
        events += play(g, "draw")
    return events


def exhaust(g, keep=(), leave=0):
    """Discard until only ``leave`` stock cards are left (the drawer of the last one is to play)."""
    while g.stock_size > leave:
        pass_turn(g, keep)


def legal(g):
    return set(g.legal_actions())


def types_of(events):
    return [e["type"] for e in events]


def distances_legal(g):
    return {a.split()[1] for a in g.legal_actions() if a.startswith("play ") and a.split()[1] in DISTANCES}


def refused(g, action, words, seat=None):
    """The action raises IllegalAction naming ``words`` and leaves the game as it was."""
    before = (g.record(), g.to_act, g.decision, [g.hand(s) for s in range(g.players)])
    with pytest.raises(mb.IllegalAction, match=words):
        g.act(action, seat=seat)
    assert (g.record(), g.to_act, g.decision, [g.hand(s) for s in range(g.players)]) == before
