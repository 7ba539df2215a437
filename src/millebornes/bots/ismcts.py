"""Placeholder: information-set MCTS comes next."""

from __future__ import annotations

from .heuristic import HeuristicBot


class IsmctsBot(HeuristicBot):
    name = "ismcts"

    def __init__(self, seed: int = 0, ms: float = 50, iterations: int = 0, playout: str = "heuristic"):
        super().__init__(seed)
        self.ms, self.iterations, self.playout = ms, iterations, playout
