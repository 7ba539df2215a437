"""Properties that hold for every preset and every player count / team setting it allows.

Random legal play (plain seeded loops and Hypothesis with a bounded number of examples) checks that
games end, that no card is ever lost or created, that the legal actions are exactly what ``act``
accepts, that refused actions change nothing, that observations hide what they must, and that
records, replays and clones behave.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import millebornes as mb
from tests.util import all_cards, configs

CONFIGS = configs()
CONFIG_IDS = [f"{name}-{players}{'-teams' if teams else ''}" for name, players, teams in CONFIGS]
SPECIAL = ["draw", "take-discard", "coup-fourre", "pass", "extend", "end-hand"]
ALL_ACTIONS = sorted(set(mb.ACTION_NAMES.values()))
OBS_KEYS = {
    "format",
    "seat",
    "side",
    "ruleset",
    "options",
    "players",
    "teams",
    "sides",
    "hand_number",
    "first_seat",
    "turn",
    "to_act",
    "decision",
    "legal_actions",
    "pending_attack",
    "hand",
    "hand_sizes",
    "known_cards",
    "stock_size",
    "discard_pile",
    "target",
    "extension_open",
    "extender",
    "tableaux",
    "hand_results",
    "match_scores",
    "is_over",
    "winners",
}
FORBIDDEN_KEYS = {"seed", "deck", "stock", "stock_order", "hands", "history", "actions", "rng"}
HAND_CAP = 3000  # decisions in one hand: far more than any hand needs
MATCH_CAP = 100_000  # decisions in one match

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Short histories keep most examples inside hand 0 with a swap to try (about 70% of them).
HIDDEN_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_configs_cover_every_preset():
    assert {c[0] for c in CONFIGS} == set(mb.RULESETS)
    assert ("classic", 6, True) in CONFIGS and ("dujardin", 8, True) in CONFIGS and ("family", 6, False) in CONFIGS


# ------------------------------------------------------------------------------------ helpers
def full_deck(name, players):
    r = mb.ruleset(name)
    return [c for c, n in zip(mb.CARD_IDS, r.deck_counts(players)) for _ in range(n)]


def shuffled_game(name, players, teams, seed):
    """A game on an explicit deck (so the stock of hand 0 is known to the test)."""
    deck = full_deck(name, players)
    random.Random(seed).shuffle(deck)
    return mb.new_game(name, players=players, teams=teams, seed=seed, deck=deck), deck


def snapshot(g):
    """Everything public about a game, per seat, plus its record."""
    return json.dumps({"record": g.record(), "obs": [g.observation(s) for s in range(g.players)]}, sort_keys=True)


def check_cards(g, deck):
    """Every card is somewhere.  In hand 0 of a stacked deck the stock is known exactly: it is the
    bottom ``stock_size`` cards of the deck; in later hands only its size is known."""
    want = Counter(dict(zip(mb.CARD_IDS, g.ruleset.deck_counts(g.players))))
    want = +want
    seen = all_cards(g)
    if g.hand_number == 0 and deck is not None and not g.is_over:
        stock = deck[len(deck) - g.stock_size :] if g.stock_size else []
        assert seen + Counter(stock) == want, (seen + Counter(stock)) - want or want - (seen + Counter(stock))
    else:
        assert all(seen[c] <= want[c] for c in seen), seen - want
        assert sum(want.values()) - sum(seen.values()) == g.stock_size
    for s in range(g.players):
        assert g.hand_size(s) == len(g.hand(s))
        assert g.hand(s) == sorted(g.hand(s), key=mb.CARD_IDS.index)
    # the engine keeps a count of the cards face up on the discard, battle and speed piles (the
    # playout policy reads it to know how many copies of a card it has not seen)
    assert g._shown == face_up_counts(g)


def face_up_counts(g):
    counts = [0] * len(mb.CARD_IDS)
    for pile in [g._discard] + g._battle + g._speed:
        for k in pile:
            counts[k] += 1
    return counts


def random_step(g, rng):
    seat = g.to_act
    legal = g.legal_actions()
    assert legal, f"{g!r}: no legal action"
    action = rng.choice(legal)
    g.act(action, seat=seat)
    return action


def advance(g, rng, steps):
    for _ in range(steps):
        if g.is_over:
            break
        random_step(g, rng)
    return g


# ------------------------------------------------------------------------------------ termination, cards
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_random_matches_end_and_keep_every_card(config):
    name, players, teams = config
    for seed in range(3):
        g, deck = shuffled_game(name, players, teams, seed)
        assert g.teams is teams and g.players == players
        assert g.nsides == (players // 2 if teams else players)
        rng = random.Random(seed)
        check_cards(g, deck)
        in_hand = 0
        for _ in range(MATCH_CAP):
            if g.is_over:
                break
            hand = g.hand_number
            assert g.to_act is not None and g.decision is not None
            random_step(g, rng)
            check_cards(g, deck)
            in_hand = in_hand + 1 if g.hand_number == hand else 0
            assert in_hand < HAND_CAP, "a hand does not end"
        else:
            pytest.fail(f"{name} {players}p seed {seed}: the match does not end")
        assert g.to_act is None and g.decision is None and g.legal_actions() == [] and g.legal_codes() == []
        assert g.winners and len(g.hand_results) == g.hand_number + 1
        if g.ruleset.match_target is None:
            assert len(g.hand_results) == 1


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_every_legal_action_is_accepted(config):
    """At every decision of a few hands, each listed action is accepted (tried on a clone), the
    list has no duplicates and matches the integer codes."""
    name, players, teams = config
    for seed in (11, 12):
        g, _ = shuffled_game(name, players, teams, seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number < 2:
            legal = g.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            assert [mb.ACTION_NAMES[c] for c in g.legal_codes()] == legal
            seat = g.to_act
            for action in legal:
                c = g.clone()
                c.act(action, seat=seat)
                c2 = g.clone()
                c2.act_code(mb.ACTION_CODES[action])
                assert c2.record() == c.record()
            random_step(g, rng)


# ------------------------------------------------------------------------------------ refused actions
def assert_refused(g, action, seat=None, error=mb.IllegalAction):
    before = snapshot(g)
    with pytest.raises(error):
        g.act(action, seat=seat)
    assert snapshot(g) == before, f"refused {action!r} changed the game"


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
@SETTINGS
def test_every_unlisted_action_is_refused_and_changes_nothing(config, seed, steps):
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=seed), random.Random(seed), steps)
    legal = set(g.legal_actions())
    for action in ALL_ACTIONS:
        if action not in legal:
            assert_refused(g, action)
    if g.is_over:
        return
    # Cards not in hand, whatever the decision.
    hand = set(g.hand(g.to_act))
    for card in mb.CARD_IDS:
        if card not in hand:
            assert_refused(g, f"discard {card}")
            assert_refused(
                g,
                f"play {card} 0"
                if card in ("stop", "speed-limit", "out-of-gas", "flat-tire", "accident")
                else f"play {card}",
            )
    # The right action, for the wrong seat.
    for seat in range(players):
        if seat != g.to_act:
            for action in sorted(legal)[:3]:
                assert_refused(g, action, seat=seat)
    assert_refused(g, sorted(legal)[0], seat=players)
    assert_refused(g, sorted(legal)[0], seat=-1)


@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 200),
    junk=st.one_of(
        st.text(max_size=30),
        st.builds(
            lambda v, c, t: f"{v} {c} {t}".strip(),
            st.sampled_from(["play", "discard", "Play", "", "draw", "pass", "coup"]),
            st.sampled_from(list(mb.CARD_IDS) + ["300", "roll2", "", "STOP"]),
            st.sampled_from(["", "0", "1", "2", "7", "9", "-1", "x", "1 1"]),
        ),
    ),
)
@SETTINGS
def test_random_strings_are_refused_or_legal(config, seed, steps, junk):
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=seed), random.Random(seed), steps)
    canonical = " ".join(junk.lower().replace("_", "-").split())
    if not g.is_over and canonical in g.legal_actions():
        c = g.clone()
        c.act(junk)
        assert c.history[-1] == canonical
    else:
        assert_refused(g, junk)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_an_action_is_its_notation_or_its_code_and_nothing_else(config):
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=5), random.Random(5), 20)
    for junk in (None, 3.5, b"play 25", ["play", "25"], {"play": "25"}):
        assert_refused(g, junk, error=TypeError)
    for junk in (True, False, -1, 999, *[code for code in mb.ACTION_NAMES if code not in g.legal_codes()][:20]):
        assert_refused(g, junk)
    for code in g.legal_codes():
        by_code, by_name = g.clone(), g.clone()
        assert by_code.act(code) == by_name.act(mb.ACTION_NAMES[code]) and by_code.record() == by_name.record()


# ------------------------------------------------------------------------------------ observations
def lists_in(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from lists_in(v)
    elif isinstance(value, list):
        yield value
        for v in value:
            yield from lists_in(v)


def keys_in(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


def check_observation(g, seat):
    obs = g.observation(seat)
    json.dumps(obs)  # JSON-ready
    assert OBS_KEYS <= set(obs), OBS_KEYS - set(obs)  # more public fields may come; the checks below hold
    assert obs["seat"] == seat and obs["side"] == g.side_of(seat)
    assert obs["hand"] == g.hand(seat)
    assert obs["hand_sizes"] == [g.hand_size(s) for s in range(g.players)]
    assert obs["stock_size"] == g.stock_size
    assert obs["legal_actions"] == (g.legal_actions() if g.to_act == seat else [])
    assert not FORBIDDEN_KEYS & set(keys_in(obs)), FORBIDDEN_KEYS & set(keys_in(obs))
    assert obs["known_cards"][seat] == []
    for s in range(g.players):
        if s != seat:
            # What the table knows of another hand is only what it saw taken from the discard pile.
            assert Counter(obs["known_cards"][s]) <= Counter(g.hand(s))
    if not g.hand_results or g.hand_results[-1]["hand"] != g.hand_number:
        others = [
            g.hand(s) for s in range(g.players) if s != seat and g.hand_size(s) >= 5 and g.hand(s) != g.hand(seat)
        ]
        for lst in lists_in(obs):
            if lst is obs["hand"]:
                continue
            for h in others:
                assert sorted(lst, key=str) != sorted(h, key=str), f"seat {seat} sees another hand in {lst}"
    return obs


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
@SETTINGS
def test_observations_hold_own_hand_only(config, seed, steps):
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=seed), random.Random(seed), steps)
    for seat in range(players):
        check_observation(g, seat)
    with pytest.raises(ValueError):
        g.observation(players)


def history_with_seats(g, rng, steps):
    """Random play in hand 0 only; returns (seat, action) pairs."""
    played = []
    for _ in range(steps):
        if g.is_over or g.hand_results:
            break
        seat = g.to_act
        played.append((seat, random_step(g, rng)))
    return played


def replay_on(deck, g, played):
    """The same actions on another deck; None if one is refused there."""
    other = mb.new_game(g.ruleset, players=g.players, teams=g.teams, seed=g.seed, deck=deck)
    for seat, action in played:
        try:
            other.act(action, seat=seat)
        except mb.IllegalAction:
            return None
    return other


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 60), data=st.data())
@HIDDEN_SETTINGS
def test_stock_order_is_inall_cards(config, seed, steps, data):
    """Two games whose stocks differ only in the order of cards nobody has drawn yet look the same
    to every seat."""
    name, players, teams = config
    g, deck = shuffled_game(name, players, teams, seed)
    played = history_with_seats(g, random.Random(seed), steps)
    if g.hand_results:
        return
    n = g.stock_size
    undrawn = list(range(len(deck) - n, len(deck)))
    pairs = [(i, j) for i in undrawn for j in undrawn if i < j and deck[i] != deck[j]]
    if not pairs:
        return
    i, j = data.draw(st.sampled_from(pairs[:200]))
    other_deck = list(deck)
    other_deck[i], other_deck[j] = other_deck[j], other_deck[i]
    other = replay_on(other_deck, g, played)
    assert other is not None, "the same actions must stay legal: nobody has seen those cards"
    for seat in range(players):
        assert other.observation(seat) == g.observation(seat)


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 60), data=st.data())
@HIDDEN_SETTINGS
def test_other_hands_are_inall_cards(config, seed, steps, data):
    """Swap a card X of seat h's opening hand with an undrawn stock card Y (neither a safety, seat h
    never playing or discarding X or Y): every other seat sees exactly the same game, and seat h
    sees the same game apart from its hand and its legal actions."""
    name, players, teams = config
    g, deck = shuffled_game(name, players, teams, seed)
    played = history_with_seats(g, random.Random(seed), steps)
    if g.hand_results or g.is_over:
        return
    h = data.draw(st.integers(0, players - 1))
    touched = {a.split()[1] for seat, a in played if seat == h and len(a.split()) > 1}
    safeties = {"right-of-way", "extra-tank", "puncture-proof", "driving-ace"}
    n = g.stock_size
    swaps = [
        (i, j)
        for i in range(6 * h, 6 * h + 6)
        for j in range(len(deck) - n, len(deck))
        if deck[i] != deck[j] and not {deck[i], deck[j]} & (safeties | touched)
    ]
    if not swaps:
        return
    i, j = data.draw(st.sampled_from(swaps[:200]))
    other_deck = list(deck)
    other_deck[i], other_deck[j] = other_deck[j], other_deck[i]
    other = replay_on(other_deck, g, played)
    assert other is not None, f"seat {h} never used {deck[i]} or {deck[j]}: the same actions stay legal"
    assert Counter(other.hand(h)) - Counter(g.hand(h)) == Counter([deck[j]])
    for seat in range(players):
        a, b = g.observation(seat), other.observation(seat)
        if seat == h:
            for key in ("hand", "legal_actions"):
                a.pop(key), b.pop(key)
        assert a == b, f"seat {seat} can tell seat {h}'s hand apart"


# ------------------------------------------------------------------------------------ records, clones
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 600), stacked=st.booleans())
@SETTINGS
def test_replay_of_a_record_gives_the_same_observations(config, seed, steps, stacked):
    name, players, teams = config
    if stacked:
        g, _ = shuffled_game(name, players, teams, seed)
    else:
        g = mb.new_game(name, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    marks = {}
    for k in range(steps):
        if g.is_over:
            break
        if k % 97 == 0:
            marks[len(g.history)] = [g.observation(s) for s in range(players)]
        random_step(g, rng)
    rec = json.loads(json.dumps(g.record()))
    again = mb.replay(rec)
    assert again.record() == g.record()
    for seat in range(players):
        assert again.observation(seat) == g.observation(seat)
    for upto, obs in marks.items():
        part = mb.replay(rec, upto=upto)
        assert [part.observation(s) for s in range(players)] == obs
    if not g.is_over:
        # The replayed game goes on exactly like the original.
        for _ in range(20):
            if g.is_over:
                break
            action = g.legal_actions()[rng.randrange(len(g.legal_actions()))]
            g.act(action)
            again.act(action)
        assert snapshot(again) == snapshot(g)


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 500))
@SETTINGS
def test_clone_is_independent(config, seed, steps):
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=seed), random.Random(seed), steps)
    c = g.clone()
    assert snapshot(c) == snapshot(g)
    if g.is_over:
        return
    original = snapshot(g)
    advance(c, random.Random(seed + 1), 60)
    assert snapshot(g) == original, "acting on the clone changed the original"
    cloned = snapshot(c)
    advance(g, random.Random(seed + 2), 60)
    assert snapshot(c) == cloned, "acting on the original changed the clone"
    # The clone keeps working as a full game.
    advance(c, random.Random(seed + 3), MATCH_CAP)
    assert c.is_over


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_same_seed_same_game(config):
    name, players, teams = config
    a = advance(mb.new_game(name, players=players, teams=teams, seed=99), random.Random(1), 300)
    b = advance(mb.new_game(name, players=players, teams=teams, seed=99), random.Random(1), 300)
    assert snapshot(a) == snapshot(b)


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
@SETTINGS
def test_halting_clone_stops_where_the_hand_ends(config, seed, steps):
    """A search world (``clone(halt=True)``) plays its hand exactly like the game, then stops with
    the hand's result recorded instead of dealing the next hand."""
    name, players, teams = config
    g = advance(mb.new_game(name, players=players, teams=teams, seed=seed), random.Random(seed), steps)
    if g.is_over:
        return
    w = g.clone(halt=True)
    hand = g.hand_number
    rng = random.Random(seed + 1)
    while len(g.hand_results) <= hand:
        action = rng.choice(g.legal_actions())
        g.act(action)
        w.act(action)
    assert w.hand_results == g.hand_results and w.match_scores == g.match_scores
    assert w.is_over == g.is_over
    if not g.is_over:  # the game dealt the next hand; the world did not
        assert g.hand_number == w.hand_number == hand + 1
        assert g.legal_actions() and w.legal_actions() == [] and w.to_act is None and w.decision is None
        assert len(w._stock) < len(g._stock) or w.hand_results[-1]["stock_empty"]
