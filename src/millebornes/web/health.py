"""``/healthz``: up means the database takes a write too (a proxy or an orchestrator asks it; docs/deploy.md)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from .apidoc import ok
from .deps import DatabaseDep, HallDep

router = APIRouter(tags=["health"])


class Health(BaseModel):
    ok: bool
    rooms: int | None = Field(None, description="The tables in memory (when up).")


HEALTH_SECONDS = 5.0


@router.get(
    "/healthz",
    responses=ok("Up: a move could be saved now.", Health)
    | {503: {"model": Health, "description": "The database does not take a write now: `ok` false."}},
)
async def healthz(db: DatabaseDep, hall: HallDep):
    """Up means the database answers too; ``rooms``: how many tables are in memory."""
    try:
        await asyncio.wait_for(asyncio.to_thread(db.ping), HEALTH_SECONDS)
    except Exception:
        return JSONResponse({"ok": False}, status_code=503)
    return {"ok": True, "rooms": len(hall.rooms)}
