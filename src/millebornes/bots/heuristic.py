"""A strong hand-written player that decides from an observation and the legal actions only.

The bot never sees a Game: it reads ``game.observation(seat)`` and counts cards from it.  Every
card it cannot see (other hands and the stock) is *unseen*; from those counts it estimates, per
side, the chance a hand holds a card and how long a side must wait to draw one.  Everything is
measured in one currency, *miles*: a turn of a side is worth about :attr:`Params.turn` miles, so
an attack that costs a side two turns is worth twice that, and it can be weighed against playing
a 100.

The policy, decision by decision:

- ``coup-fourre``: always (it cancels the hazard and gives a turn; in classic/family +300 too).
- ``extension``: ends the hand when that wins the match; otherwise a linear estimate of the points
  extending gains over ending now (stock left, distance and safeties in hand, the leading
  opponent's distance and whether it moves, the safe-trip and shutout bonuses ending would bank),
  fitted to paired determinized rollouts of 700 extension decisions.
- ``draw`` (classic): takes the top discard when it is worth clearly more to this hand than an
  average unseen card.
- ``play``: completes the trip whenever it can (laying safeties first where they score: each one
  gives an extra turn).  Where a coup fourré scores (classic, parker) it holds safeties, laying one
  only when it cures a stop with no remedy in hand, when no hazard it answers can still come, when
  the hand may end soon (a stranded safety scores nothing) or when the turn would otherwise throw
  away a good card; where it scores nothing (dujardin, family races) it lays them at once, since a
  coup fourré would only give later the turn a safety laid now gives at once.  Otherwise it scores
  every play and plays the best: distance in miles, with an exact-finish plan and the safe-trip
  bonus in mind; remedies by the turns they save; attacks by the turns the target is expected to
  lose (capped by the turns it has left), weighted by how dangerous the target is and whether a
  shutout is at stake, less the coup-fourré risk and less what the hazard is worth kept; discards
  by what the card is worth to keep and what it gives the next player if he may take it.

``HeuristicBot(seed, noise=p)`` plays a uniformly random legal action with probability ``p``
(the ``easy`` level); equal plays are broken by the same seeded generator, never by side order (the web seats a
person first).  In teams it reckons a partner's hand and turns as the side's (``team=0``: each seat alone, worth
under one match in a hundred: docs/strength.md, "Team play"); any other weight of :class:`Params` may be set in
the spec (``heuristic:match_leader=0.2``).  The bot is stateless between decisions, so one object may play any
number of games and seats.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .. import cards as C
from ..actions import parse
from ..cards import (
    ACCIDENT,
    D25,
    D50,
    D75,
    D100,
    D200,
    END_OF_LIMIT,
    FLAT_TIRE,
    OUT_OF_GAS,
    RIGHT_OF_WAY,
    ROLL,
    SPEED_LIMIT,
    STOP,
)
from ..observation import Observation
from ..observe import hand_counts, unseen_kinds
from .rollout import extension_gain

KIND = C.KIND_OF
"""The kind of each card id."""
VALUE = C.VALUE
"""The miles of each card kind."""
NK = C.NUM_KINDS
"""The number of card kinds."""
DISTANCES = C.DISTANCES
"""The distance cards."""
BATTLE = (STOP, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
"""The hazards that stop a car."""
SAFETIES = C.SAFETIES
"""The safeties."""
REMEDY_OF = C.REMEDY_OF
"""The remedy of each hazard."""
HAZARD_OF = C.HAZARD_OF
"""The hazard each remedy cures."""
SAFETY_OF = C.SAFETY_OF
"""The safety against each hazard."""
PROTECTS = C.PROTECTS
"""The hazards each safety protects against."""
IS_DISTANCE = tuple(k < 5 for k in range(NK))
"""Whether each kind is distance."""
IS_HAZARD = tuple(5 <= k < 10 for k in range(NK))
"""Whether each kind is a hazard."""
IS_BATTLE = tuple(k in BATTLE for k in range(NK))
"""Whether each kind is a hazard that stops a car."""
IS_REMEDY = tuple(10 <= k < 15 for k in range(NK))
"""Whether each kind is a remedy."""
IS_SAFETY = tuple(k >= 15 for k in range(NK))
"""Whether each kind is a safety."""
ROW_BIT = 1 << RIGHT_OF_WAY
"""Right of Way in a mask of kinds."""


@dataclass(frozen=True)
class Params:
    """The policy's weights (miles unless said); the bench script plays variants against each other."""

    turn: float = 65.0
    """Miles a moving side makes in one turn."""
    cure: float = 110.0
    """A remedy or roll that brings the car closer to moving."""
    attack: float = 1.0
    """Scale of attack values."""
    hold_hazard: float = 0.35
    """Share of an attack's value kept by holding the hazard."""
    leader: float = 0.8
    """How much more the leading opponent is worth attacking (3+ sides)."""
    urgency: float = 1.0
    """Extra weight on a target close to its target distance."""
    safe_trip: float = 0.55
    """Share of the safe-trip bonus a 200 is charged while it is possible."""
    finish: float = 40.0
    """Penalty (miles) for a distance that leaves an awkward remainder."""
    shutout: float = 0.3
    """Share of the shutout bonus an attack on a side at 0 protects."""
    take_margin: float = 12.0
    """How much better the top discard must be than an average draw."""
    give_weight: float = 0.5
    """Share of a card's value to the next player charged on a discard."""
    lay_instead: float = 25.0
    """Lay a safety rather than throw away a card worth more than this."""
    lay_low_stock: int = 2
    """Lay safeties when at most this many rounds of stock are left."""
    extend_margin: float = 0.0
    """Extra expected points needed to call the extension."""
    match_leader: float = 0.4
    """How much more the match's leader is worth attacking than the side last in the match (3+ sides), at a
    lead of a quarter of the match target or more."""
    team: bool = True
    """Play for the side: a partner's hand and turns are the side's (False: each seat reckons as if it played
    alone, the measure of what team play is worth)."""


