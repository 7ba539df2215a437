"""The JSON API's OpenAPI document (web/apidoc.py, docs/web-api.md "OpenAPI"): served at /api/openapi.json as
``app.openapi()`` makes it, an OpenAPI 3.1 document in its structure, every JSON route in it with its body, its
answers and its refusals, and the refusals it names are the ones the routes give."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("fastapi")

from fastapi.routing import APIRoute  # noqa: E402
from jsonschema import Draft202012Validator, ValidationError  # noqa: E402

import millebornes  # noqa: E402
from millebornes.web.app import create_app  # noqa: E402

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
STATUS = r"^[1-5][0-9][0-9]$"
SCHEMA_OR_REF = {"type": "object"}
MEDIA = {"type": "object", "additionalProperties": {"type": "object", "properties": {"schema": SCHEMA_OR_REF}}}

# The part of OpenAPI 3.1's own schema (spec.openapis.org/oas/3.1/schema) that this document's shape relies on.
OPENAPI_31 = {
    "type": "object",
    "required": ["openapi", "info", "paths", "components"],
    "properties": {
        "openapi": {"type": "string", "pattern": r"^3\.1\.\d+$"},
        "info": {
            "type": "object",
            "required": ["title", "version"],
            "properties": {
                "title": {"type": "string", "minLength": 1},
                "version": {"type": "string", "minLength": 1},
                "description": {"type": "string"},
                "license": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string"}, "identifier": {"type": "string"}},
                    "not": {"required": ["identifier", "url"]},
                },
            },
        },
        "tags": {
            "type": "array",
            "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        },
        "paths": {
            "type": "object",
            "propertyNames": {"pattern": "^/"},
            "additionalProperties": {
                "type": "object",
                "propertyNames": {"enum": sorted(METHODS | {"summary", "description", "parameters", "servers"})},
                "additionalProperties": {
                    "type": "object",
                    "required": ["responses"],
                    "properties": {
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "operationId": {"type": "string"},
                        "parameters": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["name", "in"],
                                "properties": {"in": {"enum": ["query", "header", "path", "cookie"]}},
                            },
                        },
                        "requestBody": {"type": "object", "required": ["content"], "properties": {"content": MEDIA}},
                        "responses": {
                            "type": "object",
                            "minProperties": 1,
                            "propertyNames": {"pattern": STATUS},
                            "additionalProperties": {
                                "type": "object",
                                "required": ["description"],
                                "properties": {"description": {"type": "string"}, "content": MEDIA},
                            },
                        },
                    },
                },
            },
        },
        "components": {
            "type": "object",
            "properties": {"schemas": {"type": "object", "additionalProperties": {"type": ["object", "boolean"]}}},
        },
    },
}

REFUSAL = "#/components/schemas/Refusal"
HUMAN = {"kind": "human"}
INTERNALS = re.compile(r"hash|secret|seed_|connection|csrf_key", re.I)


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def doc(app):
    return app.openapi()


def operations(doc):
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield path, method, op


def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref":
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


def properties(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                yield from v
            yield from properties(v)
    elif isinstance(node, list):
        for v in node:
            yield from properties(v)


def test_the_document_is_served_at_api_openapi_json_as_the_app_makes_it(web, app, doc):
    c = web.start()
    served = c.get("/api/openapi.json")
    assert served.status_code == 200 and served.headers["content-type"].startswith("application/json")
    assert served.json() == doc
    assert served.json() == web.app.openapi()
    assert c.get("/openapi.json").status_code == 404
    assert c.get("/docs").status_code == 404 and c.get("/redoc").status_code == 404


def test_the_document_has_openapi_3_1s_structure_and_the_projects_facts(doc):
    Draft202012Validator(OPENAPI_31).validate(doc)
    info = doc["info"]
    assert info["version"] == millebornes.__version__
    assert info["license"] == {"name": "MIT", "identifier": "MIT"}
    assert info["title"] and info["description"]
    for schema in doc["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    names = set(doc["components"]["schemas"])
    for ref in refs(doc):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in names, ref
    assert not names & {"HTTPValidationError", "ValidationError"}, "FastAPI's 422 shape is not the app's"


def test_every_json_route_is_in_it_tagged_with_its_answers_and_refusals(app, doc):
    declared = {t["name"] for t in doc["tags"]}
    assert declared >= {"tables", "accounts", "ratings", "bots", "reviews", "archive", "reference", "health"}
    wanted = {
        (route.path, method.lower())
        for route in app.routes
        if isinstance(route, APIRoute) and route.path.startswith("/api/")
        for method in route.methods
    }
    found = {(path, method) for path, method, _ in operations(doc)}
    assert wanted <= found, f"missing: {sorted(wanted - found)}"
    assert "/api/openapi.json" not in doc["paths"]
    assert not [p for p in doc["paths"] if not (p.startswith("/api/") or p == "/healthz")], "a page in the API"
    for path, method, op in operations(doc):
        where = f"{method.upper()} {path}"
        assert op.get("tags") and len(op["tags"]) == 1 and op["tags"][0] in declared, where
        answers = op["responses"]
        assert any(s.startswith("2") for s in answers), where
        refused = [s for s in answers if s[0] in "45"]
        if path != "/healthz" and (op.get("parameters") or op.get("requestBody")):
            assert "422" in refused, where
        for status in refused:
            schema = answers[status].get("content", {}).get("application/json", {}).get("schema")
            if path != "/healthz":
                assert schema == {"$ref": REFUSAL}, f"{where} {status}"
        if method in ("post", "put", "patch", "delete") and path.startswith("/api/account"):
            body = op.get("requestBody")
            assert body and body["required"], where
            assert body["content"]["application/json"]["schema"].get("$ref"), where
            assert {"403", "413", "415"} <= set(refused), where


def test_no_schema_names_an_internal(doc):
    leaked = [name for name in properties(doc) if INTERNALS.search(name)]
    assert not leaked


def test_the_refusals_it_describes_are_the_routes(web, doc):
    """Bad input keeps its answers, and they fit the documented shape."""
    refusal = Draft202012Validator(doc["components"]["schemas"]["Refusal"])
    c = web.start()
    bad = c.post("/api/tables", json={"ruleset": "classic", "players": 2, "seats": []})
    assert bad.status_code == 422 and bad.json()["field"] == "seats"
    refusal.validate(bad.json())
    out = c.get("/api/account/bots")
    assert out.status_code == 401 and out.json()["code"] == "signed-out"
    refusal.validate(out.json())
    limit = c.get("/api/bots/online?limit=0")
    assert limit.status_code == 422 and limit.json()["field"] == "limit"
    refusal.validate(limit.json())
    assert {"401", "422"} <= set(doc["paths"]["/api/account/bots"]["post"]["responses"])
    assert (
        "bots"
        in doc["paths"]["/api/bots/online"]["get"]["responses"]["200"]["content"]["application/json"]["schema"][
            "$ref"
        ].lower()
    )


def fits(doc, path: str, method: str, status: int, body) -> None:
    """``body`` is what the document (its references made local: ``#/$defs/``) says ``method path`` answers with
    ``status``."""
    schema = doc["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "$defs": doc["components"]["schemas"]}).validate(body)


def test_the_answers_it_describes_with_a_schema_are_the_routes(web, doc):
    """Where the document gives an answer's schema, the route's real answer fits it."""
    docs = json.loads(json.dumps(doc).replace("#/components/schemas/", "#/$defs/"))
    c = web.start()
    fits(docs, "/healthz", "get", 200, c.get("/healthz").json())
    made = c.post("/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], "public": True})
    fits(docs, "/api/tables", "post", 201, made.json())
    web.join(made.json(), 0, "Ann")  # the lobby offers a table's free seats once its creator sat down
    claimed = c.post(f"/api/tables/{made.json()['id']}/seats/1/claim")
    assert claimed.status_code == 200, claimed.text
    fits(docs, "/api/tables/{table_id}/seats/{seat}/claim", "post", 200, claimed.json())
    fits(docs, "/api/tutorial", "post", 201, c.post("/api/tutorial").json())
    r = c.post("/api/account/signup", json={"username": "doc_owner", "password": "plum kettle orbit ninety"})
    fits(docs, "/api/account/signup", "post", 201, r.json())
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    bot = c.post("/api/account/bots", json={"username": "doc_bot"}, headers=csrf)
    fits(docs, "/api/account/bots", "post", 201, bot.json())
    fits(docs, "/api/account/bots", "get", 200, c.get("/api/account/bots").json())
    with c.websocket_connect("/ws/bot", headers={"Authorization": f"Bearer {bot.json()['token']}"}) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "hello", "protocol": "millebornes-bot/1", "name": "doc"})
        listed = c.get("/api/bots/online").json()
        assert [b["name"] for b in listed["bots"]] == ["doc_bot"]
        fits(docs, "/api/bots/online", "get", 200, listed)
    with pytest.raises(ValidationError):
        fits(docs, "/api/bots/online", "get", 200, {"bots": [{"name": "x"}], "most": 50})
