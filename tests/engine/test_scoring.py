"""Scoring, hand winners, matches and the rule-option API (docs/rules.md sections 5 and 6).

The perfect hands reproduce the classic maxima of docs/rules.md §6.13 (4,600 / 4,400 / 5,100 / 5,100) by playing a stacked
deck through ``act`` with small scripted policies: the perfect seat (seat 0) holds the four safeties
from the deal, seat 1 holds the four hazards and plays them on the perfect side one after another,
so each safety comes down as a coup fourré; everyone else only discards.
"""

from __future__ import annotations

import json
import random

import pytest

import millebornes as mb
from tests.util import game_with, play

SAFETIES = ["right-of-way", "extra-tank", "puncture-proof", "driving-ace"]
CF_HAZARDS = ["stop", "out-of-gas", "flat-tire", "accident"]
DISTANCE_VALUES = {"25": 25, "50": 50, "75": 75, "100": 100, "200": 200}
# Seat 1 draws stock cards 1, 4, 7 and 10 (between the four coups fourrés); seat 0 draws the others:
# after its roll, each coup fourré gives it a replacement card and a full turn (two draws).
PERFECT_STOCK = [
    "100",
    "end-of-limit",
    "100",
    "100",
    "gasoline",
    "100",
    "100",
    "spare-tire",
    "100",
    "100",
    "repairs",
    "100",
    "100",
]


# ------------------------------------------------------------------------------------ drivers
def discard_policy(g, legal):
    """A seat that never plays: draws, passes, ends the hand at 700, and discards hazards and
    remedies first, then distance cards, then safeties."""
    d = g.decision
    if d == "draw":
        return "draw"
    if d == "coup-fourre":
        return "pass"
    if d == "extension":
        return "end-hand"
    discards = [a for a in legal if a.startswith("discard ")]
    rank = {a: (a.split()[1] in SAFETIES, a.split()[1] in DISTANCE_VALUES) for a in discards}
    return min(discards, key=lambda a: rank[a])


def drive(g, policies, cap=5000):
    """Let each seat act by its policy (default: discard_policy) until the first hand is scored.

    Returns the hand result and a clone of the game just before the action that ended the hand
    (a classic match deals the next hand at once, so the finished tableaux are gone from ``g``)."""
    for _ in range(cap):
        seat = g.to_act
        legal = g.legal_actions()
        assert legal, f"no legal action for seat {seat} ({g.decision})"
        action = policies.get(seat, discard_policy)(g, legal)
        assert action in legal, f"seat {seat}: {action!r} not in {legal}"
        before = g.clone()
        g.act(action, seat=seat)
        if g.hand_results:
            return g.hand_results[0], before
    raise AssertionError("the hand did not end")


def racer(seat, cards=("100",), goal=None, extend=True, finish_after_stock=False, safeties_normally=()):
    """A policy for a seat that drives: roll to start, then plays the listed distance cards (in the
    order given) up to ``goal`` (default: the ruleset target).  With ``finish_after_stock`` the card
    that completes the goal is kept until a turn that began with an empty stock (no draw).
    Safeties in ``safeties_normally`` are played normally as soon as possible; others are kept for
    coups fourrés."""
    state = {"extended": None}

    def policy(g, legal):
        d = g.decision
        if d == "draw":
            return "draw"
        if d == "coup-fourre":
            return "coup-fourre"
        if d == "extension":
            state["extended"] = extend
            return "extend" if extend else "end-hand"
        side = g.side_of(seat)
        tab = g.tableau(side)
        for s in safeties_normally:
            if f"play {s}" in legal:
                return f"play {s}"
        final = goal if goal is not None else g.ruleset.target
        if not g.is_moving(side) and "play roll" in legal:
            return "play roll"
        dist = tab["distance"]
        if state["extended"] is False:
            final = dist  # the hand is over for this policy
        for c in cards:
            if f"play {c}" not in legal:
                continue
            after = dist + DISTANCE_VALUES[c]
            if after < final:
                return f"play {c}"
            if after == final:
                drew = g.hand_size(seat) == 7
                if not finish_after_stock or (g.stock_size == 0 and not drew):
                    return f"play {c}"
        # Discard: cards we do not use first; keep the roll until started, one of each listed
        # distance card for the finish, and the safeties for coups fourrés.
        hand = g.hand(seat)
        discards = [a for a in legal if a.startswith("discard ")]

        def rank(a):
            c = a.split()[1]
            if c in SAFETIES:
                return 3
            if c in cards:
                return 2 if hand.count(c) == 1 else 1
            if c == "roll" and not tab["battle"]:
                return 1
            return 0

        return min(discards, key=rank)

    return policy


