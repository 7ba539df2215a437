"""Bots: the registry, legality in every edition, no access to hidden cards, search and analysis."""

from __future__ import annotations

import copy
import random

import pytest

import millebornes as mb
from millebornes.bots import LEVELS, bot_names, make_bot, parse_spec
from millebornes.bots.ismcts import Search, analyse
from tests.util import game_with, play

FAST_SPECS = ["random", "greedy", "heuristic", "easy", "ismcts:iterations=24"]


def configs():
    for name, r in mb.RULESETS.items():
        for n in r.solo_players[:2]:
            yield name, n, False
        for n in r.team_players[:1]:
            yield name, n, True


def test_specs_levels_and_errors():
    assert parse_spec("ismcts:ms=50,playout=random") == ("ismcts", {"ms": 50, "playout": "random"})
    assert set(LEVELS) == {"easy", "medium", "hard", "expert"}
    for level in LEVELS:
        assert make_bot(level).name in ("heuristic", "ismcts")
    assert {"random", "heuristic", "ismcts"} <= set(bot_names())
    with pytest.raises(ValueError, match="no bot 'alphazero'"):
        make_bot("alphazero")
    with pytest.raises(ValueError, match="bad parameters"):
        make_bot("random:depth=3")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("ismcts:fast")


@pytest.mark.parametrize("name, players, teams", list(configs()))
def test_bots_only_send_legal_actions(name, players, teams):
    """Every bot plays a hand of every edition from observations only, never an illegal action."""
    g = mb.new_game(name, players=players, teams=teams, seed=players)
    bots = [make_bot(FAST_SPECS[s % len(FAST_SPECS)], seed=s) for s in range(players)]
    kinds = set()
    while not g.is_over and g.hand_number == 0:
        seat = g.to_act
        legal = g.legal_actions()
        obs = g.observation(seat)
        action = bots[seat].choose(copy.deepcopy(obs), list(legal))
        assert action in legal, (bots[seat].name, action, legal)
        kinds.add(g.decision)
        g.act(action, seat=seat)
    assert g.hand_results and "play" in kinds


def _level_with_iterations(level: str, iterations: int) -> str:
    """A level's spec with its clock budget swapped for a few iterations (a test must not time out)."""
    name, params = parse_spec(level)
    params.pop("ms", None)
    params["iterations"] = iterations
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("name, players, teams", list(configs()))
def test_hard_level_plays_every_edition_from_observations(name, players, teams):
    """The search behind ``hard`` and ``expert`` (the network's move as baseline) in every seat."""
    g = mb.new_game(name, players=players, teams=teams, seed=players + 1)
    spec = _level_with_iterations("hard", 12)
    assert "baseline=neural" in spec
    bots = [make_bot(spec, seed=s) for s in range(players)]
    searched = 0
    while not g.is_over and g.hand_number == 0:
        seat, legal = g.to_act, g.legal_actions()
        action = bots[seat].choose(copy.deepcopy(g.observation(seat)), list(legal))
        assert action in legal, (action, legal)
        searched += bots[seat].last is not None and len(legal) > 1
        g.act(action, seat=seat)
    assert g.hand_results and searched


def _twin_games():
    """Two games whose public history is the same but whose hidden cards differ: seat 1's hand and
    the stock order are swapped around between them."""
    base = dict(hands={0: ["roll", "100", "75", "stop", "gasoline", "right-of-way"]})
    a = game_with("classic", 2, stock=["50", "25", "200", "accident"], **base)
    b = game_with("classic", 2, stock=["50", "accident", "25", "200"], filler=["repairs", "spare-tire"], **base)
    return a, b


