"""Puzzles (puzzles.py): a review's inaccuracies and worse become "find the better move" from what the seat saw; the
shipped set is sound; an answer is found or missed with the chances that say why, and a move not in the position is
refused."""

from __future__ import annotations

import pytest

import millebornes as mb
from millebornes.bots import make_bot
from millebornes.puzzles import MISTAKES, PUZZLE_FORMAT, THEMES, build, from_review, shipped, solve, theme
from millebornes.review import THRESHOLDS, decisions, review


def match(seed: int) -> dict:
    g = mb.new_game("dujardin", players=2, seed=seed)
    bots = [make_bot("random", seed=seed), make_bot("medium", seed=seed + 1)]
    while (seat := g.to_act) is not None:
        g.act(bots[seat].choose(g.observation(seat), g.legal_actions()))
    return g.record()


def test_a_reviews_mistakes_become_puzzles_from_what_the_seat_saw():
    record = match(4)
    reviewed = review(record, worlds=30)
    made = from_review(record, reviewed, seat=0)
    wrong = [m for m in reviewed["moves"] if m["seat"] == 0 and m["class"] in MISTAKES]
    assert made and [p["played"] for p in made] == [m["played"] for m in wrong]
    seen = {index: obs for obs, index, _ in decisions(record, [0])[0]}
    for p, m in zip(made, wrong):
        assert p["observation"] == seen[m["index"]] and p["observation"]["seat"] == 0  # the seat's own view
        assert p["best"] != p["played"] and p["best"] in p["observation"]["legal_actions"]
        assert p["best_chance"] > p["chance"] and p["theme"] in THEMES
    assert all(p["seat"] == 1 for p in from_review(record, reviewed, seat=1))


def test_an_answer_is_found_or_missed_and_a_move_not_in_the_position_is_refused():
    p = shipped()["puzzles"][0]
    found, missed = solve(p, p["best"]), solve(p, p["played"])
    assert found["solved"] and not missed["solved"]
    assert missed["best"] == p["best"] and missed["best_chance"] > missed["chance"]
    with pytest.raises(ValueError):
        solve(p, "play flat-tire 7")


def test_the_shipped_set_is_sound():
    data = shipped()
    assert data["format"] == PUZZLE_FORMAT and len(data["puzzles"]) >= 20
    assert len({p["id"] for p in data["puzzles"]}) == len(data["puzzles"])
    for p in data["puzzles"]:
        legal = p["observation"]["legal_actions"]
        assert p["best"] in legal and p["played"] in legal and p["best"] != p["played"]
        assert p["best_value"] - p["value"] == pytest.approx(p["loss"], abs=0.2) and p["class"] in MISTAKES
        assert p["loss"] >= THRESHOLDS["inaccuracy"] and p["stake"] >= p["loss"]
        assert p["theme"] == theme(p["observation"], p["played"], p["best"])
        assert p["observation"]["to_act"] in (p["seat"], None) and p["observation"]["seat"] == p["seat"]
    assert len({p["theme"] for p in data["puzzles"]}) >= 4


def test_build_keeps_the_positions_where_the_choice_mattered_most():
    made = build([match(4), match(5)], worlds=20, per_theme=2)
    assert made["format"] == PUZZLE_FORMAT
    for name in THEMES:
        mine = [p["stake"] for p in made["puzzles"] if p["theme"] == name]
        assert len(mine) <= 2 and mine == sorted(mine, reverse=True)
