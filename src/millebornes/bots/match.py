"""The chance of the match between hands, from the totals alone: what the review shows and what a search that
plays the match scores its playouts with (docs/review.md, "The match's chance").
"""

from __future__ import annotations

import math

HAND_POINTS = 1024.0
"""What a side scores in a hand, on average (medium against medium, classic, 670 hands)."""
HAND_SPREAD = 1600.0
"""How far one hand moves the lead: fitted by maximum likelihood to 1,360 positions between the hands of 400
medium-against-medium classic matches (docs/review.md)."""


def match_chances(scores: list[int], target: int) -> list[float]:
    """Each side's chance to win a match of ``target`` points from ``scores`` between hands.

    The hands still to play are about (target - the leader's total) / HAND_POINTS, and at least one; each is a
    normal step of spread HAND_SPREAD in the lead, so a lead of d is worth Phi(d / (HAND_SPREAD * sqrt(hands)))
    against each other side; with more than two sides the pairwise chances are multiplied and normalized."""
    n = len(scores)
    if n == 1:
        return [1.0]
    hands = max((target - max(scores)) / HAND_POINTS, 1.0)
    spread = HAND_SPREAD * math.sqrt(hands)
    raw = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p *= 0.5 * (1.0 + math.erf((scores[i] - scores[j]) / (spread * math.sqrt(2.0))))
        raw.append(p)
    total = sum(raw)
    return [p / total for p in raw] if total > 0 else [1.0 / n] * n


def match_outcome(world, target: int) -> list[float]:
    """Each side's chance of the match once a search world's hand is over (or, unfinished, as it stands)."""
    if world._over:
        winners = world._winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(world.nsides)]
    return match_chances(list(world.match_scores), target)


def chance_per_point(scores: list[int], side: int, target: int) -> float:
    """What a point more of lead is worth to ``side``'s chance of the match, at these totals."""
    up, down = scores[:], scores[:]
    up[side] += 50
    down[side] -= 50
    return (match_chances(up, target)[side] - match_chances(down, target)[side]) / 100
