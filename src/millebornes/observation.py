"""The shape of an observation, as TypedDicts: what one seat is shown (docs/observation.schema.json).

:mod:`millebornes.observe` builds observations and names these types too; they live here because
observe.py is compiled (setup.py), and a compiled TypedDict keeps neither its inherited keys nor the
types of its values for a program that reads them at run time.
"""

# no `from __future__ import annotations`, like events.py: the annotations stay plain objects
from typing import TypedDict

from .events import HandResult
from .rules import RuleOptions


class PendingAttack(TypedDict):
    """The hazard a coup-fourré question is about: who played it, which, on which side."""

    attacker: int
    """The seat that played the hazard."""
    hazard: str
    """The hazard played."""
    side: int
    """The side it was played on."""


class Tableau(TypedDict):
    """One side's cards on the table; piles bottom first, so the last card is the one showing."""

    distance: int
    """Miles travelled this hand."""
    battle: list[str]
    """The battle pile (Roll, hazards, remedies), bottom first: the last card is the one showing."""
    speed: list[str]
    """The speed pile (Speed Limit, End of Limit), bottom first: the last card is the one showing."""
    safeties: list[str]
    """The safeties laid, in order."""
    coups_fourres: list[str]
    """The safeties among them that were laid as a coup fourré."""
    two_hundreds: int
    """How many 200-mile cards the side played this hand."""
    distance_cards: list[str]
    """The distance cards played this hand, oldest first."""


class ObservedTableau(Tableau):
    """A tableau as an observation shows it, with whether the side may play distance now."""

    moving: bool
    """Whether the side may play distance now."""


class Observation(TypedDict):
    """All that one seat may see, as :func:`observation` builds it and the bot protocol sends it
    (docs/observation.schema.json says what each key means)."""

    format: str
    """The observation format and its version."""
    seat: int
    """The seat observing: the one whose hand this shows."""
    side: int
    """That seat's side."""
    ruleset: str
    """The edition's name: classic, parker, dujardin, family, or a custom one."""
    options: RuleOptions
    """Every rule the edition plays by, enough to rebuild it."""
    players: int
    """The number of seats."""
    teams: bool
    """Whether the seats play in teams of two."""
    sides: list[list[int]]
    """The seats of each side."""
    hand_number: int
    """The hand being played (the last one once the match is over), from 0."""
    first_seat: int
    """The seat that played first in this hand."""
    turn: int | None
    """The seat whose turn it is (not the one to act while a coup fourré is asked); None once the match is over."""
    to_act: int | None
    """The seat that must decide now; None once the match is over."""
    decision: str | None
    """What that seat decides: ``play``, ``draw``, ``coup-fourre`` or ``extension``; None once the match is over."""
    legal_actions: list[str]
    """What the observing seat may do, when it is the one to act; else empty."""
    pending_attack: PendingAttack | None
    """The hazard a coup-fourré question is about, while one is asked; else None."""
    pickup_available: bool
    """Whether the top discard may be taken instead of drawing at the start of the next turn."""
    took_discard: bool
    """Whether the seat whose turn it is took the discard this turn."""
    hand: list[str]
    """The observing seat's own cards, sorted by kind."""
    hand_sizes: list[int]
    """How many cards each seat holds."""
    known_cards: list[list[str]]
    """Per seat, the cards the whole table knows it holds (a discard taken, a safety shown by a coup-fourré question);
    empty for the observing seat."""
    stock_size: int
    """The cards left to draw."""
    discard_pile: list[str]
    """The discard pile, bottom first: the last card is on top."""
    target: int
    """The distance this hand is a race to now."""
    extension_open: bool
    """Whether an extension may still be called: until a side reaches the short target."""
    extender: int | None
    """The side that called the extension this hand, or None."""
    tableaux: list[ObservedTableau]
    """Every side's cards on the table, by side."""
    hand_results: list[HandResult]
    """The finished hands of the match, in order."""
    match_scores: list[int]
    """Points per side over the finished hands."""
    is_over: bool
    """Whether the match is over."""
    winners: list[int]
    """The sides that won the match; empty until it is over."""
