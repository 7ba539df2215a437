"""Leaving a rated match: a seat whose player left after the match started forfeits it (docs/web-api.md, "Ratings").

As lichess scores a resignation, leaving a rated match in any way once both sides have played a decision loses it:
the player's account or their bot deleted, a bot's token revoked or renewed, or the seat abandoned (nobody on it for
the table's grace period while someone else waits at the table), at a rated table whose every human seat an account
holds (a guest's seat leaves the match unrated anyway, and it plays on as a casual one).  The table is finished at
once, the leaving side losing: the scores as they stand, the winners the best of the other sides by those scores;
the match is rated then, before any account row goes (the rating needs the leaver's account), the leaving side
ranked last whatever its score (web/ratings/repo.py reads the ``forfeit`` note).  Before both sides have played,
leaving aborts the rating instead: the table is casual from then on and plays on as any table does (a stand-in for
the absent seat).

Why the match ends at once rather than a stand-in playing on: in a rated match of two, the one who stayed wants the
result now, as lichess lets them claim the win, not a bot's match to sit through for a result already decided.

Why apart from :mod:`.room`: the room takes actions; this part ends a match no action ended, in the order every step
keeps (the database first, then the room's copy, then every seat told), and adopts such an end written by another
server process (its ``forfeit`` notice).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from ...state import Game
from ..ratings.repo import FORFEIT
from .host import Host
from .rows import FINISHED, PLAYING, SavedTable
from .table import TableView
from .view import is_hidden

log = logging.getLogger("millebornes.web")

WHYS = ("away", "deleted", "revoked")
"""Why a seat left: nobody came back within the grace period; the account (a person's, a bot's or a bot's owner's)
was deleted; the bot's token was revoked or renewed."""
UNRATED = "unrated"
"""The type of the log's note that says a seat left before both sides played: the match is casual from then on."""


def both_played(view: TableView) -> bool:
    """Whether every side has shown a decision of its own: from then on leaving loses, before it aborts."""
    game = view.game
    return {game.side_of(seat) for seat, action, _ in view.done if not is_hidden(action)} == set(range(len(game.sides)))


def result(game: Game, leaving: set[int]) -> tuple[list, list[int]]:
    """The forfeited match's result: the scores as they stand, the winners the best of the sides that stayed."""
    scores = list(game.match_scores)
    stayed = [i for i in range(len(game.sides)) if i not in leaving]
    best = max(scores[i] for i in stayed)
    return scores, [i for i in stayed if scores[i] == best]


def forfeited(obs: Mapping[str, Any], table: SavedTable) -> dict[str, Any]:
    """A frame's observation once the match was forfeited: over, with the table's result, and nothing to decide."""
    return {
        **obs,
        "is_over": True,
        "match_scores": list(table.scores or obs.get("match_scores") or []),
        "winners": list(table.winners or []),
        "legal_actions": [],
        "to_act": None,
    }


class Forfeits:
    """One room's forfeits; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    async def leave(self, seats: set[int], why: str) -> bool:
        """The players of ``seats`` left the rated match (``why``: one of :data:`WHYS`): forfeited, or its rating
        aborted before both sides played; True when the match was forfeited here.  Under the room's lock."""
        room = self.room
        if room.status != PLAYING or room.game.is_over or room.closed or not room.table.rated or not seats:
            return False
        if not await asyncio.to_thread(room.repo.held_by_accounts, room.id):
            return False  # a guest's seat: the match will not be rated, and plays on as a casual one would
        game = room.game
        leaving = {game.side_of(seat) for seat in seats}
        if len(leaving) == len(game.sides) or not both_played(room.view):
            await self._abort(min(seats), why)
            return False
        scores, winners = result(game, leaving)
        notes = [{"type": FORFEIT, "seat": seat, "why": why} for seat in sorted(seats)]
        done = await asyncio.to_thread(room.repo.forfeit, room.id, room.actions, notes, scores, winners)
        if not done:
            await self.adopt_locked()
            return False
        log.info("table %s: seats %s left the rated match (%s): forfeited", room.id, sorted(seats), why)
        told = room.view.close_window() if room.window is not None else []
        for note in notes:
            room.notes += 1
            told += room.view.note(note)
        await room._finished((scores, winners))
        self._after(told)
        return True

    async def _abort(self, seat: int, why: str) -> None:
        room = self.room
        note = {"type": UNRATED, "seat": seat, "why": why}
        if await asyncio.to_thread(room.repo.unrate, room.id, room.actions, note):
            room.table.rated = False
            room.notes += 1
            told = room.view.note(note)
            room.schedule(told)
            room.broadcast_state(told)

    async def adopt(self) -> None:
        """Another server process finished the table by a forfeit (its notice): the same end here."""
        async with self.room.lock:
            await self.adopt_locked()

    async def adopt_locked(self) -> None:
        room = self.room
        if room.closed or room.status == FINISHED:
            return
        saved = await asyncio.to_thread(room.repo.get, room.id)
        if saved is None or saved.status != FINISHED:
            return
        notes = await asyncio.to_thread(room.repo.notes_after, room.id, room.notes)
        told = room.view.close_window() if room.window is not None else []
        for _, note in notes:
            room.notes += 1
            told += room.view.note(note)
        room.table.status, room.table.rated = FINISHED, saved.rated
        room.table.scores, room.table.winners, room.table.finished = saved.scores, saved.winners, saved.finished
        self._after(told)

    def _after(self, told: list[Mapping[str, Any]]) -> None:
        """The match is over here: no clock, no stand-in to come, and every seat and spectator told."""
        room = self.room
        for task in room.away_tasks.values():
            if task is not asyncio.current_task():  # a grace period's own task may be the one forfeiting
                task.cancel()
        room.away_tasks.clear()
        room.schedule(told)
        room.broadcast_state(told)
