"""The numbered edge cases of docs/rules.md section 7 ("Edge n" is §7.n), each played out on a stacked deck.

``hands`` stacks the six dealt cards of a seat; ``draws`` says what each seat draws on its successive
turns when play simply goes round the table from seat 0 (``None`` = any harmless card); ``go`` plays
actions (drawing first when the classic draw decision is asked); ``pass_turn`` discards a filler.
"""

from __future__ import annotations

import itertools
import random

import pytest

import millebornes as mb
from tests.util import distances_legal, exhaust, go, legal, new, pass_turn, refused
from tests.util import types_of as types


# ------------------------------------------------------------------------------- edge 1
def test_edge_01_right_of_way_leaves_a_buried_stop():
    """Edge 1: right-of-way with a stop buried under another hazard (classic stacking): only the
    showing speed limit is removed; the buried stop stays and needs nothing (no roll after repairs)."""
    g = new("classic", 2, hands={0: ["stop", "accident", "speed-limit"], 1: ["roll", "right-of-way", "repairs", "100"]})
    keep = ("stop", "accident", "speed-limit", "right-of-way", "repairs", "100")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play stop 1")
    go(g, "pass")  # seat 1 keeps its right of way for later
    pass_turn(g, keep)
    go(g, "play accident 1")  # stacked on the stop
    pass_turn(g, keep)
    go(g, "play speed-limit 1")
    go(g, "pass")
    assert g.tableau(1)["battle"] == ["roll", "stop", "accident"]
    assert g.tableau(1)["speed"] == ["speed-limit"]
    go(g, "play right-of-way")
    assert g.tableau(1)["battle"] == ["roll", "stop", "accident"]  # buried stop not removed
    assert g.tableau(1)["speed"] == []  # showing speed limit removed
    assert g.discard_pile[-1] == "speed-limit" and "stop" not in g.discard_pile
    assert g.turn == 1 and not g.is_moving(1)  # the accident still needs repairs
    assert "play 100" not in legal(g)
    go(g, "play repairs")
    assert g.tableau(1)["battle"] == ["roll", "stop", "accident", "repairs"]
    assert g.is_moving(1)  # no roll needed, the buried stop is nothing
    pass_turn(g)
    assert "play 100" in legal(g)


def test_edge_01_revealed_buried_stop_has_no_effect():
    """Edge 1: a buried stop revealed later (a coup fourré with right-of-way on a stop stacked on a stop)
    has no effect: the side moves without a roll."""
    g = new("classic", 2, hands={0: ["stop", "stop"], 1: ["roll", "right-of-way", "100"]})
    keep = ("stop", "right-of-way", "100")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play stop 1")
    go(g, "pass")
    pass_turn(g, keep)
    go(g, "play stop 1")
    assert g.tableau(1)["battle"] == ["roll", "stop", "stop"]
    assert g.decision == "coup-fourre" and g.to_act == 1
    go(g, "coup-fourre")
    assert g.tableau(1)["coups_fourres"] == ["right-of-way"]
    assert "stop" in g.discard_pile
    assert g.turn == 1 and g.is_moving(1)
    assert "play 100" in legal(g)


# ------------------------------------------------------------------------------- edge 2
def test_edge_02_coup_fourre_reveals_an_older_hazard_that_must_be_cured():
    """Edge 2: a coup fourré removing the top hazard reveals an older hazard (classic stacking): it
    must still be cured (repairs, then a roll)."""
    g = new("classic", 2, hands={0: ["accident", "flat-tire"], 1: ["roll", "puncture-proof", "repairs", "roll", "100"]})
    keep = ("accident", "flat-tire", "roll", "puncture-proof", "repairs", "100")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play accident 1")
    pass_turn(g, keep)
    go(g, "play flat-tire 1")
    assert g.tableau(1)["battle"] == ["roll", "accident", "flat-tire"]
    go(g, "coup-fourre")
    assert g.tableau(1)["battle"] == ["roll", "accident"]
    assert g.discard_pile[-1] == "flat-tire"
    assert g.turn == 1 and g.decision == "play"
    assert not g.is_moving(1)
    assert "play 100" not in legal(g) and "play roll" not in legal(g)
    assert "play repairs" in legal(g)
    refused(g, "play 100", "Accident; you need Repairs")
    go(g, "play repairs")
    pass_turn(g, keep)
    assert not g.is_moving(1) and "play 100" not in legal(g)  # classic: a roll after repairs
    go(g, "play roll")
    pass_turn(g, keep)
    assert "play 100" in legal(g)


