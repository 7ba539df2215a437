"""Search variants against heuristic on paired classic 2p hands (the tournament's deals for --seed).

python research/tune_search.py "ismcts:ms=40,scale=150" --deals 100 --seed 2 [--ruleset classic --players 2]
"""

from __future__ import annotations

import argparse
import time

import tune_common as T


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="heuristic")
    args = ap.parse_args(argv)
    teams = True if args.players == 4 else None
    opp = T.heuristic_player if args.opponent == "heuristic" else T.spec_player(args.opponent)
    for spec in args.specs:
        start = time.perf_counter()
        player = T.greedy_player if spec == "greedy" else T.spec_player(spec)
        res = T.paired(
            player,
            opp,
            ruleset=args.ruleset,
            players=args.players,
            teams=teams,
            seeds=T.deal_seeds(args.seed, args.deals),
        )
        print(
            f"{spec} vs {args.opponent}, {args.ruleset} {args.players}p, {args.deals} deals x 2 "
            f"(seed {args.seed}): {T.fmt(res)} ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