def attacker(victim_side, hazards=CF_HAZARDS):
    """A seat that plays the given hazards on ``victim_side`` whenever it can, else discards."""

    def policy(g, legal):
        if g.decision != "play":
            return discard_policy(g, legal)
        for h in hazards:
            if f"play {h} {victim_side}" in legal:
                return f"play {h} {victim_side}"
        return discard_policy(g, legal)

    return policy


def perfect_game(
    rules, players, teams=None, extend=True, finish_after_stock=True, stock=PERFECT_STOCK, cards=("100",), **options
):
    """Seat 0 plays a perfect hand (see the module docstring); seats 2 and up are dealt plain distance
    cards and the rest of the stock starts with rolls, remedies and hazards, so that seat 0 never
    draws a distance card it does not need (the family hand penalty stays 0)."""
    hands = {0: SAFETIES + ["roll", "100"], 1: list(CF_HAZARDS)}
    pool = ["25", "50", "75"] * 10
    for seat in range(2, players):
        if len(pool) >= 6:
            hands[seat], pool = pool[:6], pool[6:]
    g = game_with(
        rules,
        players,
        hands=hands,
        stock=stock,
        teams=teams,
        filler=[
            "roll",
            "end-of-limit",
            "gasoline",
            "spare-tire",
            "repairs",
            "speed-limit",
            "stop",
            "out-of-gas",
            "flat-tire",
            "accident",
        ],
        **options,
    )
    perfect = racer(0, cards=cards, extend=extend, finish_after_stock=finish_after_stock)
    result, last = drive(g, {0: perfect, 1: attacker(g.side_of(0))})
    return g, result, last


def distance_in_hands(g, side):
    return sum(DISTANCE_VALUES.get(c, 0) for seat in g.sides[side] for c in g.hand(seat))


# ------------------------------------------------------------------------------------ 1. perfect hands
CLASSIC_PERFECT = [
    # (players, teams, extension bonus, shutouts, total)
    (2, False, True, 1, 4600),
    (4, True, False, 1, 4400),
    (3, False, True, 2, 5100),
    (6, True, True, 2, 5100),
]


@pytest.mark.parametrize("rules", ["classic", "parker"])
@pytest.mark.parametrize("players,teams,extension,shutouts,total", CLASSIC_PERFECT)
def test_perfect_hand_classic(rules, players, teams, extension, shutouts, total):
    g, result, last = perfect_game(rules, players, teams=teams)
    assert g.teams is teams
    # The last action completes 1000 on a turn that began with an empty stock (no draw).
    assert g.history[-1] == "play 100" and last.stock_size == 0 and last.hand_size(0) < 7
    tab = last.tableau(0)
    assert tab["distance"] == 900
    assert tab["two_hundreds"] == 0
    assert sorted(tab["safeties"]) == sorted(SAFETIES)
    assert sorted(tab["coups_fourres"]) == sorted(SAFETIES)
    assert result["completed"] == 0
    assert result["stock_empty"] is True
    assert result["extender"] == (0 if extension else None)
    assert result["distance"] == [1000] + [0] * (g.nsides - 1)
    want = {
        "distance": 1000,
        "safeties": 400,
        "all_safeties": 300,
        "coups_fourres": 1200,
        "trip": 400,
        "delayed_action": 300,
        "safe_trip": 300,
        "shutout": 500 * shutouts,
    }
    if extension:
        want["extension"] = 200
    assert result["breakdown"][0] == want
    assert result["points"][0] == total
    for side in range(1, g.nsides):
        assert all(v == 0 for v in result["breakdown"][side].values()), result["breakdown"][side]
        assert result["points"][side] == 0
    assert result["winners"] == [0]
    assert g.match_scores == result["points"]
    # The classic match goes on (a second hand is dealt) unless this hand already reached 5000.
    assert g.is_over is (total >= 5000)
    assert g.hand_number == (0 if total >= 5000 else 1)


