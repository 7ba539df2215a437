"""The JSON API's OpenAPI 3.1 document, served at ``/api/openapi.json`` (docs/web-api.md, "OpenAPI").

The routes describe themselves (their request bodies are pydantic models; ``responses=`` names each answer and each
refusal, built with :func:`ok` and :func:`refusals` here).  :func:`document` adds what no route says alone: the
title, version, license and tags, and the two refusals the app gives before any route runs: a request body over
``MAX_BODY`` (413) and a body or parameter the models refuse (422 in :class:`Refusal`'s shape, from
``web.app.invalid_request``, never FastAPI's own list of errors).  No page of this server shows the document (no
Swagger UI: its scripts come from a CDN); any OpenAPI tool reads it.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

from .. import __version__

URL = "/api/openapi.json"

DESCRIPTION = (
    "The JSON API of a Mille Bornes server: tables, the lobby, accounts, ratings, bot accounts, game reviews "
    "and puzzles, the public archive.  Every refusal is a JSON object with a `detail` in English, and, where a "
    "page words it, a stable `code`; a 422 names the `field` at fault.  A refusal changes nothing.  The "
    "WebSockets (`/ws/{table}` for a seat or a spectator, `/ws/bot` for a bot account) are described in "
    "docs/web-api.md and docs/protocol.md, not here."
)

TAGS = [
    {"name": "tables", "description": "Creating a table, its public facts, the lobby and its seats, replays."},
    {"name": "accounts", "description": "Sign up, sign in (password or passkey), sign-ins, export, deletion."},
    {"name": "ratings", "description": "Players' profiles and the leaderboards."},
    {"name": "bots", "description": "Bot accounts: made, their tokens renewed or revoked, and the bots online."},
    {"name": "reviews", "description": "Game reviews of finished tables, and the puzzles grown from them."},
    {"name": "archive", "description": "The finished public tables' records, as files and NDJSON."},
    {"name": "reference", "description": "The cards, the message catalog, the editions and how to play them."},
    {"name": "health", "description": "Whether this process can save a move now."},
]


class Refusal(BaseModel):
    """Every refusal's body (web/answers.py, web/accounts/signin.py)."""

    detail: str = Field(description="What was refused and why, in English, for a program or its author.")
    code: str | None = Field(
        None, description="A stable kebab-case reason, where a page words it (`signed-out`, `bot-offline`...)."
    )
    field: str | None = Field(None, description="On a 422: the request's field at fault (`seats`, `limit`...).")


WHY = {
    400: "The request cannot be read as asked (`code` says why).",
    401: "Not signed in (`code` `signed-out`), or a wrong password or passkey (`code` `wrong`).",
    403: "Refused: from another site (`cross-site`), without the sign-in's `X-CSRF-Token` (`csrf`), a private "
    "table without one of its seats' tokens (`private`), or a disabled account (`disabled`).",
    404: "Nothing of that name here (for a private table: nothing told).",
    409: "In conflict with what is there now (`code` says what: `taken`, `too-many-bots`...).",
    410: "Gone: the table expired (`code` `expired`).",
    413: "The request's body is over 64 KiB.",
    415: "A change's body is not `application/json` (`code` `not-json`).",
    422: "A field the server will not take: `field` names it, `code` where a page words the reason.",
    429: "Over a rate limit: the `Retry-After` header says in how many seconds to try again.",
    503: "Busy or unable to answer now (`Retry-After` where a wait helps).",
}

SIGNED_IN = (401,)
"""The refusals of a signed-in person's reading (web/accounts/session.py)."""
CHANGE = (401, 403, 415)
"""The refusals of a change to an account, before the route's own (web/accounts/signin.py)."""
GUEST_CHANGE = (403, 415)
"""The refusals of a sign-up or a sign-in: from this site's pages only, a JSON body."""


def ok(description: str, model: Any = None, status: int = 200, media_type: str = "application/json") -> dict:
    """The success answer of a route: what it holds, and its schema where a model says it."""
    answer: dict[str, Any] = {"description": description}
    if model is not None:
        answer["model"] = model
    elif media_type != "application/json":
        answer["content"] = {media_type: {"schema": {"type": "string"}}}
    return {status: answer}


def refusals(*statuses: int, **why: str) -> dict:
    """The refusals a route answers, in :class:`Refusal`'s shape; ``why`` (``r404="..."``) words one for it."""
    return {s: {"model": Refusal, "description": why.get(f"r{s}", WHY[s])} for s in statuses}


def document(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document, made once (``app.openapi``)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title="Mille Bornes",
        version=__version__,
        openapi_version="3.1.0",
        summary="Play Mille Bornes: people, built-in bots and bot accounts.",
        description=DESCRIPTION,
        routes=app.routes,
        tags=TAGS,
        license_info={"name": "MIT", "identifier": "MIT"},
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Refusal", Refusal.model_json_schema(ref_template="#/components/schemas/{model}"))
    refused = {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.setdefault("responses", {})
            validation = answers.get("422")
            if validation is not None and "HTTPValidationError" in str(validation):
                answers["422"] = {"description": WHY[422], "content": refused}
            if "requestBody" in operation:
                answers.setdefault("413", {"description": WHY[413], "content": refused})
    for internal in ("HTTPValidationError", "ValidationError"):
        components.pop(internal, None)
    app.openapi_schema = schema
    return schema
