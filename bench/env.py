"""Environment speed beside the engine's: random-play decisions/s of the engine (as bench/engine.py times the
integer path, ``legal_codes``/``act_code``), steps/s of the PettingZoo AEC environment and of the Gymnasium
environment with random agents that sample the action mask, and each environment's ratio to the engine.

Classic, two players, fixed seeds, one process; each figure is the median of several repeats (these machines
are shared and noisy).  A Gymnasium step is one decision of the learner's seat plus the random opponent's
decisions up to its next one, so its engine decisions/s are printed too.

Then the batches (``millebornes.env.batch.GameBatch``, self-play: every row is the seat to act) at N = 1, 64
and 1024 matches, in this process and over one and two worker processes (``ProcessBatch``), random actions
drawn from the masks for the whole batch at once: decisions/s over all matches.

    python bench/env.py [--repeats 5] [--games 40] [--decisions 40000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np
from engine import random_hands_codes  # bench/engine.py: the engine timed as it times it

import millebornes as mb
from millebornes.env import aec_env, gym_env
from millebornes.env.batch import GameBatch
from millebornes.env.workers import ProcessBatch


def aec_steps(games: int, first: int) -> tuple[int, float]:
    env = aec_env("classic", players=2)
    steps = 0
    start = time.perf_counter()
    for seed in range(first, first + games):
        env.reset(seed=seed)
        rand = random.Random(seed).random
        for _agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            codes = obs["action_mask"].nonzero()[0]
            env.step(codes[int(rand() * len(codes))])
            steps += 1
    return steps, time.perf_counter() - start


def gym_steps(games: int, first: int) -> tuple[int, int, float]:
    env = gym_env("classic", players=2, opponents="random")
    steps = decisions = 0
    start = time.perf_counter()
    for seed in range(first, first + games):
        obs, info = env.reset(seed=seed)
        rand = random.Random(seed).random
        done = False
        while not done:
            codes = obs["action_mask"].nonzero()[0]
            obs, reward, done, truncated, info = env.step(codes[int(rand() * len(codes))])
            steps += 1
        assert env.game is not None
        decisions += len(env.game.history)
    return steps, decisions, time.perf_counter() - start


def batch_steps(n: int, workers: int, decisions: int, seed: int) -> float:
    """Decisions/s of a self-play batch of ``n`` matches: in this process (``workers`` 0) or over worker processes."""
    batch = GameBatch(n) if workers == 0 else ProcessBatch(n, workers)
    rng = np.random.default_rng(seed)
    try:
        batch.reset(seed)
        steps = max(20, decisions // n)
        start = time.perf_counter()
        for _ in range(steps):
            batch.step((rng.random(batch.masks.shape) * batch.masks).argmax(axis=1))
        return steps * n / (time.perf_counter() - start)
    finally:
        if isinstance(batch, ProcessBatch):
            batch.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", type=int, default=40, help="matches per repeat")
    ap.add_argument("--decisions", type=int, default=40_000, help="decisions per batch measure")
    args = ap.parse_args(argv)
    print(
        f"millebornes {mb.__version__} ({'compiled' if mb.compiled() else 'pure Python'}), "
        f"Python {sys.version.split()[0]}, classic 2 players, {args.games} matches, median of {args.repeats} repeats"
    )
    engine, aec, gym, gym_dec = [], [], [], []
    for r in range(args.repeats):
        first = 1000 * r
        _, d, t = random_hands_codes("classic", args.games, first)
        engine.append(d / t)
        s, t = aec_steps(args.games, first)
        aec.append(s / t)
        s, d, t = gym_steps(args.games, first)
        gym.append(s / t)
        gym_dec.append(d / t)
    base = statistics.median(engine)
    print(f"{'':<28} {'per second':>12} {'ratio':>7}")
    print(f"{'engine decisions':<28} {base:12,.0f} {1:7.2f}")
    for label, runs in (("AEC steps", aec), ("Gymnasium steps", gym), ("Gymnasium engine decisions", gym_dec)):
        m = statistics.median(runs)
        print(f"{label:<28} {m:12,.0f} {m / base:7.2f}")
    print("target: environment steps >= 1/4 of the engine's decisions/s (goal 1/2)")
    print()
    print(f"{'batch (self-play)':<28} {'N=1':>10} {'N=64':>10} {'N=1024':>10}   decisions/s")
    for workers, label in ((0, "in this process"), (1, "1 worker process"), (2, "2 worker processes")):
        cells = []
        for n in (1, 64, 1024):
            cells.append(statistics.median(batch_steps(n, workers, args.decisions, r) for r in range(args.repeats)))
        print(f"{label:<28} " + " ".join(f"{c:10,.0f}" for c in cells))


if __name__ == "__main__":
    main()
