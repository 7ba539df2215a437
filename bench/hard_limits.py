"""What limits the flat search?  The duel (greedy's move against the heuristic's, on shared sampled
worlds: ``hard`` until it searched every action from the network's move) measured against heuristic
with one handicap lifted at a time, on the same deals (the rows, by their ``--only`` names; ``hard``
is the duel itself):

- ``budget``: the same duel with a larger iteration budget (``--big``, 1,500 by default): does it
  need more playouts?
- ``known``: every world holds the opponents' true hands (only the stock is reshuffled), a
  CHEAT for measurement only: does it need to guess hidden cards better?
- ``heuristic``: the playouts are played by the heuristic bot itself (the real opponent's
  policy, ~100 times slower than greedy): does it need a truer model of play?
- ``candidates``: the greedy and heuristic moves and the neural network's three best, searched
  with the larger budget (needs NumPy): are better moves found among a few likely ones?

The same questions for the search over every legal action (``scale=1500,confidence=0.5``):
``full`` (``--big`` iterations), ``full-budget`` (``--huge``, 5,000), ``full-known`` (``--big``,
the opponents' hands known), ``full-heuristic`` (heuristic playouts, ``--small``; compare it
with ``full-small``, the same budget with greedy playouts), ``full-mixed`` (``--small``; the
heuristic plays only the other side's seats in the playouts, greedy the searching side's: the
real opponent's exact policy with the search's usual model of its own play) and ``full-network``
(``--small``; the shipped network plays the searching side's seats in the playouts, greedy the
others': the search's model of its own later play made the real one's, ~35 times slower).
``full-oracle`` (``--small``) is a ceiling, not a handicap: every world is the true game, the
stock's order too, so the search knows every future draw (a CHEAT nobody can have).

The budgets are iterations, not milliseconds, so a busy machine changes the time taken but not
the result.  ``--small 160`` is what 40 ms bought with the pure-Python engine (the
figures in docs/strength.md); the compiled engine buys 1,300 to 1,800 (``python bench/search.py``).

    python bench/hard_limits.py --deals 200 --seed 2 [--small 160] [--big 1500] [--only known]
        [--part 0/2]   (the first half of the deals: run the halves in two processes)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import time

import tune_common as T
from millebornes.actions import ACTION_CODES, ACTION_NAMES
from millebornes.bots import ismcts, make_bot
from millebornes.bots.rollout import hand_win_share, side_reward

DUEL = "ismcts:iterations={n},challenger=heuristic,scale=150,widen=0,confidence=0.5"


class _TrueWorlds:
    """Worlds that are the true game with the stock reshuffled (what a perfect card reader has);
    ``oracle``: the stock's true order too (what nobody has: every future draw known)."""

    def __init__(self, game, oracle: bool = False):
        self.game, self.oracle = game, oracle

    def sample(self, rng):
        world = self.game.clone()
        world.seed = rng.getrandbits(62)
        if not self.oracle:
            rng.shuffle(world._stock)
        return world


def duel_player(n: int, true_worlds: bool = False, more=None, full: bool = False,
                playouts: tuple | None = None, oracle: bool = False):
    """``hard``'s duel built by hand (the same seeds as ``IsmctsBot``), so that a row can deal its
    worlds from the true game (``oracle``: with the stock's order), add ``more(observation, legal)``
    to the candidates or play its playouts with other players (``playouts``: the factories for the
    searching side's seats and for the others'); ``full``: search every legal action instead
    (``scale=1500``)."""
    def make(seat: int, seed: int):
        greedy, heuristic = make_bot("greedy", seed), make_bot("heuristic", seed)
        decisions = [0]

        def act(g):
            decisions[0] += 1
            obs, legal = g.observation(seat), g.legal_actions()
            base = greedy.choose(obs, legal)
            candidates = None
            if not full:
                candidates = [base, heuristic.choose(obs, legal)] + (more(obs, legal) if more else [])
                candidates = list(dict.fromkeys(candidates))
                if len(candidates) == 1:
                    return ACTION_CODES[base]
            search = ismcts.Search(obs, seed=seed * 1_000_003 + decisions[0], baseline=base, widen=0,
                                   confidence=0.5, scale=1500 if full else 150, candidates=candidates)
            if true_worlds or oracle:
                search.det = _TrueWorlds(g, oracle)
            patch = (_patched(ismcts, "play_first", functools.partial(_policy_play_first, ours=playouts[0],
                                                                      theirs=playouts[1]))
                     if playouts else contextlib.nullcontext())
            with patch:
                search.run(n)
            return ACTION_CODES[ACTION_NAMES[search.best]]
        return act
    return make


