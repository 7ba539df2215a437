"""What a table waits for after each step: a coup-fourré window's end, a bot's move, a person, or nothing.

Pure: the room turns the answer into its one task (``Clock.schedule``), so the rules of its timing are
read and tested here without a clock or a socket.  Moments are ``time.monotonic`` seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..settings import Settings
from .seatbots import SeatBots
from .table import TableView

Pace = Literal["relaxed", "normal", "fast"]
PACES: tuple[str, ...] = get_args(Pace)
"""How soon a table's bots move, chosen at its creation (``tables.pace``, default ``normal``)."""
RELAXED = 2.0
"""A relaxed table's bots wait this many times ``--bot-delay``: time to follow every move."""
FAST_DELAY = 0.15
"""A fast table's bots wait this long at most: near at once, yet each move still shows on its own."""


def bot_delay(pace: str, settings: Settings) -> float:
    """Seconds a bot of a table at ``pace`` waits after a step.  Only that wait follows the pace: the pause
    after a hand's end (``hand_pause``, the score is read), a coup-fourré answer and the windows stay as they
    are, so the order of the steps is the same at every pace."""
    if pace == "relaxed":
        return RELAXED * settings.bot_delay
    if pace == "fast":
        return min(settings.bot_delay, FAST_DELAY)
    return settings.bot_delay


@dataclass(frozen=True)
class WindowEnds:
    """The open window closes at ``deadline`` (0: at once, for a match that ended behind a window and was
    not told yet, as after a restart)."""

    deadline: float


@dataclass(frozen=True)
class BotMoves:
    """The seat plays itself after ``delay`` seconds."""

    seat: int
    delay: float


@dataclass(frozen=True)
class PersonDecides:
    """A person's decision: their turn clock runs, if the table has one."""

    seat: int


Wait = WindowEnds | BotMoves | PersonDecides | None


def next_wait(
    view: TableView,
    bots: SeatBots,
    settings: Settings,
    events: Sequence[Mapping[str, Any]],
    someone_there: bool,
    leads: bool,
) -> Wait:
    """The wait of a table in play after the step that told ``events``.  A bot answers a coup fourré at
    once, moves ``hand_pause`` seconds after a hand's end (the score is read) and after any other step the
    table's pace's delay (:func:`bot_delay`); a process that does not lead waits ``standby`` more
    (Room.leads).  A stand-in plays only while someone is at the table to play with (``someone_there``)."""
    if view.window is not None:
        assert view.window.deadline is not None  # the room gives a window reopened at start its whole time
        return WindowEnds(view.window.deadline)
    game = view.game
    if game.is_over:
        return WindowEnds(0.0)
    seat = game.to_act
    assert seat is not None  # a match not over has a seat to act
    if not bots.plays_itself(seat):
        return PersonDecides(seat)
    if not bots.is_bot(seat) and not someone_there:
        return None
    if game.decision == "coup-fourre":
        delay = 0.0
    elif any(e["type"] == "hand-over" for e in events):
        delay = settings.hand_pause
    else:
        delay = bot_delay(bots.table.pace, settings)
    return BotMoves(seat, delay if leads else delay + settings.standby)
