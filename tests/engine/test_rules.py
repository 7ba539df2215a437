"""Every rule and option of docs/rules.md sections 1-6, played out through the public API on stacked decks.

"RULES n" in a docstring cites section n of docs/rules.md, which names each of these tests where its rule is.

Conventions of these tests: a hand is stacked with ``hands`` (seat -> up to six cards); ``draws``
says what each seat draws on its successive turns when play simply goes round the table from
seat 0 with one draw a turn (``None`` = any harmless card); ``go`` plays actions, drawing first
when the classic "draw" decision is asked; ``pass_turn`` discards a filler card.
"""

from __future__ import annotations

import random

import pytest

import millebornes as mb
from tests.util import all_cards, distances_legal, exhaust, go, legal, new, pass_turn, refused, types_of


# ------------------------------------------------------------------- section 1: the deck
@pytest.mark.parametrize(
    "rules, players, size",
    [
        ("classic", 2, 101),
        ("classic", 3, 101),
        ("classic", 4, 106),
        ("classic", 6, 106),
        ("parker", 2, 101),
        ("parker", 3, 101),
        ("parker", 4, 106),
        ("dujardin", 2, 106),
        ("dujardin", 3, 106),
        ("family", 2, 106),
        ("family", 3, 106),
    ],
)
def test_small_game_deck_per_edition(rules, players, size):
    """RULES 1 / small_game_deck: classic and parker with 2-3 players drop one of each hazard (101)."""
    r = mb.ruleset(rules)
    counts = dict(zip(mb.CARD_IDS, r.deck_counts(players)))
    assert sum(counts.values()) == size
    small = size == 101
    assert counts["stop"] == (4 if small else 5)
    assert counts["speed-limit"] == (3 if small else 4)
    for hazard in ("out-of-gas", "flat-tire", "accident"):
        assert counts[hazard] == (2 if small else 3)
    assert (counts["100"], counts["200"], counts["roll"], counts["right-of-way"]) == (12, 4, 14, 1)
    g = mb.new_game(rules, players=players, seed=3)
    assert g.stock_size == size - 6 * players - 1  # seat 0 has drawn its first card
    assert sum(g.hand_size(s) for s in range(players)) + g.stock_size == size


CARD_COUNTS = {
    "25": 10,
    "50": 10,
    "75": 10,
    "100": 12,
    "200": 4,
    "stop": 5,
    "speed-limit": 4,
    "out-of-gas": 3,
    "flat-tire": 3,
    "accident": 3,
    "roll": 14,
    "end-of-limit": 6,
    "gasoline": 6,
    "spare-tire": 6,
    "repairs": 6,
    "right-of-way": 1,
    "extra-tank": 1,
    "puncture-proof": 1,
    "driving-ace": 1,
}


@pytest.mark.parametrize("rules, players", [("classic", 4), ("parker", 6), ("dujardin", 2), ("family", 5)])
def test_the_106_cards(rules, players):
    """RULES 1: every edition deals the same 106 cards (twelve 100s, one of each safety); once the
    stock is drawn, hands, tableaux and the discard pile hold exactly them."""
    assert sum(CARD_COUNTS.values()) == 106
    assert dict(zip(mb.CARD_IDS, mb.ruleset(rules).deck_counts(players))) == CARD_COUNTS
    g = mb.new_game(rules, players=players, seed=4)
    rng = random.Random(4)
    while g.stock_size:
        g.act(rng.choice(g.legal_actions()))
    assert g.hand_number == 0
    assert all_cards(g) == CARD_COUNTS


PAIRS = [
    ("stop", "roll", "right-of-way"),
    ("speed-limit", "end-of-limit", "right-of-way"),
    ("out-of-gas", "gasoline", "extra-tank"),
    ("flat-tire", "spare-tire", "puncture-proof"),
    ("accident", "repairs", "driving-ace"),
]


@pytest.mark.parametrize("hazard, remedy, safety", PAIRS)
def test_each_hazard_has_its_remedy_and_its_safety(hazard, remedy, safety):
    """RULES 1: each hazard has one remedy, the only one that cures it, and one safety, which keeps it
    off; the speed limit goes on the speed pile, the battle hazards on the battle pile."""
    g = new(
        "classic",
        2,
        hands={0: [hazard, hazard], 1: ["roll", "roll", "end-of-limit", "gasoline", "spare-tire", "repairs"]},
        draws={1: [None, None, safety]},
    )
    remedies = {"roll", "end-of-limit", "gasoline", "spare-tire", "repairs"}
    pass_turn(g, keep=(hazard,))
    go(g, "play roll")
    go(g, f"play {hazard} 1")
    pile = "speed" if hazard == "speed-limit" else "battle"
    assert g.tableau(1)[pile][-1] == hazard
    assert g.turn == 1
    assert {c for c in remedies if f"play {c}" in legal(g)} == {remedy}
    go(g, f"play {remedy}")
    pass_turn(g, keep=(hazard,))
    assert safety in g.hand(1)
    go(g, f"play {safety}")
    pass_turn(g)
    assert g.turn == 0 and hazard in g.hand(0)
    assert f"play {hazard} 1" not in legal(g)
    refused(g, f"play {hazard} 1", "in play")


def test_small_game_deck_can_be_switched_off():
    """small_game_deck option: classic with small_game_deck=False plays 106 cards with two players."""
    r = mb.ruleset("classic", small_game_deck=False)
    assert r.deck_size(2) == 106
    g = mb.new_game(r, players=2, seed=1)
    assert g.stock_size == 106 - 12 - 1
    full = mb.ruleset("dujardin", small_game_deck=True)
    assert full.deck_size(3) == 101


def test_stacked_deck_must_be_the_editions_deck():
    """RULES 1: a 2-player classic game uses the 101-card deck; a 106-card deck is refused."""
    deck = [c for c, n in zip(mb.CARD_IDS, mb.ruleset("dujardin").deck_counts(2)) for _ in range(n)]
    with pytest.raises(ValueError, match="101 cards"):
        mb.new_game("classic", players=2, deck=deck)
    assert mb.new_game("dujardin", players=2, deck=deck).stock_size == 106 - 13


