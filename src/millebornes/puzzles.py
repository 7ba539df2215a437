"""Puzzles: a reviewed decision turned into a question, "find the better move", as chess sites' "learn from your
mistakes" does.

A puzzle is one decision of a finished match where the move played lost chance (an inaccuracy or worse): the
position as its seat saw it (the observation the review judged it from, so no hidden card), the move played, the
better one, the chances of the hand each gave and why the better one is better (``reason``, millebornes.reasons).
:func:`from_review` makes them from a review; :func:`build` makes a set from reviewed self-play matches, the
positions where the choice changed the chance of the hand the most, with a theme each (:data:`THEMES`);
:func:`solve` says whether an answer finds the better move, and why.

>>> p = {"observation": {"legal_actions": ["play 75", "discard 75"]}, "best": "play 75", "played": "discard 75",
...      "chance": 0.31, "best_chance": 0.58}
>>> solve(p, "play 75")["solved"], solve(p, "discard 75")["solved"]
(True, False)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .actions import parse
from .cards import DISTANCE, GROUP, SAFETY
from .reasons import FIGURES, reason
from .review import decisions, review

MISTAKES = ("inaccuracy", "mistake", "blunder")
"""The classes of a decision a puzzle is made of."""
PUZZLE_FORMAT = "millebornes-puzzles/1"
"""The format a puzzle set names."""
THEMES = ("coup-fourre", "extension", "hold-safety", "attack", "discard", "distance", "other")
"""What a puzzle is about, from its decision and its two moves: answering a hazard with a safety, the extension
call, keeping a safety in hand for a coup fourré, whom to attack, what to discard, how far to go; else other."""


def theme(observation: Mapping[str, Any], played: str, best: str) -> str:
    """The theme of a decision (:data:`THEMES`)."""
    decision = observation.get("decision")
    if decision == "coup-fourre":
        return "coup-fourre"
    if decision == "extension":
        return "extension"
    moves = [parse(a) for a in (played, best) if a not in ("draw", "take-discard")]
    if any(m.verb == "play" and m.kind is not None and GROUP[m.kind] == SAFETY for m in moves):
        return "hold-safety"
    if any(m.verb == "attack" for m in moves):
        return "attack"
    if any(m.verb == "discard" for m in moves):
        return "discard"
    if any(m.verb == "play" and m.kind is not None and GROUP[m.kind] == DISTANCE for m in moves):
        return "distance"
    return "other"


def from_review(
    record: dict[str, Any],
    reviewed: dict[str, Any],
    seat: int | None = None,
    seen: Mapping[int, Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The puzzles of a reviewed match: its inaccuracies and worse (of ``seat`` only, if given), in order.
    ``seen``: each decision's observation as its seat saw it, by the decision's index (by default the engine's,
    :func:`millebornes.review.decisions`; the web gives what the table's frames showed)."""
    if seen is None:
        seen = {index: obs for obs, index, _ in decisions(record, None if seat is None else [seat])[0]}
    out = []
    for m in reviewed["moves"]:
        if m["class"] not in MISTAKES or (seat is not None and m["seat"] != seat) or m["index"] not in seen:
            continue
        obs = seen[m["index"]]
        key = json.dumps([record["seed"], record.get("deck"), record["actions"][: m["index"]]], sort_keys=True)
        out.append(
            {
                "id": hashlib.sha256(key.encode()).hexdigest()[:12],
                "edition": record["ruleset"],
                "seat": m["seat"],
                "observation": obs,
                "played": m["played"],
                "best": m["best"],
                "chance": m["chance"],
                "best_chance": m["best_chance"],
                **{k: m[k] for k in JUDGED if m.get(k) is not None},
                "stake": m.get("stake", m["best_chance"] - m["chance"]),
                "class": m["class"],
                "theme": theme(obs, m["played"], m["best"]),
                "reason": puzzle_reason(obs, m),
            }
        )
    return out


JUDGED = ("value", "best_value", "points", "best_points", "match_chance", "best_match_chance", "loss")
"""What a puzzle keeps of its reviewed move beside the chances of the hand (those a review of version 3 gives):
what the two moves were worth in points of what was at stake, and the match's chances."""


def puzzle_reason(observation: Mapping[str, Any], move: Mapping[str, Any]) -> dict[str, Any]:
    """Why a puzzle's answer is better than the move played (:func:`millebornes.reasons.reason`), worked out from
    the position the puzzle shows and the figures the reviewed move (or the puzzle) carries."""
    figures = {k: move.get(k) for k in FIGURES}
    return reason(observation, move["best"], move["played"], figures)  # type: ignore[arg-type]


def with_reasons(puzzle_set: dict[str, Any]) -> dict[str, Any]:
    """A puzzle set whose every puzzle has its ``reason``, re-derived from its observation and moves (a set made
    before puzzles carried one; nothing is reviewed again)."""
    return {
        **puzzle_set,
        "puzzles": [{**p, "reason": puzzle_reason(p["observation"], p)} for p in puzzle_set["puzzles"]],
    }


def solve(puzzle: dict[str, Any], action: str) -> dict[str, Any]:
    """Whether ``action`` finds the better move: ``{"solved", "best", "chance", "best_chance", "reason"}`` (the
    chances of the hand the move played and the better one gave, and why the better one is better); an action that
    is not one of the position's legal moves raises ``ValueError`` and counts as nothing."""
    if action not in puzzle["observation"]["legal_actions"]:
        raise ValueError(f"{action!r} is not a move of this position")
    return {
        "solved": action == puzzle["best"],
        "best": puzzle["best"],
        "chance": puzzle["chance"],
        "best_chance": puzzle["best_chance"],
        "reason": puzzle.get("reason"),
    }


def build(
    records: Iterable[dict[str, Any]], worlds: int = 200, seed: int = 0, per_theme: int = 6, executor=None
) -> dict[str, Any]:
    """A puzzle set from finished matches: each reviewed whole, its inaccuracies and worse kept, then for each
    theme the ``per_theme`` whose choice changed the chance of the hand the most (a position appears once)."""
    found: dict[str, dict[str, Any]] = {}
    for record in records:
        reviewed = review(record, worlds=worlds, seed=seed, executor=executor)
        for p in from_review(record, reviewed):
            found.setdefault(p["id"], p)
    chosen = []
    for name in THEMES:
        mine = sorted((p for p in found.values() if p["theme"] == name), key=lambda p: -p["stake"])
        chosen += mine[:per_theme]
    return {"format": PUZZLE_FORMAT, "worlds": worlds, "seed": seed, "puzzles": chosen}


SHIPPED = Path(__file__).with_name("puzzles.json")
"""The puzzle set that comes with the package (``millebornes puzzles --build`` makes it)."""


@cache
def shipped() -> dict[str, Any]:
    """The shipped puzzle set."""
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data
