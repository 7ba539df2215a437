"""Made-up ladders for the tests (tests/bots/test_ladder.py reads the measured one): one where every level
earned its place, which the other tests run on (tests/conftest.py), and one with a gap."""

from __future__ import annotations

from millebornes.bots import LEVELS

EVERY_LEVEL_WINS = 0.7
"""The made-up rate of the tests' ladder: each level beats the one below 7 times in 10."""


def every_level_ladder() -> dict:
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
    return {"offered": levels, "pairs": pairs}


def gap_ladder() -> dict:
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
    return {"offered": [levels[0]] + levels[2:], "pairs": pairs}
