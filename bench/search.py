"""Search speed: ISMCTS playouts per second and time per decision, per preset (2 players, one core).

Positions are taken from random games at fixed seeds; each search runs for a fixed clock budget
and reports how many playouts (iterations) it completed.  Medians over the positions.

    python bench/search.py [--positions 20] [--ms 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import millebornes as mb
from millebornes.bots import make_bot
from millebornes.bots.ismcts import Search


def positions(name: str, count: int):
    out = []
    seed = 0
    while len(out) < count:
        g = mb.new_game(name, players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 80)):
            if g.is_over:
                break
            g.act(rng.choice(g.legal_actions()))
        if not g.is_over and len(g.legal_actions()) > 1:
            out.append(g)
        seed += 1
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--ms", type=float, default=50)
    args = ap.parse_args(argv)
    print(
        f"ISMCTS, 2 players, {args.positions} positions per preset, {args.ms:g} ms searches; medians; "
        f"engine {'compiled (mypyc)' if mb.compiled() else 'pure Python'}"
    )
    print("flat: the levels' search (every root action played out to the hand's end on shared worlds);")
    print("tree: an ISMCTS tree below each root action (widen=8)")
    print(
        f"{'preset':<9} {'flat playouts/s':>16} {'tree playouts/s':>16} {'per search':>11} "
        f"{'hard ms/dec':>12} {'hard max':>9}"
    )
    for name in mb.RULESETS:
        rates, tree_rates, counts, hard = [], [], [], []
        for i, g in enumerate(positions(name, args.positions)):
            obs = g.observation(g.to_act)
            for widen, out in ((0, rates), (8, tree_rates)):
                search = Search(obs, seed=i, widen=widen)
                start = time.perf_counter()
                search.run(ms=args.ms)
                out.append(search.iterations / (time.perf_counter() - start))
                if not widen:
                    counts.append(search.iterations)
            bot = make_bot("hard", seed=i)
            start = time.perf_counter()
            bot.choose(obs, g.legal_actions())
            hard.append(1000 * (time.perf_counter() - start))
        print(
            f"{name:<9} {statistics.median(rates):16.0f} {statistics.median(tree_rates):16.0f} "
            f"{statistics.median(counts):11.0f} {statistics.median(hard):12.1f} {max(hard):9.1f}"
        )
    print("target: at least 5000 playouts/s per core; hard at most 50 ms per decision")


if __name__ == "__main__":
    main()
