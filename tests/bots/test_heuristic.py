"""The heuristic bot: always legal, sensible on stacked positions, and clearly better than random.

The bot only ever gets ``game.observation(seat)`` and the legal actions.  Scenario positions are
played out on stacked decks (tests/util.py); draws are stacked too, so no filler card changes the
choice being tested.
"""

from __future__ import annotations

import json
import random

import pytest

import millebornes as mb
from millebornes.bots import RandomBot, make_bot
from millebornes.bots.heuristic import HeuristicBot
from tests.util import go, new, pass_turn


def ask(g, bot=None) -> str:
    """The heuristic's answer for the seat to act; it must be legal."""
    bot = bot or HeuristicBot(seed=3)
    legal = g.legal_actions()
    action = bot.choose(g.observation(g.to_act), list(legal))
    assert action in legal
    return action


def bot_turn(g, bot=None) -> str:
    """Let the bot answer a classic draw decision, then return its play."""
    if g.decision == "draw":
        g.act(ask(g, bot))
    return ask(g, bot)


# ----------------------------------------------------------------------------- legality
CONFIGS = [
    ("classic", 2, None),
    ("classic", 3, None),
    ("classic", 4, True),
    ("classic", 6, True),
    ("parker", 2, None),
    ("parker", 3, None),
    ("parker", 4, True),
    ("dujardin", 2, None),
    ("dujardin", 3, None),
    ("dujardin", 4, None),
    ("dujardin", 4, True),
    ("dujardin", 6, True),
    ("dujardin", 8, True),
    ("family", 2, None),
    ("family", 4, None),
    ("family", 5, None),
    ("family", 6, None),
]


@pytest.mark.parametrize("rules,players,teams", CONFIGS)
def test_never_an_illegal_action(rules, players, teams):
    """Whole matches where the heuristic (plain and noisy) plays with random seats: every answer is
    one of the legal actions, for every decision kind met."""
    seen = set()
    for seed in range(2 if rules in ("classic", "parker") else 4):
        g = mb.new_game(rules, players=players, teams=teams, seed=seed)
        bots = []
        for q in range(players):
            kind = (q + seed) % 3
            bots.append(
                HeuristicBot(seed * 10 + q)
                if kind == 0
                else HeuristicBot(seed * 10 + q, noise=0.3)
                if kind == 1
                else RandomBot(q)
            )
        steps = 0
        while not g.is_over:
            q = g.to_act
            legal = g.legal_actions()
            action = bots[q].choose(g.observation(q), legal)
            assert action in legal, (rules, players, seed, g.decision, action, legal)
            seen.add(g.decision)
            g.act(action)
            steps += 1
            assert steps < 20000
    assert "play" in seen


def test_every_seat_heuristic_every_decision_kind():
    """All-heuristic classic games meet every decision kind (draw, coup-fourre, extension) and the
    answers stay legal."""
    seen = set()
    for seed in range(6):
        g = mb.new_game("classic", players=3, seed=seed)
        bots = [HeuristicBot(q) for q in range(3)]
        while not g.is_over:
            legal = g.legal_actions()
            action = bots[g.to_act].choose(g.observation(g.to_act), legal)
            assert action in legal
            seen.add(g.decision)
            g.act(action)
    assert seen == {"play", "draw", "coup-fourre", "extension"}


def test_noise_plays_random_moves_and_is_seeded():
    """noise=1 is uniform over the legal actions (it also picks non-first ones); the same seed gives
    the same choices; noise outside [0, 1] is refused; make_bot builds the levels."""
    g = mb.new_game("dujardin", players=2, seed=5)
    obs, legal = g.observation(0), g.legal_actions()
    picks = {HeuristicBot(s, noise=1.0).choose(obs, legal) for s in range(40)}
    assert len(picks) > 3
    a = [HeuristicBot(7, noise=0.5).choose(obs, legal) for _ in range(3)]
    assert len(set(a)) == 1
    with pytest.raises(ValueError):
        HeuristicBot(0, noise=1.5)
    easy = make_bot("easy", seed=1)
    assert easy.name == "heuristic" and easy.noise == pytest.approx(0.35)
    assert make_bot("heuristic", seed=1).noise == 0.0


