"""Numeric features of one seat's observation, for learning: a state vector and action vectors.

Everything here reads an observation dict (``Game.observation(seat)``) and nothing else, so a
vector never depends on cards the seat cannot see.  Sides are *relative*: slot 0 is the observing
seat's side, slot 1 the next side to its left, and so on (``SIDE_SLOTS`` slots, empty ones zero),
so one network plays every seat.  ``STATE_NAMES`` and ``ACTION_NAMES`` name every entry; docs/env.md
prints the layout.

>>> import millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=7)
>>> v = state_vector(g.observation(0))
>>> v.shape == (STATE_SIZE,), float(v[STATE_INDEX["hand:200"]]), float(v[STATE_INDEX["decision:play"]])
(True, 0.25, 1.0)
>>> action_matrix(g.observation(0), g.legal_codes()).shape == (len(g.legal_codes()), ACTION_SIZE)
True
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .. import cards as C
from ..actions import ATTACK_BASE, COUP_FOURRE, DISCARD_BASE, DRAW, END_HAND, EXTEND, PASS, TAKE_DISCARD
from ..observation import Observation
from ..observe import deck_counts, hand_counts, unseen_kinds
from ..state import Game

NUM_ACTIONS = 206
"""The engine's action codes 0..205 (millebornes.actions)."""
SIDE_SLOTS = 6
"""The most sides any edition seats (family, six players alone)."""
NK = C.NUM_KINDS
"""The number of card kinds."""
KIND = C.KIND_OF
"""The kind of each card id."""
DECISIONS = ("play", "draw", "coup-fourre", "extension")
"""The decision kinds, in the order of the ``decision:*`` features."""
BATTLE_TOPS = ("none", "stop", "out-of-gas", "flat-tire", "accident", "roll", "gasoline", "spare-tire", "repairs")
"""What may show on a battle pile, in the order of the ``battle:*`` features."""
_BATTLE_SLOT = {c: i for i, c in enumerate(BATTLE_TOPS)}
SAFETY_IDS = tuple(C.CARD_IDS[k] for k in C.SAFETIES)
"""The safeties, in the order of the ``safety:*`` and ``known:*`` features."""
_SAFETY_SLOT = {c: i for i, c in enumerate(SAFETY_IDS)}
HAZARD_IDS = tuple(C.CARD_IDS[k] for k in C.HAZARDS)
"""The hazards, in the order of the ``pending:*`` features."""
_HAZARD_SLOT = {c: i for i, c in enumerate(HAZARD_IDS)}
_UNCURED = {
    "stop": "right-of-way",
    "out-of-gas": "extra-tank",
    "flat-tire": "puncture-proof",
    "accident": "driving-ace",
}
_BATTLE_KIND = tuple(
    k in (C.STOP, C.OUT_OF_GAS, C.FLAT_TIRE, C.ACCIDENT, C.ROLL, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS) for k in range(NK)
)

SIDE_FIELDS = (
    ["present", "distance", "remaining", "moving"]
    + [f"battle:{b}" for b in BATTLE_TOPS]
    + ["limited"]
    + [f"safety:{s}" for s in SAFETY_IDS]
    + ["coups_fourres", "two_hundreds", "hand_cards", "score", "leader", "stopped", "distance_cards"]
    + [f"known:{s}" for s in SAFETY_IDS]
)
"""The features of one side, repeated for each side slot, the observer's side first."""
GLOBAL_FIELDS = (
    [f"decision:{d}" for d in DECISIONS]
    + [f"hand:{c}" for c in C.CARD_IDS]
    + [f"unseen:{c}" for c in C.CARD_IDS]
    + ["stock", "stock_empty", "pickup_available", "took_discard", "target", "extension_open", "extended"]
    + [f"top_discard:{c}" for c in ("none",) + C.CARD_IDS]
    + [f"pending:{h}" for h in HAZARD_IDS]
    + [
        "sides",
        "teams",
        "score_lead",
        "hand_number",
        "points_decide",
        "stacking",
        "roll_after_remedy",
        "cf_any_opponent",
        "pickup_rule",
        "play_out",
    ]
)
"""The features of the table as a whole and of the observer's hand."""
STATE_NAMES = tuple(GLOBAL_FIELDS) + tuple(f"side{r}:{f}" for r in range(SIDE_SLOTS) for f in SIDE_FIELDS)
"""The name of each entry of a state vector."""
STATE_SIZE = len(STATE_NAMES)
"""The length of a state vector."""
STATE_INDEX = {n: i for i, n in enumerate(STATE_NAMES)}
"""The entry of each state feature by name."""
_SIDE0 = len(GLOBAL_FIELDS)
_SF = {f: i for i, f in enumerate(SIDE_FIELDS)}
_NSF = len(SIDE_FIELDS)

