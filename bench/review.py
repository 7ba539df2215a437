"""Game review: how long one seat's review takes, and whether it tells the levels apart.

``speed``: the review of one seat of a two-player classic match between two ``medium`` bots (a match of about
120 decisions a seat), at a budget of worlds per decision, in a pool of worker processes; the median of
``--repeats`` runs, with the seconds per judged decision.

``levels``: ``--matches`` classic matches between two levels (seats alternate), both seats reviewed; how often
the weaker level gets the lower accuracy (with a 95% Wilson interval), each level's mean accuracy, the share of
its decisions in each class, and the quantiles of its losses (the figures behind review.THRESHOLDS).

``skill``: every level of ``--levels`` plays ``--matches`` classic matches against each level of ``--against``
(by default random, an always-discarding seat, easy, medium and hard, against medium), on the same deals (seeds
from ``--seed``), seats alternating, and its seat is reviewed; a match between two of them serves both.  For each
level, a line of a Markdown table: its mean accuracy (with its standard error) and the plain mean over every judged
decision (for comparison), its blunders, mistakes and inaccuracies per match, and its decisions that mattered per
match; then whether the review meets its targets (docs/review.md: random and the discarding seat at most 60,
medium at least 85, hard at least medium, the levels in order with blunders the other way).  ``discard`` is not a
bot a person meets: it discards whenever it may (its first card), as a player who never plays a card.  ``--save
FILE`` keeps the records played (the data of tests/bots/test_review.py).  ``hard`` searches for 30 ms a move, so
its matches change a little with the machine's load.

    python bench/review.py speed [--worlds N] [--workers 2] [--repeats 3]
    python bench/review.py levels [--strong medium] [--weak easy] [--matches 50] [--worlds N] [--workers 2]
    python bench/review.py skill [--levels random,discard,easy,medium,hard] [--against medium] [--matches 6]
        [--worlds 300]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import millebornes as mb
from millebornes.bots import LEVELS, make_bot
from millebornes.review import CLASSES, DEFAULT_WORLDS, move_accuracy, review
from millebornes.tournament import wilson

ORDER = ("random", "discard", *LEVELS)
"""The levels from the weakest, as the review should rank them."""


class Discarder:
    """A seat that never plays a card: it discards its first card whenever it may, else takes the first action
    that plays nothing (a draw, letting a coup fourré go), else the first."""

    def choose(self, observation, legal: list[str]) -> str:
        return next((a for a in legal if a.startswith("discard")), None) or next(
            (a for a in legal if not a.startswith("play") and a != "coup-fourre"), legal[0]
        )


def player(level: str, seed: int):
    return Discarder() if level == "discard" else make_bot(level, seed=seed)


def match(levels: list[str], seed: int) -> dict:
    g = mb.new_game("classic", players=2, seed=seed)
    bots = [player(level, seed * 2 + s) for s, level in enumerate(levels)]
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
        print(f"  losses (points): median {q[0.5]:.0f}, 90% {q[0.9]:.0f}, 95% {q[0.95]:.0f}, 99% {q[0.99]:.0f}")


def skill(args, pool) -> None:
    levels, against = args.levels.split(","), args.against.split(",")
    rank = {level: ORDER.index(level) if level in ORDER else len(ORDER) for level in levels + against}
    wanted: dict[tuple[str, str, int], set[int]] = {}
    for level in levels:
        for other in against:
            a, b = sorted((level, other), key=rank.__getitem__)
            for m in range(args.matches):
                seats = [a, b] if m % 2 == 0 else [b, a]
                wanted.setdefault((a, b, m), set()).add(m % 2 if a == b else seats.index(level))
    rows: dict[str, list[dict]] = {level: [] for level in levels}
    saved = []
    start = time.perf_counter()
    for (a, b, m), reviewed in wanted.items():
        seats = [a, b] if m % 2 == 0 else [b, a]
        record = match(seats, args.seed + m)
        r = review(record, seats=sorted(reviewed), worlds=args.worlds, executor=pool)
        for s in r["summary"]:
            mine = [mv for mv in r["moves"] if mv["seat"] == s["seat"]]
            every = statistics.mean(move_accuracy(mv["loss"], mv["error"]) for mv in mine) if mine else 100.0
            rows[seats[s["seat"]]].append(dict(s, every=every))
            saved.append(
                {"level": seats[s["seat"]], "against": seats[1 - s["seat"]], "seat": s["seat"], "record": record}
            )
    took = time.perf_counter() - start
    print(
        f"classic, 2 players: each of {', '.join(levels)} against each of {', '.join(against)}, "
        f"{args.matches} matches each, {args.worlds} worlds, {len(wanted)} matches in {took:.0f} s\n"
    )
    head = ("level", "matches", "accuracy", "every decision", "blunders", "mistakes", "inaccuracies", "mattered")
    print("| " + " | ".join(head) + " |\n" + "|---" * len(head) + "|")
    means: dict[str, float] = {}
    blunders: dict[str, float] = {}
    for level in levels:
        got = rows[level]
        n = len(got)
        acc = [x["accuracy"] for x in got if x["accuracy"] is not None]
        error = statistics.stdev(acc) / math.sqrt(len(acc)) if len(acc) > 1 else 0.0
        per_match = {c: sum(x["counts"][c] for x in got) / n for c in ("blunder", "mistake", "inaccuracy")}
        means[level], blunders[level] = statistics.mean(acc), per_match["blunder"]
        cells = [
            level,
            str(n),
            f"{means[level]:.1f} ± {error:.1f}",
            f"{statistics.mean(x['every'] for x in got):.1f}",
            *(f"{x:.2f}" for x in per_match.values()),
            f"{sum(x['mattered'] for x in got) / n:.0f} of {sum(x['judged'] for x in got) / n:.0f}",
        ]
        print("| " + " | ".join(cells) + " |")
    print()
    for line in targets(means, blunders):
        print(line)
    if args.save:
        with open(args.save, "w") as f:
            f.write("[\n" + ",\n".join(json.dumps(x, separators=(",", ":")) for x in saved) + "\n]\n")


def targets(means: dict[str, float], blunders: dict[str, float]) -> list[str]:
    """The review's targets (docs/review.md), each met or not, for the levels measured."""
    out = []
    for weak in ("random", "discard"):
        if weak in means:
            out.append(f"{weak} at most 60: {means[weak]:.1f} {'met' if means[weak] <= 60 else 'MISSED'}")
    if "medium" in means:
        out.append(f"medium at least 85: {means['medium']:.1f} {'met' if means['medium'] >= 85 else 'MISSED'}")
    if "medium" in means and "hard" in means:
        ok = means["hard"] >= means["medium"]
        out.append(f"hard at least medium: {means['hard']:.1f} {'met' if ok else 'MISSED'}")
    ladder = [lv for lv in ("random", "easy", "medium", "hard") if lv in means]
    up = all(means[a] < means[b] for a, b in zip(ladder, ladder[1:]))
    down = all(blunders[a] > blunders[b] for a, b in zip(ladder, ladder[1:]))
    gaps = ", ".join(f"{b} - {a} {means[b] - means[a]:+.1f}" for a, b in zip(ladder, ladder[1:]))
    out.append(f"levels in order: {'met' if up else 'MISSED'} ({gaps})")
    out.append(
        f"blunders the other way: {'met' if down else 'MISSED'} "
        f"({', '.join(f'{lv} {blunders[lv]:.2f}' for lv in ladder)} a match)"
    )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("speed", "levels", "skill"))
    ap.add_argument("--worlds", type=int, default=None, help="default: 1000, and 300 for skill")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--matches", type=int, default=None, help="default: 50, and 6 for skill")
    ap.add_argument("--strong", default="medium")
    ap.add_argument("--weak", default="easy")
    ap.add_argument("--levels", default="random,discard,easy,medium,hard")
    ap.add_argument("--against", default="medium")
    ap.add_argument("--save", default=None)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args(argv)
    quick = args.what == "skill"
    args.worlds = args.worlds or (300 if quick else DEFAULT_WORLDS)
    args.matches = args.matches or (6 if quick else 50)
    with ProcessPoolExecutor(args.workers) as pool:
        {"speed": speed, "levels": levels, "skill": skill}[args.what](args, pool)


if __name__ == "__main__":
    main()
