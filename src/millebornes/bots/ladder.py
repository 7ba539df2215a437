"""How far apart the levels are, table by table, as measured (``bench/ladder.py`` writes ``ladder.json`` beside
this module).

A level is offered to people at a table only when it beat the level below it clearly in paired full matches at
that table; the pickers of the web, the terminal and the CLI list :func:`offered_levels` and say, for each, how
often it beat the one below (:func:`standing`).

``ladder.json`` is a list of tables, one line per (edition, players, teams) measured: ``ruleset``, ``players``,
``teams``, ``offered`` (weakest first), ``pairs`` (each level measured against the one below: ``matches``,
``score``, ``rate``, the interval...) and the ``commands`` that measured them.  A table nobody measured takes the
line of :data:`FALLBACK`, two-player classic, and says so (:func:`measured_at`, ``standing(...)["table"]``).

>>> ("classic", 4, True) == table_of("classic", 4)  # four classic players play in teams unless told otherwise
True
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any

from ..rules import RULESETS
from . import LEVELS

LADDER_FILE = os.path.join(os.path.dirname(__file__), "ladder.json")
"""The ladder as last measured, shipped with the package."""

Table = tuple[str, int, bool]
"""A table as the ladder knows it: (edition name, players, teams)."""

FALLBACK: Table = ("classic", 2, False)
"""The table whose ladder stands in for a table nobody measured."""


def table_of(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> Table:
    """The table's key, ``teams=None`` resolved as :func:`millebornes.state.new_game` does (the edition's default
    for that many players)."""
    if teams is None:
        rules = RULESETS.get(ruleset)
        teams = rules.default_teams(players) if rules is not None else False
    return (ruleset, players, bool(teams))


@functools.cache
def ladder() -> list[dict[str, Any]]:
    """The measured tables; without the file, none (every table then offers only the lowest level, which needs no
    measure).  ``MILLEBORNES_LADDER`` names another file: a ladder measured elsewhere, or a test's.  A file of
    one table (the format before tables, a single object) is read as a list of it."""
    try:
        with open(os.environ.get("MILLEBORNES_LADDER") or LADDER_FILE, encoding="utf-8") as f:
            measured = json.load(f)
    except FileNotFoundError:
        return []
    lines: list[dict[str, Any]] = [measured] if isinstance(measured, dict) else list(measured)
    return [
        dict(line, teams=table_of(line.get("ruleset", "classic"), line.get("players", 2), line.get("teams"))[2])
        for line in lines
    ]


def _line(table: Table) -> dict[str, Any] | None:
    for line in ladder():
        if (line.get("ruleset", "classic"), line.get("players", 2), line["teams"]) == table:
            return line
    return None


def measured_at(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> bool:
    """Whether this table has a ladder of its own (else it shows two-player classic's: :data:`FALLBACK`)."""
    return _line(table_of(ruleset, players, teams)) is not None


def ladder_at(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> tuple[Table, dict[str, Any]]:
    """The ladder a table shows and the table it was measured at: its own, else :data:`FALLBACK`'s, else one that
    offers only the lowest level."""
    table = table_of(ruleset, players, teams)
    for where in (table, FALLBACK):
        line = _line(where)
        if line is not None:
            return where, line
    return FALLBACK, {"offered": [next(iter(LEVELS))], "pairs": []}


def offered_levels(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> list[str]:
    """The levels people may pick at the table, weakest first."""
    offered = ladder_at(ruleset, players, teams)[1]["offered"]
    return [level for level in LEVELS if level in offered]


def standing(
    level: str, ruleset: str = "classic", players: int = 2, teams: bool | None = None
) -> dict[str, Any] | None:
    """How the level did against the one below it at the table: ``below``, ``rate`` (its score per match, per
    meeting of two sides at a table of three sides), ``in_ten`` (the rate in tenths, as people say it),
    ``matches`` and ``table``, the (ruleset, players, teams) the figure is from (:data:`FALLBACK` where the table
    was not measured); None for the lowest level or one not offered there."""
    where, line = ladder_at(ruleset, players, teams)
    if level not in offered_levels(ruleset, players, teams):
        return None
    for pair in line["pairs"]:
        if pair["level"] == level and pair["earned"]:
            return {
                "below": pair["below"],
                "rate": pair["rate"],
                "in_ten": round(10 * pair["rate"]),
                "matches": pair["matches"],
                "table": where,
            }
    return None


def default_level(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> str:
    """The level a picker starts on at the table: the first offered above the lowest (a beginner's first match
    should not be a walkover), else the lowest."""
    offered = offered_levels(ruleset, players, teams)
    return offered[1] if len(offered) > 1 else offered[0]