def test_perfect_hand_totals_match_seed_000():
    """docs/rules.md §6.13, as the classic source has it: 4,600 with 2 players, 4,400 with 4 (no extension), 5,100
    with 3 or 6 players."""
    totals = {players: perfect_game("classic", players)[1]["points"][0] for players in (2, 3, 4, 6)}
    assert totals == {2: 4600, 3: 5100, 4: 4400, 6: 5100}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_perfect_hand_family(players):
    g, result, last = perfect_game("family", players, finish_after_stock=False)
    assert result["completed"] == 0
    assert sorted(g.tableau(0)["coups_fourres"]) == sorted(SAFETIES)
    assert distance_in_hands(g, 0) == 0
    # 1000 km + 400 winner + 4 x 100 safeties + 4 x 300 coups fourrés + 200 without a 200.
    assert result["breakdown"][0] == {
        "distance": 1000,
        "safeties": 400,
        "coups_fourres": 1200,
        "trip": 400,
        "safe_trip": 200,
        "hand_penalty": 0,
    }
    assert result["points"][0] == 3200
    for side in range(1, players):
        penalty = -distance_in_hands(g, side)
        assert result["breakdown"][side] == {
            "distance": 0,
            "safeties": 0,
            "coups_fourres": 0,
            "trip": 0,
            "safe_trip": 0,
            "hand_penalty": penalty,
        }
        assert result["points"][side] == penalty
    assert result["winners"] == [0]
    assert g.is_over and g.winners == [0]
    assert g.match_scores == result["points"]


@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, False), (4, True), (6, True), (8, True)])
def test_perfect_hand_dujardin(players, teams):
    # Two 200s (fine in dujardin: no safe-trip bonus) let seat 0 finish before the stock of an
    # eight-player game runs out.
    stock = list(PERFECT_STOCK)
    stock[2] = stock[5] = "200"
    g, result, last = perfect_game(
        "dujardin", players, teams=teams, finish_after_stock=False, stock=stock, cards=("200", "100")
    )
    assert result["completed"] == 0
    assert sorted(g.tableau(0)["coups_fourres"]) == sorted(SAFETIES)
    # Only distance counts: no bonus for safeties, coups fourrés, trip or anything else.
    assert result["breakdown"][0] == {"distance": 1000}
    assert result["points"] == [1000] + [0] * (g.nsides - 1)
    assert all(b == {"distance": 0} for b in result["breakdown"][1:])
    assert result["winners"] == [0]
    assert g.is_over and g.winners == [0]


# ------------------------------------------------------------------------------------ 2. single items
def test_end_hand_at_700_scores_trip_without_extension_bonus():
    g = game_with("classic", 2, hands={0: ["roll"] + ["100"] * 5}, stock=["100", "end-of-limit", "100"])
    result, last = drive(g, {0: racer(0, extend=False)})
    assert result["completed"] == 0 and result["extender"] is None
    assert result["stock_empty"] is False
    b = result["breakdown"][0]
    assert b["distance"] == 700
    assert b["trip"] == 400
    assert b["safe_trip"] == 300
    assert b["shutout"] == 500
    assert b["delayed_action"] == 0
    assert b.get("extension", 0) == 0
    assert result["points"] == [1900, 0]
    assert all(v == 0 for v in result["breakdown"][1].values())


def test_extension_completed_before_stock_runs_out():
    g = game_with(
        "classic",
        2,
        hands={0: ["roll"] + ["100"] * 5},
        stock=["100", "end-of-limit", "100", "gasoline", "100", "gasoline", "100", "gasoline", "100"],
    )
    result, last = drive(g, {0: racer(0, extend=True)})
    assert result["completed"] == 0 and result["extender"] == 0
    assert result["stock_empty"] is False
    b = result["breakdown"][0]
    assert (b["distance"], b["trip"], b["extension"], b["safe_trip"], b["shutout"], b["delayed_action"]) == (
        1000,
        400,
        200,
        300,
        500,
        0,
    )
    assert result["points"] == [2400, 0]
    assert result["breakdown"][1]["extension"] == 0


