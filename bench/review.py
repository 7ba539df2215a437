"""Game review: how long one seat's review takes, and whether it tells the levels apart.

``speed``: the review of one seat of a two-player classic match between two ``medium`` bots (a match of about
120 decisions a seat), at a budget of worlds per decision, in a pool of worker processes; the median of
``--repeats`` runs, with the seconds per judged decision.

``levels``: ``--matches`` classic matches between two levels (seats alternate), both seats reviewed; how often
the weaker level gets the lower accuracy (with a 95% Wilson interval), each level's mean accuracy, the share of
its decisions in each class, and the quantiles of its losses (the figures behind review.THRESHOLDS).

    python bench/review.py speed [--worlds N] [--workers 2] [--repeats 3]
    python bench/review.py levels [--strong medium] [--weak easy] [--matches 50] [--worlds N] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import millebornes as mb
from millebornes.bots import make_bot
from millebornes.review import CLASSES, DEFAULT_WORLDS, review
from millebornes.tournament import wilson


def match(levels: list[str], seed: int) -> dict:
    g = mb.new_game("classic", players=2, seed=seed)
    bots = [make_bot(level, seed=seed * 2 + s) for s, level in enumerate(levels)]
    while not g.is_over:
        s = g.to_act
        g.act(bots[s].choose(g.observation(s), g.legal_actions()))
    return g.record()


def speed(args, pool) -> None:
    record = match(["medium", "medium"], args.seed)
    times, judged = [], 0
    for _ in range(args.repeats):
        start = time.perf_counter()
        r = review(record, seats=[0], worlds=args.worlds, executor=pool)
        times.append(time.perf_counter() - start)
        judged = r["summary"][0]["judged"] + r["summary"][0]["forced"]
    t = statistics.median(times)
    print(
        f"classic, 2 players, seat 0: {judged} decisions, {len(r['moves'])} judged, "
        f"{args.worlds} worlds each, {args.workers} workers"
    )
    print(
        f"runs: {', '.join(f'{x:.1f}' for x in times)} s; median {t:.1f} s, "
        f"{1000 * t / max(1, judged):.0f} ms per decision"
    )


def levels(args, pool) -> None:
    strong, weak = args.strong, args.weak
    lower = 0
    acc: dict[str, list[float]] = {strong: [], weak: []}
    losses: dict[str, list[float]] = {strong: [], weak: []}
    classes: dict[str, dict[str, int]] = {strong: dict.fromkeys(CLASSES, 0), weak: dict.fromkeys(CLASSES, 0)}
    start = time.perf_counter()
    for m in range(args.matches):
        seats = [strong, weak] if m % 2 == 0 else [weak, strong]
        r = review(match(seats, args.seed + m), worlds=args.worlds, executor=pool)
        by_level = {seats[s["seat"]]: s["accuracy"] for s in r["summary"]}
        lower += by_level[weak] < by_level[strong]
        for level, a in by_level.items():
            acc[level].append(a)
        for mv in r["moves"]:
            level = seats[mv["seat"]]
            losses[level].append(mv["loss"])
            classes[level][mv["class"]] += 1
        print(f"match {m + 1}: {strong} {by_level[strong]}, {weak} {by_level[weak]}", flush=True)
    lo, hi = wilson(lower, args.matches)
    print(
        f"\n{weak} has the lower accuracy in {lower} of {args.matches} matches "
        f"({100 * lower / args.matches:.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%); "
        f"{args.worlds} worlds, {time.perf_counter() - start:.0f} s"
    )
    for level in (strong, weak):
        ls = sorted(losses[level])
        n = len(ls)
        q = {p: ls[min(n - 1, int(p * n))] for p in (0.5, 0.9, 0.95, 0.99)}
        share = ", ".join(f"{c} {100 * classes[level][c] / n:.1f}%" for c in CLASSES)
        print(
            f"{level}: accuracy mean {statistics.mean(acc[level]):.1f}, median {statistics.median(acc[level]):.1f}; "
            f"{n} judged decisions: {share}"
        )
        print(f"  losses: median {q[0.5]:.3f}, 90% {q[0.9]:.3f}, 95% {q[0.95]:.3f}, 99% {q[0.99]:.3f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("speed", "levels"))
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--strong", default="medium")
    ap.add_argument("--weak", default="easy")
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args(argv)
    with ProcessPoolExecutor(args.workers) as pool:
        (speed if args.what == "speed" else levels)(args, pool)


if __name__ == "__main__":
    main()
