"""One seat's state vector written straight from a :class:`~millebornes.state.Game` (compiled: setup.py).

:func:`millebornes.bots.features.state_vector` reads the JSON observation, which costs far more to
build than a decision of the engine; learning environments ask for a vector at every step, so this
module writes the same vector (layout ``features.STATE_NAMES``, equal entry for entry:
tests/research/test_encode.py) from the engine's integer state.  It reads only what the seat's
observation holds, the public state and that seat's hand, through the game's public fields and
inner door.

A :class:`StateEncoder` is made once per table (it reads the ruleset once); :meth:`StateEncoder.encode`
writes every entry in order, as float32 bytes, with mypyc's runtime library (``librt.strings``), which the
compiled code calls natively: about three times faster than setting entries of an array or a memoryview.
librt comes with the ``rl`` extra (the build needs it anyway), so only the environments import this module.
"""

from __future__ import annotations

from typing import Any, Final

from librt.strings import BytesWriter, write_f32_le

from .. import cards as C
from ..state import Game

STATE_LEN: Final = 258
"""The length of a state vector (``features.STATE_SIZE``)."""
VECTOR_BYTES: Final = 4 * STATE_LEN
"""The bytes of a float32 state vector."""
ACTION_COUNT: Final = 206
"""The engine's action codes (``features.NUM_ACTIONS``)."""
SLOTS: Final = 6
"""Side slots of the vector (``features.SIDE_SLOTS``)."""

_SIDE_LEN: Final = 29  # the features of one side slot
_EMPTY_SLOT: Final = bytes(4 * _SIDE_LEN)  # a side slot no side fills: zeros

# the battle:* slot of each card kind on top of a battle pile (none: 0)
_BATTLE_SLOT: Final = (0, 0, 0, 0, 0, 1, 0, 2, 3, 4, 5, 0, 6, 7, 8, 0, 0, 0, 0)
# the safety against each battle hazard, as a bit (0 for other kinds)
_CURE_BIT: Final = tuple(1 << C.SAFETY_OF[k] if k in C.BATTLE_HAZARDS else 0 for k in range(C.NUM_KINDS))
_ROW: Final = 1 << C.RIGHT_OF_WAY


def _one_hot(w: BytesWriter, size: int, hot: int) -> None:
    for i in range(size):
        write_f32_le(w, 1.0 if i == hot else 0.0)


def _flag(w: BytesWriter, on: bool) -> None:
    write_f32_le(w, 1.0 if on else 0.0)


