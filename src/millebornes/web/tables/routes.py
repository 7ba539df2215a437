"""The tables' JSON API (docs/web-api.md): creating a table (:class:`.service.Creation`), a table's public facts, the
lobby of open public tables and the claim of a free seat there, a guided tutorial match, the history of finished
public tables, a finished table's replay (a private one's for its players: :mod:`.privacy`).

Blocking database calls run in a thread, so a slow disk never stalls the tables' event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ... import tutorial
from ...notation import replay
from ...state import Game
from ..answers import rate_limited, unprocessable
from ..apidoc import ok, refusals
from ..db.base import now
from ..deps import ClaimThrottleDep, CreationDep, GatewayDep, HallDep, SettingsDep, TablesDep, ThrottleDep
from ..errors import Throttled, Unprocessable, expired
from ..tokens import hash_token, new_token
from . import socket
from .creation import MAX_SEATS, CreateTable, shown
from .facts import dealt, iso, public_events, shown_game, table_facts, view_of
from .privacy import may_open, private
from .rows import EXPIRED, FINISHED, WAITING, SavedSeat, SavedTable, new_table_id

router = APIRouter(tags=["tables"])
router.include_router(socket.router)


class SeatMade(BaseModel):
    """A seat of a new table as its creator is told it (the OpenAPI document's; the route answers a dict)."""

    seat: int
    kind: Literal["human", "bot", "bot-account"]
    url: str | None = Field(
        None, description="A person's seat link, its token in the fragment: `/t/ID#seat=N&token=...`"
    )
    level: str | None = Field(None, description="A built-in bot's level.")
    name: str | None = Field(None, description="A challenged bot account's name.")
    answer_within: float | None = Field(None, description="The seconds the bot account has to accept.")


class NewTable(BaseModel):
    id: str
    seats: list[SeatMade]


class SeatLinkMade(BaseModel):
    """A seat's link (a tutorial's learner, a claimed seat): its token is in the fragment, for that person alone."""

    id: str
    seat: int | None = None
    url: str = Field(description="`/t/ID#seat=N&token=...`")


def lobby_entry(saved: SavedTable) -> dict:
    """What the lobby shows of an open public table: its edition and options, who sits where and which
    human seats are free; never a token, nor the nickname of a seat nobody joined."""
    game = dealt(saved)
    seats = [
        {"seat": s.seat, "kind": s.kind, "level": s.level, "nickname": s.nickname if s.joined else None, "free": s.free}
        for s in saved.seats
    ]
    return {
        "id": saved.id,
        "ruleset": saved.ruleset,
        "options": game.ruleset.options(),
        "players": game.players,
        "teams": game.teams,
        "sides": [list(x) for x in game.sides],
        "cf_timeout": saved.cf_timeout,
        "spectators": saved.spectators,
        "seats": seats,
        "free": sum(s.free for s in saved.seats),
        "created": iso(saved.created),
        "rated": saved.rated,  # a stranger sees before sitting down that the match asks for an account
    }


def open_state(game) -> dict:
    """A replay's view: the public state with every hand shown (finished tables only)."""
    state = game.observation(0)
    for key in ("format", "seat", "side", "hand", "known_cards"):
        state.pop(key)
    state["hands"] = [game.hand(s) for s in range(game.players)]
    state["legal_actions"] = game.legal_actions()
    return state


@router.post(
    "/api/tables",
    status_code=201,
    responses=ok("The table's id and its seats: a person's link, a bot's level, a bot account's name.", NewTable, 201)
    | refusals(
        422, 429, r422="A field of the table refused; a bot account's seat: `code` `bot-offline`, `bot-busy`..."
    ),
)
async def create_table(body: CreateTable, request: Request, creation: CreationDep, gateway: GatewayDep):
    try:
        made = await creation.make(body, request.client.host if request.client else "")
    except Unprocessable as exc:
        return unprocessable(exc.field, exc.message, exc.code)
    except Throttled as t:
        return rate_limited(t.wait, t.per_minute, "new tables")
    saved, tokens, bots = made.table, made.tokens, made.bots
    await gateway.challenge(saved, bots)
    out: list[dict] = []
    for s in saved.seats:
        if s.seat in bots:  # its token is for nobody: the bot's account holds the seat
            out.append(
                {
                    "seat": s.seat,
                    "kind": "bot-account",
                    "name": bots[s.seat].name,
                    "answer_within": gateway.challenge_seconds,
                }
            )
        elif s.kind == "human":
            out.append({"seat": s.seat, "kind": "human", "url": f"/t/{saved.id}#seat={s.seat}&token={tokens[s.seat]}"})
        else:
            out.append({"seat": s.seat, "kind": "bot", "level": s.level})
    return {"id": saved.id, "seats": out}


@router.get("/api/tables/{table_id}", responses=ok("The table's public facts: never a token.") | refusals(404, 410))
async def table_info(table_id: str, tables: TablesDep, hall: HallDep, settings: SettingsDep):
    room = hall.rooms.get(table_id)
    if room is not None:
        return room.facts()

    def facts() -> tuple[SavedTable, Game] | None:
        """A table no room here holds (another process plays it, or it left memory): its scores as its seats
        were last shown them, so its actions are read and replayed unless it has not started or is over."""
        saved = tables.get(table_id)
        if saved is None or saved.status in (WAITING, EXPIRED, FINISHED):
            return None if saved is None else (saved, dealt(saved))
        saved = tables.get(table_id, True)
        return None if saved is None else (saved, shown_game(view_of(saved, settings.limits.log_events)))

    found = await asyncio.to_thread(facts)
    if found is None:
        return JSONResponse({"detail": f"no table {shown(table_id)}"}, status_code=404)
    saved, game = found
    if saved.status == EXPIRED:
        return JSONResponse({"detail": expired(settings).message, "code": "expired"}, status_code=410)
    return table_facts(saved, game, {})


@router.get("/api/lobby", responses=ok("The open public tables, newest first: never a token or a seat link."))
async def lobby(tables: TablesDep, settings: SettingsDep):
    """The open public tables, newest first, at most ``lobby_max`` (docs/web-api.md, "Lobby"); read and described
    in a thread (a page polls it every 10 s)."""

    def entries() -> list[dict]:
        return [lobby_entry(t) for t in tables.lobby(settings.limits.lobby_max)]

    return {"tables": await asyncio.to_thread(entries)}


@router.post(
    "/api/tutorial",
    status_code=201,
    responses=ok("The tutorial table's id and the learner's seat link.", SeatLinkMade, 201) | refusals(429),
)
async def create_tutorial(
    request: Request, settings: SettingsDep, tables: TablesDep, hall: HallDep, throttle: ThrottleDep
):
    """The guided first match (millebornes.tutorial): a private table of the learner and the tutor, on the
    lessons' stacked deck, one hand long, with the longest coup-fourré window a table may have."""
    wait = throttle.take(request.client.host if request.client else "")
    if wait is not None:
        return rate_limited(wait, throttle.per_minute, "new tables")
    token = new_token()
    saved = SavedTable(
        id=new_table_id(),
        ruleset=tutorial.EDITION,
        options=dict(tutorial.OPTIONS),
        players=2,
        teams=False,
        seed=0,
        deck=tutorial.deck(),
        cf_timeout=settings.limits.cf_timeout_max,
        status=WAITING,
        created=now(),
        seats=[
            SavedSeat(tutorial.LEARNER, "human", token_hash=hash_token(token)),
            SavedSeat(tutorial.TUTOR, "bot", level=tutorial.TUTOR_LEVEL, joined=True),
        ],
        spectators=False,
        clock=0.0,
        public=False,
    )
    saved = await asyncio.to_thread(tables.create, saved)
    hall.add(saved)
    return {"id": saved.id, "url": f"/t/{saved.id}#seat={tutorial.LEARNER}&token={token}"}


@router.post(
    "/api/tables/{table_id}/seats/{seat}/claim",
    responses=ok("The seat's link, with its new token.", SeatLinkMade)
    | refusals(404, 409, 422, 429, r404="No public table of that id.", r409="The seat is not free."),
)
async def claim_seat(
    table_id: str,
    seat: Annotated[int, Path(ge=0, lt=MAX_SEATS)],
    request: Request,
    tables: TablesDep,
    hall: HallDep,
    throttle: ClaimThrottleDep,
):
    """A free seat of an open public table for whoever asks first: a new token, its hash stored in place of
    the creation's, and the seat's link.  A private or unknown table is 404 alike (nothing told)."""
    facts = await asyncio.to_thread(tables.public_facts, table_id)
    if facts is None or not facts[0]:
        return JSONResponse({"detail": f"no public table {shown(table_id)}"}, status_code=404)
    wait = throttle.take(request.client.host if request.client else "")
    if wait is not None:
        return rate_limited(wait, throttle.per_minute, "claimed seats")
    token = new_token()
    if not await hall.claim(table_id, seat, hash_token(token)):
        return JSONResponse({"detail": f"seat {seat} of table {shown(table_id)} is not free"}, status_code=409)
    return {"id": table_id, "seat": seat, "url": f"/t/{table_id}#seat={seat}&token={token}"}


@router.get("/api/history", responses=ok("The finished public tables, newest first, as their facts.") | refusals(422))
async def history(tables: TablesDep, settings: SettingsDep, limit: int = 50):
    """The finished public tables (a private one is found in its players' own "My tables")."""
    if not 1 <= limit <= settings.limits.history_max:
        return unprocessable("limit", f"from 1 to {settings.limits.history_max}")
    saved = await asyncio.to_thread(tables.history, limit)
    return {"tables": [table_facts(t, dealt(t), {}) for t in saved]}


@router.get(
    "/api/tables/{table_id}/replay",
    responses=ok("One step of the replay: the action, its events, the whole table with every hand shown.")
    | refusals(403, 404, 422, r404="No finished table of that id.", r422="A step past the match's end."),
)
async def replay_step(table_id: str, request: Request, tables: TablesDep, step: Annotated[int, Query(ge=0)] = 0):
    """One step of a finished table's replay; a private table's for its players only (web/tables/privacy.py)."""
    saved = await asyncio.to_thread(tables.get, table_id, True)
    if saved is None or saved.status != FINISHED:
        return JSONResponse({"detail": f"no finished table {shown(table_id)}"}, status_code=404)
    if not await may_open(saved.public, [s.token_hash for s in saved.seats if s.kind == "human"], request, table_id):
        return private()
    total = len(saved.actions)
    if step > total:
        return unprocessable("step", f"this match has {total} steps")
    game = replay(saved.record(), max(0, step - 1))
    seat = action = None
    events: list[Mapping[str, Any]] = []
    if step:
        seat, action = saved.actions[step - 1]
        events = public_events(seat, action, game.act(action, seat))
    return {"step": step, "total": total, "action": action, "seat": seat, "events": events, "state": open_state(game)}