# ------------------------------------------------------------------ section 2: sides and seats
@pytest.mark.parametrize(
    "rules, players, teams, sides",
    [
        ("classic", 2, None, ((0,), (1,))),
        ("classic", 3, None, ((0,), (1,), (2,))),
        ("classic", 4, None, ((0, 2), (1, 3))),
        ("classic", 6, None, ((0, 3), (1, 4), (2, 5))),
        ("parker", 4, None, ((0, 2), (1, 3))),
        ("parker", 6, None, ((0, 3), (1, 4), (2, 5))),
        ("dujardin", 2, None, ((0,), (1,))),
        ("dujardin", 3, None, ((0,), (1,), (2,))),
        ("dujardin", 4, None, ((0,), (1,), (2,), (3,))),
        ("dujardin", 4, True, ((0, 2), (1, 3))),
        ("dujardin", 6, None, ((0, 3), (1, 4), (2, 5))),
        ("dujardin", 8, None, ((0, 4), (1, 5), (2, 6), (3, 7))),
        ("family", 2, None, ((0,), (1,))),
        ("family", 5, None, tuple((s,) for s in range(5))),
        ("family", 6, None, tuple((s,) for s in range(6))),
    ],
)
def test_allowed_player_counts_and_default_teams(rules, players, teams, sides):
    """RULES 2 and 6 (players): seat s plays on side s mod (number of sides); default teams per count."""
    g = mb.new_game(rules, players=players, teams=teams, seed=2)
    assert g.sides == sides
    assert g.teams == (len(sides) < players)
    for s in range(players):
        assert g.side_of(s) == s % len(sides)
        assert s in sides[g.side_of(s)]
        assert g.hand_size(s) == (7 if s == 0 else 6)  # each player keeps a hand


@pytest.mark.parametrize(
    "rules, players, teams",
    [
        ("classic", 1, None),
        ("classic", 5, None),
        ("classic", 7, None),
        ("classic", 8, None),
        ("classic", 4, False),
        ("classic", 6, False),
        ("classic", 2, True),
        ("classic", 3, True),
        ("parker", 5, None),
        ("parker", 4, False),
        ("dujardin", 5, None),
        ("dujardin", 7, None),
        ("dujardin", 6, False),
        ("dujardin", 8, False),
        ("dujardin", 2, True),
        ("family", 1, None),
        ("family", 7, None),
        ("family", 4, True),
        ("family", 6, True),
    ],
)
def test_refused_player_counts(rules, players, teams):
    """RULES 6 (players): any other count, or teams where the edition has none, is a ValueError."""
    with pytest.raises(ValueError, match="players"):
        mb.new_game(rules, players=players, teams=teams, seed=1)


def test_turns_go_round_the_table_in_seat_order():
    """RULES 2: players play clockwise, in seat order."""
    g = new("parker", 3)
    seen = []
    for _ in range(7):
        seen.append(g.turn)
        pass_turn(g)
    assert seen == [0, 1, 2, 0, 1, 2, 0]


def test_partners_share_one_tableau_and_keep_their_own_hands():
    """RULES 2: partners share a tableau (one's Roll lets the other drive) and each keeps a hand."""
    g = new("classic", 4, hands={0: ["roll", "200"], 2: ["100", "200"]})
    go(g, "play roll")
    pass_turn(g)  # seat 1
    assert g.turn == 2
    assert g.is_moving(0)
    assert "play 100" in legal(g)  # partner's Roll counts for seat 2
    go(g, "play 100")
    assert g.tableau(0)["distance"] == 100
    assert g.tableau(0)["battle"] == ["roll"]
    assert "200" in g.hand(0) and "roll" not in g.hand(0)  # each keeps a hand
    assert "200" in g.hand(2) and g.hand(0) != g.hand(2)
    assert g.hand_size(0) == 6 and g.hand_size(2) == 6


def test_battle_pile_keeps_buried_cards():
    """RULES 2: the battle pile keeps buried cards (classic stacking): the tableau lists them all."""
    g = new("classic", 2, hands={0: ["accident", "flat-tire"], 1: ["roll"]})
    pass_turn(g)
    go(g, "play roll")
    go(g, "play accident 1")
    pass_turn(g)
    go(g, "play flat-tire 1")
    assert g.tableau(1)["battle"] == ["roll", "accident", "flat-tire"]


# ------------------------------------------------------------------- section 2: moving
@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_a_side_needs_a_roll_to_start(rules):
    """RULES 2 (moving): at the start no side is moving; a Roll on top sets it moving."""
    g = new(rules, 2, hands={0: ["roll", "100", "gasoline"]})
    assert not g.is_moving(0)
    assert "play 100" not in legal(g)
    refused(g, "play 100", "need a Roll first")
    assert "play gasoline" not in legal(g)  # a remedy does not start a car
    go(g, "play roll")
    assert g.is_moving(0)
    pass_turn(g)
    assert "play 100" in legal(g)


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_right_of_way_moves_without_a_roll(rules):
    """RULES 2 (moving): with Right of Way an empty pile, or a remedy on top, counts as moving."""
    g = new(rules, 2, hands={0: ["right-of-way", "100", "repairs", "100"], 1: ["accident"]})
    go(g, "play right-of-way")
    assert g.turn == 0 and g.is_moving(0)
    assert g.tableau(0)["battle"] == []
    assert "play 100" in legal(g)
    go(g, "play 100")
    go(g, "play accident 0")
    assert not g.is_moving(0)
    assert "play 100" not in legal(g)
    go(g, "play repairs")
    assert g.tableau(0)["battle"] == ["accident", "repairs"]
    assert g.is_moving(0)
    pass_turn(g)
    assert "play 100" in legal(g)


@pytest.mark.parametrize(
    "rules, options, moving",
    [
        ("classic", {}, False),
        ("parker", {}, False),
        ("family", {}, False),
        ("dujardin", {}, True),
        ("dujardin", {"roll_after_remedy": True}, False),
        ("classic", {"roll_after_remedy": False}, True),
    ],
)
def test_roll_after_remedy(rules, options, moving):
    """RULES 2 and 6 (roll_after_remedy): after a remedy classic/parker/family need a Roll;
    dujardin's remedy alone restarts a car that had started."""
    g = new(rules, 2, hands={0: ["out-of-gas"], 1: ["roll", "gasoline", "100", "roll"]}, **options)
    pass_turn(g)
    go(g, "play roll")
    go(g, "play out-of-gas 1")
    assert not g.is_moving(1)
    assert "play 100" not in legal(g)
    go(g, "play gasoline")
    assert g.tableau(1)["battle"] == ["roll", "out-of-gas", "gasoline"]
    assert g.is_moving(1) == moving
    pass_turn(g)
    assert g.turn == 1
    assert ("play 100" in legal(g)) == moving
    assert "play roll" in legal(g)  # a roll on a remedy is legal (needed or useless)
    if not moving:
        refused(g, "play 100", "need a Roll first")
        go(g, "play roll")
        assert g.is_moving(1)


# ---------------------------------------------------------------------- section 3: a turn
def test_a_turn_is_draw_then_play():
    """RULES 3.1-2: the engine draws one card from the stock, then the player plays or discards one."""
    g = new("parker", 2)
    assert g.decision == "play" and g.to_act == 0 and g.hand_size(0) == 7
    stock = g.stock_size
    events = go(g, "discard end-of-limit")
    assert [e["type"] for e in events] == ["discard", "draw"]
    assert events[1]["seat"] == 1
    assert g.stock_size == stock - 1
    assert g.hand_size(0) == 6 and g.hand_size(1) == 7
    assert g.decision == "play" and g.to_act == 1


