"""The rating core (issue 42, part 3): a fixed series of rated matches replayed against openskill called
directly, bots that never move, the provisional mark, the bots' anchors on the measured ladder, the Elo-scale
display, and bad input refused."""

from __future__ import annotations

import json
import math

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from millebornes.bots.ladder import LADDER_FILE, ladder
from millebornes.web.ratings.skill import (
    BOT_SIGMA,
    DISPLAY_PER_MU,
    FAMILIES,
    FRESH_DISPLAY,
    MEDIUM_ANCHOR,
    SETTLED_MATCHES,
    SETTLED_SIGMA,
    Rating,
    bot_anchors,
    bot_rating,
    family_of,
    mu_of,
    rate_match,
)

BOT = "M"
PEOPLE = "ABCDE"

# (sides by name, "ranks" or "scores", one value per side)
SERIES: list[tuple[list[str], str, list[float]]] = [
    (["A", "B"], "scores", [1200, 800]),
    (["C", "M"], "ranks", [1, 2]),
    (["A", "B", "C"], "ranks", [1, 2, 3]),
    (["D", "E"], "ranks", [1, 1]),
    (["AB", "CD"], "scores", [5100, 4300]),
    (["ABC", "DEM"], "ranks", [2, 1]),
    (["E", "M"], "ranks", [1, 2]),
    (["A", "B", "C", "D"], "scores", [1000, 700, 700, 300]),
    (["AE", "BC", "DM"], "ranks", [1, 2, 3]),
    (["B", "D"], "scores", [3000, 5200]),
    (["A", "B", "C", "D", "E", "M"], "ranks", [3, 1, 2, 6, 4, 5]),
    (["CD", "EA"], "ranks", [1, 1]),
    (["B", "E", "M"], "scores", [1000, 1000, 400]),
    (["A", "M"], "scores", [600, 1000]),
    (["BDE", "ACM"], "scores", [4800, 5050]),
    (["C", "E"], "ranks", [2, 1]),
    (["A", "B", "C", "D", "E"], "ranks", [1, 2, 3, 4, 5]),
    (["DM", "AB"], "ranks", [1, 2]),
    (["E", "C", "A"], "scores", [900, 900, 900]),
    (["B", "M"], "ranks", [1, 2]),
    (["AC", "BE", "DM"], "scores", [5000, 5000, 3100]),
    (["D", "A"], "ranks", [1, 2]),
]


@pytest.fixture
def measured(monkeypatch):
    """The shipped ladder (the other tests run on a made-up one, tests/conftest.py)."""
    monkeypatch.setenv("MILLEBORNES_LADDER", LADDER_FILE)
    ladder.cache_clear()
    yield
    ladder.cache_clear()


def measured_line(ruleset: str, players: int) -> dict:
    with open(LADDER_FILE) as f:
        (line,) = [t for t in json.load(f) if t["ruleset"] == ruleset and t["players"] == players and not t["teams"]]
    return line


def test_the_series_matches_openskill_called_directly_after_every_match():
    bot = bot_rating("medium", "classic")
    ours = {name: Rating() for name in PEOPLE} | {BOT: bot}
    model = PlackettLuce()
    theirs = {name: model.rating() for name in PEOPLE} | {BOT: PlackettLuceRating(bot.mu, bot.sigma)}
    played = dict.fromkeys(PEOPLE, 0)
    kinds, sizes, tied = set(), set(), 0
    for sides, kind, result in SERIES:
        kinds.add(len(sides))
        sizes.update(len(side) for side in sides)
        tied += len(set(result)) < len(result)
        new = rate_match([[ours[n] for n in side] for side in sides], **{kind: result})
        expected = model.rate([[theirs[n] for n in side] for side in sides], **{kind: result})
        for side, side_new, side_expected in zip(sides, new, expected):
            for name, rating, rated in zip(side, side_new, side_expected):
                ours[name] = rating
                if name != BOT:
                    theirs[name] = rated
                    played[name] += 1
        for name in PEOPLE:
            assert ours[name].mu == pytest.approx(theirs[name].mu, rel=1e-12), (sides, name)
            assert ours[name].sigma == pytest.approx(theirs[name].sigma, rel=1e-12), (sides, name)
            assert ours[name].matches == played[name]
            assert not ours[name].anchored
        assert ours[BOT] == bot
    assert len(SERIES) >= 20 and kinds == {2, 3, 4, 5, 6} and sizes == {1, 2, 3} and tied >= 5
    assert len({round(ours[n].mu, 6) for n in PEOPLE}) == len(PEOPLE)  # the series did move everyone apart


