"""Engine speed: random-play hands/s and decisions/s per preset, and clone()/s mid-hand.

Two players, fixed seeds, one process.  Each figure is the median of several repeats (these
machines are shared and noisy).  Two paths are timed: the integer path bots use
(``legal_codes``/``act_code``) and the string path apps use (``legal_actions``/``act``, which
also builds events).

    python bench/engine.py [--repeats 5] [--games 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import millebornes as mb


def random_hands_codes(name: str, games: int, first: int = 0) -> tuple[int, int, float]:
    hands = decisions = 0
    start = time.perf_counter()
    for seed in range(first, first + games):
        g = mb.new_game(name, players=2, seed=seed)
        rand = random.Random(seed).random
        legal, act = g.legal_codes, g.act_code
        while not g.is_over:
            codes = legal()
            act(codes[int(rand() * len(codes))])
            decisions += 1
        hands += len(g.hand_results)
    return hands, decisions, time.perf_counter() - start


def random_hands_strings(name: str, games: int) -> tuple[int, int, float]:
    hands = decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        g = mb.new_game(name, players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.act(rng.choice(g.legal_actions()))
            decisions += 1
        hands += len(g.hand_results)
    return hands, decisions, time.perf_counter() - start


def mid_hand_games(name: str, count: int) -> list[mb.Game]:
    """Games stopped about halfway through their first hand, to clone."""
    out = []
    for seed in range(count):
        g = mb.new_game(name, players=2, seed=1000 + seed)
        rng = random.Random(seed)
        while g.hand_number == 0 and g.stock_size > 40:
            codes = g.legal_codes()
            g.act_code(codes[rng.randrange(len(codes))])
        out.append(g)
    return out


def clones_per_second(name: str, n: int) -> float:
    games = mid_hand_games(name, 20)
    start = time.perf_counter()
    for i in range(n):
        games[i % 20].clone()
    return n / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", type=int, default=200, help="games per repeat (seeds 0..games-1)")
    ap.add_argument("--clones", type=int, default=100_000)
    args = ap.parse_args(argv)
    print(
        f"millebornes {mb.__version__} ({'compiled' if mb.compiled() else 'pure Python'}), "
        f"Python {sys.version.split()[0]}, 2 players, "
        f"median of {args.repeats} repeats"
    )
    print(f"{'preset':<9} {'path':<7} {'hands/s':>9} {'decisions/s':>12} {'dec/hand':>9} {'clone/s':>9}")
    for name in mb.RULESETS:
        for path, fn in (("codes", random_hands_codes), ("strings", random_hands_strings)):
            runs = [fn(name, args.games) for _ in range(args.repeats)]
            hands, decisions = runs[0][0], runs[0][1]
            hps = statistics.median(h / t for h, _, t in runs)
            dps = statistics.median(d / t for _, d, t in runs)
            clone = ""
            if path == "codes":
                clone = f"{statistics.median(clones_per_second(name, args.clones) for _ in range(args.repeats)):9.0f}"
            print(f"{name:<9} {path:<7} {hps:9.0f} {dps:12.0f} {decisions / hands:9.1f} {clone:>9}")
    print("targets: classic >= 2000 hands/s (random play, one core); clone >= 50000/s mid-hand")


if __name__ == "__main__":
    main()