def test_a_player_may_always_discard():
    """RULES 3.2: a player may always discard, even with a legal play."""
    g = new("classic", 2, hands={0: ["roll", "right-of-way"]})
    assert {"play roll", "discard roll", "play right-of-way", "discard right-of-way"} <= legal(g)
    go(g, "discard roll")
    assert g.discard_pile == ["roll"]
    assert g.turn == 1


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_no_legal_play_means_discard(rules):
    """RULES 3.2: a player with no legal play must discard (only discards are offered)."""
    g = new(rules, 2, hands={0: ["25", "50", "75", "100", "200", "end-of-limit"]}, stock=["gasoline"])
    assert legal(g) == {f"discard {c}" for c in ("25", "50", "75", "100", "200", "end-of-limit", "gasoline")}
    refused(g, "play 75", "Roll first")


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_safety_gives_an_extra_turn_that_can_chain(rules):
    """RULES 3.3: a safety played normally gives an extra turn (draw and play again); it can chain."""
    g = new(rules, 2, hands={0: ["extra-tank", "puncture-proof"]})
    stock = g.stock_size
    events = go(g, "play extra-tank")
    assert [(e["type"], e["seat"]) for e in events] == [("play", 0), ("draw", 0)]
    assert (g.turn, g.to_act, g.decision, g.hand_size(0)) == (0, 0, "play", 7)
    assert g.stock_size == stock - 1
    go(g, "play puncture-proof")
    assert (g.turn, g.to_act, g.hand_size(0)) == (0, 0, 7)
    assert g.tableau(0)["safeties"] == ["extra-tank", "puncture-proof"]
    assert g.tableau(0)["coups_fourres"] == []
    pass_turn(g)
    assert g.turn == 1


def test_safety_extra_turn_can_be_switched_off():
    """safety_extra_turn option: with False a safety ends the turn."""
    g = new("classic", 2, hands={0: ["extra-tank"]}, safety_extra_turn=False)
    go(g, "play extra-tank")
    assert g.turn == 1
    assert g.hand_size(0) == 6


# ------------------------------------------------------------------------ distance plays
def test_distance_never_passes_the_target():
    """RULES 3 (distance) and 5: the total may never pass the target (classic 2 players: 700)."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "50"]},
        draws={0: ["75", "25", "100", "50", "75", "100", "end-of-limit"]},
    )
    assert g.target == 700
    for a in ("play roll", "play 200", "play 200", "play 100", "play 100", "play 50"):
        go(g, a)
        pass_turn(g)
    if g.decision == "draw":
        go(g, "draw")
    assert g.tableau(0)["distance"] == 650
    assert {"75", "25", "100", "50"} <= set(g.hand(0))
    assert distances_legal(g) == {"25", "50"}
    refused(g, "play 75", "past the target")
    refused(g, "play 100", "past the target")


def test_under_a_speed_limit_only_25_and_50():
    """RULES 3 (distance): under a speed limit only 25 and 50; End of Limit lifts it."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "25", "50", "75", "100", "200"], 1: ["speed-limit"]},
        draws={0: ["gasoline", "end-of-limit"]},
    )
    go(g, "play roll")
    go(g, "play speed-limit 0")
    assert g.tableau(0)["speed"] == ["speed-limit"]
    assert distances_legal(g) == {"25", "50"}
    refused(g, "play 75", "Speed Limit")
    assert "play end-of-limit" in legal(g)
    go(g, "play end-of-limit")
    assert g.tableau(0)["speed"] == ["speed-limit", "end-of-limit"]
    pass_turn(g)
    assert distances_legal(g) == {"25", "50", "75", "100", "200"}


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_at_most_two_200s_per_side(rules):
    """RULES 3 (distance): at most two 200s per side per hand, even when a third would fit."""
    g = new(rules, 2, hands={0: ["roll", "200", "200", "200"]})
    for a in ("play roll", "play 200", "play 200"):
        go(g, a)
        pass_turn(g)
    if g.decision == "draw":
        go(g, "draw")
    assert g.tableau(0)["distance"] == 400 and g.tableau(0)["two_hundreds"] == 2
    assert g.target >= 600
    assert "200" in g.hand(0)
    assert "play 200" not in legal(g)
    refused(g, "play 200", "two 200s")


# ------------------------------------------------------------------------------ remedies
def test_remedy_must_match_the_top_hazard():
    """RULES 3 (remedy): a remedy is legal when it matches the hazard on top of the battle pile."""
    g = new(
        "classic", 2, hands={0: ["flat-tire"], 1: ["roll", "gasoline", "spare-tire", "repairs", "end-of-limit", "roll"]}
    )
    pass_turn(g)
    go(g, "play roll")
    go(g, "play flat-tire 1")
    assert g.turn == 1
    assert "play spare-tire" in legal(g)
    for card in ("gasoline", "repairs", "end-of-limit", "roll"):
        assert f"play {card}" not in legal(g)
    refused(g, "play gasoline", "cures Out of Gas")
    refused(g, "play end-of-limit", "not under a Speed Limit")
    go(g, "play spare-tire")
    assert g.tableau(1)["battle"] == ["roll", "flat-tire", "spare-tire"]


def test_roll_legality_on_each_top_card():
    """RULES 3 (remedy): a Roll is legal on an empty pile, a Stop, a remedy other than Roll, a cured
    hazard; never on a Roll or on a hazard in effect."""
    g = new(
        "classic",
        2,
        hands={
            0: ["stop", "flat-tire", "flat-tire"],
            1: ["roll", "roll", "roll", "spare-tire", "puncture-proof", "roll"],
        },
    )
    pass_turn(g)
    assert "play roll" in legal(g)  # empty pile
    go(g, "play roll")
    go(g, "play stop 1")
    assert "play roll" in legal(g)  # on a stop
    go(g, "play roll")
    assert g.tableau(1)["battle"] == ["roll", "stop", "roll"]
    pass_turn(g, keep=("flat-tire",))
    assert "play roll" not in legal(g)  # on a roll
    refused(g, "play roll", "already shows a Roll")
    pass_turn(g, keep=("roll", "spare-tire", "puncture-proof"))
    go(g, "play flat-tire 1")
    assert g.decision == "coup-fourre" and g.to_act == 1
    go(g, "pass")
    assert "play roll" not in legal(g)  # on a hazard in effect
    refused(g, "play roll", "Spare Tire")
    go(g, "play spare-tire")
    pass_turn(g, keep=("flat-tire",))
    assert "play roll" in legal(g)  # on a remedy other than roll
    pass_turn(g, keep=("roll", "puncture-proof"))
    go(g, "play flat-tire 1")
    go(g, "pass")
    assert "play roll" not in legal(g)
    go(g, "play puncture-proof")  # cures the flat tire
    assert g.turn == 1 and g.tableau(1)["battle"][-1] == "flat-tire"
    assert not g.is_moving(1)
    assert "play roll" in legal(g)  # on a cured hazard
    go(g, "play roll")
    assert g.is_moving(1)


