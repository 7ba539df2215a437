"""Imitation learning for the ``neural`` bot, in NumPy: games from a teacher, then a fitted network.

``collect`` plays matches (a picklable task, so the tournament executors can run many at once) in
which a *teacher* labels every decision with more than one legal action; the moves actually played
come from the teacher or, with probability ``student_share``, from the student network (DAgger:
the student then learns what to do in the positions its own mistakes lead to).  ``fit`` trains the
action-scoring network of :mod:`millebornes.bots.neural` with a softmax over each decision's legal
actions (cross-entropy against the teacher's choice), Adam, minibatches.

Teachers: ``greedy`` (the fast policy of :mod:`millebornes.bots.rollout`, applied to the real game:
it reads only what the seat could know) or any bot spec (``ismcts:iterations=200``, ``heuristic``),
which then decides from the observation as in a tournament.

>>> data = collect({"ruleset": "classic", "players": 2, "seeds": [1], "hands": True})
>>> data["states"].shape[1] == F.STATE_SIZE, len(data["labels"]) == len(data["offsets"]) - 1
(True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_CODES, ACTION_NAMES
from ..bots import features as F
from ..observation import Observation
from ..state import Game, new_game

Params = dict[str, npt.NDArray[np.float32]]
"""The network's weights by name, as :mod:`millebornes.bots.neural` stores them."""
_Teacher = Callable[[Game, Observation, list[int]], int]  # (the real game, the observation, legal codes) -> code
_Ints = npt.NDArray[np.int64]


class CollectTask(TypedDict):
    """The unit of work of :func:`collect`: the seeds to play and how (everything but ``seeds`` has a default)."""

    seeds: list[int]
    """One match (or hand) per seed."""
    ruleset: NotRequired[str]
    players: NotRequired[int]
    teams: NotRequired[bool | None]
    hands: NotRequired[bool]
    """Play one hand per seed rather than a match."""
    teacher: NotRequired[str]
    """``greedy`` (the default), ``duel`` or a bot spec."""
    student: NotRequired[Params | None]
    """The network that plays ``student_share`` of the moves (DAgger)."""
    student_share: NotRequired[float]
    q_share: NotRequired[float]
    """The share of decisions that also get rollout values (:func:`rollout_values`)."""
    q_scale: NotRequired[float]
    advice: NotRequired[bool]
    """Fill the advice columns of the action features (the default with the ``duel`` teacher)."""
    duel_worlds: NotRequired[int]
    agree_keep: NotRequired[float]
    """With the ``duel`` teacher, the share of decisions kept where greedy and heuristic agree."""


class Decisions(TypedDict):
    """Labelled decisions, as :func:`collect` returns them and :func:`fit` trains on them.

    Decision i's legal actions are the rows ``offsets[i]:offsets[i + 1]`` of ``actions``, and ``labels[i]``
    is the teacher's choice as a row within them."""

    states: npt.NDArray[np.float32]
    """(N, STATE_SIZE)"""
    actions: npt.NDArray[np.float16]
    """(the sum of the legal counts, ACTION_SIZE)"""
    offsets: _Ints
    labels: _Ints
    q: NotRequired[npt.NDArray[np.float32]]
    """Per action row, the rollout value where ``has_q`` (zeros elsewhere)."""
    has_q: NotRequired[npt.NDArray[np.bool_]]
    """Per decision, whether it has rollout values."""
    seeds: NotRequired[list[int]]
    seconds: float


class FitLog(TypedDict):
    """One line of :func:`fit`'s history: the means over the steps since the line before."""

    step: int
    loss: float
    acc: float
    value_loss: float
    holdout_loss: NotRequired[float]
    holdout_acc: NotRequired[float]


Batch = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    _Ints,
    _Ints,
    _Ints,
    npt.NDArray[np.float32] | None,
    npt.NDArray[np.bool_] | None,
]
"""A minibatch as :func:`loss_and_grads` takes it: states, action rows, each row's decision, each decision's first
row, the labels' rows, and the centred rollout values with their mask (None without values)."""


def _teacher(spec: str, seed: int) -> _Teacher:
    if spec == "greedy":
        from ..bots.rollout import greedy_code

        return lambda game, obs, codes: greedy_code(game, codes)
    from ..bots import make_bot

    bot = make_bot(spec, seed)
    return lambda game, obs, codes: ACTION_CODES[bot.choose(obs, [ACTION_NAMES[c] for c in codes])]