@pytest.mark.parametrize("players", [2, 3])
def test_failed_extension_gives_200_to_each_other_side(players):
    # Seat 0 reaches 700, extends, then never plays again: the stock runs out and every hand empties.
    g = game_with(
        "classic",
        players,
        hands={0: ["roll"] + ["100"] * 5},
        stock=["100"] + ["end-of-limit"] * (players - 1) + ["100"],
    )
    result, last = drive(g, {0: racer(0, goal=700, extend=True)})
    assert result["extender"] == 0
    assert result["completed"] is None
    assert result["stock_empty"] is True
    # Play-out: the hand ends with the discard of the last card held.
    assert g.history[-1].startswith("discard ")
    assert sum(last.hand_size(s) for s in range(players)) == 1
    b = result["breakdown"][0]
    assert b["distance"] == 700
    assert b["trip"] == 0 and b["extension"] == 0 and b["safe_trip"] == 0
    assert b["shutout"] == 0 and b["delayed_action"] == 0
    assert result["points"][0] == 700
    for side in range(1, players):
        assert result["breakdown"][side]["extension"] == 200
        assert result["points"][side] == 200


def test_extension_completed_by_another_side():
    """After seat 0 extends, seat 1 completes 1000: seat 1 gets the trip and the extension 200
    (the extender did not complete), seat 0 gets nothing but its distance."""
    # Seat 1 draws its roll on its third turn, so seat 0 reaches 700 first; seat 1 then goes on
    # to 1000 with 200 + 200 + 4 x 100 + 4 x 50.
    g = game_with(
        "classic",
        2,
        hands={0: ["roll"] + ["100"] * 5, 1: ["200", "200", "100", "100", "100", "100"]},
        stock=[
            "100",
            "gasoline",
            "100",
            "gasoline",
            "end-of-limit",
            "roll",
            "end-of-limit",
            "50",
            "end-of-limit",
            "50",
            "gasoline",
            "50",
            "gasoline",
            "50",
        ],
    )
    result, last = drive(g, {0: racer(0, goal=700, extend=True), 1: racer(1, cards=("200", "100", "50"))})
    assert result["extender"] == 0 and result["completed"] == 1
    assert result["distance"] == [700, 1000]
    b0, b1 = result["breakdown"]
    assert b0["extension"] == 0 and b0["trip"] == 0 and b0["distance"] == 700
    assert b1["extension"] == 200 and b1["trip"] == 400
    assert b1["safe_trip"] == 0, "seat 1 played two 200s"
    assert b1["shutout"] == 0, "seat 0 has distance"
    assert result["points"] == [700, 1000 + 400 + 200]


def test_exhaustion_classic_scores_distance_and_safeties_but_no_trip():
    g = game_with(
        "classic",
        2,
        hands={
            0: ["roll", "100", "100", "100", "driving-ace", "25"],
            1: ["roll", "75", "extra-tank", "spare-tire", "spare-tire", "spare-tire"],
        },
    )
    result, last = drive(
        g,
        {
            0: racer(0, cards=("100",), goal=300, safeties_normally=("driving-ace",)),
            1: racer(1, cards=("75",), goal=75, safeties_normally=("extra-tank",)),
        },
    )
    assert result["completed"] is None and result["stock_empty"] is True
    assert g.history[-1].startswith("discard ")
    assert sum(last.hand_size(s) for s in range(2)) == 1
    b0, b1 = result["breakdown"]
    assert b0 == {
        "distance": 300,
        "safeties": 100,
        "all_safeties": 0,
        "coups_fourres": 0,
        "trip": 0,
        "delayed_action": 0,
        "safe_trip": 0,
        "shutout": 0,
    }
    assert b1 == {
        "distance": 75,
        "safeties": 100,
        "all_safeties": 0,
        "coups_fourres": 0,
        "trip": 0,
        "delayed_action": 0,
        "safe_trip": 0,
        "shutout": 0,
    }
    assert result["points"] == [400, 175]
    assert result["winners"] == [0], "classic: the hand winner has the most points"


def test_shutout_only_for_opponents_without_distance():
    # Three players: seat 1 travels 25, seat 2 none; seat 0 completes 700 and ends the hand.
    g = game_with(
        "classic",
        3,
        hands={0: ["roll"] + ["100"] * 5, 1: ["roll", "25"]},
        stock=["100", "end-of-limit", "end-of-limit", "100"],
    )
    result, last = drive(g, {0: racer(0, extend=False), 1: racer(1, cards=("25",), goal=25)})
    assert result["distance"] == [700, 25, 0]
    assert result["breakdown"][0]["shutout"] == 500
    assert result["breakdown"][1]["shutout"] == 0 and result["breakdown"][2]["shutout"] == 0
    assert result["points"] == [700 + 400 + 300 + 500, 25, 0]


