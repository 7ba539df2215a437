"""Action notation: one string and one code per action, and clear words for bad input."""

import pytest

import millebornes as mb
from millebornes.actions import ACTION_CODES, ACTION_NAMES, action_code, decode


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


def test_non_string_action_is_refused_without_change():
    g = mb.new_game("classic", players=2, seed=1)
    before = g.record()
    for bad in (None, 3, ["play", "75"], b"play 75"):
        with pytest.raises(mb.IllegalAction):
            g.act(bad)
    assert g.record() == before


def test_illegal_action_is_a_value_error():
    assert issubclass(mb.IllegalAction, ValueError)
