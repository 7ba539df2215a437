"""The greedy playout policy: always legal, honest (cards hidden from the seat never change its
choice), sensible on stacked positions; play_out plays one hand to its end.

Scenario positions are played on stacked decks (tests/util.py), with the draws stacked too, so no
filler card changes the choice being tested.
"""

from __future__ import annotations

import random

import pytest

import millebornes as mb
from millebornes.actions import ACTION_NAMES
from millebornes.bots import make_bot
from millebornes.bots.rollout import GreedyBot, greedy_code, play_out
from millebornes.determinize import Determinizer
from tests.util import configs, go, new


def greedy(g) -> str:
    """The policy's answer for the seat to act, as an action string; it must be legal."""
    legal = g.legal_codes()
    code = greedy_code(g, legal)
    assert code in legal, (ACTION_NAMES.get(code), g.legal_actions())
    return ACTION_NAMES[code]


def draw_if_asked(g) -> None:
    if g.decision == "draw":
        g.act("draw")


def positions(name, players, teams, seeds, explore=0.3, hands=2):
    """Games of greedy play mixed with random moves (so odd positions come up too), yielded at
    every decision; the caller must not move the game."""
    for seed in seeds:
        g = mb.new_game(name, players=players, teams=teams, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number < hands:
            yield g
            legal = g.legal_codes()
            code = rng.choice(legal) if rng.random() < explore else greedy_code(g, legal)
            g.act_code(code)


# ----------------------------------------------------------------------------- legality
@pytest.mark.parametrize("name, players, teams", configs())
def test_greedy_only_returns_legal_codes(name, players, teams):
    """Over many positions of every preset and table (greedy and random moves mixed), the policy
    always answers one of the legal codes."""
    n = 0
    for g in positions(name, players, teams, range(5)):
        legal = g.legal_codes()
        assert greedy_code(g, legal) in legal, (name, players, teams, g.decision, g.legal_actions())
        n += 1
    assert n > 100


def test_every_decision_kind_is_met_and_answered():
    """Greedy self-play in classic meets every decision kind (draw, coup fourré, extension) and
    answers all of them legally; with 3 players too."""
    seen = set()
    for players in (2, 3):
        for g in positions("classic", players, None, range(12), explore=0.0, hands=3):
            greedy(g)
            seen.add(g.decision)
    assert seen == {"play", "draw", "coup-fourre", "extension"}


def test_play_out_plays_one_hand_to_its_end():
    """play_out ends exactly when the hand does (a classic match deals the next hand, a race is
    over), leaves the clone it was given apart, and counts its decisions; a random policy too."""
    for name in ("classic", "dujardin", "family"):
        g = mb.new_game(name, players=3, seed=11)
        world = g.clone()
        steps = play_out(world, random.Random(1))
        assert steps == len(world.history) > 20
        assert len(world.hand_results) == 1 and g.hand_results == [] and g.history == []
        assert world.is_over == (name != "classic") and world.hand_number == (name == "classic")
        world = g.clone()
        assert play_out(world, random.Random(1), policy="random") == len(world.history)
        assert len(world.hand_results) == 1
        assert play_out(g.clone(), random.Random(1), max_steps=5) == 5


# ----------------------------------------------------------------------------- honesty
@pytest.mark.parametrize(
    "name, players, teams",
    [
        ("classic", 2, False),
        ("classic", 4, True),
        ("parker", 3, False),
        ("dujardin", 2, False),
        ("dujardin", 6, True),
        ("family", 4, False),
    ],
)
def test_choices_do_not_depend_on_hidden_cards(name, players, teams):
    """In every position, worlds dealt from the seat's observation (other hands and the stock
    re-dealt at random) get the same answer as the real game: the policy reads nothing hidden."""
    rng = random.Random(5)
    checked = differ = 0
    for i, g in enumerate(positions(name, players, teams, range(3), hands=1)):
        if i % 3:
            continue
        seat = g.to_act
        answer = greedy_code(g, g.legal_codes())
        det = Determinizer(g.observation(seat))
        for _ in range(3):
            world = det.sample(rng)
            assert greedy_code(world, world.legal_codes()) == answer, (name, players, g.decision)
            differ += any(world.hand(q) != g.hand(q) for q in range(players) if q != seat)
        checked += 1
    assert checked > 20 and differ > checked  # the worlds really did deal other hidden cards


def test_greedy_bot_reads_the_observation_only():
    """Two games with the same observation for the seat to act (a determinized twin, whose other
    hands and stock differ) get the same answer from the greedy bot, which is the policy's answer
    on the real game."""
    rng = random.Random(2)
    checked = 0
    for name, players in (("classic", 2), ("dujardin", 3), ("classic", 4)):
        for i, g in enumerate(positions(name, players, None, range(2), hands=1)):
            if i % 7:
                continue
            seat = g.to_act
            twin = mb.determinize(g.observation(seat), rng)
            assert twin.observation(seat) == g.observation(seat)
            a = GreedyBot(seed=1).choose(g.observation(seat), g.legal_actions())
            b = make_bot("greedy", seed=9).choose(twin.observation(seat), twin.legal_actions())
            assert a == b == greedy(g)
            checked += 1
    assert checked > 20


# ----------------------------------------------------------------------------- scenarios
def test_coup_fourre_is_always_called():
    g = new(
        "classic",
        2,
        hands={
            0: ["roll", "accident", "75", "25", "50", "end-of-limit"],
            1: ["roll", "driving-ace", "75", "25", "50", "end-of-limit"],
        },
    )
    go(g, "play roll", "play roll", "play accident 1")
    assert g.decision == "coup-fourre" and greedy(g) == "coup-fourre"


def test_cures_its_hazard():
    g = new(
        "classic",
        2,
        hands={
            0: ["roll", "flat-tire", "75", "25", "50", "end-of-limit"],
            1: ["roll", "spare-tire", "100", "25", "50", "end-of-limit"],
        },
    )
    go(g, "play roll", "play roll", "play flat-tire 1")
    draw_if_asked(g)
    assert greedy(g) == "play spare-tire"


def test_takes_the_discard_it_needs():
    """Classic: a seat that must roll, holding no roll, takes the roll just discarded."""
    g = new(
        "classic",
        2,
        hands={
            0: ["roll", "roll", "stop", "25", "50", "end-of-limit"],
            1: ["100", "75", "25", "50", "end-of-limit", "gasoline"],
        },
    )
    go(g, "discard roll")
    assert g.decision == "draw" and greedy(g) == "take-discard"


def test_holds_safeties_where_a_coup_fourre_scores_and_lays_them_where_not():
    """Classic: moving with a 100, it keeps driving-ace for a coup fourré and plays the 100.
    Dujardin: the safety goes down at once (a free turn); then, with no play, the remedy the side
    is now safe without is the card thrown away."""
    g = new(
        "classic",
        2,
        hands={
            0: ["roll", "100", "driving-ace", "75", "50", "25"],
            1: ["roll", "100", "75", "25", "50", "end-of-limit"],
        },
    )
    go(g, "play roll", "play roll")
    draw_if_asked(g)
    assert greedy(g) == "play 100"
    g = new(
        "dujardin",
        2,
        hands={0: ["extra-tank", "gasoline", "75", "75", "50", "25"]},
        draws={0: ["end-of-limit", "end-of-limit"]},
    )
    assert greedy(g) == "play extra-tank"
    go(g, "play extra-tank")
    assert greedy(g) == "discard gasoline"


@pytest.mark.parametrize("visible, expected", [("gasoline", "play out-of-gas 1"), ("spare-tire", "play flat-tire 1")])
def test_attacks_with_the_hazard_the_target_cannot_cure(visible, expected):
    """All six copies of one remedy are in sight (three in hand, three discarded): the hazard that
    remedy cures is the one played."""
    g = new(
        "classic",
        2,
        hands={
            0: ["roll", "out-of-gas", "flat-tire", visible, visible, visible],
            1: ["roll", visible, visible, visible, "100", "75"],
        },
        draws={0: ["end-of-limit"] * 5, 1: ["25"] * 4},
    )
    go(g, "play roll", "play roll")
    for _ in range(3):
        go(g, "discard end-of-limit", f"discard {visible}")
    draw_if_asked(g)
    assert greedy(g) == expected


def test_attacks_the_leader():
    g = new(
        "dujardin",
        3,
        hands={
            0: ["flat-tire", "gasoline", "gasoline", "gasoline", "spare-tire", "spare-tire"],
            1: ["roll", "100", "end-of-limit", "end-of-limit", "repairs", "repairs"],
            2: ["roll", "200", "100", "end-of-limit", "end-of-limit", "repairs"],
        },
        draws={0: ["gasoline"] * 3, 1: ["repairs"] * 3, 2: ["end-of-limit"] * 2},
    )
    go(
        g,
        "discard gasoline",
        "play roll",
        "play roll",
        "discard gasoline",
        "play 100",
        "play 200",
        "discard gasoline",
        "discard repairs",
        "play 100",
    )
    assert [g.tableau(s)["distance"] for s in range(3)] == [0, 100, 300]
    assert greedy(g) == "play flat-tire 2"


def test_keeps_an_exact_finish_possible():
    """150 to go with 100, 75, 75 in hand and no 25 or 50: a 75 (then the other 75 finishes), not
    the 100 (which would leave 50 it cannot make)."""
    g = new(
        "dujardin",
        2,
        target=350,
        extension_target=350,
        hands={
            0: ["roll", "200", "100", "75", "75", "end-of-limit"],
            1: ["25", "25", "50", "50", "end-of-limit", "gasoline"],
        },
        draws={0: ["end-of-limit", "gasoline", "gasoline"], 1: ["end-of-limit", "gasoline", "gasoline"]},
    )
    go(g, "play roll", "discard 25", "play 200", "discard 25")
    assert g.tableau(0)["distance"] == 200 and greedy(g) == "play 75"
    go(g, "play 75", "discard 50")
    assert greedy(g) == "play 75"


@pytest.mark.parametrize("opponent_started, expected", [(True, "extend"), (False, "end-hand")])
def test_extension_banks_a_shutout(opponent_started, expected):
    """Classic with the extension at 100: early, with distance and a safety in hand, it extends;
    but not when ending now scores the 500-point shutout (the opponent has no distance)."""
    g = new(
        "classic",
        2,
        extension_target=100,
        hands={
            0: ["roll", "100", "200", "100", "75", "right-of-way"],
            1: ["roll", "50", "25", "end-of-limit", "gasoline", "gasoline"],
        },
        draws={0: ["end-of-limit", "gasoline"], 1: ["spare-tire", "repairs"]},
    )
    go(
        g,
        "play roll",
        "play roll",
        "discard end-of-limit",
        "play 50" if opponent_started else "discard gasoline",
        "play 100",
    )
    assert g.decision == "extension" and greedy(g) == expected