def test_the_bot_reads_the_observation_only():
    """The bot's answer depends on the observation alone: a determinized world (other hands and
    the stock re-dealt) gives the same observation for the seat, hence the same answer; so does
    the observation after a JSON round trip."""
    rng = random.Random(2)
    for seed in range(5):
        g = mb.new_game("classic", players=2, seed=seed)
        for _ in range(30 + seed):
            g.act(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        q = g.to_act
        obs = g.observation(q)
        world = mb.determinize(obs, random.Random(seed))
        answer = HeuristicBot(1).choose(obs, g.legal_actions())
        assert answer == HeuristicBot(1).choose(world.observation(q), world.legal_actions())
        # and through JSON, as the bot protocol sends it
        assert answer == HeuristicBot(1).choose(json.loads(json.dumps(obs)), g.legal_actions())


def test_card_counting_matches_the_engine():
    """The bot's own count of unseen cards (built fast from the observation) equals
    millebornes.observe.unseen_counts in random positions of every edition."""
    from millebornes.bots.heuristic import DEFAULT, View
    from millebornes.observe import unseen_counts

    rng = random.Random(4)
    checked = 0
    for rules, players, teams in CONFIGS[::2]:
        g = mb.new_game(rules, players=players, teams=teams, seed=players)
        for _ in range(150):
            if g.is_over:
                break
            q = g.to_act
            obs = g.observation(q)
            expected = unseen_counts(obs)
            assert View(obs, DEFAULT).unseen == [expected[c] for c in mb.CARD_IDS]
            checked += 1
            g.act(rng.choice(g.legal_actions()))
    assert checked > 500


# ----------------------------------------------------------------------------- scenarios
@pytest.mark.parametrize("rules", ["classic", "parker", "dujardin", "family"])
def test_answers_a_coup_fourre(rules):
    """Seat 0 holds right-of-way when seat 1 plays a stop on it: the bot calls the coup fourré (in
    dujardin too, where it scores nothing but still cancels the stop and gives a turn)."""
    g = new(
        rules,
        2,
        hands={0: ["roll", "right-of-way", "100", "75", "50", "25"], 1: ["stop", "100", "75", "50", "25", "25"]},
    )
    go(g, "play roll")
    go(g, "play stop 0")
    assert g.decision == "coup-fourre" and g.to_act == 0
    assert ask(g) == "coup-fourre"


@pytest.mark.parametrize("rules", ["classic", "parker", "dujardin", "family"])
def test_remedies_when_stopped_and_holding_the_remedy(rules):
    """Seat 0 is stopped by a flat tire and holds a spare tire (and a speed limit it could play):
    it repairs."""
    g = new(
        rules,
        2,
        hands={
            0: ["roll", "spare-tire", "100", "75", "speed-limit", "25"],
            1: ["flat-tire", "100", "75", "50", "25", "25"],
        },
        draws={0: ["50", "50"], 1: ["75"]},
    )
    go(g, "play roll")
    go(g, "play flat-tire 0")
    if g.decision == "coup-fourre":
        pytest.fail("nobody holds puncture-proof here")
    assert bot_turn(g) == "play spare-tire"


@pytest.mark.parametrize("rules", ["classic", "parker", "dujardin", "family"])
def test_plays_a_roll_to_start(rules):
    """First turn, a roll in hand next to distance and a speed limit: the bot starts its car."""
    g = new(rules, 2, hands={0: ["roll", "100", "75", "speed-limit", "50", "25"]}, draws={0: ["100"]})
    assert ask(g) == "play roll"


def test_attacks_the_leader():
    """Dujardin, three players: sides 1 and 2 are moving, side 2 far ahead; seat 0 holds an
    accident and cannot move: it attacks side 2."""
    g = new(
        "dujardin",
        3,
        hands={
            0: ["accident", "25", "25", "50", "50", "75"],
            1: ["roll", "50", "25", "25", "75", "50"],
            2: ["roll", "200", "100", "100", "75", "75"],
        },
        draws={0: ["75", "75"], 1: ["25", "50"], 2: ["100", "100"]},
    )
    go(g, "discard 25")
    go(g, "play roll")
    go(g, "play roll")
    go(g, "discard 25")
    go(g, "play 25")
    go(g, "play 200")
    assert g.to_act == 0 and g.is_moving(1) and g.is_moving(2)
    assert ask(g) == "play accident 2"


def test_discards_a_useless_card_never_a_safety():
    """Classic: seat 0 has extra-tank in play, so its gasoline is useless; it cannot move and holds
    driving-ace for a coup fourré: it discards the gasoline, not the safety nor a good card."""
    g = new(
        "classic", 2, hands={0: ["extra-tank", "gasoline", "driving-ace", "100", "75", "50"]}, draws={0: ["100", "25"]}
    )
    go(g, "play extra-tank")  # an extra turn follows
    assert g.to_act == 0 and g.decision == "play"
    assert ask(g) == "discard gasoline"


@pytest.mark.parametrize(
    "rules,expected", [("classic", "hold"), ("parker", "hold"), ("dujardin", "lay"), ("family", "lay")]
)
def test_holds_a_safety_for_a_coup_fourre_only_where_it_scores(rules, expected):
    """Moving with a 100 and puncture-proof, flat tires still to come: in classic and parker the
    bot keeps the safety for a coup fourré (+300) and plays the 100; in dujardin and family, where a
    coup fourré scores nothing, it lays the safety at once (the extra turn comes now, not later)."""
    g = new(rules, 2, hands={0: ["roll", "puncture-proof", "100", "100", "75", "50"]}, draws={0: ["75", "50"]})
    go(g, "play roll")
    pass_turn(g, draw=False)
    action = bot_turn(g)
    if expected == "hold":
        assert action == "play 100"
    else:
        assert action == "play puncture-proof"


def test_lays_a_safety_that_cures_its_stop():
    """Classic: stopped by an accident with no repairs in hand, holding driving-ace: the bot lays
    it (it cures the accident and gives an extra turn) instead of waiting."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "driving-ace", "100", "75", "50", "25"], 1: ["accident", "100", "75", "50", "25", "25"]},
        draws={0: ["75", "100"], 1: ["50"]},
    )
    go(g, "play roll")
    go(g, "play accident 0")
    if g.decision == "coup-fourre":
        g.act("pass")  # declined: the accident stays
    assert not g.is_moving(0)
    assert bot_turn(g) == "play driving-ace"


def test_under_a_speed_limit_plays_small_distance():
    """Seat 0 is moving under a speed limit with 25 and 50 (and 100s it may not play, no end of
    limit): it plays the 50."""
    g = new(
        "dujardin",
        2,
        hands={0: ["roll", "25", "50", "100", "100", "75"], 1: ["speed-limit", "100", "75", "50", "25", "25"]},
        draws={0: ["100", "75"], 1: ["25"]},
    )
    go(g, "play roll")
    go(g, "play speed-limit 0")
    assert ask(g) == "play 50"


def test_classic_keeps_the_safe_trip():
    """Classic, moving, with a 200 and a 100 and nothing to attack: the 100 goes down, the 200 is
    kept while the safe-trip bonus is still possible."""
    g = new("classic", 2, hands={0: ["roll", "200", "100", "75", "50", "25"]}, draws={0: ["75", "50"]})
    go(g, "play roll")
    pass_turn(g, draw=False)
    assert bot_turn(g) == "play 100"


def test_keeps_small_cards_for_an_exact_finish():
    """Dujardin at 875 km (125 to go) with 100, 75 and 50: the 100 would leave 25 that the hand
    cannot make; 75 (then 50) or 50 (then 75) keeps an exact finish in hand."""
    g = new(
        "dujardin",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"]},
        draws={0: ["100", "100", "75", "75", "50", "end-of-limit", "gasoline", "repairs", "spare-tire"]},
    )
    go(g, "play roll")
    for card in ("200", "200", "100", "100", "100", "100", "75"):
        pass_turn(g, draw=False)
        go(g, f"play {card}")
    pass_turn(g, draw=False)
    assert g.tableau(0)["distance"] == 875
    assert sorted(c for c in g.hand(0) if c in ("25", "50", "75", "100", "200")) == ["100", "50", "75"]
    assert ask(g) in ("play 75", "play 50")


def test_completes_the_trip():
    """With the exact card for the target in hand the bot completes (dujardin: at once)."""
    g = new(
        "dujardin",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"]},
        draws={0: ["100", "100", "100", "100", "100", "25", "end-of-limit"]},
    )
    go(g, "play roll")
    for card in ("200", "200", "100", "100", "100", "100", "100"):
        pass_turn(g, draw=False)
        go(g, f"play {card}")
    pass_turn(g, draw=False)
    assert g.tableau(0)["distance"] == 900 and "100" in g.hand(0)
    assert ask(g) == "play 100"


def test_classic_lays_safeties_before_completing():
    """Classic: about to complete with a safety in hand, the bot lays it first (100 points and an
    extra turn, the completing card stays playable), then completes."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "100", "100", "100", "100", "100"]},
        draws={0: ["100", "100", "driving-ace", "75", "50", "25", "25"]},
    )
    go(g, "play roll")
    for _ in range(6):
        pass_turn(g, draw=False)
        go(g, "draw", "play 100")
    assert g.tableau(0)["distance"] == 600
    pass_turn(g, draw=False)
    if g.decision == "draw":
        g.act("draw")
    assert "driving-ace" in g.hand(0) and "100" in g.hand(0)
    assert ask(g) == "play driving-ace"
    g.act("play driving-ace")
    assert ask(g) == "play 100"


