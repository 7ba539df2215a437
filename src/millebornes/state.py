"""The state machine: one hand after another, one decision at a time.

A :class:`Game` is the single place that decides what is legal.  It keeps cards as small integer
kinds, hands as count vectors with a bitmask of the kinds held, and two masks per side that are
refreshed only when that side's tableau changes: the cards the side may play on itself, and the
hazards that may be played on it.  ``legal_codes()`` is then a few table look-ups, and ``clone()``
copies flat lists.  The strings of :mod:`millebornes.actions` are the public face.

>>> g = new_game("classic", players=2, seed=7)
>>> g.decision, g.to_act, len(g.hand(0))
('play', 0, 7)
"""

from __future__ import annotations

import random
import secrets
from typing import Final, cast

from . import cards as C
from .actions import (
    ACTION_CODES,
    ACTION_NAMES,
    ATTACK_BASE,
    COUP_FOURRE,
    DISCARD_BASE,
    DRAW,
    END_HAND,
    EXTEND,
    MAX_SIDES,
    PASS,
    TAKE_DISCARD,
    IllegalAction,
    action_code,
    attack_code,
    decode,
)
from .events import (
    Breakdown,
    CoupFourreEvent,
    DealEvent,
    DiscardEvent,
    DrawEvent,
    EndHandEvent,
    Event,
    ExtendEvent,
    HandOverEvent,
    HandResult,
    MatchOverEvent,
    PlayEvent,
    TakeDiscardEvent,
)
from .observation import Observation, PendingAttack, Tableau
from .observe import observation as _observation
from .record import Record
from .rules import Ruleset
from .rules import ruleset as _ruleset

PLAY: Final = 0
"""The decision to play or discard a card."""
DRAW_DECISION: Final = 1
"""The decision to draw or take the top discard, at the start of a turn where taking it is allowed."""
CF_DECISION: Final = 2
"""The decision to call coup fourré or pass, asked of a seat holding the safety against a hazard just played."""
EXTENSION_DECISION: Final = 3
"""The decision to extend the race or end the hand, when a side reaches the short target."""
DECISION_NAMES: Final = ("play", "draw", "coup-fourre", "extension")
"""The public name of each decision, as ``Game.decision`` and observations give it."""
RECORD_FORMAT: Final = "millebornes-record/1"
"""The format and version a record names (:meth:`Game.record`); :func:`millebornes.replay` reads this one."""
HAND_SIZE: Final = 6
"""The cards dealt to each seat; a turn draws a seventh before playing one."""

_ROW: Final = C.bit(C.RIGHT_OF_WAY)
_IS_BATTLE_HAZARD: Final = tuple(k in C.BATTLE_HAZARDS for k in range(C.NUM_KINDS))
_SAFETY_BIT: Final = tuple(C.bit(C.SAFETY_OF[k]) if k in C.HAZARDS else 0 for k in range(C.NUM_KINDS))
# the battle hazards that may hit a side, by its safeties (4 bits, right of way first)
_BATTLE_VULN: Final = tuple(
    sum(C.bit(h) for h in C.BATTLE_HAZARDS if not (m << C.RIGHT_OF_WAY) & _SAFETY_BIT[h]) for m in range(16)
)
_REMEDY_BIT: Final = tuple(C.bit(C.REMEDY_OF[k]) if k in C.HAZARDS else 0 for k in range(C.NUM_KINDS))
_ROLL_BASE: Final = (-1, C.STOP, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS)  # tops on which a roll is legal
_RESTART_TOPS: Final = (C.GASOLINE, C.SPARE_TIRE, C.REPAIRS)
_VALUES: Final = C.VALUE
_NAME_OF: Final = tuple(ACTION_NAMES.get(c, "") for c in range(max(ACTION_NAMES) + 1))


def _bits_table(size: int, offset: int, shift: int) -> tuple[list[int], ...]:
    """For each mask of ``size`` bits, the codes ``offset + shift + i`` of its set bits."""
    return tuple([offset + shift + i for i in range(size) if m >> i & 1] for m in range(1 << size))


_PLAY_LO: Final = _bits_table(10, 0, 0)
_PLAY_HI: Final = _bits_table(9, 0, 10)
_DISCARD_LO: Final = _bits_table(10, DISCARD_BASE, 0)
_DISCARD_HI: Final = _bits_table(9, DISCARD_BASE, 10)
_ATTACKS: Final = tuple(_bits_table(5, attack_code(0, t), 5) for t in range(MAX_SIDES))


def _distance_mask(room: int, limited: bool, may_200: bool) -> int:
    m = 0
    for k in (C.D25, C.D50, C.D75, C.D100, C.D200):
        v = _VALUES[k]
        if v <= room and (not limited or v <= 50) and (may_200 or k != C.D200):
            m |= 1 << k
    return m


# the distance a moving side may play, for each room to its goal up to 200 miles (in steps of
# 25), under a speed limit or not, with a 200 allowed or not: (room // 25) << 2 | limited << 1 | may_200
_DISTANCE_BITS: Final = tuple(_distance_mask(25 * (i >> 2), bool(i & 2), bool(i & 1)) for i in range(36))


