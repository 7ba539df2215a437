"""What an agent earns: the zero-sum share of a match or a hand its side won, the same in every environment.

>>> side_rewards([0], 2), side_rewards([0, 1], 2), side_rewards([2], 3)
([1.0, -1.0], [0.0, 0.0], [-0.5, -0.5, 1.0])
"""

from __future__ import annotations

REWARDS = ("match", "hand")
"""The reward modes: at the end of the match, or at the end of every hand."""


def side_rewards(winners: list[int], nsides: int) -> list[float]:
    """Zero-sum rewards from a list of winning sides: +1 / -1 with two sides and one winner; in general
    ``nsides / (nsides - 1) * (share - 1 / nsides)``, ``share`` being 1 / (number of winners) for a winner."""
    share = [1.0 / len(winners) if s in winners else 0.0 for s in range(nsides)]
    k = nsides / (nsides - 1)
    return [k * (x - 1.0 / nsides) for x in share]