def _at_700(opponent_distance_cards):
    """Classic 2p: seat 0 reaches 700 with 100s (safe trip intact) and must choose the extension;
    seat 1 plays a roll and the given distance cards (then just discards)."""
    hand1 = (["roll"] + list(opponent_distance_cards) + ["gasoline", "gasoline", "repairs", "repairs", "spare-tire"])[
        :6
    ]
    g = new(
        "classic",
        2,
        hands={0: ["roll", "100", "100", "100", "100", "100"], 1: hand1},
        draws={
            0: ["100", "100", "driving-ace", "extra-tank", "puncture-proof", "100", "100", "75"],
            1: ["gasoline", "repairs", "spare-tire"] + ["end-of-limit"] * 5,
        },
    )
    go(g, "play roll")
    plays1 = ["play roll"] + [f"play {c}" for c in opponent_distance_cards]
    for i in range(7):
        if i < len(plays1):
            go(g, plays1[i])
        else:
            pass_turn(g, draw=False)
        go(g, "play 100")
    assert g.decision == "extension" and g.to_act == 0
    return g


def test_takes_the_extension_when_far_ahead():
    """Classic: 700 reached with three safeties in play... in hand, lots of stock, 100s in hand, the
    opponent at 100 km: the bot extends."""
    g = _at_700(["100"])
    assert g.tableau(1)["distance"] == 100
    assert ask(g) == "extend"


