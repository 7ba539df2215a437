"""Can the heuristic's weights, tuned for one table, beat the shipped weights there?  A cross-entropy search.

    python research/evolve_heuristic.py --ruleset classic --players 3 --generations 12 --population 8 \\
        --matches 120 --seed 1000 --workers 2 [--out tuned.json]

Each generation draws ``--population`` weight vectors around the current mean (each positive weight multiplied
by exp(sigma z), a weight of 0 moved by 20 sigma z), plays each against ``heuristic`` as shipped in paired full
matches at the table (``run_tournament``: every deal in every seating of the two, ``--matches`` rounded up to
whole deals), on fresh deals every generation (seeds ``--seed`` + generation: the deals the ladder measures on,
seed 27, are never used), then moves the mean to the average of the best quarter, in z, and narrows the spread
of z by a tenth.  The mean of the last generation is then played on ``--check`` more matches of other deals.
Prints each generation's best and mean scores, and the final weights as a ``heuristic:...`` spec; ``--out`` stores them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time

from millebornes.bots.heuristic import DEFAULT
from millebornes.executors import LocalExecutor
from millebornes.tournament import run_tournament

SKIPPED = {"team", "lay_low_stock"}
WEIGHTS = [f.name for f in dataclasses.fields(DEFAULT) if f.name not in SKIPPED]


def weights_of(z: list[float], sigma: float) -> dict[str, float]:
    out = {}
    for name, zi in zip(WEIGHTS, z):
        d = float(getattr(DEFAULT, name))
        out[name] = round(d * math.exp(sigma * zi), 4) if d > 0 else round(20 * sigma * zi, 3)
    return out


def spec_of(weights: dict[str, float]) -> str:
    return "heuristic:" + ",".join(f"{k}={v}" for k, v in weights.items())


def score(spec: str, args, executor, seed: int, matches: int) -> tuple[float, float, float]:
    """The spec's score rate against ``heuristic``, with the paired interval."""
    pairings = 1 if args.sides == 2 else 2
    s = run_tournament(
        [spec, "heuristic"],
        ruleset=args.ruleset,
        players=args.players,
        teams=args.teams,
        games=math.ceil(matches / pairings),
        seed=seed,
        executor=executor,
    )
    h = s["head_to_head"][0]
    rate, low, high = h["a_rate"], h["paired_low"], h["paired_high"]
    if h["a"] != s["bots"][0]:
        rate, low, high = 1 - rate, 1 - high, 1 - low
    return rate, low, high


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--generations", type=int, default=12)
    ap.add_argument("--population", type=int, default=8)
    ap.add_argument("--matches", type=int, default=120)
    ap.add_argument("--check", type=int, default=400)
    ap.add_argument("--sigma", type=float, default=0.35)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out")
    args = ap.parse_args()
    from millebornes.state import new_game

    args.sides = new_game(args.ruleset, players=args.players, teams=args.teams, seed=0).nsides
    rng = random.Random(args.seed)
    mean = [0.0] * len(WEIGHTS)
    spread = 1.0
    executor = LocalExecutor(args.workers)
    start = time.perf_counter()
    try:
        for gen in range(args.generations):
            zs = [[m + spread * rng.gauss(0, 1) for m in mean] for _ in range(args.population - 1)] + [list(mean)]
            scored = []
            for z in zs:
                spec = spec_of(weights_of(z, args.sigma))
                rate, _, _ = score(spec, args, executor, args.seed + 1 + gen, args.matches)
                scored.append((rate, z))
            scored.sort(key=lambda t: -t[0])
            elite = scored[: max(2, args.population // 4)]
            mean = [sum(z[i] for _, z in elite) / len(elite) for i in range(len(WEIGHTS))]
            spread *= 0.9
            print(
                f"generation {gen + 1}: best {100 * scored[0][0]:.1f}%, mean {100 * zs_mean(scored):.1f}%, "
                f"the mean's own {100 * next(r for r, z in scored if z is zs[-1]):.1f}% "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
        final = weights_of(mean, args.sigma)
        rate, low, high = score(spec_of(final), args, executor, args.seed + 500, args.check)
    finally:
        executor.close()
    print(f"final: {spec_of(final)}")
    print(
        f"check on {args.check} matches (seed {args.seed + 500}): {100 * rate:.1f}% "
        f"(paired {100 * low:.1f}-{100 * high:.1f}%)"
    )
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"weights": final, "check": [rate, low, high], "argv": sys.argv[1:]}, f, indent=1)
    return 0


def zs_mean(scored: list[tuple[float, list[float]]]) -> float:
    return sum(r for r, _ in scored) / len(scored)


if __name__ == "__main__":
    sys.exit(main())
