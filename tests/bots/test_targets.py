"""Whom the bots attack at three sides or more (issue 41): the side that threatens them most, by the hand or by
the match, and never a seat for being a person's (bench/targets.py counts it over whole matches).

Positions are played out on stacked decks (tests/util.py): seat 0 has not started, holds five hazards and
25s, and may only attack or discard, while two other sides are moving; each is set both ways round, the leader on
the higher side number and on the lower, so that no preference for a side number passes for one for the leader.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import millebornes as mb
from millebornes.actions import parse
from millebornes.bots import make_bot, parse_spec
from millebornes.bots.ismcts import level_attack
from millebornes.observation import Observation
from millebornes.web.tables.table import TableView
from tests.util import go, new, pass_turn

HAZARDS = ["stop", "flat-tire", "accident", "out-of-gas", "speed-limit"]
TABLES = [(3, False, 2, 1), (3, False, 1, 2), (6, True, 2, 1), (6, True, 4, 5)]
"""(players, teams, the leader's seat, the trailer's seat); in teams the partners of seats 1 and 2 drive."""
PERSONAL = ("human", "bot", "person", "people", "name", "nick", "user", "level", "kind")
"""Words a key would hold if an observation told a person's seat from a bot's."""


def race(players: int, teams: bool, leader: int, trailer: int, lead: tuple[str, ...], trail: tuple[str, ...]):
    """Seat ``leader`` plays a roll and ``lead``, seat ``trailer`` a roll and ``trail``, every other seat
    discards; then seat 0 draws and is to play."""
    plays = {leader: ["roll", *lead], trailer: ["roll", *trail]}
    hands = {0: HAZARDS + ["25"]} | {seat: cards + ["75"] * (6 - len(cards)) for seat, cards in plays.items()}
    g = new("classic", players, hands=hands, draws={0: ["25"] * 8}, teams=teams)
    for turn in range(max(map(len, plays.values()))):
        for seat in range(players):
            if turn < len(plays.get(seat, [])):
                go(g, f"play {plays[seat][turn]}")
            else:
                pass_turn(g, keep=HAZARDS, draw=False)
    if g.decision == "draw":  # the top discard could be taken instead
        g.act("draw")
    assert g.to_act == 0 and g.decision == "play"
    return g


def targets(legal: list[str]) -> set[int]:
    return {m.side for m in map(parse, legal) if m.verb == "attack"}


def target(action: str) -> int | None:
    move = parse(action)
    return move.side if move.verb == "attack" else None


def searching(iterations: int) -> str:
    """``hard``'s spec with its 30 ms swapped for a fixed budget, so that its choice does not hang on the clock."""
    name, params = parse_spec("hard")
    params.pop("ms")
    params["iterations"] = iterations
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def hand_race(players, teams, leader, trailer):
    """The leader at 600 km of 700, the trailer at 100, both moving."""
    g = race(players, teams, leader, trailer, ("200", "200", "100", "100"), ("100",))
    lead, trail = g.side_of(leader), g.side_of(trailer)
    assert (g.tableau(lead)["distance"], g.tableau(trail)["distance"]) == (600, 100)
    assert g.is_moving(lead) and g.is_moving(trail) and not g.is_moving(0)
    assert targets(g.legal_actions()) == {lead, trail}
    return g, lead, trail


@pytest.mark.parametrize("players, teams, leader, trailer", TABLES)
def test_medium_attacks_the_leader_of_the_hand(players, teams, leader, trailer):
    g, lead, _ = hand_race(players, teams, leader, trailer)
    assert target(make_bot("medium", seed=1).choose(g.observation(0), g.legal_actions())) == lead


@pytest.mark.parametrize("players, teams, leader, trailer", TABLES)
def test_hard_attacks_the_leader_of_the_hand(players, teams, leader, trailer):
    """On a fixed budget, eight seeds: most attack the leader, at most one the trailer (the search sometimes
    keeps its hazards, a choice of its own noise)."""
    g, lead, trail = hand_race(players, teams, leader, trailer)
    obs, legal = g.observation(0), g.legal_actions()
    hits = Counter(target(make_bot(searching(200), seed=s).choose(obs, legal)) for s in range(8))
    assert hits[lead] >= 5 and hits[trail] <= 1, hits


@pytest.mark.parametrize("players, teams, leader, trailer", TABLES)
def test_medium_attacks_the_leader_of_the_match(players, teams, leader, trailer):
    """Both sides at 200 km; one has 3,500 points of the 5,000, the other 500, the bot 1,000 (the match scores
    set in the observation, as a later hand would show them)."""
    g = race(players, teams, leader, trailer, ("100", "100"), ("100", "100"))
    lead, trail = g.side_of(leader), g.side_of(trailer)
    assert g.tableau(lead)["distance"] == g.tableau(trail)["distance"] == 200
    obs = g.observation(0)
    obs["match_scores"] = [1000, 1000, 1000]
    obs["match_scores"][lead], obs["match_scores"][trail] = 3500, 500
    assert target(make_bot("medium", seed=1).choose(obs, g.legal_actions())) == lead


def test_medium_attacks_level_sides_alike():
    """Sides 1 and 2 level at 200 km in the first hand: over ten seeds each is attacked at least twice."""
    g = race(3, False, 2, 1, ("100", "100"), ("100", "100"))
    obs, legal = g.observation(0), g.legal_actions()
    hits = Counter(target(make_bot("medium", seed=s).choose(obs, legal)) for s in range(10))
    assert hits[1] >= 2 and hits[2] >= 2, hits


