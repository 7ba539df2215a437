"""What the table sees happen: the public events :meth:`millebornes.Game.act` returns.

Each action yields a short list of events in the order they happened, for example a hazard played,
the coup fourré that answered it and the replacement card drawn.  An event is a plain JSON-ready
dict; its ``"type"`` says which of the kinds below it is, and names only public facts (a drawn card
is never named, only the stock left).  The end of a hand also brings its result, the
:class:`HandResult` every observation lists.  docs/engine.md tells each kind in game terms, and
docs/events.schema.json is their JSON Schema.

>>> import millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=7)
>>> [event["type"] for event in g.act("play speed-limit 1")]
['play', 'draw']
"""

# no `from __future__ import annotations`: Python 3.11 tells Required keys only from evaluated annotations
from typing import Literal, Required, TypedDict


class Breakdown(TypedDict, total=False):
    """One side's points in a hand, item by item; only the items the edition scores appear."""

    distance: Required[int]
    """Points for the miles the side travelled."""
    safeties: int
    """Points for the safeties on the side's tableau."""
    all_safeties: int
    """The bonus for laying all four safeties."""
    coups_fourres: int
    """Points for the side's coups fourrés."""
    trip: int
    """The bonus for completing the trip."""
    delayed_action: int
    """The bonus for completing the trip after the stock ran out."""
    safe_trip: int
    """The bonus for a trip completed without a 200."""
    shutout: int
    """The bonus for opponents who travelled no distance at all."""
    extension: int
    """The extension's bonus: to the extender who completed the trip, else to each other side."""
    hand_penalty: int
    """The miles of the distance cards left in the side's hands, counted against it (negative)."""


class HandResult(TypedDict):
    """The score of one finished hand: points and miles per side, and who won it."""

    hand: int
    """Which hand this was, from 0."""
    points: list[int]
    """Points per side in this hand."""
    breakdown: list[Breakdown]
    """Those points per side, item by item."""
    distance: list[int]
    """Miles per side at the end of the hand."""
    winners: list[int]
    """The sides that won the hand (several on a tie)."""
    completed: int | None
    """The side that completed the trip, or None when the stock ran out first."""
    extender: int | None
    """The side that called the extension, or None."""
    stock_empty: bool
    """Whether the stock was empty when the hand ended."""


class DealEvent(TypedDict):
    """A hand was dealt: ``first`` leads, and the race is to ``target`` miles."""

    type: Literal["deal"]
    """Always ``"deal"``."""
    hand: int
    """The hand dealt, from 0."""
    first: int
    """The seat that plays first."""
    target: int
    """The distance the hand is a race to."""


class DrawEvent(TypedDict):
    """A seat drew from the stock (which card stays hidden); ``stock`` cards are left."""

    type: Literal["draw"]
    """Always ``"draw"``."""
    seat: int
    """The seat that drew."""
    stock: int
    """The cards left in the stock."""


class TakeDiscardEvent(TypedDict):
    """A seat took the top discard instead of drawing; the whole table now knows it holds ``card``."""

    type: Literal["take-discard"]
    """Always ``"take-discard"``."""
    seat: int
    """The seat that took the discard."""
    card: str
    """The card taken, now known to be in that seat's hand."""


class PlayEvent(TypedDict):
    """A seat played a card on a side: its own for distance, remedies and safeties, an opponent's for a
    hazard."""

    type: Literal["play"]
    """Always ``"play"``."""
    seat: int
    """The seat that played."""
    card: str
    """The card played."""
    side: int
    """The side whose tableau the card went on."""


class DiscardEvent(TypedDict):
    """A seat threw a card on the discard pile, ending its turn."""

    type: Literal["discard"]
    """Always ``"discard"``."""
    seat: int
    """The seat that discarded."""
    card: str
    """The card thrown away."""


class CoupFourreEvent(TypedDict):
    """A seat answered ``attacker``'s ``hazard`` with its safety ``card``, laid on its side ``side``: the
    side scores a coup fourré, the hazard goes to the discard if it hit that side, and the seat takes the
    turn."""

    type: Literal["coup-fourre"]
    """Always ``"coup-fourre"``."""
    seat: int
    """The seat that called coup fourré, and now plays."""
    card: str
    """The safety it laid."""
    side: int
    """The side the safety went on: the side the hazard was played on."""
    hazard: str
    """The hazard it answered."""
    attacker: int
    """The seat that played the hazard."""


class ExtendEvent(TypedDict):
    """The side that reached the short target chose to race on, to the full ``target``."""

    type: Literal["extend"]
    """Always ``"extend"``."""
    seat: int
    """The seat that called the extension."""
    side: int
    """Its side, which reached the short target."""
    target: int
    """The new target: the full distance."""


class EndHandEvent(TypedDict):
    """The side that reached the short target chose to stop the hand there."""

    type: Literal["end-hand"]
    """Always ``"end-hand"``."""
    seat: int
    """The seat that stopped the hand."""


class HandOverEvent(HandResult):
    """A hand ended (a trip completed or the cards ran out), with its result."""

    type: Literal["hand-over"]
    """Always ``"hand-over"``."""


class MatchOverEvent(TypedDict):
    """The match ended: the winning sides and every side's total."""

    type: Literal["match-over"]
    """Always ``"match-over"``."""
    winners: list[int]
    """The sides that won the match (several on a tie)."""
    scores: list[int]
    """Every side's total points over the match."""


Event = (
    DealEvent
    | DrawEvent
    | TakeDiscardEvent
    | PlayEvent
    | DiscardEvent
    | CoupFourreEvent
    | ExtendEvent
    | EndHandEvent
    | HandOverEvent
    | MatchOverEvent
)
"""Any event the engine emits; its ``"type"`` tells which."""

EVENT_TYPES: dict[str, type] = {
    "deal": DealEvent,
    "draw": DrawEvent,
    "take-discard": TakeDiscardEvent,
    "play": PlayEvent,
    "discard": DiscardEvent,
    "coup-fourre": CoupFourreEvent,
    "extend": ExtendEvent,
    "end-hand": EndHandEvent,
    "hand-over": HandOverEvent,
    "match-over": MatchOverEvent,
}
"""Each event kind by its ``"type"``: the TypedDict that declares its keys."""
