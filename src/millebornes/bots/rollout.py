"""A fast greedy policy over a full game, for search playouts.

Search bots play thousands of games per decision inside *possible worlds* (determinized games),
where every card is known by construction, so the policy may read the game directly.  It works on
action codes and the engine's small integer state; it is a playout policy, not a player: the
bots people meet decide from observations only.
"""

from __future__ import annotations

import random

from .. import cards as C
from ..actions import ACTION_NAMES, ATTACK_BASE, COUP_FOURRE, DISCARD_BASE, DRAW, END_HAND, EXTEND, TAKE_DISCARD
from ..state import CF_DECISION, DRAW_DECISION, EXTENSION_DECISION, Game

NK = C.NUM_KINDS
_SAFETY_OF = [C.SAFETY_OF.get(k, -1) for k in range(NK)]
_REMEDIES = frozenset((C.ROLL, C.END_OF_LIMIT, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS))
_HAZARD_OF_REMEDY = {r: h for h, r in C.REMEDY_OF.items()}
# Discard preference when nothing better is known: low first.
_KEEP = [0] * NK
for _rank, _k in enumerate((C.END_OF_LIMIT, C.D25, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS, C.D50, C.D75,
                            C.SPEED_LIMIT, C.STOP, C.ROLL, C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.D100,
                            C.D200, C.RIGHT_OF_WAY, C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE)):
    _KEEP[_k] = _rank


def greedy_code(g: Game, legal: list[int]) -> int:
    """A sensible action code: safeties and remedies when hurt, the longest distance, an attack on
    the leader, else the least useful discard."""
    d = g._decision
    if d == CF_DECISION:
        return COUP_FOURRE
    if d == DRAW_DECISION:
        top = g._discard[-1]
        p = g._to_act
        return TAKE_DISCARD if top >= C.RIGHT_OF_WAY or (
            top in _REMEDIES and g._own[g._side_of[p]] >> top & 1) else DRAW
    if d == EXTENSION_DECISION:
        s = g._side_of[g._to_act]
        others = max((g._dist[t] for t in g._opponents[s]), default=0)
        return EXTEND if others <= g._dist[s] - 300 and len(g._stock) > 15 else END_HAND
    p = g._to_act
    s = g._side_of[p]
    battle = g._battle[s]
    top = battle[-1] if battle else -1
    best_dist = best_attack = -1
    lead = -1
    for code in legal:
        if code < C.RIGHT_OF_WAY:
            if code >= C.ROLL:
                return code  # a remedy the side needs (legal means it answers its top card)
            if code > best_dist and code < 5:
                best_dist = code
        elif code < DISCARD_BASE:
            if top >= 0 and _SAFETY_OF[top] == code:
                return code
        elif code >= ATTACK_BASE:
            t, k = divmod(code - ATTACK_BASE, NK)
            score = g._dist[t] * 4 + (k != C.SPEED_LIMIT)
            if score > lead:
                lead, best_attack = score, code
    if best_dist >= 0:
        return best_dist
    if best_attack >= 0:
        return best_attack
    if len(g._stock) < 8:
        for code in legal:
            if C.RIGHT_OF_WAY <= code < DISCARD_BASE:
                return code
    cnt = g._cnt[p]
    safe = g._safe[s]
    worst, worst_score = legal[-1], 1 << 30
    for code in legal:
        if code < DISCARD_BASE or code >= ATTACK_BASE:
            continue
        k = code - DISCARD_BASE
        score = _KEEP[k] * 4 - cnt[k]
        if k in _HAZARD_OF_REMEDY and safe >> _SAFETY_OF[_HAZARD_OF_REMEDY[k]] & 1:
            score -= 200  # a remedy for a hazard the side is protected from
        if score < worst_score:
            worst, worst_score = code, score
    return worst


def play_out(g: Game, rng, policy: str = "greedy", max_steps: int = 10_000) -> int:
    """Play the current hand of ``g`` to its end (in place); returns the number of decisions."""
    hand = g.hand_number
    steps = 0
    apply = g._apply
    legal_codes = g.legal_codes
    rand = rng.random
    greedy = policy == "greedy"
    while not g._over and g.hand_number == hand and steps < max_steps:
        legal = legal_codes()
        if greedy:
            code = greedy_code(g, legal)
        else:
            code = legal[int(rand() * len(legal))]
        apply(code)
        steps += 1
    return steps


class GreedyBot:
    """The playout policy as a player: it reads only the seat's own hand and the public state."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, observation: dict, legal: list[str]) -> str:
        from ..determinize import determinize
        world = determinize(observation, self.rng)
        code = greedy_code(world, world.legal_codes())
        action = ACTION_NAMES[code]
        return action if action in legal else legal[0]
