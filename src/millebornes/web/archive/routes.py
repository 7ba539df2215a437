"""The public archive (docs/web-api.md, "Public archive"): every finished public table as its record, for download.

``GET /api/tables/{id}/record`` is one finished table's record (a private one's for its players only:
web/tables/privacy.py); ``GET /api/archive`` pages through every finished public table as NDJSON, oldest finish first,
with an opaque cursor; ``GET /api/archive/{YYYY-MM}.ndjson`` is one month's in one file.  A record is the engine's
own (``mb.replay`` plays it back) plus a ``table`` member of what the server knows of it: never a nickname, a
token or its hash.  The bodies are streamed from the database a page at a time, so an archive of any size costs
the server one page of memory per download.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import re
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from ...notation import RECORD_FORMAT
from ...rules import ruleset
from ..answers import rate_limited, unprocessable
from ..apidoc import ok, refusals
from ..db.base import now
from ..deps import ArchiveDep, SettingsDep, TablesDep
from ..tables.creation import shown
from ..tables.facts import iso
from ..tables.privacy import may_open, private
from ..tables.rows import FINISHED, SavedTable
from .repo import Archive

router = APIRouter(tags=["archive"])

NDJSON = "application/x-ndjson"
PAGE = 50
"""Tables read from the database at once while a body streams: what one download holds in memory."""
DEFAULT_LIMIT = 100
CURSOR_CHARS = 120
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
PAST_MONTH_CACHE = "public, max-age=86400"

Key = tuple[datetime, str]
"""Where a table stands in the archive: its finish time (UTC), then its id."""


def standins(saved: SavedTable) -> list[dict[str, int]]:
    """The stretches of actions a stand-in bot played for an absent human, from the table's log notes: the
    seat's actions numbered from ``from`` up to, not including, ``until`` were the bot's."""
    since: dict[int, int] = {}
    out: list[dict[str, int]] = []
    for at, note in saved.notes:
        seat = note.get("seat")
        if not isinstance(seat, int):
            continue
        if note.get("type") == "standin":
            since.setdefault(seat, at)
        elif note.get("type") == "back" and seat in since:
            out.append({"seat": seat, "from": since.pop(seat), "until": at})
    out += [{"seat": seat, "from": at, "until": len(saved.actions)} for seat, at in since.items()]
    return sorted(out, key=lambda s: (s["from"], s["seat"]))


def archived(saved: SavedTable) -> dict[str, Any]:
    """A finished table's record: the engine's members, every rule option written out (a later version's
    defaults cannot change what was played), and the table's facts.  The seed is there because the replay
    needs it; it was drawn for this table alone, and once the match is over it shows nothing the replay does
    not, but the order of the cards nobody drew."""
    return {
        "format": RECORD_FORMAT,
        "ruleset": saved.ruleset,
        "options": ruleset(saved.ruleset, **saved.options).options(),
        "players": saved.players,
        "teams": saved.teams,
        "seed": saved.seed,
        "deck": saved.deck,
        "actions": [action for _, action in saved.actions],
        "table": {
            "id": saved.id,
            "created": iso(saved.created),
            "finished": iso(saved.finished),
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level} for s in saved.seats],
            "standins": standins(saved),
            "scores": saved.scores,
            "winners": saved.winners,
            "casual": saved.casual,
        },
    }


def line(saved: SavedTable) -> str:
    return json.dumps(archived(saved), separators=(",", ":")) + "\n"


def cursor(key: Key) -> str:
    at, table_id = key
    return base64.urlsafe_b64encode(f"{at.isoformat(timespec='microseconds')} {table_id}".encode()).decode().rstrip("=")


def read_cursor(text: str) -> Key | None:
    """The key a cursor of :func:`cursor` names, or None for anything that is not one."""
    if len(text) > CURSOR_CHARS:
        return None
    try:
        at, _, table_id = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode().partition(" ")
        key = datetime.fromisoformat(at), table_id
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    if key[0].tzinfo is not None or not TABLE_ID.fullmatch(table_id) or cursor(key) != text:
        return None
    return key


async def stream(
    archive: Archive, after: Key | None, upto: Key | None, since: datetime | None = None, before: datetime | None = None
) -> AsyncIterator[str]:
    """Every archived table after ``after`` and up to ``upto`` (finished from ``since`` and before ``before``),
    one line each, read :data:`PAGE` tables at a time, each page its own short transaction in a thread."""

    def page(start: Key | None) -> tuple[list[str], Key | None]:
        tables = archive.page(start, PAGE, upto, since, before)
        last = tables[-1] if len(tables) == PAGE else None
        return [line(t) for t in tables], None if last is None or last.finished is None else (last.finished, last.id)

    while True:
        lines, after = await asyncio.to_thread(page, after)
        for text in lines:
            yield text
        if after is None:
            return


def throttled(request: Request) -> JSONResponse | None:
    """The 429 of an address past ``Limits.archive_per_minute`` downloads (its request counted otherwise)."""
    throttle = request.app.state.archive_throttle
    wait = throttle.take(request.client.host if request.client else "")
    return None if wait is None else rate_limited(wait, throttle.per_minute, "archive downloads")


@router.get(
    "/api/tables/{table_id}/record",
    responses=ok("The table's record, as a JSON file.")
    | refusals(
        403,
        404,
        r403="A private table, without one of its seats' tokens (`private`).",
        r404="No finished table of that id.",
    ),
)
async def table_record(table_id: str, request: Request, tables: TablesDep):
    """A finished table's record as a file; a private table's for its players only (web/tables/privacy.py)."""
    saved = await asyncio.to_thread(tables.get, table_id, True)
    if saved is None or saved.status != FINISHED:
        return JSONResponse({"detail": f"no finished table {shown(table_id)}"}, status_code=404)
    if not await may_open(saved.public, [s.token_hash for s in saved.seats if s.kind == "human"], request, table_id):
        return private()
    return JSONResponse(
        archived(saved),
        headers={
            "Content-Disposition": f'attachment; filename="millebornes-{saved.id}.json"',
            "Cache-Control": "public, max-age=86400" if saved.public else "private, no-store",
        },
    )


@router.get(
    "/api/archive",
    responses=ok("One record a line; the next page's address in `Link`.", media_type=NDJSON) | refusals(422, 429),
)
async def archive(
    request: Request,
    archive: ArchiveDep,
    settings: SettingsDep,
    limit: int = DEFAULT_LIMIT,
    after: Annotated[str | None, Query()] = None,
):
    """One page of the archive, oldest finish first.  The page's last table, and whether any follows it, are
    read before the body, so the next page's link is in the headers and the page holds exactly what the link
    says it ends with, whatever finishes while it streams."""
    if not 1 <= limit <= settings.limits.archive_max:
        return unprocessable("limit", f"from 1 to {settings.limits.archive_max}")
    if (refused := throttled(request)) is not None:
        return refused
    start = None if after is None else read_cursor(after)
    if after is not None and start is None:
        return unprocessable("after", "not a cursor of this archive: take the one a Link header gave")
    end, more = await asyncio.to_thread(archive.end, start, limit)
    headers = {"Cache-Control": "no-cache"}
    if more and end is not None:
        headers["Link"] = f'<{request.url.path}?limit={limit}&after={cursor(end)}>; rel="next"'
    if end is None:
        return Response(b"", media_type=NDJSON, headers=headers)
    return StreamingResponse(stream(archive, start, end), media_type=NDJSON, headers=headers)


@router.get(
    "/api/archive/{month}.ndjson",
    responses=ok("The month's records, one a line, as a file.", media_type=NDJSON)
    | refusals(404, 422, 429, r404="The month has not begun."),
)
async def archive_month(month: str, request: Request, archive: ArchiveDep):
    """Every public table finished in one month (UTC) as one file; a month gone by no longer changes, so it may
    be cached."""
    found = MONTH.fullmatch(month)
    if found is None or not 1 <= int(found[2]) <= 12 or int(found[1]) < 1:
        return unprocessable("month", f"{shown(month)} is not a month: YYYY-MM, e.g. 2025-04")
    if (refused := throttled(request)) is not None:
        return refused
    year, number = int(found[1]), int(found[2])
    since = datetime(year, number, 1)
    today = now()
    if since > today:
        return JSONResponse({"detail": f"the month {month} has not begun: no archive for it yet"}, status_code=404)
    before = datetime(year + number // 12, number % 12 + 1, 1)  # a month that has begun is before year 9999's end
    headers = {
        "Content-Disposition": f'attachment; filename="millebornes-{month}.ndjson"',
        "Cache-Control": PAST_MONTH_CACHE if before <= today else "no-cache",
    }
    return StreamingResponse(stream(archive, None, None, since, before), media_type=NDJSON, headers=headers)
