"""Tournament speed-up: the same tournament with 1 and 2 local workers.

    python bench/tournament.py [--bots heuristic,random] [--games 200] [--hands] [--repeats 3]

Times ``run_tournament`` (pool start-up included, as the command pays it) with ``--workers 1``
and ``--workers 2``, repeats each, and prints the medians and the speed-up (target: at least
1.8x on a 2-core machine).  It also checks that both give the same table.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from millebornes.executors import LocalExecutor  # noqa: E402
from millebornes.tournament import parse_bot_options, run_tournament  # noqa: E402


def table_of(summary: dict) -> list:
    return [(r["bot"], r["matches"], r["wins"], r["mean_points"], round(r["elo"], 6)) for r in summary["table"]]


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="heuristic,random")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200, help="matches per pairing")
    ap.add_argument("--hands", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    specs = parse_bot_options([args.bots])
    print(
        f"tournament {', '.join(specs)}: {args.ruleset} {args.players} players, {args.games} "
        f"{'hands' if args.hands else 'matches'} per pairing, seed {args.seed}; {os.cpu_count()} cores"
    )
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine "
        f"lowers the speed-up)"
    )
    times: dict[int, list[float]] = {1: [], 2: []}
    busy: list[float] = []
    tables = {}
    matches = decisions = 0
    for rep in range(args.repeats):
        for workers in (1, 2):
            cpu = cpu_seconds()
            start = time.perf_counter()
            with LocalExecutor(workers) as ex:
                s = run_tournament(
                    specs,
                    args.ruleset,
                    players=args.players,
                    games=args.games,
                    seed=args.seed,
                    hands=args.hands,
                    executor=ex,
                )
            elapsed = time.perf_counter() - start
            cpu = cpu_seconds() - cpu
            times[workers].append(elapsed)
            if workers == 2:
                busy.append(cpu / elapsed)
            tables[workers] = table_of(s)
            matches = s["matches"]
            decisions = sum(r["decisions"] for r in s["results"])
            print(
                f"  run {rep + 1}, --workers {workers}: {elapsed:.2f} s wall, {cpu:.2f} s CPU "
                f"({cpu / elapsed:.2f} cores busy)"
            )
    m1, m2 = statistics.median(times[1]), statistics.median(times[2])
    print(f"{matches} matches, {decisions} decisions per run")
    print(f"median --workers 1: {m1:.2f} s ({matches / m1:.1f} matches/s)")
    print(f"median --workers 2: {m2:.2f} s ({matches / m2:.1f} matches/s)")
    print(f"speed-up: {m1 / m2:.2f}x (target >= 1.8x)")
    print(f"speed-up of the fastest runs: {min(times[1]) / min(times[2]):.2f}x (less sensitive to other work)")
    if statistics.median(busy) < 1.8:
        print(
            f"note: the --workers 2 runs kept a median of {statistics.median(busy):.2f} cores busy: other "
            f"processes held the CPU, so the medians understate the speed-up; rerun on an idle machine"
        )
    same = tables[1] == tables[2]
    print(f"same table with 1 and 2 workers: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