def test_no_shutout_when_every_opponent_has_distance():
    g = game_with(
        "classic", 2, hands={0: ["roll"] + ["100"] * 5, 1: ["roll", "25"]}, stock=["100", "end-of-limit", "100"]
    )
    result, last = drive(g, {0: racer(0, extend=False), 1: racer(1, cards=("25",), goal=25)})
    assert result["breakdown"][0]["shutout"] == 0
    assert result["points"] == [700 + 400 + 300, 25]


def test_safe_trip_lost_with_a_200():
    g = game_with(
        "classic", 2, hands={0: ["roll", "200", "100", "100", "100", "100"]}, stock=["100", "end-of-limit", "gasoline"]
    )
    result, last = drive(g, {0: racer(0, cards=("200", "100"), extend=False)})
    assert last.tableau(0)["two_hundreds"] == 1
    b = result["breakdown"][0]
    assert b["distance"] == 700 and b["trip"] == 400 and b["safe_trip"] == 0
    assert result["points"][0] == 700 + 400 + 500


def test_coup_fourre_by_a_player_who_was_not_attacked_scores_for_him():
    """Classic: any player not on the attacker's side may call it; the hazard stays where it landed."""
    g = game_with("classic", 3, hands={0: ["roll", "out-of-gas"], 1: ["roll"], 2: ["extra-tank"]})
    play(g, "play roll", "play roll", "discard gasoline", "draw", "play out-of-gas 1")
    assert g.decision == "coup-fourre" and g.to_act == 2
    play(g, "coup-fourre")
    assert g.tableau(1)["battle"] == ["roll", "out-of-gas"]
    assert g.tableau(2)["coups_fourres"] == ["extra-tank"]
    result, last = drive(g, {})
    assert result["breakdown"][2]["safeties"] == 100
    assert result["breakdown"][2]["coups_fourres"] == 300
    assert result["breakdown"][1]["safeties"] == 0


def test_all_safeties_bonus_counts_normal_plays_too():
    g = game_with("classic", 2, hands={0: SAFETIES + ["roll", "25"], 1: ["roll", "stop"]})
    # Seat 0 lays two safeties normally (extra turns), seat 1 attacks with a stop: coup fourré.
    play(g, "play extra-tank", "play puncture-proof", "play roll", "play stop 0")
    assert g.decision == "coup-fourre" and g.to_act == 0
    play(g, "coup-fourre")
    result, last = drive(g, {0: racer(0, cards=(), safeties_normally=("driving-ace",))})
    b = result["breakdown"][0]
    assert sorted(last.tableau(0)["safeties"]) == sorted(SAFETIES)
    assert last.tableau(0)["coups_fourres"] == ["right-of-way"]
    assert (b["safeties"], b["all_safeties"], b["coups_fourres"]) == (400, 300, 300)


def test_family_hand_penalty_and_no_200_bonus():
    # Seat 0 reaches 1000 with a 200 while holding 75 + 25 + 50; seat 1 ends holding 100 + 25.
    g = game_with(
        "family",
        2,
        hands={0: ["roll", "200", "75", "25", "50", "100"], 1: ["100", "25", "stop", "stop", "stop", "stop"]},
        stock=[
            "100",
            "end-of-limit",
            "100",
            "end-of-limit",
            "100",
            "gasoline",
            "100",
            "gasoline",
            "100",
            "gasoline",
            "100",
            "spare-tire",
            "100",
        ],
    )
    result, last = drive(g, {0: racer(0, cards=("200", "100"))})
    assert result["completed"] == 0
    b0, b1 = result["breakdown"]
    assert b0["distance"] == 1000 and b0["trip"] == 400
    assert b0["safe_trip"] == 0, "a 200 was played"
    assert b0["hand_penalty"] == -distance_in_hands(g, 0) and b0["hand_penalty"] <= -150
    assert b1["hand_penalty"] == -distance_in_hands(g, 1) and b1["hand_penalty"] <= -125
    assert result["points"] == [1000 + 400 + b0["hand_penalty"], b1["hand_penalty"]]
    assert "all_safeties" not in b0 and "delayed_action" not in b0 and "shutout" not in b0
    assert "extension" not in b0


