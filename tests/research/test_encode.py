"""The state vector written from the engine (``bots.encode``) equals the one read from the JSON observation
(``features.state_vector``) entry for entry, for every seat, on random positions of every table the presets
allow, through every kind of decision, and once the match is over; and so does the action mask."""

import random
from collections import Counter

import numpy as np
import pytest

import millebornes as mb
from millebornes import cards as C
from millebornes.actions import ATTACK_BASE, DRAW
from millebornes.bots import encode
from millebornes.bots import features as F
from tests.util import configs


def played_positions(name, players, teams, seed, games=3):
    """Positions of a few matches played by a random policy that prefers distance, remedies and attacks to
    discards and safeties, so that hands run long enough for extensions and safeties wait for coups fourrés: every position of the first 300 decisions of a match, then every tenth and every
    decision other than a play; the last of each match is the match over."""
    for g_seed in range(seed, seed + games):
        game = mb.new_game(name, players=players, teams=teams, seed=g_seed)
        rng = random.Random(g_seed)
        steps = 0
        while not game.is_over:
            if steps < 300 or steps % 10 == 0 or game.decision != "play":
                yield game
            codes = game.legal_codes()
            plays = [
                c for c in codes if c < C.RIGHT_OF_WAY or ATTACK_BASE <= c < DRAW
            ]  # safeties kept for coups fourrés
            pick = plays if plays and rng.random() < 0.8 else codes
            game.act_code(pick[rng.randrange(len(pick))])
            steps += 1
        yield game


def differences(game, seat, encoder):
    want = F.state_vector(game.observation(seat))
    got = np.frombuffer(encoder.encode(game, seat), dtype="<f4")
    return [f"{F.STATE_NAMES[i]}: {got[i]} instead of {want[i]}" for i in np.flatnonzero(got != want)]


@pytest.mark.parametrize("name, players, teams", configs())
def test_the_encoded_vector_is_the_observations(name, players, teams):
    encoder = None
    seen: Counter = Counter()
    rules = mb.ruleset(name)
    matches = 3 if rules.match_target else 8  # a one-race match is one hand
    for game in played_positions(name, players, teams, seed=10 * players + teams, games=matches):
        encoder = encoder or encode.StateEncoder(game)
        seen[game.decision or "over"] += 1
        for seat in range(players):
            wrong = differences(game, seat, encoder)
            assert not wrong, f"{game!r} seat {seat}:\n" + "\n".join(wrong)
    kinds = {"play", "coup-fourre", "over"}
    if rules.top_discard_pickup:
        kinds.add("draw")
    if rules.has_extension(players):
        kinds.add("extension")
    assert set(seen) == kinds, seen


def test_the_sizes_are_the_features():
    game = mb.new_game("family", players=6, seed=1)
    assert len(encode.StateEncoder(game).encode(game, 3)) == 4 * F.STATE_SIZE == 4 * encode.STATE_LEN
    assert encode.ACTION_COUNT == F.NUM_ACTIONS and encode.SLOTS == F.SIDE_SLOTS


def test_a_custom_ruleset_and_a_world():
    """Options no preset combines, and determinized worlds (other hands and stock, the seat's own hand)."""
    rules = mb.ruleset(
        "classic", match_target=None, small_game_deck=False, extension_target=500, top_discard_pickup=False
    )
    rng = random.Random(3)
    for game in played_positions(rules, 3, None, seed=1, games=2):
        encoder = encode.StateEncoder(game)
        for seat in range(3):
            assert not differences(game, seat, encoder)
            world = mb.determinize(game.observation(seat), rng)
            assert not differences(world, seat, encode.StateEncoder(world))
            # other hands and another stock, the same vector: it reads nothing the seat cannot see
            assert encode.StateEncoder(world).encode(world, seat) == encoder.encode(game, seat)


@pytest.mark.parametrize("name, players", [("classic", 2), ("parker", 4), ("family", 6)])
def test_the_mask_is_the_legal_codes_of_the_seat_to_act(name, players):
    for game in played_positions(name, players, None, seed=1, games=1):
        for seat in range(players):
            got = np.frombuffer(encode.mask_bytes(game, seat), dtype=np.int8)
            mine = game.to_act == seat and not game.is_over
            assert np.array_equal(got, F.mask(game.legal_codes() if mine else []))
