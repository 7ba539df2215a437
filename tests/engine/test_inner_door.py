"""The engine's inner door: clones and determinized worlds carry every slot of a Game, found by
reading ``Game.__slots__``, so a slot added to the engine and forgotten by either fails here."""

import random

import pytest

import millebornes as mb
from millebornes import cards as C
from millebornes.state import Game
from tests.util import configs

SLOTS = tuple(getattr(Game, "__slots__", None) or Game.__mypyc_attrs__)
"""Every attribute of a Game: its ``__slots__``, or where mypyc compiled it (no slots), mypyc's own list."""
SHARED = {"ruleset", "seat_sides", "sides", "opponents", "deck", "_pending", "_legal"}
"""Slots a clone may share with its original: never written in place."""
HIDDEN = {"seed", "hand_counts", "hand_masks", "hand_sizes", "_stock"}
"""Slots a determinized world deals again: the hands, the stock and the seed of the hands to come."""
UNSEEN = {"deck", "_history", "_legal"}
"""Slots an observation does not carry: the stacked deck, the actions before, the cache of legal codes."""


def positions(name, players, teams, seed, every=5):
    g = mb.new_game(name, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    for i in range(300):
        if g.is_over:
            return
        if i % every == 0:
            yield g
        g.act(rng.choice(g.legal_actions()))


def lists_in(value):
    """Every list inside ``value``, itself included (a hand's result, once made, is never written: shared)."""
    if isinstance(value, (list, tuple)):
        found = [value] if isinstance(value, list) else []
        for item in value:
            found += lists_in(item)
        return found
    return []


def test_the_slots_are_what_the_engine_declares():
    assert len(SLOTS) == len(set(SLOTS)) > 40
    assert SHARED | HIDDEN | UNSEEN <= set(SLOTS)


@pytest.mark.parametrize("name, players, teams", list(configs()))
def test_a_clone_carries_every_slot_and_shares_no_list(name, players, teams):
    for g in positions(name, players, teams, seed=players + 3):
        c = g.clone()
        for slot in SLOTS:
            assert getattr(c, slot) == getattr(g, slot), slot
            if slot not in SHARED:
                mine = {id(x) for x in lists_in(getattr(g, slot))}
                assert not any(id(x) in mine for x in lists_in(getattr(c, slot))), slot


@pytest.mark.parametrize("name, players, teams", list(configs()))
def test_a_world_carries_every_public_slot(name, players, teams):
    rng = random.Random(2)
    for g in positions(name, players, teams, seed=players):
        for seat in range(players):
            world = mb.determinize(g.observation(seat), rng)
            for slot in set(SLOTS) - HIDDEN - UNSEEN:
                if slot == "_pickup_ok":  # the observation shows it only where a pickup is possible
                    assert world.pickup_available == g.pickup_available
                    continue
                if slot == "_known":  # the observing seat sees its whole hand, not what the table knows of it
                    assert [k for s, k in enumerate(world._known) if s != seat] == [
                        k for s, k in enumerate(g._known) if s != seat
                    ]
                    continue
                assert getattr(world, slot) == getattr(g, slot), slot
            assert world.hand(seat) == g.hand(seat)
            assert [world.hand_size(s) for s in range(players)] == [g.hand_size(s) for s in range(players)]
            assert world.stock_size == g.stock_size
            assert world.deck is None and world.history == []
            if seat == g.to_act:
                assert world.legal_codes() == g.legal_codes()


def test_apply_legal_is_act_code_unchecked():
    g = mb.new_game("classic", players=3, seed=9)
    rng = random.Random(1)
    for _ in range(60):
        code = rng.choice(g.legal_codes())
        checked, unchecked = g.clone(), g.clone()
        checked.act_code(code)
        unchecked.apply_legal(code)
        assert unchecked.observation(0) == checked.observation(0) and unchecked.history == checked.history
        g = unchecked


def test_a_world_with_another_hand_for_the_seat_to_act_works_out_its_legal_codes_again():
    """A search may deal the seat to act other cards (OpenSpiel's chance nodes do): the legal codes cached by the
    game it came from must not carry over into the world."""
    g = mb.new_game("classic", players=2, seed=4)
    untouched = g.clone()  # nothing cached yet
    seat = g.to_act
    assert "play roll" in g.legal_actions()  # cached now
    kind = C.CARD_IDS.index
    hands = [[kind(c) for c in g.hand(s)] if s != seat else [kind("25")] * len(g.hand(s)) for s in range(g.players)]
    stock = [kind("75")] * g.stock_size
    world = g.redealt(hands, stock, seed=1)
    assert world.legal_actions() == untouched.redealt(hands, stock, seed=1).legal_actions() == ["discard 25"]
