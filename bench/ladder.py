"""The levels' ladder at one table: each level against the one below it, in paired full matches.

    python bench/ladder.py [--ruleset classic] [--players 2] [--teams | --no-teams] [--matches 200]
                           [--expert-matches 40] [--seed 27] [--workers 2] [--levels easy,medium,...]
                           [--playouts N] [--write]

A table is an edition, a number of players and whether they play in teams (``--teams``/``--no-teams``; neither:
the edition's default for that many players, as ``new_game`` has it).  Levels are measured in their order
(``easy``, ``medium``, ``hard``, ``expert``): every level above ``easy`` plays the highest level offered below it
(``millebornes tournament``'s schedule, full matches to the edition's target).  Which seatings are played, each
deal being one seed that every seating of it replays:

- two sides (two players, or four in two teams): both seatings, the upper level on the first side then on the
  second; a match is one meeting of the two levels;
- three sides (three players, or six in three teams): all six seatings where both levels play, one level on two
  sides and the other on one, in every order; a match counts two meetings of the levels (the level alone against
  each side of the other; two sides of one level do not meet), scored 1, 0 or 1/2 by who won, else by points;
- in teams, both partners of a side are the same level.

More sides (four or more players alone) are refused: the tournament's cyclic fillings of two levels over four
sides or more only ever play the alternating seatings, several times each.

A level earns its place when the lower end of the 95% interval of its score is above 50% on at least
``--matches`` full matches (``--expert-matches`` for ``expert``, whose 0.9 s a decision makes 200 matches a day's
work on two cores: its interval is reported as it is), rounded up to whole deals (two matches a deal with two
sides, six with three: ``--matches 200`` plays 204 at three sides).  With two sides the interval is Wilson's over
the matches (as the first ladder was measured); with three, a match's two meetings are not independent, so it is
the paired interval over the deals (each deal's mean score over its six seatings).  A level that does not earn
its place is not offered at the table, and the next one is measured against the same level below.

``--playouts N`` plays the searching levels (``hard``, ``expert``) on N playouts a decision instead of their
time budget (:func:`millebornes.bots.fixed_budget`), so that other work on the machine cannot weaken them: how
the ladder is measured (N is what ``hard``'s 30 ms buy at that table on an idle machine, ``bench/big_tables.py``;
each pair records it as ``playouts``).  Without it they play on the clock, as people meet them.

Prints the table docs/strength.md shows, named; ``--write`` also stores it in ``src/millebornes/bots/ladder.json``
(a list of tables: ``ruleset``, ``players``, ``teams``, ``offered``, ``pairs``, ``commands``), which the level
pickers read (``millebornes.bots.ladder``).  Only this table's line is replaced, and within it only the levels
measured: a run of some levels (``--levels hard,expert``: the first is taken as offered) keeps the others' lines,
so the costly ``expert`` can be measured on its own.  The tables the pickers should know (docs/strength.md):

    python bench/ladder.py --matches 200 --expert-matches 0 --write
    python bench/ladder.py --players 3 --matches 200 --expert-matches 0 --write
    python bench/ladder.py --players 4 --teams --matches 200 --expert-matches 0 --write
    python bench/ladder.py --players 6 --teams --matches 200 --expert-matches 0 --write
    python bench/ladder.py --ruleset dujardin --matches 200 --expert-matches 0 --write
    python bench/ladder.py --ruleset family --matches 200 --expert-matches 0 --write
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

from millebornes.bots import LEVELS, SEARCHING_LEVELS, fixed_budget, parse_spec  # noqa: E402
from millebornes.bots.ladder import LADDER_FILE, table_of  # noqa: E402
from millebornes.executors import LocalExecutor  # noqa: E402
from millebornes.rules import RULESETS  # noqa: E402
from millebornes.state import new_game  # noqa: E402
from millebornes.tournament import run_tournament  # noqa: E402

MAX_SIDES = 3
"""Two levels are seated on every mixed seating up to three sides (see above)."""


def elo_gap(rate: float) -> float:
    """The Elo difference that predicts this score (capped where the score is all or nothing)."""
    rate = min(max(rate, 0.001), 0.999)
    return 400 * math.log10(rate / (1 - rate))


def table_name(table: tuple[str, int, bool]) -> str:
    """'classic, 4 players in teams'."""
    ruleset, players, teams = table
    return f"{ruleset}, {players} players{' in teams' if teams else ''}"


def playouts(level: str, hard: int) -> int:
    """A searching level's fixed budget when ``hard`` plays ``hard`` playouts: in proportion to its time budget
    (``expert``'s 0.9 s are 30 times ``hard``'s 30 ms)."""
    ms = {name: float(parse_spec(spec)[1].get("ms", 0)) for name, spec in LEVELS.items()}
    return round(hard * ms[level] / ms["hard"])


def entrant(level: str, hard: int) -> str:
    """The spec a level plays in the ladder: on the clock, or on a fixed budget with ``--playouts``."""
    if not hard or level not in SEARCHING_LEVELS:
        return level
    return fixed_budget(level, playouts(level, hard))


def measure(upper: str, lower: str, matches: int, args, executor) -> dict:
    start = time.perf_counter()
    # two sides: one pairing, both seatings; three: two pairings (A,B,A and B,A,B), each in three rotations
    pairings = 1 if args.sides == 2 else 2
    summary = run_tournament(
        [entrant(upper, args.playouts), entrant(lower, args.playouts)],
        ruleset=args.ruleset,
        players=args.players,
        teams=args.teams,
        games=math.ceil(matches / pairings),
        seed=args.seed,
        executor=executor,
    )
    h2h = summary["head_to_head"][0]
    score, meetings = h2h["a_score"], h2h["games"]
    wilson = h2h["ci_low"], h2h["ci_high"]
    paired = h2h["paired_low"], h2h["paired_high"]
    if h2h["a"] != summary["bots"][0]:  # the tournament orders the pair its own way
        score = meetings - score
        wilson, paired = (1 - wilson[1], 1 - wilson[0]), (1 - paired[1], 1 - paired[0])
    low, high = wilson if args.sides == 2 else paired
    rate = score / meetings
    played = summary["matches"]
    pair = {
        "level": upper,
        "below": lower,
        "seed": args.seed,
        "matches": played,
        "score": score,
        "rate": round(rate, 4),
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
        "interval": "wilson" if args.sides == 2 else "paired",
        "elo_gap": round(elo_gap(rate)),
        "earned": low > 0.5 and played >= matches,
        "seconds": round(time.perf_counter() - start),
    }
    if args.playouts and upper in SEARCHING_LEVELS:
        pair["playouts"] = playouts(upper, args.playouts)
    if meetings != played:
        pair |= {"meetings": meetings, "deals": h2h["deals"]}
    return pair


def markdown(pairs: list[dict], table: tuple[str, int, bool]) -> str:
    lines = [
        f"{table_name(table)}:",
        "",
        "| level | against | matches | score | win rate | 95% interval | Elo gap | offered |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in pairs:
        score = f"{p['score']:g}" + (f" of {p['meetings']}" if "meetings" in p else "")
        budget = f" ({p['playouts']} playouts)" if "playouts" in p else ""
        lines.append(
            f"| `{p['level']}`{budget} | `{p['below']}` | {p['matches']} | {score} | {100 * p['rate']:.1f}% "
            f"| {100 * p['ci_low']:.1f}-{100 * p['ci_high']:.1f}% | {p['elo_gap']:+d} "
            f"| {'yes' if p['earned'] else 'no'} |"
        )
    return "\n".join(lines)


def read_tables() -> list[dict]:
    """The file's tables (a file of the format before tables, one object, is one table)."""
    try:
        with open(LADDER_FILE) as f:
            old = json.load(f)
    except FileNotFoundError:
        return []
    tables = [old] if isinstance(old, dict) else old
    return [
        dict(t, teams=table_of(t.get("ruleset", "classic"), t.get("players", 2), t.get("teams"))[2]) for t in tables
    ]


