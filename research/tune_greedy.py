"""Tune the greedy playout policy's weights (the module constants of millebornes.bots.rollout).

The compiled engine inlines those constants, so this script runs itself on a pure-Python copy of
the package (slower, but the weights can be set).

Objective: the win share of greedy(weights) against heuristic on a FIXED set of paired classic 2p
deals (common random numbers: the same deals every evaluation), ties broken by the points margin.
Coordinate search: each weight in turn is moved up and down by its step; a move is kept when it
gains more than ``--min-gain`` (in win share); steps shrink after a sweep with no gain.

    python research/tune_greedy.py search --deals 1000 --seed 100 --sweeps 2 [--start W.json] [--out W.json]
    python research/tune_greedy.py validate W.json --deals 1000 --seed 200   # vs heuristic and vs old greedy
    python research/tune_greedy.py validate W.json --ruleset dujardin --deals 500 --seed 3
    python research/tune_greedy.py validate W.json --ruleset classic --players 4 --deals 300 --seed 4

Weights files are JSON objects {name: value}; names missing keep the module's value.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import millebornes as mb

if mb.compiled():  # the weights are compiled in as constants: tune them on a pure-Python copy
    pure = os.path.join(tempfile.mkdtemp(prefix="millebornes-pure-"), "millebornes")
    shutil.copytree(os.path.dirname(mb.__file__), pure, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.dirname(pure), os.environ.get("PYTHONPATH")]))
    os.execv(sys.executable, [sys.executable, *sys.argv])

import tune_common as T  # noqa: E402 - after the switch to pure Python

from millebornes.bots import rollout as R  # noqa: E402

# name: (step, kind) -- kind "mul": value * / step; "add": value +- step; "int": +-1 within bounds
PARAMS = {
    "TURN": (1.25, "mul"),
    "CURE": (1.25, "mul"),
    "HOLD_HAZARD": (1.4, "mul"),
    "SAFE_TRIP": (1.4, "mul"),
    "FINISH": (1.4, "mul"),
    "SMALL": (1.6, "mul"),
    "LAY_INSTEAD": (25.0, "add"),
    "TAKE": (1.3, "mul"),
    "TAKE_DIST_KIND": (1, "int"),
    "EXTEND_MARGIN": (40.0, "add"),
    "DIST_KEEP": (1.4, "mul"),
    "END_SMALL": (1.4, "mul"),
    "END_BIG": (1.5, "mul"),
    "HZ_STOP": (1.4, "mul"),
    "HZ_SL": (1.4, "mul"),
    "HZ_RATE": (1.3, "mul"),
    "HZ_CF": (1.4, "mul"),
    "ROLL_KEEP": (1.4, "mul"),
    "ROLL_KEEP2": (1.4, "mul"),
    "EOL_KEEP": (1.4, "mul"),
    "REM_KEEP": (1.4, "mul"),
    "REM_KEEP2": (1.5, "mul"),
    "GIVE": (1.4, "mul"),
}
EXTRA = [n for n in dir(R) if n.startswith("X_")]  # experimental feature weights, if any
for n in EXTRA:
    PARAMS.setdefault(n, (1.4, "mul"))

DEFAULTS = {n: getattr(R, n) for n in PARAMS}


def apply(weights: dict) -> None:
    for n, v in DEFAULTS.items():
        setattr(R, n, weights.get(n, v))


def greedy_with(weights: dict):
    """A greedy player with its own weights (set before each of its decisions), so two weight
    sets can meet in one game."""
    w = dict(DEFAULTS, **weights)

    def make(seat, seed):
        def act(g):
            for n, v in w.items():
                setattr(R, n, v)
            return R.greedy_code(g, g.legal_codes())

        return act

    return make


def evaluate(weights: dict, seeds, ruleset="classic", players=2, opponent=None) -> dict:
    apply(weights)
    res = T.paired(
        T.greedy_player if opponent is None else greedy_with(weights),
        opponent or T.heuristic_player,
        ruleset=ruleset,
        players=players,
        seeds=seeds,
    )
    apply({})
    return res


def score(res: dict) -> float:
    return res["rate"] + 1e-6 * res["margin"]


def moves(name: str, value, scale: float):
    step, kind = PARAMS[name]
    if kind == "int":
        return [v for v in (value - 1, value + 1) if 0 <= v <= 4]
    if kind == "add":
        return [value + step * scale, value - step * scale]
    f = 1.0 + (step - 1.0) * scale
    if value == 0:
        return [1.0 * scale]
    return [value * f, value / f]


def search(args) -> None:
    seeds = T.deal_seeds(args.seed, args.deals)
    w = dict(DEFAULTS)
    if args.start:
        w.update(json.load(open(args.start)))
    names = args.only.split(",") if args.only else list(PARAMS)
    cur = evaluate(w, seeds)
    print(f"start: {T.fmt(cur)}", flush=True)
    scale = 1.0
    for sweep in range(args.sweeps):
        gained = False
        for n in names:
            for v in moves(n, w[n], scale):
                v = round(v, 4) if not isinstance(v, int) else v
                trial = dict(w, **{n: v})
                start = time.perf_counter()
                res = evaluate(trial, seeds)
                better = score(res) > score(cur) + args.min_gain
                print(
                    f"  sweep {sweep} {n}={v} ({w[n]}): {100 * res['rate']:.2f}% "
                    f"margin {res['margin']:+.0f} {'KEEP' if better else ''} "
                    f"({time.perf_counter() - start:.1f} s)",
                    flush=True,
                )
                if better:
                    w, cur, gained = trial, res, True
                    if args.out:
                        json.dump({k: w[k] for k in w if w[k] != DEFAULTS[k]}, open(args.out, "w"), indent=1)
                    break
        print(
            f"after sweep {sweep}: {T.fmt(cur)}  {json.dumps({k: w[k] for k in w if w[k] != DEFAULTS[k]})}", flush=True
        )
        if not gained:
            scale /= 2
    print("final:", json.dumps({k: w[k] for k in w if w[k] != DEFAULTS[k]}))


def validate(args) -> None:
    w = json.load(open(args.weights)) if args.weights != "-" else {}
    seeds = T.deal_seeds(args.seed, args.deals)
    teams = True if args.players == 4 else None
    kw = dict(ruleset=args.ruleset, players=args.players, teams=teams, seeds=seeds)
    apply(w)
    new = T.paired(T.greedy_player, T.heuristic_player, **kw)
    apply({})
    old = T.paired(T.greedy_player, T.heuristic_player, **kw)
    h2h = T.paired(greedy_with(w), greedy_with({}), **kw)
    apply({})
    print(f"{args.ruleset} {args.players}p, {args.deals} deals x 2 (seed {args.seed}), weights {json.dumps(w)}")
    print(f"  new greedy vs heuristic: {T.fmt(new)}")
    print(f"  old greedy vs heuristic: {T.fmt(old)}")
    print(f"  new vs old greedy:       {T.fmt(h2h)}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("search")
    s.add_argument("--deals", type=int, default=1000)
    s.add_argument("--seed", type=int, default=100)
    s.add_argument("--sweeps", type=int, default=2)
    s.add_argument("--min-gain", type=float, default=0.002)
    s.add_argument("--start")
    s.add_argument("--only")
    s.add_argument("--out")
    v = sub.add_parser("validate")
    v.add_argument("weights")
    v.add_argument("--deals", type=int, default=1000)
    v.add_argument("--seed", type=int, default=200)
    v.add_argument("--ruleset", default="classic")
    v.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    search(args) if args.cmd == "search" else validate(args)


if __name__ == "__main__":
    main()
