"""A Gymnasium ``VectorEnv``: ``num_envs`` single-agent matches (the learner in one seat, bots in the others)
stepped as one batch by :class:`~millebornes.env.batch.GameBatch`, in this process or in worker processes.

Spaces are the single environment's, batched: ``{"observation": float32 (num_envs, 258), "action_mask": int8
(num_envs, 206)}`` and ``MultiDiscrete([206] * num_envs)``.  Autoreset is Gymnasium's default, *next step*
(``metadata["autoreset_mode"]``): a row whose match just ended is dealt again at the next step, whatever action it
is sent, so its mask allows every action (a policy that samples the mask's legal actions never meets an empty row).
``gymnasium.make_vec("millebornes/Classic-2p-v0", num_envs=64, vectorization_mode="vector_entry_point",
opponents="random")`` builds one for any registered id.

>>> envs = MilleBornesVectorEnv(3, opponents="random")
>>> obs, infos = envs.reset(seed=1)
>>> obs["observation"].shape, envs.action_space
((3, 258), MultiDiscrete([206 206 206]))
>>> obs, rewards, terminations, truncations, infos = envs.step([int(m.nonzero()[0][0]) for m in obs["action_mask"]])
>>> rewards.shape, terminations.dtype
((3,), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..bots.features import NUM_ACTIONS
from ..rules import Ruleset
from .aec import observation_space
from .batch import GameBatch
from .workers import ProcessBatch


class MilleBornesVectorEnv(VectorEnv):
    """See the module docstring; ``workers`` > 1 spreads the matches over that many processes."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    """What Gymnasium reads: the autoreset mode (next step), and no rendering of a batch."""

    def __init__(
        self,
        num_envs: int = 8,
        ruleset: str | Ruleset = "classic",
        players: int = 2,
        teams: bool | None = None,
        opponents: str | Sequence[str] = "heuristic",
        seat: int | str = 0,
        reward: str = "match",
        workers: int = 1,
    ):
        table: dict[str, Any] = dict(
            ruleset=ruleset, players=players, teams=teams, reward=reward, opponents=opponents, seat=seat
        )
        self.batch: GameBatch | ProcessBatch = (
            GameBatch(num_envs, **table) if workers <= 1 else ProcessBatch(num_envs, workers, **table)
        )
        """The matches, stepped together."""
        self.num_envs = num_envs
        """How many matches the batch holds."""
        self.single_observation_space = observation_space()
        """One match's observation space, the single environment's."""
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        """One match's actions, the engine's codes."""
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        """The batch's observations: each key's array with one row per match."""
        self.action_space = batch_space(self.single_action_space, num_envs)
        """One action code per match."""
        self._rows = np.arange(num_envs)

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self.batch.observations.copy(), "action_mask": self.batch.masks.copy()}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every match again (a seed, or the first of a list of seeds, makes the deals reproducible)."""
        if isinstance(seed, list):
            seed = seed[0]
        self.batch.reset(seed)
        return self._observations(), {"seat": self.batch.seats.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision of the learner in every match (ignored where the last step ended the match: it is dealt
        again, and its mask allowed every action), then the bots' up to its next decision."""
        batch = self.batch
        batch.step(actions)
        rewards = batch.rewards[self._rows, batch.seats].astype(np.float64)
        terminated = batch.terminated.copy()
        observations = self._observations()
        observations["action_mask"][terminated] = 1
        return observations, rewards, terminated, np.zeros(self.num_envs, dtype=bool), {}

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes, if any."""
        if isinstance(self.batch, ProcessBatch):
            self.batch.close()
