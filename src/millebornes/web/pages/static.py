"""``/static/...``: the pages' scripts, styles and pictures (docs/web-api.md; docs/deploy.md, "Rolling upgrades").

- ``/static/<build>/<path>``: the file of that build (:mod:`.shelf`: this process's own, or another recorded in the
  database), ``Cache-Control: public, max-age=31536000, immutable`` with its ETag, since those bytes never change
  under that address.  A build no process recorded, or a path it does not hold: 404, ``no-store``, never another
  build's file.
- ``/static/<path>`` (an address from before the builds, a bookmark): a redirect (307, ``no-store``) to this
  process's build of it, so that what it loads from there on comes from one build.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse

from .assets import BUILD
from .shelf import Shelf

IMMUTABLE = "public, max-age=31536000, immutable"

router = APIRouter(include_in_schema=False)


def not_found(detail: str) -> Response:
    return JSONResponse({"detail": detail}, status_code=404, headers={"Cache-Control": "no-store"})


def unchanged(request: Request, etag: str) -> bool:
    """Whether the client's ``If-None-Match`` names the version ``etag`` it would get."""
    asked = request.headers.get("if-none-match", "")
    return any(tag.strip().removeprefix("W/") in (etag, "*") for tag in asked.split(",") if tag.strip())


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
async def static(request: Request, path: str) -> Response:
    shelf: Shelf = request.app.state.shelf
    build, _, inner = path.partition("/")
    if BUILD.fullmatch(build):
        asset = await shelf.find(build, inner)
        if asset is None:
            return not_found(f"no file {inner!r} in build {build} here")
        headers = {"Cache-Control": IMMUTABLE, "ETag": asset.etag}
        if unchanged(request, asset.etag):
            return Response(status_code=304, headers=headers)
        return Response(asset.body, media_type=asset.media_type, headers=headers)
    if path in shelf.own.files:
        return RedirectResponse(f"/static/{shelf.own.id}/{path}", 307, headers={"Cache-Control": "no-store"})
    return not_found(f"no file {path!r} here")
