"""What the PettingZoo-style modules (``classic_v0``, ``parker_v0``, ``dujardin_v0``, ``family_v0``) share.

PettingZoo's own games come as modules named ``<game>_v<version>`` with ``env()``, the environment wrapped
for safe use, and ``raw_env()``, the bare one; learners and its test suite expect that shape.  Here each
edition of Mille Bornes is such a module.
"""

from __future__ import annotations

from typing import Any

from .aec import MilleBornesAEC

VERSION = 0
"""The environments' version, the ``_v0`` of the module names: raised when what an agent sees or earns changes."""


def raw(edition: str, players: int, teams: bool | None, reward: str, render_mode: str | None) -> MilleBornesAEC:
    """The bare AEC environment of one edition, named after its module (an illegal action raises)."""
    env = MilleBornesAEC(edition, players=players, teams=teams, reward=reward, render_mode=render_mode)
    env.metadata = {**env.metadata, "name": f"{edition}_v{VERSION}"}
    return env


def wrapped(env: MilleBornesAEC) -> Any:
    """``env`` as PettingZoo wraps its card games: an illegal action ends the match with -1 for the agent that
    sent it and 0 for the others, an action outside the space and a call out of order raise."""
    from pettingzoo.utils import wrappers

    safe = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(safe))
