"""Strength and speed of the heuristic bot: seat-balanced win rates against other players.

Every pairing plays the same seeds twice, once with the heuristic on side 0 and once with the
seats swapped, so neither side profits from the deal or from playing first.  A match is the
edition's whole match (classic: hands until 5000 points; dujardin/family: one race).  A tie
counts as half a win.  The speed figure is the mean time of ``HeuristicBot.choose`` per decision
(the observation is built by the engine and not counted; its cost is printed apart).

    python research/tune_heuristic.py                     # the standard table (400 classic 2p matches...)
    python research/tune_heuristic.py --quick             # a smaller run
    python research/tune_heuristic.py --ruleset classic --players 2 --games 200 --opponent random
    python research/tune_heuristic.py --variant turn=80 --opponent heuristic --games 400   # tune weights

Opponents: ``random``, ``easy`` (heuristic with noise 0.35), ``greedy`` (the first version's
policy: always the first legal play, else a discard), ``heuristic`` (itself, for variants),
``file:PATH`` (the HeuristicBot of another copy of heuristic.py, e.g. an older version), or any
``make_bot`` spec (``ismcts:ms=50``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import millebornes as mb
from millebornes.bots import RandomBot, make_bot
from millebornes.bots.heuristic import HeuristicBot


class GreedyBot:
    """The simple policy the heuristic replaced: coup fourré, extend, draw, first legal play."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, observation: dict, legal: list[str]) -> str:
        for pref in ("coup-fourre", "extend", "draw"):
            if pref in legal:
                return pref
        plays = [a for a in legal if a.startswith("play ")]
        return plays[0] if plays else legal[-1]


def parse_variant(text: str) -> dict:
    out = {}
    for item in filter(None, (x.strip() for x in (text or "").split(","))):
        k, _, val = item.partition("=")
        out[k.strip()] = float(val)
    return out


_LOADED: dict = {}


def _load(path: str):
    """HeuristicBot from another copy of heuristic.py (an older version to compare against)."""
    cls = _LOADED.get(path)
    if cls is None:
        import importlib.util

        spec = importlib.util.spec_from_file_location(f"millebornes.bots._heuristic_{len(_LOADED)}", path)
        mod = importlib.util.module_from_spec(spec)
        mod.__package__ = "millebornes.bots"
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        cls = _LOADED[path] = mod.HeuristicBot
    return cls


def make(spec: str, seed: int, variant: dict):
    if spec == "random":
        return RandomBot(seed)
    if spec == "greedy":
        return GreedyBot(seed)
    if spec == "easy":
        return HeuristicBot(seed, noise=0.35)
    if spec == "heuristic":
        return HeuristicBot(seed)
    if spec == "variant":
        return HeuristicBot(seed).with_params(**variant)
    if spec.startswith("file:"):
        return _load(spec[5:])(seed)
    return make_bot(spec, seed)  # any other bot spec, e.g. ismcts:ms=50


def play_pair(job) -> tuple[float, float, int, float, float, int]:
    """One seed, both seatings: (wins of A, games, decisions timed, seconds in A, seconds of obs, hands)."""
    rules, players, teams, seed, a_spec, b_spec, variant = job
    wins = 0.0
    decisions = 0
    t_bot = t_obs = 0.0
    hands = 0
    margin = 0.0
    v_points = mb.ruleset(rules).winner == "points"
    for a_side in (0, 1):
        g = mb.new_game(rules, players=players, teams=teams, seed=seed)
        bots = {}
        for q in range(players):
            side = g.side_of(q)
            spec = a_spec if (side == a_side) else b_spec
            bots[q] = (make(spec, seed * 31 + q, variant), side == a_side)
        clock = time.perf_counter
        while not g.is_over:
            q = g.to_act
            bot, is_a = bots[q]
            t0 = clock()
            obs = g.observation(q)
            t1 = clock()
            legal = g.legal_actions()
            action = bot.choose(obs, legal)
            t2 = clock()
            if is_a:
                decisions += 1
                t_bot += t2 - t1
                t_obs += t1 - t0
            g.act(action)
        hands += len(g.hand_results)
        for r in g.hand_results:
            pts = r["points"] if v_points else r["distance"]
            margin += pts[a_side] - max(x for i, x in enumerate(pts) if i != a_side)
        w = g.winners
        if a_side in w:
            wins += 1.0 / len(w)
    return wins, 2, decisions, t_bot, t_obs, hands, margin


def run(
    rules: str, players: int, teams, games: int, a: str, b: str, variant: dict, workers: int, seed: int = 1
) -> dict:
    pairs = max(1, games // 2)
    jobs = [(rules, players, teams, seed + i, a, b, variant) for i in range(pairs)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(play_pair, jobs, chunksize=4))
    else:
        results = [play_pair(j) for j in jobs]
    wins = sum(r[0] for r in results)
    n = sum(r[1] for r in results)
    dec = sum(r[2] for r in results)
    tb = sum(r[3] for r in results)
    to = sum(r[4] for r in results)
    hands = sum(r[5] for r in results)
    margin = sum(r[6] for r in results)
    rate = wins / n
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / n)
    return {
        "wins": wins,
        "games": n,
        "rate": rate,
        "ci": half,
        "ms": 1000 * tb / max(dec, 1),
        "obs_ms": 1000 * to / max(dec, 1),
        "decisions": dec,
        "hands": hands,
        "margin": margin / max(hands, 1),
    }


def line(label: str, r: dict) -> str:
    return (
        f"{label:<44} {r['wins']:>6.1f}/{r['games']:<4} {100 * r['rate']:5.1f}% "
        f"±{100 * r['ci']:4.1f}  {r['ms']:.3f} ms/decision (obs {r['obs_ms']:.3f} ms)  "
        f"{r['hands'] / r['games']:.1f} hands/match, margin {r['margin']:+.0f}/hand"
    )


STANDARD = [
    # (ruleset, players, teams, opponent, games)
    ("classic", 2, None, "random", 400),
    ("classic", 2, None, "easy", 200),
    ("classic", 2, None, "greedy", 200),
    ("dujardin", 2, None, "random", 400),
    ("dujardin", 2, None, "easy", 400),
    ("classic", 4, True, "random", 100),
    ("classic", 4, True, "easy", 100),
    ("parker", 2, None, "random", 100),
    ("family", 3, None, "random", 200),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", action="store_true")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--opponent", default="random")
    ap.add_argument(
        "--variant", default="", help="weights of a variant heuristic: key=value,...; it then plays as the first player"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a quarter of the standard games")
    args = ap.parse_args(argv)
    variant = parse_variant(args.variant)
    a = "variant" if variant else "heuristic"
    start = time.perf_counter()
    if args.ruleset:
        teams = True if args.teams else None
        r = run(args.ruleset, args.players, teams, args.games, a, args.opponent, variant, args.workers, args.seed)
        label = f"{a} vs {args.opponent} {args.ruleset} {args.players}p{' teams' if args.teams else ''}"
        print(line(label, r))
    else:
        print(f"{'pairing (seat-balanced, same seeds swapped)':<44} {'wins':>11} {'rate':>6}")
        for rules, players, teams, opp, games in STANDARD:
            if args.quick:
                games = max(20, games // 4)
            r = run(rules, players, teams, games, a, opp, variant, args.workers, args.seed)
            label = f"{a} vs {opp} {rules} {players}p{' teams' if teams else ''}"
            print(line(label, r), flush=True)
    print(f"total {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
