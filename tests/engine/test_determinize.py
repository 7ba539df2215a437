"""mb.determinize: possible worlds consistent with one seat's observation."""

import random
from collections import Counter

import pytest

import millebornes as mb
from millebornes.observe import unseen_counts
from tests.util import all_cards, configs, game_with, play


def positions(name, players, teams, seed, every=7):
    """Positions of a random match, every few decisions."""
    g = mb.new_game(name, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    i = 0
    while not g.is_over and i < 400:
        if i % every == 0:
            yield g
        g.act(rng.choice(g.legal_actions()))
        i += 1


@pytest.mark.parametrize("name, players, teams", list(configs()))
def test_worlds_agree_with_the_observation(name, players, teams):
    rng = random.Random(5)
    for g in positions(name, players, teams, seed=players):
        for seat in range(players):
            obs = g.observation(seat)
            world = mb.determinize(obs, rng)
            assert world.observation(seat) == obs
            assert world._shown == g._shown
            if seat == g.to_act:
                assert world.legal_actions() == g.legal_actions()
            deck = Counter({c: n for c, n in zip(mb.CARD_IDS, world.ruleset.deck_counts(players)) if n})
            assert all_cards(world) + Counter(mb.CARD_IDS[k] for k in world._stock) == deck
            for s in range(players):
                assert Counter(g.known_cards(s)) <= Counter(world.hand(s))


def test_worlds_vary_the_hidden_cards_only():
    g = mb.new_game("classic", players=3, seed=11)
    rng = random.Random(0)
    for _ in range(30):
        g.act(rng.choice(g.legal_actions()))
    obs = g.observation(1)
    d = mb.Determinizer(obs)
    worlds = [d.sample(random.Random(i)) for i in range(20)]
    assert all(w.hand(1) == g.hand(1) for w in worlds)
    assert len({tuple(w.hand(0)) for w in worlds}) > 5
    pool = Counter({c: n for c, n in unseen_counts(obs).items() if n})
    for w in worlds:
        hidden = Counter(w.hand(0)) + Counter(w.hand(2))
        hidden -= Counter(g.known_cards(0)) + Counter(g.known_cards(2))
        hidden.update(mb.CARD_IDS[k] for k in w._stock)
        assert hidden == pool


def test_a_pending_coup_fourre_puts_the_safety_in_the_deciders_hand():
    g = game_with("parker", 2, hands={0: ["roll", "flat-tire"], 1: ["roll", "puncture-proof"]})
    play(g, "play roll", "play roll", "play flat-tire 1")
    assert g.decision == "coup-fourre" and g.to_act == 1
    for i in range(10):
        world = mb.determinize(g.observation(0), random.Random(i))
        assert "puncture-proof" in world.hand(1)
        assert world.decision == "coup-fourre"
        world.act("coup-fourre")
        assert "puncture-proof" in world.tableau(1)["coups_fourres"]


def test_worlds_play_on_to_the_end_of_the_match():
    for name in mb.RULESETS:
        g = mb.new_game(name, players=2, seed=3)
        rng = random.Random(3)
        for _ in range(50):
            g.act(rng.choice(g.legal_actions()))
        world = mb.determinize(g.observation(g.to_act), random.Random(1))
        while not world.is_over:
            world.act(rng.choice(world.legal_actions()))
        assert world.winners


def test_an_inconsistent_observation_is_refused():
    g = mb.new_game("classic", players=2, seed=1)
    obs = g.observation(0)
    obs["hand"] = obs["hand"] + ["right-of-way", "right-of-way"]
    with pytest.raises(ValueError, match="not consistent"):
        mb.determinize(obs)
