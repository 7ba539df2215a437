"""What every bot is: a seeded object that turns an observation and its legal actions into one action."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..observation import Observation


@runtime_checkable
class Bot(Protocol):
    """A player that sees only what its seat may see.

    ``choose`` gets ``game.observation(seat)`` (never hidden cards) and the legal actions of the
    pending decision, for every decision kind (play, draw, coup-fourre, extension), and returns one
    of those actions as a string.
    """

    name: str
    """The bot's name, as tables and records show it."""

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The action to take, one of ``legal``."""
        ...


class RandomBot:
    """Uniform among the legal actions; seeded, so a fixed seed gives the same game."""

    name = "random"
    """The bot's spec name."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        """The bot's own random source, from its seed."""

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """Any legal action, each as likely."""
        return legal[self.rng.randrange(len(legal))]
