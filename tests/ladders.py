"""Made-up ladders for the tests (tests/bots/test_ladder.py reads the measured one): one where every level
earned its place, which the other tests run on (tests/conftest.py), one with a gap, and one with a table of its
own beside two-player classic.  Each is the list of tables ``ladder.json`` holds; a table not listed falls back to
two-player classic."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from millebornes.bots import LEVELS
from millebornes.bots.ladder import ladder

EVERY_LEVEL_WINS = 0.7
"""The made-up rate of the tests' ladder: each level beats the one below 7 times in 10."""


def table(pairs: list[dict], offered: list[str], ruleset: str = "classic", players: int = 2, teams: bool = False):
    """One table's line of ``ladder.json``."""
    return {"ruleset": ruleset, "players": players, "teams": teams, "offered": offered, "pairs": pairs, "commands": []}


def every_level_ladder() -> list[dict]:
    """A ladder on which every level earned its place (made-up figures, for tests only)."""
    levels = list(LEVELS)
    pairs = [
        {
            "level": level,
            "below": below,
            "matches": 100,
            "score": 100 * EVERY_LEVEL_WINS,
            "rate": EVERY_LEVEL_WINS,
            "earned": True,
        }
        for below, level in zip(levels, levels[1:])
    ]
    return [table(pairs, levels)]


def gap_ladder() -> list[dict]:
    """A made-up ladder: the second level did not earn its place, the others did (the third against the first)."""
    levels = list(LEVELS)
    pairs = [
        {"level": levels[1], "below": levels[0], "matches": 40, "score": 22.0, "rate": 0.55, "earned": False},
        {"level": levels[2], "below": levels[0], "matches": 40, "score": 34.0, "rate": 0.85, "earned": True},
    ]
    pairs += [
        {"level": level, "below": below, "matches": 20, "score": 13.0, "rate": 0.65, "earned": True}
        for below, level in zip(levels[2:], levels[3:])
    ]
    return [table(pairs, [levels[0]] + levels[2:])]


FOUR_IN_TEAMS_RATE = 0.6
"""The made-up rate of the second level over the lowest at four classic players in teams."""


def tables_ladder() -> list[dict]:
    """Two-player classic where every level earned its place, and classic four players in teams where only the two
    lowest did (the third lost to the second there)."""
    levels = list(LEVELS)
    pairs = [
        {
            "level": levels[1],
            "below": levels[0],
            "matches": 60,
            "score": 36.0,
            "rate": FOUR_IN_TEAMS_RATE,
            "earned": True,
        },
        {"level": levels[2], "below": levels[1], "matches": 60, "score": 27.0, "rate": 0.45, "earned": False},
    ]
    return every_level_ladder() + [table(pairs, levels[:2], players=4, teams=True)]


@contextmanager
def served(tables: list[dict], folder) -> Iterator[None]:
    """``tables`` as the ladder this process and the servers it starts read (``MILLEBORNES_LADDER``, a file in
    ``folder``), until the block ends."""
    path = folder / "ladder.json"
    path.write_text(json.dumps(tables))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MILLEBORNES_LADDER", str(path))
        ladder.cache_clear()
        yield
    ladder.cache_clear()