# ------------------------------------------------------------------------------- edge 3
def test_edge_03_revealed_cured_hazard_needs_a_roll():
    """Edge 3: a revealed hazard whose safety is already in play counts as cured: a roll is needed."""
    g = new(
        "classic", 2, hands={0: ["out-of-gas", "flat-tire"], 1: ["roll", "extra-tank", "puncture-proof", "roll", "100"]}
    )
    keep = ("out-of-gas", "flat-tire", "roll", "extra-tank", "puncture-proof", "100")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play out-of-gas 1")
    go(g, "pass")
    go(g, "play extra-tank")  # cures the showing out-of-gas
    assert g.tableau(1)["battle"] == ["roll", "out-of-gas"]
    pass_turn(g, keep)  # extra turn: keep the roll for later
    go(g, "play flat-tire 1")  # stacked on the cured hazard
    go(g, "coup-fourre")
    assert g.tableau(1)["battle"] == ["roll", "out-of-gas"]
    assert g.turn == 1 and not g.is_moving(1)
    assert "play 100" not in legal(g)
    refused(g, "play 100", "Roll first")
    assert "play roll" in legal(g)
    go(g, "play roll")
    assert g.is_moving(1)
    pass_turn(g, keep)
    assert "play 100" in legal(g)


def test_edge_03_revealed_cured_hazard_with_right_of_way_needs_no_roll():
    """Edge 3: ... unless right-of-way is in play: then the side moves at once."""
    g = new(
        "classic", 2, hands={0: ["out-of-gas", "flat-tire"], 1: ["right-of-way", "extra-tank", "puncture-proof", "100"]}
    )
    keep = ("out-of-gas", "flat-tire", "right-of-way", "extra-tank", "puncture-proof", "100")
    pass_turn(g, keep)
    go(g, "play right-of-way")
    pass_turn(g, keep)
    go(g, "play out-of-gas 1")  # right of way: an empty pile may be hit
    go(g, "pass")
    go(g, "play extra-tank")
    pass_turn(g, keep)
    go(g, "play flat-tire 1")
    go(g, "coup-fourre")
    assert g.tableau(1)["battle"] == ["out-of-gas"]
    assert g.turn == 1 and g.is_moving(1)
    assert "play 100" in legal(g)


