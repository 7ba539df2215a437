"""The golden records (tests/golden/, written by ``python -m tests.golden.make``): whole matches of every edition
replayed through the public API give exactly the recorded events, step by step, and the recorded scores. A change
of the engine's play shows here as a diff of data; if it was meant, regenerate the files and commit the diff."""

from __future__ import annotations

import difflib
import json
from typing import Any

import pytest

import millebornes as mb
from millebornes.events import EVENT_TYPES
from tests.golden.make import CASES, HERE, Case, dumps, golden, new


def load(case: Case) -> dict[str, Any]:
    return json.loads(case.path.read_text(encoding="utf-8"))


def lines(steps: list[dict[str, Any]]) -> list[str]:
    return [f"step {i} {step['action']!r}: {json.dumps(step['events'])}" for i, step in enumerate(steps)]


def differences(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    """The steps that differ as a unified diff (recorded, then replayed), a few steps of context around them."""
    diff = difflib.unified_diff(lines(expected), lines(got), "recorded", "replayed", n=2, lineterm="")
    shown = list(diff)
    return "\n".join(shown[:60] + ([f"... and {len(shown) - 60} more lines"] if len(shown) > 60 else []))


def replayed(case: Case, actions: list[str]) -> tuple[mb.Game, list[dict[str, Any]], str]:
    """The case's game after the actions, each step's events, and why the replay stopped early ('' if it did not)."""
    game = new(case)
    steps: list[dict[str, Any]] = []
    for i, action in enumerate(actions):
        try:
            events = game.act(action)
        except mb.IllegalAction as exc:
            return game, steps, f"step {i} {action!r} is refused now: {exc}"
        steps.append({"action": action, "events": events})
    return game, steps, ""


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_golden_record_replays_to_its_events_and_scores(case):
    data = load(case)
    assert data["table"] == case.table() and data["bots"] == list(case.bots), "the file is not its case's"
    record = data["record"]
    assert [step["action"] for step in data["steps"]] == record["actions"]
    game, steps, refused = replayed(case, record["actions"])
    head = {key: value for key, value in game.record().items() if key != "actions"}
    assert head == {key: value for key, value in record.items() if key != "actions"}, (
        "the preset's options differ from the record's"
    )
    if refused or steps != data["steps"]:
        pytest.fail(
            f"{case.name}: the engine plays the record otherwise (if that is meant, run python -m tests.golden.make and "
            f"commit the data's diff). {refused}\n{differences(data['steps'], steps)}"
        )
    assert game.is_over
    assert (game.match_scores, game.winners) == (data["scores"], data["winners"])
    again = mb.replay(record)
    assert again.history == record["actions"]
    assert (again.match_scores, again.winners) == (data["scores"], data["winners"])
    assert [again.observation(seat) for seat in range(case.players)] == [
        game.observation(seat) for seat in range(case.players)
    ]
    assert case.path.read_text(encoding="utf-8") == dumps(golden(case, record["actions"])) + "\n", (
        "make.py writes it otherwise"
    )


def test_the_files_are_the_cases_and_stay_small():
    assert sorted(HERE.glob("*.json")) == sorted(case.path for case in CASES)
    assert sum(case.path.stat().st_size for case in CASES) < 1_000_000


def test_the_cases_cover_every_edition_table_and_event():
    tables = {(case.ruleset, case.players, bool(new(case).teams)) for case in CASES if not case.options}
    for name in mb.RULESETS:
        rules = mb.ruleset(name)
        assert {(name, 2, False), (name, 3, False)} <= tables, name
        assert (name, 4, True) in tables if rules.allows(4, True) else any(t[:2] == (name, 4) for t in tables), name
    assert any(case.options for case in CASES)
    kinds = {event["type"] for case in CASES for step in load(case)["steps"] for event in step["events"]}
    assert kinds == set(EVENT_TYPES)


def test_a_changed_event_shows_as_a_diff_of_the_step():
    case = CASES[0]
    data = load(case)
    steps = json.loads(json.dumps(data["steps"]))
    steps[5]["events"][0]["seat"] += 1
    shown = differences(data["steps"], steps)
    assert shown.count("\n-step 5 ") == 1 and shown.count("\n+step 5 ") == 1
    assert "step 9 " not in shown