def test_roll_is_legal_but_useless_with_right_of_way():
    """RULES 3 (remedy): with Right of Way a Roll is never needed, but it may still be played."""
    g = new("classic", 2, hands={0: ["right-of-way", "roll", "100"]})
    go(g, "play right-of-way")
    assert {"play 100", "play roll"} <= legal(g)
    go(g, "play roll")
    assert g.tableau(0)["battle"] == ["roll"]
    assert g.is_moving(0)


# ----------------------------------------------------------------------- battle hazards
def test_stacking_classic_hazard_on_any_non_empty_pile():
    """RULES 6 (hazard_target stacking): a battle hazard needs a non-empty pile; it may go on a hazard,
    and only the top hazard needs curing."""
    g = new(
        "classic",
        2,
        hands={
            0: ["accident", "out-of-gas", "75", "75"],
            1: ["roll", "roll", "gasoline", "repairs", "100", "end-of-limit"],
        },
    )
    assert "play accident 1" not in legal(g)
    refused(g, "play accident 1", "battle pile is empty")
    pass_turn(g, keep=("accident", "out-of-gas"))
    go(g, "play roll")
    assert "play accident 1" in legal(g)
    go(g, "play accident 1")
    pass_turn(g, keep=("roll", "gasoline", "repairs", "100"))
    assert "play out-of-gas 1" in legal(g)  # a hazard on a hazard
    go(g, "play out-of-gas 1")
    assert g.tableau(1)["battle"] == ["roll", "accident", "out-of-gas"]
    assert "play gasoline" in legal(g)
    assert "play repairs" not in legal(g)  # the buried accident is not showing
    go(g, "play gasoline")
    pass_turn(g)
    go(g, "play roll")
    assert g.is_moving(1)  # the buried accident needs no curing
    pass_turn(g)
    assert "play 100" in legal(g)


@pytest.mark.parametrize("rules", ["classic", "parker", "dujardin", "family"])
def test_with_right_of_way_a_hazard_may_hit_an_empty_pile(rules):
    """RULES 6 (hazard_target): with right-of-way a battle hazard may go on an empty pile."""
    g = new(rules, 2, hands={0: ["accident", "stop"], 1: ["right-of-way"]})
    pass_turn(g, keep=("accident", "stop"))
    go(g, "play right-of-way")
    pass_turn(g)
    assert g.tableau(1)["battle"] == []
    assert "play accident 1" in legal(g)
    assert "play stop 1" not in legal(g)  # right of way protects against stop
    go(g, "play accident 1")
    assert g.tableau(1)["battle"] == ["accident"]


@pytest.mark.parametrize(
    "rules, options",
    [
        ("parker", {}),
        ("dujardin", {}),
        ("family", {}),
        ("classic", {"hazard_target": "moving"}),
    ],
)
def test_moving_target_no_hazard_on_a_hazard(rules, options):
    """RULES 6 (hazard_target moving): a battle hazard only hits a moving side, never a hazard."""
    g = new(rules, 2, hands={0: ["accident", "out-of-gas", "stop"], 1: ["roll"]}, **options)
    assert "play accident 1" not in legal(g)  # not started
    refused(g, "play accident 1", "not moving")
    pass_turn(g, keep=("accident", "out-of-gas", "stop"))
    go(g, "play roll")
    assert {"play accident 1", "play out-of-gas 1", "play stop 1"} <= legal(g)
    go(g, "play accident 1")
    pass_turn(g)
    assert "play out-of-gas 1" not in legal(g)
    assert "play stop 1" not in legal(g)
    refused(g, "play out-of-gas 1", "not moving")


@pytest.mark.parametrize("rules", ["parker", "dujardin", "family"])
def test_moving_target_with_right_of_way_remedy_on_top(rules):
    """RULES 6 (hazard_target, parker): with right-of-way a side with a remedy on top is moving and
    may be attacked again."""
    g = new(rules, 2, hands={0: ["accident", "out-of-gas"], 1: ["right-of-way", "repairs"]})
    pass_turn(g, keep=("accident", "out-of-gas"))
    go(g, "play right-of-way")
    pass_turn(g, keep=("repairs",))
    go(g, "play accident 1")
    go(g, "play repairs")
    assert g.tableau(1)["battle"] == ["accident", "repairs"]
    assert "play out-of-gas 1" in legal(g)


def test_stacking_can_be_switched_on_for_dujardin():
    """hazard_target option: dujardin with hazard_target='stacking' allows a hazard on a hazard."""
    g = new("dujardin", 2, hands={0: ["accident", "out-of-gas"], 1: ["roll"]}, hazard_target="stacking")
    pass_turn(g, keep=("accident", "out-of-gas"))
    go(g, "play roll")
    go(g, "play accident 1")
    pass_turn(g)
    assert "play out-of-gas 1" in legal(g)
    go(g, "play out-of-gas 1")
    assert g.tableau(1)["battle"] == ["roll", "accident", "out-of-gas"]


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_no_hazard_on_a_side_with_the_safety(rules):
    """RULES 3 (battle hazard): never on a side that has the matching safety in play."""
    g = new(rules, 2, hands={0: ["accident", "out-of-gas"], 1: ["driving-ace", "roll"]})
    pass_turn(g, keep=("accident", "out-of-gas"))
    go(g, "play driving-ace")
    go(g, "play roll")
    assert "play accident 1" not in legal(g)
    assert "play out-of-gas 1" in legal(g)
    refused(g, "play accident 1", "Driving Ace in play")


@pytest.mark.parametrize(
    "rules, players", [("classic", 2), ("parker", 2), ("dujardin", 2), ("classic", 4), ("dujardin", 4)]
)
def test_no_hazard_on_your_own_side(rules, players):
    """RULES 3 (battle hazard / speed limit): only on an opponent side, never your own or partner's."""
    teams = True if players == 4 else None
    g = new(rules, players, hands={0: ["roll", "accident", "speed-limit"]}, teams=teams)
    go(g, "play roll")
    for _ in range(players - 1):
        pass_turn(g)
    assert g.is_moving(0)
    assert not any(a.endswith(" 0") for a in g.legal_actions())
    refused(g, "play accident 0", "opponent")
    refused(g, "play speed-limit 0", "opponent")


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_speed_limit_rules(rules):
    """RULES 3 (speed limit): the target need not have started and may be stopped; never on a speed
    limit already showing; playable again after End of Limit."""
    g = new(rules, 2, hands={0: ["speed-limit", "speed-limit", "stop"], 1: ["roll", "end-of-limit"]})
    assert "play speed-limit 1" in legal(g)  # target has not started
    pass_turn(g, keep=("speed-limit", "stop"))
    go(g, "play roll")
    go(g, "play stop 1")  # the target is now stopped
    pass_turn(g, keep=("roll", "end-of-limit"))
    assert g.tableau(1)["battle"][-1] == "stop"
    assert "play speed-limit 1" in legal(g)
    go(g, "play speed-limit 1")
    pass_turn(g, keep=("roll", "end-of-limit"))
    assert "play speed-limit 1" not in legal(g)
    refused(g, "play speed-limit 1", "already shows a Speed Limit")
    pass_turn(g, keep=("speed-limit",))
    go(g, "play end-of-limit")
    assert "play speed-limit 1" in legal(g)


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_no_speed_limit_with_right_of_way(rules):
    """RULES 3 (speed limit): never on a side with right-of-way."""
    g = new(rules, 2, hands={0: ["speed-limit"], 1: ["right-of-way"]})
    pass_turn(g, keep=("speed-limit",))
    go(g, "play right-of-way")
    pass_turn(g)
    assert "play speed-limit 1" not in legal(g)
    refused(g, "play speed-limit 1", "Right of Way in play")


