#!/usr/bin/env python3
"""A baseline table in one command: the policy ``examples/learn_ppo.py`` trains and the package's fixed bots, each
pair over the same seeded deals with the seats swapped, win rates with 95% Wilson intervals, as Markdown.

Needs the ``learn`` extra (see learn_ppo.py for installing torch's CPU build first):

    python examples/baseline.py --train-steps 2000000 --matches 100 --seed 1 --workers 2 --out baseline.md

It trains the policy (learn_ppo.py with ``--timesteps`` and ``--seed``, every other setting its default, into
``--train-dir``) unless ``--model`` names a ``model.zip`` already trained, then plays a round robin with
:func:`millebornes.tournament.run_tournament`: classic Mille Bornes, two players, full matches.  Entrants: ``ppo``
(the policy's most likely legal action, torch on one thread), ``random`` and the levels people are offered at that
table (:func:`millebornes.bots.ladder.offered_levels`: ``medium`` is the ``heuristic`` bot), the searching levels on
a fixed number of playouts a decision instead of their time budget, so the machine's load cannot change a match.
Each pair plays ``--matches`` matches: half as many deals, each dealt twice with the seats swapped.  The same
``--seed`` gives the same table, with any number of workers.  ``--quick`` is a smoke test: a tiny training, 2
matches a pair, 20 playouts for ``hard`` and 40 for ``expert``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from millebornes import __version__
from millebornes.bots import LEVELS, SEARCHING_LEVELS, fixed_budget
from millebornes.bots.ladder import offered_levels
from millebornes.env.policy import POLICY_SPEC, PolicyFactory, load_policy
from millebornes.executors import LocalExecutor
from millebornes.tournament import Summary, run_tournament

TABLE = {"ruleset": "classic", "players": 2, "teams": False}
PLAYOUTS = {"hard": 800, "expert": 24_000}
"""Fixed playouts a decision for the searching levels: what their 30 ms and 900 ms bought on this project's 2-core
machine (docs/strength.md: 30 ms, a median of 720)."""
QUICK_PLAYOUTS = {"hard": 20, "expert": 40}
QUICK_TRAINING = (
    "--timesteps 2048 --envs 8 --n-steps 128 --batch-size 256 --net 32,32 --eval-every 2048 --eval-matches 4"
)


def entrants(levels: Sequence[str], quick: bool) -> list[tuple[str, str]]:
    """(name in the table, bot spec) of every entrant: the policy, ``random``, then the levels."""
    out = [("ppo", POLICY_SPEC), ("random", "random")]
    if len(set(levels)) < len(levels):
        raise SystemExit(f"a level is named twice in {','.join(levels)}")
    for level in levels:
        if level not in LEVELS:
            raise SystemExit(f"no level {level!r}; levels are: {', '.join(LEVELS)}")
        if level in SEARCHING_LEVELS:
            playouts = (QUICK_PLAYOUTS if quick else PLAYOUTS)[level]
            out.append((f"{level} ({playouts} playouts)", fixed_budget(level, playouts)))
        else:
            spec = LEVELS[level]
            out.append((level if spec == level else f"{level} (= {spec})", spec))
    return out


def train(train_dir: Path, steps: int, seed: int, quick: bool) -> Path:
    """Train the policy with learn_ppo.py's own ``main`` and return its ``model.zip``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import learn_ppo

    argv = QUICK_TRAINING.split() if quick else ["--timesteps", str(steps)]
    argv += ["--seed", str(seed), "--out", str(train_dir)]
    print("training: python examples/learn_ppo.py " + " ".join(argv), file=sys.stderr, flush=True)
    learn_ppo.main(argv)
    return train_dir / "model.zip"


