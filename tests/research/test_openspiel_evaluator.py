"""EngineRolloutEvaluator, OpenSpiel's leaf evaluation in the compiled engine: its worlds keep every seat's view
of the state, its returns are those of a real playout in the game's reward mode, and OpenSpiel's MCTS and ISMCTS
play legal moves with it; and examples/openspiel_mcts.py runs (short)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from millebornes.bots.match import match_chances  # noqa: E402
from millebornes.bots.rollout import play_out  # noqa: E402
from millebornes.env import openspiel as mbos  # noqa: E402
from millebornes.env import side_rewards  # noqa: E402
from millebornes.env.openspiel_evaluator import EngineRolloutEvaluator  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts.py"


def _walk(game, seed, steps):
    """Copies of the states of a random match, chance nodes included, up to ``steps`` nodes."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state.clone()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def _public(obs):
    return {k: v for k, v in obs.items() if k not in ("stock_size", "hand", "hand_sizes", "legal_actions")}


def test_a_playout_world_keeps_what_every_seat_sees():
    game = pyspiel.load_game("python_millebornes_classic", {"players": 3})
    rng = random.Random(1)
    chance = 0
    for state in _walk(game, 1, 400):
        world = state.playout_world(rng)
        view = state.engine_view()
        deck = sum(game.setup.deck)
        assert sum(world.hand_sizes) + world.stock_size == sum(view.hand_sizes) + view.stock_size
        assert sum(world.hand_sizes) + world.stock_size <= deck
        if state.is_chance_node():  # the cards still to deal are in the world's hands
            chance += 1
            assert sum(world.hand_sizes) == sum(view.hand_sizes) + len(state._t.draws)
            continue
        for seat in range(3):
            assert world.observation(seat) == state.engine_observation(seat)
    assert chance > 50


def test_returns_are_a_real_playout_in_a_race():
    game = pyspiel.load_game("python_millebornes_family", {"players": 3})
    seen = set()
    for i, state in enumerate(_walk(game, 2, 300)):
        evaluator = EngineRolloutEvaluator(random.Random(i))
        twin = random.Random(i)  # the same draws: the world and the playout the evaluator makes
        world = state.playout_world(twin)
        play_out(world, twin)
        assert world.is_over
        value = evaluator.evaluate(state)
        assert value.tolist() == side_rewards(list(world.winners), 3)
        seen.add(tuple(value))
    assert len(seen) > 1


def test_a_match_is_scored_by_its_chance_from_the_totals_or_played_out():
    game = pyspiel.load_game("python_millebornes_classic", {"players": 4})
    states = list(_walk(game, 3, 200))[::20]
    for i, state in enumerate(states):
        value = EngineRolloutEvaluator(random.Random(i)).evaluate(state)
        twin = random.Random(i)  # the evaluator's draws: the world first, then the playout
        world = state.playout_world(twin)
        play_out(world, twin)
        assert not world.is_over
        p = match_chances(list(world.match_scores), 5000)
        expected = [2 * (p[side] - 0.5) for side in game.setup.seat_sides]
        assert value.tolist() == pytest.approx(expected) and abs(value[0]) < 1 and sum(value) == pytest.approx(0)
        whole = EngineRolloutEvaluator(random.Random(i), horizon="match").evaluate(state)
        assert sorted(whole.tolist()) == [-1.0, -1.0, 1.0, 1.0]
        assert whole[0] == whole[2] and whole[1] == whole[3]


def test_hand_rewards_add_the_hand_to_the_returns_so_far():
    game = pyspiel.load_game("python_millebornes_classic", {"reward": "hand"})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    while not (sum(map(abs, state.returns())) and not state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    twin = random.Random(5)
    world = state.playout_world(twin)
    hand = world.hand_number
    play_out(world, twin)
    expected = np.add(state.returns(), side_rewards(list(world.hand_results[hand]["winners"]), 2))
    assert EngineRolloutEvaluator(random.Random(5)).evaluate(state).tolist() == expected.tolist()
    averaged = EngineRolloutEvaluator(random.Random(5), n_rollouts=8, policy="random").evaluate(state)
    assert abs(averaged[0] - state.returns()[0]) <= 1 and sum(averaged) == pytest.approx(0)


def test_prior_and_bad_arguments():
    game = pyspiel.load_game("python_millebornes_dujardin")
    states = list(_walk(game, 6, 30))
    evaluator = EngineRolloutEvaluator(1)
    chance = next(s for s in states if s.is_chance_node())
    decision = next(s for s in states if not s.is_chance_node())
    assert evaluator.prior(chance) == chance.chance_outcomes()
    n = len(decision.legal_actions())
    assert evaluator.prior(decision) == [(a, 1 / n) for a in decision.legal_actions()]
    for kwargs, message in (
        ({"horizon": "game"}, "horizon"),
        ({"policy": "mcts"}, "policy"),
        ({"n_rollouts": 0}, "n_"),
    ):
        with pytest.raises(ValueError, match=message):
            EngineRolloutEvaluator(**kwargs)


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_searches_play_legal_moves_with_it(players):
    game = pyspiel.load_game("python_millebornes_classic", {"players": players})
    bots = [
        mcts.MCTSBot(game, 2.0, 10, EngineRolloutEvaluator(7), random_state=np.random.RandomState(7)),
        ismcts.ISMCTSBot(game, EngineRolloutEvaluator(7), 2.0, 10, random_state=np.random.RandomState(7)),
    ]
    for state in list(_walk(game, players, 300))[::25]:
        if state.is_chance_node():
            continue
        before = str(state)
        for bot in bots:
            assert bot.step(state) in state.legal_actions()
        assert str(state) == before


def test_the_example_prints_its_win_rates():
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--matches", "1", "--simulations", "4"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ISMCTS, 4 simulations, compiled rollouts, on python_millebornes_dujardin(")
    for line, name in zip(lines[1:], ("random", "heuristic"), strict=True):
        assert re.fullmatch(rf"against {name}: won (0|0\.5|1) of 1 matches \(\d+%\), [\d.]+ s a match", line)