# ------------------------------------------------------------------------------- edge 4
def test_edge_04_speed_limit_with_exactly_25_left():
    """Edge 4: under a speed limit with exactly 25 left only 25 is legal."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "75"], 1: ["speed-limit"]},
        draws={0: ["25", "50", "75", "100", "200", "gasoline"]},
    )
    for a in ("play roll", "play 200", "play 200", "play 100", "play 100"):
        go(g, a)
        pass_turn(g, keep=("speed-limit",))
    go(g, "play 75")
    go(g, "play speed-limit 0")
    assert g.tableau(0)["distance"] == 675 and g.target == 700
    assert {"25", "50", "75", "100", "200"} <= set(g.hand(0))
    assert distances_legal(g) == {"25"}
    refused(g, "play 50", "past the target")
    refused(g, "play 200", "Speed Limit|two 200s")
    go(g, "play 25")
    assert g.decision == "extension"


@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_edge_04_third_200_never_legal_even_if_it_fits(rules):
    """Edge 4: a third 200 is never legal, even if it fits under the target."""
    g = new(rules, 2, hands={0: ["roll", "200", "200", "200", "100"]})
    for a in ("play roll", "play 200", "play 200"):
        go(g, a)
        pass_turn(g)
    assert g.tableau(0)["distance"] == 400 and g.target - 400 >= 200
    assert "play 100" in legal(g) and "play 200" not in legal(g)
    refused(g, "play 200", "two 200s")


# ------------------------------------------------------------------------------- edge 5
def test_edge_05_target_reached_in_a_chain_of_safety_turns_dujardin():
    """Edge 5: reaching the exact target ends the hand at once, even in a chain of safety turns."""
    g = new(
        "dujardin",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"]},
        draws={0: ["100", "100", "100", "right-of-way", "extra-tank", "puncture-proof"]},
    )
    for a in ["play roll", "play 200", "play 200"] + ["play 100"] * 5:
        go(g, a)
        pass_turn(g)
    assert g.tableau(0)["distance"] == 900
    assert {"right-of-way", "extra-tank", "puncture-proof", "100"} <= set(g.hand(0))
    go(g, "play right-of-way")
    assert g.turn == 0
    go(g, "play extra-tank")
    assert g.turn == 0
    events = go(g, "play 100")
    assert types(events) == ["play", "hand-over", "match-over"]
    assert g.is_over and g.decision is None
    assert g.hand_results[0]["completed"] == 0 and g.winners == [0]
    assert "puncture-proof" in g.hand(0)  # the chain could have gone on: it did not


def test_edge_05_target_reached_in_a_chain_of_safety_turns_classic():
    """Edge 5 (classic): reaching 700 in a safety chain asks the extension at once; ending the hand
    ends it."""
    g = new(
        "classic", 2, hands={0: ["roll", "200", "200", "100", "100", "right-of-way"]}, draws={0: ["extra-tank", "100"]}
    )
    for a in ["play roll", "play 200", "play 200", "play 100", "play 100"]:
        go(g, a)
        pass_turn(g)
    go(g, "play right-of-way", "play extra-tank")
    assert g.turn == 0
    events = go(g, "play 100")
    assert types(events) == ["play"]
    assert g.decision == "extension" and g.to_act == 0
    events = go(g, "end-hand")
    assert "hand-over" in types(events)
    assert g.hand_results[0]["completed"] == 0 and g.hand_number == 1


# ------------------------------------------------------------------------------- edge 6
def _extend_at_700(draws):
    g = new("classic", 2, hands={0: ["roll", "200", "200", "100", "100", "100"]}, draws=draws)
    for i, a in enumerate(["play roll", "play 200", "play 200", "play 100", "play 100", "play 100"]):
        go(g, a)
        if i < 5:
            pass_turn(g)
    assert g.decision == "extension"
    go(g, "extend")
    assert g.extender == 0 and g.target == 1000
    return g


def test_edge_06_failed_extension():
    """Edge 6 and decision 4: a failed extension gives the extender no trip bonus; each other side
    gets 200."""
    g = _extend_at_700(None)
    while g.hand_number == 0:
        pass_turn(g)
    res = g.hand_results[0]
    assert res["completed"] is None and res["extender"] == 0 and res["distance"] == [700, 0]
    b0, b1 = res["breakdown"]
    assert b0["trip"] == 0 and b0["extension"] == 0 and b0["safe_trip"] == 0
    assert b0["delayed_action"] == 0 and b0["shutout"] == 0
    assert b1["extension"] == 200 and b1["trip"] == 0
    assert res["points"] == [700, 200]


def test_edge_06_successful_extension():
    """Decision 4: the extender's side gets +200 when it completes 1000; the others get none."""
    g = _extend_at_700({0: ["100", "100", "100"]})
    for _ in range(3):
        pass_turn(g)
        go(g, "play 100")
    res = g.hand_results[0]
    assert res["completed"] == 0 and res["distance"] == [1000, 0]
    b0, b1 = res["breakdown"]
    assert b0["extension"] == 200 and b0["trip"] == 400
    assert b1["extension"] == 0