def versions() -> str:
    found = [f"millebornes {__version__}"]
    for package in ("torch", "sb3-contrib", "stable-baselines3"):
        try:
            found.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return ", ".join(found + [f"Python {platform.python_version()}"])


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(summary: Summary, names: dict[str, str], matches: int, seed: int, training: str) -> str:
    """The table: one line per pair (the first entrant's score against the second), then one per entrant."""
    games = summary["results"]
    deals = len({r["seed"] for r in games})
    dealt = f"{deals} deal{'s' if deals != 1 else ''} (tournament seed {seed})"
    lines = [
        f"Classic Mille Bornes, two players (no teams), full matches. Every pair of entrants played {matches} "
        f"matches: {dealt}, each dealt twice with the seats swapped. A win counts 1, "
        "a shared win 1/2; the interval is the 95% Wilson score interval.",
        "",
        f"Policy: {training}. Software: {versions()}.",
        "",
        "| entrant | against | matches | score | win rate | 95% interval |",
        "|---|---|---|---|---|---|",
    ]
    for h in summary["head_to_head"]:
        lines.append(
            f"| {names[h['a']]} | {names[h['b']]} | {h['games']} | {h['a_score']:g} | {pct(h['a_rate'])} "
            f"| {pct(h['ci_low'])}-{pct(h['ci_high'])} |"
        )
    lines += [
        "",
        "| entrant | bot spec | matches | score | win rate | 95% interval | Elo |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary["table"]:
        lines.append(
            f"| {names[row['bot']]} | `{row['spec']}` | {row['matches']} | {row['wins']:g} | {pct(row['win_rate'])} "
            f"| {pct(row['ci_low'])}-{pct(row['ci_high'])} | {row['elo']:.0f} |"
        )
    if summary["forfeits"]:
        lines += ["", f"Forfeits: {len(summary['forfeits'])} (first: {summary['forfeits'][0]['message']})."]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per pair (rounded up to an even number)")
    parser.add_argument("--seed", type=int, default=1, help="the training's seed and the tournament's deals")
    parser.add_argument("--workers", type=int, default=1, help="processes the matches run on")
    parser.add_argument("--out", type=Path, default=Path("baseline.md"), help="the Markdown table to write")
    parser.add_argument("--json", type=Path, help="also write every match's result and the statistics as JSON")
    parser.add_argument("--model", type=Path, help="a model.zip learn_ppo.py wrote (else one is trained)")
    parser.add_argument("--train-steps", type=int, default=6_000_000, help="learner decisions to train on")
    parser.add_argument("--train-dir", type=Path, default=Path("baseline-ppo"), help="where the training writes")
    parser.add_argument(
        "--levels", help="comma-separated levels to enter (default: those offered at two-player classic)"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke test: tiny training, 2 matches, 20-40 playouts")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.workers < 1 or args.train_steps < 1:
        parser.error("--matches, --workers and --train-steps must be at least 1")
    matches = 2 if args.quick else args.matches + args.matches % 2
    levels = args.levels.split(",") if args.levels else offered_levels(TABLE["ruleset"], TABLE["players"])
    field = entrants(levels, args.quick)

    start = time.perf_counter()
    model = args.model or train(args.train_dir, args.train_steps, args.seed, args.quick)
    policy = load_policy(model)
    training = f"MaskablePPO (examples/learn_ppo.py), {policy.num_timesteps:,} training steps, seed {policy.seed}"
    specs = [spec for _, spec in field]
    names = dict(zip(specs, (name for name, _ in field)))

    def progress(done: int, total: int) -> None:
        if done == total or done % max(1, total // 20) == 0:
            print(f"{done}/{total} matches, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    with LocalExecutor(args.workers) as executor:
        summary = run_tournament(
            specs,
            factory=PolicyFactory(model),
            games=matches,
            seed=args.seed,
            executor=executor,
            progress=progress,
            **TABLE,
        )
    text = markdown(summary, names, matches, args.seed, training)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    if args.json is not None:
        args.json.write_text(json.dumps({"entrants": names, **summary}), encoding="utf-8")
    print(text)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return text


if __name__ == "__main__":
    main()
