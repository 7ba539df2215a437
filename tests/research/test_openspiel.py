"""Mille Bornes in OpenSpiel: OpenSpiel's own random-simulation test, the API's promises (clones, masks,
chance outcomes, zero-sum returns), views that never show hidden cards, and OpenSpiel's ISMCTS against
the heuristic bot."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

import millebornes as mb  # noqa: E402
from millebornes.bots import features as F  # noqa: E402
from millebornes.env import openspiel as mbos  # noqa: E402
from millebornes.env import side_rewards  # noqa: E402
from millebornes.observe import unseen_kinds  # noqa: E402


def _kind(card):
    return mb.cards.KIND_OF[card]


def _step(state, rng):
    """One step: a chance outcome by its probability, or any legal action."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def _random_play(state, rng, check=None):
    """Play to the end; ``check(state)`` at every node."""
    for _ in range(100_000):
        if check:
            check(state)
        if state.is_terminal():
            return state
        _step(state, rng)
    raise AssertionError("the game did not end")


def _deal(state, hands, draws=()):
    """Deal chosen cards at the chance nodes: each seat's hand in seat order, then the draws."""
    for card in [c for hand in hands for c in hand] + list(draws):
        assert state.is_chance_node()
        state.apply_action(_kind(card))
    return state


def test_importing_the_package_does_not_import_pyspiel():
    code = "import sys, millebornes, millebornes.env; sys.exit('pyspiel' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_every_edition_is_registered():
    names = set(pyspiel.registered_names())
    assert {"python_millebornes"} | {f"python_millebornes_{r}" for r in mb.RULESETS} <= names
    game = pyspiel.load_game("python_millebornes", {"ruleset": "dujardin", "players": 6, "teams": True})
    assert game.setup.rules.name == "dujardin" and game.setup.nsides == 3
    assert game.num_players() == 6 and game.num_distinct_actions() == 206 and game.max_chance_outcomes() == 19
    assert game.observation_tensor_size() == F.STATE_SIZE == game.information_state_tensor_size()
    assert game.min_utility() == -0.5 and game.max_utility() == 1.0 and game.utility_sum() == 0.0
    kind = pyspiel.load_game("python_millebornes_classic(reward=hand)").get_type()
    assert kind.reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="reward must be"):
        pyspiel.load_game("python_millebornes_family", {"reward": "points"})
    with pytest.raises(Exception, match="not 5 alone"):
        pyspiel.load_game("python_millebornes_classic", {"players": 5})
    with pytest.raises(Exception, match="not 3 in teams"):
        pyspiel.load_game("python_millebornes(players=3,teams=True)")
    with pytest.raises(Exception, match="none in teams; not 4 in teams"):
        pyspiel.load_game("python_millebornes_family(players=4,teams=True)")
    with pytest.raises(Exception, match="max_hands"):
        pyspiel.load_game("python_millebornes_classic", {"max_hands": 0})


@pytest.mark.parametrize(
    "name, teams, sides",
    [
        ("python_millebornes(players=4)", True, 2),
        ("python_millebornes(players=6)", True, 3),
        ("python_millebornes(players=3)", False, 3),
        ("python_millebornes_parker(players=4,teams=False)", True, 2),
        ("python_millebornes_dujardin(players=6)", True, 3),
        ("python_millebornes_dujardin(players=4)", False, 4),
        ("python_millebornes_dujardin(players=4,teams=True)", True, 2),
    ],
)
def test_a_table_the_edition_plays_in_teams_only_needs_no_teams_parameter(name, teams, sides):
    game = pyspiel.load_game(name)
    assert game.setup.teams is teams and game.setup.nsides == sides
    assert game.get_parameters()["teams"] is teams  # the game's string names the table it plays
    state = _random_play(game.new_initial_state(), np.random.default_rng(len(name)))
    obs = state.engine_observation(0)
    assert obs["is_over"]
    per_side = side_rewards(obs["winners"], sides)
    assert state.returns() == pytest.approx([per_side[side] for side in game.setup.seat_sides])
    again = pyspiel.load_game(str(game))
    assert again.setup == game.setup