class Game:
    """One match of Mille Bornes under one ruleset; see :func:`new_game`.

    The public lists, counts and masks (``distances``, ``hand_counts``, ``own_masks``...) are the
    engine's live state, public so that compiled search reads them at the speed of a slot: read
    them, never write them (the engine guide's "The inner door" lists them; the API reference
    leaves them out).  Search plays through :meth:`apply_legal` and deals worlds through
    :meth:`from_observation` and :meth:`redealt`."""

    __slots__ = (
        "ruleset",
        "players",
        "teams",
        "nsides",
        "seat_sides",
        "sides",
        "opponents",
        "seed",
        "deck",
        "_stacking",
        "_roll_after",
        "_cf_any",
        "_extra_turn",
        "_playout",
        "_pickup",
        "hand_number",
        "hand_counts",
        "hand_masks",
        "hand_sizes",
        "_stock",
        "_discard",
        "_battle",
        "_speed",
        "distances",
        "two_hundreds_played",
        "_dcards",
        "safety_masks",
        "_cf",
        "_safeties",
        "_started",
        "own_masks",
        "open_masks",
        "target",
        "_ext_open",
        "_extender",
        "_turn",
        "_to_act",
        "decision_code",
        "_pending",
        "_took",
        "_pickup_ok",
        "_legal",
        "_history",
        "hand_results",
        "match_scores",
        "_over",
        "_winners",
        "_known",
        "_ev",
        "_halt",
        "_shown",
    )
    # the attributes' types, for mypyc, which compiles this module (setup.py)
    ruleset: Ruleset
    """The edition played."""
    players: int
    """The number of seats, in turn order 0 to players - 1."""
    teams: bool
    """Whether seats play in teams of two (partners sit opposite: seat s plays for side s % nsides)."""
    nsides: int
    """The number of sides: teams, or players alone."""
    seat_sides: tuple[int, ...]
    """The side of each seat: one tuple shared by a table's clones and worlds."""
    sides: tuple[tuple[int, ...], ...]
    """The seats of each side."""
    opponents: tuple[tuple[int, ...], ...]
    """The other sides of each side."""
    seed: int
    """The seed every hand's shuffle is drawn from: hidden information, kept out of observations."""
    deck: list[int] | None
    """The stacked deck of the first hand (card kinds, top first), or None for a shuffled one."""
    _stacking: bool
    _roll_after: bool
    _cf_any: bool
    _extra_turn: bool
    _playout: bool
    _pickup: bool
    hand_number: int
    """The hand being played (the last one once the match is over), from 0."""
    hand_counts: list[list[int]]
    """Each seat's hand as its count of each card kind: hidden information."""
    hand_masks: list[int]
    """Each seat's hand as the mask of the card kinds it holds: hidden information."""
    hand_sizes: list[int]
    """How many cards each seat holds."""
    _stock: list[int]
    _discard: list[int]
    _shown: list[int]  # copies of each kind face up on the discard pile, battle and speed piles
    _battle: list[list[int]]
    _speed: list[list[int]]
    distances: list[int]
    """The miles each side has played this hand."""
    two_hundreds_played: list[int]
    """The 200s each side has played this hand."""
    _dcards: list[list[int]]
    safety_masks: list[int]
    """The mask of the card kinds of the safeties each side has laid."""
    _cf: list[int]
    _safeties: list[list[int]]
    _started: list[bool]
    own_masks: list[int]
    """The mask of the card kinds each side may play on itself now: distance, remedies, safeties."""
    open_masks: list[int]
    """The mask of the hazards that may be played on each side now."""
    target: int
    """The distance this hand is a race to now: the short target until an extension is called."""
    _ext_open: bool
    _extender: int
    _turn: int
    _to_act: int | None  # None when nobody acts
    decision_code: int
    """The pending decision as a number (PLAY, DRAW_DECISION, CF_DECISION, EXTENSION_DECISION), -1 for none."""
    _pending: tuple[int, int, int] | None
    _took: bool
    _pickup_ok: bool
    _legal: list[int] | None
    _history: list[int]
    hand_results: list[HandResult]
    """The results of the finished hands, in order."""
    match_scores: list[int]
    """Points per side over the finished hands."""
    _over: bool
    _winners: list[int]
    _known: list[list[int]]
    _ev: list[Event] | None
    _halt: bool

    # ---------------------------------------------------------------- construction
    def __init__(
        self,
        rules: Ruleset | None = None,
        players: object = 0,
        teams: object = None,
        seed: object = None,
        deck: object = None,
    ):
        """``Game()`` is an empty shell for :meth:`clone` and unpickling to fill in (a compiled
        class has no way around its constructor)."""
        if rules is None:
            return
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be a whole number, not {players!r}")
        if teams is None:
            teams = rules.default_teams(players)
        if not rules.allows(players, bool(teams)):
            alone = ", ".join(map(str, rules.solo_players)) or "none"
            team = ", ".join(map(str, rules.team_players)) or "none"
            raise ValueError(
                f"{rules.name} is played by {alone} players alone and {team} in teams; "
                f"not {players} {'in teams' if teams else 'alone'}"
            )
        self.ruleset = rules
        self.players = players
        self.teams = bool(teams)
        self.nsides = players // 2 if teams else players
        self.seat_sides = tuple(s % self.nsides for s in range(players))
        self.sides = tuple(tuple(s for s in range(players) if s % self.nsides == side) for side in range(self.nsides))
        self.opponents = tuple(tuple(t for t in range(self.nsides) if t != s) for s in range(self.nsides))
        if seed is None:
            seed = secrets.randbelow(2**63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        self.seed = seed
        self.deck = None if deck is None else self._check_deck(deck)
        self._stacking = rules.hazard_target == "stacking"
        self._roll_after = rules.roll_after_remedy
        self._cf_any = rules.coup_fourre == "any-opponent"
        self._extra_turn = rules.safety_extra_turn
        self._playout = rules.exhaustion == "play-out"
        self._pickup = rules.top_discard_pickup
        self._history: list[int] = []
        self.hand_results: list[HandResult] = []
        self.match_scores = [0] * self.nsides
        self._over = False
        self._winners: list[int] = []
        self._ev = None
        self._halt = False
        self._deal(0)

    @staticmethod
    def from_observation(obs: Observation) -> Game:
        """The table as one seat's observation shows it, every hand empty and no stock: the public
        part of a possible world, which :meth:`redealt` completes (see :mod:`millebornes.determinize`)."""
        kind = C.KIND_OF
        g = Game(_ruleset(obs["ruleset"], **obs["options"]), obs["players"], obs["teams"], 0, None)
        g.hand_number = obs["hand_number"]
        g.hand_results = [r.copy() for r in obs["hand_results"]]
        g.match_scores = list(obs["match_scores"])
        g._history = []
        g._discard = [kind[c] for c in obs["discard_pile"]]
        for side, t in enumerate(obs["tableaux"]):
            g._battle[side] = [kind[c] for c in t["battle"]]
            g._speed[side] = [kind[c] for c in t["speed"]]
            g._dcards[side] = [kind[c] for c in t["distance_cards"]]
            g.distances[side] = t["distance"]
            g.two_hundreds_played[side] = t["two_hundreds"]
            g._safeties[side] = [kind[c] for c in t["safeties"]]
            g.safety_masks[side] = sum(1 << k for k in g._safeties[side])
            g._cf[side] = sum(1 << kind[c] for c in t["coups_fourres"])
            g._started[side] = C.ROLL in g._battle[side]
        for pile in [g._discard] + g._battle + g._speed:
            for k in pile:
                g._shown[k] += 1
        g.target = obs["target"]
        g._ext_open = obs["extension_open"]
        g._extender = -1 if obs["extender"] is None else obs["extender"]
        for side in range(g.nsides):
            g._refresh(side)
        g._known = [[kind[c] for c in k] for k in obs["known_cards"]]
        g._over = obs["is_over"]
        g._winners = list(obs["winners"])
        if g._over:
            g._to_act = None
            g.decision_code = -1
        else:
            turn = obs["turn"]
            if turn is None:
                raise ValueError("the observation is not consistent: the match goes on but it is nobody's turn")
            g._turn = turn
            g._to_act = obs["to_act"]
            g.decision_code = DECISION_NAMES.index(obs["decision"])
        pending = obs["pending_attack"]
        g._pending = None if pending is None else (pending["attacker"], kind[pending["hazard"]], pending["side"])
        g._took = obs["took_discard"]
        g._pickup_ok = obs["pickup_available"]
        g.hand_counts = [[0] * C.NUM_KINDS for _ in range(g.players)]
        g.hand_masks = [0] * g.players
        g.hand_sizes = [0] * g.players
        g._stock = []
        g._legal = None
        return g

    def redealt(self, hands: list[list[int]], stock: list[int], seed: int) -> Game:
        """A copy of this table with these hands (card kinds, per seat), this stock (top last) and
        this seed for the hands to come: a possible world of a search."""
        g = self.clone()
        g.seed = seed
        for s, hand in enumerate(hands):
            c = [0] * C.NUM_KINDS
            mask = 0
            for k in hand:
                c[k] = c[k] + 1
                mask |= 1 << k
            g.hand_counts[s] = c
            g.hand_masks[s] = mask
            g.hand_sizes[s] = len(hand)
        g._stock = stock
        g._legal = None  # worked out again: the seat to act may hold other cards in this world
        return g

    def _check_deck(self, deck: object) -> list[int]:
        if not isinstance(deck, (list, tuple)):
            raise ValueError("deck must be a list of card ids, top first")
        kinds = [C.card_kind(c) for c in deck]
        want = self.ruleset.deck_counts(self.players)
        have = [0] * C.NUM_KINDS
        for k in kinds:
            have[k] += 1
        if have != list(want):
            diff = [
                f"{C.CARD_IDS[k]}: {have[k]} instead of {want[k]}" for k in range(C.NUM_KINDS) if have[k] != want[k]
            ]
            raise ValueError(
                f"a stacked deck must hold exactly the {self.ruleset.name} deck for {self.players} players "
                f"({sum(want)} cards); " + "; ".join(diff)
            )
        return kinds

    def _shuffled(self, hand: int) -> list[int]:
        cards = [k for k, n in enumerate(self.ruleset.deck_counts(self.players)) for _ in range(n)]
        random.Random(f"millebornes/{self.seed}/{hand}").shuffle(cards)
        return cards

    def _deal(self, hand: int) -> None:
        cards = list(self.deck) if hand == 0 and self.deck is not None else self._shuffled(hand)
        n, nsides = self.players, self.nsides
        self.hand_number = hand
        self.hand_counts = [[0] * C.NUM_KINDS for _ in range(n)]
        self.hand_masks = [0] * n
        self.hand_sizes = [0] * n
        for seat in range(n):
            c = self.hand_counts[seat]
            for k in cards[HAND_SIZE * seat : HAND_SIZE * seat + HAND_SIZE]:
                c[k] += 1
                self.hand_masks[seat] |= 1 << k
            self.hand_sizes[seat] = HAND_SIZE
        self._stock = cards[HAND_SIZE * n :][::-1]
        self._discard = []
        self._shown = [0] * C.NUM_KINDS
        self._battle = [[] for _ in range(nsides)]
        self._speed = [[] for _ in range(nsides)]
        self.distances = [0] * nsides
        self.two_hundreds_played = [0] * nsides
        self._dcards = [[] for _ in range(nsides)]
        self.safety_masks = [0] * nsides
        self._cf = [0] * nsides
        self._safeties = [[] for _ in range(nsides)]
        self._started = [False] * nsides
        self.own_masks = [0] * nsides
        self.open_masks = [0] * nsides
        self._known = [[] for _ in range(n)]
        self.target = self.ruleset.first_target(n)
        self._ext_open = self.ruleset.has_extension(n)
        self._extender = -1
        self._pending = None
        self._pickup_ok = False
        self._legal = None
        for side in range(nsides):
            self._refresh(side)
        ev = self._ev
        if ev is not None:
            deal: DealEvent = {"type": "deal", "hand": hand, "first": hand % n, "target": self.target}
            ev.append(deal)
        self._begin_turn(hand % n)

    # ---------------------------------------------------------------- the two masks
    def _moving(self, side: int) -> bool:
        battle = self._battle[side]
        top = battle[-1] if battle else -1
        safe = self.safety_masks[side]
        if top >= 0 and _IS_BATTLE_HAZARD[top] and not safe & _SAFETY_BIT[top]:
            return False
        if safe & _ROW or top == C.ROLL:
            return True
        if not self._roll_after and self._started[side]:
            return top in _RESTART_TOPS or (top >= 0 and _IS_BATTLE_HAZARD[top])
        return False

    def _refresh(self, side: int) -> None:
        """Recompute what the side may play on itself and which hazards may be played on it."""
        battle = self._battle[side]
        speed = self._speed[side]
        top = battle[-1] if battle else -1
        safe = self.safety_masks[side]
        row = safe & _ROW
        limited = not row and bool(speed) and speed[-1] == C.SPEED_LIMIT
        moving = self._moving(side)
        own = C.SAFETY_MASK
        if moving:
            room = self.target - self.distances[side]
            may_200 = self.two_hundreds_played[side] < 2
            own |= _DISTANCE_BITS[(room // 25 if room < 200 else 8) << 2 | limited << 1 | may_200]
        if top in _ROLL_BASE or (top >= 0 and _IS_BATTLE_HAZARD[top] and safe & _SAFETY_BIT[top]):
            own |= 1 << C.ROLL
        if top >= 0 and top != C.STOP and _IS_BATTLE_HAZARD[top]:
            own |= _REMEDY_BIT[top]
        if speed and speed[-1] == C.SPEED_LIMIT:
            own |= 1 << C.END_OF_LIMIT
        self.own_masks[side] = own
        vuln = 0
        if not row and not (speed and speed[-1] == C.SPEED_LIMIT):
            vuln |= 1 << C.SPEED_LIMIT
        if moving if not self._stacking else (battle or row):
            vuln |= _BATTLE_VULN[safe >> C.RIGHT_OF_WAY]
        self.open_masks[side] = vuln

    # ---------------------------------------------------------------- legal actions
    def legal_codes(self) -> list[int]:
        """The legal action codes of the pending decision, in a fixed order (plays, attacks, discards)."""
        legal = self._legal
        if legal is not None:
            return legal
        d = self.decision_code
        if d == PLAY:
            p = cast(int, self._to_act)  # a decision is pending: a seat acts
            s = self.seat_sides[p]
            hm = self.hand_masks[p]
            pm = hm & self.own_masks[s]
            legal = _PLAY_LO[pm & 1023] + _PLAY_HI[pm >> 10]
            hz = hm >> 5 & 31
            if hz:
                vuln = self.open_masks
                for t in self.opponents[s]:
                    x = hz & vuln[t] >> 5
                    if x:
                        legal += _ATTACKS[t][x]
            legal += _DISCARD_LO[hm & 1023] + _DISCARD_HI[hm >> 10]
        elif d == DRAW_DECISION:
            legal = [DRAW, TAKE_DISCARD]
        elif d == CF_DECISION:
            legal = [COUP_FOURRE, PASS]
        elif d == EXTENSION_DECISION:
            legal = [EXTEND, END_HAND]
        else:
            legal = []
        self._legal = legal
        return legal

    def legal_actions(self) -> list[str]:
        """The legal actions of the pending decision in notation, in a fixed order."""
        return [_NAME_OF[c] for c in self.legal_codes()]

    # ---------------------------------------------------------------- acting
    def act(self, action: str | int, seat: int | None = None) -> list[Event]:
        """Apply one action, in notation or as its code (:data:`millebornes.ACTION_CODES`), for the seat to act
        (``seat``, when given, must be it); returns the public events it caused.

        IllegalAction (with the reason) leaves the game exactly as it was; so does TypeError, for an action that
        is neither a string nor a whole number, or a seat that is no whole number.

        >>> g = new_game("classic", players=2, seed=7)
        >>> g.act("play 200")
        Traceback (most recent call last):
        ...
        millebornes.actions.IllegalAction: you need a Roll first: your battle pile shows nothing
        >>> g.act("discard 50")
        [{'type': 'discard', 'seat': 0, 'card': '50'}]
        >>> g.to_act, g.decision, g.legal_actions()
        (1, 'draw', ['draw', 'take-discard'])
        >>> g.act(g.legal_codes()[0])  # the code of 'draw'
        [{'type': 'draw', 'seat': 1, 'stock': 87}]
        """
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise TypeError(f"a seat is a whole number, not {type(seat).__name__}")
        if self._over:
            raise IllegalAction("the match is over", "match_over")
        if seat is not None and seat != self._to_act:
            raise IllegalAction(
                f"it is not seat {seat}'s decision: seat {self._to_act} must {self._decision_words()}",
                "not_your_decision",
                seat=seat,
                to_act=self._to_act,
                decision=self.decision,
            )
        if isinstance(action, str):
            code = ACTION_CODES.get(action)
            if code is None:
                code = action_code(action)
        elif isinstance(action, bool):  # an int to Python, no action
            raise IllegalAction(f"an action is a string such as 'play 75' or a code, not {action!r}", "action_not_text")
        elif isinstance(action, int):
            if action not in ACTION_NAMES:
                raise IllegalAction(f"there is no action code {action}", "unknown_action")
            code = action
        else:
            raise TypeError(f"an action is a string or an action code, not {type(action).__name__}")
        if code not in self.legal_codes():
            raise self.refusal(code)
        events: list[Event] = []
        self._ev = events
        try:
            self.apply_legal(code)
        finally:
            self._ev = None
        return events

    def act_code(self, code: int) -> None:
        """Apply a legal action code without building events: the fast path for bots and search.

        >>> g = new_game("classic", players=2, seed=7)
        >>> world = g.clone()
        >>> world.act_code(world.legal_codes()[0])
        >>> world.history, g.history
        (['play speed-limit 1'], [])
        """
        if code not in self.legal_codes():
            raise self.refusal(code)
        self.apply_legal(code)

    def apply_legal(self, code: int) -> None:
        """Apply an action code without checking it or building events: the inner door for search,
        whose codes come from :meth:`legal_codes` or a policy that only makes legal ones.  An illegal
        code leaves the game broken; :meth:`act_code` is the checked way."""
        p = cast(int, self._to_act)  # the caller vouches the action is legal: a seat acts
        self._history.append(code)
        self._legal = None
        ev = self._ev
        if code < DISCARD_BASE:
            self._play_own(p, code)
        elif code < ATTACK_BASE:
            k = code - DISCARD_BASE
            self._take(p, k)
            self._discard.append(k)
            shown = self._shown
            shown[k] = shown[k] + 1
            if ev is not None:
                discard: DiscardEvent = {"type": "discard", "seat": p, "card": C.CARD_IDS[k]}
                ev.append(discard)
            self._pickup_ok = not self._took
            self._end_turn(p)
        elif code < 200:
            x = code - ATTACK_BASE
            t = x // C.NUM_KINDS
            k = x - t * C.NUM_KINDS
            self._attack(p, k, t)
        elif code == DRAW:
            self._draw(p)
            self._pickup_ok = False
            self.decision_code = PLAY
        elif code == TAKE_DISCARD:
            k = self._discard.pop()
            shown = self._shown
            shown[k] = shown[k] - 1
            self._give(p, k)
            self._known[p].append(k)
            self._took = True
            self._pickup_ok = False
            if ev is not None:
                took: TakeDiscardEvent = {"type": "take-discard", "seat": p, "card": C.CARD_IDS[k]}
                ev.append(took)
            self.decision_code = PLAY
        elif code == COUP_FOURRE:
            self._coup_fourre(p)
        elif code == PASS:
            assert self._pending is not None  # a coup-fourré decision is pending
            attacker = self._pending[0]
            self._pending = None
            self._end_turn(attacker)
        elif code == EXTEND:
            s = self.seat_sides[p]
            self._ext_open = False
            self._extender = s
            self.target = self.ruleset.target
            for side in range(self.nsides):
                self._refresh(side)
            if ev is not None:
                extend: ExtendEvent = {"type": "extend", "seat": p, "side": s, "target": self.target}
                ev.append(extend)
            self._end_turn(p)
        else:  # END_HAND
            self._ext_open = False
            if ev is not None:
                end: EndHandEvent = {"type": "end-hand", "seat": p}
                ev.append(end)
            self._end_hand(self.seat_sides[p])

    def _give(self, p: int, k: int) -> None:
        c = self.hand_counts[p]
        c[k] = c[k] + 1  # (an augmented assignment to a list item compiles to generic arithmetic)
        hmask = self.hand_masks
        hmask[p] = hmask[p] | 1 << k
        hsize = self.hand_sizes
        hsize[p] = hsize[p] + 1

    def _take(self, p: int, k: int) -> None:
        c = self.hand_counts[p]
        n = c[k] - 1
        c[k] = n
        if not n:
            hmask = self.hand_masks
            hmask[p] = hmask[p] & ~(1 << k)
        hsize = self.hand_sizes
        hsize[p] = hsize[p] - 1
        known = self._known[p]
        if known and k in known:
            known.remove(k)

    def _draw(self, p: int) -> None:
        k = self._stock.pop()
        self._give(p, k)
        ev = self._ev
        if ev is not None:
            draw: DrawEvent = {"type": "draw", "seat": p, "stock": len(self._stock)}
            ev.append(draw)

    def _play_own(self, p: int, k: int) -> None:
        s = self.seat_sides[p]
        self._take(p, k)
        ev = self._ev
        if ev is not None:
            play: PlayEvent = {"type": "play", "seat": p, "card": C.CARD_IDS[k], "side": s}
            ev.append(play)
        self._pickup_ok = False
        if k < 5:
            dist = self.distances[s] + _VALUES[k]
            self.distances[s] = dist
            self._dcards[s].append(k)
            if k == C.D200:
                n200 = self.two_hundreds_played
                n200[s] = n200[s] + 1
            self._refresh(s)
            if dist == self.target:
                if self._ext_open:
                    self.decision_code = EXTENSION_DECISION
                    self._legal = None
                    return
                self._end_hand(s)
                return
            self._end_turn(p)
        elif k < C.RIGHT_OF_WAY:
            shown = self._shown
            shown[k] = shown[k] + 1
            if k == C.END_OF_LIMIT:
                self._speed[s].append(k)
            else:
                self._battle[s].append(k)
                if k == C.ROLL:
                    self._started[s] = True
            self._refresh(s)
            self._end_turn(p)
        else:
            self._lay_safety(s, k, False)
            if not self._extra_turn:
                self._end_turn(p)
            elif self._stock:
                self._draw(p)
                self.decision_code = PLAY
            elif self._playout and self.hand_sizes[p]:
                self.decision_code = PLAY
            else:
                self._end_turn(p)

    def _lay_safety(self, s: int, k: int, coup_fourre: bool) -> None:
        """Lay a safety on side s; right-of-way also sends a showing stop and speed limit to the discard."""
        b = 1 << k
        safe = self.safety_masks
        safe[s] = safe[s] | b
        self._safeties[s].append(k)
        if coup_fourre:
            cf = self._cf
            cf[s] = cf[s] | b
        if k == C.RIGHT_OF_WAY:
            battle, speed = self._battle[s], self._speed[s]
            if battle and battle[-1] == C.STOP:
                self._discard.append(battle.pop())
            if speed and speed[-1] == C.SPEED_LIMIT:
                self._discard.append(speed.pop())
        self._refresh(s)

    def _attack(self, p: int, k: int, t: int) -> None:
        self._take(p, k)
        (self._speed if k == C.SPEED_LIMIT else self._battle)[t].append(k)
        shown = self._shown
        shown[k] = shown[k] + 1
        self._pickup_ok = False
        self._refresh(t)
        ev = self._ev
        if ev is not None:
            attack: PlayEvent = {"type": "play", "seat": p, "card": C.CARD_IDS[k], "side": t}
            ev.append(attack)
        safety = C.SAFETY_OF[k]
        for q in range(self.players):
            if self.hand_counts[q][safety]:
                if self.may_coup_fourre(q, p, t):
                    self._pending = (p, k, t)
                    self._to_act = q
                    self.decision_code = CF_DECISION
                    if safety not in self._known[q]:  # being asked shows the table who holds it
                        self._known[q].append(safety)
                    return
                break
        self._end_turn(p)

    def may_coup_fourre(self, seat: int, attacker: int, side: int) -> bool:
        """Whether ``seat`` would be asked for a coup fourré against a hazard that ``attacker`` plays on
        ``side``, were it holding the safety: the attacked side, or with ``coup_fourre="any-opponent"``
        any side but the attacker's.  Public: it does not depend on anyone's hand."""
        sq = self.seat_sides[seat]
        return sq == side or (self._cf_any and sq != self.seat_sides[attacker])

    def _coup_fourre(self, q: int) -> None:
        assert self._pending is not None
        attacker, hazard, t = self._pending
        self._pending = None
        d = self.seat_sides[q]
        safety = C.SAFETY_OF[hazard]
        self._take(q, safety)
        if t == d:
            pile = self._speed[d] if hazard == C.SPEED_LIMIT else self._battle[d]
            self._discard.append(pile.pop())
        self._lay_safety(d, safety, True)  # refreshes side d
        ev = self._ev
        if ev is not None:
            answer: CoupFourreEvent = {
                "type": "coup-fourre",
                "seat": q,
                "card": C.CARD_IDS[safety],
                "side": d,
                "hazard": C.CARD_IDS[hazard],
                "attacker": attacker,
            }
            ev.append(answer)
        self._pickup_ok = False
        if self._stock:
            self._draw(q)
        elif not self._playout:
            self._end_hand(-1)
            return
        self._begin_turn(q)

    # ---------------------------------------------------------------- turns
    def _begin_turn(self, p: int) -> None:
        n = self.players
        stock = self._stock
        self._took = False
        for _ in range(n + 1):
            self._turn = p
            self._to_act = p
            if stock:
                if self._pickup_ok and self._pickup and self._discard:
                    self.decision_code = DRAW_DECISION
                    return
                self._draw(p)
                self.decision_code = PLAY
                return
            if self.hand_sizes[p] or not self._playout:
                self.decision_code = PLAY
                return
            p = (p + 1) % n
        self._end_hand(-1)

    def _end_turn(self, p: int) -> None:
        if not self._stock and not self._playout:
            self._end_hand(-1)
            return
        self._begin_turn((p + 1) % self.players)

    # ---------------------------------------------------------------- end of hand
    def _end_hand(self, completed: int) -> None:
        result = self._score(completed)
        self.hand_results.append(result)
        for s, pts in enumerate(result["points"]):
            self.match_scores[s] += pts
        ev = self._ev
        if ev is not None:
            over: HandOverEvent = {"type": "hand-over", **result}
            ev.append(over)
        mt = self.ruleset.match_target
        scores = self.match_scores
        if mt is None:
            self._winners = list(result["winners"])
        elif max(scores) >= mt:
            best = max(scores)
            self._winners = [s for s in range(self.nsides) if scores[s] == best]
        elif self._halt:  # a search world: its next hand would be dealt only to be thrown away
            self.hand_number += 1
            self._to_act = None
            self.decision_code = -1
            self._legal = []
            return
        else:
            self._deal(self.hand_number + 1)
            return
        self._over = True
        self._to_act = None
        self.decision_code = -1
        self._legal = None
        if ev is not None:
            won: MatchOverEvent = {
                "type": "match-over",
                "winners": list(self._winners),
                "scores": list(self.match_scores),
            }
            ev.append(won)

    def _score(self, completed: int) -> HandResult:
        """Score the hand as the ruleset's scoring table says; one breakdown per side."""
        sc = self.ruleset.scoring
        # the table's values read once: attributes of a Python object are slow to read from compiled code
        mile, safety, all_safeties, coup_fourre = sc.mile, sc.safety, sc.all_safeties, sc.coup_fourre
        trip, delayed_action, safe_trip, shutout = sc.trip, sc.delayed_action, sc.safe_trip, sc.shutout
        extension, hand_penalty = sc.extension, sc.hand_penalty
        nsides = self.nsides
        dist = self.distances
        delayed = not self._stock
        if completed >= 0:
            racers = [completed]
        else:
            best = max(dist)
            racers = [s for s in range(nsides) if dist[s] == best]
        breakdowns: list[Breakdown] = []
        points: list[int] = []
        for s in range(nsides):
            nsaf = C.SAFETY_COUNT[self.safety_masks[s] >> C.RIGHT_OF_WAY]
            ncf = C.SAFETY_COUNT[self._cf[s] >> C.RIGHT_OF_WAY]
            b: dict[str, int] = {"distance": mile * dist[s]}
            if safety:
                b["safeties"] = safety * nsaf
            if all_safeties:
                b["all_safeties"] = all_safeties if nsaf == 4 else 0
            if coup_fourre:
                b["coups_fourres"] = coup_fourre * ncf
            done = completed == s
            if trip:
                b["trip"] = trip if done else 0
            if delayed_action:
                b["delayed_action"] = delayed_action if done and delayed else 0
            if safe_trip:
                won = done or (sc.safe_trip_to_any_winner and s in racers and dist[s] > 0)
                b["safe_trip"] = safe_trip if won and self.two_hundreds_played[s] == 0 else 0
            if shutout:
                zeros = 0
                for o in range(nsides):
                    if o != s and dist[o] == 0:
                        zeros += 1
                b["shutout"] = shutout * zeros if done else 0
            if extension and self._extender >= 0:
                ext = self._extender
                b["extension"] = extension if ((s == ext and done) or (s != ext and completed != ext)) else 0
            if hand_penalty:
                b["hand_penalty"] = -sum(
                    _VALUES[k] * self.hand_counts[seat][k] for seat in self.sides[s] for k in C.DISTANCES
                )
            breakdowns.append(cast(Breakdown, b))  # the keys are Breakdown's, the items the edition scores
            points.append(sum(b.values()))
        if self.ruleset.winner == "points":
            best = max(points)
            winners = [s for s in range(nsides) if points[s] == best]
        else:
            winners = racers
        return {
            "hand": self.hand_number,
            "points": points,
            "breakdown": breakdowns,
            "distance": list(dist),
            "winners": winners,
            "completed": completed if completed >= 0 else None,
            "extender": self._extender if self._extender >= 0 else None,
            "stock_empty": delayed,
        }

    # ---------------------------------------------------------------- explanations
    def _decision_words(self) -> str:
        return {
            PLAY: "play or discard a card",
            DRAW_DECISION: "draw or take the discard",
            CF_DECISION: "answer the coup fourré (coup-fourre or pass)",
            EXTENSION_DECISION: "choose extend or end-hand",
        }.get(self.decision_code, "nothing")

    def why_illegal(self, code: int) -> str:
        """Say in words why an action is not legal now (only called for a refused action)."""
        return str(self.refusal(code))

    def refusal(self, code: int) -> IllegalAction:
        """The IllegalAction for a refused action: its English words, its reason code and parameters."""
        if self._over:
            return IllegalAction("the match is over", "match_over")
        what, k, t = decode(code)
        name = ACTION_NAMES[code]
        d = self.decision_code
        if d != PLAY:
            return IllegalAction(
                f"'{name}' is not an answer now: seat {self._to_act} must {self._decision_words()}",
                "wrong_decision",
                to_act=self._to_act,
                decision=self.decision,
            )
        if what in ("draw", "take-discard", "coup-fourre", "pass", "extend", "end-hand"):
            if what in ("draw", "take-discard"):
                return IllegalAction(
                    f"'{name}' is not possible now: the card for this turn is already drawn", "already_drawn"
                )
            return IllegalAction(
                f"'{name}' is not a question now: seat {self._to_act} must play or discard a card",
                "wrong_decision",
                to_act=self._to_act,
                decision="play",
            )
        p = self._to_act
        assert p is not None  # the match is not over
        card = C.CARD_IDS[k]
        if not self.hand_counts[p][k]:
            return IllegalAction(f"seat {p} has no {card} in hand", "no_card", seat=p, card=card)
        s = self.seat_sides[p]
        if what == "attack":
            return self._why_not_attack(s, k, t)
        return self._why_not_own(s, k)

    def _why_not_attack(self, s: int, k: int, t: int) -> IllegalAction:
        card, cid = C.NAMES_EN[k], C.CARD_IDS[k]
        if t >= self.nsides:
            return IllegalAction(f"there is no side {t}: sides are 0 to {self.nsides - 1}", "no_such_side")
        if t == s:
            return IllegalAction(f"{card} is played on an opponent, not on your own side", "own_side", card=cid)
        safe = self.safety_masks[t]
        if safe & _SAFETY_BIT[k]:
            safety = C.SAFETY_OF[k]
            return IllegalAction(
                f"side {t} has {C.NAMES_EN[safety]} in play: {card} cannot hurt it",
                "protected",
                side=t,
                card=cid,
                safety=C.CARD_IDS[safety],
            )
        if k == C.SPEED_LIMIT:
            return IllegalAction(f"side {t} already shows a Speed Limit", "already_limited", side=t, card=cid)
        battle = self._battle[t]
        if self._stacking:
            return IllegalAction(f"side {t} has not started: its battle pile is empty", "not_started", side=t, card=cid)
        top = C.NAMES_EN[battle[-1]] if battle else "nothing"
        return IllegalAction(
            f"side {t} is not moving (its battle pile shows {top}): a hazard only hits a moving car",
            "not_moving",
            side=t,
            card=cid,
            top=C.CARD_IDS[battle[-1]] if battle else None,
        )

    def _why_not_own(self, s: int, k: int) -> IllegalAction:
        card, cid = C.NAMES_EN[k], C.CARD_IDS[k]
        battle, speed = self._battle[s], self._speed[s]
        top = C.NAMES_EN[battle[-1]] if battle else "nothing"
        top_id = C.CARD_IDS[battle[-1]] if battle else None
        if k < 5:
            v = _VALUES[k]
            if not self._moving(s):
                if battle and _IS_BATTLE_HAZARD[battle[-1]] and not self.safety_masks[s] & _SAFETY_BIT[battle[-1]]:
                    remedy = C.REMEDY_OF[battle[-1]]
                    return IllegalAction(
                        f"you are stopped: your battle pile shows {top}; you need {C.NAMES_EN[remedy]} first",
                        "stopped",
                        card=cid,
                        top=top_id,
                        need=C.CARD_IDS[remedy],
                    )
                return IllegalAction(
                    f"you need a Roll first: your battle pile shows {top}",
                    "needs_roll",
                    card=cid,
                    top=top_id,
                    need="roll",
                )
            limited = speed and speed[-1] == C.SPEED_LIMIT and not self.safety_masks[s] & _ROW
            if limited and v > 50:
                return IllegalAction(
                    "you are under a Speed Limit: only 25 and 50 may be played", "speed_limited", card=cid
                )
            if k == C.D200 and self.two_hundreds_played[s] >= 2:
                return IllegalAction("a side may play at most two 200s in a hand", "two_200s", card=cid)
            return IllegalAction(
                f"{v} would take you past the target: {self.distances[s]} + {v} > {self.target} "
                "(distance may never pass the target)",
                "past_target",
                card=cid,
                distance=self.distances[s],
                value=v,
                target=self.target,
            )
        if k == C.ROLL:
            if battle and battle[-1] == C.ROLL:
                return IllegalAction("your battle pile already shows a Roll", "already_rolling", card=cid)
            remedy = C.REMEDY_OF[battle[-1]]
            return IllegalAction(
                f"your battle pile shows {top}: you need {C.NAMES_EN[remedy]}, not a Roll",
                "roll_not_now",
                card=cid,
                top=top_id,
                need=C.CARD_IDS[remedy],
            )
        if k == C.END_OF_LIMIT:
            return IllegalAction("you are not under a Speed Limit", "not_limited", card=cid)
        hazard = C.HAZARD_OF[k]
        return IllegalAction(
            f"{card} cures {C.NAMES_EN[hazard]}, but your battle pile shows {top}",
            "wrong_remedy",
            card=cid,
            hazard=C.CARD_IDS[hazard],
            top=top_id,
        )

    # ---------------------------------------------------------------- public state
    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (a coup-fourré question is asked of another seat than the
        turn's); None once the match is over."""
        return self._to_act

    @property
    def decision(self) -> str | None:
        """The kind of decision pending (play, draw, coup-fourre, extension); None once the match is over."""
        return None if self._over or self.decision_code < 0 else DECISION_NAMES[self.decision_code]

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is (differs from to_act while a coup fourré is asked)."""
        return None if self._over else self._turn

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self._over

    @property
    def winners(self) -> list[int]:
        """The sides that won the match; empty until it is over."""
        return list(self._winners)

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, face down."""
        return len(self._stock)

    @property
    def discard_pile(self) -> list[str]:
        """The discard pile, bottom first: the last card is on top."""
        return [C.CARD_IDS[k] for k in self._discard]

    @property
    def extender(self) -> int | None:
        """The side that called the extension this hand, or None."""
        return self._extender if self._extender >= 0 else None

    @property
    def extension_open(self) -> bool:
        """True until someone reaches the short target, when the extension can still be called."""
        return self._ext_open

    @property
    def pending_attack(self) -> PendingAttack | None:
        """The hazard a coup-fourré question is about, while one is asked; else None."""
        if self._pending is None:
            return None
        p, k, t = self._pending
        return {"attacker": p, "hazard": C.CARD_IDS[k], "side": t}

    @property
    def pickup_available(self) -> bool:
        """Whether the top discard may be taken instead of drawing at the start of the next turn."""
        return self._pickup and self._pickup_ok and bool(self._stock) and bool(self._discard)

    @property
    def took_discard(self) -> bool:
        """Whether the seat whose turn it is took the discard this turn."""
        return self._took

    @property
    def history(self) -> list[str]:
        """Every action of the match so far, in notation."""
        return [ACTION_NAMES[c] for c in self._history]

    def side_of(self, seat: int) -> int:
        """The side a seat plays for (its team, or itself)."""
        return self.seat_sides[seat]

    def hand(self, seat: int) -> list[str]:
        """A seat's hand, sorted by kind: hidden information, which only that seat's observation shows."""
        c = self.hand_counts[seat]
        return [C.CARD_IDS[k] for k in range(C.NUM_KINDS) for _ in range(c[k])]

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public)."""
        return self.hand_sizes[seat]

    def known_cards(self, seat: int) -> list[str]:
        """Cards everybody knows are in this hand and not yet played: taken from the discard pile, or
        a safety shown by being asked for a coup fourré."""
        return [C.CARD_IDS[k] for k in self._known[seat]]

    def is_moving(self, side: int) -> bool:
        """Whether a side may play distance now."""
        return self._moving(side)

    def tableau(self, side: int) -> Tableau:
        """A side's cards on the table: miles, battle and speed piles, safeties and distance played."""
        return {
            "distance": self.distances[side],
            "battle": [C.CARD_IDS[k] for k in self._battle[side]],
            "speed": [C.CARD_IDS[k] for k in self._speed[side]],
            "safeties": [C.CARD_IDS[k] for k in self._safeties[side]],
            "coups_fourres": [C.CARD_IDS[k] for k in self._safeties[side] if self._cf[side] >> k & 1],
            "two_hundreds": self.two_hundreds_played[side],
            "distance_cards": [C.CARD_IDS[k] for k in self._dcards[side]],
        }

    # ---------------------------------------------------------------- the inner door
    # The piles as card kinds, for the compiled playout policy (bots/rollout.py): live lists, like the
    # public masks and counts above, read and never written outside this class.
    @property
    def discard_kinds(self) -> list[int]:
        """The discard pile as card kinds, bottom first."""
        return self._discard

    @property
    def battle_piles(self) -> list[list[int]]:
        """Each side's battle pile as card kinds, bottom first."""
        return self._battle

    @property
    def shown_counts(self) -> list[int]:
        """The copies of each card kind face up on the discard pile and the battle and speed piles."""
        return self._shown

    @property
    def speed_piles(self) -> list[list[int]]:
        """Each side's speed pile as card kinds, bottom first."""
        return self._speed

    @property
    def distance_piles(self) -> list[list[int]]:
        """Each side's distance cards of this hand as card kinds, oldest first."""
        return self._dcards

    @property
    def coup_fourre_masks(self) -> list[int]:
        """The mask of the card kinds of the safeties each side laid as a coup fourré."""
        return self._cf

    @property
    def known_kinds(self) -> list[list[int]]:
        """Per seat, the card kinds the whole table knows it holds (``known_cards`` as kinds)."""
        return self._known

    @property
    def pending_hazard(self) -> int:
        """The kind of the hazard a coup-fourré question is about, or -1 when none is asked."""
        pending = self._pending
        return -1 if pending is None else pending[1]

    def observation(self, seat: int) -> Observation:
        """All that one seat may see as JSON-ready data (see :mod:`millebornes.observe`)."""
        return _observation(self, seat)

    def record(self) -> Record:
        """Everything needed to rebuild this game: ruleset, players, teams, seed, deck, actions."""
        return {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset.name,
            "options": self.ruleset.options(),
            "players": self.players,
            "teams": self.teams,
            "seed": self.seed,
            "deck": None if self.deck is None else [C.CARD_IDS[k] for k in self.deck],
            "actions": self.history,
        }

    def clone(self, halt: bool = False) -> Game:
        """An independent copy, built from flat lists (no deepcopy): cheap enough for search.

        ``halt=True`` makes a world for a playout: when its hand ends (and the match goes on) it
        stops with the hand's result recorded and ``hand_number`` moved on, but deals nothing and
        offers no action."""
        g = Game()
        g._halt = halt
        g.ruleset = self.ruleset
        g.players = self.players
        g.teams = self.teams
        g.nsides = self.nsides
        g.seat_sides = self.seat_sides
        g.sides = self.sides
        g.opponents = self.opponents
        g.seed = self.seed
        g.deck = self.deck
        g._stacking = self._stacking
        g._roll_after = self._roll_after
        g._cf_any = self._cf_any
        g._extra_turn = self._extra_turn
        g._playout = self._playout
        g._pickup = self._pickup
        g.hand_number = self.hand_number
        g.hand_counts = [c[:] for c in self.hand_counts]
        g.hand_masks = self.hand_masks[:]
        g.hand_sizes = self.hand_sizes[:]
        g._stock = self._stock[:]
        g._discard = self._discard[:]
        g._shown = self._shown[:]
        g._battle = [b[:] for b in self._battle]
        g._speed = [b[:] for b in self._speed]
        g.distances = self.distances[:]
        g.two_hundreds_played = self.two_hundreds_played[:]
        g._dcards = [b[:] for b in self._dcards]
        g.safety_masks = self.safety_masks[:]
        g._cf = self._cf[:]
        g._safeties = [b[:] for b in self._safeties]
        g._started = self._started[:]
        g.own_masks = self.own_masks[:]
        g.open_masks = self.open_masks[:]
        g.target = self.target
        g._ext_open = self._ext_open
        g._extender = self._extender
        g._turn = self._turn
        g._to_act = self._to_act
        g.decision_code = self.decision_code
        g._pending = self._pending
        g._took = self._took
        g._pickup_ok = self._pickup_ok
        g._legal = self._legal
        g._history = self._history[:]
        g.hand_results = self.hand_results[:]
        g.match_scores = self.match_scores[:]
        g._over = self._over
        g._winners = self._winners[:]
        g._known = [k[:] for k in self._known]
        g._ev = None
        return g

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self._to_act} to {self.decision}"
        return f"<Game {self.ruleset.name} {self.players}p hand {self.hand_number} scores {self.match_scores} {state}>"


def new_game(
    rules: str | Ruleset = "classic",
    players: int = 2,
    teams: bool | None = None,
    seed: int | None = None,
    deck: list[str] | None = None,
) -> Game:
    """Deal a new match: a preset name or a Ruleset, the player count, teams (None: the edition's
    default for that count), a seed for the shuffles, and optionally a stacked deck (top first).

    >>> g = new_game("parker", players=4, seed=1)
    >>> g.teams, g.sides, g.target
    (True, ((0, 2), (1, 3)), 1000)
    """
    return Game(_ruleset(rules), players, teams, seed, deck)
