"""Puzzles' JSON API (docs/web-api.md, "Puzzles"): the shipped set, and a reviewed table's own mistakes as puzzles.

``GET /api/puzzles`` is the set that comes with the package (:func:`millebornes.puzzles.shipped`);
``GET /api/tables/{id}/puzzles?seat=N`` makes puzzles of that seat's inaccuracies and worse in the table's review,
each position as its frames showed it (:func:`.service.decisions`), for whoever may see the replay.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ... import puzzles as P
from ..deps import ReviewerDep, TablesDep
from ..tables import privacy
from ..tables.creation import shown
from .service import decisions

router = APIRouter()


@router.get("/api/puzzles")
async def shipped_puzzles():
    return JSONResponse(P.shipped(), headers={"Cache-Control": "public, max-age=300"})


@router.get("/api/tables/{table_id}/puzzles")
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
    return {"format": P.PUZZLE_FORMAT, "table": table_id, "seat": seat, "puzzles": made}
