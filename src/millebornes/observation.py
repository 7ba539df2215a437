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
    hazard: str
    side: int


class Tableau(TypedDict):
    """One side's cards on the table; piles bottom first, so the last card is the one showing."""

    distance: int
    battle: list[str]
    speed: list[str]
    safeties: list[str]
    coups_fourres: list[str]
    two_hundreds: int
    distance_cards: list[str]


class ObservedTableau(Tableau):
    """A tableau as an observation shows it, with whether the side may play distance now."""

    moving: bool


class Observation(TypedDict):
    """All that one seat may see, as :func:`observation` builds it and the bot protocol sends it
    (docs/observation.schema.json says what each key means)."""

    format: str
    seat: int
    side: int
    ruleset: str
    options: RuleOptions
    players: int
    teams: bool
    sides: list[list[int]]
    hand_number: int
    first_seat: int
    turn: int | None
    to_act: int | None
    decision: str | None
    legal_actions: list[str]
    pending_attack: PendingAttack | None
    pickup_available: bool
    took_discard: bool
    hand: list[str]
    hand_sizes: list[int]
    known_cards: list[list[str]]
    stock_size: int
    discard_pile: list[str]
    target: int
    extension_open: bool
    extender: int | None
    tableaux: list[ObservedTableau]
    hand_results: list[HandResult]
    match_scores: list[int]
    is_over: bool
    winners: list[int]
