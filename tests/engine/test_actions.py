"""Action notation: one string and one code per action, and clear words for bad input."""

import pytest

import millebornes as mb
from millebornes.actions import ACTION_CODES, ACTION_NAMES, DRAW, action_code, decode


def test_every_code_has_one_name_and_back():
    assert len(ACTION_NAMES) == len(ACTION_CODES)
    for code, name in ACTION_NAMES.items():
        assert ACTION_CODES[name] == code
        assert action_code(name) == code


def test_notation_is_forgiving_about_case_and_spaces_only():
    assert action_code("  PLAY   Flat-Tire  1 ") == ACTION_CODES["play flat-tire 1"]
    assert action_code("discard right_of_way") == ACTION_CODES["discard right-of-way"]
    assert decode(ACTION_CODES["play flat-tire 2"]) == ("attack", mb.cards.FLAT_TIRE, 2)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty action"),
        ("fly 75", "unknown action"),
        ("play", "needs a card"),
        ("play 300", "there is no card '300'"),
        ("play stop", "say which side to attack"),
        ("play 75 1", "played on your own side"),
        ("discard 75 1", "takes just a card"),
        ("play stop 9", "there is no side 9"),
    ],
)
def test_malformed_actions_are_explained(text, words):
    with pytest.raises(mb.IllegalAction, match=words):
        action_code(text)


def test_an_action_code_acts_as_its_notation_does():
    by_name, by_code = mb.new_game("classic", players=2, seed=1), mb.new_game("classic", players=2, seed=1)
    for _ in range(12):
        name = by_name.legal_actions()[-1]
        assert by_code.act(ACTION_CODES[name]) == by_name.act(name)
    assert by_code.record() == by_name.record()


def test_a_bad_action_is_refused_without_change():
    g = mb.new_game("classic", players=2, seed=1)
    before = g.record()
    refusals = ((True, "action_not_text"), (999, "unknown_action"), (-1, "unknown_action"), (DRAW, "already_drawn"))
    for bad, reason in refusals:
        with pytest.raises(mb.IllegalAction) as refused:
            g.act(bad)
        assert refused.value.reason == reason, bad
    for bad in (None, 3.0, ["play", "75"], b"play 75"):  # neither a string nor a code: a type error, compiled or not
        with pytest.raises(TypeError):
            g.act(bad)  # type: ignore[arg-type]
    for seat in ("0", True, 0.0):
        with pytest.raises(TypeError):
            g.act("draw", seat)  # type: ignore[arg-type]
    assert g.record() == before


def test_a_record_s_actions_are_notation():
    g = mb.new_game("classic", players=2, seed=1)
    record = g.record()
    record["actions"] = [g.legal_actions()[0], DRAW]  # a legal draw then, but as a code: no notation
    with pytest.raises(mb.IllegalAction, match="record action 1") as refused:
        mb.replay(record)
    assert (refused.value.reason, refused.value.move) == ("action_not_text", 1)


def test_illegal_action_is_a_value_error():
    assert issubclass(mb.IllegalAction, ValueError)
