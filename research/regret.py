"""Search quality without tournament noise: each bot's regret against oracle values of positions.

A tournament of 400 paired hands measures a win rate to about 2.5 points (one standard error),
too coarse to tell two search settings apart.  This script asks a sharper question of the same
decisions: how much does a bot's choice cost, in the search's own model of the game?

- Positions: decisions of both seats (observations only, one in ``--every``) from classic
  2-player hands between the greedy policy and the heuristic, with more than one legal action.
- Oracle: every legal action played out on ``--worlds`` shared worlds (uniform deals of the hidden
  cards, greedy playouts: the flat search's model); an action's value is the share of those hands
  its side won.
- A bot's regret at a position: the best action's value less the chosen one's; the table sums it
  over the positions (so 1.0 is one hand's win lost, spread over all of them).
- The floor: a second oracle on other worlds, scored by the first.  Both oracles are noisy, so no
  bot reaches 0: what an unlimited flat search would get is about this floor.

Regret is measured in the model, so it ranks search settings (budgets, reward scale, confidence)
and shows what more playouts buy; what the model itself gets wrong (greedy playouts for both
sides) only a tournament against the heuristic can show.  Search bots are given an iteration
budget (``iterations=N`` in their spec) so that the figures do not depend on the machine's load.

    python research/regret.py --hands 40 --every 4 --worlds 1500 --seeds 2 \\
        --bots greedy,heuristic,"ismcts:iterations=850,scale=1500,widen=0,confidence=0.5"
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import time

import millebornes as mb
from millebornes.actions import ACTION_NAMES
from millebornes.bots import make_bot
from millebornes.bots.heuristic import HeuristicBot
from millebornes.bots.ismcts import Search
from millebornes.bots.rollout import greedy_code
from millebornes.tournament import parse_bot_options

_POSITIONS: list[dict] = []
_VALUES: list[dict[str, float]] = []


def positions(hands: int, every: int, seed: int) -> list[dict]:
    """Observations of the seat to act, one decision in ``every``, from greedy-vs-heuristic hands."""
    rng = random.Random(seed)
    out = []
    for h in range(hands):
        g = mb.new_game("classic", players=2, seed=seed * 100_003 + h)
        heuristic = HeuristicBot(seed=h)
        while not g.hand_results and not g.is_over:
            legal = g.legal_codes()
            p = g.to_act
            if len(legal) == 1:
                g.act_code(legal[0])
                continue
            if rng.random() < 1 / every:
                out.append(g.observation(p))
            if (p + h) % 2:
                g.act(heuristic.choose(g.observation(p), g.legal_actions()))
            else:
                g.act_code(greedy_code(g, legal))
    return out


def oracle(job: tuple[int, dict, int, int]) -> dict[str, float]:
    """Each legal action's share of hands won, every action on the same ``worlds`` worlds."""
    i, obs, worlds, salt = job
    search = Search(obs, seed=salt * 1_000_003 + i, widen=0)
    search._round(search.actions, worlds)
    return {ACTION_NAMES[code]: search.wins[code] / search.worlds for code in search.actions}


def _init(obs: list[dict], values: list[dict[str, float]]) -> None:
    _POSITIONS[:] = obs
    _VALUES[:] = values


def _regret(job: tuple[str, int, int]) -> float:
    spec, i, seed = job
    values = _VALUES[i]
    bot = make_bot(spec, seed * 7919 + i)
    choice = bot.choose(_POSITIONS[i], list(values))
    return max(values.values()) - values[choice]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--every", type=int, default=4, help="keep one decision in this many")
    ap.add_argument("--worlds", type=int, default=1500, help="the oracle's worlds per action")
    ap.add_argument("--seeds", type=int, default=2, help="runs of each bot (search seeds)")
    ap.add_argument("--seed", type=int, default=900)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--bots",
        action="append",
        default=None,
        help="bot specs, comma-separated (repeatable); search bots with iterations=N",
    )
    args = ap.parse_args(argv)
    specs = parse_bot_options(
        args.bots
        or [
            "greedy,heuristic",
            "ismcts:iterations=850,challenger=heuristic,scale=150,widen=0,confidence=0.5",
            "ismcts:iterations=850,scale=1500,widen=0,confidence=0.5",
            "ismcts:iterations=2000,scale=1500,widen=0,confidence=0.5",
        ]
    )
    start = time.perf_counter()
    obs = positions(args.hands, args.every, args.seed)
    with mp.Pool(args.workers) as pool:
        values = pool.map(oracle, [(i, o, args.worlds, 1) for i, o in enumerate(obs)], chunksize=4)
        second = pool.map(oracle, [(i, o, args.worlds, 2) for i, o in enumerate(obs)], chunksize=4)
    floor = sum(max(v.values()) - v[max(w, key=w.get)] for v, w in zip(values, second))
    print(
        f"{len(obs)} positions from {args.hands} classic 2p hands (greedy vs heuristic, seed {args.seed}); "
        f"oracle: {args.worlds} worlds per action ({time.perf_counter() - start:.0f} s); engine "
        f"{'compiled (mypyc)' if mb.compiled() else 'pure Python'}"
    )
    print(f"{'bot':<80} {'regret':>7}  per run")
    print(f"{'floor: a second oracle on other worlds':<80} {floor:>7.2f}")
    with mp.Pool(args.workers, initializer=_init, initargs=(obs, values)) as pool:
        for spec in specs:
            runs = [
                sum(pool.map(_regret, [(spec, i, run) for i in range(len(obs))], chunksize=8))
                for run in range(args.seeds)
            ]
            print(f"{spec:<80} {statistics.mean(runs):>7.2f}  {' '.join(f'{r:.2f}' for r in runs)}", flush=True)


if __name__ == "__main__":
    main()
