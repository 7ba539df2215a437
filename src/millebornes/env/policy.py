"""A trained MaskablePPO policy (``examples/learn_ppo.py``'s ``model.zip``) as a bot, for tournaments.

The policy reads the observation vector of :mod:`millebornes.bots.features` (the same numbers the environments hand
a learner) and the mask of the legal actions, and plays its most likely legal action: ``deterministic=True``, torch
on one thread, so a fixed tournament seed gives the same matches.  torch and sb3-contrib (the ``learn`` extra) are
imported only when a policy is loaded.

:class:`PolicyFactory` is a tournament factory (:data:`millebornes.tournament.Factory`): it builds the policy's bot
for its own spec and any other bot from its spec, and is picklable, so a process pool can run the matches; each
process loads the model once.
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any

import numpy as np

from ..actions import ACTION_CODES, ACTION_NAMES
from ..bots import Bot
from ..bots.encode import ACTION_COUNT
from ..bots.features import state_vector
from ..observation import Observation
from ..tournament import make_player

POLICY_SPEC = "ppo"
"""The spec that names the trained policy in a tournament run with :class:`PolicyFactory`."""

_loaded: dict[str, Any] = {}  # one model per file and process


def load_policy(path: str | os.PathLike[str]) -> Any:
    """The MaskablePPO model saved at ``path``, on the CPU, torch on one thread (once per process)."""
    key = os.path.abspath(path)
    if key not in _loaded:
        if not os.path.isfile(key):
            raise FileNotFoundError(f"no model at {key}: train one with examples/learn_ppo.py")
        torch = import_module("torch")
        torch.set_num_threads(1)
        sb3_contrib = import_module("sb3_contrib")
        _loaded[key] = sb3_contrib.MaskablePPO.load(key, device="cpu")
    return _loaded[key]


class PolicyBot:
    """Plays the policy's most likely legal action from the seat's observation."""

    name = POLICY_SPEC
    """The bot's name in tables."""

    def __init__(self, model: Any):
        self.model = model
        """The loaded MaskablePPO model."""

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The legal action the policy ranks first (deterministic)."""
        if len(legal) == 1:
            return legal[0]
        mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
        mask[[ACTION_CODES[action] for action in legal]] = True
        code, _ = self.model.predict(state_vector(observation), action_masks=mask, deterministic=True)
        action = ACTION_NAMES[int(code)]
        if action not in legal:  # a masked policy never does this; a broken model forfeits with a clear message
            raise ValueError(f"the policy chose {action!r}, which is not legal here")
        return action


class PolicyFactory:
    """Builds :class:`PolicyBot` for :data:`POLICY_SPEC` (the model at ``model_path``) and any other bot as
    :func:`millebornes.tournament.make_player` does."""

    def __init__(self, model_path: str | os.PathLike[str]):
        self.model_path = os.fspath(model_path)
        """Where the model is; each process loads it from there."""

    def __call__(self, spec: str, seed: int) -> Bot:
        if spec == POLICY_SPEC:
            return PolicyBot(load_policy(self.model_path))
        return make_player(spec, seed)