ADVISORS = ("greedy", "heuristic")
"""Hand-written policies whose choices can be action features."""
ACTION_TYPES = ("play", "discard", "attack", "draw", "take-discard", "coup-fourre", "pass", "extend", "end-hand")
"""The kinds of action, in the order of the ``type:*`` features."""
ACTION_NAMES = tuple(
    [f"type:{t}" for t in ACTION_TYPES]
    + [f"card:{c}" for c in C.CARD_IDS]
    + [f"target:{r}" for r in range(1, SIDE_SLOTS)]
    + [
        "in_hand",
        "unseen",
        "playable",
        "miles",
        "exact",
        "after",
        "overshoots",
        "cures",
        "protects_unseen",
        "attackable_sides",
        "t_remaining",
        "t_distance",
        "t_safety_unseen",
        "t_remedy_unseen",
        "t_leader",
        "t_hand",
        "t_moving",
        "t_has_remedy_known",
        "dead",
        "copies_elsewhere",
    ]
    + [f"advice:{name}" for name in ADVISORS]
)
"""The name of each entry of an action vector."""
ACTION_SIZE = len(ACTION_NAMES)
"""The length of an action vector."""
ACTION_INDEX = {n: i for i, n in enumerate(ACTION_NAMES)}
"""The entry of each action feature by name."""
_A = ACTION_INDEX
_SPECIAL_TYPE = {DRAW: 3, TAKE_DISCARD: 4, COUP_FOURRE: 5, PASS: 6, EXTEND: 7, END_HAND: 8}

unseen_counts = unseen_kinds
"""Per kind, the copies the seat cannot see: :func:`millebornes.observe.unseen_kinds`, under the features' name."""