def test_family_safety_and_coup_fourre_points_are_not_distance():
    g = game_with("family", 2, hands={0: ["roll", "puncture-proof", "driving-ace"], 1: ["accident"]})
    play(g, "play roll", "discard end-of-limit", "play puncture-proof")  # extra turn
    play(g, "discard end-of-limit", "play accident 0", "coup-fourre")
    assert g.tableau(0)["distance"] == 0
    result, last = drive(g, {})
    b = result["breakdown"][0]
    assert b["distance"] == 0 and b["safeties"] == 200 and b["coups_fourres"] == 300
    assert b["trip"] == 0


@pytest.mark.parametrize("rules", ["family", "dujardin"])
def test_exhaustion_end_of_turn_winner_is_greatest_distance(rules):
    # Seats 0 and 1 both travel 300, seat 2 travels 100; nobody completes: a shared win.
    g = game_with(
        rules, 3, hands={0: ["roll", "100", "100", "100"], 1: ["roll", "100", "100", "100"], 2: ["roll", "100"]}
    )
    result, last = drive(g, {0: racer(0, goal=300), 1: racer(1, goal=300), 2: racer(2, goal=100)})
    assert result["completed"] is None and result["stock_empty"] is True
    assert result["distance"] == [300, 300, 100]
    assert result["winners"] == [0, 1]
    assert g.is_over and g.winners == [0, 1]
    for side in range(3):
        assert result["breakdown"][side].get("trip", 0) == 0
    if rules == "dujardin":
        assert result["points"] == [300, 300, 100]
    else:
        # docs/rules.md §7.14, family: +400 only for exactly 1000, but +200 to *a winner* who played no 200,
        # and after exhaustion the greatest distance wins (shared here).
        assert [b["safe_trip"] for b in result["breakdown"]] == [200, 200, 0]
        assert [b["trip"] for b in result["breakdown"]] == [0, 0, 0]


def test_classic_hand_winner_is_by_points_not_by_completion():
    """docs/rules.md §6.10: the completing side can score fewer points than its opponents."""
    # Seat 1 lays its four safeties normally (extra turns) and travels 500; seat 0 completes 700
    # with two 200s (no safe trip, no shutout) and ends the hand.
    g = game_with(
        "classic",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"], 1: SAFETIES + ["100", "25"]},
        stock=["end-of-limit", "100", "100", "100", "100", "gasoline"],
    )
    result, last = drive(
        g, {0: racer(0, cards=("200", "100"), extend=False), 1: racer(1, goal=500, safeties_normally=SAFETIES)}
    )
    assert result["completed"] == 0
    assert result["distance"] == [700, 500]
    assert result["points"] == [700 + 400, 500 + 400 + 300]
    assert result["winners"] == [1]


# ------------------------------------------------------------------------------------ 3. matches
def random_match(g, seed, cap=200_000, greedy=False):
    """Random legal actions until the match is over; ``greedy`` prefers anything to a discard."""
    rng = random.Random(seed)
    for _ in range(cap):
        if g.is_over:
            return g
        legal = g.legal_actions()
        if greedy:
            legal = [a for a in legal if not a.startswith("discard ")] or legal
        g.act(rng.choice(legal))
    raise AssertionError("the match did not end")


def check_hand_result(g, res):
    assert res["points"] == [sum(b.values()) for b in res["breakdown"]]
    rules = g.ruleset
    if rules.winner == "points":
        best = max(res["points"])
        assert res["winners"] == [s for s, p in enumerate(res["points"]) if p == best]
    elif res["completed"] is not None:
        assert res["winners"] == [res["completed"]]
        assert res["distance"][res["completed"]] == rules.target
    else:
        best = max(res["distance"])
        assert res["winners"] == [s for s, d in enumerate(res["distance"]) if d == best]
    if res["completed"] is not None:
        target = (
            rules.target
            if res["extender"] is not None or not rules.has_extension(g.players)
            else rules.extension_target
        )
        assert res["distance"][res["completed"]] == target
    assert all(d <= rules.target for d in res["distance"])


@pytest.mark.parametrize("rules", ["classic", "parker"])
@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, True), (6, True)])
@pytest.mark.parametrize("seed", [1, 2])
def test_classic_match_plays_hands_until_5000(rules, players, teams, seed):
    g = random_match(mb.new_game(rules, players=players, teams=teams, seed=seed), seed)
    results = g.hand_results
    assert [r["hand"] for r in results] == list(range(len(results)))
    totals = [0] * g.nsides
    for i, res in enumerate(results):
        check_hand_result(g, res)
        totals = [t + p for t, p in zip(totals, res["points"])]
        if i < len(results) - 1:
            assert max(totals) < 5000, f"the match should have ended after hand {i}"
    assert g.match_scores == totals
    assert max(totals) >= 5000
    assert g.winners == [s for s, t in enumerate(totals) if t == max(totals)]
    assert g.to_act is None and g.decision is None and g.legal_actions() == []
    with pytest.raises(mb.IllegalAction):
        g.act("draw")