def collect(task: CollectTask) -> Decisions:
    """Play ``task["seeds"]`` (one match each, or one hand each with ``hands``) and return the
    labelled decisions: ``states`` (N, STATE_SIZE), ``actions`` (sum of legal counts, ACTION_SIZE),
    ``offsets`` (N + 1: decision i's actions are rows offsets[i]:offsets[i+1]), ``labels`` (N, the
    teacher's choice as a row within its decision) and ``seconds``."""
    start = time.perf_counter()
    teacher_spec = task.get("teacher", "greedy")
    share = float(task.get("student_share", 0.0))
    student = task.get("student")  # a params dict, or None
    if student is not None:
        from ..bots.neural import scores
    q_share = float(task.get("q_share", 0.0))
    scale = float(task.get("q_scale", 700.0))
    use_advice = bool(task.get("advice", teacher_spec == "duel"))
    duel_worlds = int(task.get("duel_worlds", 32))
    agree_keep = float(task.get("agree_keep", 1.0))
    states: list[npt.NDArray[np.float32]] = []
    actions: list[npt.NDArray[np.float32]] = []
    offsets, labels = [0], []
    qs: list[npt.NDArray[np.float32]] = []
    has_q: list[bool] = []
    for seed in task["seeds"]:
        rng = random.Random(seed * 7919 + 1)
        teacher = None if teacher_spec == "duel" else _teacher(teacher_spec, seed)
        advisors = F.Advisors(seed) if use_advice else None
        game = new_game(
            task.get("ruleset", "classic"), players=task.get("players", 2), teams=task.get("teams"), seed=seed
        )
        while not game.is_over and not (task.get("hands") and game.hand_results):
            codes = game.legal_codes()
            if len(codes) == 1:
                game.act_code(codes[0])
                continue
            seat = game.to_act
            assert seat is not None  # someone acts while the match is on
            obs = game.observation(seat)
            advice = advisors(obs, codes, game) if advisors is not None else None
            if teacher is None:  # the duel: greedy's and heuristic's choices, settled by playouts
                assert advice is not None, "the duel teacher needs the advice"
                g_code, h_code = advice
                best = g_code if g_code == h_code else duel(obs, [g_code, h_code], rng, duel_worlds, scale)
                if g_code == h_code and agree_keep < 1.0 and rng.random() >= agree_keep:
                    game.act_code(best)
                    continue
            else:
                best = teacher(game, obs, codes)
            ctx = F.Context(obs)
            s = F.state_vector(obs, ctx)
            a = F.action_matrix(obs, codes, ctx, advice)
            states.append(s)
            actions.append(a)
            offsets.append(offsets[-1] + len(codes))
            labels.append(codes.index(best))
            if q_share > 0 and rng.random() < q_share:
                qs.append(rollout_values(game, codes, rng, scale))
                has_q.append(True)
            else:
                qs.append(np.zeros(len(codes), np.float32))
                has_q.append(False)
            play = best
            if student is not None and share > 0 and rng.random() < share:
                play = codes[int(np.argmax(scores(student, s, a)))]
            game.act_code(play)
    return {
        "states": np.array(states, np.float32).reshape(-1, F.STATE_SIZE),
        "actions": (np.concatenate(actions) if actions else np.zeros((0, F.ACTION_SIZE))).astype(np.float16),
        "offsets": np.array(offsets, np.int64),
        "labels": np.array(labels, np.int64),
        "q": np.concatenate(qs).astype(np.float32) if qs else np.zeros(0, np.float32),
        "has_q": np.array(has_q, bool),
        "seeds": list(task["seeds"]),
        "seconds": time.perf_counter() - start,
    }


def duel(obs: Observation, candidates: list[int], rng: random.Random, worlds: int = 32, scale: float = 700.0) -> int:
    """The better of ``candidates`` (codes) for the seat of ``obs``: each is played in the same
    ``worlds`` possible worlds dealt from the observation (:class:`millebornes.Determinizer`), the
    hand played out by the greedy policy, and the one with the best mean tanh(margin / ``scale``)
    of the seat's side wins (ties: the first)."""
    from ..bots.rollout import play_out
    from ..determinize import Determinizer

    det = Determinizer(obs)
    side, hand = obs["side"], obs["hand_number"]
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = det.sample(rng)
        for i, code in enumerate(candidates):
            w = world.clone()
            w.act_code(code)
            play_out(w, rng)
            if len(w.hand_results) > hand:
                pts = w.hand_results[hand]["points"]
                totals[i] += float(np.tanh((pts[side] - max(pts[o] for o in range(len(pts)) if o != side)) / scale))
    return candidates[int(np.argmax(totals))]