def test_hard_attacks_level_sides_alike():
    """The same on a fixed budget, twelve seeds: the network's move, which the search keeps unless another beats
    it, is one of the level hazards at random (ismcts.level_attack), not the first side's."""
    g = race(3, False, 2, 1, ("100", "100"), ("100", "100"))
    obs, legal = g.observation(0), g.legal_actions()
    hits = Counter(target(make_bot(searching(200), seed=s).choose(obs, legal)) for s in range(12))
    assert hits[1] >= 3 and hits[2] >= 3, hits


def level_race(attacker: int, rounds: int):
    """Three players: the two seats other than ``attacker`` play a roll and two 100s, ``attacker`` discards until
    it is to play with both level at 200 km, after ``rounds`` more rounds of discards (each takes three cards
    from the stock)."""
    drivers = [seat for seat in range(3) if seat != attacker]
    hands = {attacker: HAZARDS + ["25"]} | {seat: ["roll", "100", "100", "75", "75", "75"] for seat in drivers}
    g = new("classic", 3, hands=hands, draws={attacker: ["25"] * 8})
    played = dict.fromkeys(drivers, 0)
    while min(played.values()) < 3 or g.to_act != attacker:
        seat = g.to_act
        if seat in played and played[seat] < 3:
            go(g, "play " + ["roll", "100", "100"][played[seat]])
            played[seat] += 1
        else:
            pass_turn(g, keep=HAZARDS, draw=False)
    for _ in range(3 * rounds):
        pass_turn(g, keep=HAZARDS, draw=False)
    if g.decision == "draw":
        g.act("draw")
    assert [g.tableau(seat)["distance"] for seat in drivers] == [200, 200]
    assert targets(g.legal_actions()) == set(drivers)
    return g


@pytest.mark.parametrize("attacker", [0, 1, 2])
def test_greedy_gives_level_sides_the_tie_by_the_position(attacker):
    """greedy (the playouts' policy and an advisor of hard's network) gives a tie between level sides by the
    public position (rollout._rivals): a round later, with three cards fewer in the stock, to the other side. In
    side order it went to the lowest number, seat 0, a person's on the web."""
    hits = set()
    for rounds in (0, 1):
        g = level_race(attacker, rounds)
        hits.add(target(make_bot("greedy").choose(g.observation(attacker), g.legal_actions())))
    assert hits == {seat for seat in range(3) if seat != attacker}, hits


def test_a_tie_among_hazards_is_broken_at_random_and_only_among_sides():
    scores = {"play stop 1": 1.0, "play stop 2": 0.98, "play accident 2": 1.0, "discard 25": 1.0}
    picks = {level_attack("play stop 1", scores, random.Random(s)) for s in range(20)}
    assert picks == {"play stop 1", "play stop 2"}
    assert level_attack("discard 25", scores, random.Random(0)) == "discard 25"
    assert level_attack("play stop 1", scores | {"play stop 2": 0.9}, random.Random(1)) == "play stop 1"


def keys(value, path: str = "") -> set[str]:
    """Every key of a JSON-like value, nested ones with their path."""
    if isinstance(value, dict):
        found = set()
        for key, item in value.items():
            found |= {path + key} | keys(item, f"{path}{key}.")
        return found
    if isinstance(value, list):
        return set().union(*(keys(item, path) for item in value)) if value else set()
    return set()


def test_an_observation_says_nothing_of_who_is_human():
    """Every key of every observation of two hands at six seats in teams, hand results and rules included: none
    names a person, a bot or a level; and the top keys are the declared ones, so a new field is walked too."""
    g = mb.new_game("classic", players=6, teams=True, seed=3)
    rng = random.Random(3)
    seen: set[str] = set()
    while g.hand_number < 2 and not g.is_over:
        for seat in range(g.players):
            obs = g.observation(seat)
            assert set(obs) == set(Observation.__annotations__)
            seen |= keys(obs)
        g.act(rng.choice(g.legal_actions()))
    assert {"tableaux.distance", "hand_results.points", "options.scoring.trip"} <= seen
    named = sorted(key for key in seen if any(word in key.lower() for word in PERSONAL))
    assert not named


def test_a_web_table_shows_its_bots_the_same_whoever_is_human():
    """The web's bots decide from ``TableView.bot_observation``: two tables of the same hand, the person on seat 0
    at one and on seats 1 and 2 at the other, show every seat the same and get the same choices, though the two
    tables differ (a hazard a person could answer opens a window)."""
    views = [TableView(mb.new_game("classic", players=3, seed=5), 50, humans=h) for h in ({0}, {1, 2})]
    bots = [[make_bot("medium", seed=seat) for seat in range(3)] for _ in views]
    decisions = windows = 0
    while views[0].game.hand_number == 0:
        seat = views[0].game.to_act
        shown = [view.bot_observation(seat) for view in views]
        assert shown[0] == shown[1]
        chosen = [mine[seat].choose(obs, view.game.legal_actions()) for mine, obs, view in zip(bots, shown, views)]
        assert chosen[0] == chosen[1]
        for view in views:
            view.advance(seat, chosen[0])
        decisions += 1
        windows += (views[0].window is None) != (views[1].window is None)
    assert decisions > 50 and windows > 0
