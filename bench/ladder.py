"""The levels' ladder: each level against the one below it, in paired full matches.

    python bench/ladder.py [--matches 200] [--expert-matches 40] [--ruleset classic] [--seed 27]
                           [--workers 2] [--write]

Levels are measured in their order (``easy``, ``medium``, ``hard``, ``expert``): every level above ``easy`` plays
the highest level offered below it, every deal twice with the seats swapped (``millebornes tournament``, full
matches).  A level earns its place when the lower end of the 95% Wilson interval of its score is above 50% on
at least ``--matches`` matches (``--expert-matches`` for ``expert``, whose 0.9 s a decision makes 200 matches
a day's work on two cores: its interval is reported as it is).  A level that does not is not offered, and the
next one is measured against the same level below.

Prints the table docs/strength.md shows; ``--write`` also stores it in ``src/millebornes/bots/ladder.json``, which
the level pickers read (``millebornes.bots.ladder``).  A run of some levels only (``--levels hard,expert``: the
first is taken as offered) replaces their lines in the file and keeps the others', so the costly ``expert`` can
be measured on its own.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from millebornes.bots import LEVELS  # noqa: E402
from millebornes.bots.ladder import LADDER_FILE  # noqa: E402
from millebornes.executors import LocalExecutor  # noqa: E402
from millebornes.tournament import run_tournament  # noqa: E402


def elo_gap(rate: float) -> float:
    """The Elo difference that predicts this score (capped where the score is all or nothing)."""
    rate = min(max(rate, 0.001), 0.999)
    return 400 * math.log10(rate / (1 - rate))


def measure(upper: str, lower: str, matches: int, args, executor) -> dict:
    start = time.perf_counter()
    summary = run_tournament(
        [upper, lower], ruleset=args.ruleset, players=args.players, games=matches, seed=args.seed, executor=executor
    )
    h2h = summary["head_to_head"][0]
    score, games, low, high = h2h["a_score"], h2h["games"], h2h["ci_low"], h2h["ci_high"]
    if h2h["a"] != upper:  # the tournament orders the pair its own way
        score, low, high = games - score, 1 - high, 1 - low
    rate = score / games
    return {
        "level": upper,
        "below": lower,
        "seed": args.seed,
        "matches": games,
        "score": score,
        "rate": round(rate, 4),
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
        "elo_gap": round(elo_gap(rate)),
        "earned": low > 0.5 and games >= matches,
        "seconds": round(time.perf_counter() - start),
    }


def markdown(pairs: list[dict]) -> str:
    lines = [
        "| level | against | matches | score | win rate | 95% interval | Elo gap | offered |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in pairs:
        lines.append(
            f"| `{p['level']}` | `{p['below']}` | {p['matches']} | {p['score']:g} | {100 * p['rate']:.1f}% "
            f"| {100 * p['ci_low']:.1f}-{100 * p['ci_high']:.1f}% | {p['elo_gap']:+d} "
            f"| {'yes' if p['earned'] else 'no'} |"
        )
    return "\n".join(lines)


def written(pairs: list[dict], args) -> dict:
    """The file's ladder with this run's lines in place of the same levels' old ones; what is offered follows
    from the lines, weakest first (each level must have beaten the highest offered below it)."""
    try:
        with open(LADDER_FILE) as f:
            old = json.load(f)
    except FileNotFoundError:
        old = {"pairs": [], "commands": []}
    if (old.get("ruleset"), old.get("players")) not in ((None, None), (args.ruleset, args.players)):
        old = {"pairs": [], "commands": []}
    mine = {p["level"] for p in pairs}
    stamp = datetime.date.today().isoformat()
    pairs = sorted(
        [p for p in old["pairs"] if p["level"] not in mine] + [dict(p, measured=stamp) for p in pairs],
        key=lambda p: list(LEVELS).index(p["level"]),
    )
    offered = [next(iter(LEVELS))]
    for p in pairs:
        if p["earned"] and p["below"] == offered[-1]:
            offered.append(p["level"])
    return {
        "ruleset": args.ruleset,
        "players": args.players,
        "offered": offered,
        "pairs": pairs,
        "commands": old.get("commands", []) + ["python bench/ladder.py " + shlex.join(sys.argv[1:])],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200, help="matches for each level below expert (at least 1)")
    ap.add_argument("--expert-matches", type=int, default=40, help="matches for expert (0: not measured)")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--levels", default=",".join(LEVELS), help="the levels to measure, in order (default: all)")
    ap.add_argument("--write", action="store_true", help=f"store the table in {LADDER_FILE}")
    args = ap.parse_args()
    levels = [name.strip() for name in args.levels.split(",")]
    unknown = [name for name in levels if name not in LEVELS]
    if unknown or len(levels) < 2 or args.matches < 1 or args.expert_matches < 0:
        ap.error(f"--levels: two or more of {', '.join(LEVELS)}; --matches at least 1, --expert-matches 0 or more")

    offered, pairs = [levels[0]], []
    executor = LocalExecutor(args.workers)
    try:
        for level in levels[1:]:
            matches = args.expert_matches if level == "expert" else args.matches
            if matches == 0:
                continue
            pair = measure(level, offered[-1], matches, args, executor)
            pairs.append(pair)
            print(
                f"{level} against {pair['below']}: {pair['score']:g} of {pair['matches']} "
                f"({100 * pair['rate']:.1f}%, 95% {100 * pair['ci_low']:.1f}-{100 * pair['ci_high']:.1f}%), "
                f"{pair['seconds']} s: {'offered' if pair['earned'] else 'NOT offered'}",
                flush=True,
            )
            if pair["earned"]:
                offered.append(level)
    finally:
        executor.close()
    print()
    print(markdown(pairs))
    print(f"\noffered: {', '.join(offered)}")
    if args.write:
        ladder = written(pairs, args)
        print(f"offered now: {', '.join(ladder['offered'])}")
        with open(LADDER_FILE, "w") as f:
            json.dump(ladder, f, indent=1)
            f.write("\n")
        print(f"written to {LADDER_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