DEFAULT = Params()
"""The weights the heuristic plays with."""

_FIT: dict[tuple[int, tuple[int, ...], int], int] = {}


def _min_cards(rem: int, counts: tuple[int, ...], may200: int) -> int:
    """Fewest distance cards among ``counts`` (25, 50, 75, 100, 200) that add up to ``rem`` exactly
    (at most ``may200`` 200s); 99 when none do.  Cached: hands repeat a lot."""
    if rem == 0:
        return 0
    key = (rem, counts, may200)
    r = _FIT.get(key)
    if r is not None:
        return r
    best = 99
    for k in (D200, D100, D75, D50, D25):
        n = counts[k]
        if not n or VALUE[k] > rem or (k == D200 and may200 <= 0):
            continue
        c = list(counts)
        c[k] -= 1
        sub = _min_cards(rem - VALUE[k], tuple(c), may200 - (k == D200))
        if sub + 1 < best:
            best = sub + 1
    if len(_FIT) > 200_000:
        _FIT.clear()
    _FIT[key] = best
    return best


# ------------------------------------------------------------------ the parsed observation
def _needs_after(hazard: int, roll_after: bool) -> tuple[int, ...]:
    """What a side stopped by a battle hazard must play, in order, before distance again."""
    if hazard == STOP:
        return (ROLL,)
    return (REMEDY_OF[hazard], ROLL) if roll_after else (REMEDY_OF[hazard],)


