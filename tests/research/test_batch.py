"""The batched environments: every row is its match's observation and mask, rewards are the matches', a match that
ends is dealt again at the next step, worker processes give what one process gives, and the Gymnasium
``VectorEnv`` is built by ``make_vec`` for a registered id."""

import random

import numpy as np
import pytest

import millebornes as mb
from millebornes.bots import features as F
from millebornes.env.batch import GameBatch
from millebornes.env.rewards import side_rewards
from millebornes.env.workers import ProcessBatch


def random_actions(batch, rng):
    return (rng.random(batch.masks.shape) * batch.masks).argmax(axis=1)


def check_rows(batch):
    for i, game in enumerate(batch.games):
        seat = int(batch.seats[i])
        assert np.array_equal(batch.observations[i], F.state_vector(game.observation(seat)))
        mine = not game.is_over and game.to_act == seat
        assert np.array_equal(batch.masks[i], F.mask(game.legal_codes() if mine else []))


@pytest.mark.parametrize("reward", ["match", "hand"])
def test_self_play_rows_rewards_and_autoreset(reward):
    batch = GameBatch(6, "parker", players=4, reward=reward)
    batch.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    totals = np.zeros((6, 4))
    for step in range(3000):
        if step % 50 == 0:
            check_rows(batch)
        was_over = batch.terminated.copy()
        batch.step(random_actions(batch, rng))
        totals += batch.rewards
        for i in np.flatnonzero(was_over):  # dealt again: nothing earned, a new match at its first decision
            assert not batch.terminated[i] and not batch.rewards[i].any()
            assert batch.games[i].history == [] and batch.games[i].hand_number == 0
        for i in np.flatnonzero(batch.terminated):
            game = batch.games[i]
            assert game.is_over
            sides = [totals[i][game.sides[s][0]] for s in range(game.nsides)]
            if reward == "match":
                assert sides == pytest.approx(side_rewards(game.winners, game.nsides))
            assert sum(sides) == pytest.approx(0.0)
            assert all(totals[i][seat] == sides[game.side_of(seat)] for seat in range(4))
            totals[i] = 0.0
            ended += 1
    check_rows(batch)
    assert ended >= 3


def test_a_learner_against_bots_sees_only_its_seat():
    batch = GameBatch(12, "classic", players=3, opponents="random", seat="random")
    batch.reset(seed=1)
    rng = np.random.default_rng(1)
    seats = set()
    for _ in range(200):
        for i, game in enumerate(batch.games):
            assert game.is_over or game.to_act == batch.seats[i]
            seats.add(int(batch.seats[i]))
        batch.step(random_actions(batch, rng))
    check_rows(batch)
    assert seats == {0, 1, 2}


def test_worker_processes_give_what_one_process_gives():
    seed = 5
    alone = GameBatch(4, "family", players=3, opponents="greedy")
    alone.reset(random.Random(seed).getrandbits(63))
    workers = ProcessBatch(4, workers=1, ruleset="family", players=3, opponents="greedy")
    two = ProcessBatch(4, workers=2, ruleset="family", players=3, opponents="greedy")
    try:
        workers.reset(seed)
        two.reset(seed)
        rng = np.random.default_rng(2)
        for _ in range(60):
            for name in ("observations", "masks", "rewards", "terminated", "seats"):
                assert np.array_equal(getattr(workers, name), getattr(alone, name)), name
            actions = random_actions(alone, rng)
            alone.step(actions)
            workers.step(actions)
            two.step(random_actions(two, rng))
            assert (two.masks.any(axis=1) | two.terminated).all() and (two.seats == 0).all()
    finally:
        workers.close()
        two.close()


def test_gymnasium_vector_env_from_a_registered_id():
    gymnasium = pytest.importorskip("gymnasium")
    import millebornes.env  # noqa: F401 - registers the ids

    envs = gymnasium.make_vec(
        "millebornes/Classic-2p-v0", num_envs=3, vectorization_mode="vector_entry_point", opponents="random"
    )
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=4)
    assert obs in envs.observation_space
    rng = np.random.default_rng(3)
    done_before = np.zeros(3, dtype=bool)
    finished = 0
    for _ in range(1500):
        actions = (rng.random((3, F.NUM_ACTIONS)) * obs["action_mask"]).argmax(axis=1)
        obs, rewards, terms, truncs, infos = envs.step(actions)
        assert obs["observation"].shape == (3, F.STATE_SIZE) and not truncs.any()
        assert not rewards[done_before].any() and not terms[done_before].any()
        assert set(rewards[terms].tolist()) <= {1.0, 0.0, -1.0}
        finished += int(terms.sum())
        done_before = terms
    assert finished >= 2
    envs.close()


@pytest.mark.parametrize("players, teams", [(2, False), (4, True)])
def test_a_naive_random_policy_plays_through_many_resets(players, teams):
    """A policy that picks one of the mask's legal actions, as most first scripts do: a row whose match just ended
    (next-step autoreset) allows every action, which is ignored, so the policy never meets an empty mask."""
    from millebornes.env.vector import MilleBornesVectorEnv

    envs = MilleBornesVectorEnv(4, opponents="random", players=players, teams=teams)
    obs, _ = envs.reset(seed=8)
    rng = np.random.default_rng(5)
    finished = 0
    ended = np.zeros(4, dtype=bool)
    for _ in range(3000):
        assert obs["action_mask"].any(axis=1).all()
        assert obs["action_mask"][ended].all()
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in obs["action_mask"]]
        obs, rewards, ended, _, _ = envs.step(actions)
        finished += int(ended.sum())
    assert finished >= 8, finished
    envs.close()


def test_a_bad_table_or_batch_is_refused():
    with pytest.raises(ValueError):
        GameBatch(0)
    with pytest.raises(ValueError):
        GameBatch(2, "family", players=7)
    with pytest.raises(ValueError):
        ProcessBatch(2, workers=2, ruleset="classic", players=5)
    batch = GameBatch(2)
    batch.reset(seed=1)
    with pytest.raises(ValueError):
        batch.step([0])
    with pytest.raises(mb.IllegalAction):
        batch.step([205, 205])
