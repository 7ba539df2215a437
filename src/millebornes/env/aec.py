"""A PettingZoo AEC environment: every seat of one Mille Bornes match is an agent.

Agents are ``player_0`` ... ``player_{n-1}`` (the seats).  Actions are the engine's codes,
``Discrete(206)`` (:mod:`millebornes.actions`: 0-18 play a card on your own side, 19-37 discard,
38-189 a hazard on a side, 200-205 draw / take-discard / coup-fourre / pass / extend / end-hand);
every observation carries the ``action_mask`` of the legal codes.  Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is the features of
``Game.observation(seat)`` (layout: :mod:`millebornes.bots.features`, docs/env.md), written straight
from the engine's state by :mod:`millebornes.bots.encode` without building that observation.

Rewards (``reward="match"``, the default): zero until the match ends, then each seat gets its side's
result, zero-sum: +1 to a sole winner and -1 to every loser with two sides; in general
``nsides / (nsides - 1) * (share - 1 / nsides)`` where ``share`` is 1 / (number of winners) for a
winning side, 0 for the others.  ``reward="hand"``: the same formula applied to each hand's winners
when that hand is scored (the episode is still the whole match).  Partners share their side's reward.
An illegal action raises ``millebornes.IllegalAction`` (use the mask).

>>> env = aec_env("classic", players=2)
>>> env.reset(seed=3)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["observation"].shape == (STATE_SIZE,), int(obs["action_mask"].sum()) == len(env.game.legal_codes())
(True, True)

An agent steps with one of its legal codes, and the turn passes on (or the same seat decides again):

>>> first = env.agent_selection
>>> env.step(int(np.flatnonzero(obs["action_mask"])[0]))
>>> env.agent_selection in env.agents, env.rewards[first]
(True, 0.0)
"""

from __future__ import annotations

import random
from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..bots.encode import STATE_LEN, VECTOR_BYTES, StateEncoder
from ..bots.features import NUM_ACTIONS, STATE_SIZE
from ..rules import Ruleset
from ..state import Game, new_game
from .rewards import REWARDS, side_rewards

VECTOR_DTYPE = np.dtype("<f4")
"""float32, little-endian as the encoder writes it (the same as ``numpy.float32`` on every usual machine)."""
MASK_DTYPE = np.dtype(np.int8)
"""The action mask's type."""

Action = int | np.integer[Any]
"""An action as learners send it: an engine code, a Python or a NumPy integer."""


class EnvObservation(TypedDict):
    """What an agent observes: the feature vector of its seat's observation and the mask of its legal codes."""

    observation: npt.NDArray[np.float32]
    """The features of what the agent's seat may see."""
    action_mask: npt.NDArray[np.int8]
    """1 for each action code the seat may play now, 0 for the others."""