# ------------------------------------------------------------------------------ safeties
@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_safety_any_time_even_before_starting(rules):
    """RULES 3 (safety): a safety may be played on your own side at any time, even before starting."""
    g = new(rules, 2, hands={0: ["right-of-way", "extra-tank", "puncture-proof", "driving-ace"]})
    assert {"play right-of-way", "play extra-tank", "play puncture-proof", "play driving-ace"} <= legal(g)
    assert not g.is_moving(0)
    go(g, "play driving-ace")
    assert g.tableau(0)["safeties"] == ["driving-ace"] and g.turn == 0


@pytest.mark.parametrize(
    "rules, moves_at_once", [("classic", False), ("parker", False), ("family", False), ("dujardin", True)]
)
def test_safety_cancels_the_showing_hazard(rules, moves_at_once):
    """RULES 3 (safety) and decision 1: a safety cures its showing hazard (which stays, cured) and
    protects for the rest of the hand; classic/parker/family still need a roll, dujardin moves again."""
    g = new(rules, 2, hands={0: ["flat-tire", "flat-tire"], 1: ["roll", "puncture-proof", "100", "roll"]})
    pass_turn(g, keep=("flat-tire",))
    go(g, "play roll")
    go(g, "play flat-tire 1")
    assert g.decision == "coup-fourre"
    go(g, "pass")
    assert not g.is_moving(1)
    events = go(g, "play puncture-proof")
    assert g.tableau(1)["battle"] == ["roll", "flat-tire"]
    assert g.tableau(1)["safeties"] == ["puncture-proof"] and g.tableau(1)["coups_fourres"] == []
    assert events[-1]["type"] == "draw" and g.turn == 1  # extra turn
    assert g.is_moving(1) == moves_at_once
    assert ("play 100" in legal(g)) == moves_at_once
    assert "play roll" in legal(g)
    go(g, "play roll")
    assert g.is_moving(1)
    assert "play flat-tire 1" not in legal(g)  # protected for the rest of the hand
    refused(g, "play flat-tire 1", "Puncture-Proof in play")


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_right_of_way_removes_showing_stop_and_speed_limit(rules):
    """RULES 3 (safety) and decision 1: right-of-way sends a showing stop and speed limit to the discard
    pile; no roll is needed."""
    g = new(rules, 2, hands={0: ["stop", "speed-limit"], 1: ["roll", "right-of-way", "75", "100"]})
    pass_turn(g, keep=("stop", "speed-limit"))
    go(g, "play roll")
    go(g, "play stop 1")
    go(g, "pass")
    pass_turn(g, keep=("right-of-way", "75", "100"))
    go(g, "play speed-limit 1")
    go(g, "pass")
    assert g.tableau(1)["battle"] == ["roll", "stop"] and g.tableau(1)["speed"] == ["speed-limit"]
    go(g, "play right-of-way")
    assert g.tableau(1)["battle"] == ["roll"]
    assert g.tableau(1)["speed"] == []
    assert g.discard_pile[-2:] == ["stop", "speed-limit"]
    assert g.turn == 1 and g.is_moving(1)
    assert {"play 75", "play 100"} <= legal(g)


# ------------------------------------------------------------------------- coup fourré
def _attack_setup(rules, players, holder, safety="driving-ace", teams=None, **options):
    """Seat 0 attacks side 1 (moving) with the hazard of ``safety``; ``holder`` holds the safety."""
    hazard = {
        "driving-ace": "accident",
        "extra-tank": "out-of-gas",
        "puncture-proof": "flat-tire",
        "right-of-way": "stop",
    }[safety]
    hands = {0: [hazard], 1: ["roll"]}
    hands.setdefault(holder, [])
    hands[holder] = hands[holder] + [safety]
    g = new(rules, players, hands=hands, teams=teams, **options)
    pass_turn(g, keep=(hazard,))
    go(g, "play roll")
    for _ in range(players - 2):
        pass_turn(g, keep=(safety,))
    assert g.turn == 0
    events = go(g, f"play {hazard} 1")
    return g, events


def test_coup_fourre_any_opponent_third_player_declares():
    """RULES 4 / coup_fourre any-opponent (classic): a third player may declare; the hazard stays on the
    attacked side; the declarer draws a replacement, takes a full turn; the skipped player loses his turn."""
    g, _ = _attack_setup("classic", 3, holder=2)
    assert g.decision == "coup-fourre" and g.to_act == 2 and g.turn == 0
    assert legal(g) == {"coup-fourre", "pass"}
    assert g.pending_attack == {"attacker": 0, "hazard": "accident", "side": 1}
    assert g.hand_size(2) == 6
    stock = g.stock_size
    events = go(g, "coup-fourre")
    assert [e["type"] for e in events] == ["coup-fourre", "draw", "draw"]
    assert all(e["seat"] == 2 for e in events)
    assert g.stock_size == stock - 2
    assert g.tableau(2)["safeties"] == ["driving-ace"]
    assert g.tableau(2)["coups_fourres"] == ["driving-ace"]
    assert g.tableau(1)["battle"] == ["roll", "accident"]  # not on the declarer's side: stays
    assert "accident" not in g.discard_pile
    assert (g.turn, g.to_act, g.decision, g.hand_size(2)) == (2, 2, "play", 7)
    pass_turn(g)
    assert g.turn == 0  # seat 1 lost its turn


@pytest.mark.parametrize("holder, asked", [(2, False), (1, True), (3, True)])
def test_coup_fourre_any_opponent_not_the_attackers_partner(holder, asked):
    """RULES 4 / coup_fourre any-opponent: any player not on the attacker's side (so not his partner)."""
    g, _ = _attack_setup("classic", 4, holder=holder)
    if asked:
        assert g.decision == "coup-fourre" and g.to_act == holder and g.turn == 0
    else:
        assert g.pending_attack is None
        assert g.turn == 1 and g.to_act == 1
        assert "driving-ace" in g.hand(holder)


