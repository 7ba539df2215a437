"""Records: a finished or running game as JSON, and replay.

A record names the ruleset with all its options, the players, teams, the seed (and the stacked
deck, if any) and every action in notation.  Replaying it through the state machine rebuilds the
identical game, so a record is also a test: each action is checked for legality again.

>>> import millebornes as mb
>>> g = mb.new_game("parker", players=2, seed=3)
>>> _ = g.act(g.legal_actions()[0])
>>> mb.replay(g.record()).observation(0) == g.observation(0)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import IllegalAction
from .record import Record
from .rules import ruleset
from .state import RECORD_FORMAT, Game, new_game

__all__ = ["RECORD_FORMAT", "Record", "replay"]


def replay(record: Record | Mapping[str, Any], upto: int | None = None) -> Game:
    """Rebuild a game from its record (:meth:`Game.record`, or the same read from JSON), applying the first
    ``upto`` actions (all by default).  A record that is not one is refused: ValueError for its shape, and
    IllegalAction, with the index of the action as its ``move``, for an action that is not legal there."""
    if not isinstance(record, Mapping):
        raise ValueError("a record is a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise ValueError(f"unknown record format {fmt!r}; this version reads {RECORD_FORMAT!r}")
    for key in ("ruleset", "players", "seed", "actions"):
        if key not in record:
            raise ValueError(f"a record needs {key!r}")
    rules = ruleset(record["ruleset"], **(record.get("options") or {}))
    game = new_game(
        rules, players=record["players"], teams=record.get("teams"), seed=record["seed"], deck=record.get("deck")
    )
    actions = record["actions"]
    if upto is not None:
        actions = actions[:upto]
    for i, action in enumerate(actions):
        try:
            if not isinstance(action, str):
                raise IllegalAction(f"an action of a record is a string in notation, not {action!r}", "action_not_text")
            game.act(action)
        except IllegalAction as exc:
            refused = IllegalAction(f"record action {i} ({action!r}) is illegal: {exc}", exc.reason, **exc.params)
            refused.move = i
            raise refused from None
    return game