def observation_space() -> spaces.Dict:
    """The space of :class:`EnvObservation`, the same for every seat and both environments."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-10.0, high=10.0, shape=(STATE_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def env_observation(game: Game, seat: int, encoder: StateEncoder | None = None) -> EnvObservation:
    """A seat's observation as the environments give it: the vector and the mask of its legal codes
    (``encoder``: the table's, made once, else one is made for this call)."""
    both = (encoder or StateEncoder(game)).observe(game, seat)
    return {
        "observation": np.frombuffer(both, VECTOR_DTYPE, STATE_LEN),
        "action_mask": np.frombuffer(both, MASK_DTYPE, NUM_ACTIONS, VECTOR_BYTES),
    }


class MilleBornesAEC(AECEnv):  # type: ignore[misc]  # PettingZoo's AECEnv is untyped (Any)
    """See the module docstring; build it with :func:`aec_env`."""

    metadata: dict[str, Any] = {
        "name": "millebornes_v0",
        "render_modes": ["ansi", "human"],
        "render_fps": 1,
        "is_parallelizable": False,
    }
    """What PettingZoo and its wrappers read: the name, the render modes and their pace (frames a second, for
    recorders), and that no parallel API is offered (the seat to act depends on the cards)."""

    def __init__(
        self,
        ruleset: str | Ruleset = "classic",
        players: int = 2,
        teams: bool | None = None,
        reward: str = "match",
        render_mode: str | None = None,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.ruleset, self.players, self.teams, self.reward_mode = ruleset, players, teams, reward
        self.render_mode = render_mode
        """How ``render`` shows the match: ``ansi`` as text, ``human`` printed after every step; None not at all."""
        probe = new_game(ruleset, players=players, teams=teams, seed=0)  # ValueError for a bad table
        self.possible_agents = [f"player_{s}" for s in range(players)]
        """One agent per seat: ``player_0``, ``player_1``..."""
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        """Each agent's seat."""
        self._obs_space = {a: observation_space() for a in self.possible_agents}
        self._act_space = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.nsides = probe.nsides
        """The sides at the table: teams, or players alone."""
        self.game: Game | None = None
        """The match being played; None before the first ``reset``."""
        self._seed_rng = random.Random()
        self._encoder = StateEncoder(probe)
        self._paid = False  # whether the last step gave rewards, which the next one sets back to zero

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (see :func:`observation_space`)."""
        return self._obs_space[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The engine's action codes, ``Discrete(206)``; the mask says which are legal."""
        return self._act_space[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; a seed makes the deals of this and the following resets reproducible."""
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.game = new_game(self.ruleset, players=self.players, teams=self.teams, seed=self._seed_rng.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._hands_scored = 0
        self._paid = False
        assert self.game.to_act is not None  # a new match has someone to act
        self.agent_selection = self.possible_agents[self.game.to_act]

    def observe(self, agent: str) -> EnvObservation:
        """The agent's observation now (its mask is empty unless it is the one to act)."""
        game = self.game
        assert game is not None, "call reset() first"
        return env_observation(game, self.agent_name_mapping[agent], self._encoder)

    def last(self, observe: bool = True) -> tuple[EnvObservation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, the observation written in place of the two calls that lead to it (a learner
        calls this at every step)."""
        agent = self.agent_selection
        observation: EnvObservation | None = None
        if observe:
            game = self.game
            assert game is not None, "call reset() first"
            observation = env_observation(game, self.agent_name_mapping[agent], self._encoder)
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Action | None) -> None:
        """Play the selected agent's action (``None`` for an agent whose episode is over, as PettingZoo asks)."""
        agent = self.agent_selection
        game = self.game
        assert game is not None, "call reset() first"
        if game.is_over:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to act: give it an action code, not None")
        game.act_code(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # most steps pay nothing: the rewards are left at zero, and nothing is accumulated
            for a in self.agents:
                self.rewards[a] = 0.0
            self._paid = False
        scored = len(game.hand_results)
        if scored > self._hands_scored:
            if self.reward_mode == "hand":
                for result in game.hand_results[self._hands_scored :]:
                    self._give(side_rewards(result["winners"], game.nsides))
            self._hands_scored = scored
        if game.is_over:
            if self.reward_mode == "match":
                self._give(side_rewards(game.winners, game.nsides))
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"winners": game.winners, "match_scores": list(game.match_scores)}
        else:
            to_act = game.to_act
            assert to_act is not None  # someone acts while the match is on
            self.agent_selection = self.possible_agents[to_act]
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _give(self, per_side: list[float]) -> None:
        game = self.game
        assert game is not None
        for a in self.agents:
            self.rewards[a] += per_side[game.side_of(self.agent_name_mapping[a])]
        self._paid = True

    def render(self) -> str | None:
        """``ansi``: the match as text (each side's miles and battle top); ``human``: the same, printed."""
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        lines = [repr(g)] + [
            f"side {s}: {g.tableau(s)['distance']} miles, battle {g.tableau(s)['battle'][-1:]}" for s in range(g.nsides)
        ]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no process or file."""


def aec_env(
    ruleset: str | Ruleset = "classic",
    players: int = 2,
    teams: bool | None = None,
    reward: str = "match",
    render_mode: str | None = None,
) -> MilleBornesAEC:
    """A PettingZoo AEC environment of one match (see :class:`MilleBornesAEC`)."""
    return MilleBornesAEC(ruleset, players=players, teams=teams, reward=reward, render_mode=render_mode)
