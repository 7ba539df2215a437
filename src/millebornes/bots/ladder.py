"""How far apart the levels are, as measured (``bench/ladder.py`` writes ``ladder.json`` beside this module).

A level is offered to people only when it beat the level below it clearly in paired full matches; the pickers
of the web, the terminal and the CLI list :func:`offered_levels` and say, for each, how often it beat the one
below (:func:`standing`).
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any

from . import LEVELS

LADDER_FILE = os.path.join(os.path.dirname(__file__), "ladder.json")
"""The ladder as last measured, shipped with the package."""


@functools.cache
def ladder() -> dict[str, Any]:
    """The measured ladder; without the file, only the lowest level, which needs no measure.
    ``MILLEBORNES_LADDER`` names another file: a ladder measured elsewhere, or a test's."""
    try:
        with open(os.environ.get("MILLEBORNES_LADDER") or LADDER_FILE) as f:
            measured: dict[str, Any] = json.load(f)
            return measured
    except FileNotFoundError:
        return {"offered": [next(iter(LEVELS))], "pairs": []}


def offered_levels() -> list[str]:
    """The levels people may pick, weakest first."""
    return [level for level in LEVELS if level in ladder()["offered"]]


def standing(level: str) -> dict[str, Any] | None:
    """How the level did against the one below it: ``below``, ``rate`` (its score per match), ``in_ten`` (the
    rate in tenths, as people say it), ``matches``; None for the lowest level or one not offered."""
    if level not in offered_levels():
        return None
    for pair in ladder()["pairs"]:
        if pair["level"] == level and pair["earned"]:
            return {
                "below": pair["below"],
                "rate": pair["rate"],
                "in_ten": round(10 * pair["rate"]),
                "matches": pair["matches"],
            }
    return None


def default_level() -> str:
    """The level a picker starts on: the first offered above the lowest (a beginner's first match should not be a
    walkover), else the lowest."""
    offered = offered_levels()
    return offered[1] if len(offered) > 1 else offered[0]
