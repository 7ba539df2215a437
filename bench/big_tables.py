"""Speed at big tables: does ``hard`` keep its 30 ms a decision as the table grows, and what does it buy there?

    python bench/big_tables.py [--decisions 300] [--every 5] [--tables classic:2,classic:3,classic:4t,...]

A table is ``edition:players``, ``t`` after the count for teams (default: classic 2 and 3 players, 4 and 6 in
teams, family 4 and 6 alone).  At each table ``medium`` bots play full matches (deals of seeds 0, 1, 2, ...); at
every ``--every``-th decision with two legal actions or more (one returns at once, unsearched) a ``hard`` bot is
asked too, on the same observation, and its answer thrown away, until ``--decisions`` are timed.  One process,
one decision at a time; one untimed ``hard`` decision first (a process pays one-off costs in its first).

Prints two markdown tables.  The first: ``hard``'s wall time per decision (``choose``, median, p90, p99, max),
its decisions per second, the playouts (search iterations) and sampled worlds per decision (medians), the share
of decisions where a rival dueled the network's move (those search to the deadline; where the network's move wins
the halving outright, the search stops after about two thirds of the budget), and ``medium``'s decisions per
second on every decision of those matches with two legal actions or more.  The second, where ``hard``'s time goes
(medians): building the observation (``Game.observation``, paid by the caller before ``choose``), the network's
scores (with its advisors: the heuristic's and greedy's moves), the search's set-up (determinizer, first world,
risky discards), the search loop (``Search.run``, which stops at the deadline), the rest of ``choose``
(everything outside the loop: the decision's fixed cost, with its p90), the CPU time of ``choose`` (p99 and max:
on a shared machine the wall time also counts the moments another process held the core, the CPU time does
not), and the playouts per second inside the loop.  Figures: docs/strength.md, "Speed at big tables".
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import millebornes as mb  # noqa: E402
from millebornes.bots import LEVELS, ismcts, make_bot  # noqa: E402

TABLES = "classic:2,classic:3,classic:4t,classic:6t,family:4,family:6"
"""The tables measured unless ``--tables`` says otherwise."""


def parse_table(text: str) -> tuple[str, int, bool]:
    """``"classic:6t"`` as (edition, players, teams)."""
    name, _, count = text.partition(":")
    teams = count.endswith("t")
    return name, int(count.rstrip("t")), teams


def table_name(table: tuple[str, int, bool]) -> str:
    """'classic, 6 in teams' or 'family, 4 alone' (2 and 3 players: 'classic, 2 players')."""
    name, players, teams = table
    if teams:
        return f"{name}, {players} in teams"
    return f"{name}, {players} {'players' if players <= 3 else 'alone'}"


def pct(values: list[float], p: float) -> float:
    """The nearest-rank percentile ``p`` (0-100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


class TimedSearch(ismcts.Search):
    """The bot's Search, timing its set-up and its loop for the decision being measured."""

    last: dict[str, float] = {}

    def __init__(self, *args, **kwargs):
        start = time.perf_counter()
        super().__init__(*args, **kwargs)
        TimedSearch.last["setup"] = time.perf_counter() - start

    def run(self, *args, **kwargs) -> None:
        start = time.perf_counter()
        super().run(*args, **kwargs)
        TimedSearch.last["run"] = time.perf_counter() - start


def timed_hard(seed: int):
    """A ``hard`` bot whose network scores, search set-up and search loop are timed into ``TimedSearch.last``."""
    bot = make_bot("hard", seed=seed)
    scores = bot.guide.scores

    def timed_scores(observation, legal):
        start = time.perf_counter()
        out = scores(observation, legal)
        TimedSearch.last["network"] = time.perf_counter() - start
        return out

    bot.guide.scores = timed_scores
    return bot


def measure(table: tuple[str, int, bool], decisions: int, every: int) -> dict:
    """Play ``medium`` matches at ``table`` and time ``hard`` on every ``every``-th decision with a choice."""
    name, players, teams = table
    hard = timed_hard(seed=1)
    medium = [make_bot("medium", seed=s) for s in range(players)]
    rows: list[dict] = []
    medium_time = 0.0
    medium_count = 0
    warm = False
    seed = 0
    while len(rows) < decisions:
        g = mb.new_game(name, players=players, teams=teams, seed=seed)
        seed += 1
        choices = 0
        while not g.is_over and len(rows) < decisions:
            seat = g.to_act
            start = time.perf_counter()
            obs = g.observation(seat)
            observed = time.perf_counter() - start
            legal = obs["legal_actions"]
            if len(legal) > 1:
                choices += 1
                if not warm:
                    hard.choose(obs, legal)
                    warm = True
                if choices % every == 0:
                    TimedSearch.last = {}
                    start, cpu = time.perf_counter(), time.thread_time()
                    hard.choose(obs, legal)
                    total, cpu = time.perf_counter() - start, time.thread_time() - cpu
                    search = hard.last
                    assert search is not None  # hard searches every decision with a choice
                    rows.append(
                        dict(
                            TimedSearch.last,
                            total=total,
                            cpu=cpu,
                            observation=observed,
                            legal=len(legal),
                            playouts=search.iterations,
                            worlds=search.worlds,
                            duel=search.rival is not None,
                        )
                    )
                start = time.perf_counter()
                action = medium[seat].choose(obs, legal)
                medium_time += time.perf_counter() - start
                medium_count += 1
            else:
                action = legal[0]
            g.act(action)
    ms = [1000 * r["total"] for r in rows]
    outside = [1000 * (r["total"] - r["run"]) for r in rows]
    return {
        "table": table_name(table),
        "decisions": len(rows),
        "matches": seed,
        "legal": statistics.median(r["legal"] for r in rows),
        "median": statistics.median(ms),
        "p90": pct(ms, 90),
        "p99": pct(ms, 99),
        "max": max(ms),
        "per_s": len(ms) / (sum(ms) / 1000),
        "playouts": statistics.median(r["playouts"] for r in rows),
        "worlds": statistics.median(r["worlds"] for r in rows),
        "duels": sum(r["duel"] for r in rows) / len(rows),
        "medium_per_s": medium_count / medium_time,
        "observation": statistics.median(1000 * r["observation"] for r in rows),
        "network": statistics.median(1000 * r["network"] for r in rows),
        "setup": statistics.median(1000 * r["setup"] for r in rows),
        "run": statistics.median(1000 * r["run"] for r in rows),
        "outside": statistics.median(outside),
        "outside_p90": pct(outside, 90),
        "cpu_p99": pct([1000 * r["cpu"] for r in rows], 99),
        "cpu_max": max(1000 * r["cpu"] for r in rows),
        "rate": statistics.median(r["playouts"] / r["run"] for r in rows),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=300, help="hard decisions timed per table")
    ap.add_argument("--every", type=int, default=5, help="time hard on every Nth decision with a choice")
    ap.add_argument("--tables", default=TABLES, help="edition:players[t], comma-separated")
    args = ap.parse_args(argv)
    ismcts.Search = TimedSearch  # the bot looks Search up in its module at each decision
    tables = [parse_table(t) for t in args.tables.split(",")]
    load = os.getloadavg()
    started = time.perf_counter()
    results = [measure(t, args.decisions, args.every) for t in tables]
    print(
        f"`hard` = `{LEVELS['hard']}`; {args.decisions} decisions a table (every {args.every}th with a choice, "
        f"in `medium` matches); engine {'compiled (mypyc)' if mb.compiled() else 'pure Python'}; "
        f"{datetime.date.today()}, {os.cpu_count()} cores, load {load[0]:.2f} before and "
        f"{os.getloadavg()[0]:.2f} after, {time.perf_counter() - started:.0f} s"
    )
    print()
    print(
        "| table | decisions (matches) | legal actions | `hard` ms: median | p90 | p99 | max | `hard` decisions/s "
        "| playouts/decision | worlds/decision | duels | `medium` decisions/s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        print(
            f"| {r['table']} | {r['decisions']} ({r['matches']}) | {r['legal']:g} | {r['median']:.1f} | "
            f"{r['p90']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['per_s']:.1f} | {r['playouts']:.0f} | "
            f"{r['worlds']:.0f} | {100 * r['duels']:.0f}% | {r['medium_per_s']:,.0f} |"
        )
    print()
    print(
        "| table | observation ms | network ms | search set-up ms | search loop ms | outside the loop ms: median "
        "| p90 | CPU ms: p99 | max | playouts/s in the loop |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        print(
            f"| {r['table']} | {r['observation']:.2f} | {r['network']:.2f} | {r['setup']:.2f} | {r['run']:.1f} | "
            f"{r['outside']:.2f} | {r['outside_p90']:.2f} | {r['cpu_p99']:.1f} | {r['cpu_max']:.1f} | "
            f"{r['rate']:,.0f} |"
        )


if __name__ == "__main__":
    main()