class Context:
    """What the state and action features share, computed once per observation."""

    __slots__ = (
        "obs",
        "nsides",
        "me",
        "hand",
        "unseen",
        "deck",
        "rel",
        "target",
        "seen_safeties",
        "safe",
        "remaining",
        "leader_side",
        "tops",
        "known",
        "side_hands",
    )

    def __init__(self, obs: Observation):
        self.obs = obs
        self.nsides = n = len(obs["tableaux"])
        self.me = obs["side"]
        self.hand = hand_counts(obs)
        self.deck = deck_counts(obs)
        self.unseen = unseen_kinds(obs, self.hand)
        self.target = obs["target"]
        tabs = obs["tableaux"]
        self.rel = [(s - self.me) % n for s in range(n)]
        self.safe = [set(t["safeties"]) for t in tabs]
        self.seen_safeties = set().union(*self.safe) | {c for c in obs["hand"] if KIND[c] in C.SAFETIES}
        self.known: list[set[str]] = [set() for _ in range(n)]
        for seat, cards in enumerate(obs["known_cards"]):
            for c in cards:
                self.seen_safeties.add(c)
                self.known[seat % n].add(c)
        self.remaining = [self.target - t["distance"] for t in tabs]
        best = max(t["distance"] for t in tabs)
        self.leader_side = [t["distance"] == best for t in tabs]
        self.tops = [t["battle"][-1] if t["battle"] else "none" for t in tabs]
        sizes, full = obs["hand_sizes"], 7.0 * (obs["players"] // n)  # a side's cards, of its full hands
        self.side_hands = [sum(sizes[seat] for seat in seats) / full for seats in obs["sides"]]


def state_vector(obs: Observation, ctx: Context | None = None) -> np.ndarray:
    """The observation as a float32 vector of ``STATE_SIZE`` entries (layout: ``STATE_NAMES``)."""
    ctx = ctx or Context(obs)
    v = np.zeros(STATE_SIZE, dtype=np.float32)
    d = obs["decision"]
    if d in DECISIONS:
        v[DECISIONS.index(d)] = 1.0
    base = 4
    for k in range(NK):
        v[base + k] = ctx.hand[k] / 4.0
        v[base + NK + k] = ctx.unseen[k] / max(1, ctx.deck[k])
    i = base + 2 * NK
    stock = obs["stock_size"]
    v[i] = stock / 100.0
    v[i + 1] = stock == 0
    v[i + 2] = bool(obs["pickup_available"])
    v[i + 3] = bool(obs["took_discard"])
    v[i + 4] = ctx.target / 1000.0
    v[i + 5] = bool(obs["extension_open"])
    v[i + 6] = obs["extender"] is not None
    i += 7
    pile = obs["discard_pile"]
    v[i + (1 + KIND[pile[-1]] if pile else 0)] = 1.0
    i += NK + 1
    pending = obs["pending_attack"]
    if pending:
        v[i + _HAZARD_SLOT[pending["hazard"]]] = 1.0
    i += 5
    n = ctx.nsides
    opts = obs["options"]
    scores = obs["match_scores"]
    mt = opts.get("match_target") or 5000
    v[i] = n / SIDE_SLOTS
    v[i + 1] = bool(obs["teams"])
    v[i + 2] = (scores[ctx.me] - max(scores[s] for s in range(n) if s != ctx.me)) / mt if n > 1 else 0.0
    v[i + 3] = obs["hand_number"] / 10.0
    v[i + 4] = opts.get("winner") == "points" or opts.get("match_target") is not None
    v[i + 5] = opts.get("hazard_target") == "stacking"
    v[i + 6] = bool(opts.get("roll_after_remedy"))
    v[i + 7] = opts.get("coup_fourre") == "any-opponent"
    v[i + 8] = bool(opts.get("top_discard_pickup"))
    v[i + 9] = opts.get("exhaustion") == "play-out"
    for s, t in enumerate(obs["tableaux"]):
        r = ctx.rel[s]
        if r >= SIDE_SLOTS:
            continue
        o = _SIDE0 + r * _NSF
        v[o] = 1.0
        v[o + 1] = t["distance"] / 1000.0
        v[o + 2] = ctx.remaining[s] / 1000.0
        v[o + 3] = bool(t["moving"])
        top = ctx.tops[s]
        v[o + 4 + _BATTLE_SLOT.get(top, 0)] = 1.0
        v[o + 13] = bool(t["speed"]) and t["speed"][-1] == "speed-limit" and "right-of-way" not in ctx.safe[s]
        for c in t["safeties"]:
            v[o + 14 + _SAFETY_SLOT[c]] = 1.0
        v[o + 18] = len(t["coups_fourres"]) / 2.0
        v[o + 19] = t["two_hundreds"] / 2.0
        v[o + 20] = ctx.side_hands[s]
        v[o + 21] = scores[s] / mt
        v[o + 22] = ctx.leader_side[s]
        v[o + 23] = top in _UNCURED and _UNCURED[top] not in ctx.safe[s]
        v[o + 24] = len(t["distance_cards"]) / 20.0
        for c in ctx.known[s]:
            if c in _SAFETY_SLOT:
                v[o + 25 + _SAFETY_SLOT[c]] = 1.0
    return v


def _cures(k: int, ctx: Context) -> bool:
    """Whether card ``k`` answers what the seat's side shows on its battle or speed pile."""
    top = ctx.tops[ctx.me]
    t = ctx.obs["tableaux"][ctx.me]
    if k == C.END_OF_LIMIT or k == C.RIGHT_OF_WAY:
        if t["speed"] and t["speed"][-1] == "speed-limit":
            return True
    if k == C.ROLL:
        return not t["moving"]
    if top in _UNCURED and top != "stop":
        hz = KIND[top]
        return k in (C.REMEDY_OF[hz], C.SAFETY_OF[hz])
    if top == "stop":
        return k == C.RIGHT_OF_WAY
    return False


def action_vector(
    obs: Observation, code: int, ctx: Context, legal: set[int], out: np.ndarray | None = None
) -> np.ndarray:
    """One legal action as a float32 vector of ``ACTION_SIZE`` entries (layout: ``ACTION_NAMES``)."""
    a = np.zeros(ACTION_SIZE, dtype=np.float32) if out is None else out
    if code >= 200:
        a[_SPECIAL_TYPE[code]] = 1.0
        if code == TAKE_DISCARD and obs["discard_pile"]:
            k = KIND[obs["discard_pile"][-1]]
            a[9 + k] = 1.0
            a[_A["in_hand"]] = ctx.hand[k] / 4.0
            a[_A["playable"]] = k in legal
            a[_A["cures"]] = _cures(k, ctx)
        return a
    me = ctx.me
    if code < DISCARD_BASE:
        kind, k, side = 0, code, -1
    elif code < ATTACK_BASE:
        kind, k, side = 1, code - DISCARD_BASE, -1
    else:
        side, k = divmod(code - ATTACK_BASE, NK)
        kind = 2
    a[kind] = 1.0
    a[9 + k] = 1.0
    a[_A["in_hand"]] = ctx.hand[k] / 4.0
    a[_A["unseen"]] = ctx.unseen[k] / max(1, ctx.deck[k])
    a[_A["copies_elsewhere"]] = ctx.unseen[k] / 4.0
    a[_A["playable"]] = k in legal or (
        k in C.HAZARDS and any(ATTACK_BASE + NK * s + k in legal for s in range(ctx.nsides))
    )
    rem = ctx.remaining[me]
    if k < 5:
        val = C.VALUE[k]
        a[_A["miles"]] = val / 200.0
        a[_A["exact"]] = val == rem
        a[_A["after"]] = (rem - val) / 1000.0
        a[_A["overshoots"]] = val > rem
    a[_A["cures"]] = _cures(k, ctx)
    if k in C.SAFETIES:
        a[_A["protects_unseen"]] = sum(ctx.unseen[h] for h in C.PROTECTS[k]) / 5.0
    if k in C.HAZARDS:
        a[_A["attackable_sides"]] = sum(ATTACK_BASE + NK * s + k in legal for s in range(ctx.nsides)) / 3.0
        safety = C.CARD_IDS[C.SAFETY_OF[k]]
        dead = all(safety in ctx.safe[s] for s in range(ctx.nsides) if s != me)
    elif k in C.REMEDIES and k != C.ROLL:
        hz = C.HAZARD_OF[k]
        dead = C.CARD_IDS[C.SAFETY_OF[hz]] in ctx.safe[me]
    elif k < 5:
        dead = C.VALUE[k] > rem
    else:
        dead = False
    a[_A["dead"]] = dead
    if kind == 2:
        r = ctx.rel[side]
        if 1 <= r < SIDE_SLOTS:
            a[28 + r - 1] = 1.0
        t = ctx.obs["tableaux"][side]
        safety = C.CARD_IDS[C.SAFETY_OF[k]]
        a[_A["t_remaining"]] = ctx.remaining[side] / 1000.0
        a[_A["t_distance"]] = t["distance"] / 1000.0
        a[_A["t_safety_unseen"]] = safety not in ctx.seen_safeties
        a[_A["t_remedy_unseen"]] = ctx.unseen[C.REMEDY_OF[k]] / max(1, ctx.deck[C.REMEDY_OF[k]])
        a[_A["t_leader"]] = ctx.leader_side[side]
        a[_A["t_hand"]] = ctx.side_hands[side]
        a[_A["t_moving"]] = bool(t["moving"])
        a[_A["t_has_remedy_known"]] = C.CARD_IDS[C.REMEDY_OF[k]] in ctx.known[side]
    return a


def action_matrix(
    obs: Observation, codes: list[int], ctx: Context | None = None, advice: list[int] | None = None
) -> np.ndarray:
    """The legal actions ``codes`` as a (len(codes), ACTION_SIZE) float32 matrix.

    ``advice``: the code each of ``ADVISORS`` would play (see :func:`advice`), marked in the
    ``advice:*`` columns; without it those columns are zero."""
    ctx = ctx or Context(obs)
    legal = set(codes)
    m = np.zeros((len(codes), ACTION_SIZE), dtype=np.float32)
    for i, code in enumerate(codes):
        action_vector(obs, code, ctx, legal, m[i])
    if advice is not None:
        base = ACTION_INDEX[f"advice:{ADVISORS[0]}"]
        for j, code in enumerate(advice):
            if code in legal:
                m[codes.index(code), base + j] = 1.0
    return m


class Advisors:
    """The choices of the hand-written policies (``ADVISORS``) from an observation: the greedy
    policy (applied to one possible world: it reads only what the seat could know, so any world
    gives the same choice) and the heuristic bot."""

    def __init__(self, seed: int = 0):
        import random

        from ..actions import ACTION_CODES, ACTION_NAMES
        from ..determinize import determinize
        from .heuristic import HeuristicBot
        from .rollout import greedy_code

        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed=seed)
        self._codes, self._names = ACTION_CODES, ACTION_NAMES
        self._greedy, self._determinize = greedy_code, determinize

    def __call__(self, obs: Observation, codes: list[int], game: Game | None = None) -> list[int]:
        """[greedy's code, heuristic's code]; ``game`` (the real one, for training) saves a deal."""
        world = game if game is not None else self._determinize(obs, self.rng)
        g = self._greedy(world, world.legal_codes())
        names = self._names
        h = self._codes[self.heuristic.choose(obs, [names[c] for c in codes])]
        return [g, h]


def mask(codes: Iterable[int]) -> np.ndarray:
    """The action mask: int8 of NUM_ACTIONS entries, 1 for each legal code."""
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    m[list(codes)] = 1
    return m
