"""Paired hands between two players, in process and fast: the one helper the strength experiments
of this folder share (tune_search, tune_greedy, overrides, regret).

A *player* is a factory ``make(seat, seed) -> act(game) -> code``.  Each deal (the tournament's
deal seeds for ``--seed``, so the same deals as ``millebornes tournament --hands --seed S``) is
played twice, player A on side 0 then on side 1; a hand is won by the side with more points in it
(ties count half).  The greedy policy acts on the true game directly: it reads only the seat's own
hand and the public state, so this is the same choice as ``GreedyBot`` (without its determinization).
"""

from __future__ import annotations

import math

import millebornes as mb
from millebornes.actions import ACTION_CODES
from millebornes.bots import make_bot
from millebornes.bots.heuristic import HeuristicBot
from millebornes.bots.rollout import greedy_code
from millebornes.tournament import _derived_seed


def greedy_player(seat: int, seed: int):
    return lambda g: greedy_code(g, g.legal_codes())


def heuristic_player(seat: int, seed: int):
    bot = HeuristicBot(seed=seed)

    def act(g):
        return ACTION_CODES[bot.choose(g.observation(seat), g.legal_actions())]

    return act


def spec_player(spec: str):
    def make(seat: int, seed: int):
        bot = make_bot(spec, seed)

        def act(g):
            return ACTION_CODES[bot.choose(g.observation(seat), g.legal_actions())]

        return act

    return make


def deal_seeds(seed: int, deals: int) -> list[int]:
    return [_derived_seed("deal", seed, d) for d in range(deals)]


def finish(g, acts, hand: int = 0) -> dict:
    """Play ``g`` to the end of hand ``hand`` (``acts[seat](g)`` chooses where there is a choice);
    that hand's result."""
    while len(g.hand_results) <= hand and not g.is_over:
        legal = g.legal_codes()
        g.act_code(legal[0] if len(legal) == 1 else acts[g.to_act](g))
    return g.hand_results[hand]


def play_hand(ruleset: str, players: int, teams, deal_seed: int, makers) -> dict:
    """One hand; ``makers[side]`` builds the players of that side.  The first hand's result."""
    g = mb.new_game(ruleset, players=players, teams=teams, seed=deal_seed)
    return finish(g, [makers[g.side_of(seat)](seat, _derived_seed("bot", deal_seed, seat)) for seat in range(players)])


def hand_score(result: dict, side: int) -> float:
    """What a hand's result is worth to ``side`` of two: 1 won, 0.5 tied, 0 lost."""
    w = result["winners"]
    return 0.5 if len(w) == 2 else 1.0 if side in w else 0.0


def paired(a, b, ruleset: str = "classic", players: int = 2, teams=None, seeds=()) -> dict:
    """A against B over ``seeds`` (each deal twice, sides swapped): A's score per hand."""
    scores = []
    margin = 0.0
    nsides = mb.new_game(ruleset, players=players, teams=teams, seed=0).nsides
    assert nsides == 2
    for s in seeds:
        for side_a in (0, 1):
            makers = [a, b] if side_a == 0 else [b, a]
            r = play_hand(ruleset, players, teams, s, makers)
            scores.append(hand_score(r, side_a))
            margin += r["points"][side_a] - r["points"][1 - side_a]
    return summary(scores, margin)


def summary(scores: list[float], margin: float = 0.0) -> dict:
    """Rate and standard error of paired hands' ``scores`` (a deal's two hands side by side), with
    ``margin`` the summed points margin."""
    n = len(scores)
    rate = sum(scores) / n
    # standard error over deals (the two hands of a deal are correlated)
    per_deal = [scores[i] + scores[i + 1] for i in range(0, n, 2)]
    m = sum(per_deal) / len(per_deal)
    var = sum((x - m) ** 2 for x in per_deal) / max(1, len(per_deal) - 1)
    se = math.sqrt(var / len(per_deal)) / 2
    return {"hands": n, "rate": rate, "se": se, "margin": margin / n, "scores": scores}


def fmt(res: dict) -> str:
    return (
        f"{100 * res['rate']:.1f}% +- {100 * res['se']:.1f} (1 s.e.) of {res['hands']} hands, "
        f"mean margin {res['margin']:+.0f} pts"
    )
