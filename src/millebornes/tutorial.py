"""The guided first match: one short scripted hand of the Parker Brothers edition that teaches one idea at a time.

A stacked deck deals the learner (seat 0) and the tutor (seat 1) exactly the cards the lessons need; the tutor plays
its script, the learner is asked for one move per lesson: a Roll, distance, a remedy to the tutor's Accident, the
Roll after it, a safety and the extra turn it gives, a coup fourré when the tutor plays a Flat Tire, two more
distance cards to 700, and the extension choice; the hand's score is the last lesson, and it ends the match (the
guided match is one hand: nothing is dealt after it).  A lesson says what to do and why
(``learn.<lesson>.do`` and ``.why`` in the catalog); any other move is refused with the engine's reason when the
rules forbid it, or with ``learn.not_this`` when it is legal but not the lesson's, and nothing changes.

Apps drive it through :class:`Tutorial` and the engine's own game (``tutorial.game``), so the table is drawn as
any other.

>>> t = Tutorial()
>>> t.lesson, t.expected
('roll', 'play roll')
>>> t.attempt("play 100").why
'needs_roll'
>>> t.attempt("play roll").done, t.lesson
(True, 'distance')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from .actions import IllegalAction
from .cards import CARD_IDS
from .rules import Ruleset, ruleset
from .state import Game, new_game

EDITION = "parker"
"""The edition taught first: no hazard on a hazard and no taking the discard leave fewer rules at once."""
OPTIONS: dict[str, Any] = {"match_target": None}
"""The edition's options at the guided match: one hand is the match, so its score ends it (a table's options)."""
GOAL: int = ruleset(EDITION).match_target or 0
"""The points that end a real match of the edition: the last lesson says so."""
LEARNER, TUTOR = 0, 1
LEARNER_HAND = ("roll", "100", "repairs", "extra-tank", "puncture-proof", "200")
TUTOR_HAND = ("roll", "accident", "flat-tire", "25", "25", "50")
DRAWS = ("75", "25", "100", "50", "roll", "25", "200", "50", "100", "50", "25", "75", "25", "50", "25", "50", "100")
"""The stock's first cards, in the order they are drawn (each seat's draw, the safety's extra turn, the coup
fourré's replacement)."""

SCRIPT: tuple[tuple[int, str, str | None], ...] = (
    (LEARNER, "play roll", "roll"),
    (TUTOR, "play roll", None),
    (LEARNER, "play 100", "distance"),
    (TUTOR, "play accident 0", None),
    (LEARNER, "play repairs", "remedy"),
    (TUTOR, "discard 25", None),
    (LEARNER, "play roll", "roll-again"),
    (TUTOR, "discard 50", None),
    (LEARNER, "play extra-tank", "safety"),
    (LEARNER, "play 200", "extra-turn"),
    (TUTOR, "play flat-tire 0", None),
    (LEARNER, "coup-fourre", "coup-fourre"),
    (LEARNER, "play 200", "after-coup-fourre"),
    (TUTOR, "discard 25", None),
    (LEARNER, "play 100", "distance-more"),
    (TUTOR, "discard 50", None),
    (LEARNER, "play 100", "to-700"),
    (LEARNER, "end-hand", "extension"),
)
"""Every move of the hand: the seat, its action and, for the learner, the lesson it teaches."""
LESSONS = tuple(lesson for _, _, lesson in SCRIPT if lesson)
"""The lessons in order; after the last one the hand is over and its score is the final lesson, ``score``."""


def rules() -> Ruleset:
    """The guided match's rules: the edition with :data:`OPTIONS`."""
    return ruleset(EDITION, **OPTIONS)


def deck() -> list[str]:
    """The stacked deck: the two hands, then the draws, then every other card of the edition's deck."""
    left = Counter(dict(zip(CARD_IDS, ruleset(EDITION).deck_counts(2))))
    head = [*LEARNER_HAND, *TUTOR_HAND, *DRAWS]
    left.subtract(head)
    return head + [card for card in CARD_IDS for _ in range(left[card])]


TUTOR_LEVEL = "tutor"
"""The tutor's level, as a table's bot seat names it (the web's tutorial tables)."""


def lesson_of(game: Game) -> str:
    """The lesson a game of the guided hand is on: the learner's next move's (``score`` once the hand is over)."""
    return next((lesson for _, _, lesson in SCRIPT[len(game.history) :] if lesson), "score")


