"""Per-seat observations: the only door through which hidden information leaves the engine.

An observation holds the whole public state (every tableau with its buried cards, the discard
pile, stock and hand sizes, the pending decision, the scores) and the seat's own hand, and
nothing else: never another hand, never the stock order, never the seed that would give it.
Search bots rebuild full games from it, so it must be complete as well as safe.
"""

from __future__ import annotations

from typing import Protocol

from .cards import CARD_IDS, KIND_OF, NUM_KINDS
from .events import HandResult
from .observation import Observation as Observation
from .observation import ObservedTableau as ObservedTableau
from .observation import PendingAttack as PendingAttack
from .observation import Tableau as Tableau
from .rules import Ruleset, ruleset

OBSERVATION_FORMAT = "millebornes-observation/1"
"""The format and version an observation names (docs/observation.schema.json)."""


class Table(Protocol):
    """What an observation reads of a game: the public state and one hand, each member as :class:`Game`
    has it.  A protocol, so that this module sits below the state machine (``Game.observation`` calls it)
    and imports nothing of it."""

    @property
    def ruleset(self) -> Ruleset:
        """The edition played."""

    @property
    def players(self) -> int:
        """The number of seats."""

    @property
    def teams(self) -> bool:
        """Whether seats play in teams of two."""

    @property
    def nsides(self) -> int:
        """The number of sides (teams, or players alone)."""

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side."""

    @property
    def hand_number(self) -> int:
        """The hand being played, from 0."""

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is, or None."""

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now, or None."""

    @property
    def decision(self) -> str | None:
        """The kind of decision pending, or None."""

    @property
    def pending_attack(self) -> PendingAttack | None:
        """The hazard a coup-fourré question is about, or None."""

    @property
    def pickup_available(self) -> bool:
        """Whether the top discard may be taken at the start of the next turn."""

    @property
    def took_discard(self) -> bool:
        """Whether the seat whose turn it is took the discard."""

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""

    @property
    def discard_pile(self) -> list[str]:
        """The discard pile, bottom first."""

    @property
    def target(self) -> int:
        """The distance the hand is a race to now."""

    @property
    def extension_open(self) -> bool:
        """Whether an extension may still be called this hand."""

    @property
    def extender(self) -> int | None:
        """The side that called the extension, or None."""

    @property
    def hand_results(self) -> list[HandResult]:
        """The finished hands' results."""

    @property
    def match_scores(self) -> list[int]:
        """Points per side over the finished hands."""

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""

    @property
    def winners(self) -> list[int]:
        """The sides that won the match."""

    def side_of(self, seat: int) -> int:
        """The side of a seat."""

    def legal_actions(self) -> list[str]:
        """The legal actions of the seat to act."""

    def hand(self, seat: int) -> list[str]:
        """A seat's hand (only the observer's is ever read)."""

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds."""

    def known_cards(self, seat: int) -> list[str]:
        """Cards the whole table knows to be in a seat's hand."""

    def tableau(self, side: int) -> Tableau:
        """A side's cards on the table."""

    def is_moving(self, side: int) -> bool:
        """Whether a side may play distance now."""


def observation(game: Table, seat: int) -> Observation:
    """What ``seat`` may see of the game: the public state and its own hand (ValueError: no such seat)."""
    if not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat!r}: seats are 0 to {game.players - 1}")
    to_act = game.to_act
    mine = to_act == seat
    return {
        "format": OBSERVATION_FORMAT,
        "seat": seat,
        "side": game.side_of(seat),
        "ruleset": game.ruleset.name,
        "options": game.ruleset.options(),
        "players": game.players,
        "teams": game.teams,
        "sides": [list(s) for s in game.sides],
        "hand_number": game.hand_number,
        "first_seat": game.hand_number % game.players,
        "turn": game.turn,
        "to_act": to_act,
        "decision": game.decision,
        "legal_actions": game.legal_actions() if mine else [],
        "pending_attack": game.pending_attack,
        "pickup_available": game.pickup_available,
        "took_discard": game.took_discard,
        "hand": game.hand(seat),
        "hand_sizes": [game.hand_size(s) for s in range(game.players)],
        "known_cards": [game.known_cards(s) if s != seat else [] for s in range(game.players)],
        "stock_size": game.stock_size,
        "discard_pile": game.discard_pile,
        "target": game.target,
        "extension_open": game.extension_open,
        "extender": game.extender,
        "tableaux": [{**game.tableau(side), "moving": game.is_moving(side)} for side in range(game.nsides)],
        "hand_results": [r.copy() for r in game.hand_results],
        "match_scores": list(game.match_scores),
        "is_over": game.is_over,
        "winners": game.winners,
    }


_DECKS: dict[tuple[str, bool | None, int], tuple[int, ...]] = {}


def deck_counts(obs: Observation) -> tuple[int, ...]:
    """The observed table's deck, per card kind (``Ruleset.deck_counts``, built once per table setting)."""
    key = (obs["ruleset"], obs["options"].get("small_game_deck"), obs["players"])
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = ruleset(obs["ruleset"], **obs["options"]).deck_counts(obs["players"])
    return deck


def hand_counts(obs: Observation) -> list[int]:
    """The observing seat's hand as a count per card kind."""
    cnt = [0] * NUM_KINDS
    for card in obs["hand"]:
        cnt[KIND_OF[card]] += 1
    return cnt


def unseen_kinds(obs: Observation, hand: list[int] | None = None) -> list[int]:
    """Per card kind, the copies the observing seat cannot see (other hands and the stock): the deck less
    its hand (``hand``, its counts, when the caller has them), the discard pile, the tableaux and the
    cards known to be in other hands.  The one count of unseen cards the bots and determinization share."""
    left = list(deck_counts(obs))
    if hand is None:
        hand = hand_counts(obs)
    for k in range(NUM_KINDS):
        left[k] -= hand[k]
    for card in obs["discard_pile"]:
        left[KIND_OF[card]] -= 1
    for t in obs["tableaux"]:
        for pile in (t["battle"], t["speed"], t["safeties"], t["distance_cards"]):
            for card in pile:
                left[KIND_OF[card]] -= 1
    for known in obs["known_cards"]:
        for card in known:
            left[KIND_OF[card]] -= 1
    return left


def unseen_counts(obs: Observation) -> dict[str, int]:
    """How many of each card the observing seat cannot see (other hands and the stock), by card id."""
    return dict(zip(CARD_IDS, unseen_kinds(obs)))