@pytest.mark.parametrize("rules", ["dujardin", "family"])
@pytest.mark.parametrize("seed", range(40))
def test_french_editions_are_one_race(rules, seed):
    r = mb.ruleset(rules)
    players = r.solo_players[seed % len(r.solo_players)]
    g = random_match(mb.new_game(rules, players=players, seed=seed), seed)
    assert len(g.hand_results) == 1
    res = g.hand_results[0]
    check_hand_result(g, res)
    assert g.winners == res["winners"]
    assert g.match_scores == res["points"]
    if rules == "family":
        for side, b in enumerate(res["breakdown"]):
            assert b["hand_penalty"] == -distance_in_hands(g, side)
            assert b["distance"] == res["distance"][side]
            assert b["safeties"] == 100 * len(g.tableau(side)["safeties"])
            assert b["coups_fourres"] == 300 * len(g.tableau(side)["coups_fourres"])
    else:
        assert res["points"] == res["distance"]


def test_french_editions_share_tied_wins_somewhere():
    """Over many random races, some end by exhaustion with a tie: the win is shared."""
    shared = 0
    for seed in range(300):
        g = random_match(mb.new_game("dujardin", players=2, seed=seed), seed)
        res = g.hand_results[0]
        check_hand_result(g, res)
        shared += len(res["winners"]) > 1
    assert shared > 0


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_family_match_target_plays_until_n(seed):
    # Purely random play loses points to the hand penalty (distance cards kept): play greedily.
    r = mb.ruleset("family", match_target=1500)
    g = random_match(mb.new_game(r, players=3, seed=seed), seed, greedy=True)
    totals = [0] * g.nsides
    for i, res in enumerate(g.hand_results):
        check_hand_result(g, res)
        totals = [t + p for t, p in zip(totals, res["points"])]
        if i < len(g.hand_results) - 1:
            assert max(totals) < 1500
    assert len(g.hand_results) > 1
    assert g.match_scores == totals and max(totals) >= 1500
    assert g.winners == [s for s, t in enumerate(totals) if t == max(totals)]


def test_later_hands_start_with_seat_hand_mod_players():
    g = mb.new_game("classic", players=3, seed=11)
    rng = random.Random(11)
    seen = {}
    while not g.is_over:
        if g.hand_number not in seen:
            seen[g.hand_number] = g.turn
        g.act(rng.choice(g.legal_actions()))
    assert len(seen) > 1
    assert all(first == k % 3 for k, first in seen.items())


# ------------------------------------------------------------------------------------ 4. ruleset API
@pytest.mark.parametrize(
    "option,value",
    [
        ("target", 30),
        ("target", 0),
        ("target", "1000"),
        ("target", True),
        ("extension_target", 1025),
        ("extension", "yes"),
        ("small_game_deck", 1),
        ("top_discard_pickup", None),
        ("roll_after_remedy", "no"),
        ("safety_extra_turn", 0),
        ("hazard_target", "anywhere"),
        ("coup_fourre", "anyone"),
        ("exhaustion", "never"),
        ("winner", "luck"),
        ("match_target", 0),
        ("match_target", -5),
        ("match_target", True),
        ("match_target", "5000"),
        ("scoring", "lavish"),
        ("scoring", {"miles": 1}),
        ("scoring", 12),
        ("solo_players", [1, 2]),
        ("solo_players", [2, 9]),
        ("team_players", [5]),
        ("team_players", [2]),
        ("teams_by_default", "4"),
        ("extension_players", [0]),
        # what no edition could mean: beyond the deck's distance, an endless match, huge or repeated lists
        ("target", 3525),
        ("target", 10**4299),
        ("extension_target", 0),
        ("match_target", 100_001),
        ("match_target", 10**4299),
        ("solo_players", [2] * 2_000_000),
        ("solo_players", [2, 3, 3]),
        ("team_players", [4, 4]),
        ("extension_players", [2, 3, 6, 9]),
    ],
)
def test_bad_option_value_raises_value_error_naming_it(option, value):
    with pytest.raises(ValueError, match=option) as refused:
        mb.ruleset("classic", **{option: value})
    assert len(str(refused.value)) < 200, "a huge value is described, not echoed"


