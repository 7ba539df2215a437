"""The game review's JSON API (docs/web-api.md, "Game review"): start a finished table's review, and follow it.

``POST /api/tables/{id}/review`` starts it (or joins the one running, or gives the one done) and
``GET`` tells where it is: ``{"state": "none"|"running"|"done"|"failed", "done", "total"}``, with the review
once done.  A review holds nothing a finished replay does not show (every hand is open then), and is
shown to whoever may see the replay: anybody for a public table, its players for a private one.  Both answers say
``yours``: the seats the request is known to hold (their link's token, or the account that held them), which the
page words as "your mistakes".
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..apidoc import ok, refusals
from ..deps import ReviewerDep, TablesDep
from ..errors import NoTable, NotFinished, ReviewsBusy
from ..tables import privacy
from ..tables.creation import brief, shown
from . import puzzle_routes
from .service import RETRY_AFTER

router = APIRouter(tags=["reviews"])
router.include_router(puzzle_routes.router)


def no_table(table_id: str) -> JSONResponse:
    return JSONResponse({"detail": f"no table {shown(table_id)}"}, status_code=404)


@router.get(
    "/api/tables/{table_id}/review",
    responses=ok("Where the review is, the review once done, and the seats the request holds.")
    | refusals(403, 404, r403="A private table, without one of its seats' tokens (`private`)."),
)
async def review_state(table_id: str, request: Request, reviewer: ReviewerDep, tables: TablesDep):
    if (no := await privacy.refused(tables, table_id, request)) is not None:
        return no
    try:
        state = await reviewer.state(table_id)
    except NoTable:
        return no_table(table_id)
    return {**state, "yours": await privacy.held_seats(tables, table_id, request)}


@router.post(
    "/api/tables/{table_id}/review",
    responses=ok("The review, done.")
    | {202: {"description": "The review is under way: how far it is."}}
    | refusals(
        403,
        404,
        409,
        503,
        r403="A private table, without one of its seats' tokens (`private`).",
        r409="The table is not finished (`not-finished`).",
        r503="Busy (`busy`).",
    ),
)
async def start_review(table_id: str, request: Request, reviewer: ReviewerDep, tables: TablesDep):
    """202 while the review runs, 200 once done; 409 for a match not over, 503 when the server is busy; 403
    for a private table without one of its seats' tokens."""
    if (no := await privacy.refused(tables, table_id, request)) is not None:
        return no
    try:
        state = await reviewer.start(table_id)
    except NoTable:
        return no_table(table_id)
    except NotFinished as exc:
        return JSONResponse({"detail": brief(str(exc)), "code": "not-finished"}, status_code=409)
    except ReviewsBusy as exc:
        return JSONResponse(
            {"detail": str(exc), "code": "busy"}, status_code=503, headers={"Retry-After": str(RETRY_AFTER)}
        )
    yours = await privacy.held_seats(tables, table_id, request)
    return JSONResponse({**state, "yours": yours}, status_code=200 if state["state"] == "done" else 202)
