"""The chance of the match between hands, from the totals alone: what the review shows and what a search that
plays the match scores its playouts with (docs/review.md, "The match's chance").
"""

from __future__ import annotations

import json
import math
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import Game

MODEL = os.path.join(os.path.dirname(__file__), "match.json")
"""The model's two constants, shipped as data; ``research/match_model.py`` refits them from self-play records."""

with open(MODEL, encoding="utf-8") as _file:
    _model = json.load(_file)
HAND_POINTS = float(_model["hand_points"])
"""What a side scores in a hand, on average."""
HAND_SPREAD = float(_model["hand_spread"])
"""How far one hand moves the lead (the spread of a normal step), fitted by maximum likelihood."""


def match_chances(
    scores: list[int], target: int, hand_points: float = HAND_POINTS, hand_spread: float = HAND_SPREAD
) -> list[float]:
    """Each side's chance to win a match of ``target`` points from ``scores`` between hands.

    The hands still to play are about (target - the leader's total) / ``hand_points``, and at least one; each
    is a normal step of spread ``hand_spread`` in the lead, so a lead of d is worth
    Phi(d / (hand_spread * sqrt(hands))) against each other side; with more than two sides the pairwise chances
    are multiplied and normalized."""
    n = len(scores)
    if n == 1:
        return [1.0]
    hands = max((target - max(scores)) / hand_points, 1.0)
    spread = hand_spread * math.sqrt(hands)
    raw = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p *= 0.5 * (1.0 + math.erf((scores[i] - scores[j]) / (spread * math.sqrt(2.0))))
        raw.append(p)
    total = sum(raw)
    return [p / total for p in raw] if total > 0 else [1.0 / n] * n


def match_outcome(world: Game, target: int) -> list[float]:
    """Each side's chance of the match once a search world's hand is over (or, unfinished, as it stands)."""
    if world.is_over:
        winners = world.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(world.nsides)]
    return match_chances(list(world.match_scores), target)


def chance_per_point(scores: list[int], side: int, target: int) -> float:
    """What a point more of lead is worth to ``side``'s chance of the match, at these totals."""
    up, down = scores[:], scores[:]
    up[side] += 50
    down[side] -= 50
    return (match_chances(up, target)[side] - match_chances(down, target)[side]) / 100
