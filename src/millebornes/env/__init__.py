"""Learning environments on top of the engine (the ``rl`` extra: pettingzoo, gymnasium).

- :func:`aec_env`: a PettingZoo AEC environment, every seat an agent.
- :func:`gym_env`: a Gymnasium environment, the learner in one seat against built-in bots
  (``register()`` adds ``millebornes/MilleBornes-v0`` for ``gymnasium.make``).
- the observation vector and the action features are :mod:`millebornes.bots.features` (NumPy only),
  since the ``neural`` bot reads them too and bots sit below the apps.

Actions are the engine's codes, ``Discrete(206)``, with an ``action_mask`` of the legal ones;
docs/env.md documents the vector layout and the rewards.  The environments are imported lazily, so
importing this package needs neither PettingZoo nor Gymnasium.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names as __getattr__ gives them, for the type checker
    from .aec import MilleBornesAEC as MilleBornesAEC
    from .aec import aec_env as aec_env
    from .aec import side_rewards as side_rewards
    from .single import MilleBornesGym as MilleBornesGym
    from .single import gym_env as gym_env
    from .single import register as register

_LAZY = {
    "aec_env": "aec",
    "MilleBornesAEC": "aec",
    "side_rewards": "aec",
    "gym_env": "single",
    "MilleBornesGym": "single",
    "register": "single",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'millebornes.env' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = sorted(_LAZY)
