"""A small JSON Schema validator for the schemas in docs/: jsonschema is not a dependency, so the subset of draft
2020-12 those schemas use is checked here.  An unknown keyword is an error, so a schema cannot use something this
ignores.  A ``$ref`` is a pointer in the same schema (``#/$defs/card``), another schema file beside it
(``protocol.schema.json``) or a pointer into one (``observation.schema.json#/$defs/card``)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description", "$comment", "examples"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load(name: str) -> dict:
    """A schema of docs/ by its file name (a fresh copy: a test may change it)."""
    return json.loads((DOCS / name).read_text(encoding="utf-8"))


_document = functools.cache(load)  # the copy references are followed into, never changed


def errors_of(value, name: str) -> list[str]:
    """Every violation of the schema file ``name`` by ``value``; an empty list means valid."""
    schema = _document(name)
    return validate(value, schema, schema)


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b or (TYPES["integer"](a) and TYPES["integer"](b) and a == b)


def validate(value, schema: dict, root: dict, path: str = "$") -> list[str]:
    """Every violation of ``schema`` by ``value`` as 'path: words'; an empty list means valid."""
    errors: list[str] = []
    for key in schema:
        if key not in ANNOTATIONS and key not in CHECKS:
            raise AssertionError(f"the test validator does not know the keyword {key!r} at {path}")
    for key, rule in schema.items():
        if key in CHECKS:
            errors += CHECKS[key](value, rule, schema, root, path)
    return errors


def _pointed(document: dict, pointer: str) -> dict:
    target = document
    for part in filter(None, pointer.split("/")):
        target = target[part]
    return target


def _ref(value, ref, schema, root, path):
    name, _, pointer = ref.partition("#")
    document = _document(name) if name else root
    return validate(value, _pointed(document, pointer), document, path)


def _type(value, types, schema, root, path):
    types = [types] if isinstance(types, str) else types
    return [] if any(TYPES[t](value) for t in types) else [f"{path}: {value!r:.60} is not {types}"]


def _properties(value, props, schema, root, path):
    if not isinstance(value, dict):
        return []
    errors = []
    for key, sub in props.items():
        if key in value:
            errors += validate(value[key], sub, root, f"{path}.{key}")
    extra = schema.get("additionalProperties", True)
    for key in value:
        if key not in props:
            if extra is False:
                errors.append(f"{path}: unexpected member {key!r}")
            elif isinstance(extra, dict):
                errors += validate(value[key], extra, root, f"{path}.{key}")
    return errors


def _items(value, sub, schema, root, path):
    if not isinstance(value, list):
        return []
    return [e for i, item in enumerate(value) for e in validate(item, sub, root, f"{path}[{i}]")]


def _number_rule(test, words):
    def check(value, limit, schema, root, path):
        if TYPES["number"](value) and not test(value, limit):
            return [f"{path}: {value} {words} {limit}"]
        return []

    return check


CHECKS = {
    "$ref": _ref,
    "type": _type,
    "properties": _properties,
    "additionalProperties": lambda v, r, s, root, p: [],  # applied by "properties"
    "required": lambda v, req, s, root, p: [
        f"{p}: missing member {k!r}" for k in req if isinstance(v, dict) and k not in v
    ],
    "items": _items,
    "minItems": lambda v, n, s, root, p: [f"{p}: fewer than {n} items"] if isinstance(v, list) and len(v) < n else [],
    "minLength": lambda v, n, s, root, p: [f"{p}: shorter than {n}"] if isinstance(v, str) and len(v) < n else [],
    "enum": lambda v, options, s, root, p: (
        [] if any(_same(v, o) for o in options) else [f"{p}: {v!r} is not one of {options}"]
    ),
    "const": lambda v, c, s, root, p: [] if _same(v, c) else [f"{p}: {v!r} is not {c!r}"],
    "pattern": lambda v, pat, s, root, p: (
        [f"{p}: {v!r} does not match {pat}"] if isinstance(v, str) and not re.search(pat, v) else []
    ),
    "minimum": _number_rule(lambda v, m: v >= m, "is less than"),
    "maximum": _number_rule(lambda v, m: v <= m, "is more than"),
    "multipleOf": _number_rule(lambda v, m: v % m == 0, "is not a multiple of"),
    "anyOf": lambda v, subs, s, root, p: (
        [] if any(not validate(v, sub, root, p) for sub in subs) else [f"{p}: {v!r:.60} matches none of the choices"]
    ),
}