# ------------------------------------------------------------------------------- edge 7
@pytest.mark.parametrize("rules", sorted(mb.RULESETS))
def test_edge_07_coup_fourre_answers_a_hazard_in_an_extra_turn(rules):
    """Edge 7: a coup fourré can answer a hazard played in the attacker's extra turn."""
    g = new(rules, 2, hands={0: ["extra-tank", "accident"], 1: ["roll", "driving-ace"]})
    keep = ("extra-tank", "accident", "driving-ace")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play extra-tank")
    assert g.turn == 0 and g.to_act == 0  # the extra turn
    go(g, "play accident 1")
    assert g.decision == "coup-fourre" and g.to_act == 1 and g.turn == 0
    events = go(g, "coup-fourre")
    assert types(events) == ["coup-fourre", "draw", "draw"]
    assert g.tableau(1)["battle"] == ["roll"] and g.tableau(1)["coups_fourres"] == ["driving-ace"]
    assert (g.turn, g.to_act, g.hand_size(1)) == (1, 1, 7)
    pass_turn(g)
    assert g.turn == 0


# ------------------------------------------------------------------------------- edge 8
@pytest.mark.parametrize("rules", ["classic", "parker"])
def test_edge_08_partners_share_tableau_200_cap_and_coup_fourre(rules):
    """Edge 8: in team play partners share the tableau, the 200 cap and the coup fourré right; each
    keeps a hand."""
    g = new(rules, 4, hands={0: ["roll", "200", "extra-tank"], 1: ["accident"], 2: ["200", "200", "driving-ace"]})
    assert g.sides == ((0, 2), (1, 3))
    keep = ("roll", "200", "extra-tank", "accident", "driving-ace")
    go(g, "play roll")
    pass_turn(g, keep)
    assert g.turn == 2 and "play 200" in legal(g)  # partner's roll lets seat 2 drive
    go(g, "play 200")
    pass_turn(g, keep)
    go(g, "play 200")  # seat 0: the side's second 200
    t = g.tableau(0)
    assert t["distance"] == 400 and t["two_hundreds"] == 2 and t["distance_cards"] == ["200", "200"]
    go(g, "play accident 0")  # seat 1 attacks the side of seats 0 and 2
    assert g.decision == "coup-fourre" and g.to_act == 2 and g.turn == 1
    go(g, "coup-fourre")
    assert g.tableau(0)["battle"] == ["roll"]  # the hazard landed on the declarer's side
    assert g.tableau(0)["coups_fourres"] == ["driving-ace"]
    assert g.turn == 2 and g.decision == "play"
    assert "200" in g.hand(2) and "play 200" not in legal(g)  # the shared 200 cap
    refused(g, "play 200", "two 200s")
    assert "play extra-tank" not in legal(g) and "extra-tank" in g.hand(0)  # hands are not shared
    assert g.hand_size(0) == 6 and g.hand_size(2) == 7
    pass_turn(g, keep)
    assert g.turn == 3  # play continues from the declarer's left


# ------------------------------------------------------------------------------- edge 9
def test_edge_09_empty_hand_is_skipped():
    """Edge 9: with an empty stock (classic play-out) a safety still gives an extra turn without a draw;
    a player with an empty hand is skipped; the hand ends when every hand is empty."""
    safeties = ("extra-tank", "puncture-proof")
    g = new("classic", 2, hands={0: list(safeties)})
    exhaust(g, keep=safeties)
    assert g.stock_size == 0 and g.turn == 0 and g.hand_size(0) == 7 and g.hand_size(1) == 6
    events = go(g, "play extra-tank")
    assert types(events) == ["play"] and g.turn == 0 and g.hand_size(0) == 6
    go(g, "play puncture-proof")
    assert g.turn == 0 and g.hand_size(0) == 5
    skipped = False
    while g.hand_number == 0:
        seat = g.turn
        assert g.hand_size(seat) > 0
        if g.hand_size(1 - seat) == 0:
            skipped = True
        pass_turn(g)
        if g.hand_number == 0 and g.hand_size(0) == 0:
            assert g.turn == 1
    assert skipped
    assert g.hand_results[0]["stock_empty"] and g.hand_results[0]["completed"] is None


