"""Puzzles' JSON API (docs/web-api.md, "Puzzles"): the set (shipped, then grown from real games), a signed-in
player's own, and a reviewed table's mistakes of one seat, each told whether it is the asker's.

``GET /api/puzzles`` is the set that comes with the package (:func:`millebornes.puzzles.shipped`) followed by the
newest puzzles of public games (:meth:`.puzzle_repo.Grown.public`: no table, no name); ``GET /api/puzzles/mine``
the signed-in account's own (:meth:`.puzzle_repo.Grown.mine`); ``GET /api/tables/{id}/puzzles?seat=N`` makes
puzzles of that seat's inaccuracies and worse in the table's review, each position as its frames showed it
(:func:`.service.decisions`), for whoever may see the replay, with ``yours`` when the request holds that seat
(:func:`..tables.privacy.held_seats`) and the seats' names as the table showed them.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ... import puzzles as P
from ..accounts.signin import signed_in
from ..apidoc import ok, refusals
from ..deps import AccountsDep, GrownDep, ReviewerDep, SettingsDep, TablesDep
from ..tables import privacy
from ..tables.creation import shown
from ..tables.rows import SavedTable
from .service import decisions

router = APIRouter()  # tagged "reviews" by the reviews router that includes it


@router.get("/api/puzzles", responses=ok("The puzzle set: the shipped ones, then the newest from public games."))
async def puzzle_set(grown: GrownDep):
    """The shipped set first (a newcomer's start), then the newest from public games."""
    games = await asyncio.to_thread(grown.public)
    base = P.shipped()
    puzzles = [{**p, "source": "shipped"} for p in base["puzzles"]] + games
    return JSONResponse(
        {"format": base["format"], "worlds": base["worlds"], "seed": base["seed"], "puzzles": puzzles},
        headers={"Cache-Control": "public, max-age=300"},
    )


@router.get("/api/puzzles/mine", responses=ok("The signed-in account's own puzzles (none signed out)."))
async def my_puzzles(request: Request, grown: GrownDep, accounts: AccountsDep, settings: SettingsDep):
    """Signed out: none, and ``signed_in`` false (a page asks without knowing; nothing is refused)."""
    session = await signed_in(request, accounts, settings.limits)
    made = [] if session is None else await asyncio.to_thread(grown.mine, session.account.id)
    return JSONResponse(
        {"format": P.PUZZLE_FORMAT, "signed_in": session is not None, "puzzles": made},
        headers={"Cache-Control": "private, no-store"},
    )


def seat_names(table: SavedTable) -> list[dict]:
    """The seats as the table showed them (GET /api/tables/{id} says as much): a nickname, or a bot's level."""
    return [{"seat": s.seat, "kind": s.kind, "level": s.level, "nickname": s.nickname} for s in table.seats]


@router.get(
    "/api/tables/{table_id}/puzzles",
    responses=ok("That seat's mistakes in the table's review, as puzzles.")
    | refusals(
        403,
        404,
        422,
        r403="A private table, without one of its seats' tokens (`private`).",
        r404="No review of that table yet (`no-review`).",
    ),
)
async def table_puzzles(
    table_id: str, request: Request, tables: TablesDep, reviewer: ReviewerDep, seat: Annotated[int, Query(ge=0, le=7)]
):
    """404 without such a table or before its review is done (``code`` ``no-review``); 403 for a private
    table without one of its seats' tokens."""
    if (no := await privacy.refused(tables, table_id, request)) is not None:
        return no
    reviewed = await asyncio.to_thread(reviewer.reviews.get, table_id)
    table = await asyncio.to_thread(tables.get, table_id, True) if reviewed is not None else None
    if reviewed is None or table is None:
        return JSONResponse(
            {"detail": f"no review of table {shown(table_id)}: review it first", "code": "no-review"}, status_code=404
        )
    if seat >= table.players:
        return JSONResponse({"detail": f"no seat {seat} at this table", "field": "seat"}, status_code=422)
    record = table.record()
    seen = {index: obs for obs, index, _ in (await asyncio.to_thread(decisions, record))[0]}
    made = P.from_review(record, reviewed, seat, seen)
    yours = seat in await privacy.held_seats(tables, table_id, request)
    return JSONResponse(
        {
            "format": P.PUZZLE_FORMAT,
            "table": table_id,
            "seat": seat,
            "yours": yours,
            "seats": seat_names(table),
            "puzzles": made,
        },
        headers={"Cache-Control": "private, no-store"},
    )