def _policy_play_first(world, first, side, scale, rng, policy="greedy", ours=T.heuristic_player,
                       theirs=T.heuristic_player):
    """``rollout.play_first`` (the flat search's iteration) with ``ours`` playing ``side``'s seats
    after ``first`` and ``theirs`` the other seats (player factories of tune_common).  The heuristic
    without noise and the network are stateless, so fresh ones make the real players' very choices."""
    hand = world.hand_number
    world._apply(first)
    T.finish(world, [(ours if world.side_of(q) == side else theirs)(q, 0) for q in range(world.players)], hand)
    return side_reward(world, hand, side, scale), hand_win_share(world, hand, side)


def network_top(top: int = 3):
    """The network's ``top`` best legal actions (needs NumPy)."""
    import numpy as np

    from millebornes.bots.neural import scores
    from millebornes.env import features as F
    net = make_bot("neural")

    def more(obs, legal):
        codes = [ACTION_CODES[a] for a in legal]
        ctx = F.Context(obs)
        advice = net.advisors(obs, codes) if net.advisors is not None else None
        s = scores(net.params, F.state_vector(obs, ctx), F.action_matrix(obs, codes, ctx, advice))
        return [legal[i] for i in np.argsort(-s, kind="stable")[:top]]
    return more


@contextlib.contextmanager
def _patched(module, name, value):
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--small", type=int, default=160, help="hard's budget in iterations")
    ap.add_argument("--big", type=int, default=1500, help="the larger budget of the 'budget' row")
    ap.add_argument("--huge", type=int, default=5000, help="the budget of the 'full-budget' row")
    ap.add_argument("--part", default="0/1", help="K/N: play only the K-th of N equal shares of the deals")
    ap.add_argument("--only", action="append", help="run only these rows (repeatable)")
    args = ap.parse_args(argv)
    G, H, N = T.greedy_player, T.heuristic_player, T.spec_player("neural")
    rows = {
        "hard": (f"duel, {args.small} iterations", T.spec_player(DUEL.format(n=args.small))),
        "budget": (f"duel, {args.big} iterations", T.spec_player(DUEL.format(n=args.big))),
        "known": ("duel, opponents' hands known", duel_player(args.small, true_worlds=True)),
        "heuristic": ("duel, heuristic playouts", duel_player(args.small, playouts=(H, H))),
        "candidates": (f"g+h+neural top 3, {args.big} iterations", duel_player(args.big, more=network_top(3))),
        "full": (f"full, {args.big} iterations", duel_player(args.big, full=True)),
        "full-budget": (f"full, {args.huge} iterations", duel_player(args.huge, full=True)),
        "full-known": ("full, opponents' hands known", duel_player(args.big, full=True, true_worlds=True)),
        "full-small": (f"full, {args.small} iterations", duel_player(args.small, full=True)),
        "full-heuristic": ("full, heuristic playouts", duel_player(args.small, full=True, playouts=(H, H))),
        "full-mixed": ("full, heuristic opponents in playouts", duel_player(args.small, full=True, playouts=(G, H))),
        "full-network": ("full, the network plays our seats", duel_player(args.small, full=True, playouts=(N, G))),
        "full-oracle": ("full, every card known", duel_player(args.small, full=True, oracle=True)),
    }
    unknown = set(args.only or ()) - set(rows)
    if unknown:
        ap.error(f"unknown rows {sorted(unknown)}; the rows are {', '.join(rows)}")
    k, n = (int(x) for x in args.part.split("/"))
    seeds = T.deal_seeds(args.seed, args.deals)[k * args.deals // n:(k + 1) * args.deals // n]
    print(f"classic 2p, {len(seeds)} deals x 2 seats (seed {args.seed}, part {args.part}), vs heuristic")
    for key in args.only or rows:
        name, player = rows[key]
        start = time.perf_counter()
        res = T.paired(player, T.heuristic_player, seeds=seeds)
        print(f"{name:>30}: {T.fmt(res)}  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