class View:
    """What the bot knows, in small integers: built once per decision from the observation."""

    __slots__ = (
        "obs",
        "p",
        "seat",
        "side",
        "nsides",
        "players",
        "sides",
        "reckoned",
        "partners",
        "side_of",
        "opps",
        "hand",
        "unseen",
        "total_unseen",
        "hidden",
        "known",
        "stock",
        "target",
        "full_target",
        "ext_open",
        "stacking",
        "roll_after",
        "cf_any",
        "playout",
        "pickup",
        "points",
        "sc",
        "dist",
        "rem",
        "top",
        "limited",
        "safe",
        "moving",
        "n200",
        "started",
        "needs",
        "rounds_left",
        "decision",
        "hand_size",
        "_wait",
        "_hold",
    )

    def __init__(self, obs: Observation, p: Params):
        self.obs = obs
        self.p = p
        opts = obs["options"]
        self.stacking = opts["hazard_target"] == "stacking"
        self.roll_after = opts["roll_after_remedy"]
        self.cf_any = opts["coup_fourre"] == "any-opponent"
        self.playout = opts["exhaustion"] == "play-out"
        self.pickup = opts["top_discard_pickup"]
        self.points = opts["winner"] == "points" or opts["match_target"] is not None
        self.sc = opts["scoring"] if self.points else None
        players = self.players = obs["players"]
        seat = self.seat = obs["seat"]
        sides = self.sides = obs["sides"]
        nsides = self.nsides = len(sides)
        side_of = [0] * players
        for s, seats in enumerate(sides):
            for q in seats:
                side_of[q] = s
        self.side_of = side_of
        me = self.side = obs["side"]
        self.partners = tuple(q for q in sides[me] if q != seat) if p.team else ()
        self.reckoned = [seats if s != me else (seat, *self.partners) for s, seats in enumerate(sides)]
        self.opps = [s for s in range(nsides) if s != me]
        self.decision = obs["decision"]
        self.stock = obs["stock_size"]
        self.target = obs["target"]
        self.full_target = opts["target"]
        self.ext_open = obs["extension_open"]

        hand = self.hand = hand_counts(obs)
        self.hand_size = len(obs["hand"])
        unseen = unseen_kinds(obs, hand)
        known: list[list[int] | None] = [None] * players
        hidden = [0] * players
        sizes = obs["hand_sizes"]
        for q, cards in enumerate(obs["known_cards"]):
            if q == seat:
                continue
            kq = [0] * NK
            for c in cards:
                k = KIND[c]
                kq[k] += 1
            known[q] = kq
            hidden[q] = sizes[q] - len(cards)
        self.known = known
        self.hidden = hidden

        target = self.target
        dist: list[int] = []
        rem: list[int] = []
        top: list[int] = []
        limited: list[bool] = []
        safe: list[int] = []
        moving: list[bool] = []
        n200: list[int] = []
        started: list[bool] = []
        needs: list[tuple[int, ...]] = []
        for t in obs["tableaux"]:
            d = t["distance"]
            dist.append(d)
            rem.append(target - d)
            battle = t["battle"]
            tp = KIND[battle[-1]] if battle else -1
            top.append(tp)
            sm = 0
            for c in t["safeties"]:
                sm |= 1 << KIND[c]
            safe.append(sm)
            row = bool(sm & ROW_BIT)
            speed = t["speed"]
            limited.append(not row and bool(speed) and speed[-1] == "speed-limit")
            mv = t["moving"]
            moving.append(mv)
            n200.append(t["two_hundreds"])
            st = "roll" in battle
            started.append(st)
            # what the side must play, in order, before it may play distance again
            need: tuple[int, ...]
            if mv:
                need = ()
            elif tp >= 0 and IS_BATTLE[tp] and not sm >> SAFETY_OF[tp] & 1:
                need = _needs_after(tp, self.roll_after and not row)
            else:
                need = (ROLL,)
            needs.append(need)
        self.dist, self.rem, self.top, self.limited, self.safe = dist, rem, top, limited, safe
        self.moving, self.n200, self.started, self.needs = moving, n200, started, needs
        for k in range(NK):
            if unseen[k] < 0:
                unseen[k] = 0
        self.unseen = unseen
        self.total_unseen = max(1, sum(unseen))
        self.rounds_left = self.stock / players
        self._wait: dict[int, float] = {}
        self._hold: dict[int, float] = {}

    # -------------------------------------------------------------- card-counting estimates
    def known_to_others(self, k: int) -> int:
        """How many ``k`` the table knows to be in other players' hands (taken discards, shown
        safeties)."""
        n = 0
        for kq in self.known:
            if kq is not None:
                n += kq[k]
        return n

    def p_holds(self, s: int, k: int) -> float:
        """Chance that side ``s`` holds a ``k`` in a hand this seat cannot see (1 if known)."""
        key = s * NK + k
        v = self._hold.get(key)
        if v is not None:
            return v
        u = self.unseen[k]
        miss = 1.0
        for q in self.reckoned[s]:
            if q == self.seat:
                if self.hand[k]:
                    miss = 0.0
                continue
            kq = self.known[q]
            if kq is not None and kq[k]:
                miss = 0.0
                break
            n = self.hidden[q]
            if u and n:
                miss *= (1.0 - u / self.total_unseen) ** n
        v = self._hold[key] = 1.0 - miss
        return v

    def turns_left(self, s: int) -> float:
        """Turns side ``s`` may still draw in this hand."""
        return self.rounds_left * len(self.reckoned[s]) + 0.5

    def wait(self, s: int, k: int) -> float:
        """Expected turns until side ``s`` draws a ``k`` (or something that does its job), capped
        by the turns the side has left (plus the rest of its hand where the stock runs out first)."""
        key = s * NK + k
        v = self._wait.get(key)
        if v is not None:
            return v
        u: float = self.unseen[k]
        if k in HAZARD_OF and IS_BATTLE[HAZARD_OF[k]]:
            u += 0.7 * self.unseen[SAFETY_OF[HAZARD_OF[k]]]
        elif k == END_OF_LIMIT:
            u += 0.7 * self.unseen[RIGHT_OF_WAY]
        cap = self.turns_left(s) + (4.0 if self.playout else 0.0)
        w = self.total_unseen / u if u else cap
        v = self._wait[key] = w if w < cap else cap
        return v

    def need_turns(self, s: int, need: Iterable[int]) -> float:
        """Expected turns side ``s`` spends obtaining and playing the cards of ``need``."""
        total = 0.0
        for k in need:
            total += 1.0 + (1.0 - self.p_holds(s, k)) * self.wait(s, k)
        return total

    def cf_chance(self, attacked: int, hazard: int) -> tuple[float, float]:
        """Chance of a coup fourré answering ``hazard`` on side ``attacked``: (by the attacked
        side, by another side), from where the one safety may be."""
        safety = SAFETY_OF[hazard]
        if not self.unseen[safety]:
            for q, kq in enumerate(self.known):
                if kq is not None and kq[safety]:
                    s = self.side_of[q]
                    if s == attacked:
                        return 1.0, 0.0
                    if self.cf_any and s != self.side:
                        return 0.0, 1.0
                    return 0.0, 0.0
            return 0.0, 0.0
        mine = other = 0
        for q in range(self.players):
            if q == self.seat:
                continue
            s = self.side_of[q]
            if s == attacked:
                mine += self.hidden[q]
            elif self.cf_any and s != self.side:
                other += self.hidden[q]
        tu = self.total_unseen
        return mine / tu, other / tu


