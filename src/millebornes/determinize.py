"""Determinization: full games consistent with what one seat has seen.

Search bots cannot look at hidden cards, so they reason over *possible worlds*: the observation's
public state and the seat's own hand, with every card it cannot see (the other hands, less the
cards known to be in them, and the stock) dealt again at random.  :class:`Determinizer` builds the
public part once and then deals a new world per call, which is what a search needs thousands of
times per decision.

>>> import random, millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=4)
>>> world = mb.determinize(g.observation(0), random.Random(1))
>>> world.hand(0) == g.hand(0), world.stock_size == g.stock_size, world.legal_actions() == g.legal_actions()
(True, True, True)
"""

from __future__ import annotations

import random

from . import cards as C
from .observation import Observation
from .observe import unseen_counts
from .rules import ruleset
from .state import DECISION_NAMES, Game

_KIND = C.KIND_OF


class Determinizer:
    """Deals possible worlds for one observation; ``sample(rng)`` returns a fresh Game each time."""

    def __init__(self, obs: Observation):
        rules = ruleset(obs["ruleset"], **obs["options"])
        players, me = obs["players"], obs["seat"]
        g = Game(rules, players, obs["teams"], 0, None)
        g.hand_number = obs["hand_number"]
        g.hand_results = [r.copy() for r in obs["hand_results"]]
        g.match_scores = list(obs["match_scores"])
        g._history = []
        g._discard = [_KIND[c] for c in obs["discard_pile"]]
        for side, t in enumerate(obs["tableaux"]):
            g._battle[side] = [_KIND[c] for c in t["battle"]]
            g._speed[side] = [_KIND[c] for c in t["speed"]]
            g._dcards[side] = [_KIND[c] for c in t["distance_cards"]]
            g._dist[side] = t["distance"]
            g._n200[side] = t["two_hundreds"]
            g._safeties[side] = [_KIND[c] for c in t["safeties"]]
            g._safe[side] = sum(1 << k for k in g._safeties[side])
            g._cf[side] = sum(1 << _KIND[c] for c in t["coups_fourres"])
            g._started[side] = C.ROLL in g._battle[side]
        for pile in [g._discard] + g._battle + g._speed:
            for k in pile:
                g._shown[k] += 1
        g.target = obs["target"]
        g._ext_open = obs["extension_open"]
        g._extender = -1 if obs["extender"] is None else obs["extender"]
        for side in range(g.nsides):
            g._refresh(side)
        g._known = [[_KIND[c] for c in k] for k in obs["known_cards"]]
        g._over = obs["is_over"]
        g._winners = list(obs["winners"])
        if g._over:
            g._to_act = None
            g._decision = -1
        else:
            turn = obs["turn"]
            if turn is None:
                raise ValueError("the observation is not consistent: the match goes on but it is nobody's turn")
            g._turn = turn
            g._to_act = obs["to_act"]
            g._decision = DECISION_NAMES.index(obs["decision"])
        pending = obs["pending_attack"]
        g._pending = None if pending is None else (pending["attacker"], _KIND[pending["hazard"]], pending["side"])
        g._took = obs["took_discard"]
        g._pickup_ok = obs["pickup_available"]
        g._legal = None
        self.game = g
        """The table as the observation shows it, hands still to deal."""
        self.me = me
        """The observing seat."""
        self.sizes = list(obs["hand_sizes"])
        """How many cards each seat holds."""
        self.stock_size = obs["stock_size"]
        """The cards left in the stock."""
        own = [_KIND[c] for c in obs["hand"]]
        self.fixed = [own if s == me else g._known[s] for s in range(players)]
        """The cards each seat is known to hold: the observing seat's whole hand, the others' known cards."""
        left = unseen_counts(obs)
        self.pool = [_KIND[c] for c, n in left.items() for _ in range(n)]
        """The cards the observing seat has not seen, to deal out to the hands and the stock."""
        hidden = sum(self.sizes[s] - len(self.fixed[s]) for s in range(players))
        if min(left.values(), default=0) < 0 or hidden + self.stock_size != len(self.pool):
            raise ValueError("the observation is not consistent: its cards do not add up to the deck")

    def sample(self, rng: random.Random) -> Game:
        """A new possible world: the unseen cards dealt again at random, the seed redrawn with them."""
        pool = self.pool[:]
        rand = rng.random
        for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates on rng.random(): compiled, unlike rng.shuffle
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        g = self.game.clone()
        g.seed = rng.getrandbits(62)
        at = 0
        for s, fixed in enumerate(self.fixed):
            need = self.sizes[s] - len(fixed)
            hand = fixed + pool[at : at + need]
            at += need
            c = [0] * C.NUM_KINDS
            mask = 0
            for k in hand:
                c[k] = c[k] + 1
                mask |= 1 << k
            g._cnt[s] = c
            g._hmask[s] = mask
            g._hsize[s] = len(hand)
        g._stock = pool[at:]
        return g


def determinize(observation: Observation, rng: random.Random | None = None) -> Game:
    """A full game consistent with one seat's observation: the cards hidden from that seat are
    re-dealt at random among the other hands and the stock."""
    return Determinizer(observation).sample(rng or random.Random())
