"""Train the ``neural`` bot by imitation, in NumPy (no torch needed).

    python examples/train.py --matches 400 --workers 2                 # a local process pool
    python examples/train.py --matches 400 --backend ray               # a Ray cluster
    python examples/train.py --matches 0 --data a.npz --data b.npz --steps 6000 --out my_weights.npz
    python examples/train.py --benchmark src/millebornes/bots/neural_weights.npz   # 400 matches, seed 11

1. Games (``--matches`` classic 2-player matches, run through the tournament executors:
   ``--backend local|ray``, ``--workers``).  The default teacher is the *duel*: at each decision
   the greedy policy and the heuristic bot each choose; when they agree that is the label, when they
   differ both moves are played in the same ``--duel-worlds`` possible worlds dealt from the seat's
   observation (``mb.determinize``), each hand played out by the greedy policy, and the move with the
   better mean result (tanh of the points margin / 700) is the label and is played.  Only
   ``--agree-keep`` of the agreeing decisions are kept (they teach little).  ``--teacher greedy``
   imitates the greedy policy alone; ``--teacher SPEC`` any bot, e.g. the expert's search (its
   choices beat the greedy-heuristic duel 62-38 in 100 hands, so a network that imitates them could
   lift ``hard``, which plays from the network's move);
   ``--q-share`` adds rollout values of every legal action for a second (value) head, whose weight
   ``--alphas`` is chosen by measurement.
2. Fit (``millebornes.env.imitation.fit``): the action-scoring network of bots/neural.py, a softmax
   over each decision's legal actions against the teacher's choice (cross-entropy), Adam.  With
   the duel teacher the network also reads which legal action each advisor (greedy, heuristic)
   would play, so it learns when to follow which, from the observation features.
3. Each candidate is measured against ``heuristic`` (paired full matches, ``--eval-seed``, apart from
   the benchmark's seed 11) and the best is written to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from millebornes import tournament as T
from millebornes.bots.neural import NeuralBot, init_params, load_params, save_params
from millebornes.env import imitation as I
from millebornes.executors import make_executor


class StudentFactory:
    """Builds the candidate network as ``student`` and built-in bots otherwise (picklable)."""

    def __init__(self, params: dict, name: str = "student"):
        self.params = params
        self.name = name

    def __call__(self, spec: str, seed: int):
        return NeuralBot(seed, params=self.params) if spec == self.name else T.make_player(spec, seed)


def gather(executor, seeds: list[int], chunk: int = 10, **task) -> dict:
    tasks = [dict(task, seeds=seeds[i : i + chunk]) for i in range(0, len(seeds), chunk)]
    start = time.perf_counter()
    parts = sorted(executor.map_unordered(I.collect, tasks), key=lambda p: p["seeds"][0])  # a fixed order
    print(f"  {len(tasks)} batches of {chunk} matches, {time.perf_counter() - start:.0f} s")
    return I.merge(parts)


def measure(executor, params: dict, games: int, seed: int, opponent: str = "heuristic") -> dict:
    s = T.run_tournament(
        ["student", opponent],
        "classic",
        players=2,
        games=games,
        seed=seed,
        executor=executor,
        factory=StudentFactory(params),
    )
    return next(r for r in s["table"] if r["spec"] == "student")


def decision_times(params: dict, matches: int = 20, seed: int = 0) -> dict:
    """Milliseconds per NeuralBot.choose over whole matches against heuristic (decisions with a choice)."""
    from millebornes import new_game
    from millebornes.bots.heuristic import HeuristicBot

    times = []
    for i in range(matches):
        game = new_game("classic", players=2, seed=seed + i)
        bots = (
            [NeuralBot(i, params=params), HeuristicBot(i)]
            if i % 2 == 0
            else [HeuristicBot(i), NeuralBot(i, params=params)]
        )
        while not game.is_over:
            seat = game.to_act
            legal = game.legal_actions()
            obs = game.observation(seat)
            if isinstance(bots[seat], NeuralBot) and len(legal) > 1:
                start = time.perf_counter()
                action = bots[seat].choose(obs, legal)
                times.append(1000 * (time.perf_counter() - start))
            else:
                action = bots[seat].choose(obs, legal)
            game.act(action, seat)
    times.sort()
    return {
        "decisions": len(times),
        "median_ms": round(times[len(times) // 2], 3),
        "p99_ms": round(times[int(0.99 * len(times))], 3),
        "max_ms": round(times[-1], 2),
    }


def benchmark(path: str, games: int, seed: int, workers: int, backend: str) -> None:
    """The benchmark of docs/env.md: paired full classic 2-player matches against heuristic, and
    the decision time."""
    params = load_params(path)
    with make_executor(backend, workers) as executor:
        s = T.run_tournament(
            ["neural", "heuristic"],
            "classic",
            players=2,
            games=games,
            seed=seed,
            executor=executor,
            factory=StudentFactory(params, name="neural"),
        )
    print(T.format_table(s))
    print("decision time:", json.dumps(decision_times(params)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=400, help="new teacher matches to collect (0: none)")
    ap.add_argument("--first-seed", type=int, default=20_000, help="match i of the collection has seed first-seed + i")
    ap.add_argument("--data", action="append", default=[], help="an .npz of collected decisions (repeatable)")
    ap.add_argument("--save-data", help="write the newly collected decisions to this .npz")
    ap.add_argument("--student", help="weights that play --student-share of the moves while collecting (DAgger)")
    ap.add_argument("--student-share", type=float, default=0.5)
    ap.add_argument(
        "--teacher",
        default="duel",
        help="duel: greedy's or heuristic's choice, whichever does better in playouts; greedy; or "
        "a bot spec, such as the expert's search with an iteration budget "
        "'ismcts:iterations=2000,scale=150,widen=0,confidence=1' (expert iteration).  "
        "Except with greedy, the network also reads both advisors' choices (advice features)",
    )
    ap.add_argument("--hands", action="store_true", help="collect single hands rather than matches")
    ap.add_argument("--duel-worlds", type=int, default=32, help="possible worlds per duel")
    ap.add_argument(
        "--agree-keep",
        type=float,
        default=0.3,
        help="share of the decisions where greedy and heuristic agree kept as examples",
    )
    ap.add_argument("--q-share", type=float, default=0.0, help="share of decisions given rollout values")
    ap.add_argument("--backend", default="local", choices=["local", "ray"])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=96)
    ap.add_argument("--hidden2", type=int, default=48)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--q-weight", type=float, default=1.0)
    ap.add_argument("--alphas", default="0", help="value-head weights to compare (with --q-share)")
    ap.add_argument("--eval-games", type=int, default=200, help="matches against heuristic per alpha")
    ap.add_argument("--eval-seed", type=int, default=101)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="neural_weights.npz")
    ap.add_argument(
        "--benchmark",
        metavar="WEIGHTS",
        help="only measure these weights: --games matches against heuristic, and decision times",
    )
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--benchmark-seed", type=int, default=11)
    args = ap.parse_args()
    if args.benchmark:
        benchmark(args.benchmark, args.games, args.benchmark_seed, args.workers, args.backend)
        return

    teacher = {
        "teacher": args.teacher,
        "q_share": args.q_share,
        "duel_worlds": args.duel_worlds,
        "agree_keep": args.agree_keep,
        "advice": args.teacher != "greedy",
        "hands": args.hands,
    }
    with make_executor(args.backend, args.workers) as executor:
        parts = []
        for path in args.data:
            with np.load(path) as f:
                parts.append({k: f[k] for k in f.files} | {"seconds": 0.0})
            print(f"loaded {len(parts[-1]['labels'])} decisions from {path}")
        if args.matches:
            if args.student:
                teacher.update(student=load_params(args.student), student_share=args.student_share)
            print(f"collecting {args.matches} matches ({args.backend}, {executor.workers} workers)")
            seeds = list(range(args.first_seed, args.first_seed + args.matches))
            new = gather(executor, seeds, **teacher)
            if args.save_data:
                np.savez(args.save_data, **{k: v for k, v in new.items() if k not in ("seconds", "seeds")})
            parts.append(new)
        data = I.merge(parts)
        holdout = gather(
            executor, list(range(900_000, 900_010)), **dict(teacher, q_share=0.0, student=None, student_share=0.0)
        )
        print(f"{len(data['labels'])} decisions, {int(data['has_q'].sum())} with rollout values")

        params = I.add_value_head(init_params(args.hidden, args.hidden2, seed=args.seed))
        params["advice"] = np.float32(args.teacher != "greedy")
        start = time.perf_counter()
        I.fit(
            data,
            params,
            steps=args.steps,
            batch=args.batch,
            lr=args.lr,
            seed=args.seed,
            holdout=holdout,
            q_weight=args.q_weight,
            log_every=max(1, args.steps // 10),
            log=lambda e: print("  " + json.dumps({k: round(v, 4) for k, v in e.items()})),
        )
        print(f"fit: {time.perf_counter() - start:.0f} s")

        best = None
        for alpha in [float(a) for a in args.alphas.split(",")]:
            row = measure(executor, I.fold(params, alpha), args.eval_games, args.eval_seed)
            print(
                f"alpha {alpha:g}: {100 * row['win_rate']:.1f}% of {row['matches']} matches against heuristic "
                f"(95% CI {100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%), {row['ms_mean']:.2f} ms/decision"
            )
            if best is None or row["win_rate"] > best[1]:
                best = (alpha, row["win_rate"])
    save_params(
        I.fold(params, best[0]),
        args.out,
        alpha=best[0],
        hidden=args.hidden,
        steps=args.steps,
        decisions=len(data["labels"]),
    )
    print(f"wrote {args.out} (alpha {best[0]:g})")


if __name__ == "__main__":
    main()
