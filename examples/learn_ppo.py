#!/usr/bin/env python3
"""Reinforcement learning that learns: MaskablePPO (sb3-contrib) on the batched environment, classic two-player
matches, on a CPU, with the agent's win rate against ``random`` and ``heuristic`` measured as it trains.

Install torch's CPU build first (an unpinned ``torch`` pulls a CUDA build of several GB), then the extra:

    pip install torch==2.13.0
    pip install -e '.[learn]'
    python examples/learn_ppo.py --out ppo-run

Every ``--eval-every`` steps it prints a line (steps, training steps/s, win rate against each bot with its 95%
interval) and writes ``ppo-run/winrate.csv``, ``ppo-run/winrate.png`` (the curve) and, at the end,
``ppo-run/model.zip`` (``MaskablePPO.load``).  The defaults are the run of docs/env.md (6 million steps, about
40 minutes on two cores).

The learner plays a random seat, one match in four against ``random`` and the others against ``heuristic``
(``--opponents``: against ``heuristic`` alone from the start it wins no hand to learn from, and learns nothing),
and earns the hand reward, +1 / -1 for each hand won or lost (a match pays only at its end, a few hundred
decisions later; ``--reward points`` pays each hand's points margin / 1000 instead).  The measure plays whole
matches, the tournament's result: ``--eval-matches`` against each bot, half as many deals from ``--eval-seed``
each played from both seats, the policy's most likely legal action (deterministic, masked); ties count half.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from millebornes.bots.encode import ACTION_COUNT, STATE_LEN
from millebornes.env.batch import GameBatch
from millebornes.tournament import wilson

TABLE: dict[str, Any] = {"ruleset": "classic", "players": 2}
EVAL_BOTS = ("random", "heuristic")


class MatchesVecEnv(VecEnv):
    """Stable-Baselines3's ``VecEnv`` over :class:`~millebornes.env.batch.GameBatch` matches, the learner in a
    random seat, row ``i`` against ``opponents[i % len(opponents)]``.

    SB3 resets a finished episode in the step that ends it (its final observation in
    ``infos[i]["terminal_observation"]``, the new match's first as the row's observation); a batch deals the new
    match in the step after.  So each row is a batch of one, stepped once more, action ignored, when its match
    ends.  ``action_masks()`` (through ``env_method``, as MaskablePPO asks) gives the rows' legal actions."""

    render_mode = None

    def __init__(
        self, num_envs: int, opponents: Sequence[str] = ("random",), reward: str = "hand", seed: int | None = None
    ):
        self.batches = [
            GameBatch(
                1,
                **TABLE,
                reward=reward if reward != "points" else "hand",
                opponents=opponents[i % len(opponents)],
                seat="random",
            )
            for i in range(num_envs)
        ]
        self.reward = reward
        self._hands = [0] * num_envs
        self._obs = np.zeros((num_envs, STATE_LEN), np.float32)
        self._masks = np.zeros((num_envs, ACTION_COUNT), np.bool_)
        self._actions = np.zeros(num_envs, np.int64)
        super().__init__(
            num_envs,
            gymnasium.spaces.Box(-10.0, 10.0, (STATE_LEN,), np.float32),
            gymnasium.spaces.Discrete(ACTION_COUNT),
        )
        if seed is not None:
            self.seed(seed)

    def _show(self, i: int) -> None:
        batch = self.batches[i]
        self._obs[i] = batch.observations[0]
        self._masks[i] = batch.masks[0]

    def reset(self) -> np.ndarray:
        first = self._seeds[0]
        seeds = None if first is None else np.random.SeedSequence(first).generate_state(self.num_envs)
        for i, batch in enumerate(self.batches):
            batch.reset(None if seeds is None else int(seeds[i]))
            self._hands[i] = 0
            self._show(i)
        self._reset_seeds()
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, batch in enumerate(self.batches):
            batch.step(self._actions[i : i + 1])
            rewards[i] = self._earned(i, batch)
            if batch.terminated[0]:
                dones[i] = True
                infos[i]["terminal_observation"] = batch.observations[0].copy()
                batch.step(self._actions[i : i + 1])  # deals the next match
                self._hands[i] = 0
            self._show(i)
        return self._obs.copy(), rewards, dones, infos

    def _earned(self, i: int, batch: GameBatch) -> float:
        seat = int(batch.seats[0])
        if self.reward != "points":
            return float(batch.rewards[0, seat])
        game = batch.games[0]
        side = game.side_of(seat)
        margin = 0.0
        for result in game.hand_results[self._hands[i] :]:
            points = result["points"]
            margin += points[side] - max(p for s, p in enumerate(points) if s != side)
        self._hands[i] = len(game.hand_results)
        return margin / 1000

    def action_masks(self) -> np.ndarray:
        """Each row's legal actions, as booleans."""
        return self._masks.copy()

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the matches have no method {method_name!r}")
        return [self._masks[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def close(self) -> None:
        pass


def play_matches(model: MaskablePPO, opponent: str, deals: int, seed: int) -> tuple[float, int]:
    """The model's score (wins, a shared win half) in ``2 * deals`` whole matches against ``opponent``: each deal
    played from both seats, the most likely legal action at every decision."""
    score = 0.0
    for seat in (0, 1):
        batch = GameBatch(deals, **TABLE, reward="match", opponents=opponent, seat=seat)
        batch.reset(seed)  # the same deals, bots and all, from each seat
        pending = np.ones(deals, np.bool_)  # finished rows are dealt again: their matches do not count
        while pending.any():
            masks = batch.masks.astype(np.bool_)
            masks[~masks.any(axis=1)] = True  # a final position, whose action the batch ignores
            actions, _ = model.predict(batch.observations, action_masks=masks, deterministic=True)
            batch.step(actions)
            ended = pending & batch.terminated
            score += float(((batch.rewards[ended, seat] + 1.0) / 2.0).sum())
            pending &= ~batch.terminated
    return score, 2 * deals


class WinRates(BaseCallback):
    """Measures the policy against each bot every ``every`` steps and at the end; writes the CSV and the plot."""

    def __init__(self, out: Path, every: int, matches: int, seed: int):
        super().__init__()
        self.out, self.every, self.deals, self.seed = out, every, max(1, matches // 2), seed
        self.rows: list[dict[str, float]] = []
        self.next_at = 0
        self.started = time.perf_counter()
        self.training_seconds = 0.0
        self._mark = self.started

    def _on_training_start(self) -> None:
        self.started = self._mark = time.perf_counter()
        self.measure()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.measure()
        return True

    def _on_training_end(self) -> None:
        if not self.rows or self.rows[-1]["timesteps"] != self.num_timesteps:
            self.measure()

    def measure(self) -> None:
        self.training_seconds += time.perf_counter() - self._mark
        row: dict[str, float] = {
            "timesteps": self.num_timesteps,
            "train_seconds": round(self.training_seconds, 1),
            "steps_per_second": round(self.num_timesteps / self.training_seconds) if self.num_timesteps else 0,
        }
        assert isinstance(self.model, MaskablePPO)
        text = []
        for bot in EVAL_BOTS:
            score, n = play_matches(self.model, bot, self.deals, self.seed)
            low, high = wilson(score, n)
            row.update({f"{bot}": score / n, f"{bot}_low": low, f"{bot}_high": high, f"{bot}_matches": n})
            text.append(f"vs {bot} {100 * score / n:5.1f}% [{100 * low:4.1f}-{100 * high:4.1f}] of {n}")
        self.rows.append(row)
        print(f"{self.num_timesteps:>9} steps  {row['steps_per_second']:>5} steps/s  " + "  ".join(text), flush=True)
        self.write()
        self.next_at = (self.num_timesteps // self.every + 1) * self.every
        self._mark = time.perf_counter()

    def write(self) -> None:
        with open(self.out / "winrate.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(self.rows[0]))
            writer.writeheader()
            writer.writerows(self.rows)
        plot(self.rows, self.out / "winrate.png")


def plot(rows: list[dict[str, float]], path: Path) -> None:
    """The win rate against each bot over training, its 95% interval shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["timesteps"] / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    for bot, colour in zip(EVAL_BOTS, ("tab:blue", "tab:orange")):
        ax.plot(steps, [r[bot] for r in rows], marker="o", markersize=3, color=colour, label=f"vs {bot}")
        ax.fill_between(
            steps, [r[f"{bot}_low"] for r in rows], [r[f"{bot}_high"] for r in rows], color=colour, alpha=0.2
        )
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set(xlabel="training steps (millions)", ylabel="win rate", ylim=(0, 1), title="MaskablePPO, classic 2 players")
    ax.legend(loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=6_000_000, help="learner decisions to train on")
    parser.add_argument("--envs", type=int, default=32, help="matches played side by side")
    parser.add_argument(
        "--opponents",
        default="random,heuristic,heuristic,heuristic",
        help="bot specs, comma-separated: the rows take turns",
    )
    parser.add_argument("--reward", default="hand", choices=("hand", "match", "points"), help="what training pays")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-every", type=int, default=500_000, help="steps between two measures")
    parser.add_argument("--eval-matches", type=int, default=400, help="matches against each bot per measure")
    parser.add_argument("--eval-seed", type=int, default=12345, help="the deals of every measure")
    parser.add_argument("--n-steps", type=int, default=128, help="steps of each match per rollout")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--net", default="128,128", help="hidden layers of the policy and of the value network")
    parser.add_argument("--threads", type=int, default=1, help="torch's threads")
    parser.add_argument("--verbose", action="store_true", help="print SB3's training statistics too")
    parser.add_argument("--out", type=Path, default=Path("ppo-run"))
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    env = MatchesVecEnv(args.envs, args.opponents.split(","), reward=args.reward, seed=args.seed)
    layers = [int(n) for n in args.net.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        seed=args.seed,
        device="cpu",
        verbose=int(args.verbose),
    )
    rates = WinRates(args.out, args.eval_every, args.eval_matches, args.eval_seed)
    model.learn(args.timesteps, callback=rates)
    model.save(args.out / "model.zip")
    print(f"wrote {args.out / 'winrate.csv'}, {args.out / 'winrate.png'}, {args.out / 'model.zip'}")


if __name__ == "__main__":
    main()