# ------------------------------------------------------------------ the bot
class HeuristicBot:
    """Card-counting rule player; ``noise`` is the chance of a uniformly random legal action."""

    name = "heuristic"
    """The bot's spec name."""

    def __init__(self, seed: int = 0, noise: float = 0.0, team: int = 1, **weights: Any):  # Any: as with_params
        if not 0.0 <= float(noise) <= 1.0:
            raise ValueError(f"noise must be between 0 and 1, not {noise!r}")
        if team not in (0, 1):
            raise ValueError(f"team must be 1 (play for the side) or 0 (each seat alone), not {team!r}")
        self.rng = random.Random(seed)
        self.noise = float(noise)
        self.params = replace(DEFAULT, team=bool(team), **weights)
        self.debug = False
        self.last_scores: dict[str, float] | None = None

    def with_params(self, **changes: Any) -> HeuristicBot:  # Any: each weight its own type, as Params says
        """This bot with some weights changed (for experiments)."""
        self.params = replace(self.params, **changes)
        return self

    # -------------------------------------------------------------- entry point
    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The best-scoring legal action by the rules of thumb (or, by ``noise``, any one)."""
        if len(legal) == 1:
            return legal[0]
        if self.noise and self.rng.random() < self.noise:
            return legal[self.rng.randrange(len(legal))]
        if "coup-fourre" in legal:
            return "coup-fourre"
        v = View(observation, self.params)
        if "extend" in legal:
            return "extend" if self._extend(v) else "end-hand"
        if "take-discard" in legal:
            return "take-discard" if self._take(v) else "draw"
        return self._play(v, legal) or legal[-1]

    # -------------------------------------------------------------- keep values
    def keep_value(self, v: View, k: int, count: int | None = None) -> float:
        """What a ``k`` in hand is worth to this side (miles), ``count`` = how many the hand has
        including it (the last copy of a remedy is worth more than a spare one)."""
        p = v.p
        me = v.side
        h = v.hand
        n = h[k] if count is None else count
        if IS_SAFETY[k]:
            return 1000.0
        if IS_DISTANCE[k]:
            return self._distance_keep(v, k, n)
        if IS_HAZARD[k]:
            best = 0.0
            for t in v.opps:
                val = self._attack_value(v, k, t, as_if_moving=True)
                if val > best:
                    best = val
            return p.hold_hazard * best
        safe = v.safe[me]
        row = safe & ROW_BIT
        need = v.needs[me]
        if k == ROLL:
            if row:
                return 0.0
            if need and need[0] == ROLL:
                return 200.0 if n == 1 else 8.0
            if not v.roll_after:
                # dujardin: a roll is only the answer to a stop once started
                risk = v.unseen[STOP] / 5.0
                return (30.0 * risk + 5.0) if n == 1 else 3.0
            if ROLL in need:
                return 120.0 if n == 1 else 30.0 if n == 2 else 6.0
            return (60.0, 35.0, 12.0)[min(n, 3) - 1]
        if k == END_OF_LIMIT:
            if row:
                return 0.0
            if v.limited[me]:
                return (90.0 if v.rem[me] > 50 else 10.0) if n == 1 else 3.0
            risk = min(1.0, v.unseen[SPEED_LIMIT] / 3.0)
            return (15.0 + 15.0 * risk) if n == 1 else 3.0
        hz = HAZARD_OF[k]
        if need and need[0] == k:
            return 220.0 if n == 1 else 5.0
        if safe >> SAFETY_OF[hz] & 1 or h[SAFETY_OF[hz]]:
            return 0.0
        risk = min(1.0, v.unseen[hz] / 2.5)
        if risk == 0.0 and v.top[me] != hz:
            return 1.0
        return (20.0 + 45.0 * risk) if n == 1 else (6.0 + 6.0 * risk) if n == 2 else 2.0

    def _distance_keep(self, v: View, k: int, n: int) -> float:
        me = v.side
        val = VALUE[k]
        rem = v.rem[me]
        if k == D200 and v.n200[me] >= 2:
            return 0.0
        room = rem
        if v.ext_open and val > rem:
            room = v.full_target - v.dist[me]
            if val > room:
                return 0.0
            return 4.0
        if val > room:
            return 0.0
        base = 0.45 * val
        if k == D200 and self._safe_trip_open(v):
            base = 20.0
        # surplus: the distance in hand beyond what the side still needs
        h = v.hand
        more = 0
        for d in DISTANCES:
            if VALUE[d] >= val and h[d]:
                more += VALUE[d] * (h[d] - (1 if d == k else 0))
        if more >= rem:
            base *= 0.4
        if rem <= 250 and val <= 100:
            base += 25.0 if val <= 50 else 12.0
        if n > 1 and rem < 400:
            base *= 0.7
        return base

    def _safe_trip_open(self, v: View) -> bool:
        sc = v.sc
        return bool(sc and sc["safe_trip"] and v.n200[v.side] == 0)

    def _give_value(self, v: View, k: int) -> float:
        """What the card is worth to the next player if a discard lets him take it (classic)."""
        if not v.pickup or v.stock <= 1:
            return 0.0
        nxt = (v.seat + 1) % v.players
        ns = v.side_of[nxt]
        if ns == v.side:
            return 0.0
        me = v.side
        h = v.hand
        if IS_HAZARD[k]:
            # a hazard handed to the next player comes back at us, unless we are safe from it
            # (or hold the safety: then it is coup-fourré bait)
            safety = SAFETY_OF[k]
            if v.safe[me] >> safety & 1 or h[safety]:
                return 0.0
            if k == SPEED_LIMIT:
                return 15.0
            need: tuple[int, ...]
            if k == STOP:
                need = (ROLL,)
            elif v.roll_after:
                need = (REMEDY_OF[k], ROLL)
            else:
                need = (REMEDY_OF[k],)
            return 0.5 * v.p.turn * min(v.need_turns(me, need), 8.0)
        need = v.needs[ns]
        if need and need[0] == k:
            # the remedy the next player is waiting for: the turns it saves him
            return v.p.turn * (1.0 + (1.0 - v.p_holds(ns, k)) * min(v.wait(ns, k), 8.0)) * 0.6
        if k == END_OF_LIMIT and v.limited[ns]:
            return 30.0
        if IS_DISTANCE[k] and v.moving[ns] and VALUE[k] <= v.rem[ns]:
            return VALUE[k] * 0.3
        return 0.0

    # -------------------------------------------------------------- attack values
    def _weight(self, v: View, t: int) -> float:
        """How much a turn lost by side ``t`` is worth to this side."""
        p = v.p
        w = 1.0
        rem = v.rem[t]
        w += p.urgency * max(0.0, 300.0 - rem) / 300.0
        if len(v.opps) > 1:
            best = max(v.dist[o] for o in v.opps)
            worst = min(v.dist[o] for o in v.opps)
            if best > worst:
                w *= 1.0 + p.leader * ((v.dist[t] - worst) / (best - worst) - 0.5)
            if v.points:
                ms = v.obs["match_scores"]
                hi = max(ms[o] for o in v.opps)
                lo = min(ms[o] for o in v.opps)
                if hi > lo:
                    # the match's leader is worth more to slow down, the more so the wider its lead
                    gap = min(1.0, (hi - lo) / (0.25 * (v.obs["options"]["match_target"] or 5000)))
                    w *= 1.0 + p.match_leader * gap * ((ms[t] - lo) / (hi - lo) - 0.5)
        return w

    def _attack_value(self, v: View, k: int, t: int, as_if_moving: bool = False) -> float:
        """Expected worth (miles) of playing hazard ``k`` on side ``t`` now (or, for a keep value,
        on ``t`` moving)."""
        p = v.p
        safe = v.safe[t]
        if safe >> SAFETY_OF[k] & 1:
            return 0.0
        turn = p.turn
        moving = v.moving[t] or as_if_moving
        if k == SPEED_LIMIT:
            if v.limited[t] and not as_if_moving:
                return 0.0
            if v.rem[t] <= 50:
                return 0.0
            has = v.p_holds(t, END_OF_LIMIT)
            lost = has * 1.0 + (1.0 - has) * min(v.wait(t, END_OF_LIMIT), 6.0) * 0.45
            if v.rem[t] <= 100:
                lost *= 0.5
            damage = lost
        else:
            new = _needs_after(k, v.roll_after and not safe & ROW_BIT)
            damage = v.need_turns(t, new)
            if not moving:
                damage -= v.need_turns(t, v.needs[t])
                if damage <= 0.0:
                    return damage * turn
        # a side cannot lose more turns than it has left
        cap = v.turns_left(t) + (3.0 * len(v.sides[t]) if v.playout else 0.0)
        if damage > cap:
            damage = cap
        cf_t, cf_o = v.cf_chance(t, k)
        w = self._weight(v, t)
        value = (1.0 - cf_t) * damage * turn * w
        if v.sc and v.sc["shutout"] and v.dist[t] == 0 and k != SPEED_LIMIT and not as_if_moving:
            # keeping a side at 0 protects the shutout bonus, the more so the closer we are
            value += (1.0 - cf_t) * p.shutout * v.sc["shutout"] * v.dist[v.side] / v.target
        if cf_t or cf_o:
            pts = 0.0
            if v.sc:
                pts = v.sc["coup_fourre"] + v.sc["safety"] * 0.3
            value -= cf_t * (turn * w + pts) + cf_o * (turn + pts)
        return value * p.attack

    # -------------------------------------------------------------- decisions
    def _extend(self, v: View) -> bool:
        """Extend when the expected points of going on beat those of ending the hand now."""
        me = v.side
        sc = v.sc
        trip, safety, safe_trip_bonus, shutout, delayed_action = (
            (sc["trip"], sc["safety"], sc["safe_trip"], sc["shutout"], sc["delayed_action"]) if sc else (0, 0, 0, 0, 0)
        )
        obs = v.obs
        mt = obs["options"]["match_target"]
        ms = obs["match_scores"]
        # points if the hand ends now
        now = v.dist[me] + trip + safety * bin(v.safe[me]).count("1")
        safe_trip = safe_trip_bonus if v.n200[me] == 0 else 0
        shut = shutout * sum(1 for o in v.opps if v.dist[o] == 0)
        delayed = delayed_action if v.stock == 0 else 0
        now += safe_trip + shut + delayed
        if mt:
            mine = ms[me] + now
            others = max(ms[o] + v.dist[o] for o in v.opps)
            if mine >= mt and mine > others + 400:
                return False
        extra = v.full_target - v.dist[me]
        if extra <= 0:
            return False
        h = v.hand
        in_hand = sum(VALUE[d] * h[d] for d in DISTANCES if d != D200) + 200 * min(h[D200], 2 - v.n200[me])
        lead = max(v.opps, key=lambda o: v.dist[o])
        mine_saf = bin(v.safe[me]).count("1") + sum(h[k] for k in SAFETIES)
        lead_saf = bin(v.safe[lead]).count("1")
        ev = extension_gain(v.stock, v.dist[lead], v.moving[lead], safe_trip, shut, in_hand, mine_saf, lead_saf)
        return ev > v.p.extend_margin

    def _take(self, v: View) -> bool:
        pile = v.obs["discard_pile"]
        if not pile:
            return False
        k = KIND[pile[-1]]
        h = v.hand
        val = self.keep_value(v, k, h[k] + 1)
        tu = v.total_unseen
        avg = 0.0
        for j in range(NK):
            u = v.unseen[j]
            if u:
                avg += u * self.keep_value(v, j, h[j] + 1)
        avg /= tu
        # distance the side can play at once is worth its miles
        me = v.side
        if IS_DISTANCE[k] and v.moving[me] and VALUE[k] <= v.rem[me] and not v.limited[me]:
            val = max(val, 0.8 * VALUE[k])
        return val > min(avg, 300.0) + v.p.take_margin

    def _play(self, v: View, legal: list[str]) -> str | None:
        p = v.p
        rem = v.rem[v.side]
        plays: list[tuple[str, str, int, int]] = []
        safeties: list[tuple[str, int]] = []
        finish = None
        for a in legal:
            verb, k, t = parse(a)
            if verb == "play":
                if IS_SAFETY[k]:
                    safeties.append((a, k))
                elif IS_DISTANCE[k] and VALUE[k] == rem:
                    finish = a
            plays.append((a, verb, k, t))
        # 1. complete the trip, laying safeties first where they score (each gives an extra turn)
        if finish is not None:
            if safeties and v.sc and v.sc["safety"] and self._extra_turn_follows(v):
                return safeties[0][0]
            return finish
        # where a coup fourré scores nothing it only gives the turn that a safety laid now gives
        # at once (and the card's slot in hand back): lay it
        if safeties and not (v.sc and v.sc["coup_fourre"]) and self._extra_turn_follows(v):
            return safeties[0][0]
        # 2. score everything else
        best_a: str | None = None
        best = -1e18
        ties = 0
        best_discard = -1e18
        disc_choice: str | None = None  # the best discard, should no play score at all
        scores: dict[str, float] | None = {} if self.debug else None
        self.last_scores = scores
        for a, verb, k, t in plays:
            if verb == "play":
                if IS_SAFETY[k]:
                    continue
                if IS_DISTANCE[k]:
                    s = self._distance_score(v, k)
                else:
                    s = self._remedy_score(v, k)
            elif verb == "attack":
                s = self._attack_value(v, k, t) - self.keep_value(v, k)
            elif verb == "discard":
                if IS_SAFETY[k]:
                    s = -5000.0
                else:
                    s = -self.keep_value(v, k) - p.give_weight * self._give_value(v, k)
                if s > best_discard:
                    best_discard, disc_choice = s, a
            else:
                continue
            if scores is not None:
                scores[a] = s
            if s > best:
                best, best_a, ties = s, a, 1
            elif s == best:  # equal plays (two level sides to attack): any of them, never the lowest seat's
                ties += 1
                if self.rng.randrange(ties) == 0:
                    best_a = a
        # 3. safeties: lay one when it pays more than holding it for a coup fourré
        if safeties:
            lay = self._safety_to_lay(v, safeties, best, best_a)
            if lay is not None:
                return lay
        return best_a if best_a is not None else disc_choice

    def _extra_turn_follows(self, v: View) -> bool:
        opts = v.obs["options"]
        if not opts["safety_extra_turn"]:
            return False
        return v.stock > 0 or v.playout

    def _distance_score(self, v: View, k: int) -> float:
        p = v.p
        me = v.side
        val = VALUE[k]
        rem = v.rem[me]
        left = rem - val
        score = float(val)
        h = v.hand
        may200 = 2 - v.n200[me] - (k == D200)
        if left <= 300:
            counts = tuple(h[d] - (d == k) for d in DISTANCES)
            if _min_cards(left, counts, may200) >= 99:
                # the hand cannot finish: how many unseen cards would fix that
                good = 0
                for d in DISTANCES:
                    u = v.unseen[d]
                    if u and VALUE[d] <= left and (d != D200 or may200 > 0):
                        c2 = list(counts)
                        if _min_cards(left - VALUE[d], tuple(c2), may200 - (d == D200)) < 99:
                            good += u
                frac = good / v.total_unseen
                penalty = p.finish * (1.0 - min(1.0, 3.0 * frac)) * (1.0 + (300 - left) / 300.0)
                for q in v.partners:  # a partner's hand may hold the card that finishes
                    penalty *= (1.0 - frac) ** v.hidden[q]
                score -= penalty
        if k == D200 and v.sc is not None and self._safe_trip_open(v):
            pen = v.sc["safe_trip"] * p.safe_trip
            # racing: an opponent near the end, or a short stock, makes the 200's tempo worth more
            close = min(v.rem[o] for o in v.opps)
            if close <= 200:
                pen *= 0.3
            elif v.rounds_left < 4 and not v.playout:
                pen *= 0.5
            score -= pen
        if v.limited[me] is False and k in (D25, D50) and rem > 150:
            score -= 8.0 * (3 - k)  # keep small cards for the end when big ones would do
        return score

    def _remedy_score(self, v: View, k: int) -> float:
        p = v.p
        me = v.side
        need = v.needs[me]
        if k == END_OF_LIMIT:
            if not v.limited[me]:
                return -self.keep_value(v, k) + 1.0
            rem = v.rem[me]
            if rem <= 50:
                return -self.keep_value(v, k) + 1.0
            h = v.hand
            big = sum(h[d] for d in (D75, D100, D200) if VALUE[d] <= rem)
            small = h[D25] + h[D50]
            base = 35.0 + 22.0 * min(big, 3)
            if not small:
                base += 30.0
            if need:
                base *= 0.8
            return base
        if need and k == need[0]:
            return p.cure + (25.0 if len(need) == 1 else 0.0)
        # a legal but useless remedy (already protected or already rolling): as a discard, minus
        # the risk of someone picking it up
        return -self.keep_value(v, k) + 1.0

    def _safety_to_lay(self, v: View, safeties: list[tuple[str, int]], best: float, best_a: str | None) -> str | None:
        """The safety to lay now, or None to keep them all for a coup fourré."""
        p = v.p
        me = v.side
        h = v.hand
        need = v.needs[me]
        top = v.top[me]
        extra_turn = self._extra_turn_follows(v)
        for a, k in safeties:
            prot = PROTECTS[k]
            # a) it cures what stops us, and no remedy in hand does
            if top in prot and need and need[0] != ROLL and not h[need[0]]:
                return a
            if k == RIGHT_OF_WAY:
                if need and need[0] == ROLL and not h[ROLL]:
                    return a
                if need and top == STOP and v.unseen[STOP] + v.unseen[SPEED_LIMIT] <= 2:
                    return a
                if v.limited[me] and not h[END_OF_LIMIT] and v.rem[me] > 50 and not need:
                    if any(h[d] and VALUE[d] <= v.rem[me] for d in (D75, D100, D200)):
                        return a
        # b) no hazard it answers can come any more: nothing to wait for
        for a, k in safeties:
            if not any(v.unseen[hz] or v.known_to_others(hz) for hz in PROTECTS[k]):
                if extra_turn or best < 0:
                    return a
        # c) the hand may end soon: a stranded safety scores nothing
        soon = False
        if not v.playout and v.rounds_left <= p.lay_low_stock:
            soon = True
        if v.playout and v.stock == 0:
            soon = True
        for o in v.opps:
            if v.moving[o] and v.rem[o] <= 100 and not v.limited[o] or v.rem[o] <= 50 and v.moving[o]:
                soon = True
        if soon and (v.sc and v.sc["safety"] or extra_turn):
            # the one whose hazards are most likely to come stays longest
            return min(safeties, key=lambda ak: sum(v.unseen[hz] for hz in PROTECTS[ak[1]]))[0]
        # d) the turn would otherwise throw away a good card
        if best_a is not None and best < -p.lay_instead and extra_turn:
            return min(safeties, key=lambda ak: sum(v.unseen[hz] for hz in PROTECTS[ak[1]]))[0]
        return None
