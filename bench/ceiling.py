"""How much can one seat's decisions move a hand at all?  A CHEATING oracle, for measurement only.

At each of its decisions the oracle clones the TRUE game (every hand and the stock order known)
and, for every legal action, plays the hand out exactly as it will be played: the real opponent
(HeuristicBot, deterministic for its seed: it draws no random numbers without noise) for the
other side, the greedy policy for itself; it picks the action with the best exact outcome (hand
won, then points margin; ties to the greedy move).  Its later moves are greedy in the look-ahead but oracle in the game,
so it does at least as well as the look-ahead says: a lower bound of the ceiling.

Also plays greedy and the ``hard`` level (or ``--bot SPEC``) against heuristic on the SAME deals.

    python bench/ceiling.py --deals 100 --seed 2 [--bot hard] [--ruleset classic --players 2]
"""

from __future__ import annotations

import argparse
import time

import tune_common as T
from millebornes.bots.rollout import greedy_code


def oracle_player(seat: int, seed: int):
    def act(g):
        me = g.side_of(seat)
        hand = g.hand_number
        best, best_key = None, None
        legal = g.legal_codes()
        first = greedy_code(g, legal)  # ties go to the greedy move
        for code in [first] + [c for c in legal if c != first]:
            w = g.clone()
            w.act_code(code)
            # opponents: fresh heuristic bots (stateless without noise: same choices as the real one)
            acts = [T.greedy_player(q, 0) if w.side_of(q) == me else T.heuristic_player(q, 0)
                    for q in range(w.players)]
            r = T.finish(w, acts, hand)
            win = 0.5 if len(r["winners"]) > 1 else 1.0 if me in r["winners"] else 0.0
            margin = r["points"][me] - max(r["points"][o] for o in range(w.nsides) if o != me)
            key = (win, margin)
            if best_key is None or key > best_key:
                best, best_key = code, key
        return best
    return act


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="hard", help="a make_bot spec also measured ('' to skip)")
    args = ap.parse_args(argv)
    seeds = T.deal_seeds(args.seed, args.deals)
    kw = dict(ruleset=args.ruleset, players=args.players, seeds=seeds)
    rows = [("oracle", oracle_player), ("greedy", T.greedy_player)]
    if args.bot:
        rows.append((args.bot, T.spec_player(args.bot)))
    print(f"{args.ruleset} {args.players}p, {args.deals} deals x 2 seats (seed {args.seed}), vs heuristic")
    for name, player in rows:
        start = time.perf_counter()
        res = T.paired(player, T.heuristic_player, **kw)
        print(f"{name:>10}: {T.fmt(res)}  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
