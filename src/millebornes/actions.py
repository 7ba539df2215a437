"""Action codes: the small integers the state machine works with, and their notation.

Every action has one canonical string (``"play 75"``, ``"play stop 1"``, ``"discard 200"``,
``"coup-fourre"``, ``"pass"``, ``"extend"``, ``"end-hand"``, ``"draw"``, ``"take-discard"``) and
one code.  The tables are built once, so turning a code into a string or back is one lookup.

>>> ACTION_NAMES[action_code("play flat-tire 1")]
'play flat-tire 1'
>>> decode(action_code("discard 200"))
('discard', 4, -1)
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .cards import CARD_IDS, HAZARDS, KIND_OF, NUM_KINDS

MAX_SIDES: Final = 8
"""The most sides a table may have: hazards have a code for each."""

DISCARD_BASE: Final = NUM_KINDS
"""Play own card k: code k; discard k: 19 + k."""
ATTACK_BASE: Final = 2 * NUM_KINDS
"""Hazard k on side t: 38 + 19 t + k."""
DRAW: Final = 200
"""Draw from the stock (when the top discard may be taken instead)."""
TAKE_DISCARD: Final = 201
"""Take the top discard instead of drawing."""
COUP_FOURRE: Final = 202
"""Answer a hazard with its safety: a coup fourré."""
PASS: Final = 203
"""Let a hazard stand instead of calling coup fourré."""
EXTEND: Final = 204
"""Race on to the full target after reaching the short one."""
END_HAND: Final = 205
"""End the hand at the short target."""
SPECIAL_NAMES: Final = {
    DRAW: "draw",
    TAKE_DISCARD: "take-discard",
    COUP_FOURRE: "coup-fourre",
    PASS: "pass",
    EXTEND: "extend",
    END_HAND: "end-hand",
}
"""The notation of the actions that name no card."""


# Parameters are named by what they hold, so an app can render them without knowing the reason: a card id
# (card, hazard, safety, need; top: the card on top of a battle pile, None when it is empty), a seat
# (seat, to_act), a side (side), a number (distance, value, target), a decision name (decision).
# The first nine are about the text of an action (only a bot, a program or typed text can send them).
REASONS: Final[dict[str, tuple[str, ...]]] = {
    "action_not_text": (),
    "action_empty": (),
    "action_needs_card": (),
    "unknown_card": (),
    "needs_side": ("card",),
    "no_such_side": (),
    "not_a_hazard": ("card",),
    "discard_just_card": ("card",),
    "unknown_action": (),
    "match_over": (),
    "not_your_decision": ("seat", "to_act", "decision"),
    "wrong_decision": ("to_act", "decision"),
    "already_drawn": (),
    "no_card": ("seat", "card"),
    "own_side": ("card",),
    "protected": ("side", "card", "safety"),
    "already_limited": ("side", "card"),
    "not_started": ("side", "card"),
    "not_moving": ("side", "card", "top"),
    "stopped": ("card", "top", "need"),
    "needs_roll": ("card", "top", "need"),
    "speed_limited": ("card",),
    "two_200s": ("card",),
    "past_target": ("card", "distance", "value", "target"),
    "already_rolling": ("card",),
    "roll_not_now": ("card", "top", "need"),
    "not_limited": ("card",),
    "wrong_remedy": ("card", "hazard", "top"),
}
"""Every reason the engine gives for refusing an action, with the names of its parameters (docs/engine.md)."""
PARAM_KINDS: Final[dict[str, str]] = {
    "card": "card",
    "hazard": "card",
    "safety": "card",
    "need": "card",
    "top": "card",
    "seat": "seat",
    "to_act": "seat",
    "side": "side",
    "distance": "number",
    "value": "number",
    "target": "number",
    "decision": "decision",
}
"""What each parameter of a refusal holds: a card id, a seat, a side, a number or a decision name."""


class IllegalAction(ValueError):
    """An action the rules refuse.  ``str(exc)`` says why in English (for logs and programs); ``reason``
    is one of REASONS and ``params`` its parameters (JSON: ints, card ids, decision names, None), from
    which an app says it in the player's language.

    >>> exc = IllegalAction("seat 1 has no 200 in hand", "no_card", seat=1, card="200")
    >>> str(exc), exc.reason, exc.params
    ('seat 1 has no 200 in hand', 'no_card', {'seat': 1, 'card': '200'})
    """

    def __init__(self, message: str, reason: str, **params: Any) -> None:
        super().__init__(message)
        self.reason: str = reason
        """Why, as one of REASONS: the key an app translates."""
        self.params: dict[str, Any] = params
        """What the reason names (a seat, a card...), for the app's sentence."""
        self.move: int | None = None
        """Replaying a record: the index of the refused action; else None."""

    def __reduce__(self) -> Any:
        return (_refusal, (str(self), self.reason, self.params, self.move))