def test_ends_the_hand_when_it_wins_the_match():
    """Classic: ending the hand now takes the bot past 5000 points well ahead: it ends the hand."""
    g = _at_700(["100"])
    obs = g.observation(0)
    obs["match_scores"] = [4500, 3000]
    assert HeuristicBot(1).choose(obs, g.legal_actions()) == "end-hand"


def test_takes_a_useful_discard():
    """Classic: seat 0 is stopped by out-of-gas without gasoline; seat 1 discards a gasoline: the
    bot takes it instead of drawing blind, then plays it."""
    g = new(
        "classic",
        2,
        hands={0: ["roll", "100", "75", "50", "25", "200"], 1: ["out-of-gas", "gasoline", "100", "75", "50", "25"]},
        draws={0: ["75", "100"], 1: ["25"]},
    )
    go(g, "play roll")
    go(g, "play out-of-gas 0")
    pass_turn(g, draw=False)  # seat 0 has nothing to do
    go(g, "discard gasoline")
    assert g.decision == "draw" and g.to_act == 0
    assert ask(g) == "take-discard"
    g.act("take-discard")
    assert ask(g) == "play gasoline"


# ----------------------------------------------------------------------------- strength
def test_beats_random_in_dujardin_races():
    """Seat-balanced (each seed played twice, seats swapped): at least 45 of 50 races won."""
    wins = 0.0
    for seed in range(25):
        for h_seat in (0, 1):
            g = mb.new_game("dujardin", players=2, seed=seed)
            bots = {h_seat: HeuristicBot(seed), 1 - h_seat: RandomBot(seed)}
            while not g.is_over:
                q = g.to_act
                g.act(bots[q].choose(g.observation(q), g.legal_actions()))
            if h_seat in g.winners:
                wins += 1.0 / len(g.winners)
    assert wins >= 45
