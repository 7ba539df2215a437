"""The TypedDicts of events and observations say exactly what the engine emits: seeded matches of every
edition, played through the public API, are checked key by key (and value by value) against them, so the
types cannot drift from the engine."""

from __future__ import annotations

import functools
import random
import types
import typing
from typing import Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import millebornes as mb
from millebornes.events import EVENT_TYPES, Event
from millebornes.observation import Observation, Tableau

TABLES = [
    (name, players, teams)
    for name in mb.RULESETS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
    if mb.ruleset(name).allows(players, teams)
]


@functools.cache
def _hints(typed: type) -> dict[str, object]:
    return get_type_hints(typed)


def conforms(value: object, hint: object, where: str) -> list[str]:
    """What in ``value`` does not match the type ``hint``: a TypedDict key missing or extra, a value of another
    type; empty when it matches."""
    if is_typeddict(hint):
        assert isinstance(hint, type)
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        keys = set(value)
        required, optional = set(hint.__required_keys__), set(hint.__optional_keys__)
        problems = [f"{where}: missing {sorted(required - keys)}"] if required - keys else []
        if keys - required - optional:
            problems.append(f"{where}: keys {sorted(keys - required - optional)} not in {hint.__name__}")
        hints = _hints(hint)
        for key in keys & set(hints):
            problems += conforms(value[key], hints[key], f"{where}.{key}")
        return problems
    origin = get_origin(hint)
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} is not one of {get_args(hint)}"]
    if origin in (Union, types.UnionType):
        options = [conforms(value, option, where) for option in get_args(hint)]
        return [] if any(not o for o in options) else min(options, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(hint)
        return [problem for i, x in enumerate(value) for problem in conforms(x, item, f"{where}[{i}]")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not an int"]
    if hint in (bool, str):
        assert isinstance(hint, type)
        return [] if isinstance(value, hint) else [f"{where}: {value!r} is not a {hint.__name__}"]
    raise AssertionError(f"{where}: the test does not know the type {hint!r}")


def play(name: str, players: int, teams: bool, seed: int) -> tuple[list[Event], list[Observation], list[Tableau]]:
    """A whole match by random legal actions: every event; an observation of every seat and every tableau
    after every seventh action, after each one that leaves a decision other than a play (a coup-fourré
    question shows its pending attack) and at the end."""
    game = mb.new_game(name, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    events: list[Event] = []
    observations: list[Observation] = []
    tableaux: list[Tableau] = []
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        events += game.act(legal[rng.randrange(len(legal))])
        step += 1
        if step % 7 == 0 or game.decision != "play":
            observations += [game.observation(seat) for seat in range(players)]
            tableaux += [game.tableau(side) for side in range(game.nsides)]
    return events, observations, tableaux


@pytest.fixture(scope="module")
def matches() -> dict[tuple[str, int, bool, int], tuple[list[Event], list[Observation], list[Tableau]]]:
    return {(*table, seed): play(*table, seed) for table in TABLES for seed in (1, 2)}


def test_every_event_has_exactly_the_keys_of_its_kind(matches):
    seen = set()
    for key, (events, _, _) in matches.items():
        for i, event in enumerate(events):
            kind = event["type"]
            assert kind in EVENT_TYPES, f"{key} event {i}: no TypedDict for {kind!r}"
            seen.add(kind)
            assert not conforms(event, EVENT_TYPES[kind], f"{key} event {i} ({kind})")
    # every kind but the coup fourré shows up in random play of every edition; make sure each is checked
    assert seen >= set(EVENT_TYPES) - {"coup-fourre"}


def test_a_coup_fourre_event_matches_its_kind():
    """Random play seldom calls a coup fourré: find one by answering every question with it."""
    for seed in range(200):
        game = mb.new_game("classic", players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            action = "coup-fourre" if "coup-fourre" in legal else legal[rng.randrange(len(legal))]
            for event in game.act(action):
                if event["type"] == "coup-fourre":
                    assert not conforms(event, EVENT_TYPES["coup-fourre"], f"seed {seed}")
                    return
    raise AssertionError("no coup fourré in 200 matches")


def test_the_event_union_is_the_table_of_kinds():
    assert set(get_args(Event)) == set(EVENT_TYPES.values())
    for kind, typed in EVENT_TYPES.items():
        assert get_type_hints(typed)["type"] == Literal[kind]


def test_every_observation_has_exactly_the_keys_of_observation(matches):
    checked = 0
    for key, (_, observations, _) in matches.items():
        for i, obs in enumerate(observations):
            assert not conforms(obs, Observation, f"{key} observation {i}")
            checked += 1
    assert checked > 1000
    assert any(obs["pending_attack"] for _, observations, _ in matches.values() for obs in observations)


def test_every_tableau_has_exactly_the_keys_of_tableau(matches):
    for key, (_, _, tableaux) in matches.items():
        for i, tableau in enumerate(tableaux):
            assert not conforms(tableau, Tableau, f"{key} tableau {i}")


def test_the_checker_sees_a_drift():
    """The checks above can fail: an extra key, a missing one, a value of another type are all reported."""
    events, observations, _ = play("classic", 2, False, 3)
    deal = dict(events[0]) if events[0]["type"] == "deal" else {"type": "deal", "hand": 0, "first": 0, "target": 700}
    assert conforms({**deal, "seed": 1}, EVENT_TYPES["deal"], "e")
    assert conforms({k: v for k, v in deal.items() if k != "target"}, EVENT_TYPES["deal"], "e")
    assert conforms({**deal, "target": "700"}, EVENT_TYPES["deal"], "e")
    obs = dict(observations[0])
    obs["tableaux"] = [{**obs["tableaux"][0], "moving": 1}]
    assert conforms(obs, Observation, "o")
    assert typing.get_type_hints(Observation).keys() == set(observations[0])


def test_the_types_name_the_keys_of_the_json_schema():
    """docs/observation.schema.json and the TypedDicts describe one observation: the same keys, the same
    required ones."""
    import json
    from pathlib import Path

    from millebornes.events import Breakdown, HandResult
    from millebornes.observation import ObservedTableau, PendingAttack
    from millebornes.rules import RuleOptions, ScoringTable

    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "observation.schema.json").read_text(encoding="utf-8")
    )
    defs = schema["$defs"]
    for typed, part in [
        (Observation, schema),
        (ObservedTableau, defs["tableau"]),
        (PendingAttack, defs["pending_attack"]),
        (HandResult, defs["hand_result"]),
        (Breakdown, defs["breakdown"]),
        (RuleOptions, defs["options"]),
        (ScoringTable, defs["scoring"]),
    ]:
        assert set(_hints(typed)) == set(part["properties"]), typed.__name__
        assert typed.__required_keys__ == set(part["required"]), typed.__name__
