"""The guided first match (tutorial.py): played lesson by lesson, each asks for the one move it teaches, refuses any
other with a reason and changes nothing, its score is what ends the match, and its words are in the catalog in both
languages."""

from __future__ import annotations

import random

from millebornes.i18n import catalog
from millebornes.tutorial import GOAL, LEARNER, LESSONS, Tutorial, scored


def test_the_guided_hand_teaches_each_idea_in_order_and_refuses_every_other_move():
    t = Tutorial()
    rng = random.Random(5)
    seen, decisions = [], {}
    while not t.over:
        lesson, expected = t.lesson, t.expected
        seen.append(lesson)
        game = t.game
        assert game.to_act == LEARNER and expected in game.legal_actions(), (lesson, game.legal_actions())
        decisions[lesson] = game.decision
        before = game.record()
        others = [a for a in game.legal_actions() if a != expected]
        if others:
            out = t.attempt(rng.choice(others))
            assert not out.done and out.why == "not_this"
        illegal = next(
            a for a in ("play 200", "play 25", "play stop 1", "discard 75", "draw") if a not in game.legal_actions()
        )
        out = t.attempt(illegal)
        assert (
            not out.done
            and out.why not in (None, "not_this")
            and out.why
            in catalog("en").keys() | {k.split(".", 1)[1] for k in catalog("en").keys() if k.startswith("reason.")}
        )
        assert t.game.record() == before and t.lesson == lesson  # a refusal changes nothing
        out = t.attempt(expected)
        assert out.done and out.events
    assert seen == list(LESSONS) and t.lesson == "score" and t.number == len(LESSONS) + 1
    assert decisions["coup-fourre"] == "coup-fourre" and decisions["extension"] == "extension"
    result = t.game.observation(LEARNER)["hand_results"][-1]
    assert result["distance"][LEARNER] == 700 and result["winners"] == [0]
    assert result["breakdown"][LEARNER]["coups_fourres"] > 0 and result["breakdown"][LEARNER]["trip"] > 0
    assert not t.attempt("play 25").done
    # the hand is the match: nothing is dealt after it, nobody is to move
    assert t.game.is_over and t.game.to_act is None and t.game.hand_number == 0 and t.game.winners == [LEARNER]
    assert scored(t.game) == [(k, v) for k, v in result["breakdown"][LEARNER].items() if v > 0]
    assert dict(scored(t.game)) == {"distance": 700, "safeties": 200, "coups_fourres": 300, "trip": 400, "shutout": 500}
    assert sum(v for _, v in scored(t.game)) == result["points"][LEARNER]


def test_every_lesson_is_worded_in_both_languages():
    t = Tutorial()
    while not t.over:
        t.attempt(t.expected)
    items = t.game.hand_results[0]["breakdown"][LEARNER]  # every item the edition's score sheet has
    for lang in ("en", "fr"):
        words = catalog(lang)
        for lesson in (*LESSONS, "score"):
            assert words.t(f"learn.{lesson}.do") and words.t(f"learn.{lesson}.why", goal=GOAL)
        assert words.t("learn.step", n=1, total=len(LESSONS) + 1)
        assert str(GOAL) in words.t("learn.score.why", goal=GOAL)
        for item in items:
            assert "700" in words.t(f"learn.scored.{item}", points=700), item
