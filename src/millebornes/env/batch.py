"""Many matches stepped as one, their observations, masks and rewards written into NumPy batches (without
Gymnasium or PettingZoo).

:class:`GameBatch` holds ``num_games`` matches of one table.  Without ``opponents`` every seat is the learner's
(self-play): each row of the batch is the seat to act in its match.  With ``opponents`` (bot specs) the learner
plays ``seat`` (or a random seat per match) and the bots play the others between its decisions, as in the
Gymnasium environment.  ``step(actions)`` takes one action code per match and writes, in place:

- ``observations`` float32 (num_games, 258) and ``masks`` int8 (num_games, 206): the seat of each row
  (``seats``) as :mod:`millebornes.env.aec` shows it;
- ``rewards`` float32 (num_games, players): what each seat earned in that step (``reward="match"`` or ``"hand"``,
  zero-sum over sides, as in the other environments);
- ``terminated`` bool (num_games,): the match ended in that step.

Autoreset is Gymnasium's *next step*: a match that ended shows its final position once; the next ``step``
ignores its action and deals a new match in its place (rewards zero, not terminated).

>>> batch = GameBatch(4, "classic", players=2)
>>> batch.reset(seed=1)
>>> batch.observations.shape, batch.masks.shape, batch.rewards.shape
((4, 258), (4, 206), (4, 2))
>>> actions = [int(m.nonzero()[0][0]) for m in batch.masks]
>>> batch.step(actions)
>>> bool(batch.terminated.any()), [g.history != [] for g in batch.games]
(False, [True, True, True, True])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..bots import Bot
from ..bots.encode import ACTION_COUNT, STATE_LEN, VECTOR_BYTES, StateEncoder, write_mask
from ..rules import Ruleset
from ..state import Game, new_game
from .opponents import check_specs, play_bots, seat_bots
from .rewards import REWARDS, side_rewards

BUFFERS = ("observations", "masks", "rewards", "terminated", "seats")
"""The arrays a batch writes, in this order."""


def buffer_layout(num_games: int, players: int) -> list[tuple[str, tuple[int, ...], np.dtype | type]]:
    """(name, shape, dtype) of each array of ``BUFFERS``: what worker processes share."""
    return [
        ("observations", (num_games, STATE_LEN), np.dtype("<f4")),  # the encoder writes little-endian
        ("masks", (num_games, ACTION_COUNT), np.int8),
        ("rewards", (num_games, players), np.float32),
        ("terminated", (num_games,), np.bool_),
        ("seats", (num_games,), np.int64),
    ]


class GameBatch:
    """``num_games`` matches of one table, stepped together (see the module docstring); ``buffers``: arrays of
    :func:`buffer_layout` to write into instead of its own (a worker process's share of a shared batch)."""

    def __init__(
        self,
        num_games: int,
        ruleset: str | Ruleset = "classic",
        players: int = 2,
        teams: bool | None = None,
        reward: str = "match",
        opponents: str | Sequence[str] | None = None,
        seat: int | str = 0,
        buffers: dict[str, np.ndarray] | None = None,
    ):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if num_games < 1:
            raise ValueError("num_games must be at least 1")
        probe = new_game(ruleset, players=players, teams=teams, seed=0)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be 0 to {players - 1} or 'random', not {seat!r}")
        self.num_games = num_games
        """How many matches the batch holds."""
        self.ruleset, self.players, self.teams, self.reward_mode = ruleset, players, teams, reward
        self.specs = None if opponents is None else check_specs(opponents, players)
        """The bots of the other seats, or None: self-play, every seat the learner's."""
        self.seat_choice = seat
        """The learner's seat against bots: a seat, or ``"random"`` (drawn for each match)."""
        arrays = buffers or {name: np.zeros(shape, dtype) for name, shape, dtype in buffer_layout(num_games, players)}
        self.observations: np.ndarray = arrays["observations"]
        """Each match's observation vector, of its row's seat."""
        self.masks: np.ndarray = arrays["masks"]
        """Each match's action mask: the legal codes of its row's seat."""
        self.rewards: np.ndarray = arrays["rewards"]
        """What each seat of each match earned in the last step."""
        self.terminated: np.ndarray = arrays["terminated"]
        """Whether each match ended in the last step (the next step deals a new one)."""
        self.seats: np.ndarray = arrays["seats"]
        """The seat each row shows: the one to act (self-play) or the learner's."""
        self.games: list[Game] = []
        """The matches being played."""
        self._encoder = StateEncoder(probe)
        self._probe = probe
        self._sides = list(probe.seat_sides)
        self._obs_view = self.observations.reshape(-1).data.cast("B")
        self._mask_view = self.masks.reshape(-1).data.cast("B")
        self._bots: list[dict[int, Bot]] = []
        self._scored: list[int] = []
        self._rng = random.Random()

    def reset(self, seed: int | None = None) -> None:
        """Deal ``num_games`` new matches (a seed makes them, and the ones autoreset deals after, reproducible)."""
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.num_games
        self.games = [self._probe] * n  # each dealt below
        self._bots = [{}] * n
        self._scored = [0] * n
        for i in range(n):
            self._deal(i)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self._write_all()

    def _deal(self, i: int) -> None:
        rng = self._rng
        game = new_game(self.ruleset, self.players, self.teams, rng.getrandbits(63))
        self.games[i] = game
        self._scored[i] = 0
        if self.specs is None:
            return
        learner = self.seat_choice if isinstance(self.seat_choice, int) else rng.randrange(self.players)
        self.seats[i] = learner
        self._bots[i] = seat_bots(self.specs, self.players, learner, [rng.getrandbits(31) for _ in self.specs])
        play_bots(game, learner, self._bots[i])
        self._scored[i] = len(game.hand_results)

    def step(self, actions: Sequence[int] | np.ndarray) -> None:
        """Play each match's action (ignored for a match that ended in the last step: it is dealt again)."""
        codes = np.asarray(actions).tolist()
        if len(codes) != self.num_games:
            raise ValueError(f"give {self.num_games} actions, one per match, not {len(codes)}")
        rewards, terminated = self.rewards, self.terminated
        rewards.fill(0.0)
        hand_mode = self.reward_mode == "hand"
        for i, game in enumerate(self.games):
            if terminated[i]:
                terminated[i] = False
                self._deal(i)
                continue
            game.act_code(codes[i])
            if self.specs is not None:
                play_bots(game, int(self.seats[i]), self._bots[i])
            scored = len(game.hand_results)
            if scored > self._scored[i]:
                if hand_mode:
                    for result in game.hand_results[self._scored[i] :]:
                        self._pay(i, side_rewards(result["winners"], game.nsides))
                self._scored[i] = scored
            if game.is_over:
                if not hand_mode:
                    self._pay(i, side_rewards(game.winners, game.nsides))
                terminated[i] = True
        self._write_all()

    def _pay(self, i: int, per_side: list[float]) -> None:
        row = self.rewards[i]
        for seat, side in enumerate(self._sides):
            row[seat] += per_side[side]

    def _write_all(self) -> None:
        self.masks.fill(0)
        encoder, obs, masks, seats = self._encoder, self._obs_view, self._mask_view, self.seats
        self_play = self.specs is None
        for i, game in enumerate(self.games):
            if self_play and not game.is_over:
                seats[i] = game.to_act
            seat = int(seats[i])
            obs[i * VECTOR_BYTES : (i + 1) * VECTOR_BYTES] = encoder.encode(game, seat)
            write_mask(game, seat, masks, i * ACTION_COUNT)
