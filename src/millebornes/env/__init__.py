"""Learning environments on top of the engine (the ``rl`` extra: pettingzoo, gymnasium).

- :func:`aec_env`: a PettingZoo AEC environment, every seat an agent.
- :func:`gym_env`: a Gymnasium environment, the learner in one seat against built-in bots; importing
  this package registers its ids for ``gymnasium.make`` when Gymnasium is installed
  (``millebornes/MilleBornes-v0``, ``millebornes/Classic-2p-v0``...: :mod:`millebornes.env.registration`).
- PettingZoo-style modules, one per edition: ``millebornes.env.classic_v0`` (``parker_v0``, ``dujardin_v0``,
  ``family_v0``), each with ``env()`` (wrapped as PettingZoo's own card games are) and ``raw_env()``.
- the observation vector and the action features are :mod:`millebornes.bots.features` (NumPy only),
  since the ``neural`` bot reads them too and bots sit below the apps.

Actions are the engine's codes, ``Discrete(206)``, with an ``action_mask`` of the legal ones;
docs/env.md documents the vector layout and the rewards.  The environments are imported lazily, so
importing this package needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

from .registration import register

if TYPE_CHECKING:  # the names as __getattr__ gives them, for the type checker
    from .aec import MilleBornesAEC as MilleBornesAEC
    from .aec import aec_env as aec_env
    from .rewards import side_rewards as side_rewards
    from .single import MilleBornesGym as MilleBornesGym
    from .single import gym_env as gym_env

_LAZY = {
    "aec_env": "aec",
    "MilleBornesAEC": "aec",
    "side_rewards": "rewards",
    "gym_env": "single",
    "MilleBornesGym": "single",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'millebornes.env' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


if find_spec("gymnasium") is not None:
    register()

__all__ = sorted([*_LAZY, "register"])