class StateEncoder:
    """Writes seats' state vectors for one table (edition, players, teams): what never changes in a
    match is read from the ruleset once."""

    def __init__(self, game: Game) -> None:
        rules = game.ruleset
        self.players = game.players
        """The seats at the table."""
        self.nsides = game.nsides
        """The sides at the table."""
        self.deck = list(rules.deck_counts(game.players))
        """The copies of each card kind dealt from."""
        mt = rules.match_target
        self.match_target = mt if mt else 5000
        """What scores are divided by: the match target, or 5000 for one race."""
        self.full_hands = 7.0 * (game.players // game.nsides)
        """A side's cards when every hand of it is full."""
        self.sides = [list(seats) for seats in game.sides]
        """The seats of each side."""
        self.rules = [
            float(rules.winner == "points" or rules.match_target is not None),
            float(rules.hazard_target == "stacking"),
            float(rules.roll_after_remedy),
            float(rules.coup_fourre == "any-opponent"),
            float(rules.top_discard_pickup),
            float(rules.exhaustion == "play-out"),
        ]
        """The rule flags of the table's features, in their order."""
        self.teams = float(game.teams)
        """Whether the table plays in teams, as a feature."""
        self._w = BytesWriter()

    def encode(self, game: Game, seat: int) -> bytes:
        """``seat``'s state vector as the bytes of STATE_LEN little-endian float32 (``numpy.frombuffer`` reads it)."""
        w = self._w
        w.truncate(0)
        n = self.nsides
        me = game.seat_sides[seat]
        _one_hot(w, 4, -1 if game.is_over else game.decision_code)
        hand = game.hand_counts[seat]
        for k in range(C.NUM_KINDS):
            write_f32_le(w, hand[k] / 4.0)
        # the copies out of sight: the deck less the hand, the cards face up, the distance played, the safeties
        # laid and the cards other seats are known to hold (counted in locals: no list is written)
        d25 = d50 = d75 = d100 = d200 = 0
        laid = 0
        for s in range(n):
            laid |= game.safety_masks[s]
            for k in game.distance_piles[s]:
                if k == C.D25:
                    d25 += 1
                elif k == C.D50:
                    d50 += 1
                elif k == C.D75:
                    d75 += 1
                elif k == C.D100:
                    d100 += 1
                else:
                    d200 += 1
        known = game.known_kinds
        held: list[int] | None = None
        for q in range(self.players):
            if q != seat and known[q]:
                if held is None:
                    held = [0] * C.NUM_KINDS
                for k in known[q]:
                    held[k] += 1
        shown = game.shown_counts
        deck = self.deck
        for k in range(C.NUM_KINDS):
            u = deck[k] - hand[k] - shown[k]
            if k == C.D25:
                u -= d25
            elif k == C.D50:
                u -= d50
            elif k == C.D75:
                u -= d75
            elif k == C.D100:
                u -= d100
            elif k == C.D200:
                u -= d200
            elif laid >> k & 1:
                u -= 1
            if held is not None:
                u -= held[k]
            write_f32_le(w, u / max(1, deck[k]))
        stock = game.stock_size
        write_f32_le(w, stock / 100.0)
        _flag(w, stock == 0)
        _flag(w, game.pickup_available)
        _flag(w, game.took_discard)
        write_f32_le(w, game.target / 1000.0)
        _flag(w, game.extension_open)
        _flag(w, game.extender is not None)
        pile = game.discard_kinds
        _one_hot(w, C.NUM_KINDS + 1, 1 + pile[-1] if pile else 0)
        _one_hot(w, 5, game.pending_hazard - C.STOP)
        write_f32_le(w, n / SLOTS)
        write_f32_le(w, self.teams)
        scores = game.match_scores
        mt = self.match_target
        if n > 1:
            best = scores[1 if me == 0 else 0]
            for s in range(n):
                if s != me and scores[s] > best:
                    best = scores[s]
            write_f32_le(w, (scores[me] - best) / mt)
        else:
            write_f32_le(w, 0.0)
        write_f32_le(w, game.hand_number / 10.0)
        for x in self.rules:
            write_f32_le(w, x)
        self._write_sides(w, game, seat, me)
        return w.getvalue()

    def _write_sides(self, w: BytesWriter, game: Game, seat: int, me: int) -> None:
        n = self.nsides
        dist = game.distances
        best = 0
        for d in dist:
            if d > best:
                best = d
        target = game.target
        scores = game.match_scores
        mt = self.match_target
        sizes = game.hand_sizes
        known = game.known_kinds
        battles = game.battle_piles
        speeds = game.speed_piles
        for r in range(SLOTS):
            if r >= n:
                w.write(_EMPTY_SLOT)
                continue
            s = (me + r) % n
            write_f32_le(w, 1.0)
            ds = dist[s]
            write_f32_le(w, ds / 1000.0)
            write_f32_le(w, (target - ds) / 1000.0)
            _flag(w, game.is_moving(s))
            battle = battles[s]
            top = battle[-1] if battle else -1
            _one_hot(w, 9, _BATTLE_SLOT[top] if top >= 0 else 0)
            safe = game.safety_masks[s]
            speed = speeds[s]
            _flag(w, bool(speed) and speed[-1] == C.SPEED_LIMIT and not safe & _ROW)
            for k in range(C.RIGHT_OF_WAY, C.NUM_KINDS):
                _flag(w, bool(safe >> k & 1))
            write_f32_le(w, C.SAFETY_COUNT[game.coup_fourre_masks[s] >> C.RIGHT_OF_WAY] / 2.0)
            write_f32_le(w, game.two_hundreds_played[s] / 2.0)
            cards = 0
            held = 0
            for q in self.sides[s]:
                cards += sizes[q]
                if q != seat:
                    for k in known[q]:
                        if k >= C.RIGHT_OF_WAY:
                            held |= 1 << k
            write_f32_le(w, cards / self.full_hands)
            write_f32_le(w, scores[s] / mt)
            _flag(w, ds == best)
            _flag(w, top >= 0 and _CURE_BIT[top] != 0 and not safe & _CURE_BIT[top])
            write_f32_le(w, float(len(game.distance_piles[s])) / 20.0)
            for k in range(C.RIGHT_OF_WAY, C.NUM_KINDS):
                _flag(w, bool(held >> k & 1))

    def vector(self, game: Game, seat: int) -> bytearray:
        """``seat``'s state vector as a bytearray, for a writable ``numpy.frombuffer(..., numpy.float32)``."""
        return bytearray(self.encode(game, seat))


def write_mask(game: Game, seat: int, out: Any, base: int = 0) -> None:
    """Set to 1 the entries ``base + code`` of ``out`` for each code ``seat`` may play (none unless it is to act)."""
    if game.to_act == seat and not game.is_over:
        for code in game.legal_codes():
            out[base + code] = 1


def mask_bytes(game: Game, seat: int) -> bytearray:
    """The action mask of ``seat`` as ACTION_COUNT bytes: 1 for each legal code when it is to act."""
    buf = bytearray(ACTION_COUNT)
    write_mask(game, seat, buf)
    return buf
