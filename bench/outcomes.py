"""How the hands a bot plays against ``heuristic`` end: who completed the trip, who extended, whether the
stock ran out, and each side's points by kind (the scoring breakdown of ``hand_results``).

    python bench/outcomes.py --spec hard --deals 400 --seed 21
    python bench/outcomes.py --spec neural --deals 500 --seed 41

Paired classic two-player hands (the deals of ``millebornes tournament --hands --seed S``), split
over two processes.  What it showed (the two commands above): a hand is a race.  The side that
completes the trip wins the hand (the bot's completions: 98.9% for ``hard``, 98.3% for ``neural``).
``hard`` completed it in 55.5% of its 800 hands, the heuristic in 40.5%, nobody in 4.0%; with
``neural``, 53.2%, 41.9% and 4.9% of 1,000.  ``hard`` won 56.6% of these hands (its budget is a
clock, so runs differ: another run of the same deals gave 59.4%), ``neural`` 54.8%.  Beating the
heuristic more often means reaching the target first more often; the other points (coups fourrés,
safeties, the shutout) seldom turn a hand.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from multiprocessing import Pool

from tune_common import deal_seeds, hand_score, heuristic_player, play_hand, spec_player


def play(task) -> list[tuple[int, dict]]:
    spec, seeds = task
    out = []
    for s in seeds:
        for side in (0, 1):
            bot = spec_player(spec)
            makers = [bot, heuristic_player] if side == 0 else [heuristic_player, bot]
            out.append((side, play_hand("classic", 2, None, s, makers)))
    return out


def _who(seat_side, bot_side: int) -> str:
    return "nobody" if seat_side is None else "the bot" if seat_side == bot_side else "heuristic"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", default="hard", help="a bot spec or level")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    seeds = deal_seeds(args.seed, args.deals)
    with Pool(2) as pool:
        hands = [h for part in pool.map(play, [(args.spec, seeds[i::2]) for i in range(2)]) for h in part]
    n = len(hands)
    points: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    ends: dict[str, list[float]] = {f"{what} by {who}": [0, 0.0] for what in ("trip completed", "extended")
                                    for who in ("the bot", "heuristic", "nobody")}
    ends.update({"stock left at the end": [0, 0.0], "the stock ran out": [0, 0.0]})
    won = 0.0
    for side, r in hands:
        score = hand_score(r, side)
        won += score
        for who, breakdown in ((0, r["breakdown"][side]), (1, r["breakdown"][1 - side])):
            for kind, pts in breakdown.items():
                points[kind][who] += pts
        done, extender = r["completed"], r["extender"]
        for key in ("trip completed by " + _who(done, side), "extended by " + _who(extender, side),
                    "the stock ran out" if r["stock_empty"] else "stock left at the end"):
            ends[key][0] += 1
            ends[key][1] += score
    print(f"{args.spec} against heuristic: won {100 * won / n:.1f}% of {n} paired hands (seed {args.seed})")
    print(f"\n{'how the hand ended':32s} {'hands':>6s} {'share':>7s} {'bot won':>8s}")
    for key, (count, score) in ends.items():
        rate = f"{100 * score / count:7.1f}%" if count else "       -"
        print(f"{key:32s} {count:6d} {100 * count / n:6.1f}% {rate}")
    print(f"\n{'mean points a hand':32s} {'bot':>6s} {'heur.':>7s}")
    for kind, (mine, theirs) in points.items():
        print(f"{kind:32s} {mine / n:6.1f} {theirs / n:7.1f}")


if __name__ == "__main__":
    main()
