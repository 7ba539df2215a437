"""An OpenSpiel evaluator whose rollouts run in the compiled engine, for ``MCTSBot`` and ``ISMCTSBot``.

OpenSpiel's ``RandomRolloutEvaluator`` plays a rollout through the Python game object: a few hundred
``clone``/``apply_action`` calls into Python per race, seconds per decision. :class:`EngineRolloutEvaluator`
takes the engine's game under the state instead (``MilleBornesState.playout_world``: the cards of a chance
node dealt at random, the stock shuffled), plays it out with the compiled playout the package's own search uses
(``millebornes.bots.rollout.play_out``: the greedy policy for every seat, or uniformly random moves) and
returns each player's return as the game's ``reward`` parameter defines it:

- ``horizon="hand"`` (the default): the rollout stops when the hand ends. With ``reward=match``, a match still
  going is scored by each side's chance of winning it from the totals (``millebornes.bots.match``, the same
  estimate the package's search uses), mapped to the match reward (``nsides / (nsides - 1) * (chance -
  1 / nsides)``); a race edition's match ends with its hand, so that is the real result. With ``reward=hand``,
  the returns so far plus the hand's reward, the hands to come counted as worth 0 (they are even).
- ``horizon="match"``: the rollout plays every hand to the match's end (or ``max_hands``), a real playout.

The evaluator plays from the state it is given. ISMCTS gives it a world resampled from the searching seat's
information state, so it never sees a hidden card; ``MCTSBot`` searches the true state, hands and all.

>>> import random
>>> import pyspiel
>>> import millebornes.env.openspiel  # registers the games
>>> game = pyspiel.load_game("python_millebornes_family")
>>> value = EngineRolloutEvaluator(random.Random(1)).evaluate(game.new_initial_state())
>>> sorted(value.tolist())
[-1.0, 1.0]
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]  # open_spiel ships no types

from ..bots.match import match_chances
from ..bots.rollout import play_out
from ..state import Game
from .openspiel import MilleBornesState, _Setup
from .rewards import side_rewards

HORIZONS = ("hand", "match")
"""Where a rollout stops: the end of the hand (scored with a value estimate if the match goes on), or the match's."""
POLICIES = ("greedy", "random")
"""The compiled playout policies: ``millebornes.bots.rollout``'s greedy play, or uniformly random legal moves."""


class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel ships no types
    """``mcts.Evaluator`` for the Mille Bornes games of ``millebornes.env.openspiel``: ``n_rollouts`` compiled
    playouts from the state, averaged (see the module docstring); ``prior`` is uniform over the legal actions
    (the chance outcomes' own probabilities at a chance node)."""

    def __init__(
        self, rng: random.Random | int | None = None, n_rollouts: int = 1, horizon: str = "hand", policy: str = "greedy"
    ):
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {HORIZONS}, not {horizon!r}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts must be at least 1, not {n_rollouts}")
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        """The source of the dealt cards, the shuffles and the random policy's moves."""
        self.n_rollouts = n_rollouts
        """The playouts averaged in one evaluation."""
        self.horizon = horizon
        """Where a playout stops: ``hand`` or ``match`` (see :data:`HORIZONS`)."""
        self.policy = policy
        """How every seat plays in a playout: ``greedy`` or ``random`` (see :data:`POLICIES`)."""

    def evaluate(self, state: MilleBornesState) -> npt.NDArray[np.float64]:
        """Each player's return, the mean of ``n_rollouts`` compiled playouts from ``state``."""
        setup = state.setup
        total = np.zeros(setup.players)
        for _ in range(self.n_rollouts):
            total += self.rollout(state.playout_world(self.rng), setup)
        total /= self.n_rollouts
        if setup.reward == "hand":
            total += state.returns()
        return total

    def rollout(self, world: Game, setup: _Setup) -> list[float]:
        """Play ``world`` on (in place) and give each seat the rewards still to come, the value estimate's
        included: for ``reward=hand``, what the hands it finished pay; for ``reward=match``, the match's."""
        hands = 0
        sides = [0.0] * setup.nsides
        while True:
            hand = world.hand_number
            play_out(world, self.rng, self.policy)
            if setup.reward == "hand" and len(world.hand_results) > hand:
                for side, r in enumerate(side_rewards(list(world.hand_results[hand]["winners"]), setup.nsides)):
                    sides[side] += r
            hands += 1
            capped = world.hand_number >= setup.max_hands
            if world.is_over or capped or self.horizon == "hand":
                break
        if setup.reward == "match":
            sides = _match_value(world, setup, capped)
        return [sides[s] for s in setup.seat_sides]

    def prior(self, state: MilleBornesState) -> list[tuple[int, float]]:
        """Uniform over the legal actions; the chance outcomes with their probabilities at a chance node."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def _match_value(world: Game, setup: _Setup, capped: bool) -> list[float]:
    """Each side's match reward: the result if the match is over (or capped by ``max_hands``: the highest total
    wins), else the reward its chance of the match from the totals is worth."""
    n = setup.nsides
    if world.is_over:
        return side_rewards(list(world.winners), n)
    scores = list(world.match_scores)
    if capped or world.ruleset.match_target is None:
        return side_rewards([s for s in range(n) if scores[s] == max(scores)], n)
    chances = match_chances(scores, world.ruleset.match_target)
    return [n / (n - 1) * (p - 1.0 / n) for p in chances]