@pytest.mark.parametrize(
    "rules, players, holder, asked",
    [
        ("parker", 3, 2, False),
        ("parker", 3, 1, True),
        ("parker", 4, 3, True),
        ("parker", 4, 1, True),
        ("parker", 4, 2, False),
        ("dujardin", 3, 2, False),
        ("dujardin", 3, 1, True),
        ("family", 3, 2, False),
        ("family", 3, 1, True),
    ],
)
def test_coup_fourre_attacked_side_only(rules, players, holder, asked):
    """RULES 4 / coup_fourre attacked-side (parker/dujardin/family): only the attacked side (either
    partner) may declare."""
    teams = True if players == 4 else None
    g, _ = _attack_setup(rules, players, holder=holder, teams=teams)
    if asked:
        assert g.decision == "coup-fourre" and g.to_act == holder
    else:
        assert g.pending_attack is None and g.decision == "play" and g.turn == 1


def test_coup_fourre_by_the_attacked_partner_in_teams():
    """RULES 4: in teams either partner of the attacked side declares; the hazard goes to the discard
    pile revealing the card under it; players between attacker and declarer lose their turn."""
    g, _ = _attack_setup("parker", 4, holder=3, teams=True)
    assert g.to_act == 3
    go(g, "coup-fourre")
    assert g.tableau(1)["battle"] == ["roll"]
    assert g.discard_pile[-1] == "accident"
    assert g.tableau(1)["coups_fourres"] == ["driving-ace"]
    assert (g.turn, g.to_act, g.hand_size(3)) == (3, 3, 7)
    assert g.is_moving(1)
    pass_turn(g)
    assert g.turn == 0  # seats 1 and 2 lost their turn


@pytest.mark.parametrize(
    "rules, options, asked",
    [
        ("parker", {"coup_fourre": "any-opponent"}, True),
        ("classic", {"coup_fourre": "attacked-side"}, False),
    ],
)
def test_coup_fourre_option_switches(rules, options, asked):
    """coup_fourre option: switching it changes who may declare."""
    g, _ = _attack_setup(rules, 3, holder=2, **options)
    assert (g.decision == "coup-fourre") == asked


def test_coup_fourre_can_be_passed():
    """RULES 4: the coup fourré is optional: after 'pass' the hazard stays and play goes on."""
    g, _ = _attack_setup("classic", 2, holder=1)
    assert g.decision == "coup-fourre"
    events = go(g, "pass")
    assert g.tableau(1)["battle"] == ["roll", "accident"]
    assert "driving-ace" in g.hand(1)
    assert g.turn == 1 and g.tableau(1)["safeties"] == []
    assert [e["type"] for e in events if e["type"] == "coup-fourre"] == []


def test_coup_fourre_with_an_empty_stock_play_out():
    """RULES 4 and 6 (play-out): with an empty stock the declarer draws nothing but still plays a turn;
    play then continues from his left."""
    keep = ("accident", "driving-ace")
    g = new("classic", 2, hands={0: ["accident"], 1: ["roll", "driving-ace"]})
    pass_turn(g, keep)
    go(g, "play roll")
    exhaust(g, keep)
    assert g.stock_size == 0 and g.turn == 0
    go(g, "play accident 1")
    events = go(g, "coup-fourre")
    assert types_of(events) == ["coup-fourre"]
    assert (g.turn, g.to_act, g.decision, g.hand_size(1)) == (1, 1, "play", 5)
    assert g.tableau(1)["battle"] == ["roll"]
    pass_turn(g)
    assert g.turn == 0 and g.hand_size(1) == 4


def test_coup_fourre_on_speed_limit_with_right_of_way():
    """RULES 4 and 3: a coup fourré with right-of-way discards the speed limit; a showing stop goes too."""
    g = new("classic", 2, hands={0: ["stop", "speed-limit"], 1: ["roll", "right-of-way", "100"]})
    pass_turn(g, keep=("stop", "speed-limit"))
    go(g, "play roll")
    go(g, "play stop 1")
    go(g, "pass")
    pass_turn(g, keep=("right-of-way", "100"))
    go(g, "play speed-limit 1")
    assert g.decision == "coup-fourre"
    go(g, "coup-fourre")
    assert g.tableau(1)["speed"] == [] and g.tableau(1)["battle"] == ["roll"]
    assert set(g.discard_pile[-2:]) == {"stop", "speed-limit"}
    assert g.tableau(1)["coups_fourres"] == ["right-of-way"]
    assert g.turn == 1 and "play 100" in legal(g)


# ------------------------------------------------------------------- top_discard_pickup
def test_take_discard_classic():
    """top_discard_pickup (classic): instead of drawing, the next player may take the card just
    discarded; 'draw' takes the stock card instead."""
    g = new("classic", 2, hands={0: ["repairs"]})
    go(g, "discard repairs")
    assert g.decision == "draw" and g.to_act == 1 and g.hand_size(1) == 6
    assert legal(g) == {"draw", "take-discard"}
    stock = g.stock_size
    other = g.clone()
    events = go(g, "take-discard")
    assert events == [{"type": "take-discard", "seat": 1, "card": "repairs"}]
    assert g.discard_pile == [] and g.stock_size == stock
    assert g.hand_size(1) == 7 and "repairs" in g.known_cards(1)
    assert g.decision == "play" and g.to_act == 1
    go(other, "draw")
    assert other.stock_size == stock - 1 and other.discard_pile == ["repairs"]
    assert other.decision == "play" and other.hand_size(1) == 7


def test_take_discard_gives_the_top_discard():
    """top_discard_pickup: the card taken is the top of the discard pile (the one just discarded)."""
    g = new("classic", 2, hands={0: ["repairs", "end-of-limit"], 1: ["gasoline"]}, stock=["75", "75"])
    go(g, "discard end-of-limit", "draw", "discard gasoline")
    assert g.discard_pile == ["end-of-limit", "gasoline"]
    had = g.hand(0).count("gasoline")
    assert g.decision == "draw" and g.to_act == 0
    go(g, "take-discard")
    assert g.hand(0).count("gasoline") == had + 1 and g.discard_pile == ["end-of-limit"]


@pytest.mark.parametrize(
    "rules, options, asked",
    [
        ("classic", {}, True),
        ("parker", {}, False),
        ("dujardin", {}, False),
        ("family", {}, False),
        ("classic", {"top_discard_pickup": False}, False),
        ("parker", {"top_discard_pickup": True}, True),
    ],
)
def test_take_discard_only_where_the_option_allows(rules, options, asked):
    """top_discard_pickup option: only classic offers the draw decision; switching it changes that."""
    g = new(rules, 2, **options)
    pass_turn(g, draw=False)
    assert (g.decision == "draw") == asked
    if not asked:
        assert g.decision == "play" and g.hand_size(1) == 7
        assert "take-discard" not in legal(g)
        refused(g, "take-discard", "already drawn")


