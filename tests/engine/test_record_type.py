"""millebornes.Record, the type of ``Game.record()``, and docs/record.schema.json say the same: the same keys (the
schema's ``table`` is what the web app's public archive adds), all of them required, each value of the JSON type
the schema gives it; and a record of a real game is valid against the schema."""

from __future__ import annotations

import types
import typing
from typing import Literal, get_args, get_origin, get_type_hints, is_typeddict

import millebornes as mb
from millebornes import Record
from tests.schemas import load, validate

SCHEMA = load("record.schema.json")
ARCHIVE_ONLY = {"table"}
"""What the archive adds to the engine's record (docs/web-api.md, "Public archive")."""
_JSON = {str: "string", int: "integer", bool: "boolean", type(None): "null", float: "number"}


def _of_hint(hint) -> frozenset:
    """The JSON types a Python type allows: names, and ``("array", items)`` for a list, ``"object"`` for a dict."""
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return frozenset().union(*(_of_hint(arg) for arg in get_args(hint)))
    if origin is list:
        return frozenset({("array", _of_hint(get_args(hint)[0]))})
    if origin is dict or is_typeddict(hint):
        return frozenset({"object"})
    if origin is Literal:
        return frozenset(_JSON[type(value)] for value in get_args(hint))
    return frozenset({_JSON[hint]})


def _of_schema(part: dict) -> frozenset:
    """The JSON types a part of the schema allows, in the same terms."""
    if "$ref" in part:
        return _of_schema(SCHEMA["$defs"][part["$ref"].removeprefix("#/$defs/")])
    if "anyOf" in part:
        return frozenset().union(*(_of_schema(sub) for sub in part["anyOf"]))
    if "const" in part or "enum" in part:
        values = [part["const"]] if "const" in part else part["enum"]
        return frozenset(_JSON[type(value)] for value in values)
    if part["type"] == "array":
        return frozenset({("array", _of_schema(part["items"]))})
    return frozenset({part["type"]})


def test_the_record_type_has_the_schema_s_keys_all_required():
    hints = get_type_hints(Record)
    assert set(hints) == set(SCHEMA["properties"]) - ARCHIVE_ONLY
    assert Record.__required_keys__ == set(SCHEMA["required"]) - ARCHIVE_ONLY
    assert Record.__optional_keys__ == frozenset()


def test_each_value_of_the_record_type_is_of_the_schema_s_json_type():
    hints = get_type_hints(Record)
    wrong = {key: (_of_hint(hint), _of_schema(SCHEMA["properties"][key])) for key, hint in hints.items()}
    wrong = {key: pair for key, pair in wrong.items() if pair[0] != pair[1]}
    assert not wrong, wrong
    assert _of_hint(hints["deck"]) == {"null", ("array", frozenset({"string"}))}


def test_the_type_check_tells_types_apart():
    assert _of_hint(list[str] | None) == {"null", ("array", frozenset({"string"}))}
    assert _of_hint(list[int]) != _of_schema({"type": "array", "items": {"type": "string"}})
    assert _of_hint(bool) != _of_schema({"type": "integer"})


def test_a_game_s_record_is_valid_against_the_schema_but_the_archive_s_table():
    schema = {**SCHEMA, "required": [key for key in SCHEMA["required"] if key not in ARCHIVE_ONLY]}
    game = mb.new_game("parker", players=4, seed=5, deck=None)
    for _ in range(30):
        game.act(game.legal_actions()[0])
    record = game.record()
    assert set(record) == set(get_type_hints(Record)) and not validate(record, schema, schema)
    assert mb.replay(record).record() == record
