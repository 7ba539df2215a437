"""A fast greedy policy over a full game, for search playouts (and the ``greedy`` bot).

Search bots play thousands of hands per decision inside *possible worlds* (determinized games).
This policy plays every seat of such a world, so it must be quick, and it must be a fair player:
it reads only what the seat to act could know (its own hand and the public state: tableaux,
discard pile, stock and hand sizes), never another hand or the stock order.  :class:`GreedyBot`
(a determinization, then this policy) is therefore an honest bot.

It is a cheap cousin of the heuristic bot: everything is valued in *miles* (a turn is worth about
65 miles), computed from the engine's integer state and small tables built at import:

- coup fourré always; the extension by the heuristic's linear rule (stock, lead, hand);
- the top discard (classic) when it is a safety, a remedy the side waits for, a 75 or more the
  side can play at once, the card that completes the trip, or a hazard worth keeping;
- complete the trip when a card fits exactly, laying the safeties first where they score;
  lay safeties at once where a coup fourré scores nothing; otherwise hold them, laying one when it
  cures what stops the side and no remedy in hand does, when no hazard it answers can come any
  more, when the hand may end soon, or rather than throw away a card that is worth anything;
- distance by its miles, less part of the safe-trip bonus a 200 throws away, less a penalty when
  the rest of the hand can no longer make the remainder exactly, keeping 25s and 50s for the end;
- remedies by the turns they save; attacks by the turns the target is expected to lose (from the
  copies of its remedies the seat has not seen, capped by the turns left, more near its goal),
  less the coup-fourré risk and less what the hazard is worth kept;
- discards: the card worth least kept (distance that can no longer fit or that the hand has
  enough of, remedies for hazards the side is safe from, spare copies, hazards every opponent is
  safe from), less what it would give the next player in classic.

The weights are module constants (``TURN``, ``DIST_KEEP``...), compiled in as constants where the
engine is compiled (``research/tune_greedy.py`` tunes them on a pure-Python copy): ``bench/rollout.py``
measures the policy's speed, and the tournament its strength (paired hands against ``heuristic``).
"""

from __future__ import annotations

import math
import random
from typing import Any, Final, cast

from .. import cards as C
from ..actions import (
    ACTION_NAMES,
    ATTACK_BASE,
    COUP_FOURRE,
    DISCARD_BASE,
    DRAW,
    END_HAND,
    EXTEND,
    TAKE_DISCARD,
)
from ..cards import (
    D25,
    D50,
    D75,
    D100,
    D200,
    END_OF_LIMIT,
    OUT_OF_GAS,
    RIGHT_OF_WAY,
    ROLL,
    SPEED_LIMIT,
    STOP,
)
from ..observation import Observation
from ..rules import Ruleset
from ..state import CF_DECISION, DRAW_DECISION, EXTENSION_DECISION, PLAY, Game

assert PLAY == 0  # greedy_code tells a play from the other decisions with one truth test

NK: Final = C.NUM_KINDS
"""The number of card kinds."""
ROW_BIT: Final = 1 << RIGHT_OF_WAY
"""Right of Way in a mask of card kinds: the safety against stops and speed limits."""
EOL_BIT: Final = 1 << END_OF_LIMIT
"""End of Limit in a mask of card kinds."""
_STOP_BIT: Final = 1  # a stop in a hazard mask shifted down by 5
_ROLL_BIT: Final = 1 << ROLL
VAL: Final = C.VALUE
"""The miles of each card kind (0 for all but distance)."""
_FVAL: Final = tuple(float(v) for v in VAL)

# ---------------------------------------------------------------------------- weights (miles)
TURN: Final = 65.0
"""What a moving side makes in one turn."""
CURE: Final = 110.0
"""A remedy that brings the car closer to moving."""
HOLD_HAZARD: Final = 0.35
"""Share of an attack's worth that holding the hazard keeps."""
SAFE_TRIP: Final = 0.3
"""Share of the safe-trip bonus a 200 is charged while that bonus is possible."""
FINISH: Final = 40.0
"""A distance that leaves a remainder the hand cannot make exactly."""
SMALL: Final = 4.0
"""Per step, for a 25 or a 50 played early (keep them for the end)."""
LAY_INSTEAD: Final = 0.0
"""Lay a safety rather than throw away a card worth more than this."""
TAKE: Final = 70.0
"""Take the top discard when it is worth more than this kept (or see TAKE_DIST_KIND)."""
TAKE_DIST_KIND: Final = D75
"""Take the top discard, too, when it is distance from this card up that the side can play now."""
EXTEND_MARGIN: Final = 0.0
"""Expected points the extension must gain over ending the hand."""
DIST_KEEP: Final = 0.2
"""Share of its miles a distance card that fits is worth kept."""
END_SMALL: Final = 25.0
"""More for a 25 or a 50 kept when the side is within 250 of its goal."""
END_BIG: Final = 12.0
"""More for a 75 or a 100 kept then."""
HZ_STOP: Final = 60.0
"""A stop kept."""
HZ_SL: Final = 30.0
"""A speed limit kept."""
HZ_RATE: Final = 7.5
"""Another hazard kept: per round of stock left (at most 320), less HZ_CF."""
HZ_CF: Final = 40.0
"""What a hazard kept loses when a coup fourré scores and its safety is not in hand."""
ROLL_KEEP: Final = 60.0
"""A roll kept while moving (the second one: ROLL_KEEP2)."""
ROLL_KEEP2: Final = 35.0
"""A second roll kept while moving."""
EOL_KEEP: Final = 30.0
"""An end of limit kept while not limited."""
REM_KEEP: Final = 65.0
"""Another remedy kept while its hazard can still hurt (the second: REM_KEEP2)."""
REM_KEEP2: Final = 12.0
"""A second copy of such a remedy kept."""
GIVE: Final = 0.5
"""Share of a discard's worth to the next player, who may take it (classic)."""