@pytest.mark.parametrize(
    "spec",
    FAST_SPECS
    + [
        "ismcts:iterations=40,baseline=none",
        _level_with_iterations("hard", 40),
        "ismcts:iterations=40,challenger=heuristic,scale=150,widen=100000",
    ],
)
def test_bots_cannot_see_hidden_cards(spec):
    """Same observation -> same decision: what a bot chooses depends on nothing it may not see."""
    a, b = _twin_games()
    assert a.hand(1) != b.hand(1) or a.record() != b.record()
    obs = a.observation(0)
    assert obs == b.observation(0)
    first = make_bot(spec, seed=3).choose(a.observation(0), a.legal_actions())
    second = make_bot(spec, seed=3).choose(b.observation(0), b.legal_actions())
    assert first == second


def test_ismcts_is_deterministic_for_a_seed_and_iteration_budget():
    g = mb.new_game("dujardin", players=3, seed=9)
    rng = random.Random(2)
    for _ in range(20):
        g.act(rng.choice(g.legal_actions()))
    obs, legal = g.observation(g.to_act), g.legal_actions()
    picks = {make_bot("ismcts:iterations=60", seed=5).choose(obs, legal) for _ in range(3)}
    assert len(picks) == 1
    s1, s2 = Search(obs, seed=1), Search(obs, seed=1)
    s1.run(iterations=50)
    s2.run(iterations=50)
    assert s1.stats() == s2.stats() and s1.iterations >= 50