def test_a_fresh_rating_is_the_models_prior_and_shows_1500():
    model = PlackettLuce()
    fresh = Rating()
    assert (fresh.mu, fresh.sigma, fresh.matches) == (model.mu, model.sigma, 0)
    assert fresh.display == FRESH_DISPLAY == 1500 and fresh.provisional


def test_scores_and_the_ranks_they_make_rate_alike_and_fractional_ranks_keep_their_order():
    sides = [[Rating()], [Rating(mu=27.0, sigma=6.0)], [Rating(mu=22.0, sigma=7.0)]]
    by_scores = rate_match(sides, scores=[800, 1200, 800])
    assert by_scores == rate_match(sides, ranks=[2, 1, 2])
    fractional = rate_match(sides, ranks=[1, 1.5, 2])
    assert fractional == rate_match(sides, ranks=[0, 1, 2])
    truncated = PlackettLuce().rate([[PlackettLuceRating(s[0].mu, s[0].sigma)] for s in sides], ranks=[1, 1.5, 2])
    assert fractional[1][0].mu != pytest.approx(truncated[1][0].mu)  # the library alone would tie 1.5 with 1


def test_a_bot_never_moves_beaten_partnered_or_among_bots():
    hard, easy = bot_rating("hard", "classic"), bot_rating("easy", "classic")
    (person,), (bot,) = rate_match([[Rating()], [hard]], ranks=[1, 2])
    assert bot is hard and person.mu > Rating().mu
    (person, partner), (other,) = rate_match([[Rating(), easy], [Rating()]], scores=[3000, 5000])
    assert partner is easy and person.mu < Rating().mu and other.mu > Rating().mu
    assert rate_match([[easy], [hard]], ranks=[1, 2]) == [[easy], [hard]]


def test_provisional_flips_at_the_documented_sigma_and_match_count():
    below, at = SETTLED_SIGMA - 1e-9, SETTLED_SIGMA
    assert not Rating(sigma=below, matches=SETTLED_MATCHES).provisional
    assert Rating(sigma=at, matches=SETTLED_MATCHES).provisional
    assert Rating(sigma=below, matches=SETTLED_MATCHES - 1).provisional
    assert Rating(sigma=1.0, matches=500).provisional is False
    assert not bot_rating("medium", "classic").provisional


def test_a_person_alternating_against_the_medium_bot_settles_at_the_tenth_match():
    bot, person, marks = bot_rating("medium", "family"), Rating(), []
    for match in range(1, 16):
        (person,), _ = rate_match([[person], [bot]], ranks=[match % 2, 1 - match % 2])
        marks.append(person.provisional)
        assert person.provisional == (person.sigma >= SETTLED_SIGMA or match < SETTLED_MATCHES)
    assert marks.index(False) + 1 == SETTLED_MATCHES and not any(marks[SETTLED_MATCHES:])


