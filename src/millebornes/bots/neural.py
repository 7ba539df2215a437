"""The ``neural`` bot: a small network that scores each legal action, trained by imitation.

The network reads the numeric features of :mod:`millebornes.bots.features` (a state vector built
from the seat's observation, and one vector per legal action) and gives each legal action a score::

    h1 = relu(state @ W1s + action @ W1a + b1)      (the state half is computed once per decision)
    h2 = relu(h1 @ W2 + b2)
    score = h2 @ w3 + b3

and the bot plays the legal action with the highest score (a masked argmax: only legal actions
are ever scored).  Among an action's features are two *advice* flags: whether the greedy policy
and whether the heuristic bot would play it (both read the same observation); the shipped network
was trained to pick, from the whole feature vector, between them and the other legal actions the
way a playout search (the duel of ``examples/train.py``) would.  Scoring actions by their features, rather than a
206-way softmax, lets what is
learnt about ``discard 75`` carry over to ``discard 100`` and attacks carry over between sides.

Inference needs NumPy only.  The shipped weights (``neural_weights.npz`` beside this file) were
trained by ``examples/train.py`` (see docs/env.md); ``NeuralBot(weights=path)`` loads others.

>>> import millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=7)
>>> bot = NeuralBot()
>>> bot.choose(g.observation(0), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import os

import numpy as np

from ..actions import ACTION_CODES
from ..observation import Observation
from . import features as F

WEIGHTS = os.path.join(os.path.dirname(__file__), "neural_weights.npz")
"""The shipped weights, which the ``neural`` bot and the ``hard`` and ``expert`` levels play with."""
PARAMS = ("W1s", "W1a", "b1", "W2", "b2", "w3", "b3")
"""The network's weight arrays by name, in the order of the layers."""


def init_params(hidden: int = 96, hidden2: int = 48, seed: int = 0) -> dict[str, np.ndarray]:
    """Fresh weights (He initialisation) for the feature sizes of this version."""
    rng = np.random.default_rng(seed)
    s, a = F.STATE_SIZE, F.ACTION_SIZE
    scale1 = np.sqrt(2.0 / (s + a))
    return {
        "W1s": (rng.standard_normal((s, hidden)) * scale1).astype(np.float32),
        "W1a": (rng.standard_normal((a, hidden)) * scale1).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "W2": (rng.standard_normal((hidden, hidden2)) * np.sqrt(2.0 / hidden)).astype(np.float32),
        "b2": np.zeros(hidden2, np.float32),
        "w3": (rng.standard_normal(hidden2) * np.sqrt(1.0 / hidden2)).astype(np.float32),
        "b3": np.zeros(1, np.float32),
    }


def load_params(path: str = WEIGHTS) -> dict[str, np.ndarray]:
    """The weights in ``path``; ``params["advice"]`` is 1 when the network reads the advisors'
    choices (:class:`millebornes.bots.features.Advisors`) among its action features."""
    with np.load(path) as data:
        params = {k: data[k].astype(np.float32) for k in PARAMS}
        params["advice"] = np.asarray(data["advice"] if "advice" in data.files else 0, np.float32)
    if params["W1s"].shape[0] != F.STATE_SIZE or params["W1a"].shape[0] != F.ACTION_SIZE:
        raise ValueError(
            f"{path}: weights for {params['W1s'].shape[0]} state and {params['W1a'].shape[0]} "
            f"action features, but this version has {F.STATE_SIZE} and {F.ACTION_SIZE}"
        )
    return params


def save_params(params: dict[str, np.ndarray], path: str, **meta: object) -> None:
    """Write weights where :func:`load_params` and ``NeuralBot(weights=path)`` read them, with ``meta``
    (how they were trained) as ``meta_*`` arrays beside them."""
    arrays = {k: np.asarray(params[k], np.float32) for k in PARAMS}
    arrays["advice"] = np.asarray(params.get("advice", 0), np.float32)
    arrays.update({f"meta_{k}": np.asarray(v) for k, v in meta.items()})
    # the stubs see a keyword dict that could name allow_pickle; its keys are PARAMS, advice and meta_*
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def scores(params: dict[str, np.ndarray], state: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """The score of each row of ``actions`` (one legal action each) in ``state``."""
    h1 = np.maximum(state @ params["W1s"] + actions @ params["W1a"] + params["b1"], 0.0)
    h2 = np.maximum(h1 @ params["W2"] + params["b2"], 0.0)
    out: np.ndarray = h2 @ params["w3"] + params["b3"][0]
    return out


_SHIPPED: dict[str, dict[str, np.ndarray]] = {}
_WARM: list[bool] = []


class NeuralBot:
    """Masked argmax of the network's action scores; deterministic (the seed is accepted, unused)."""

    name = "neural"
    """The bot's spec name."""

    def __init__(self, seed: int = 0, weights: str | None = None, params: dict[str, np.ndarray] | None = None):
        self.seed = seed
        if params is None:
            path = weights or WEIGHTS
            params = _SHIPPED.get(path)
            if params is None:
                params = _SHIPPED[path] = load_params(path)
        self.params = params
        self.advisors = F.Advisors(seed) if float(params.get("advice", 0)) else None
        if not _WARM:  # the first matrix product of a process starts the BLAS library: not in a decision
            scores(params, np.zeros(F.STATE_SIZE, np.float32), np.zeros((2, F.ACTION_SIZE), np.float32))
            _WARM.append(True)

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The legal action the network scores highest."""
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(self.scores(observation, legal)))]

    def scores(self, observation: Observation, legal: list[str]) -> np.ndarray:
        """The network's score of each legal action (higher: more like the teacher's choice)."""
        codes = [ACTION_CODES[a] for a in legal]
        ctx = F.Context(observation)
        advice = self.advisors(observation, codes) if self.advisors is not None else None
        return scores(self.params, F.state_vector(observation, ctx), F.action_matrix(observation, codes, ctx, advice))