def test_take_discard_not_after_a_turn_without_discard():
    """top_discard_pickup: only the card discarded on the turn just before may be taken."""
    g = new("classic", 2, hands={0: ["end-of-limit", "roll"], 1: ["right-of-way"]})
    go(g, "discard end-of-limit", "draw", "play right-of-way")  # seat 1 plays, no discard
    assert g.turn == 1 and g.decision == "play"  # extra turn: drawn by the engine
    go(g, "discard gasoline")
    assert g.decision == "draw"
    go(g, "draw", "play roll")
    assert g.turn == 1 and g.decision == "play"  # seat 0 played: nothing to take


def test_take_discard_not_by_two_players_in_a_row():
    """top_discard_pickup: not by two players in a row."""
    g = new("classic", 3)
    pass_turn(g, draw=False)
    go(g, "take-discard")
    pass_turn(g, draw=False)
    assert g.turn == 2 and g.decision == "play"  # seat 1 took: seat 2 may not
    pass_turn(g, draw=False)
    assert g.turn == 0 and g.decision == "draw"  # seat 2 drew: seat 0 may


def test_take_discard_not_when_the_stock_is_empty():
    """top_discard_pickup: not when the stock is empty."""
    g = new("classic", 2)
    exhaust(g)
    pass_turn(g, draw=False)
    assert g.decision == "play" and "take-discard" not in legal(g)
    assert g.discard_pile


# ------------------------------------------------------------------------ extension
def _reach_700(rules="classic", players=2, draws=None, **options):
    """Seat 0 drives Roll, 200, 200, 100, 100, 100 (700) while the others discard."""
    g = new(rules, players, hands={0: ["roll", "200", "200", "100", "100", "100"]}, draws=draws, **options)
    plays = ["play roll", "play 200", "play 200", "play 100", "play 100", "play 100"]
    for i, a in enumerate(plays):
        go(g, a)
        if i < len(plays) - 1:
            for _ in range(players - 1):
                pass_turn(g)
    return g


@pytest.mark.parametrize("rules", ["classic", "parker"])
def test_extension_decision_at_700(rules):
    """RULES 6 (target, extension): with 2 players the race is to 700; the side reaching it decides:
    extend (target 1000) or end the hand."""
    g = _reach_700(rules, draws={0: ["75"] * 6 + ["100"]})
    assert g.tableau(0)["distance"] == 700
    assert g.decision == "extension" and g.to_act == 0
    assert legal(g) == {"extend", "end-hand"}
    ended = g.clone()
    events = go(g, "extend")
    assert any(e["type"] == "extend" and e["target"] == 1000 for e in events)
    assert g.target == 1000 and g.extender == 0 and not g.extension_open
    assert g.hand_number == 0 and g.turn == 1
    pass_turn(g)
    assert g.turn == 0 and distances_legal(g) == {"75", "100"}  # now racing to 1000
    go(ended, "end-hand")
    assert ended.hand_number == 1
    res = ended.hand_results[0]
    assert res["completed"] == 0 and res["extender"] is None and res["distance"][0] == 700


@pytest.mark.parametrize(
    "rules, players, target",
    [
        ("classic", 2, 700),
        ("classic", 3, 700),
        ("classic", 4, 1000),
        ("classic", 6, 700),
        ("parker", 2, 700),
        ("parker", 3, 700),
        ("parker", 4, 1000),
        ("parker", 6, 700),
        ("dujardin", 2, 1000),
        ("dujardin", 3, 1000),
        ("dujardin", 6, 1000),
        ("family", 2, 1000),
        ("family", 6, 1000),
    ],
)
def test_target_per_edition_and_player_count(rules, players, target):
    """RULES 6 (target): classic/parker 700 with 2, 3, 6 players (extension), 1000 with 4; 1000 in
    dujardin and family."""
    g = mb.new_game(rules, players=players, seed=5)
    assert g.target == target
    assert g.extension_open == (target == 700)


def test_extension_can_be_switched_off():
    """extension option: with extension=False a 2-player classic hand is a race to 1000, no decision."""
    assert mb.new_game(mb.ruleset("classic", extension=False), players=2, seed=1).target == 1000
    g = _reach_700("classic", extension=False)
    assert g.tableau(0)["distance"] == 700
    assert g.decision != "extension" and g.turn == 1 and g.hand_number == 0


def test_four_players_no_extension_race_to_1000():
    """RULES 6 (target): with 4 players (2 teams) the target is 1000, reaching 700 asks nothing, and
    reaching 1000 ends the hand at once."""
    g = new(
        "classic",
        4,
        hands={
            0: ["roll", "200", "100", "100", "100", "end-of-limit"],
            2: ["200", "100", "100", "100", "end-of-limit", "gasoline"],
        },
    )
    plays = {
        0: ["play roll", "play 200", "play 100", "play 100", "play 100"],
        2: ["play 200", "play 100", "play 100", "play 100"],
    }
    while g.hand_number == 0:
        seat = g.turn
        if seat in plays and plays[seat]:
            go(g, plays[seat].pop(0))
        else:
            pass_turn(g)
        if g.hand_number == 0 and seat == 2 and g.tableau(0)["distance"] == 700:
            assert g.decision != "extension" and g.turn == 3 and g.target == 1000
    res = g.hand_results[0]
    assert res["completed"] == 0 and res["distance"] == [1000, 0]
    assert not plays[0] and not plays[2]
    assert g.turn == 1  # hand 1 starts with seat 1


def test_only_the_first_side_at_700_chooses():
    """RULES 6 (extension): the first side to reach 700 chooses; after an extension, another side
    reaching 700 just plays on."""
    hand = ["roll", "200", "200", "100", "100", "100"]
    g = new("classic", 2, hands={0: hand, 1: hand})
    for a in ["play roll", "play 200", "play 200", "play 100", "play 100"]:
        go(g, a)
        go(g, a)
    go(g, "play 100")
    assert g.decision == "extension" and g.to_act == 0
    go(g, "extend")
    go(g, "play 100")
    assert g.tableau(1)["distance"] == 700
    assert g.decision == "play" and g.turn == 0 and g.hand_number == 0


# ------------------------------------------------------------------------- exhaustion
@pytest.mark.parametrize("rules", ["classic", "parker"])
def test_exhaustion_play_out(rules):
    """RULES 6 (exhaustion play-out): with an empty stock play goes on without drawing until every
    hand is empty."""
    g = new(rules, 2)
    exhaust(g)
    drawer = g.turn
    assert g.hand_size(drawer) == 7 and g.hand_size(1 - drawer) == 6
    discards = 0
    while g.hand_number == 0:
        assert g.decision == "play"
        seat = g.turn
        before = g.hand_size(seat)
        assert before > 0
        events = pass_turn(g)
        types = [e["type"] for e in events]
        if "hand-over" in types:
            types = types[: types.index("hand-over")]
        assert "draw" not in types and "take-discard" not in types
        discards += 1
        if g.hand_number == 0:
            assert g.hand_size(seat) == before - 1
    assert discards == 13
    assert g.hand_results[0]["stock_empty"] and g.hand_results[0]["completed"] is None


