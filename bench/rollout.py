"""Playout speed: ``play_out`` with the greedy policy, per decision and per playout.

Two starting points per table: *deal* (a fresh hand played out whole) and *mid* (games stopped
with about half the stock drawn, as a search meets them).  Only ``play_out`` is timed: the clone
of each start position is made before the clock runs (its cost is printed apart).  The same
decisions are then replayed without the policy (``legal_codes`` and the engine's unchecked ``apply_legal`` only),
which splits the time per decision into the engine's share and the policy's.  A playout ends with
the hand, and in classic/parker the engine then scores it and deals the next hand of the match
(~35 us): that is in the engine's share, and weighs most on short (mid-hand) playouts.

Times are CPU time of this process (``time.process_time``, steadier than the wall clock on a
shared machine), the median of several repeats.

    python bench/rollout.py [--repeats 5] [--games 300] [--policy greedy|random]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import millebornes as mb
from millebornes.bots.rollout import greedy_code, play_out

TABLES = (
    ("classic", 2, None),
    ("classic", 4, True),
    ("parker", 2, None),
    ("dujardin", 2, None),
    ("dujardin", 4, True),
    ("family", 3, None),
)


def starts(name: str, players: int, teams, games: int, mid: bool) -> list[mb.Game]:
    out = []
    for seed in range(games):
        g = mb.new_game(name, players=players, teams=teams, seed=10_000 + seed)
        if mid:
            half = g.stock_size // 2
            while g.hand_number == 0 and not g.is_over and g.stock_size > half:
                g.act_code(greedy_code(g, g.legal_codes()))
            if g.is_over or g.hand_number:
                continue
        out.append(g)
    return out


def time_playouts(games: list[mb.Game], policy: str, seed: int) -> tuple[int, float, list[list[int]]]:
    """(decisions, seconds, the codes each playout played)."""
    worlds = [g.clone() for g in games]
    rng = random.Random(seed)
    decisions = 0
    clock = time.process_time
    start = clock()
    for w in worlds:
        decisions += play_out(w, rng, policy)
    seconds = clock() - start
    return decisions, seconds, [w._history[len(g._history) :] for w, g in zip(worlds, games)]


def time_engine(games: list[mb.Game], codes: list[list[int]]) -> float:
    """Seconds to replay the same decisions with no policy: legal_codes, then apply."""
    worlds = [g.clone() for g in games]
    clock = time.process_time
    start = clock()
    for w, seq in zip(worlds, codes):
        legal_codes, apply = w.legal_codes, w.apply_legal
        for code in seq:
            legal_codes()
            apply(code)
    return clock() - start


def time_clones(games: list[mb.Game]) -> float:
    clock = time.process_time
    start = clock()
    for g in games:
        g.clone()
    return (clock() - start) / len(games)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", type=int, default=300, help="start positions per row")
    ap.add_argument("--policy", default="greedy", choices=("greedy", "random"))
    args = ap.parse_args(argv)
    print(
        f"millebornes {mb.__version__} ({'compiled' if mb.compiled() else 'pure Python'}), "
        f"Python {sys.version.split()[0]}, policy {args.policy}, "
        f"median of {args.repeats} repeats, {args.games} start positions per row"
    )
    print(
        f"{'table':<17} {'start':<5} {'us/decision':>11} {'engine':>7} {'policy':>7} "
        f"{'decisions':>9} {'ms/playout':>10} {'playouts/s':>10} {'clone us':>8}"
    )
    for name, players, teams in TABLES:
        for mid in (False, True):
            games = starts(name, players, teams, args.games, mid)
            per_dec, engine, per_playout, clone = [], [], [], []
            for r in range(args.repeats):
                decisions, seconds, codes = time_playouts(games, args.policy, r)
                per_dec.append(seconds / decisions * 1e6)
                engine.append(time_engine(games, codes) / decisions * 1e6)
                per_playout.append(seconds / len(games))
                clone.append(time_clones(games) * 1e6)
            total, eng = statistics.median(per_dec), statistics.median(engine)
            playout = statistics.median(per_playout)
            label = f"{name} {players}p" + (" teams" if teams else "")
            print(
                f"{label:<17} {'mid' if mid else 'deal':<5} {total:>11.2f} {eng:>7.2f} {total - eng:>7.2f} "
                f"{decisions / len(games):>9.1f} {playout * 1e3:>10.3f} {1 / playout:>10.0f} "
                f"{statistics.median(clone):>8.1f}"
            )


if __name__ == "__main__":
    main()