def test_illegal_actions_and_outcomes_are_refused_and_change_nothing():
    state = pyspiel.load_game("python_millebornes_family").new_initial_state()
    _deal(state, [["75"] * 6, ["25"] * 5 + ["driving-ace"]], ["roll"])
    before = str(state)
    for action in (mb.ACTION_CODES["play 75"], 190, mb.ACTION_CODES["discard 25"]):
        with pytest.raises(mb.IllegalAction):
            state.apply_action(action)
    assert str(state) == before
    state.apply_action(mb.ACTION_CODES["discard 75"])
    before = str(state)
    for outcome in (19, 100, _kind("driving-ace")):  # not a kind, or none left
        with pytest.raises(ValueError, match="not a card kind left"):
            state.apply_action(outcome)
    assert str(state) == before


@pytest.mark.parametrize(
    "name, params, sims",
    [
        ("python_millebornes_family", {"players": 2}, 6),
        ("python_millebornes_family", {"players": 3, "reward": "hand"}, 2),
        ("python_millebornes_dujardin", {"players": 4, "teams": True}, 2),
        ("python_millebornes_parker", {"players": 2, "match_target": 1500, "reward": "hand"}, 1),
        ("python_millebornes_classic", {"players": 3, "match_target": 0}, 2),
        ("python_millebornes_classic", {"players": 2, "max_hands": 2}, 1),
    ],
)
def test_openspiel_random_simulation_test(name, params, sims):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=sims, serialize=True, verbose=False)


def _check_node(state):
    """At every node: the mask, the legal codes, the chance distribution against the real stock."""
    game = state.get_game()
    players = game.num_players()
    views = [state.engine_observation(s) for s in range(players)]
    if state.is_terminal():
        assert state.legal_actions() == [] and abs(sum(state.returns())) < 1e-9
        return
    if state.is_chance_node():
        # the stock: what seat 0 has not seen, less the other hands, read from their own views
        stock = unseen_kinds(views[0])
        for seat in range(1, players):
            for card in views[seat]["hand"]:
                stock[_kind(card)] -= 1
            for card in views[0]["known_cards"][seat]:
                stock[_kind(card)] += 1
        assert min(stock) >= 0 and sum(stock) == views[0]["stock_size"]
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert dict(outcomes) == {k: n / sum(stock) for k, n in enumerate(stock) if n}
        assert state.legal_actions() == [k for k, _ in outcomes]
        return
    seat = state.current_player()
    legal = state.legal_actions()
    assert legal == sorted(mb.ACTION_CODES[a] for a in views[seat]["legal_actions"])
    assert np.flatnonzero(state.legal_actions_mask(seat)).tolist() == legal
    assert all(state.legal_actions(s) == [] for s in range(players) if s != seat)
    assert [state.action_to_string(seat, a) for a in legal] == [mb.ACTION_NAMES[a] for a in legal]


@pytest.mark.parametrize(
    "edition, players, teams", [("classic", 2, False), ("family", 4, False), ("dujardin", 4, True)]
)
def test_legal_actions_masks_and_chance_outcomes(edition, players, teams):
    game = pyspiel.load_game(f"python_millebornes_{edition}", {"players": players, "teams": teams, "match_target": 0})
    _random_play(game.new_initial_state(), np.random.default_rng(players), _check_node)


def test_clones_serialization_and_pickles_play_on_alike():
    game = pyspiel.load_game("python_millebornes_classic", {"match_target": 0})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for step in range(300):
        if state.is_terminal():
            break
        twin = state.clone()
        if step % 37 == 0:
            _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
            assert str(copy) == str(state) and copy.history() == state.history()
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
        _step(state, rng)
        assert str(twin) != str(state)
        twin.apply_action(state.history()[-1])
        assert str(twin) == str(state) and twin.history() == state.history()


def _views(state, seat):
    return (
        state.information_state_string(seat),
        state.observation_string(seat),
        state.information_state_tensor(seat),
        state.observation_tensor(seat),
    )