@pytest.mark.parametrize(
    "value",
    [
        {"mile": "one"},
        {"trip": 4.5},
        {"hand_penalty": "yes"},
        {"shutout": None},
        {"mile": 10**4299},
        {"mile": 11},
        {"trip": 10_001},
        {"coup_fourre": -300},
    ],
)
def test_bad_scoring_field_raises_value_error_naming_scoring(value):
    with pytest.raises(ValueError, match="scoring") as refused:
        mb.ruleset("classic", scoring=value)
    assert len(str(refused.value)) < 200


def test_the_largest_options_allowed_still_play_and_score():
    """The bounds hold what an edition could mean: a race to all the deck's distance, every item at its most."""
    from millebornes.rules import MAX_MATCH_TARGET, MAX_MILE, MAX_POINTS, MAX_TARGET

    assert MAX_TARGET == 3500
    most = {f: MAX_POINTS for f in mb.Scoring().as_dict() if f not in ("hand_penalty", "safe_trip_to_any_winner")}
    r = mb.ruleset(
        "classic",
        target=MAX_TARGET,
        extension_target=MAX_TARGET,
        match_target=MAX_MATCH_TARGET,
        scoring=dict(most, mile=MAX_MILE),
        solo_players=list(range(2, 9)),
    )
    g = mb.new_game(r, players=2, seed=3)
    rng = random.Random(3)
    while not g.hand_results:
        g.act(rng.choice(g.legal_actions()))
    assert all(0 <= p < 2**31 for p in g.hand_results[0]["points"])


@pytest.mark.parametrize("option", ["stacking", "title", "players", "Target"])
def test_unknown_option_raises_value_error_naming_it(option):
    with pytest.raises(ValueError, match=repr(option)):
        mb.ruleset("classic", **{option: 1})


def test_unknown_ruleset_name():
    with pytest.raises(ValueError, match="monopoly"):
        mb.ruleset("monopoly")
    with pytest.raises(ValueError):
        mb.new_game("monopoly")


@pytest.mark.parametrize("name", sorted(mb.RULESETS))
def test_options_round_trip(name):
    r = mb.ruleset(name)
    assert mb.ruleset(name, **r.options()) == r
    assert mb.ruleset(name, **json.loads(json.dumps(r.options()))) == r
    assert r.scoring == mb.RULESETS[name].scoring and isinstance(r.scoring, mb.Scoring)


@pytest.mark.parametrize(
    "name,options",
    [
        ("classic", {"extension": False}),
        ("classic", {"hazard_target": "moving", "coup_fourre": "attacked-side", "top_discard_pickup": False}),
        ("parker", {"match_target": 3000, "scoring": "family"}),
        ("dujardin", {"exhaustion": "play-out", "roll_after_remedy": True, "scoring": "classic"}),
        ("family", {"match_target": 2000, "scoring": {"mile": 2, "trip": 100, "hand_penalty": True}}),
    ],
)
def test_record_options_round_trip(name, options):
    r = mb.ruleset(name, **options)
    for key, value in options.items():
        got = getattr(r, key)
        if key == "scoring":
            got = got.as_dict()
            value = mb.ruleset(name, scoring=value).scoring.as_dict()
        assert got == value
    players = r.solo_players[0]
    g = mb.new_game(r, players=players, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        if not g.is_over:
            g.act(rng.choice(g.legal_actions()))
    rec = json.loads(json.dumps(g.record()))
    assert rec["ruleset"] == name
    assert mb.ruleset(rec["ruleset"], **rec["options"]) == r
    again = mb.replay(rec)
    assert again.ruleset == r
    assert again.observation(0) == g.observation(0)


def test_custom_scoring_is_used():
    r = mb.ruleset("classic", scoring={"mile": 2, "trip": 1})
    g = game_with(r, 2, hands={0: ["roll"] + ["100"] * 5}, stock=["100", "end-of-limit", "100"])
    result, last = drive(g, {0: racer(0, extend=False)})
    assert result["breakdown"][0] == {"distance": 1400, "trip": 1}
    assert result["points"] == [1401, 0]