def _random_hand_ends(g, rng, policy, limit):
    hand = g.hand_number
    for _ in range(limit):
        if g.is_over or g.hand_number != hand:
            return True
        codes = g.legal_codes()
        names = [mb.ACTION_NAMES[c] for c in codes]
        if policy == "stall":
            # never drive: take the discard whenever possible, else discard, else pass / extend
            pick = next((c for c, n in zip(codes, names) if n == "take-discard"), None)
            if pick is None:
                pick = next((c for c, n in zip(codes, names) if n.startswith("discard")), None)
            if pick is None:
                pick = next((c for c, n in zip(codes, names) if n in ("pass", "extend")), codes[0])
        else:
            pick = rng.choice(codes)
        g.act_code(pick)
    return False


VARIANTS = [
    {},
    {"exhaustion": "play-out"},
    {"exhaustion": "end-of-turn"},
    {"top_discard_pickup": True},
    {"top_discard_pickup": True, "exhaustion": "play-out"},
    {"safety_extra_turn": False},
    {"hazard_target": "stacking"},
    {"coup_fourre": "any-opponent"},
    {"extension": False},
]
PLAYERS = {"classic": (2, 3, 4, 6), "parker": (2, 4), "dujardin": (2, 3, 6), "family": (2, 5)}


@pytest.mark.parametrize("rules, options", list(itertools.product(sorted(mb.RULESETS), VARIANTS)))
def test_edge_09_no_option_allows_an_endless_hand(rules, options):
    """Edge 9: the game never loops forever: under any option, random or stalling play ends each hand
    within a bounded number of actions."""
    rng = random.Random(repr((rules, options)))
    for players, policy, _ in itertools.product(PLAYERS[rules], ("random", "stall"), range(3)):
        g = mb.new_game(mb.ruleset(rules, **options), players=players, seed=rng.randrange(10**6))
        for _ in range(2):
            if g.is_over:
                break
            assert _random_hand_ends(g, rng, policy, limit=1500), (rules, options, players, policy)


