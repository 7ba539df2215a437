"""Can a learnt value of the position replace the playouts?  (measurement only, nothing shipped)

The playouts that ``hard`` searches with are noisy (the draws decide most of a hand) and biased (the
greedy policy plays both sides).  A value network answers both at once, if it is good enough: it
reads the seat's observation (``env.features.state_vector`` and whose turn it is) and gives the
chance that the seat's side wins the hand, with the luck of the draws averaged out by training.

1. Data: single classic hands, the network (6% random moves, so other choices are seen too)
   against the heuristic bot; every observation of the network's seat just before and just after
   each of its choices, labelled with the hand's result for its side (won 1, tied 0.5, lost 0).
2. Fit: a NumPy MLP (128 and 64 hidden units, logistic loss, Adam), keeping the weights with the
   best loss on one hand in twenty held out.
3. Play: at each decision every legal action is played in ``--worlds`` determinized worlds and the
   observation after it valued (one row per different observation: most actions draw nothing).
   ``--margin M``: the network's move is kept unless another action's value is higher by M
   (``--margin 9``: never, the network alone); ``--margin -1``: the best value is played.

    python bench/value_net.py --hands 60000 --out /tmp/value.npz        # data and fit
    python bench/value_net.py --weights /tmp/value.npz --deals 500 --seed 41 --margin 9 \
        --margin 0.08 --margin 0.03 --margin -1

What it showed (the two commands above): 60,000 hands gave 4.4 million observations (8 min on two
cores); the held-out loss fell from 0.693 (a constant) to 0.493 after 2,000 steps of 1,024, and
rose again after that (the observations of one hand share its result: 60,000 results are little
to learn from).  The value knows who is winning but not which of two close moves is better (in the
first decision of the hand of seed 123 it rates playing the roll 0.492, discarding a repairs 0.491).  On the 1,000
hands of seed 41 against ``heuristic`` (the deals of ``millebornes tournament --hands --seed 41``),
the network alone (``--margin 9``) won 54.8%, as in the tournament; overriding it where the value
is higher by 0.08, 51.8%; by 0.03, 42.0%; the best value alone (``--margin -1``), 27.4%.  A value
that could steer the search would need far more data and training (self-play at scale) than two
cores give in a session.
"""

from __future__ import annotations

import argparse
import random
import time
from multiprocessing import Pool

import numpy as np
from tune_common import deal_seeds, heuristic_player, paired, summary

import millebornes as mb
from millebornes.actions import ACTION_CODES
from millebornes.bots.heuristic import HeuristicBot
from millebornes.bots.neural import NeuralBot
from millebornes.env import features as F

EXPLORE = 0.06


def vector(obs: dict) -> np.ndarray:
    mine = obs["to_act"] is not None and obs["to_act"] in obs["sides"][obs["side"]]
    return np.append(F.state_vector(obs), np.float32(mine))


def collect(seeds: range) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    net = NeuralBot(0)
    xs, ys, hands = [], [], []
    for seed in seeds:
        rng = random.Random(seed)
        me, other = seed % 2, HeuristicBot(seed)
        g = mb.new_game("classic", players=2, seed=seed)
        seen = []
        while not g.hand_results:
            seat, legal = g.to_act, g.legal_actions()
            if len(legal) == 1:
                g.act(legal[0], seat)
                continue
            obs = g.observation(seat)
            if seat != me:
                g.act(other.choose(obs, legal), seat)
                continue
            seen.append(vector(obs))
            g.act(rng.choice(legal) if rng.random() < EXPLORE else net.choose(obs, legal), seat)
            seen.append(vector(g.observation(me)))
        winners = g.hand_results[0]["winners"]
        y = 1.0 / len(winners) if g.side_of(me) in winners else 0.0
        xs += seen
        ys += [y] * len(seen)
        hands += [seed] * len(seen)
    return np.array(xs, np.float16), np.array(ys, np.float32), np.array(hands)


def forward(params: dict, x: np.ndarray) -> list[np.ndarray]:
    layers = [x]
    n = len(params) // 2
    for i in range(n):
        z = layers[-1] @ params[f"W{i}"] + params[f"b{i}"]
        layers.append(np.maximum(z, 0) if i < n - 1 else z)
    return layers


def value(params: dict, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-forward(params, x)[-1][:, 0]))


