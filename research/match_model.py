"""How well does the match model (bots/match.py) tell the chance of the match from the totals, and would a
richer model do better?  Refits its two constants; ``--write`` stores them in src/millebornes/bots/match.json.

Records come from ``millebornes selfplay`` (one JSON line per match), e.g.::

    millebornes selfplay --games 3000 --bots heuristic --seed 7 -o classic2.jsonl
    millebornes selfplay --games 3000 --bots heuristic --players 4 --seed 7 -o classic4.jsonl
    python research/match_model.py classic2.jsonl classic4.jsonl

Each position between two hands (the totals, and who won the match in the end) is scored by log loss and
Brier score, for all positions and for those where the leader has 3,000 or 4,000 points, with

- the shipped constants (``match.json``);
- the best constants on a grid (points a hand 400-2,400, spread 400-3,600, then refined by 50);
- with two sides, a *hand table*: the chance of the match worked out exactly, by value iteration over the
  totals in steps of 25, from the observed joint distribution of the two sides' points in a hand (each hand
  counted both ways round). It knows that the match ends after the hand in which a side reaches the target,
  and how skewed a hand's points are; the normal steps do not.

On 3,000 matches of ``heuristic`` against itself per table (seed 7; docs/review.md, "The match's chance"), the
log loss of the positions where the leader has at least 0, 3,000 and 4,000 points (a coin: 0.6931)::

    table                      shipped                  best constants           hand table
    classic, 2 players         0.5841 0.4749 0.4302     0.5840 0.4748 0.4300     0.5831 0.4722 0.4258
    classic, 4 in teams        0.5969 0.4956 0.4482     0.5959 0.4930 0.4460     0.5949 0.4901 0.4418
    Parker, 2 players          0.5940 0.4905 0.4541     0.5926 0.4870 0.4491     0.5921 0.4852 0.4455

(13,128, 10,674 and 12,762 positions; the best constants 1,500 and 1,800, 1,450 and 1,950, 1,350 and 1,950;
80 s for the three.) The hand table is fitted and scored on the same matches, so its gain (at most 0.004 nats,
late in the match) is an upper bound: the two constants are nearly as good a model as this data can tell.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import sys

import numpy as np

from millebornes import new_game
from millebornes.bots import match

STEP = 25
PHASES = (0, 3000, 4000)


def read(path: str) -> tuple[list[tuple[list[int], int, int]], list[list[int]], int | None, int]:
    """The positions between hands (totals, target, the one winner), every hand's points, the target, sides."""
    positions, hands, target, nsides = [], [], None, 2
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)["record"]
            game = new_game(record["ruleset"], players=record["players"], teams=record["teams"], seed=record["seed"])
            target, nsides = game.ruleset.match_target, game.nsides
            if target is None:
                return [], [], None, nsides
            seen, totals = 0, [[0] * nsides]
            for action in record["actions"]:
                game.act(action, game.to_act)
                if len(game.hand_results) > seen:
                    seen = len(game.hand_results)
                    hands.append(list(game.hand_results[-1]["points"]))
                    if not game.is_over:
                        totals.append(list(game.match_scores))
            if len(game.winners) == 1:
                positions += [(t, target, game.winners[0]) for t in totals]
    return positions, hands, target, nsides


def scores(chances, positions) -> dict[int, tuple[int, float, float]]:
    """For each phase: (positions, log loss, Brier score) of ``chances(totals, target)``."""
    out = {}
    for low in PHASES:
        chosen = [p for p in positions if max(p[0]) >= low]
        loss = brier = 0.0
        for totals, target, winner in chosen:
            ps = chances(totals, target)
            loss -= math.log(min(max(ps[winner], 1e-9), 1.0))
            brier += sum((p - (s == winner)) ** 2 for s, p in enumerate(ps)) / len(ps)
        out[low] = (len(chosen), loss / max(len(chosen), 1), brier / max(len(chosen), 1))
    return out


def best_constants(positions) -> tuple[float, float]:
    """The grid's constants of least log loss over all positions."""

    def loss(points, spread):
        return scores(lambda t, g, points=points, spread=spread: match.match_chances(t, g, points, spread), positions)[
            0
        ][1]

    grid = [(loss(p, s), p, s) for p in range(400, 2401, 200) for s in range(400, 3601, 200)]
    _, p0, s0 = min(grid)
    fine = [
        (loss(p, s), p, s)
        for p in range(p0 - 150, p0 + 151, 50)
        for s in range(s0 - 150, s0 + 151, 50)
        if p > 0 and s > 0
    ]
    _, points, spread = min(grid + fine)
    return float(points), float(spread)


def hand_table(hands: list[list[int]], target: int) -> np.ndarray:
    """``V[a, b]``: side a's chance of the match at totals (a, b) * STEP, from the hands' joint points."""
    counts = collections.Counter()
    for x, y in hands:
        counts[(x // STEP, y // STEP)] += 1
        counts[(y // STEP, x // STEP)] += 1
    total = sum(counts.values())
    steps = [(x, y, n / total) for (x, y), n in counts.items()]
    n = target // STEP
    size = n + max(max(x, y) for x, y, _ in steps) + 1
    i, j = np.arange(size)[:, None], np.arange(size)[None, :]
    over = (i >= n) | (j >= n)
    values = np.where(over, np.where(i > j, 1.0, np.where(i == j, 0.5, 0.0)), 0.5)
    for _ in range(200):
        inner = np.zeros((n, n))
        for x, y, p in steps:
            inner += p * values[x : x + n, y : y + n]
        change = np.abs(inner - values[:n, :n]).max()
        values[:n, :n] = inner
        if change < 1e-7:
            break
    return values[:n, :n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="JSON lines of millebornes selfplay")
    parser.add_argument("--write", action="store_true", help="store the best constants of the first file")
    args = parser.parse_args()
    for k, path in enumerate(args.records):
        positions, hands, target, nsides = read(path)
        if target is None:
            print(f"{path}: this edition plays one race, no match")
            continue
        points, spread = best_constants(positions)
        models = {
            "shipped": match.match_chances,
            f"best ({points:.0f}, {spread:.0f})": lambda t, g, points=points, spread=spread: match.match_chances(
                t, g, points, spread
            ),
        }
        if nsides == 2:
            table = hand_table(hands, target)
            models["hand table"] = lambda t, g, table=table: [
                table[t[0] // STEP, t[1] // STEP],
                table[t[1] // STEP, t[0] // STEP],
            ]
        print(f"{path}: {len(positions)} positions, {len(hands)} hands, {nsides} sides, target {target}")
        print(f"  {'model':<24}" + "".join(f"  leader >= {low:<5} (n, loss, Brier)     " for low in PHASES))
        for name, chances in models.items():
            cells = "".join(
                f"  {n:>6} {loss:.4f} {brier:.4f}              "
                for n, loss, brier in scores(chances, positions).values()
            )
            print(f"  {name:<24}{cells}")
        if args.write and k == 0:
            with open(match.MODEL, encoding="utf-8") as file:
                data = json.load(file)
            data.update(hand_points=points, hand_spread=spread, fitted_on=f"{len(positions)} positions of {path}")
            with open(match.MODEL, "w", encoding="utf-8") as file:
                json.dump(data, file, indent=2, ensure_ascii=False)
                file.write("\n")
            print(f"wrote {os.path.relpath(match.MODEL)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
