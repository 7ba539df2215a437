"""The HTML pages: the home page, a table, a replay, how to play, the puzzles, the account, a player's profile,
the leaderboards, the bots online.  Plain files; their scripts ask the JSON API and the WebSocket for everything else.

Each page is read once at start (:class:`Pages`) and served as this process's build makes it: every
``src="/static/...`` and ``href="/static/...`` becomes ``/static/<build>/...`` (:mod:`.assets`), so the page's
whole module graph comes from one build (the scripts import each other by relative paths), and
``js/recover.js`` is inlined before its first asset (its hash is in the Content-Security-Policy): a page whose
script or stylesheet fails to load reloads once.  A page is ``Cache-Control: no-cache`` (a browser asks again
each time, an unchanged page costs a 304), so it never names a build the servers no longer have for long.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from .assets import Build, etag
from .static import unchanged

STATIC = Path(__file__).parent.parent / "static"
PAGES = {
    "home": "index.html",
    "table": "table.html",
    "replay": "replay.html",
    "rules": "rules.html",
    "puzzles": "puzzles.html",
    "account": "account.html",
    "profile": "profile.html",
    "leaderboard": "leaderboard.html",
    "bots": "bots.html",
    "online": "online.html",
}
RECOVER = "js/recover.js"
"""The script inlined in every page, before its first asset."""
ASSET_URL = re.compile(r'\b(src|href)="/static/')

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class Page:
    body: bytes
    etag: str


class Pages:
    """Every page as this process serves it: read and rewritten for ``build`` once, at start."""

    def __init__(self, root: Path, build: Build):
        recover = build.files.get(RECOVER)
        script = recover.body.decode() if recover is not None else ""
        if "</script" in script.lower():
            raise ValueError(f"{RECOVER} cannot be inlined: it holds </script")
        self.script_hash = f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
        """The inlined script's hash, as the Content-Security-Policy names it."""
        self.pages: dict[str, Page] = {}
        for name, file in PAGES.items():
            path = root / file
            if path.is_file():
                html = versioned(path.read_text(encoding="utf-8"), build.id, script)
                body = html.encode()
                self.pages[name] = Page(body, etag(body))


def versioned(html: str, build: str, script: str) -> str:
    """``html`` with its assets under ``/static/<build>/`` and ``script`` inlined before the first of them."""
    html = ASSET_URL.sub(rf'\1="/static/{build}/', html)
    first = ASSET_URL.search(html)
    if first is None or not script:
        return html
    tag = html.rfind("<", 0, first.start())
    indent = html[html.rfind("\n", 0, tag) + 1 : tag]
    return f"{html[:tag]}<script>{script}</script>\n{indent}{html[tag:]}"


def page(request: Request, name: str) -> Response:
    found = request.app.state.pages.pages.get(name)
    if found is None:
        return JSONResponse({"detail": f"{PAGES[name]} is missing from the package"}, status_code=404)
    headers = {"Cache-Control": "no-cache", "ETag": found.etag}
    if unchanged(request, found.etag):
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type="text/html", headers=headers)


ADDRESSES = {
    "/": "home",
    "/learn": "home",
    "/t/{table_id}": "table",
    "/replay/{table_id}": "replay",
    "/rules": "rules",
    "/puzzles": "puzzles",
    "/account": "account",
    "/players/{username}": "profile",
    "/leaderboard": "leaderboard",
    "/account/bots": "bots",
    "/bots": "online",
}
"""Each page's address (the part in braces is the page script's to read)."""


def _serve(name: str):
    async def serve(request: Request):
        return page(request, name)

    return serve


for _address, _name in ADDRESSES.items():
    router.add_api_route(_address, _serve(_name), methods=["GET"], name=f"{_name}_page")