def number_of(lesson: str) -> int:
    """A lesson's number, from 1; the score is the last, ``len(LESSONS) + 1``."""
    return LESSONS.index(lesson) + 1 if lesson != "score" else len(LESSONS) + 1


def scored(game: Game) -> list[tuple[str, int]]:
    """What the learner's points were for, once the hand is over: each item of its score that brought points
    (``distance``, ``safeties``, ``coups_fourres``...), with them, in the score sheet's order (the last lesson's
    lines, ``learn.scored.<item>``)."""
    results = game.hand_results
    if not results:
        return []
    mine = cast(dict[str, int], results[0]["breakdown"][game.side_of(LEARNER)])
    return [(item, points) for item, points in mine.items() if points > 0]


def tutor_move(game: Game) -> str | None:
    """The tutor's next move, when it is the tutor's turn in the script (None once the script is over)."""
    at = len(game.history)
    return SCRIPT[at][1] if at < len(SCRIPT) and SCRIPT[at][0] == TUTOR else None


def expected_move(game: Game) -> str | None:
    """The move the current lesson asks of the learner (None once the script is over)."""
    at = len(game.history)
    return SCRIPT[at][1] if at < len(SCRIPT) and SCRIPT[at][0] == LEARNER else None


@dataclass
class Outcome:
    """What came of the learner's move: ``done`` (the lesson's move), else ``why`` it was refused: an engine
    reason (``reason.*``, with ``params``; ``refusal`` is the engine's own) or ``not_this`` (legal, but not this
    lesson's move)."""

    done: bool
    why: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    refusal: IllegalAction | None = None
    events: list = field(default_factory=list)
    """The events of the learner's move and of the tutor's answers, in order (:meth:`Tutorial.attempt`)."""


class Tutorial:
    """The guided hand as it goes: the game, the lesson the learner is on, the tutor's moves played at once."""

    def __init__(self) -> None:
        self.game: Game = new_game(rules(), players=2, deck=deck(), seed=0)

    @property
    def at(self) -> int:
        """How many moves of :data:`SCRIPT` are played: the game's own count, so an app that plays the moves
        itself (the terminal's table) keeps the lessons in step."""
        return len(self.game.history)

    @property
    def over(self) -> bool:
        """The hand is over: only the score's lesson is left."""
        return self.at >= len(SCRIPT)

    @property
    def lesson(self) -> str:
        """The current lesson: the learner's next move's, while the tutor plays too (``score`` once the hand is
        over)."""
        return lesson_of(self.game)

    @property
    def number(self) -> int:
        return number_of(self.lesson)

    @property
    def expected(self) -> str | None:
        """The move this lesson asks for (None for the score)."""
        return expected_move(self.game)

    @property
    def tutor_move(self) -> str | None:
        return tutor_move(self.game)

    def check(self, action: str) -> Outcome:
        """Whether the learner's ``action`` is this lesson's move, without playing it."""
        return check(self.game, action)

    def attempt(self, action: str) -> Outcome:
        """Play the learner's ``action`` if it is this lesson's, then the tutor's moves up to the next lesson;
        anything else is refused and changes nothing."""
        out = self.check(action)
        if not out.done:
            return out
        out.events = list(self.game.act(action, LEARNER))
        while (move := self.tutor_move) is not None:
            out.events += self.game.act(move, TUTOR)
        return out


def check(game: Game, action: str) -> Outcome:
    """Whether the learner's ``action`` is the lesson's move in ``game``, without playing it; once the script is
    over (``over``), any move the rules allow."""
    if len(game.history) >= len(SCRIPT):
        return Outcome(False, "over")
    if action == expected_move(game):
        return Outcome(True)
    try:
        game.clone().act(action, LEARNER)
    except IllegalAction as exc:
        return Outcome(False, exc.reason, dict(exc.params), exc)
    return Outcome(False, "not_this")


class Tutor:
    """The tutor as a bot: it plays its script (an app's bot loop asks it like any other bot)."""

    name = "tutor"

    def __init__(self, tutorial: Tutorial):
        self.tutorial = tutorial

    def choose(self, observation: Any, legal: list[str]) -> str:
        move = self.tutorial.tutor_move
        return move if move in legal else legal[0]
