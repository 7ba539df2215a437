"""A table in the terminal without the terminal: the game, who sits where, the bots, saving.

A save file is a game record (``Game.record()``, so ``millebornes replay`` reads it too) with one
more key, ``"tui"``, holding who sits in each seat.  The record holds the seed, which would tell
the order of the stock: the file is written for the owner only and its content is never shown.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..bots import LEVELS, make_bot
from ..bots.base import Bot
from ..bots.ladder import default_level
from ..notation import replay
from ..state import Game, new_game

HUMAN = "human"
SAVE_FORMAT = "millebornes-tui/1"


def default_save_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "millebornes" / "save.json"


def check_kind(kind: str) -> str:
    """'human', a level (easy..expert) or any bot spec; ValueError names a bad one."""
    kind = kind.strip().lower() if isinstance(kind, str) else kind
    if kind == HUMAN or kind in LEVELS:
        return kind
    try:
        make_bot(kind, 0)
    except ValueError as exc:
        raise ValueError(f"{exc}; or human, for another person at this keyboard") from None
    return kind


def seat_kinds(players: int, bots: list[str] | None, ruleset: str = "classic", teams: bool | None = None) -> list[str]:
    """Seat 0 is a person; the others take the given kinds in order, the last one repeated (by default the level a
    picker starts on at this table)."""
    start = default_level(ruleset, players, teams)
    bots = [b for item in (bots or [start]) for b in str(item).split(",") if b.strip()] or [start]
    kinds = [check_kind(b) for b in bots]
    return [HUMAN] + [kinds[min(i, len(kinds) - 1)] for i in range(players - 1)]


class PlaySession:
    """One match at one table: ``game``, the kind of each seat, the bot objects."""

    def __init__(self, game: Game, kinds: list, save_path: str | Path | None = None):
        if len(kinds) != game.players:
            raise ValueError(f"{game.players} seats need {game.players} kinds, not {len(kinds)}")
        self.game = game
        self.kinds: list[str] = []
        self.bots: dict[int, Bot] = {}
        for seat, kind in enumerate(kinds):
            if isinstance(kind, str):
                kind = check_kind(kind)
                self.kinds.append(kind)
                if kind != HUMAN:
                    self.bots[seat] = make_bot(kind, seed=(game.seed * 31 + seat) % 2**63)
            else:  # a bot object (anything with choose(observation, legal)), e.g. in tests
                self.kinds.append(getattr(kind, "name", "bot"))
                self.bots[seat] = kind
        self.humans = [s for s in range(game.players) if s not in self.bots]
        if not self.humans:
            raise ValueError("at least one seat must be a person")
        self.save_path = Path(save_path) if save_path else None
        self.settings: dict = {}
        """The table's own settings (language, pace), written with every save so that a resumed game keeps them
        however the last one ended."""

    @classmethod
    def new(
        cls,
        ruleset: str = "classic",
        players: int = 2,
        teams: bool | None = None,
        bots: list[str] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
        save_path: str | Path | None = None,
    ) -> PlaySession:
        game = new_game(ruleset, players=players, teams=teams, seed=seed, deck=deck)
        return cls(game, seat_kinds(players, bots, game.ruleset.name, game.teams), save_path)

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and seat not in self.bots

    # -- saving ------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {**self.game.record(), "tui": {"format": SAVE_FORMAT, "seats": list(self.kinds), **self.settings}}

    def save(self, path: str | Path | None = None) -> Path | None:
        """Write the record (atomically, readable by the owner only); the path written, or None."""
        path = Path(path) if path else self.save_path
        if path is None:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path, save_path: str | Path | None = None) -> tuple[PlaySession, dict]:
        """Rebuild a saved table; (session, the saved 'tui' settings)."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"no saved game at {path}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is not a saved game: {exc}") from None
        game = replay(data)
        tui = data.get("tui") or {}
        kinds = tui.get("seats") or [HUMAN] + ["medium"] * (game.players - 1)
        return cls(game, kinds, save_path or path), tui