def test_anchors_follow_the_measured_two_player_ladder(measured):
    gaps = {p["level"]: p["elo_gap"] for p in measured_line("classic", 2)["pairs"]}
    medium, hard = bot_rating("medium", "classic"), bot_rating("hard", "classic")
    assert medium.display == MEDIUM_ANCHOR == 1500 and medium.sigma == BOT_SIGMA
    assert hard.display - medium.display == gaps["hard"]
    assert medium.display - bot_rating("easy", "classic").display == gaps["medium"]
    assert bot_rating("expert", "classic").display - hard.display == gaps["expert"]
    for family in FAMILIES:
        easy, medium, hard = (bot_rating(level, family) for level in ("easy", "medium", "hard"))
        assert easy.mu < medium.mu < hard.mu, family
    assert bot_anchors("parker") == bot_anchors("classic")  # parker has no line: classic's stands in
    dujardin = {p["level"]: p["elo_gap"] for p in measured_line("dujardin", 2)["pairs"]}
    assert bot_rating("hard", "dujardin").display - bot_rating("medium", "dujardin").display == dujardin["hard"]
    with pytest.raises(ValueError, match="expert bot has no measured anchor in dujardin"):
        bot_rating("expert", "dujardin")


def test_a_ladder_without_elo_gaps_anchors_by_its_rates():
    gap = round(400 * math.log10(0.7 / 0.3))  # tests/ladders.py: every level beats the one below 7 times in 10
    anchors = bot_anchors("classic")
    assert anchors["hard"] - anchors["medium"] == anchors["medium"] - anchors["easy"] == gap


def test_the_display_scale_is_derived_from_beta_and_matches_elo_odds():
    model = PlackettLuce()
    assert DISPLAY_PER_MU == pytest.approx(400 * 1.702 / (math.log(10) * math.sqrt(2) * model.beta))
    worst = 0.0
    for gap in range(-800, 801, 10):
        a = PlackettLuceRating(mu_of(FRESH_DISPLAY + gap), 1e-9)
        b = PlackettLuceRating(mu_of(FRESH_DISPLAY), 1e-9)
        worst = max(worst, abs(model.predict_win([[a], [b]])[0] - 1 / (1 + 10 ** (-gap / 400))))
    assert worst < 0.0095
    near = [Rating(mu=mu_of(FRESH_DISPLAY + g), sigma=BOT_SIGMA) for g in (0, 100)]
    assert near[1].display - near[0].display == 100
    odds = model.predict_win([[PlackettLuceRating(r.mu, r.sigma)] for r in reversed(near)])[0]
    elo = 1 / (1 + 10 ** (-100 / 400))
    assert 0.5 < odds < elo and elo - odds < 0.015  # a rating's own sigma flattens the odds, as documented


def test_a_family_is_an_edition_whatever_the_table():
    assert FAMILIES == ("classic", "parker", "dujardin", "family")
    assert [family_of(name) for name in FAMILIES] == list(FAMILIES)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rate_match([[Rating()], []], ranks=[1, 2]), "side 2 has nobody"),
        (lambda: rate_match([[Rating()]], ranks=[1]), "2 to 6 sides, not 1"),
        (lambda: rate_match([[Rating()]] * 7, ranks=list(range(7))), "2 to 6 sides, not 7"),
        (lambda: rate_match([[Rating()] * 4, [Rating()]], ranks=[1, 2]), "side 1 has 4 participants"),
        (lambda: rate_match([[Rating()], [Rating()]], ranks=[1, 2, 3]), "3 ranks for 2 sides"),
        (lambda: rate_match([[Rating()], [Rating()]], scores=[10]), "1 scores for 2 sides"),
        (lambda: rate_match([[Rating()], [Rating()]]), "either scores or ranks"),
        (lambda: rate_match([[Rating()], [Rating()]], scores=[1, 2], ranks=[1, 2]), "either scores or ranks"),
        (lambda: rate_match([[Rating()], [Rating()]], scores=[1, math.nan]), "must be finite numbers"),
        (lambda: Rating(sigma=0.0), "finite positive sigma"),
        (lambda: Rating(matches=-1), "cannot have taken in -1"),
        (lambda: family_of("monopoly"), "unknown edition 'monopoly'"),
        (lambda: bot_rating("medium", "monopoly"), "unknown edition 'monopoly'"),
        (lambda: bot_rating("grandmaster", "classic"), "unknown bot level 'grandmaster'"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