def fit(x: np.ndarray, y: np.ndarray, hands: np.ndarray, hidden=(128, 64), epochs: float = 1.2,
        batch: int = 1024, lr: float = 1e-3) -> dict:
    held = hands % 20 == 7
    xt, yt, xv, yv = x[~held], y[~held], x[held].astype(np.float32), y[held]
    rng = np.random.default_rng(0)
    sizes = [x.shape[1], *hidden, 1]
    params = {}
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        params[f"W{i}"] = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        params[f"b{i}"] = np.zeros(b, np.float32)
    m1 = {k: np.zeros_like(v) for k, v in params.items()}
    m2 = {k: np.zeros_like(v) for k, v in params.items()}

    def loss() -> float:
        p = value(params, xv)
        return float(-np.mean(yv * np.log(p + 1e-6) + (1 - yv) * np.log(1 - p + 1e-6)))

    p0 = yt.mean()
    constant = -np.mean(yv * np.log(p0) + (1 - yv) * np.log(1 - p0))
    print(f"held out: {len(xv)} observations, loss of a constant {constant:.4f}")
    best, kept = 9.0, dict(params)
    steps = int(epochs * len(xt) / batch)
    n = len(sizes) - 1
    for step in range(1, steps + 1):
        idx = rng.integers(0, len(xt), batch)
        layers = forward(params, xt[idx].astype(np.float32))
        g = ((1 / (1 + np.exp(-layers[-1][:, 0])) - yt[idx]) / batch)[:, None].astype(np.float32)
        for i in range(n - 1, -1, -1):
            grads = {f"W{i}": layers[i].T @ g, f"b{i}": g.sum(0)}
            if i:
                g = (g @ params[f"W{i}"].T) * (layers[i] > 0)
            for k, d in grads.items():
                m1[k] = 0.9 * m1[k] + 0.1 * d
                m2[k] = 0.999 * m2[k] + 0.001 * d * d
                params[k] = params[k] - lr * (m1[k] / (1 - 0.9 ** step)) / (np.sqrt(m2[k] / (1 - 0.999 ** step)) + 1e-8)
        if step % 500 == 0 or step == steps:
            held_loss = loss()
            print(f"  step {step}/{steps}: held-out loss {held_loss:.4f}", flush=True)
            if held_loss < best:
                best, kept = held_loss, dict(params)
    return kept


def value_player(params: dict, worlds: int, margin: float):
    def make(seat: int, seed: int):
        rng, net = random.Random(seed), NeuralBot(seed)

        def act(g) -> int:
            obs, legal = g.observation(seat), g.legal_actions()
            dealt = [mb.determinize(obs, rng) for _ in range(worlds)]
            rows, owner = [], []
            for i, action in enumerate(legal):
                seen = set()
                for world in dealt:
                    w = world.clone()
                    w.act(action, seat)
                    v = vector(w.observation(seat))
                    if v.tobytes() not in seen:
                        seen.add(v.tobytes())
                        rows.append(v)
                        owner.append(i)
            vals, owner = value(params, np.array(rows, np.float32)), np.array(owner)
            q = [vals[owner == i].mean() for i in range(len(legal))]
            best = int(np.argmax(q))
            if margin >= 0:
                base = legal.index(net.choose(obs, legal))
                if q[best] <= q[base] + margin:
                    best = base
            return ACTION_CODES[legal[best]]
        return act
    return make


def _eval(task) -> list[float]:
    path, worlds, margin, seeds = task
    with np.load(path) as data:
        params = {k: data[k] for k in data.files}
    return paired(value_player(params, worlds, margin), heuristic_player, seeds=seeds)["scores"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=0, help="collect this many hands and fit a value network")
    ap.add_argument("--first-seed", type=int, default=5_000_000)
    ap.add_argument("--out", default="/tmp/value.npz")
    ap.add_argument("--weights", help="play with this value network")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--margin", type=float, action="append")
    args = ap.parse_args()
    with Pool(2) as pool:
        if args.hands:
            start = time.perf_counter()
            lo, hi = args.first_seed, args.first_seed + args.hands
            parts = pool.map(collect, [range(s, min(s + 200, hi)) for s in range(lo, hi, 200)])
            x, y, hands = (np.concatenate([p[i] for p in parts]) for i in range(3))
            print(f"{args.hands} hands: {len(x)} observations, {time.perf_counter() - start:.0f} s")
            np.savez(args.out, **fit(x, y, hands))
            print(f"wrote {args.out}")
        if args.weights:
            seeds = deal_seeds(args.seed, args.deals)
            for margin in args.margin or [0.08]:
                halves = pool.map(_eval, [(args.weights, args.worlds, margin, seeds[i::2]) for i in range(2)])
                res = summary([s for half in halves for s in half])
                print(f"margin {margin:g}: {100 * res['rate']:.1f}% +- {100 * res['se']:.1f} (1 s.e.) of "
                      f"{res['hands']} hands against heuristic, seed {args.seed}")


if __name__ == "__main__":
    main()