def rollout_values(game: Game, codes: list[int], rng: random.Random, scale: float = 700.0) -> npt.NDArray[np.float32]:
    """For each legal code, the acting side's result of the hand when that action is played and the
    greedy policy plays every seat to the end of the hand: tanh(points margin / ``scale``), or the
    hand won (1) or lost (-1) when distance decides.

    The playouts start from the *real* game, so each one is a sample of the hidden cards drawn from
    their true distribution given what the seat saw (the same sample for every action, which pairs
    them); the network that regresses on these values still sees observation features only."""
    from ..bots.rollout import play_out

    seat = game.to_act
    assert seat is not None, "nobody acts: the match is over"
    side = game.side_of(seat)
    hand = game.hand_number
    points = game.ruleset.winner == "points"
    out = np.zeros(len(codes), np.float32)
    for i, code in enumerate(codes):
        world = game.clone()
        world.act_code(code)
        play_out(world, rng)
        if len(world.hand_results) <= hand:
            continue
        result = world.hand_results[hand]
        if points:
            pts = result["points"]
            margin = pts[side] - max(pts[o] for o in range(len(pts)) if o != side)
            out[i] = np.tanh(margin / scale)
        else:
            out[i] = (1.0 if side in result["winners"] else -1.0) / (
                len(result["winners"]) if side in result["winners"] else 1
            )
    return out


def merge(parts: list[Decisions]) -> Decisions:
    """One data set from several ``collect`` results."""
    offsets, base = [np.zeros(1, np.int64)], 0
    for p in parts:
        offsets.append(p["offsets"][1:] + base)
        base += p["offsets"][-1]
    return {
        "states": np.concatenate([p["states"] for p in parts]),
        "actions": np.concatenate([p["actions"] for p in parts]),
        "offsets": np.concatenate(offsets),
        "labels": np.concatenate([p["labels"] for p in parts]),
        "q": np.concatenate([p["q"] for p in parts]),
        "has_q": np.concatenate([p["has_q"] for p in parts]),
        "seconds": sum(p["seconds"] for p in parts),
    }