@pytest.mark.parametrize(
    "rules, options",
    [
        ("dujardin", {}),
        ("family", {}),
        ("classic", {"exhaustion": "end-of-turn"}),
    ],
)
def test_exhaustion_end_of_turn(rules, options):
    """RULES 6 (exhaustion end-of-turn): the hand ends when the turn that drew the last card is over."""
    g = new(rules, 2, **options)
    exhaust(g)
    assert g.hand_number == 0 and g.decision == "play" and not g.hand_results
    pass_turn(g)
    assert g.hand_results and g.hand_results[0]["stock_empty"]
    assert g.hand_results[0]["completed"] is None
    assert g.hand_number == 1 or g.is_over


def test_exhaustion_play_out_can_be_switched_on_for_dujardin():
    """exhaustion option: dujardin with exhaustion='play-out' plays on after the last draw."""
    g = new("dujardin", 2, exhaustion="play-out")
    exhaust(g)
    drawer = g.turn
    pass_turn(g)
    assert not g.is_over and not g.hand_results
    assert g.turn == 1 - drawer and g.hand_size(g.turn) == 6 and g.decision == "play"


# ------------------------------------------------------------- end of a hand and winner
def _race_to_1000(rules, **options):
    """Seat 0 drives 200, 200 and six 100s (1000) in dujardin-like editions; seat 1 discards."""
    g = new(
        rules,
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"]},
        draws={0: ["100", "100", "100", "100", "end-of-limit", "gasoline", "spare-tire", "repairs", "end-of-limit"]},
        **options,
    )
    plays = ["play roll", "play 200", "play 200"] + ["play 100"] * 6
    for i, a in enumerate(plays):
        go(g, a)
        if i < len(plays) - 1:
            pass_turn(g)
    return g


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_reaching_the_target_ends_the_hand_at_once(rules):
    """RULES 5: a side that reaches the target exactly ends the hand at once; the race is the match."""
    g = _race_to_1000(rules)
    assert g.is_over and g.decision is None and g.to_act is None
    res = g.hand_results[0]
    assert res["completed"] == 0 and res["distance"] == [1000, 0] and res["winners"] == [0]
    assert g.winners == [0]
    assert not res["stock_empty"]


def test_first_player_of_hand_k_is_seat_k():
    """RULES 6 (first player) / match: hand k starts with seat k mod players; a classic match goes on
    to the next hand."""
    g = _reach_700("classic", 3)
    go(g, "end-hand")
    assert g.hand_number == 1 and not g.is_over
    assert g.hand_results[0]["winners"] == [0]  # classic: the most points wins the hand
    assert g.turn == 1 and g.to_act == 1
    exhaust(g)
    while g.hand_number == 1:
        pass_turn(g)
    assert g.hand_number == 2 and g.turn == 2
    assert g.hand_results[1]["stock_empty"]


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_distance_winner_greatest_distance_and_shared_tie(rules):
    """RULES 6 (winner distance): without 1000 the greatest distance wins; a tie is shared."""
    g = new(rules, 2, hands={0: ["roll", "100"]})
    go(g, "play roll")
    pass_turn(g)
    go(g, "play 100")
    exhaust(g)
    pass_turn(g)
    assert g.is_over and g.winners == [0]
    assert g.hand_results[0]["distance"] == [100, 0]
    tie = new(rules, 2)
    exhaust(tie)
    pass_turn(tie)
    assert tie.is_over and tie.winners == [0, 1]


def test_family_match_to_n_points_option():
    """RULES 6 (match, family option): with match_target set, hands go on until a side has N points."""
    g = new("family", 2, match_target=3000)
    exhaust(g)
    pass_turn(g)
    assert not g.is_over and g.hand_number == 1 and g.turn == 1


def test_classic_match_until_5000_highest_total_wins():
    """RULES 6 (match, classic): hands until a side has 5000 or more; the highest total then wins."""
    g = mb.new_game("classic", players=2, seed=11)
    rng = random.Random(3)
    last_scores = None
    for _ in range(200_000):
        if g.is_over:
            break
        hand = g.hand_number
        g.act(rng.choice(g.legal_actions()))
        if g.hand_number != hand and not g.is_over:
            assert max(g.match_scores) < 5000
            last_scores = list(g.match_scores)
    assert g.is_over
    assert max(g.match_scores) >= 5000
    best = max(g.match_scores)
    assert g.winners == [s for s in range(2) if g.match_scores[s] == best]
    assert last_scores is None or max(last_scores) < 5000


def test_classic_match_tie_is_shared():
    """RULES 6 (match, classic): when the match ends with equal totals at the top, the win is shared."""
    g = new("classic", 2, hands={0: ["roll", "25"], 1: ["roll", "25"]}, match_target=25)
    go(g, "play roll")
    go(g, "play roll")
    go(g, "play 25")
    go(g, "play 25")
    exhaust(g, keep=())
    while not g.is_over:
        assert g.hand_number == 0
        pass_turn(g)
    assert g.hand_results[0]["points"] == [25, 25]
    assert g.match_scores == [25, 25] and g.winners == [0, 1]


# ----------------------------------------------------------------------- illegal actions
def test_illegal_actions_are_explained_and_change_nothing():
    """Illegal actions raise IllegalAction (a ValueError) with a reason; the state is unchanged."""
    g = new("classic", 2, hands={0: ["roll", "100", "75", "75", "75", "75"]}, stock=["75"])
    assert issubclass(mb.IllegalAction, ValueError)
    refused(g, "play 200", "seat 0 has no 200 in hand")
    refused(g, "discard 200", "no 200 in hand")
    refused(g, "extend", "not a question now")
    refused(g, "coup-fourre", "not a question now")
    refused(g, "draw", "already drawn")
    refused(g, "play 100", "you need a Roll first")
    refused(g, "play 75", "seat 1's decision", seat=1)
    refused(g, "fly away", "unknown action")
    refused(g, "play banana", "no card 'banana'")
    refused(g, "play accident 5", "no side 5|no accident")
    go(g, "play roll")
    refused(g, "play 100", "no 100 in hand")
    refused(g, "play roll", "seat 0's decision", seat=0)


def test_illegal_answer_to_a_pending_question():
    """A wrong answer to a pending decision is refused with the decision to take."""
    g = _reach_700("classic")
    refused(g, "play 100", "extend or end-hand")
    refused(g, "pass", "extend or end-hand")
    g2, _ = _attack_setup("classic", 2, holder=1)
    refused(g2, "play driving-ace", "coup-fourre or pass")
    refused(g2, "extend", "coup-fourre or pass")
    refused(g2, "coup-fourre", "seat 1", seat=0)
