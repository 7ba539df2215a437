"""Do the search's overrides of the network help against the REAL opponent?  (measurement only)

``hard`` plays the network's move unless its search (greedy playouts for every seat) finds better.
Whether that model is right is asked here without tournament noise: at each decision where the
search overrides the network (and, with ``--rejected``, where a rival lost its duel against the
network's move), the TRUE game is cloned twice, each clone takes one of the two moves, and both
hands are played to their end by the real players: the heuristic bot for the other side (stateless:
a fresh one chooses as the real one does) and the network for the bot's own side.  Both clones share
the true stock and hands, so most of the luck cancels; the difference of the two results is one
sample of what the override gains.  Grouped by kind (``discard->attack``: the network discarded,
the search attacked).

    python research/overrides.py --deals 50 --seed 31 [--spec hard] [--rejected] [--every 0.2]

``--every P`` asks the same of the network itself: at a share P of the bot's decisions, every legal
action other than the network's move is played out against it this way (rows ``every A->B``: the
network played an A, the other action is a B).  A kind of deviation that gains on average would be
a mistake the network makes again and again, which more training could fix.

What it showed (150 deals each, seeds 31 and 32, the ``hard`` of then, without ``prior``): about 6.5
overrides a hand, worth +0.003 and -0.001 of a hand each on average (about 1,950 each): too little to
tell one kind of override from another with this many hands.  The search's 2-3 points over the
network are a sum of many tiny gains, not a few big catches.

``--spec neural --every 0.25`` (300 deals each, seeds 31 and 32: 44,700 deviations, at about a
quarter of the network's 43,600 decisions): no kind of deviation gains.  Of the kinds with 200
cases or more in a seed, none is better than the network's move by as much as one standard error (drawing
instead of taking the discard: -0.001 and +0.016 of a hand, se 0.02), and most lose clearly
(discarding where it played distance: -0.09 and -0.07, 6 and 5 se).  The mistakes the search
catches are particular to a position, not a habit that more training on these values could fix.
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import time

import tune_common as T

import millebornes as mb
from millebornes import cards as C
from millebornes.actions import ACTION_CODES, ACTION_NAMES
from millebornes.bots import make_bot
from millebornes.bots.heuristic import HeuristicBot
from millebornes.bots.neural import NeuralBot
from millebornes.tournament import _derived_seed


def kind(action: str) -> str:
    """``discard``, ``draw``... or, for a card played, its group (a hazard played is an ``attack``)."""
    words = action.split()
    if words[0] != "play":
        return words[0]
    group = C.GROUP[C.card_kind(words[1])]
    return "attack" if group == C.HAZARD else group


def finish(game, code: int, side: int, acts: list) -> tuple[float, float]:
    """The side's (win share, points margin) when ``code`` is played and the real players finish."""
    g = game.clone()
    g.act_code(code)
    r = T.finish(g, acts, 0)
    w = r["winners"]
    return (1.0 / len(w)) if side in w else 0.0, r["points"][side] - r["points"][1 - side]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--spec", default="hard")
    ap.add_argument("--rejected", action="store_true", help="also the rivals that lost their duel")
    ap.add_argument(
        "--every",
        type=float,
        default=0.0,
        help="share of decisions where every legal action is played out against the network's",
    )
    args = ap.parse_args(argv)
    neural = NeuralBot()
    gains: dict[str, list[tuple[int, float, float]]] = collections.defaultdict(list)  # (hand, win, margin)
    start = time.perf_counter()
    decisions = 0
    sampler = random.Random(args.seed)
    for d, deal in enumerate(T.deal_seeds(args.seed, args.deals)):
        for bot_side in (0, 1):
            g = mb.new_game("classic", players=2, seed=deal)
            bot = make_bot(args.spec, _derived_seed("bot", deal, bot_side))
            heur = HeuristicBot(seed=0)
            # the real players, to finish a hand: the network for the bot's side (stateless; the
            # heuristic too, without noise, so fresh ones choose as the real ones do)
            acts = [
                T.spec_player("neural")(q, 0) if g.side_of(q) == bot_side else T.heuristic_player(q, 0)
                for q in range(g.players)
            ]
            while not g.hand_results:
                legal = g.legal_actions()
                seat = g.to_act
                if len(legal) == 1:
                    g.act(legal[0])
                    continue
                obs = g.observation(seat)
                if g.side_of(seat) != bot_side:
                    g.act(heur.choose(obs, legal))
                    continue
                decisions += 1
                net = neural.choose(obs, legal)
                move = bot.choose(obs, legal)
                pairs = []
                if move != net:
                    pairs.append(("override", move))
                elif args.rejected and bot.last is not None and getattr(bot.last, "rival", None) is not None:
                    pairs.append(("rejected", ACTION_NAMES[bot.last.rival]))
                if args.every and sampler.random() < args.every:
                    pairs += [("every", other) for other in legal if other != net]
                # the players are deterministic, so the network's move is played out once for all the others
                b = finish(g, ACTION_CODES[net], bot_side, acts) if pairs else None
                for label, other in pairs:
                    a = finish(g, ACTION_CODES[other], bot_side, acts)
                    key = f"{label} {kind(net)}->{kind(other)}"
                    gains[key].append((2 * d + bot_side, a[0] - b[0], a[1] - b[1]))
                    gains[label].append((2 * d + bot_side, a[0] - b[0], a[1] - b[1]))
                g.act(move)
        if (d + 1) % 10 == 0:
            print(f"  {d + 1} deals, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"{args.spec}: {decisions} decisions, {args.deals} deals x 2, seed {args.seed}")
    print("win gain: the mean gain in the hand's win share of one such decision; se: its standard error")
    print("over hands (the decisions of one hand are correlated); margin: the mean gain in points")
    print(f"{'what':34} {'n':>5} {'win gain':>9} {'se':>6} {'margin':>7}")
    for key in sorted(gains, key=lambda k: (" " in k, k)):
        xs = gains[key]
        n = len(xs)
        m = sum(x[1] for x in xs) / n
        per_hand: dict[int, float] = collections.defaultdict(float)
        for hand, win, _ in xs:
            per_hand[hand] += win - m
        se = math.sqrt(sum(v * v for v in per_hand.values())) / n  # clustered by hand
        print(f"{key:34} {n:5d} {m:+9.4f} {se:6.4f} {sum(x[2] for x in xs) / n:+7.1f}")


if __name__ == "__main__":
    main()