def _batch(data: Decisions, idx: _Ints) -> Batch:
    off = data["offsets"]
    lo, hi = off[idx], off[idx + 1]
    counts = hi - lo
    seg = np.repeat(np.arange(len(idx)), counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rows = np.repeat(lo - starts, counts) + np.arange(counts.sum())
    target = starts + data["labels"][idx]
    q = qmask = None
    if "q" in data and len(data["q"]):
        qmask = np.repeat(data["has_q"][idx], counts)
        q = data["q"][rows]
        qc = np.add.reduceat(q, starts) / counts
        q = (q - qc[seg]) * Q_SCALE
    return (data["states"][idx], data["actions"][rows].astype(np.float32), seg, starts, target, q, qmask)


TRAINABLE = ("W1s", "W1a", "b1", "W2", "b2", "w3", "b3", "wq")
"""The parameters :func:`fit` trains; any other entry of a parameter set is left as it is."""
Q_SCALE = 5.0
"""The rollout values (tanh of a points margin) are multiplied by this for the regression."""


def loss_and_grads(
    params: Params,
    states: npt.NDArray[np.float32],
    acts: npt.NDArray[np.float32],
    seg: _Ints,
    starts: _Ints,
    target: _Ints,
    q: npt.NDArray[np.float32] | None = None,
    qmask: npt.NDArray[np.bool_] | None = None,
    grads: bool = True,
    q_weight: float = 1.0,
) -> tuple[float, float, Params | None, float]:
    """The loss of a minibatch and its gradients.

    The main head's scores are trained by cross-entropy against the teacher's choice, under a
    softmax over each decision's legal actions.  With rollout values (``q``, already centred per
    decision, and ``qmask`` for the rows that have them) and a ``wq`` parameter, a second head on the
    same hidden layer regresses the centred values (``q_weight`` times a mean squared error): it
    learns how much better than average each legal action did, which the teacher's label alone
    does not say.  Returns (cross-entropy, accuracy, gradients or None, value loss)."""
    hs = states @ params["W1s"]
    z1 = hs[seg] + acts @ params["W1a"] + params["b1"]
    h1 = np.maximum(z1, 0.0)
    z2 = h1 @ params["W2"] + params["b2"]
    h2 = np.maximum(z2, 0.0)
    logit = h2 @ params["w3"] + params["b3"][0]
    mx = np.maximum.reduceat(logit, starts)
    e = np.exp(logit - mx[seg])
    tot = np.add.reduceat(e, starts)
    p = e / tot[seg]
    n = len(starts)
    counts = np.diff(np.append(starts, len(seg)))
    loss = float(-np.mean(np.log(p[target] + 1e-12)))
    acc = float(np.mean(mx == logit[target]))
    vloss = 0.0
    dq = None  # the value loss's gradient, with rollout values and a value head
    if q is not None and "wq" in params and qmask is not None and qmask.any():
        y = h2 @ params["wq"]
        yc = y - (np.add.reduceat(y, starts) / counts)[seg]
        err = (yc - q) * qmask
        nq = max(1, int(qmask.sum()))
        vloss = float((err * err).sum() / nq)
        dq = q_weight * 2.0 * err / nq
    if not grads:
        return loss, acc, None, vloss
    d = p.copy()
    d[target] -= 1.0
    d /= n
    g = {"b3": np.array([d.sum()], np.float32), "w3": h2.T @ d}
    dh2 = np.outer(d, params["w3"])
    if dq is not None:
        g["wq"] = h2.T @ dq
        dh2 += np.outer(dq, params["wq"])
    elif "wq" in params:
        g["wq"] = np.zeros_like(params["wq"])
    dh2 *= z2 > 0
    g["W2"] = h1.T @ dh2
    g["b2"] = dh2.sum(0)
    dh1 = (dh2 @ params["W2"].T) * (z1 > 0)
    g["W1a"] = acts.T @ dh1
    g["b1"] = dh1.sum(0)
    g["W1s"] = states.T @ np.add.reduceat(dh1, starts)
    return loss, acc, g, vloss


def fit(
    data: Decisions,
    params: Params,
    steps: int = 1000,
    batch: int = 256,
    lr: float = 2e-3,
    seed: int = 0,
    weight_decay: float = 1e-5,
    log: Callable[[FitLog], object] | None = None,
    log_every: int = 200,
    holdout: Decisions | None = None,
    q_weight: float = 1.0,
) -> list[FitLog]:
    """Train ``params`` in place with Adam on minibatches of decisions; returns the logged history
    (step, train loss and accuracy over the last ``log_every`` steps, value loss, holdout loss and
    accuracy).  Add a ``wq`` vector to ``params`` (see :func:`add_value_head`) to train the value head."""
    rng = np.random.default_rng(seed)
    n = len(data["labels"])
    keys = [k for k in params if k in TRAINABLE]
    m: dict[str, npt.NDArray[np.floating[Any]]] = {k: np.zeros_like(params[k]) for k in keys}  # Adam's moments
    v2: dict[str, npt.NDArray[np.floating[Any]]] = {k: np.zeros_like(params[k]) for k in keys}
    b1, b2, eps = 0.9, 0.999, 1e-8
    history: list[FitLog] = []
    run = np.zeros(3)
    count = 0
    for step in range(1, steps + 1):
        idx = rng.integers(0, n, size=min(batch, n))
        loss, acc, g, vloss = loss_and_grads(params, *_batch(data, idx), q_weight=q_weight)
        assert g is not None  # asked for
        run += (loss, acc, vloss)
        count += 1
        rate = lr * min(1.0, step / 50) * (0.5 * (1 + np.cos(np.pi * step / steps)) * 0.9 + 0.1)
        for k in keys:
            gk = g[k] + weight_decay * params[k]
            m[k] = b1 * m[k] + (1 - b1) * gk
            v2[k] = b2 * v2[k] + (1 - b2) * gk * gk
            mh = m[k] / (1 - b1**step)
            vh = v2[k] / (1 - b2**step)
            params[k] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if step % log_every == 0 or step == steps:
            entry: FitLog = {"step": step, "loss": run[0] / count, "acc": run[1] / count, "value_loss": run[2] / count}
            if holdout is not None:
                entry["holdout_loss"], entry["holdout_acc"] = evaluate(params, holdout)
            history.append(entry)
            if log:
                log(entry)
            run[:] = 0.0
            count = 0
    return history


def add_value_head(params: Params, seed: int = 0) -> Params:
    """Add the value head ``wq`` (zeros) to a parameter set, for :func:`fit` with rollout values."""
    params["wq"] = np.zeros_like(params["w3"])
    return params


def fold(params: Params, alpha: float) -> Params:
    """The shipped network: the policy head plus ``alpha`` times the value head, one score per action."""
    out = {k: v for k, v in params.items() if k != "wq"}
    if "wq" in params:
        out["w3"] = (params["w3"] + alpha * params["wq"]).astype(np.float32)
    return out


def evaluate(params: Params, data: Decisions, limit: int = 20000) -> tuple[float, float]:
    """(loss, accuracy) of ``params`` on the first ``limit`` decisions of ``data``."""
    idx = np.arange(min(limit, len(data["labels"])))
    loss, acc, _, _ = loss_and_grads(params, *_batch(data, idx), grads=False)
    return loss, acc