def test_views_show_nothing_of_the_other_hands_or_the_stock():
    game = pyspiel.load_game("python_millebornes_family", {"players": 2})
    mine = ["25", "50", "75", "stop", "roll", "gasoline"]
    a = _deal(game.new_initial_state(), [mine, ["100", "100", "stop", "roll", "repairs", "accident"]], ["200"])
    b = _deal(game.new_initial_state(), [mine, ["25", "25", "25", "flat-tire", "roll", "extra-tank"]], ["200"])
    assert _views(a, 0) == _views(b, 0)
    assert _views(a, 1)[0] != _views(b, 1)[0] and _views(a, 1)[1] != _views(b, 1)[1]
    assert _views(a, 1)[2] != _views(b, 1)[2]
    for state in (a, b):  # seat 0 discards; seat 1 draws different cards in the two worlds
        state.apply_action(mb.ACTION_CODES["discard stop"])
    a.apply_action(_kind("driving-ace"))
    b.apply_action(_kind("50"))
    assert _views(a, 0) == _views(b, 0)
    assert "driving-ace" not in _views(a, 0)[0] + _views(a, 0)[1]
    assert "driving-ace" in _views(a, 1)[0] and "driving-ace" in _views(a, 1)[1]
    assert "+200" in _views(a, 0)[0]  # the seat's own draw is part of its information state


def test_tensors_and_strings_are_the_engine_views():
    game = pyspiel.load_game("python_millebornes_parker", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node() or len(state.history()) < 200:
        _step(state, rng)
    for seat in range(3):
        obs = state.engine_observation(seat)
        assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), F.state_vector(obs))
        assert state.observation_string(seat) == mbos.describe(obs)
        assert state.information_state_string(seat).startswith(f"seat {seat}: hand 0, +")


def test_resampled_states_keep_the_seat_view_and_change_the_rest():
    game = pyspiel.load_game("python_millebornes_classic", {"players": 2, "match_target": 0})
    state = game.new_initial_state()
    rng = np.random.default_rng(8)
    while state.is_chance_node() or len(state.history()) < 60:
        _step(state, rng)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(10):
        world = state.resample_from_infostate(seat, sampler)
        assert _views(world, seat) == _views(state, seat)
        assert world.legal_actions() == state.legal_actions()
        others.add(tuple(world.engine_observation(1 - seat)["hand"]))
        _random_play(world, rng, _check_node)  # a world plays on to the end like the real game
    assert len(others) > 1


def test_returns_follow_the_match_or_every_hand():
    for reward in ("match", "hand"):
        game = pyspiel.load_game("python_millebornes_classic", {"players": 3, "match_target": 1500, "reward": reward})
        state = _random_play(game.new_initial_state(), np.random.default_rng(11))
        obs = state.engine_observation(0)
        if reward == "match":
            expected = side_rewards(obs["winners"], 3)
        else:
            per_hand = [side_rewards(r["winners"], 3) for r in obs["hand_results"]]
            expected = [sum(h[s] for h in per_hand) for s in range(3)]
            assert len(per_hand) > 1
        assert state.returns() == pytest.approx(expected) and sum(state.returns()) == pytest.approx(0.0)


def test_max_hands_ends_a_long_match_on_the_totals():
    game = pyspiel.load_game("python_millebornes_classic", {"players": 2, "max_hands": 1})
    state = _random_play(game.new_initial_state(), np.random.default_rng(2))
    obs = state.engine_observation(0)
    scores = obs["match_scores"]
    assert len(obs["hand_results"]) == 1 and max(scores) < 5000  # the engine's match would go on
    best = [s for s in range(2) if scores[s] == max(scores)]
    assert state.returns() == pytest.approx(side_rewards(best, 2))


def test_engine_bots_play_through_openspiel_evaluate_bots():
    game = pyspiel.load_game("python_millebornes_family", {"players": 3})
    bots = [mbos.EngineBot("heuristic", seed=s) for s in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert sum(returns) == pytest.approx(0.0) and max(returns) > 0


class _Ismcts(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS, which evaluate_bots can restart (it keeps no state between moves)."""

    def restart_at(self, state):
        self.reset()


def test_openspiel_ismcts_plays_the_heuristic_bot():
    game = pyspiel.load_game("python_millebornes_dujardin", {"players": 2})
    results = []
    for match in range(2):
        rng = np.random.RandomState(match)
        search = _Ismcts(
            game,
            mcts.RandomRolloutEvaluator(1, rng),
            uct_c=2.0,
            max_simulations=6,
            max_world_samples=3,
            random_state=rng,
        )
        bots = [search, mbos.EngineBot("heuristic", seed=match)]
        if match:
            bots.reverse()
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        results.append(returns[bots.index(search)])
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(results) == 2
