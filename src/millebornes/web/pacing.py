"""What a table waits for after each step: a coup-fourré window's end, a bot's move, a person, or nothing.

Pure: the room turns the answer into its one task (``Room.schedule``), so the rules of its timing are
read and tested here without a clock or a socket.  Moments are ``time.monotonic`` seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .seatbots import SeatBots
from .settings import Settings
from .table import TableView


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
    once, moves ``hand_pause`` seconds after a hand's end (the score is read) and ``bot_delay`` after any
    other step; a process that does not lead waits ``standby`` more (Room.leads).  A stand-in plays only
    while someone is at the table to play with (``someone_there``)."""
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
        delay = settings.bot_delay
    return BotMoves(seat, delay if leads else delay + settings.standby)
