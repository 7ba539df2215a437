"""The learning environments: PettingZoo's and Gymnasium's own checks, the action mask, and
observations that never depend on hidden cards."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import millebornes as mb  # noqa: E402
from millebornes.bots import features as F  # noqa: E402
from millebornes.env import aec_env, gym_env, register, side_rewards  # noqa: E402


def test_pettingzoo_api_test():
    api_test(aec_env("classic", players=2), num_cycles=300)


def test_pettingzoo_api_test_teams_and_hand_rewards():
    api_test(aec_env("dujardin", players=4, teams=True, reward="hand"), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(lambda: aec_env("classic", players=3), num_cycles=200)


def test_gymnasium_check_env():
    env = gym_env("classic", players=2, opponents="heuristic")
    check_env(env, skip_render_check=True)


def test_gymnasium_make():
    register()
    env = gymnasium.make("millebornes/MilleBornes-v0", opponents="random", reward="hand")
    obs, info = env.reset(seed=2)
    assert obs["observation"].shape == (F.STATE_SIZE,)
    env.close()


def _play_aec(env, seed):
    """Random masked play of a whole match; checks the mask against the engine at every step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        game = env.game
        assert agent == f"player_{game.to_act}"
        legal = sorted(game.legal_codes())
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return total, steps


@pytest.mark.parametrize(
    "ruleset,players,teams", [("classic", 2, None), ("parker", 4, True), ("family", 5, None), ("dujardin", 3, None)]
)
def test_action_mask_is_the_engines_legal_codes_and_rewards_zero_sum(ruleset, players, teams):
    env = aec_env(ruleset, players=players, teams=teams)
    total, steps = _play_aec(env, seed=5)
    assert steps > 10
    game = env.game
    sides = [total[f"player_{game.sides[s][0]}"] for s in range(game.nsides)]
    assert sum(sides) == pytest.approx(0.0)  # zero-sum over sides
    assert sides == pytest.approx(side_rewards(game.winners, game.nsides))
    for s in range(game.nsides):  # partners get their side's reward
        assert {total[f"player_{seat}"] for seat in game.sides[s]} == {sides[s]}


def test_side_rewards():
    assert side_rewards([1], 2) == [-1.0, 1.0]
    assert side_rewards([0, 1], 2) == [0.0, 0.0]
    assert sum(side_rewards([1], 4)) == pytest.approx(0.0)


def _random_positions(ruleset, players, seed, every=7):
    game = mb.new_game(ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        if n % every == 0:
            yield game
        codes = game.legal_codes()
        game.act_code(codes[rng.randrange(len(codes))])
        n += 1


@pytest.mark.parametrize("ruleset,players", [("classic", 2), ("parker", 3), ("family", 4)])
def test_vectors_never_depend_on_hidden_cards(ruleset, players):
    """A possible world (the same observation, other hands and stock dealt again) gives the same
    state vector and action features for the observing seat."""
    rng = random.Random(1)
    checked = differ = 0
    for game in _random_positions(ruleset, players, seed=3):
        for seat in range(players):
            obs = game.observation(seat)
            twin = mb.determinize(obs, rng)
            twin_obs = twin.observation(seat)
            hidden = [twin.hand(s) for s in range(players) if s != seat]
            differ += hidden != [game.hand(s) for s in range(players) if s != seat]
            assert np.array_equal(F.state_vector(obs), F.state_vector(twin_obs))
            if seat == game.to_act:
                codes = game.legal_codes()
                assert twin.legal_codes() == codes
                assert np.array_equal(F.action_matrix(obs, codes), F.action_matrix(twin_obs, codes))
            checked += 1
    assert checked > 40 and differ > checked // 2  # the twins really held other hidden cards


def test_twin_deals_give_the_same_env_observation():
    """Two stacked decks that differ only in seat 1's hand and deep in the stock."""
    deck = mb.new_game("classic", players=2, seed=9)._shuffled(0)
    ids = [mb.CARD_IDS[k] for k in deck]
    j = next(j for j in range(20, len(ids)) if ids[j] != ids[6])
    swapped = list(ids)
    swapped[6], swapped[j] = swapped[j], swapped[6]
    envs = []
    for d in (ids, swapped):
        env = aec_env("classic", players=2)
        env.reset(seed=0)
        env.game = mb.new_game("classic", players=2, seed=0, deck=d)
        envs.append(env)
    assert envs[0].game.hand(1) != envs[1].game.hand(1)
    a, b = (e.observe("player_0") for e in envs)
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])


def test_unseen_counts_match_observe():
    from millebornes.observe import unseen_counts

    for game in _random_positions("classic", 2, seed=4, every=13):
        obs = game.observation(game.to_act)
        assert F.unseen_counts(obs) == [unseen_counts(obs)[c] for c in mb.CARD_IDS]


def test_gym_episode_and_illegal_action_forfeits():
    env = gym_env("classic", opponents="random", seat="random", reward="hand")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), sorted(env.game.legal_codes()))
        assert env.game.to_act == env.seat
        obs, reward, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        steps += 1
    assert env.game.is_over and steps > 20
    assert total == pytest.approx(
        sum(
            1.0
            if env.game.side_of(env.seat) in r["winners"] and len(r["winners"]) == 1
            else 0.0
            if env.game.side_of(env.seat) in r["winners"]
            else -1.0
            for r in env.game.hand_results
        )
    )
    env.reset(seed=5)
    illegal = next(c for c in range(F.NUM_ACTIONS) if c not in env.game.legal_codes())
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)
