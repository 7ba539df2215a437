"""examples/learn_ppo.py, the reinforcement-learning example (MaskablePPO), on a tiny budget: it writes its
win-rate table, its plot and its model, and the model plays legal moves only (needs the learn extra)."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

from sb3_contrib import MaskablePPO

from millebornes.env import gym_env

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "learn_ppo.py"


def _example():
    spec = importlib.util.spec_from_file_location("learn_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ppo")
    tiny = "--timesteps 2048 --envs 8 --n-steps 128 --batch-size 256 --net 32,32 --eval-every 1024 --eval-matches 4"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *tiny.split(), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "steps/s" in done.stdout and "vs heuristic" in done.stdout
    return out


def test_it_writes_the_win_rates_the_plot_and_the_model(run):
    with open(run / "winrate.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == [0, 1024, 2048]
    for row in rows:
        for bot in ("random", "heuristic"):
            assert float(row[f"{bot}_low"]) <= float(row[bot]) <= float(row[f"{bot}_high"])
            assert int(row[f"{bot}_matches"]) == 4
    assert (run / "winrate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (run / "model.zip").stat().st_size > 0


def test_the_saved_model_plays_legal_moves_only(run):
    model = MaskablePPO.load(run / "model.zip", device="cpu")
    env = gym_env("classic", opponents="heuristic", seat="random")
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        terminated = False
        while not terminated:
            for deterministic in (True, False):
                action, _ = model.predict(
                    obs["observation"], action_masks=env.action_masks(), deterministic=deterministic
                )
                assert int(action) in env.game.legal_codes()
            obs, _, terminated, _, info = env.step(int(action))
            assert not info.get("illegal")
        assert env.game.is_over and np.isfinite(obs["observation"]).all()


def test_its_vec_env_deals_a_finished_match_again_in_the_step_that_ends_it():
    env = _example().MatchesVecEnv(4, ["random", "heuristic"], seed=3)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(1500):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.any(axis=1).all() and obs.shape == (4, 258)
        obs, rewards, dones, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (258,)
            assert not env.batches[i].games[0].is_over
            ended += 1
    assert ended >= 4
