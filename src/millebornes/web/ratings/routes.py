"""Players' profiles and the leaderboards (docs/web-api.md, "Profiles and leaderboards"): what a place players come
back to shows of each account, to anybody, and who leads each edition.

The answers are read by :mod:`.service`.

- ``GET /api/players/{username}``: the account's ratings per edition family with their graph's points, its
  totals (web/ratings/stats_repo.py counts each finished game once) and its games, newest first, a page at a time.  A
  private table's game is listed to the account itself only (its sign-in cookie says so); to anybody else it is
  neither listed nor named by a point of the graph, whose table would lead to its players' names.  The totals
  and the rating count every game, private ones too: they are numbers, which show no game.
- ``GET /api/leaderboard/{family}``: the active players (a rated match in the family within
  :data:`.service.ACTIVE_DAYS`) whose rating is no longer provisional, best first, and the bots' anchored levels beside
  them as landmarks.

An unknown or deleted account is 404, as is a family that is not an edition; a bound overstepped is 422 and names
the field.
"""

from __future__ import annotations

import asyncio
import re
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..accounts.session import USERNAME
from ..accounts.signin import signed_in
from ..answers import unprocessable
from ..apidoc import ok, refusals
from ..archive.routes import read_cursor
from ..deps import AccountsDep, DatabaseDep, SettingsDep
from .service import ACTIVE_DAYS, GAMES_DEFAULT, GAMES_MAX, LEADERS_DEFAULT, LEADERS_MAX, Viewer, leaders, profile
from .skill import FAMILIES, bot_anchors

router = APIRouter(tags=["ratings"])


def _missing(what: str) -> JSONResponse:
    return JSONResponse({"detail": f"no {what}", "code": "not-found"}, status_code=404)


@router.get(
    "/api/players/{username}",
    responses=ok("The player's profile: ratings, bots, games (a page of them).")
    | refusals(
        404, 422, r404="No player of that name (`not-found`).", r422="A `before` cursor this server did not give."
    ),
)
async def player(
    username: str,
    request: Request,
    db: DatabaseDep,
    accounts: AccountsDep,
    settings: SettingsDep,
    limit: Annotated[int, Query(ge=1, le=GAMES_MAX)] = GAMES_DEFAULT,
    before: Annotated[str | None, Query(max_length=200)] = None,
):
    """A player's profile: public, but for the private games it lists to the account itself."""
    key = None
    if before is not None and (key := read_cursor(before)) is None:
        return unprocessable("before", "not a cursor this server gave")
    if not re.fullmatch(USERNAME, username):
        return _missing(f"player {username[:40]!r}")
    found = await asyncio.to_thread(accounts.credentials, username)
    if found is None:
        return _missing(f"player {username!r}")
    account = found[0]
    session = await signed_in(request, accounts, settings.limits)
    viewer = Viewer(account, session is not None and session.account.id == account.id)
    body = await asyncio.to_thread(profile, db, viewer, limit, key)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.get(
    "/api/leaderboard/{family}",
    responses=ok("The edition family's leaders, with the built-in bots' ratings as landmarks.")
    | refusals(404, 422, r404="No edition family of that name (`not-found`)."),
)
async def leaderboard(
    family: str, accounts: AccountsDep, limit: Annotated[int, Query(ge=1, le=LEADERS_MAX)] = LEADERS_DEFAULT
):
    """The edition's leaderboard, with the bots' anchored ratings as landmarks."""
    if family not in FAMILIES:
        return _missing(f"edition {family[:40]!r}: the editions are {', '.join(FAMILIES)}")
    players = await asyncio.to_thread(leaders, accounts, family, limit)
    bots = [{"level": level, "rating": rating} for level, rating in bot_anchors(family).items()]
    return JSONResponse(
        {"family": family, "active_days": ACTIVE_DAYS, "players": players, "bots": bots},
        headers={"Cache-Control": "public, max-age=60"},
    )
