"""The dujardin edition as a PettingZoo module: ``env()`` wrapped as PettingZoo's card games are, ``raw_env()`` bare.

>>> e = env(players=3)
>>> e.reset(seed=1)
>>> e.metadata["name"], len(e.possible_agents)
('dujardin_v0', 3)
"""

from __future__ import annotations

from typing import Any

from .aec import MilleBornesAEC
from .zoo import raw, wrapped


def raw_env(
    players: int = 2, teams: bool | None = None, reward: str = "match", render_mode: str | None = None
) -> MilleBornesAEC:
    """The bare environment (an illegal action raises ``IllegalAction``); arguments as ``aec_env``'s."""
    return raw("dujardin", players, teams, reward, render_mode)


def env(players: int = 2, teams: bool | None = None, reward: str = "match", render_mode: str | None = None) -> Any:
    """The environment wrapped: an illegal action ends the match with -1 for its agent (see ``zoo.wrapped``)."""
    return wrapped(raw_env(players, teams, reward, render_mode))
