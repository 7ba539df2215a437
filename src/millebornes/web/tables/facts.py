"""What anybody may know of a table, worked out from what the database keeps (no seed, no deck, no token).

The room answers from memory; the API answers the same way for a table no room holds (another server
process plays it, or it left memory), so both build their answers here, from the same shown game.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ...events import Event
from ...notation import replay
from ...state import Game
from ...tutorial import TUTOR_LEVEL
from .outbound import SeatFacts
from .rows import FINISHED, SavedTable
from .table import TableView


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat(timespec="seconds") + "Z"


def dealt(saved: SavedTable) -> Game:
    """The table's match at the deal, before any action: its edition, seats and sides."""
    return replay(saved.record(), 0)


def people(saved: SavedTable) -> set[int]:
    """The seats people decide for: human seats no stand-in bot plays.  The one place that decides it."""
    return {s.seat for s in saved.seats if s.kind == "human" and not s.stood_in}


def view_of(saved: SavedTable, log_events: int) -> TableView:
    """The table as its seats were last shown it, from its saved actions and notes (``saved`` read with them)."""
    teaching = any(s.level == TUTOR_LEVEL for s in saved.seats)
    view = TableView(dealt(saved), log_events, people(saved), teaching)
    view.replay(saved.actions, saved.notes)
    return view


def shown_game(view: TableView) -> Game:
    """The game every seat may know the scores of: while a window is open, the one from before the hazard."""
    return view.window.before if view.window is not None else view.game


def seat_facts(
    saved: SavedTable,
    connected: dict[int, bool],
    away: dict[int, float] | None = None,
    takeover: dict[int, float] | None = None,
) -> list[SeatFacts]:
    """Who sits where and who is there: ``standin`` when a bot plays for an absent human, ``away`` the
    seconds since a joined human's last socket left (None while connected, or not known), ``takeover`` the
    seconds until a stand-in plays for them (None when none is coming: the page then says only that they
    left)."""
    away = away or {}
    takeover = takeover or {}
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "level": s.level,
            "nickname": s.nickname,
            "connected": s.kind == "bot" or connected.get(s.seat, False),
            "standin": s.stood_in,
            "away": away.get(s.seat) if s.kind == "human" and s.joined else None,
            "takeover": takeover.get(s.seat) if s.kind == "human" and s.joined and not s.stood_in else None,
        }
        for s in saved.seats
    ]


def table_facts(saved: SavedTable, game: Game, connected: dict[int, bool]) -> dict:
    """GET /api/tables/{table} (docs/web-api.md): ``game`` is the shown game (:func:`shown_game`), or the
    dealt one for a table that has not started or whose result is stored."""
    over = saved.status == FINISHED
    return {
        "id": saved.id,
        "ruleset": saved.ruleset,
        "options": game.ruleset.options(),
        "players": game.players,
        "teams": game.teams,
        "sides": [list(s) for s in game.sides],
        "status": saved.status,
        "cf_timeout": saved.cf_timeout,
        "seats": seat_facts(saved, connected),
        "scores": list(saved.scores) if over and saved.scores is not None else list(game.match_scores),
        "winners": list(saved.winners) if over and saved.winners is not None else game.winners,
        "created": iso(saved.created),
        "finished": iso(saved.finished),
        "spectators": saved.spectators,
        "clock": saved.clock,
        "grace": saved.grace,
        "standin": saved.standin_level,
        "public": saved.public,
        "rematch": saved.rematch,
        "rematch_of": saved.rematch_of,
        "casual": saved.casual,
        "rated": saved.rated,
        "pace": saved.pace,
    }


def public_events(seat: int, action: str, events: list[Event]) -> list[Mapping[str, Any]]:
    """A replay's events of one action (a finished match shows everything, passes too)."""
    return [{"type": "action", "seat": seat, "action": action}, *events]
