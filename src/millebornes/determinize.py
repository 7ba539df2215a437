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
from .observe import unseen_kinds
from .state import Game

_KIND = C.KIND_OF


class Determinizer:
    """Deals possible worlds for one observation; ``sample(rng)`` returns a fresh Game each time."""

    def __init__(self, obs: Observation):
        players, me = obs["players"], obs["seat"]
        self.game = Game.from_observation(obs)
        """The table as the observation shows it, hands still to deal."""
        self.me = me
        """The observing seat."""
        self.sizes = list(obs["hand_sizes"])
        """How many cards each seat holds."""
        self.stock_size = obs["stock_size"]
        """The cards left in the stock."""
        own = [_KIND[c] for c in obs["hand"]]
        known = [[_KIND[c] for c in k] for k in obs["known_cards"]]
        self.fixed = [own if s == me else known[s] for s in range(players)]
        """The cards each seat is known to hold: the observing seat's whole hand, the others' known cards."""
        left = unseen_kinds(obs)
        self.pool = [k for k, n in enumerate(left) for _ in range(n)]
        """The cards the observing seat has not seen, to deal out to the hands and the stock."""
        hidden = sum(self.sizes[s] - len(self.fixed[s]) for s in range(players))
        if min(left) < 0 or hidden + self.stock_size != len(self.pool):
            raise ValueError("the observation is not consistent: its cards do not add up to the deck")

    def sample(self, rng: random.Random) -> Game:
        """A new possible world: the unseen cards dealt again at random, the seed redrawn with them."""
        pool = self.pool[:]
        rand = rng.random
        for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates on rng.random(): compiled, unlike rng.shuffle
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        seed = rng.getrandbits(62)
        hands: list[list[int]] = []
        at = 0
        for s, fixed in enumerate(self.fixed):
            need = self.sizes[s] - len(fixed)
            hands.append(fixed + pool[at : at + need])
            at += need
        return self.game.redealt(hands, pool[at:], seed)


def determinize(observation: Observation, rng: random.Random | None = None) -> Game:
    """A full game consistent with one seat's observation: the cards hidden from that seat are
    re-dealt at random among the other hands and the stock."""
    return Determinizer(observation).sample(rng or random.Random())
