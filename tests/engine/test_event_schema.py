"""docs/events.schema.json and millebornes.events describe one set of events: the same kinds, the same keys, the
same required ones; and every event of whole matches (the golden records and random play of every table)
validates against the schema."""

from __future__ import annotations

import json
import random
from typing import get_type_hints

import pytest

import millebornes as mb
from millebornes.events import EVENT_TYPES
from tests.golden.make import CASES
from tests.schemas import errors_of, load

SCHEMA = load("events.schema.json")
KINDS = SCHEMA["$defs"]


def test_the_schema_has_one_definition_per_kind_in_the_engines_order():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert list(KINDS) == list(EVENT_TYPES)
    assert SCHEMA["properties"]["type"]["enum"] == list(EVENT_TYPES)
    assert SCHEMA["anyOf"] == [{"$ref": f"#/$defs/{kind}"} for kind in EVENT_TYPES]


@pytest.mark.parametrize("kind", list(EVENT_TYPES))
def test_a_kind_of_the_schema_has_the_keys_of_its_typed_dict(kind):
    typed, part = EVENT_TYPES[kind], KINDS[kind]
    assert set(get_type_hints(typed)) == set(part["properties"]), typed.__name__
    assert typed.__required_keys__ == set(part["required"]), typed.__name__
    assert typed.__optional_keys__ == set(), typed.__name__
    assert part["properties"]["type"]["const"] == kind
    assert part["additionalProperties"] is False


def test_a_hand_over_is_the_hand_result_of_the_observation_schema():
    """The hand's result has one home: each member of the hand-over event points at the hand result's."""
    result = load("observation.schema.json")["$defs"]["hand_result"]
    for key in result["properties"]:
        pointer = f"observation.schema.json#/$defs/hand_result/properties/{key}"
        assert KINDS["hand-over"]["properties"][key] == {"$ref": pointer}


def random_match(name: str, players: int, teams: bool, seed: int) -> list:
    """Every event of a match by random legal actions, answering every coup-fourré question with it."""
    game = mb.new_game(name, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    events = []
    while not game.is_over:
        legal = game.legal_actions()
        events += game.act("coup-fourre" if "coup-fourre" in legal else legal[rng.randrange(len(legal))])
    return events


TABLES = [
    (name, players, teams)
    for name in mb.RULESETS
    for players, teams in ((2, False), (3, False), (4, True))
    if mb.ruleset(name).allows(players, teams)
]


def test_every_event_of_whole_matches_validates():
    played = [event for table in TABLES for event in random_match(*table, seed=3)]
    recorded = [
        event
        for case in CASES
        for step in json.loads(case.path.read_text(encoding="utf-8"))["steps"]
        for event in step["events"]
    ]
    for i, event in enumerate(played + recorded):
        assert errors_of(event, "events.schema.json") == [], (i, event)
    assert {event["type"] for event in played + recorded} == set(EVENT_TYPES)


def test_the_schema_refuses_events_that_are_wrong():
    events = random_match("classic", 2, False, 5)
    play = next(event for event in events if event["type"] == "play")
    over = next(event for event in events if event["type"] == "hand-over")
    assert errors_of(play, "events.schema.json") == errors_of(over, "events.schema.json") == []
    broken = [
        {**play, "type": "throw"},
        {**play, "card": "joker"},
        {**play, "seat": "0"},
        {**play, "hidden": True},
        {key: value for key, value in play.items() if key != "side"},
        {"type": "draw", "seat": 0, "stock": -1},
        {"type": "coup-fourre", "seat": 1, "card": "roll", "side": 1, "hazard": "stop", "attacker": 0},
        {"type": "extend", "seat": 0, "side": 0, "target": 1010},
        {"type": "match-over", "winners": [], "scores": [0, 0]},
        {key: value for key, value in over.items() if key != "breakdown"},
        {**over, "breakdown": [{"distance": 100, "bonus": 3}] * 2},
    ]
    for wrong in broken:
        assert errors_of(wrong, "events.schema.json"), wrong
