"""OpenSpiel's ISMCTS plays Mille Bornes with compiled rollouts, against OpenSpiel's uniform random bot and
against the package's heuristic bot (under a minute; needs the openspiel extra).

The default game is a dujardin race (a match is one hand); any two-player game string works, e.g.
``python_millebornes_classic`` for whole classic matches (several minutes: a match is several hands).

    python examples/openspiel_mcts.py [--matches 20] [--simulations 20] [--rollouts 8] [--game GAME]
    python examples/openspiel_mcts.py --search mcts     # OpenSpiel's MCTS: it searches the true state

The search is OpenSpiel's own (``open_spiel.python.algorithms.ismcts.ISMCTSBot``); only its leaf evaluation is
the package's: ``EngineRolloutEvaluator`` plays each rollout in the compiled engine, the greedy policy for every
seat to the end of the hand, and scores a match still going by each side's chance of winning it from the totals.
A leaf's value is the mean of ``--rollouts`` playouts: compiled, eight cost less than OpenSpiel's tree walk, and
one playout's result is mostly luck (with one, ISMCTS at 20 simulations lost 4 of 10 races to the random bot).
ISMCTS resamples the hidden cards from the seat's information state at every simulation, so, like the bots it
meets, it sees no other hand; ``--search mcts`` uses ``MCTSBot``, which searches the true state, every hand in
view (a cheat, shown for speed comparisons). Each opponent plays ``--matches`` matches, half of them seated
first; the match counts as won by the side with the higher return, a shared result as half. The heuristic bot
is the stronger: at 20 simulations ISMCTS won 10 of 10 races against the random bot and 0 of 10 against it
(100 simulations with 4 rollouts: 10 and 2 of 10).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from millebornes.env.openspiel import EngineBot
from millebornes.env.openspiel_evaluator import EngineRolloutEvaluator


class ISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS, which evaluate_bots may restart (it keeps nothing between decisions)."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def search_bot(kind: str, game: pyspiel.Game, simulations: int, rollouts: int, seed: int) -> pyspiel.Bot:
    """OpenSpiel's search with the compiled rollouts."""
    evaluator = EngineRolloutEvaluator(random.Random(seed), n_rollouts=rollouts)
    rng = np.random.RandomState(seed)
    if kind == "mcts":
        return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    return ISMCTS(game, evaluator, 2.0, simulations, random_state=rng)


def opponent(name: str, seat: int, seed: int) -> pyspiel.Bot:
    if name == "random":
        return pyspiel.make_uniform_random_bot(seat, seed)
    return EngineBot("heuristic", seed=seed)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="matches against each opponent")
    ap.add_argument("--simulations", type=int, default=20)
    ap.add_argument("--rollouts", type=int, default=8, help="compiled playouts averaged at each leaf")
    ap.add_argument("--game", default="python_millebornes_dujardin", help="an OpenSpiel game string (2 players)")
    ap.add_argument("--search", choices=("ismcts", "mcts"), default="ismcts")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    game = pyspiel.load_game(args.game)
    if game.num_players() != 2:
        ap.error("the example seats two players: choose a game with players=2")
    print(f"{args.search.upper()}, {args.simulations} simulations, compiled rollouts, on {game}")
    for name in ("random", "heuristic"):
        won = 0.0
        start = time.perf_counter()
        for match in range(args.matches):
            seed = args.seed * 10_000 + match
            seat = match % 2
            search, other = (
                search_bot(args.search, game, args.simulations, args.rollouts, seed),
                opponent(name, 1 - seat, seed),
            )
            bots = [search, other] if seat == 0 else [other, search]
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
            won += 1.0 if returns[seat] > returns[1 - seat] else 0.5 if returns[seat] == returns[1 - seat] else 0.0
        seconds = time.perf_counter() - start
        print(
            f"against {name}: won {won:g} of {args.matches} matches ({won / args.matches:.0%}), "
            f"{seconds / args.matches:.1f} s a match"
        )


if __name__ == "__main__":
    main()