def test_duel_search_is_deterministic_and_picks_one_of_the_two_moves():
    """With ``challenger=heuristic`` the search only weighs the greedy move against the
    heuristic's; where they agree it does not search at all."""
    from millebornes.bots.heuristic import HeuristicBot
    from millebornes.bots.rollout import GreedyBot

    spec = "ismcts:iterations=60,challenger=heuristic,scale=150,widen=100000"
    duels = agreed = 0
    for seed in range(6):
        g = mb.new_game("classic", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.hand_results and not g.is_over:
            obs, legal = g.observation(g.to_act), g.legal_actions()
            if len(legal) > 1:
                bots = [make_bot(spec, seed=5) for _ in range(2)]
                picks = [b.choose(obs, legal) for b in bots]
                assert picks[0] == picks[1]
                moves = {GreedyBot(seed=5).choose(obs, legal), HeuristicBot(seed=5).choose(obs, legal)}
                assert picks[0] in moves
                if len(moves) == 1:
                    agreed += 1
                    assert bots[0].last is None
                else:
                    duels += 1
                    assert set(bots[0].last.actions) == {mb.actions.ACTION_CODES[m] for m in moves}
            g.act(rng.choice(legal) if rng.random() < 0.2 else legal[0])
            if duels >= 5 and agreed >= 5:
                return
    assert duels and agreed


def test_the_networks_lead_is_a_prior_the_search_must_overcome():
    """``prior``: a rival of the network's move must beat it by ``prior`` times the network's score
    lead as well; a huge prior keeps the network's move where the plain search overrides it."""
    from millebornes.bots.neural import NeuralBot

    plain = "ismcts:iterations=150,baseline=neural,scale=1500,widen=0,confidence=0.5"
    overridden = 0
    for seed in range(6):
        g = mb.new_game("classic", players=2, seed=seed)
        while not g.hand_results and overridden < 3:
            obs, legal = g.observation(g.to_act), g.legal_actions()
            if len(legal) > 1:
                net = NeuralBot().choose(obs, legal)
                if make_bot(plain, seed=4).choose(obs, legal) != net:
                    overridden += 1
                    held = make_bot(plain + ",prior=1", seed=4)
                    assert held.choose(obs, legal) == net
                    assert held.last.rival is not None and held.last.iterations >= 150
                    assert held.last.prior[held.last.baseline] == max(held.last.prior.values())
            g.act(legal[0] if len(legal) == 1 else NeuralBot().choose(obs, legal))
    assert overridden == 3


def test_challengers_and_baselines_are_checked_and_searched():
    """Challengers joined by ``+`` are searched against the baseline move, and only those moves;
    a flat search (``widen=0``) grows no tree below the root actions."""
    from millebornes.bots.heuristic import HeuristicBot
    from millebornes.bots.neural import NeuralBot
    from millebornes.bots.rollout import GreedyBot

    for bad in (
        "ismcts:challenger=oracle",
        "ismcts:challenger=heuristic+",
        "ismcts:baseline=oracle",
        "ismcts:prior=0.01",
        "ismcts:baseline=neural,prior=-1",
    ):
        with pytest.raises(ValueError, match="challenger|baseline|prior"):
            make_bot(bad)
    spec = "ismcts:iterations=30,baseline=neural,challenger=heuristic+greedy,widen=0,scale=150"
    searched = 0
    for seed in range(8):
        g = mb.new_game("classic", players=2, seed=seed)
        rng = random.Random(seed)
        while not g.hand_results and searched < 3:
            obs, legal = g.observation(g.to_act), g.legal_actions()
            if len(legal) > 1:
                bot = make_bot(spec, seed=2)
                pick = bot.choose(obs, legal)
                moves = {
                    NeuralBot(seed=2).choose(obs, legal),
                    HeuristicBot(seed=2).choose(obs, legal),
                    GreedyBot(seed=2).choose(obs, legal),
                }
                assert pick in moves
                if len(moves) > 1:
                    searched += 1
                    assert {mb.actions.ACTION_NAMES[c] for c in bot.last.actions} == moves
                    assert all(not child.children for child in bot.last.root.children.values())
                    assert sum(child.visits for child in bot.last.root.children.values()) >= 30
            g.act(rng.choice(legal))
    assert searched == 3


def test_hand_rewards_scale():
    """The reward grows with the points margin; a small scale makes it nearly the hand's result."""
    from millebornes.bots.ismcts import hand_rewards
    from millebornes.bots.rollout import play_out

    g = mb.new_game("classic", players=2, seed=3)
    play_out(g, random.Random(0))
    pts = g.hand_results[0]["points"]
    assert pts[0] != pts[1]
    wide, sharp = hand_rewards(g, 0), hand_rewards(g, 0, scale=50)
    win = 0 if pts[0] > pts[1] else 1
    assert 0.5 < wide[win] < sharp[win] <= 1.0 and 0.0 <= sharp[1 - win] < wide[1 - win] < 0.5


def test_search_finds_the_winning_card():
    """Dujardin at 975: playing the 25 wins the race at once; search must see it."""
    g = game_with(
        "dujardin",
        2,
        hands={0: ["roll", "200", "200", "100", "100", "100"], 1: ["stop", "accident"]},
        stock=["75", "50", "100", "25", "100", "50", "25"],
    )
    # seat 0: roll, then 200, 200, 100, 100, 100 (=700), 75 (775)... build to 975 with plain plays
    seq0 = ["play roll", "play 200", "play 200", "play 100", "play 100", "play 100"]
    for action in seq0:
        play(g, action)
        play(g, f"discard {g.hand(1)[0]}")
    while g.tableau(0)["distance"] < 975:
        fits = [
            a
            for a in g.legal_actions()
            if a.startswith("play ") and a.split()[1].isdigit() and g.tableau(0)["distance"] + int(a.split()[1]) <= 975
        ]
        if not fits:
            pytest.fail(f"could not build the position: {g.hand(0)} at {g.tableau(0)['distance']}")
        play(g, max(fits, key=lambda a: int(a.split()[1])))
        play(g, f"discard {g.hand(1)[0]}")
    assert "play 25" in g.legal_actions()
    bot = make_bot("ismcts:iterations=80,baseline=none", seed=1)
    assert bot.choose(g.observation(0), g.legal_actions()) == "play 25"
    ranked = analyse(g, iterations=200, seed=1)
    assert ranked[0]["action"] == "play 25"
    assert ranked[0]["win_chance"] > 0.9
    assert ranked[0]["match_chance"] is None  # Dujardin plays one race, no match


def test_analyse_covers_every_legal_action():
    g = mb.new_game("classic", players=2, seed=4)
    out = analyse(g, iterations=120, seed=0)
    assert sorted(a["action"] for a in out) == sorted(g.legal_actions())
    assert all(0.0 <= a["win_chance"] <= 1.0 and 0.0 <= a["value"] <= 1.0 for a in out)
    assert all(0.0 < a["match_chance"] < 1.0 for a in out)  # one hand of a match to 5,000 decides nothing
    assert sum(a["visits"] for a in out) >= 120


def test_analyse_gives_each_action_its_chance_of_the_match(monkeypatch):
    """A hint's ``match_chance`` is the mean, over the action's playouts, of the side's chance of the match from
    the totals each one left (here a stub's: 0.25 for seat 0's side, whatever the world)."""
    import millebornes.bots.ismcts as ismcts

    monkeypatch.setattr(ismcts, "match_outcome", lambda world, target: [0.25, 0.75])
    g = mb.new_game("classic", players=2, seed=4)
    out = analyse(g, iterations=60, seed=0)
    assert all(a["match_chance"] == 0.25 for a in out if a["visits"])
    assert any(a["win_chance"] != 0.25 for a in out)  # the hand's chance is counted apart
    with pytest.raises(ValueError, match="no decision"):
        analyse(g, seat=1)


def _searches_alike(game: mb.Game, option: str) -> bool:
    """Whether a search of the game's decision chooses and counts the same with the option off and on."""
    obs = game.observation(game.to_act)
    runs = []
    for on in (False, True):
        s = Search(obs, seed=1, widen=0, baseline=game.legal_actions()[0], **{option: on})
        s.run(iterations=60)
        runs.append((s.best, s.stats()))
    return runs[0] == runs[1]


def test_a_search_that_plays_the_match_scores_by_the_match(monkeypatch):
    """With ``match=1`` a playout is worth the side's chance of the match from the totals the hand leaves: in
    classic every sample is that chance (here a stub's), and a race edition, which plays no match, searches
    exactly as without it."""
    import millebornes.bots.ismcts as ismcts
    from millebornes.bots.match import chance_per_point, match_chances

    g = mb.new_game("classic", players=2, seed=4)
    obs = g.observation(g.to_act)
    monkeypatch.setattr(ismcts, "match_outcome", lambda world, target: [0.25, 0.75])
    search = Search(obs, seed=1, widen=0, baseline=g.legal_actions()[0], match=True)
    search.run(iterations=60)
    side = search.side
    assert {round(v, 6) for values in search.samples.values() for v in values.values()} == {[0.25, 0.75][side]}
    monkeypatch.undo()

    assert _searches_alike(mb.new_game("dujardin", players=2, seed=4), "match")
    per_point = chance_per_point
    assert per_point([4500, 4500], 0, 5000) > per_point([0, 0], 0, 5000) > 0  # a point counts more near the end
    assert match_chances([4500, 4500], 5000) == [0.5, 0.5]


def test_a_search_that_plays_the_race_scores_by_the_race_alone():
    """With ``race=1`` a playout of a race edition is worth the side's share of the race's win (1, 1/2 or 0), not
    also its distance; an edition that plays a match searches exactly as without it."""
    race = mb.new_game("dujardin", players=2, seed=4)
    obs = race.observation(race.to_act)
    plain = Search(obs, seed=1, widen=0, baseline=race.legal_actions()[0])
    plain.run(iterations=60)
    search = Search(obs, seed=1, widen=0, baseline=race.legal_actions()[0], race=True)
    search.run(iterations=60)
    assert {v for values in search.samples.values() for v in values.values()} <= {0.0, 0.5, 1.0}
    assert {v for values in plain.samples.values() for v in values.values()} - {0.0, 0.5, 1.0}
    assert search.stats() and make_bot("ismcts:iterations=30,race=1", 0).choose(obs, race.legal_actions())

    assert _searches_alike(mb.new_game("classic", players=2, seed=4), "race")