# ---------------------------------------------------------------------------- tables
_IS_BATTLE: Final = tuple(k in C.BATTLE_HAZARDS for k in range(NK))
_SAFETY_OF: Final = tuple(C.SAFETY_OF.get(k, -1) for k in range(NK))
_SAFE_BIT: Final = tuple(1 << C.SAFETY_OF[k] if k in C.HAZARDS else 0 for k in range(NK))
_REMEDY_OF: Final = tuple(C.REMEDY_OF.get(k, -1) for k in range(NK))
_HAZARD_OF: Final = tuple(C.HAZARD_OF.get(k, -1) for k in range(NK))
_FINISH_KIND: Final = (-1, D25, D50, D75, D100, -1, -1, -1, D200)  # the card that makes a remainder (/25)
_LOWEST: Final = tuple((m & -m).bit_length() - 1 for m in range(16))  # lowest set bit of a 4-bit mask
# the kinds in a 5-bit mask of distances, hazards or remedies
_DIST_KINDS: Final = tuple(tuple(k for k in range(5) if m >> k & 1) for m in range(32))
_HAZ_KINDS: Final = tuple(tuple(5 + k for k in range(5) if m >> k & 1) for m in range(32))
_REM_KINDS: Final = tuple(tuple(10 + k for k in range(5) if m >> k & 1) for m in range(32))
# the cards a battle hazard asks for
_ROLL_ONLY: Final = (ROLL,)
_NEED_WITH_ROLL: Final = tuple((C.REMEDY_OF[k], ROLL) if k in C.HAZARDS else () for k in range(NK))
_NEED_ALONE: Final = tuple((C.REMEDY_OF[k],) if k in C.HAZARDS else () for k in range(NK))
# safeties laid first when the hand may end: the ones answering the fewest hazards
_LAY_ORDER: Final = (C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE, RIGHT_OF_WAY)


def _reach_table() -> list[int]:
    """For every hand of distance cards, packed as the counts of 25, 50, 75, 100 (3 bits each, a
    hand holds at most 7 cards) and of the 200s it may still play (2 bits), the bitmask of the
    sums its cards can make: bit i is set when i * 25 miles can be made exactly."""
    steps = (1, 2, 3, 4, 8)
    table = [1] * (1 << 14)
    for packed in range(1, 1 << 14):
        for i in range(5):
            if packed >> (3 * i) & 7:
                r = table[packed - (1 << (3 * i))]
                table[packed] = r | r << steps[i]
                break
    return table


_REACH: Final = _reach_table()


class _Config:
    """What the policy reads of a ruleset and a table (players, sides) on every call."""

    __slots__ = (
        "rules",
        "players",
        "nsides",
        "per_side",
        "points",
        "deck",
        "frac",
        "safety",
        "cf",
        "cf_pts",
        "safe_trip",
        "shutout",
        "trip",
        "delayed",
        "match_target",
        "full_target",
        "roll_after",
        "extra_turn",
        "playout",
        "pickup",
        "cf_any",
        "ahead",
    )
    rules: Ruleset
    players: int
    nsides: int
    per_side: int
    points: bool
    deck: tuple[int, ...]
    frac: tuple[float, ...]
    safety: int
    cf: int
    cf_pts: float
    safe_trip: int
    shutout: int
    trip: int
    delayed: int
    match_target: int | None
    full_target: int
    roll_after: bool
    extra_turn: bool
    playout: bool
    pickup: bool
    cf_any: bool
    ahead: tuple[tuple[tuple[int, ...], ...], ...]

    def __init__(self, rules: Ruleset, players: int, nsides: int):
        sc = rules.scoring
        points = rules.winner == "points" or rules.match_target is not None
        self.rules = rules
        self.players = players
        self.nsides = nsides
        self.per_side = players // nsides
        self.points = points  # points decide (else only the race does, and bonuses are nothing)
        self.deck = rules.deck_counts(players)
        size = sum(self.deck)
        self.frac = tuple(3.0 * n / size for n in self.deck)
        self.safety = sc.safety if points else 0
        self.cf = sc.coup_fourre if points else 0
        self.cf_pts = self.cf + 0.3 * self.safety
        self.safe_trip = sc.safe_trip if points else 0
        self.shutout = sc.shutout if points else 0
        self.trip = sc.trip if points else 0
        self.delayed = sc.delayed_action if points else 0
        self.match_target = rules.match_target
        self.full_target = rules.target
        self.roll_after = rules.roll_after_remedy
        self.extra_turn = rules.safety_extra_turn
        self.playout = rules.exhaustion == "play-out"
        self.pickup = rules.top_discard_pickup
        self.cf_any = rules.coup_fourre == "any-opponent"
        # each side's opponents in the order they play after it, in every rotation: which comes first, and so
        # wins a tie between level sides, follows the public position (_rivals), the same rule from every seat
        others = range(nsides - 1)
        self.ahead = tuple(
            tuple(tuple((s + 1 + (i + r) % (nsides - 1)) % nsides for i in others) for r in others)
            for s in range(nsides)
        )


_CONFIGS: Final[dict[tuple[int, int, int], _Config]] = {}
# The last table asked about, as one (seat-to-side tuple, config) pair set in one assignment, so a
# thread never reads one table's tuple with another's config.  The tuple is shared by the table's
# clones and determinized worlds: a playout asks at every move, and one identity test answers it.
_LAST: Final[list[Any]] = [(None, None)]


