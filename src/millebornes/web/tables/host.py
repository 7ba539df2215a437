"""What a room's parts see of their room: the room's state and the calls they make on it and on each other.

:class:`.room.Room` builds its parts (:mod:`.clock`, :mod:`.standins`, :mod:`.following`, :mod:`.takebacks`,
:mod:`.rematchseats`) and hands each itself; a part cannot import room.py back (tests/project/test_layers.py
forbids the circle, even for type checking), so it names the room by this protocol, which the type checker holds
:class:`.room.Room` to.  The state stays the room's, under its one lock: a part keeps none of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ...state import Game
from ..settings import Settings
from ..tasks import Tasks
from . import outbound
from .presence import Connection, Presence
from .repo import Tables
from .rows import SavedTable
from .seatbots import SeatBots
from .table import TableView
from .turn import Turn
from .view import Window


class StandInsPart(Protocol):
    """The calls the other parts make on :class:`.standins.StandIns`."""

    def arrived(self, seat: int) -> None: ...

    def watch_absence(self, seat: int) -> None: ...

    async def take_over_due(self) -> None: ...


class FollowingPart(Protocol):
    """The calls the other parts make on :class:`.following.Following` (under the room's lock)."""

    async def read_seats(self) -> None: ...

    async def read_actions(self) -> None: ...


class ForfeitsPart(Protocol):
    """The calls the other parts make on :class:`.forfeits.Forfeits` (under the room's lock)."""

    async def leave(self, seats: set[int], why: str) -> bool: ...


class Host(Protocol):
    """One room, as its parts see it (:class:`.room.Room` has the docstrings)."""

    table: SavedTable
    repo: Tables
    settings: Settings
    lock: asyncio.Lock
    view: TableView
    task: asyncio.Task | None
    save_failures: int
    save_error: str
    bots: SeatBots
    notes: int
    tasks: Tasks
    closed: bool
    presence: Presence
    away_tasks: dict[int, asyncio.Task]
    turn: Turn
    reading: dict[int, float]
    leads: bool

    @property
    def standins(self) -> StandInsPart: ...

    @property
    def following(self) -> FollowingPart: ...

    @property
    def forfeits(self) -> ForfeitsPart: ...

    @property
    def id(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def conns(self) -> dict[int, set[Connection]]: ...

    @property
    def game(self) -> Game: ...

    @property
    def seq(self) -> int: ...

    @property
    def window(self) -> Window | None: ...

    @property
    def actions(self) -> int: ...

    @property
    def last_events(self) -> list[Mapping[str, Any]]: ...

    @property
    def humans(self) -> set[int]: ...

    @property
    def teaches(self) -> bool: ...

    def connected(self) -> dict[int, bool]: ...

    def seat_facts(self) -> list[outbound.SeatFacts]: ...

    def send_state(self, seat: int, events: list[Mapping[str, Any]]) -> None: ...

    def broadcast_state(self, events: list[Mapping[str, Any]]) -> None: ...

    def broadcast(self, frame: outbound.ServerFrame, but: Connection | None = None) -> None: ...

    def reseat(self) -> None: ...

    def check_person(self, seat: int) -> None: ...

    def check_turn(self, seat: int, seq: int | None) -> None: ...

    def schedule(self, events: Sequence[Mapping[str, Any]], caller: asyncio.Task | None = None) -> None: ...

    async def submit(self, seat: int, action: str, seq: int | None, person: bool = False) -> None: ...

    async def _apply(self, seat: int, action: str) -> list[Mapping[str, Any]] | None: ...

    async def _finish_if_over(self) -> None: ...

    async def _finished(self, result: tuple[list, list]) -> None: ...
