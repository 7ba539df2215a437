"""OpenSpiel's search on Mille Bornes: time per decision of ``MCTSBot`` and ``ISMCTSBot`` with the compiled
rollouts of ``EngineRolloutEvaluator`` against OpenSpiel's ``RandomRolloutEvaluator`` (``n_rollouts=1``), at the
same simulations, classic with 2 players and 4 (two teams); optionally MCTS with each evaluator played against
the other.

Positions come from random play at fixed seeds (decisions with a choice, hands of a classic match); each bot
decides once in each; times are CPU time of this process (``time.process_time``: the search is single-threaded,
and CPU time is steadier than the wall clock on a shared machine). The random evaluator plays a whole match
through the Python game per rollout, so it is timed on fewer positions (``--slow-positions``).

``--matches N`` plays N pairs of one-hand matches (classic, ``match_target=0``, both seat orders on the same deal)
between MCTS with each evaluator and prints the compiled one's win rate with a 95% interval (Wilson); that takes
about a minute a pair (the random evaluator's side).

    python bench/openspiel.py [--simulations 20] [--positions 30] [--slow-positions 5] [--matches 0]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import millebornes.env.openspiel  # noqa: F401  # registers the games
from millebornes.env.openspiel_evaluator import EngineRolloutEvaluator


def positions(game: pyspiel.Game, count: int, seed: int) -> list[pyspiel.State]:
    """Decisions with more than one legal action, about one in ten of a random match's."""
    rng = np.random.RandomState(seed)
    out: list[pyspiel.State] = []
    state = game.new_initial_state()
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.rand() < 0.1:
                out.append(state.clone())
            state.apply_action(int(rng.choice(legal)))
    return out


def make_bot(kind: str, game: pyspiel.Game, evaluator: mcts.Evaluator, sims: int, seed: int) -> pyspiel.Bot:
    rng = np.random.RandomState(seed)
    if kind == "MCTS":
        return mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rng)


def median_ms(bot: pyspiel.Bot, states: list[pyspiel.State]) -> float:
    times = []
    for state in states:
        start = time.process_time()
        bot.step(state)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def timings(args: argparse.Namespace) -> None:
    print(f"classic, {args.simulations} simulations; median ms (CPU) per decision")
    print(f"{'search':8} {'players':>7} {'compiled':>9} {'random':>9} {'ratio':>7}")
    for players in (2, 4):
        game = pyspiel.load_game("python_millebornes_classic", {"players": players})
        states = positions(game, args.positions, players)
        for kind in ("MCTS", "ISMCTS"):
            fast = make_bot(kind, game, EngineRolloutEvaluator(random.Random(1)), args.simulations, 1)
            slow = make_bot(kind, game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), args.simulations, 1)
            fast_ms = median_ms(fast, states)
            slow_ms = median_ms(slow, states[: args.slow_positions])
            print(f"{kind:8} {players:>7} {fast_ms:>9.1f} {slow_ms:>9.1f} {slow_ms / fast_ms:>6.0f}x", flush=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def strength(args: argparse.Namespace) -> None:
    game = pyspiel.load_game("python_millebornes_classic", {"match_target": 0})
    score = 0.0
    played = 0
    for pair in range(args.matches):
        for first in (0, 1):
            fast = make_bot("MCTS", game, EngineRolloutEvaluator(random.Random(pair)), args.simulations, pair)
            slow_eval = mcts.RandomRolloutEvaluator(1, np.random.RandomState(pair))
            slow = make_bot("MCTS", game, slow_eval, args.simulations, pair)
            bots = [fast, slow] if first == 0 else [slow, fast]
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(pair))
            score += (returns[first] + 1) / 2  # a win 1, a shared hand 1/2
            played += 1
        low, high = wilson(score, played)
        print(f"pair {pair + 1}: compiled {score:g} of {played} ({score / played:.0%}, 95% {low:.0%}-{high:.0%})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--simulations", type=int, default=20)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--slow-positions", type=int, default=5)
    ap.add_argument("--matches", type=int, default=0, help="pairs of MCTS matches, compiled against random rollouts")
    args = ap.parse_args(argv)
    timings(args)
    if args.matches:
        strength(args)


if __name__ == "__main__":
    main()