def _refusal(message: str, reason: str, params: dict[str, Any], move: int | None) -> IllegalAction:
    """An IllegalAction again (pickling: a refusal crosses a process pool whole)."""
    exc = IllegalAction(message, reason, **params)
    exc.move = move
    return exc


def attack_code(hazard: int, side: int) -> int:
    """The code of playing ``hazard`` on ``side``."""
    return ATTACK_BASE + NUM_KINDS * side + hazard


def _names() -> dict[int, str]:
    names: dict[int, str] = {}
    for k, card in enumerate(CARD_IDS):
        if k not in HAZARDS:
            names[k] = f"play {card}"
        names[DISCARD_BASE + k] = f"discard {card}"
    for t in range(MAX_SIDES):
        for k in HAZARDS:
            names[attack_code(k, t)] = f"play {CARD_IDS[k]} {t}"
    names.update(SPECIAL_NAMES)
    return names


ACTION_NAMES: dict[int, str] = _names()
"""The notation of every action code: ``play 75``, ``play speed-limit 1``, ``draw``..."""
ACTION_CODES: dict[str, int] = {name: code for code, name in ACTION_NAMES.items()}
"""The code of every action in notation: the reverse of ACTION_NAMES."""


def decode(code: int) -> tuple[str, int, int]:
    """(kind of action, card kind or -1, target side or -1)."""
    if code < DISCARD_BASE:
        return "play", code, -1
    if code < ATTACK_BASE:
        return "discard", code - DISCARD_BASE, -1
    if code < 200:
        side, kind = divmod(code - ATTACK_BASE, NUM_KINDS)
        return "attack", kind, side
    return SPECIAL_NAMES[code], -1, -1


class Move(NamedTuple):
    """An action in notation taken apart, as :func:`parse` gives it.

    Attributes:
        verb: ``play`` (a card on one's own side), ``attack`` (a hazard on ``side``), ``discard``, or the
            action's own name when it names no card (``draw``, ``take-discard``, ``coup-fourre``...).
        kind: The card kind played or discarded; -1 when the action names no card.
        side: The side an attack hits; -1 for every other action.
    """

    verb: str
    kind: int
    side: int


_MOVES: Final = {name: Move(*decode(code)) for code, name in ACTION_NAMES.items()}


def parse(action: str) -> Move:
    """An action string taken apart, as :func:`decode` takes a code apart; IllegalAction explains what is
    wrong with a bad one.

    >>> parse("play stop 1"), parse("discard 200").kind, parse("draw").verb
    (Move(verb='attack', kind=5, side=1), 4, 'draw')
    """
    move = _MOVES.get(action)
    if move is None:
        move = Move(*decode(action_code(action)))
    return move


def normalize(text: Any) -> str:
    """An action as typed, in the engine's notation: lower case, hyphens, single spaces."""
    return " ".join(str(text).lower().replace("_", "-").split())


def action_code(text: Any) -> int:
    """The code of an action string; IllegalAction explains what is wrong with a bad one."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a string such as 'play 75', not {type(text).__name__}", "action_not_text")
    s = normalize(text)
    code = ACTION_CODES.get(s)
    if code is not None:
        return code
    words = s.split()
    if not words:
        raise IllegalAction("empty action: say for example 'play 75' or 'discard stop'", "action_empty")
    verb = words[0]
    if verb in ("play", "discard"):
        if len(words) < 2:
            raise IllegalAction(f"'{verb}' needs a card, for example '{verb} 75'", "action_needs_card")
        card = words[1]
        if card not in KIND_OF:
            raise IllegalAction(f"there is no card {card!r}; cards are: {', '.join(CARD_IDS)}", "unknown_card")
        kind = KIND_OF[card]
        if verb == "play" and kind in HAZARDS:
            if len(words) == 2:
                raise IllegalAction(f"say which side to attack, for example 'play {card} 1'", "needs_side", card=card)
            if len(words) == 3 and words[2].isdigit():
                raise IllegalAction(f"there is no side {words[2]}", "no_such_side")
            raise IllegalAction(
                f"'play {card}' takes one side number, for example 'play {card} 1'", "needs_side", card=card
            )
        if verb == "play":
            raise IllegalAction(
                f"{card} is played on your own side: say 'play {card}' with nothing after it", "not_a_hazard", card=card
            )
        raise IllegalAction(
            f"'discard' takes just a card, for example 'discard {card}'", "discard_just_card", card=card
        )
    raise IllegalAction(
        f"unknown action {text!r}: actions are play, discard, draw, take-discard, coup-fourre, pass, "
        "extend and end-hand",
        "unknown_action",
    )