def key(line: dict) -> tuple[str, int, bool]:
    return line["ruleset"], line["players"], line["teams"]


def written(pairs: list[dict], table: tuple[str, int, bool]) -> list[dict]:
    """The file's tables with this table's line holding this run's pairs in place of the same levels' old ones;
    what is offered follows from the pairs, weakest first (each level must have beaten the highest offered below
    it).  The other tables' lines are kept as they are."""
    tables = read_tables()
    old: dict = next((t for t in tables if key(t) == table), {"pairs": [], "commands": []})
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
    line = {
        "ruleset": table[0],
        "players": table[1],
        "teams": table[2],
        "offered": offered,
        "pairs": pairs,
        "commands": old.get("commands", []) + ["python bench/ladder.py " + shlex.join(sys.argv[1:])],
    }
    order = list(RULESETS)
    return sorted(
        [t for t in tables if key(t) != table] + [line],
        key=lambda t: (order.index(t["ruleset"]) if t["ruleset"] in order else len(order), t["players"], t["teams"]),
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200, help="full matches for each level below expert (at least 1)")
    ap.add_argument("--expert-matches", type=int, default=40, help="full matches for expert (0: not measured)")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--teams", action=argparse.BooleanOptionalAction, default=None, help="default: the edition's default"
    )
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--levels", default=",".join(LEVELS), help="the levels to measure, in order (default: all)")
    ap.add_argument(
        "--playouts", type=int, default=0, help="hard's playouts a decision (expert: in proportion); 0: the clock"
    )
    ap.add_argument("--write", action="store_true", help=f"store the table's line in {LADDER_FILE}")
    args = ap.parse_args()
    levels = [name.strip() for name in args.levels.split(",")]
    unknown = [name for name in levels if name not in LEVELS]
    if unknown or len(levels) < 2 or args.matches < 1 or args.expert_matches < 0 or not 0 <= args.playouts <= 10**6:
        ap.error(
            f"--levels: two or more of {', '.join(LEVELS)}; --matches at least 1, --expert-matches 0 or more, "
            "--playouts 0 to 1,000,000"
        )
    try:
        probe = new_game(args.ruleset, players=args.players, teams=args.teams, seed=0)
    except (ValueError, KeyError) as exc:
        ap.error(f"no such table: {exc}")
    args.sides = probe.nsides
    if args.sides > MAX_SIDES:
        ap.error(f"{args.sides} sides: two levels are seated on every seating only up to {MAX_SIDES} sides")
    table = table_of(args.ruleset, args.players, probe.teams)
    budget = f"hard on {args.playouts} playouts a decision" if args.playouts else "the searching levels on the clock"
    print(f"{table_name(table)}, deals of seed {args.seed}, {budget}", flush=True)

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
                f"{level} against {pair['below']}: {pair['score']:g} of {pair.get('meetings', pair['matches'])} "
                f"in {pair['matches']} matches ({100 * pair['rate']:.1f}%, "
                f"95% {100 * pair['ci_low']:.1f}-{100 * pair['ci_high']:.1f}%), "
                f"{pair['seconds']} s: {'offered' if pair['earned'] else 'NOT offered'}",
                flush=True,
            )
            if pair["earned"]:
                offered.append(level)
    finally:
        executor.close()
    print()
    print(markdown(pairs, table))
    print(f"\noffered: {', '.join(offered)}")
    if args.write:
        tables = written(pairs, table)
        line = next(t for t in tables if key(t) == table)
        print(f"offered now at {table_name(table)}: {', '.join(line['offered'])}")
        with open(LADDER_FILE, "w") as f:
            json.dump(tables, f, indent=1)
            f.write("\n")
        print(f"written to {LADDER_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
