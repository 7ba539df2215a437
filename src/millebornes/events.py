"""What the table sees happen: the public events :meth:`millebornes.Game.act` returns.

Each action yields a short list of events in the order they happened, for example a hazard played,
the coup fourré that answered it and the replacement card drawn.  An event is a plain JSON-ready
dict; its ``"type"`` says which of the kinds below it is, and names only public facts (a drawn card
is never named, only the stock left).  The end of a hand also brings its result, the
:class:`HandResult` every observation lists.

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
    safeties: int
    all_safeties: int
    coups_fourres: int
    trip: int
    delayed_action: int
    safe_trip: int
    shutout: int
    extension: int
    hand_penalty: int


class HandResult(TypedDict):
    """The score of one finished hand: points and miles per side, and who won it."""

    hand: int
    points: list[int]
    breakdown: list[Breakdown]
    distance: list[int]
    winners: list[int]
    completed: int | None
    extender: int | None
    stock_empty: bool


class DealEvent(TypedDict):
    """A hand was dealt: ``first`` leads, and the race is to ``target`` miles."""

    type: Literal["deal"]
    hand: int
    first: int
    target: int


class DrawEvent(TypedDict):
    """A seat drew from the stock (which card stays hidden); ``stock`` cards are left."""

    type: Literal["draw"]
    seat: int
    stock: int


class TakeDiscardEvent(TypedDict):
    """A seat took the top discard instead of drawing; the whole table now knows it holds ``card``."""

    type: Literal["take-discard"]
    seat: int
    card: str


class PlayEvent(TypedDict):
    """A seat played a card on a side: its own for distance, remedies and safeties, an opponent's for a
    hazard."""

    type: Literal["play"]
    seat: int
    card: str
    side: int


class DiscardEvent(TypedDict):
    """A seat threw a card on the discard pile, ending its turn."""

    type: Literal["discard"]
    seat: int
    card: str


class CoupFourreEvent(TypedDict):
    """A seat answered ``attacker``'s ``hazard`` with its safety ``card``, laid on its side ``side``: the
    side scores a coup fourré, the hazard goes to the discard if it hit that side, and the seat takes the
    turn."""

    type: Literal["coup-fourre"]
    seat: int
    card: str
    side: int
    hazard: str
    attacker: int


class ExtendEvent(TypedDict):
    """The side that reached the short target chose to race on, to the full ``target``."""

    type: Literal["extend"]
    seat: int
    side: int
    target: int


class EndHandEvent(TypedDict):
    """The side that reached the short target chose to stop the hand there."""

    type: Literal["end-hand"]
    seat: int


class HandOverEvent(HandResult):
    """A hand ended (a trip completed or the cards ran out), with its result."""

    type: Literal["hand-over"]


class MatchOverEvent(TypedDict):
    """The match ended: the winning sides and every side's total."""

    type: Literal["match-over"]
    winners: list[int]
    scores: list[int]


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
