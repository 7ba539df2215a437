"""The HTML pages: the home page, a table, a replay, how to play, the puzzles, the account, a player's profile,
the leaderboards.  Plain files; their scripts ask the JSON API and the WebSocket for everything else."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

STATIC = Path(__file__).parent / "static"
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


def page(name: str):
    path = STATIC / PAGES[name]
    if not path.is_file():
        return JSONResponse({"detail": f"{PAGES[name]} is missing from the package"}, status_code=404)
    return FileResponse(path, media_type="text/html")


@router.get("/")
async def home():
    return page("home")


@router.get("/t/{table_id}")
async def table_page(table_id: str):
    return page("table")


@router.get("/replay/{table_id}")
async def replay_page(table_id: str):
    return page("replay")


@router.get("/rules")
async def rules_page():
    return page("rules")


@router.get("/puzzles")
async def puzzles_page():
    return page("puzzles")


@router.get("/account")
async def account_page():
    return page("account")


@router.get("/players/{username}")
async def profile_page(username: str):
    return page("profile")


@router.get("/leaderboard")
async def leaderboard_page():
    return page("leaderboard")


@router.get("/account/bots")
async def bots_page():
    return page("bots")
