"""The JSON Schemas of what a client writer reads and sends (docs/protocol.md, docs/web-api.md), served at stable
addresses, ``GET /api/schemas/NAME``, side by side so that their relative ``$ref`` between them resolve.  They are
read from the installed package (millebornes/schemas/, which setup.py copies from docs/ at each build), or, run from
a source checkout, from docs/ itself: docs/ is their one source."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from .apidoc import ok, refusals

SERVED = ("protocol.schema.json", "observation.schema.json", "bot-socket.schema.json")
SOURCE = Path(__file__).resolve().parents[3] / "docs"

router = APIRouter(tags=["reference"])


@functools.cache
def schema_bytes(name: str) -> bytes | None:
    """A served schema's bytes, read once: the package's copy, else the source checkout's docs/."""
    packaged = resources.files("millebornes").joinpath("schemas", name)
    if packaged.is_file():
        return packaged.read_bytes()
    source = SOURCE / name
    return source.read_bytes() if source.is_file() else None


@router.get(
    "/api/schemas/{name}",
    responses={
        **ok("The JSON Schema (draft 2020-12) named.", media_type="application/schema+json"),
        **refusals(404, r404="No served schema has that name."),
    },
)
async def schema(name: str) -> Response:
    """One of the served schemas: ``protocol.schema.json``, ``observation.schema.json``, ``bot-socket.schema.json``."""
    body = schema_bytes(name) if name in SERVED else None
    if body is None:
        return JSONResponse({"detail": f"no schema {name[:60]!r}; schemas are: {', '.join(SERVED)}"}, status_code=404)
    return Response(body, media_type="application/schema+json", headers={"Cache-Control": "public, max-age=3600"})