def _config(g: Game) -> _Config:
    last: tuple[Any, Any] = _LAST[0]
    if g.seat_sides is last[0]:
        cfg: _Config = last[1]
        if cfg.rules is g.ruleset:
            return cfg
    rules = g.ruleset
    key = (id(rules), g.players, g.nsides)
    known = _CONFIGS.get(key)
    if known is None or known.rules is not rules:
        known = _CONFIGS[key] = _Config(rules, g.players, g.nsides)
    _LAST[0] = (g.seat_sides, known)
    return known


def _rivals(g: Game, cfg: _Config, s: int) -> tuple[int, ...]:
    """Side ``s``'s opponents in an order the public position picks (stock size and hand number, so any world of
    an observation gives the same): the first of level sides wins a tie, so no side number (on the web, seat 0
    is a person's) gets them all, as the lowest did in side order, nor any one seat, as "the side that plays next"
    would: the last seat of a round sees level sides most often, and the side after it is seat 0's."""
    ahead = cfg.ahead[s]
    return ahead[(g.stock_size + g.hand_number) % len(ahead)]


def _unseen(g: Game, cnt: list[int], k: int, cfg: _Config) -> int:
    """How many ``k`` (a hazard or a remedy) the seat holding ``cnt`` has not seen: they are in
    other hands or in the stock."""
    n = cfg.deck[k] - cnt[k] - g.shown_counts[k]
    return n if n > 0 else 0


def _need(g: Game, cfg: _Config, s: int) -> tuple[int, int]:
    """(the first card side ``s`` must play before it may play distance, how many it needs)."""
    if g.own_masks[s] & 31:
        return -1, 0
    battle = g.battle_piles[s]
    top = battle[-1] if battle else -1
    safe = g.safety_masks[s]
    if top >= 0 and _IS_BATTLE[top] and not safe & _SAFE_BIT[top]:
        if top == STOP:
            return ROLL, 1
        return _REMEDY_OF[top], 2 if cfg.roll_after and not safe & ROW_BIT else 1
    return ROLL, 1


# ---------------------------------------------------------------------------- the policy
def _wait(u: float, total: int, hidden: int, wcap: float, extra: float = 0.0) -> float:
    """Turns a side expects to wait for one of ``u`` unseen copies (``extra``: a hoped-for safety)."""
    miss = math.pow(1.0 - u / total, float(hidden)) if u < total else 0.0
    u += extra
    wt = total / u if u else wcap
    return 1.0 + miss * (wt if wt < wcap else wcap)


