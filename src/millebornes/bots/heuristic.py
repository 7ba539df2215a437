"""Placeholder greedy player (to be replaced by the full heuristic)."""

from __future__ import annotations

import random


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0, noise: float = 0.0):
        self.rng = random.Random(seed)
        self.noise = noise

    def choose(self, observation: dict, legal: list[str]) -> str:
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        for pref in ("coup-fourre", "extend", "draw"):
            if pref in legal:
                return pref
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return plays[0]
        return legal[-1]
