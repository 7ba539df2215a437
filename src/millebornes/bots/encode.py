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
MASK_ZEROS: Final = bytes(ACTION_COUNT)
"""An action mask with no legal code."""

# the battle:* slot of each card kind on top of a battle pile (none: 0)
_BATTLE_SLOT: Final = (0, 0, 0, 0, 0, 1, 0, 2, 3, 4, 5, 0, 6, 7, 8, 0, 0, 0, 0)
# the safety against each battle hazard, as a bit (0 for other kinds)
_CURE_BIT: Final = tuple(1 << C.SAFETY_OF[k] if k in C.BATTLE_HAZARDS else 0 for k in range(C.NUM_KINDS))
_ROW: Final = 1 << C.RIGHT_OF_WAY


def _floats(values: list[float]) -> bytes:
    w = BytesWriter()
    for x in values:
        write_f32_le(w, x)
    return w.getvalue()


def _hots(size: int) -> tuple[bytes, ...]:
    """Each one-hot vector of ``size`` entries, by its hot entry, and all zeros last (index -1 or ``size``)."""
    return tuple(_floats([1.0 if i == hot else 0.0 for i in range(size)]) for hot in range(size + 1))


def _bits(size: int) -> tuple[bytes, ...]:
    """The flags of each mask of ``size`` bits, lowest bit first, by the mask: one copy of memory each."""
    return tuple(_floats([float(m >> i & 1) for i in range(size)]) for m in range(1 << size))


# the one-hot blocks, written whole
_HOT_DECISION: Final = _hots(4)
_HOT_DISCARD: Final = _hots(C.NUM_KINDS + 1)
_HOT_PENDING: Final = _hots(5)
_HOT_BATTLE: Final = _hots(9)
_SAFETY_FLAGS: Final = _bits(4)


def _hot(table: tuple[bytes, ...], index: int) -> bytes:
    return table[index] if 0 <= index < len(table) - 1 else table[len(table) - 1]


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
        self.per_copy = [1.0 / max(1, n) for n in self.deck]
        """What one unseen copy of each kind adds to its feature."""
        mt = rules.match_target
        self.match_target = mt if mt else 5000
        """What scores are divided by: the match target, or 5000 for one race."""
        self.full_hands = 7.0 * (game.players // game.nsides)
        """A side's cards when every hand of it is full."""
        self.sides = [list(seats) for seats in game.sides]
        """The seats of each side."""
        self.rules = _floats(
            [
                float(rules.winner == "points" or rules.match_target is not None),
                float(rules.hazard_target == "stacking"),
                float(rules.roll_after_remedy),
                float(rules.coup_fourre == "any-opponent"),
                float(rules.top_discard_pickup),
                float(rules.exhaustion == "play-out"),
            ]
        )
        """The rule flags of the table's features, in their order, as they are written."""
        self.table = _floats([self.nsides / SLOTS, float(game.teams)])
        """The sides (of the most an edition seats) and whether they are teams, as they are written."""
        self._w = BytesWriter()

    def encode(self, game: Game, seat: int) -> bytes:
        """``seat``'s state vector as the bytes of STATE_LEN little-endian float32 (``numpy.frombuffer`` reads it)."""
        w = self._w
        w.truncate(0)
        self._write(w, game, seat)
        return w.getvalue()

    def observe(self, game: Game, seat: int) -> bytearray:
        """``seat``'s state vector then its action mask (VECTOR_BYTES + ACTION_COUNT bytes, the mask's 1 for
        each code it may play when it is to act): one buffer for the two arrays an environment hands out."""
        w = self._w
        w.truncate(0)
        self._write(w, game, seat)
        w.write(MASK_ZEROS)
        if game.to_act == seat and not game.is_over:
            for code in game.legal_codes():
                w[VECTOR_BYTES + code] = 1
        return bytearray(w.getvalue())

    def _write(self, w: BytesWriter, game: Game, seat: int) -> None:
        n = self.nsides
        me = game.seat_sides[seat]
        w.write(_hot(_HOT_DECISION, -1 if game.is_over else game.decision_code))
        hand = game.hand_counts[seat]
        for h in hand:
            write_f32_le(w, float(h) * 0.25)
        # the copies out of sight: the deck less the hand, the cards face up, the distance played, the safeties
        # laid and the cards other seats are known to hold (counted in one list, written at the end)
        unseen = [d - h - s for d, h, s in zip(self.deck, hand, game.shown_counts)]
        laid = 0
        piles = game.distance_piles
        for s in range(n):
            laid |= game.safety_masks[s]
            for k in piles[s]:
                unseen[k] -= 1
        for k in range(C.RIGHT_OF_WAY, C.NUM_KINDS):
            if laid >> k & 1:
                unseen[k] -= 1
        known = game.known_kinds
        for q in range(self.players):
            if q != seat:
                for k in known[q]:
                    unseen[k] -= 1
        for u, per in zip(unseen, self.per_copy):
            write_f32_le(w, float(u) * per)
        stock = game.stock_size
        write_f32_le(w, stock / 100.0)
        _flag(w, stock == 0)
        _flag(w, game.pickup_available)
        _flag(w, game.took_discard)
        write_f32_le(w, game.target / 1000.0)
        _flag(w, game.extension_open)
        _flag(w, game.extender is not None)
        pile = game.discard_kinds
        w.write(_hot(_HOT_DISCARD, 1 + pile[-1] if pile else 0))
        w.write(_hot(_HOT_PENDING, game.pending_hazard - C.STOP))
        w.write(self.table)
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
        w.write(self.rules)
        self._write_sides(w, game, seat, me)

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
        piles = game.distance_piles
        cfs = game.coup_fourre_masks
        safeties = game.safety_masks
        hundreds = game.two_hundreds_played
        for r in range(n):
            s = me + r
            if s >= n:
                s -= n
            write_f32_le(w, 1.0)
            ds = dist[s]
            write_f32_le(w, ds / 1000.0)
            write_f32_le(w, (target - ds) / 1000.0)
            _flag(w, game.is_moving(s))
            battle = battles[s]
            top = battle[-1] if battle else -1
            w.write(_HOT_BATTLE[_BATTLE_SLOT[top] if top >= 0 else 0])
            safe = safeties[s]
            speed = speeds[s]
            _flag(w, bool(speed) and speed[-1] == C.SPEED_LIMIT and not safe & _ROW)
            w.write(_SAFETY_FLAGS[safe >> C.RIGHT_OF_WAY & 15])
            write_f32_le(w, C.SAFETY_COUNT[cfs[s] >> C.RIGHT_OF_WAY] / 2.0)
            write_f32_le(w, hundreds[s] / 2.0)
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
            write_f32_le(w, float(len(piles[s])) / 20.0)
            w.write(_SAFETY_FLAGS[held >> C.RIGHT_OF_WAY & 15])
        for _ in range(n, SLOTS):
            w.write(_EMPTY_SLOT)

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