# ------------------------------------------------------------------------------ edge 10
def _last_draw(rules, hands, keep, leave=0):
    g = new(rules, 2, hands=hands)
    go(g, "play roll")  # seat 0 starts
    exhaust(g, keep=keep, leave=leave)
    return g


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_edge_10_coup_fourre_in_the_turn_that_drew_the_last_card(rules):
    """Edge 10: a coup fourré answering a hazard played in the turn that drew the last card is allowed
    and scores; no card is drawn, and the hand then ends."""
    g = _last_draw(rules, {0: ["roll", "driving-ace"], 1: ["accident"]}, keep=("driving-ace", "accident"))
    assert g.stock_size == 0 and g.turn == 1 and g.decision == "play"
    assert g.hand_size(0) == 6
    go(g, "play accident 0")
    assert g.decision == "coup-fourre" and g.to_act == 0
    events = go(g, "coup-fourre")
    assert "draw" not in types(events)
    assert types(events)[:2] == ["coup-fourre", "hand-over"]
    assert g.is_over
    assert g.hand_size(0) == 5
    assert g.tableau(0)["coups_fourres"] == ["driving-ace"] and g.tableau(0)["battle"] == ["roll"]
    res = g.hand_results[0]
    assert res["stock_empty"] and res["completed"] is None
    if rules == "family":
        assert res["breakdown"][0]["coups_fourres"] == 300 and res["breakdown"][0]["safeties"] == 100


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_edge_10_pass_in_the_last_turn_ends_the_hand(rules):
    """Edge 10: passing the coup fourré in that turn ends the hand too (end-of-turn exhaustion)."""
    g = _last_draw(rules, {0: ["roll", "driving-ace"], 1: ["accident"]}, keep=("driving-ace", "accident"))
    go(g, "play accident 0")
    events = go(g, "pass")
    assert "hand-over" in types(events) and g.is_over
    assert g.tableau(0)["battle"] == ["roll", "accident"]


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_edge_10_safety_in_the_last_turn_gives_no_extra_turn(rules):
    """Edge 10: a safety played normally in the turn that drew the last card gives no extra turn: the
    hand ends."""
    g = _last_draw(rules, {0: ["roll"], 1: ["extra-tank"]}, keep=("extra-tank",))
    assert g.stock_size == 0 and g.turn == 1
    events = go(g, "play extra-tank")
    assert types(events)[:2] == ["play", "hand-over"]
    assert g.is_over
    assert g.tableau(1)["safeties"] == ["extra-tank"]
    if rules == "family":
        assert g.hand_results[0]["breakdown"][1]["safeties"] == 100


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_edge_10_replacement_draw_takes_the_last_card(rules):
    """Decision 6: if the coup fourré's replacement draw takes the last card, the declarer plays a turn
    without drawing, then the hand ends."""
    keep = ("driving-ace", "accident")
    g = new(rules, 2, hands={0: ["accident"], 1: ["roll", "driving-ace"]})
    pass_turn(g, keep)
    go(g, "play roll")
    exhaust(g, keep=keep, leave=1)
    assert g.stock_size == 1 and g.turn == 0
    go(g, "play accident 1")
    assert g.decision == "coup-fourre" and g.to_act == 1
    events = go(g, "coup-fourre")
    assert types(events) == ["coup-fourre", "draw"]
    assert g.stock_size == 0 and not g.is_over
    assert (g.turn, g.to_act, g.decision, g.hand_size(1)) == (1, 1, "play", 6)
    pass_turn(g)
    assert g.is_over and g.hand_results[0]["stock_empty"]


@pytest.mark.parametrize("rules", ["dujardin", "family"])
def test_edge_10_extra_turn_that_draws_the_last_card_is_played(rules):
    """Edge 10 / end-of-turn exhaustion: when a safety's extra-turn draw takes the last card, that
    extra turn is the turn that drew it: it is played, then the hand ends."""
    g = new(rules, 2, hands={0: ["roll", "extra-tank"]})
    go(g, "play roll")
    exhaust(g, keep=("extra-tank",), leave=1)
    assert g.stock_size == 1 and g.turn == 0
    events = go(g, "play extra-tank")
    assert types(events) == ["play", "draw"]
    assert g.stock_size == 0 and not g.is_over and (g.turn, g.decision) == (0, "play")
    events = pass_turn(g)
    assert "hand-over" in types(events) and g.is_over


# ------------------------------------------------------------------------------ edge 11
def test_edge_11_take_discard_only_after_a_discard():
    """Edge 11: taking the discard is allowed only when the turn just before ended with a discard."""
    g = new("classic", 2, hands={0: ["gasoline", "roll"], 1: ["right-of-way"]}, stock=["75", "25"])
    go(g, "discard gasoline")
    assert g.decision == "draw" and g.to_act == 1 and legal(g) == {"draw", "take-discard"}
    go(g, "take-discard")
    assert "gasoline" in g.hand(1) and g.discard_pile == []
    go(g, "play right-of-way")  # extra turn: drawn by the engine
    assert g.turn == 1 and g.decision == "play" and "25" in g.hand(1)
    go(g, "play 25")  # the turn ends with a play
    assert g.turn == 0 and g.decision == "play"
    assert "take-discard" not in legal(g)
    refused(g, "take-discard", "already drawn")
    go(g, "play roll")  # again a play
    assert g.turn == 1 and g.decision == "play"


def test_edge_11_not_when_the_discarder_had_taken_the_discard():
    """Edge 11: not when the player of the turn just before had taken the discard himself."""
    g = new("classic", 2, hands={0: ["gasoline"], 1: ["repairs"]})
    go(g, "discard gasoline")
    go(g, "take-discard")
    go(g, "discard repairs")
    assert g.turn == 0 and g.decision == "play"  # seat 1 took: seat 0 may not take
    assert g.discard_pile == ["repairs"]
    pass_turn(g, draw=False)
    assert g.turn == 1 and g.decision == "draw"  # seat 0 drew: seat 1 may take again


