"""The neural bot: NumPy inference, decision time, a training smoke test, and self-play records."""

import json
import os
import statistics
import time

import numpy as np
import pytest

import millebornes as mb
from millebornes import tournament as T
from millebornes.bots.base import RandomBot
from millebornes.bots.neural import WEIGHTS, NeuralBot, init_params, load_params
from millebornes.env import imitation as I
from millebornes.selfplay import iter_selfplay, make_player


def test_shipped_weights_are_small_and_load():
    assert os.path.getsize(WEIGHTS) < 1_000_000
    params = load_params()
    assert all(np.isfinite(v).all() for v in params.values())


def test_neural_bot_plays_legal_moves_every_edition_and_decides_fast():
    times = []
    bot = NeuralBot(seed=0)
    for ruleset, players, teams in [
        ("classic", 2, None),
        ("parker", 4, True),
        ("family", 6, None),
        ("dujardin", 3, None),
    ]:
        game = mb.new_game(ruleset, players=players, teams=teams, seed=2)
        while not game.is_over and len(game.hand_results) < 1:
            seat = game.to_act
            legal = game.legal_actions()
            obs = game.observation(seat)
            start = time.perf_counter()
            action = bot.choose(obs, legal)
            times.append(time.perf_counter() - start)
            assert action in legal
            game.act(action, seat)
    times.sort()
    median = statistics.median(times)
    assert len(times) > 200
    assert median < 0.002, f"median decision {1000 * median:.2f} ms"


def _hands_vs(factory, spec_a, spec_b, games, seed):
    s = T.run_tournament([spec_a, spec_b], "classic", players=2, games=games, seed=seed, hands=True, factory=factory)
    return {row["spec"]: row for row in s["table"]}


def test_training_smoke_loss_falls_and_beats_random():
    """A few hundred NumPy steps of imitation of the greedy policy: the loss falls well below its
    start and the trained network wins most of a few dozen paired hands against random play."""
    data = I.collect({"ruleset": "classic", "players": 2, "seeds": list(range(100, 130)), "hands": True})
    holdout = I.collect({"ruleset": "classic", "players": 2, "seeds": list(range(900, 905)), "hands": True})
    params = init_params(hidden=32, hidden2=16, seed=1)
    before, _ = I.evaluate(params, holdout)
    history = I.fit(data, params, steps=300, batch=128, lr=5e-3, log_every=100, holdout=holdout)
    after = history[-1]["holdout_loss"]
    assert after < 0.6 * before, (before, history)
    assert history[-1]["holdout_acc"] > 0.7

    def factory(spec, seed):
        return NeuralBot(seed, params=params) if spec == "student" else RandomBot(seed)

    table = _hands_vs(factory, "student", "random", games=32, seed=3)
    assert table["student"]["win_rate"] > 0.6, table["student"]


def test_a_search_bot_can_teach_with_advice_features():
    """Expert iteration's labels: a bot spec as teacher labels every decision with its own legal
    choice, and the advice columns mark the greedy and heuristic moves among the legal actions."""
    from millebornes.bots import features as F

    data = I.collect({"seeds": [4], "hands": True, "teacher": "ismcts:iterations=12,widen=0,scale=150", "advice": True})
    off, labels, acts = data["offsets"], data["labels"], data["actions"]
    assert len(labels) > 10 and all(0 <= labels[i] < off[i + 1] - off[i] for i in range(len(labels)))
    for name in ("advice:greedy", "advice:heuristic"):
        column = acts[:, F.ACTION_INDEX[name]]
        assert all(column[off[i] : off[i + 1]].sum() == 1 for i in range(len(labels)))


def test_shipped_bot_beats_random_in_matches():
    table = _hands_vs(make_player, "neural", "random", games=20, seed=5)
    assert table["neural"]["win_rate"] > 0.75


def test_selfplay_records_replay(tmp_path):
    lines = list(iter_selfplay(4, ["neural", "heuristic"], seed=2, hands=False))
    assert [line["index"] for line in lines] == [0, 1, 2, 3]
    for line in lines:
        game = mb.replay(json.loads(json.dumps(line))["record"])
        assert game.is_over
        assert game.winners == line["result"]["winners"]
        assert game.match_scores == line["result"]["match_scores"]
        assert len(game.hand_results) == line["result"]["hands"]


def test_selfplay_command_writes_jsonl(tmp_path):
    from typer.testing import CliRunner

    from millebornes.cli import app

    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "selfplay",
            "--games",
            "3",
            "--workers",
            "2",
            "--bots",
            "greedy,random",
            "--hands",
            "--ruleset",
            "parker",
            "--seed",
            "4",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 3 and lines[1]["bots"] == ["random", "greedy"]
    for line in lines:
        game = mb.replay(line["record"])
        assert game.hand_results[0]["winners"] == line["result"]["winners"]
    again = CliRunner().invoke(
        app,
        [
            "selfplay",
            "--games",
            "3",
            "--workers",
            "1",
            "--bots",
            "greedy,random",
            "--hands",
            "--ruleset",
            "parker",
            "--seed",
            "4",
        ],
    )
    assert [json.loads(x) for x in again.output.splitlines()] == lines  # the same with any worker count


def test_selfplay_unknown_bot_is_refused():
    with pytest.raises(ValueError):
        list(iter_selfplay(1, ["nobody"]))


def test_neural_choice_does_not_depend_on_the_world_its_advisor_deals():
    """The greedy advisor runs on a possible world dealt at random from the observation; bots with
    other seeds (other worlds) must still choose alike, since only the observation may matter."""
    import random

    a, b = NeuralBot(seed=1), NeuralBot(seed=2)
    rng = random.Random(0)
    game = mb.new_game("classic", players=2, seed=8)
    checked = 0
    while not game.is_over and checked < 150:
        obs, legal = game.observation(game.to_act), game.legal_actions()
        choice = a.choose(obs, legal)
        assert b.choose(obs, legal) == choice
        game.act(choice if rng.random() < 0.7 else rng.choice(legal))
        checked += 1