def greedy_code(g: Game, legal: list[int]) -> int:
    """The policy's action code for the seat to act (one of ``legal``)."""
    d = g.decision_code
    if d:  # not a play: draw or take the discard, coup fourré, extension
        if d == DRAW_DECISION:
            return _draw(g)
        if d == CF_DECISION:
            return COUP_FOURRE
        if d == EXTENSION_DECISION:
            return EXTEND if _extend(g) else END_HAND
        return legal[0]
    p = cast(int, g.to_act)  # a decision is pending: a seat acts
    s = g.seat_sides[p]
    cfg = _config(g)
    hm = g.hand_masks[p]
    own = g.own_masks[s]
    pm = hm & own  # the cards the seat may play on its own side
    target = g.target
    rem = target - g.distances[s]
    stock = g.stock_size
    saf = pm >> RIGHT_OF_WAY  # safeties in hand (always playable)
    # laying a safety gives an extra turn?
    extra = saf and cfg.extra_turn and (stock or (cfg.playout and g.hand_sizes[p] > 1))
    # 1. complete the trip, laying the safeties first where they score (each gives an extra turn)
    if pm & 31 and rem <= 200:
        fk = _FINISH_KIND[rem // 25]
        if fk >= 0 and pm >> fk & 1:
            if extra and cfg.safety:
                return RIGHT_OF_WAY + _LOWEST[saf]
            return fk
    # where a coup fourré scores nothing, a safety laid now is protection and a free turn at once
    if extra and not cfg.cf:
        return RIGHT_OF_WAY + _LOWEST[saf]
    cnt = g.hand_counts[p]
    limited = own & EOL_BIT
    if own & 31:
        need = -1
        nlen = 0
    else:  # what the side must play before it moves again (as _need says)
        battle = g.battle_piles[s]
        top = battle[-1] if battle else -1
        if top >= 0 and _IS_BATTLE[top] and not g.safety_masks[s] & _SAFE_BIT[top]:
            if top == STOP:
                need, nlen = ROLL, 1
            else:
                need = _REMEDY_OF[top]
                nlen = 2 if cfg.roll_after and not g.safety_masks[s] & ROW_BIT else 1
        else:
            need, nlen = ROLL, 1
    best = -1e18
    best_code = -1
    # 2. distance: its miles, less the bonus and the exact finish it may cost
    m = pm & 31
    if m:
        n200 = g.two_hundreds_played[s]
        may200 = 2 - n200
        c200 = cnt[D200]
        base = cnt[D25] | cnt[D50] << 3 | cnt[D75] << 6 | cnt[D100] << 9
        for k in _DIST_KINDS[m]:
            val = VAL[k]
            left = rem - val
            sc = _FVAL[k]
            if left <= 300:
                # can the rest of the hand make the remainder exactly?
                if k == D200:
                    c = c200 - 1
                    may = may200 - 1
                    reach = _REACH[base | (c if c < may else may) << 12]
                else:
                    reach = _REACH[(base - (1 << 3 * k)) | (c200 if c200 < may200 else may200) << 12]
                    may = may200
                if not reach >> (left // 25) & 1 and (stock or cfg.playout):
                    frac = 0.0  # (3 times) the share of cards that would fix it
                    for d in range(5):
                        v = VAL[d]
                        if v <= left and reach >> ((left - v) // 25) & 1 and (d != D200 or may > 0):
                            frac += cfg.frac[d]
                    sc -= FINISH * (1.0 - (frac if frac < 1.0 else 1.0)) * (1.0 + (300 - left) / 300.0)
            if k == D200:
                if cfg.safe_trip and not n200:
                    pen = cfg.safe_trip * SAFE_TRIP
                    dist = g.distances
                    for o in g.opponents[s]:
                        if target - dist[o] <= 200:
                            pen *= 0.3  # a race: the 200's tempo is worth more
                            break
                    else:
                        if stock < 4 * cfg.players and not cfg.playout:
                            pen *= 0.5
                    sc -= pen
            elif k < 2 and rem > 150 and not limited:
                sc -= SMALL * (3 - k)
            if sc > best:
                best, best_code = sc, k
    # 3. remedies, by the turns they save
    m = pm >> 10 & 31
    if m:
        for k in _REM_KINDS[m]:
            if k == need:
                sc = CURE + (25.0 if nlen == 1 else 0.0)
            elif k == END_OF_LIMIT and limited and rem > 50:
                big = 0
                for d in (D75, D100, D200):
                    if VAL[d] <= rem:
                        big += cnt[d]
                sc = 35.0 + 22.0 * (big if big < 3 else 3) + (0.0 if cnt[D25] + cnt[D50] else 30.0)
                if need >= 0:
                    sc *= 0.8
            else:  # legal but useless (already protected): as good as a discard
                sc = 1.0 - _keep(g, cfg, p, s, k, cnt, need, rem, cnt[k])
            if sc > best:
                best, best_code = sc, k
    # 4. attacks, by the turns the target loses, less what the hazard is worth kept
    hz = hm >> 5 & 31
    if hz:
        vuln = g.open_masks
        for t in _rivals(g, cfg, s):
            x = hz & vuln[t] >> 5
            if x & _STOP_BIT and not g.own_masks[t] & 31 and g.own_masks[t] & _ROLL_BIT:
                x ^= _STOP_BIT  # a stop on a side that must roll anyway adds nothing
            if x:
                sc, k = _attacks(g, cfg, p, s, t, _HAZ_KINDS[x], cnt)
                if sc > best:
                    best, best_code = sc, ATTACK_BASE + 19 * t + k
    # 5. the discard of the card worth least kept, when no play is worth anything (or when the
    # safeties' rule below compares with it)
    if best <= 0.0 or saf and best < -LAY_INSTEAD:
        sc, code = _discard(g, cfg, p, s, hm, cnt, need, rem, stock)
        if sc > best:
            best, best_code = sc, code
    # 6. safeties: lay one when it pays more than holding it for a coup fourré
    if saf:
        lay = _safety_to_lay(g, cfg, p, s, saf, need, best, extra, stock)
        if lay >= 0 or best_code < 0:
            return lay if lay >= 0 else RIGHT_OF_WAY + _LOWEST[saf]
    return best_code


def _draw(g: Game) -> int:
    """Take the top discard (classic) when it is worth clearly more than a card drawn blind: the
    rule ``keep > TAKE`` spelled out (see :func:`_keep`), so that the common case costs a few
    look-ups; and distance the side can play at once from a 75 up, or that completes the trip."""
    p = cast(int, g.to_act)  # a decision is pending: a seat acts
    k = g.discard_kinds[-1]
    if k >= RIGHT_OF_WAY:
        return TAKE_DISCARD
    s = g.seat_sides[p]
    cnt = g.hand_counts[p]
    if k >= ROLL:  # a remedy, if the side waits for it and holds none
        if cnt[k]:
            return DRAW
        own = g.own_masks[s]
        if k == END_OF_LIMIT:
            return TAKE_DISCARD if own & EOL_BIT and g.target - g.distances[s] > 50 else DRAW
        if own & 31:
            return DRAW
        cfg = _config(g)
        need, nlen = _need(g, cfg, s)
        if need == k:
            return TAKE_DISCARD
        return TAKE_DISCARD if k == ROLL and cfg.roll_after and not g.safety_masks[s] & ROW_BIT else DRAW
    if k < 5:
        if g.own_masks[s] >> k & 1 and (k >= TAKE_DIST_KIND or VAL[k] == g.target - g.distances[s]):
            return TAKE_DISCARD
        if k != D200:
            return DRAW
    elif k < OUT_OF_GAS:
        return DRAW  # a stop or a speed limit kept is worth less than TAKE
    cfg = _config(g)
    need, nlen = _need(g, cfg, s)
    keep = _keep(g, cfg, p, s, k, cnt, need, g.target - g.distances[s], cnt[k] + 1)
    return TAKE_DISCARD if keep > TAKE else DRAW


def extension_gain(
    stock: int,
    lead_distance: int,
    lead_moving: bool,
    safe_trip: int,
    shutout: int,
    in_hand: int,
    safeties: int,
    lead_safeties: int,
) -> float:
    """Expected points of extending the race less those of ending the hand now, for the side that
    reached the short target: a linear rule fitted to paired determinized rollouts of 700
    extension decisions (heuristic self-play, classic, 2 players).  More ``stock``, distance
    ``in_hand`` (what the side may play of it) and ``safeties`` (laid or held) favour going on; the
    leading opponent's distance, its being on the move and its safeties argue for stopping, as do
    the ``safe_trip`` and ``shutout`` bonuses that ending now would bank.  The heuristic bot and
    the greedy policy both decide by it."""
    return (
        -380.0
        + 5.5 * stock
        - 0.65 * lead_distance
        - (280.0 if lead_moving else 0.0)
        - 0.6 * safe_trip
        - 0.83 * shutout
        + 1.2 * min(in_hand, 400)
        + 175.0 * safeties
        - 47.0 * lead_safeties
    )


def _extend(g: Game) -> bool:
    """Extend when the expected points of going on beat those of ending the hand now (the
    heuristic bot's linear rule, fitted to paired rollouts of extension decisions); never when
    ending wins the match."""
    cfg = _config(g)
    p = cast(int, g.to_act)  # a decision is pending: a seat acts
    s = g.seat_sides[p]
    dist = g.distances
    opps = g.opponents[s]
    stock = g.stock_size
    nsaf = C.SAFETY_COUNT[g.safety_masks[s] >> RIGHT_OF_WAY]
    safe_trip = cfg.safe_trip if g.two_hundreds_played[s] == 0 else 0
    zeros = 0
    lead = opps[0]
    for o in opps:
        if dist[o] == 0:
            zeros += 1
        if dist[o] > dist[lead]:
            lead = o
    shut = cfg.shutout * zeros
    if cfg.match_target:
        ms = g.match_scores
        now = dist[s] + cfg.trip + cfg.safety * nsaf + safe_trip + shut + (0 if stock else cfg.delayed)
        mine = ms[s] + now
        if mine >= cfg.match_target and mine > max(ms[o] + dist[o] for o in opps) + 400:
            return False
    if cfg.full_target <= dist[s]:
        return False
    cnt = g.hand_counts[p]
    in_hand = (
        25 * cnt[D25]
        + 50 * cnt[D50]
        + 75 * cnt[D75]
        + 100 * cnt[D100]
        + 200 * min(cnt[D200], 2 - g.two_hundreds_played[s])
    )
    mine_saf = nsaf + cnt[15] + cnt[16] + cnt[17] + cnt[18]
    lead_safeties = C.SAFETY_COUNT[g.safety_masks[lead] >> RIGHT_OF_WAY]
    ev = extension_gain(stock, dist[lead], g.is_moving(lead), safe_trip, shut, in_hand, mine_saf, lead_safeties)
    return ev > EXTEND_MARGIN


def _keep(g: Game, cfg: _Config, p: int, s: int, k: int, cnt: list[int], need: int, rem: int, n: int) -> float:
    """What the ``n``-th ``k`` (not a safety) in seat ``p``'s hand ``cnt`` is worth kept (miles);
    ``n`` is ``cnt[k]`` for a card in hand, one more for a card it might take."""
    if k < 5:
        val = VAL[k]
        if val > rem:
            if (
                g.extension_open
                and val <= cfg.full_target - g.distances[s]
                and (k != D200 or g.two_hundreds_played[s] < 2)
            ):
                return 4.0
            return 0.0
        if k == D200:
            if g.two_hundreds_played[s] >= 2:
                return 0.0
            base = 20.0 if cfg.safe_trip and not g.two_hundreds_played[s] else 90.0
        else:
            base = DIST_KEEP * val
        more = val * (n - cnt[k] - 1)  # the other distance in hand from this card up
        for d in range(k, 5):
            more += VAL[d] * cnt[d]
        if more >= rem:
            base *= 0.4
        if rem <= 250 and val <= 100:
            base += END_SMALL if val <= 50 else END_BIG
        if n > 1 and rem < 400:
            base *= 0.7
        return base
    if k < 10:
        return _hazard_keep(g, cfg, s, k, cnt)
    safe = g.safety_masks[s]
    if k == ROLL:
        if safe & ROW_BIT:
            return 0.0
        if need == ROLL:
            return 200.0 if n == 1 else 8.0
        if not cfg.roll_after:  # only a stop asks for a roll again
            return 5.0 + 6.0 * _unseen(g, cnt, STOP, cfg) if n == 1 else 3.0
        if need >= 0:
            return 120.0 if n == 1 else 30.0 if n == 2 else 6.0
        return ROLL_KEEP if n == 1 else ROLL_KEEP2 if n == 2 else 12.0
    if k == END_OF_LIMIT:
        if safe & ROW_BIT:
            return 0.0
        if g.own_masks[s] & EOL_BIT:
            return (90.0 if rem > 50 else 10.0) if n == 1 else 3.0
        return EOL_KEEP if n == 1 else 3.0
    if need == k:
        return 220.0 if n == 1 else 5.0
    hz = _HAZARD_OF[k]
    if safe & _SAFE_BIT[hz] or cnt[_SAFETY_OF[hz]]:
        return 0.0
    return REM_KEEP if n == 1 else REM_KEEP2 if n == 2 else 2.0


def _hazard_keep(g: Game, cfg: _Config, s: int, k: int, cnt: list[int]) -> float:
    """What a hazard in hand is worth kept: a cheap stand-in for a share of its attack value, which
    grows with the turns the opponents have left; nothing if every opponent is safe from it."""
    bit = _SAFE_BIT[k]
    safe = g.safety_masks
    target = g.target
    dist = g.distances
    for t in g.opponents[s]:
        if not safe[t] & bit and (k != SPEED_LIMIT or target - dist[t] > 50):
            break
    else:
        return 0.0
    if k == STOP:
        return HZ_STOP
    if k == SPEED_LIMIT:
        return HZ_SL
    v = HZ_RATE * g.stock_size / cfg.players * cfg.per_side
    if cfg.cf and not cnt[_SAFETY_OF[k]]:
        v -= HZ_CF
    return 0.0 if v < 0.0 else 320.0 if v > 320.0 else v


def _discard(
    g: Game, cfg: _Config, p: int, s: int, hm: int, cnt: list[int], need: int, rem: int, stock: int
) -> tuple[float, int]:
    """(score, code) of the best discard: minus what the card is worth kept (as :func:`_keep`
    and :func:`_hazard_keep` say, here in one pass) and minus a share of what it would give the
    next player, who may take it (classic).  Ties go to the lowest card kind."""
    own_n = -1  # what the next player's side may play, when it may take the discard
    if cfg.pickup and stock > 1:
        ns = g.seat_sides[(p + 1) % cfg.players]
        if ns != s:
            own_n = g.own_masks[ns]
    best = 1e18
    worst = -1
    # distance: a share of its miles while it fits, less once the hand holds enough to finish
    m = hm & 31
    if m:
        n200 = g.two_hundreds_played[s]
        total = 25 * cnt[D25] + 50 * cnt[D50] + 75 * cnt[D75] + 100 * cnt[D100] + 200 * cnt[D200]
        below = 0
        for k in _DIST_KINDS[m]:
            val = VAL[k]
            n = cnt[k]
            if val > rem:
                keep = (
                    4.0
                    if (g.extension_open and val <= cfg.full_target - g.distances[s] and (k != D200 or n200 < 2))
                    else 0.0
                )
            elif k == D200 and n200 >= 2:
                keep = 0.0
            else:
                if k == D200:
                    keep = 20.0 if cfg.safe_trip and not n200 else 90.0
                else:
                    keep = DIST_KEEP * val
                if total - below - val >= rem:
                    keep *= 0.4
                if rem <= 250 and val <= 100:
                    keep += END_SMALL if val <= 50 else END_BIG
                if n > 1 and rem < 400:
                    keep *= 0.7
            below += val * n
            if own_n >= 0 and own_n >> k & 1:
                keep += GIVE * 0.3 * val
            if keep < best:
                if not keep:
                    return 0.0, DISCARD_BASE + k  # nothing beats a card worth nothing
                best, worst = keep, k
    safe = g.safety_masks[s]
    # hazards: worth nothing once every opponent is safe from them
    m = hm >> 5 & 31
    if m:
        hz_open = 0  # the hazards some opponent is not safe from (a speed limit: not near its goal)
        target = g.target
        dist = g.distances
        for t in g.opponents[s]:
            x = ~g.safety_masks[t]
            if x & ROW_BIT and target - dist[t] > 50:
                hz_open |= 1 << SPEED_LIMIT
            hz_open |= x >> 10 & 0x20 | x >> 9 & 0x380  # stop; out of gas, flat tire, accident
        for k in _HAZ_KINDS[m]:
            if not hz_open >> k & 1:
                keep = 0.0
            elif k == STOP:
                keep = HZ_STOP
            elif k == SPEED_LIMIT:
                keep = HZ_SL
            else:
                keep = HZ_RATE * stock / cfg.players * cfg.per_side
                if cfg.cf and not cnt[_SAFETY_OF[k]]:
                    keep -= HZ_CF
                keep = 0.0 if keep < 0.0 else 320.0 if keep > 320.0 else keep
            if own_n >= 0 and not (safe & _SAFE_BIT[k] or cnt[_SAFETY_OF[k]]):
                keep += GIVE * (15.0 if k == SPEED_LIMIT else 60.0 if k == STOP else 100.0)
            if keep < best:
                if not keep:
                    return 0.0, DISCARD_BASE + k
                best, worst = keep, k
    # remedies: the one the side waits for most; spares and remedies for covered hazards least
    m = hm >> 10 & 31
    if m:
        row = safe & ROW_BIT
        for k in _REM_KINDS[m]:
            n = cnt[k]
            if k == ROLL:
                if row:
                    keep = 0.0
                elif need == ROLL:
                    keep = 200.0 if n == 1 else 8.0
                elif not cfg.roll_after:
                    keep = 5.0 + 6.0 * _unseen(g, cnt, STOP, cfg) if n == 1 else 3.0
                elif need >= 0:
                    keep = 120.0 if n == 1 else 30.0 if n == 2 else 6.0
                else:
                    keep = ROLL_KEEP if n == 1 else ROLL_KEEP2 if n == 2 else 12.0
            elif k == END_OF_LIMIT:
                if row:
                    keep = 0.0
                elif g.own_masks[s] & EOL_BIT:
                    keep = (90.0 if rem > 50 else 10.0) if n == 1 else 3.0
                else:
                    keep = EOL_KEEP if n == 1 else 3.0
                if own_n >= 0 and own_n & EOL_BIT:
                    keep += GIVE * 30.0
            elif need == k:
                keep = 220.0 if n == 1 else 5.0
            elif safe & _SAFE_BIT[_HAZARD_OF[k]] or cnt[_SAFETY_OF[_HAZARD_OF[k]]]:
                keep = 0.0
            else:
                keep = REM_KEEP if n == 1 else REM_KEEP2 if n == 2 else 2.0
            if (
                own_n >= 0
                and k != END_OF_LIMIT
                and own_n >> k & 1
                and not own_n & 31
                and (k != ROLL or not g.safety_masks[ns] & ROW_BIT)
            ):
                keep += GIVE * 80.0  # a remedy the next player may play at once
            if keep < best:
                if not keep:
                    return 0.0, DISCARD_BASE + k
                best, worst = keep, k
    return (-best, DISCARD_BASE + worst) if worst >= 0 else (-1e18, -1)


def _attacks(
    g: Game, cfg: _Config, p: int, s: int, t: int, kinds: tuple[int, ...], cnt: list[int]
) -> tuple[float, int]:
    """The best of the hazards ``kinds`` on side ``t``: (score, kind).  A hazard scores its
    expected worth (miles) now, less the share of its worth on a moving ``t`` that holding it keeps.

    The worth is the turns the target loses: for each card the hazard asks for, one turn, plus,
    when its hands lack the card, the wait for one of the copies seat ``p`` has not seen (the
    safety that does the same job counts for part of one), capped by the turns left; weighted by
    how close the target is to its goal (and, with 3 sides or more, how far it leads); less the
    coup-fourré risk while the one safety is unseen.  A hazard stacked on a stopped side (classic)
    is worth only what it adds to what the side already needs."""
    hsize = g.hand_sizes
    stock = g.stock_size
    nsides = g.nsides
    sides_safe = g.safety_masks
    safe = sides_safe[t]
    if nsides == 2:
        allsafe = safe | sides_safe[s]
    else:
        allsafe = 0
        for x in sides_safe:
            allsafe |= x
    if cfg.per_side == 1:
        hidden = hsize[t]
        mine = hsize[s]
        sum_h = hidden + mine if nsides == 2 else sum(hsize)
    else:
        hidden = hsize[t] + hsize[t + nsides]
        mine = hsize[s] + hsize[s + nsides]
        sum_h = sum(hsize)
    total = stock + sum_h - hsize[p]  # the cards seat p has not seen
    if total < 1:
        total = 1
    turns_left = stock / cfg.players * cfg.per_side + 0.5
    playout = cfg.playout
    wcap = turns_left + 4.0 if playout else turns_left
    cap = turns_left + 3.0 * cfg.per_side if playout else turns_left
    dist = g.distances
    rem = g.target - dist[t]
    moving = g.own_masks[t] & 31
    # how much a lost turn of side t is worth: more near its goal, more for the leader
    w = 1.0 + (300.0 - rem) / 300.0 if rem < 300 else 1.0
    if nsides > 2:
        opps = g.opponents[s]
        hi = lo = dist[opps[0]]
        for o in opps:
            d = dist[o]
            if d > hi:
                hi = d
            elif d < lo:
                lo = d
        if hi > lo:
            w *= 1.0 + 0.8 * ((dist[t] - lo) / (hi - lo) - 0.5)
    cf_o_share = (sum_h - hidden - mine) / total if cfg.cf_any else 0.0
    shutout = cfg.shutout * 0.3 * dist[s] / g.target if cfg.shutout and not dist[t] else 0.0
    roll_turns = -1.0  # turns to get a roll, computed once
    now_need = -1.0  # turns the side already needs before it moves, computed once
    best, best_k = -1e18, -1
    for k in kinds:
        safety = _SAFETY_OF[k]
        safety_unseen = not (cnt[safety] or allsafe >> safety & 1)
        dead = 1.0
        if k == SPEED_LIMIT:
            if rem <= 50:
                if 0.0 > best:
                    best, best_k = 0.0, k
                continue
            u: float = float(_unseen(g, cnt, END_OF_LIMIT, cfg))
            has = 1.0 - math.pow(1.0 - u / total, float(hidden)) if u < total else 1.0
            if safety_unseen:
                u += 0.7
            wt = total / u if u else wcap
            if wt > 6.0:
                wt = 6.0
            damage = has + (1.0 - has) * wt * 0.45
            if rem <= 100:
                damage *= 0.5
            now = damage
        else:
            if k == STOP or (cfg.roll_after and not safe & ROW_BIT):
                if roll_turns < 0.0:
                    roll_turns = _wait(_unseen(g, cnt, ROLL, cfg), total, hidden, wcap)
                damage = roll_turns
            else:
                damage = 0.0
            if k != STOP:
                u = float(_unseen(g, cnt, _REMEDY_OF[k], cfg))
                damage += _wait(u, total, hidden, wcap, 0.7 if safety_unseen else 0.0)
            now = damage
            if not moving:
                if now_need < 0.0:
                    now_need = 0.0
                    cur, nlen = _need(g, cfg, t)
                    for r in (cur, ROLL) if nlen == 2 else (cur,):
                        now_need += _wait(_unseen(g, cnt, r, cfg), total, hidden, wcap)
                now -= now_need
                if now <= 0.0:
                    dead = now * TURN  # it adds nothing to what the side already needs
        if damage > cap:
            damage = cap
        if now > cap:
            now = cap
        if safety_unseen:
            cf_t = hidden / total
            cf_o = cf_o_share
        else:
            cf_t = cf_o = 0.0
        scale = (1.0 - cf_t) * TURN * w
        now *= scale
        damage *= scale
        if shutout and k != SPEED_LIMIT:
            now += (1.0 - cf_t) * shutout  # keeping a side at 0 protects the shutout bonus
        if cf_t or cf_o:
            risk = cf_t * (TURN * w + cfg.cf_pts) + cf_o * (TURN + cfg.cf_pts)
            now -= risk
            damage -= risk
        sc = (now if dead > 0.0 else dead) - HOLD_HAZARD * damage
        if sc > best:
            best, best_k = sc, k
    return best, best_k


def _safety_to_lay(
    g: Game, cfg: _Config, p: int, s: int, saf: int, need: int, best: float, extra: int, stock: int
) -> int:
    """The safety to lay now, or -1 to keep them all for a coup fourré."""
    cnt = g.hand_counts[p]
    own = g.own_masks[s]
    if need >= 0:
        battle = g.battle_piles[s]
        top = battle[-1] if battle else -1
        # a) it cures what stops the side, and no remedy in hand does
        if need != ROLL and not cnt[need] and saf >> (_SAFETY_OF[top] - RIGHT_OF_WAY) & 1:
            return _SAFETY_OF[top]
        if saf & 1 and need == ROLL and not cnt[ROLL]:
            return RIGHT_OF_WAY
    elif saf & 1 and own & EOL_BIT and not cnt[END_OF_LIMIT]:
        rem = g.target - g.distances[s]
        if rem > 50:  # limited, with long distance in hand
            for d in (D75, D100, D200):
                if cnt[d] and VAL[d] <= rem:
                    return RIGHT_OF_WAY
    # b) no hazard it answers can come any more
    if extra or best < 0:
        for i in range(4):
            if saf >> i & 1:
                if i == 0:
                    if not (_unseen(g, cnt, STOP, cfg) or _unseen(g, cnt, SPEED_LIMIT, cfg)):
                        return RIGHT_OF_WAY
                elif not _unseen(g, cnt, STOP + 1 + i, cfg):
                    return RIGHT_OF_WAY + i
    # c) the hand may end soon: a stranded safety scores nothing
    soon = (stock <= 2 * cfg.players) if not cfg.playout else not stock
    if not soon:
        dist = g.distances
        target = g.target
        for o in g.opponents[s]:
            r = target - dist[o]
            if r <= 100 and g.own_masks[o] & 31 and (r <= 50 or not g.own_masks[o] & EOL_BIT):
                soon = True
                break
    # d) rather than throw away a card worth something
    if soon and (cfg.safety or extra) or best < -LAY_INSTEAD and extra:
        for k in _LAY_ORDER:
            if saf >> (k - RIGHT_OF_WAY) & 1:
                return k
    return -1


_NO_LEGAL: Final[list[int]] = []


def play_out(g: Game, rng: random.Random, policy: str = "greedy", max_steps: int = 10_000) -> int:
    """Play the current hand of ``g`` to its end (in place) with the greedy policy for every seat,
    or uniformly random moves (``policy="random"``, drawn from ``rng``); returns the number of
    decisions."""
    hand = g.hand_number
    steps = 0
    if policy == "greedy":
        while not g.is_over and g.hand_number == hand and steps < max_steps:
            # greedy_code decides plays from the engine's masks and the draw, coup-fourré and
            # extension decisions by their kind: it never reads a legal list inside a hand
            g.apply_legal(greedy_code(g, _NO_LEGAL))
            steps += 1
        return steps
    rand = rng.random
    while not g.is_over and g.hand_number == hand and steps < max_steps:
        legal = g.legal_codes()
        g.apply_legal(legal[int(rand() * len(legal))])
        steps += 1
    return steps


def side_reward(world: Game, hand: int, side: int, scale: float = 700.0) -> float:
    """Side ``side``'s reward in [0, 1] for hand ``hand`` of a played-out search world (or for
    the match, if it ended).  With points, 0.5 + 0.5 tanh(margin over the best other side /
    ``scale``): a small scale rewards winning the hand, a large one the points margin; a race
    edition gives 0.8 for the win and 0.2 for the distance; an unfinished hand, the distance gap."""
    n = world.nsides
    if world.is_over and world.ruleset.match_target is not None:
        winners = world.winners
        return 1.0 / len(winners) if side in winners else 0.0
    if len(world.hand_results) <= hand:
        if n == 1:
            return 0.5
        dist = world.distances
        return 0.5 + 0.5 * math.tanh((dist[side] - max(dist)) / 400)
    result = world.hand_results[hand]
    if world.ruleset.winner == "points":
        pts: list[int] = result["points"]
        other = -1 << 30
        for o in range(n):
            if o != side and pts[o] > other:
                other = pts[o]
        return 0.5 + 0.5 * math.tanh((pts[side] - other) / scale)
    winners = result["winners"]
    return (
        0.8 * (1.0 / len(winners) if side in winners else 0.0) + 0.2 * result["distance"][side] / world.ruleset.target
    )


def play_first(
    world: Game, first: int, side: int, scale: float, rng: random.Random, policy: str = "greedy"
) -> tuple[float, float]:
    """Play ``first`` in a search world, then the rest of its hand by the policy: (side's
    reward, side's share of the hand's win).  The flat search's whole iteration, compiled."""
    hand = world.hand_number
    world.apply_legal(first)
    if not world.is_over and world.hand_number == hand:
        play_out(world, rng, policy)
    return side_reward(world, hand, side, scale), hand_win_share(world, hand, side)


def hand_win_share(world: Game, hand: int, side: int) -> float:
    """Side ``side``'s share of hand ``hand``'s win (ties share it); 0 if the hand is unfinished."""
    if len(world.hand_results) <= hand:
        return 0.0
    winners = world.hand_results[hand]["winners"]
    return 1.0 / len(winners) if side in winners else 0.0


class GreedyBot:
    """The playout policy as a player: it reads only the seat's own hand and the public state, so
    any world consistent with the observation gives the same choice."""

    name = "greedy"
    """The bot's spec name."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The policy's move in one possible world (any gives the same: it reads no hidden card)."""
        from ..determinize import determinize

        world = determinize(observation, self.rng)
        action = ACTION_NAMES[greedy_code(world, world.legal_codes())]
        return action if action in legal else legal[0]
