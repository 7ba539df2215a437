"""The HTML pages: the home page, a table, a replay, how to play, the puzzles, the account, a player's profile,
the leaderboards.  Plain files; their scripts ask the JSON API and the WebSocket for everything else."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from . import reference

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
}

router = APIRouter(include_in_schema=False)
router.include_router(reference.router)


def page(name: str):
    path = STATIC / PAGES[name]
    if not path.is_file():
        return JSONResponse({"detail": f"{PAGES[name]} is missing from the package"}, status_code=404)
    return FileResponse(path, media_type="text/html")


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
}
"""Each page's address (the part in braces is the page script's to read)."""


def _serve(name: str):
    async def serve():
        return page(name)

    return serve


for _address, _name in ADDRESSES.items():
    router.add_api_route(_address, _serve(_name), methods=["GET"], name=f"{_name}_page")
