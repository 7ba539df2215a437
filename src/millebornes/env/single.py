"""A Gymnasium environment: the learner plays one seat of a match, built-in bots play the others.

Observation, action space and mask are those of the AEC environment (:mod:`millebornes.env.aec`):
``{"observation": float32 vector, "action_mask": int8 vector}`` and ``Discrete(206)``;
``action_masks()`` returns the mask too (the name maskable-PPO implementations call).  Between the
learner's decisions the other seats (opponents, and partners in team games) act at once, so every
``step`` returns at the learner's next decision or at the end of the match.

Rewards are the learner's side's, as in the AEC environment (``reward="match"`` or ``"hand"``).  An
illegal action forfeits: the episode ends with reward -1 (``info["illegal"] = True``); with the
mask a learner never sends one.

>>> env = gym_env("classic", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs["action_mask"][env.game.legal_codes()].all()
np.True_

A step plays the learner's action and the bots' answers, and returns at the learner's next decision:

>>> obs, reward, terminated, truncated, info = env.step(env.game.legal_codes()[0])
>>> terminated or env.game.to_act == env.seat
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import ACTION_NAMES
from ..bots import Bot
from ..bots.encode import StateEncoder, mask_bytes
from ..bots.features import NUM_ACTIONS
from ..rules import Ruleset
from ..state import Game, new_game
from .aec import Action, EnvObservation, env_observation, observation_space
from .opponents import check_specs, play_bots, seat_bots
from .registration import DEFAULT_ID, register
from .rewards import REWARDS, side_rewards

ENV_ID = DEFAULT_ID
"""The id of the default table for ``gymnasium.make`` (:mod:`millebornes.env.registration` lists every id)."""


class MilleBornesGym(gymnasium.Env[EnvObservation, Action]):
    """One seat of a match against bots; see the module docstring and :func:`gym_env`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}
    """What Gymnasium reads: the text rendering is the only one (and its pace, for recorders)."""

    def __init__(
        self,
        ruleset: str | Ruleset = "classic",
        players: int = 2,
        teams: bool | None = None,
        opponents: str | Sequence[str] = "heuristic",
        seat: int | str = 0,
        reward: str = "match",
        render_mode: str | None = None,
    ):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        probe = new_game(ruleset, players=players, teams=teams, seed=0)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be 0 to {players - 1} or 'random', not {seat!r}")
        specs = check_specs(opponents, players)
        self.ruleset, self.players, self.teams = ruleset, players, teams
        self.opponent_specs, self.seat_choice, self.reward_mode = specs, seat, reward
        self.render_mode = render_mode
        """``ansi``: ``render`` gives the match as text; None: it gives nothing."""
        self.nsides = probe.nsides
        """The sides at the table: teams, or players alone."""
        # a Dict space's samples are plain dicts, here of the two keys of EnvObservation
        self.observation_space = cast("spaces.Space[EnvObservation]", observation_space())
        """What the agent observes: its features and its mask of legal action codes."""
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        """Every action code, legal or not (the mask says which are)."""
        self.game: Game | None = None
        """The match being played; None before the first ``reset``."""
        self.seat = 0
        """The agent's seat in the match being played; the bots take the others."""
        self._bots: dict[int, Bot] = {}
        self._encoder = StateEncoder(probe)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[EnvObservation, dict[str, Any]]:
        """Deal a new match and let the bots act up to the learner's first decision (``skipped_reward``:
        what the learner's side earned on the way, in hand mode)."""
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = self.seat_choice if isinstance(self.seat_choice, int) else int(rng.integers(self.players))
        self.game = new_game(self.ruleset, players=self.players, teams=self.teams, seed=int(rng.integers(2**62)))
        seeds = [int(rng.integers(2**31)) for _ in self.opponent_specs]
        self._bots = seat_bots(self.opponent_specs, self.players, self.seat, seeds)
        self._hands_scored = 0
        reward = self._advance()
        return self._obs(), {"seat": self.seat, "skipped_reward": reward}

    def _live(self) -> Game:
        assert self.game is not None, "call reset() first"
        return self.game

    def _obs(self) -> EnvObservation:
        return env_observation(self._live(), self.seat, self._encoder)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of the learner's decision as booleans (empty when the match is over)."""
        return np.frombuffer(mask_bytes(self._live(), self.seat), dtype=np.bool_)

    def _rewards_since(self) -> float:
        g = self._live()
        side = g.side_of(self.seat)
        r = 0.0
        if self.reward_mode == "hand":
            for result in g.hand_results[self._hands_scored :]:
                r += side_rewards(result["winners"], g.nsides)[side]
        self._hands_scored = len(g.hand_results)
        if g.is_over and self.reward_mode == "match":
            r += side_rewards(g.winners, g.nsides)[side]
        return r

    def _advance(self) -> float:
        """Let the bots act until the learner decides or the match ends; the reward on the way."""
        play_bots(self._live(), self.seat, self._bots)
        return self._rewards_since()

    def step(self, action: Action) -> tuple[EnvObservation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' up to the learner's next decision or the end of the match."""
        g = self.game
        if g is None or g.is_over:
            raise RuntimeError("call reset() first: the match is over")
        code = int(action)
        if code not in g.legal_codes():
            return self._obs(), -1.0, True, False, {"illegal": True, "action": ACTION_NAMES.get(code, str(code))}
        g.apply_legal(code)  # checked just above
        reward = self._advance()
        info: dict[str, Any] = {"winners": g.winners, "match_scores": list(g.match_scores)} if g.is_over else {}
        return self._obs(), float(reward), g.is_over, False, info

    def render(self) -> str | None:
        """``ansi``: the match as text, each side's miles (``None`` in any other mode)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        return "\n".join([repr(g)] + [f"side {s}: {g.tableau(s)['distance']} miles" for s in range(g.nsides)])


def gym_env(
    ruleset: str | Ruleset = "classic",
    players: int = 2,
    teams: bool | None = None,
    opponents: str | Sequence[str] = "heuristic",
    seat: int | str = 0,
    reward: str = "match",
    render_mode: str | None = None,
) -> MilleBornesGym:
    """The learner in ``seat`` (or ``"random"``: a new seat each reset) against ``opponents`` (one bot
    spec for every other seat, or a list of specs)."""
    return MilleBornesGym(
        ruleset, players=players, teams=teams, opponents=opponents, seat=seat, reward=reward, render_mode=render_mode
    )


register()