def test_edge_11_not_when_the_stock_is_empty():
    """Edge 11: not when the stock is empty."""
    g = new("classic", 3)
    exhaust(g)
    pass_turn(g, draw=False)
    assert g.stock_size == 0 and g.discard_pile
    assert g.decision == "play" and "take-discard" not in legal(g)
    assert g.hand_size(g.turn) == 6


# ------------------------------------------------------------------------------ edge 12
@pytest.mark.parametrize("rules, moving", [("classic", False), ("dujardin", True)])
def test_edge_12_a_safety_leaves_its_hazard_cured_on_the_pile(rules, moving):
    """Edge 12: a safety played normally leaves the hazard it cancels on the battle pile, cured (a roll
    still needed in classic, none in dujardin); right-of-way alone sends the showing stop away."""
    g = new(rules, 2, hands={0: ["accident", "stop"], 1: ["roll", "driving-ace", "right-of-way", "roll", "100"]})
    keep = ("accident", "stop", "roll", "driving-ace", "right-of-way", "100")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play accident 1")
    go(g, "pass")
    go(g, "play driving-ace")
    assert g.tableau(1)["battle"] == ["roll", "accident"] and "accident" not in g.discard_pile
    assert g.turn == 1 and g.is_moving(1) == moving
    go(g, "play roll")
    go(g, "play stop 1")
    go(g, "pass")
    go(g, "play right-of-way")
    assert g.tableau(1)["battle"] == ["roll", "accident", "roll"]
    assert g.discard_pile[-1] == "stop" and g.is_moving(1)


# ------------------------------------------------------------------------------ edge 13
@pytest.mark.parametrize("rules", ["classic", "dujardin"])
def test_edge_13_remedy_on_a_cured_hazard_is_legal(rules):
    """Edge 13: a remedy matching the top hazard stays legal after a safety has cured that hazard
    (it changes nothing the safety had not already done)."""
    g = new(rules, 2, hands={0: ["flat-tire"], 1: ["roll", "puncture-proof", "spare-tire", "roll"]})
    keep = ("flat-tire", "roll", "puncture-proof", "spare-tire")
    pass_turn(g, keep)
    go(g, "play roll")
    go(g, "play flat-tire 1")
    go(g, "pass")
    go(g, "play puncture-proof")
    assert g.tableau(1)["battle"] == ["roll", "flat-tire"] and g.turn == 1
    moving = g.is_moving(1)
    assert "play spare-tire" in legal(g)
    go(g, "play spare-tire")
    assert g.tableau(1)["battle"] == ["roll", "flat-tire", "spare-tire"]
    assert g.is_moving(1) == moving == (rules == "dujardin")


# ------------------------------------------------------------------------------ edge 14
def test_edge_14_family_no_200_bonus_to_every_winner_that_travelled():
    """Edge 14: in family the +200 for no 200 goes to a winner by greatest distance after the stock ran
    out (the +400 needs exactly 1000); a winner who never travelled gets nothing."""
    g = new("family", 2, hands={0: ["roll", "100"]})
    go(g, "play roll")
    pass_turn(g)
    go(g, "play 100")
    exhaust(g)
    pass_turn(g)
    res = g.hand_results[0]
    assert res["completed"] is None and res["winners"] == [0]
    assert res["breakdown"][0]["safe_trip"] == 200 and res["breakdown"][0]["trip"] == 0
    assert res["breakdown"][1]["safe_trip"] == 0
    still = new("family", 2)
    exhaust(still)
    pass_turn(still)
    res = still.hand_results[0]
    assert res["winners"] == [0, 1] and res["distance"] == [0, 0]
    assert [b["safe_trip"] for b in res["breakdown"]] == [0, 0]
