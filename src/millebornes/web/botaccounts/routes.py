"""A person's bot accounts (docs/web-api.md, "Bots online"): made, listed, their token renewed or revoked, deleted;
the page is /account/bots.  Every change is guarded as the account's own are (web/accounts/signin.py: this site's pages
only, JSON, the sign-in's CSRF token), and a token is shown once, in the answer that makes it: only its SHA-256 is
kept (:mod:`.repo`).  The bots' WebSocket is :mod:`.socket`'s, included here so the app adds one router.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..accounts.repo import Accounts, Taken
from ..accounts.session import USERNAME, Empty, Username, address, answer, session_of, throttled
from ..accounts.signin import refusal
from ..apidoc import CHANGE, SIGNED_IN, ok, refusals
from ..deps import AccountsDep, DatabaseDep, GatewayDep, HallDep, SettingsDep
from ..settings import Settings
from ..tables.facts import iso
from . import socket
from .gateway import TABLES_AT_ONCE, Gateway
from .repo import Bot, Bots, TooMany
from .service import ONLINE_DEFAULT, ONLINE_MAX, online

BOTS_PER_OWNER = 5

router = APIRouter(tags=["bots"])
router.include_router(socket.router)

BotName = Annotated[str, Path(pattern=USERNAME)]


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Username


class BotFacts(BaseModel):
    """A bot as its owner sees it (:func:`bot_entry`; the OpenAPI document's: the routes answer dicts)."""

    name: str
    created: str | None
    last_connected: str | None
    revoked: bool
    connected: bool


class OwnedBots(BaseModel):
    bots: list[BotFacts]
    most: int = Field(description="The bots one account may have.")


class MadeBot(BaseModel):
    bot: BotFacts
    token: str = Field(description="The bot's token, shown in this answer only: `mbb_` and 43 characters.")


class Rated(BaseModel):
    rating: int
    provisional: bool
    matches: int


class Accepts(BaseModel):
    """The challenges a bot takes, as its ``hello`` said (null: any)."""

    editions: list[str] | None = None
    players: list[int] | None = None
    rated: bool = True
    casual: bool = True


class OnlineBot(BaseModel):
    name: str
    owner: str | None
    ratings: dict[str, Rated] = Field(description="By edition family, as a profile's.")
    busy: bool = Field(description="The bot plays as many tables as it may: a challenge would be refused.")
    accepts: Accepts | None = Field(None, description="What it accepts; absent: anything.")


class OnlineBots(BaseModel):
    bots: list[OnlineBot]
    most: int


def bot_entry(bot: Bot, connected: bool) -> dict:
    """What the owner sees of a bot: never its token (nor its hash)."""
    return {
        "name": bot.username,
        "created": iso(bot.created),
        "last_connected": iso(bot.last_connected),
        "revoked": bot.revoked,
        "connected": connected,
    }


def _connected(gateway: Gateway, bot: Bot) -> bool:
    """Connected to this process, or to another one as the bot's row says (web/botaccounts/gateway.py)."""
    session = gateway.sessions.get(bot.account_id)
    return bot.connected or (session is not None and not session.closing)


def _no_bot(name: str) -> JSONResponse:
    return refusal(404, "no-bot", f"you have no bot named {name}")


@router.get("/api/account/bots", responses=ok("The owner's bots, never a token.", OwnedBots) | refusals(*SIGNED_IN))
async def list_bots(request: Request, accounts: AccountsDep, settings: SettingsDep, gateway: GatewayDep):
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        session.headers["Cache-Control"] = "no-store"
        return session
    bots = await asyncio.to_thread(Bots(accounts.db).owned, session.account.id)
    return answer({"bots": [bot_entry(b, _connected(gateway, b)) for b in bots], "most": BOTS_PER_OWNER})


@router.get(
    "/api/bots/online",
    responses=ok("The bots connected now, the latest first: public facts only.", OnlineBots) | refusals(422),
)
async def bots_online(db: DatabaseDep, limit: Annotated[int, Query(ge=1, le=ONLINE_MAX)] = ONLINE_DEFAULT):
    """The bots a person may challenge now, for anybody (the home page's seat choice): public facts only."""
    bots = await asyncio.to_thread(online, db, limit, TABLES_AT_ONCE)
    return JSONResponse({"bots": bots, "most": ONLINE_MAX}, headers={"Cache-Control": "no-store"})


@router.post(
    "/api/account/bots",
    status_code=201,
    responses=ok("The bot, and its token (shown once).", MadeBot, 201)
    | refusals(*CHANGE, 409, 422, 429, r409="The name is taken (`taken`), or the owner has 5 bots (`too-many-bots`)."),
)
async def create_bot(body: NewBot, request: Request, accounts: AccountsDep, settings: SettingsDep, gateway: GatewayDep):
    """A new bot account and its token, shown in this answer only."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    throttle = gateway.creations
    wait = throttle.take(session.account.id)
    if wait is not None:
        return throttled(wait, throttle.per_minute, "new bots from one account")
    try:
        bot, token = await asyncio.to_thread(
            Bots(accounts.db).create, session.account.id, body.username, BOTS_PER_OWNER, address(request)
        )
    except Taken:
        return refusal(409, "taken", f"username {body.username} is taken")
    except TooMany:
        return refusal(409, "too-many-bots", f"one account has at most {BOTS_PER_OWNER} bots")
    return answer({"bot": bot_entry(bot, False), "token": token}, 201)


async def _owned(
    name: str, request: Request, accounts: Accounts, settings: Settings
) -> tuple[Bots, Bot] | JSONResponse:
    """The signed-in person's bot of that name for a change to it, or the refusal to answer (the guards of
    accounts.py, then 404 ``no-bot`` for a bot they do not own)."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    bots = Bots(accounts.db)
    bot = await asyncio.to_thread(bots.of_owner, session.account.id, name)
    return (bots, bot) if bot is not None else _no_bot(name)


@router.post(
    "/api/account/bots/{name}/token",
    responses=ok("The bot and its new token (shown once).", MadeBot)
    | refusals(*CHANGE, 404, r404="You have no bot of that name (`no-bot`)."),
)
async def renew_token(
    name: BotName,
    body: Empty,
    request: Request,
    accounts: AccountsDep,
    settings: SettingsDep,
    gateway: GatewayDep,
    hall: HallDep,
):
    """A new token; the old one opens nothing from now on, and a connection made with it is closed: the rated
    matches it was playing are lost (web/tables/forfeits.py)."""
    owned = await _owned(name, request, accounts, settings)
    if isinstance(owned, JSONResponse):
        return owned
    bots, bot = owned
    await hall.leave_rated([bot.account_id], "revoked")
    token = await asyncio.to_thread(bots.renew, bot.account_id)
    gateway.kick(bot.account_id, "the bot's token was renewed")
    return answer({"bot": bot_entry(bot, False) | {"revoked": False}, "token": token})


@router.delete(
    "/api/account/bots/{name}/token",
    responses=ok("The bot, its token revoked.")
    | refusals(*CHANGE, 404, r404="You have no bot of that name (`no-bot`)."),
)
async def revoke_token(
    name: BotName,
    body: Empty,
    request: Request,
    accounts: AccountsDep,
    settings: SettingsDep,
    gateway: GatewayDep,
    hall: HallDep,
):
    """No token opens the bot any more (until one is renewed), and its connection is closed: the rated matches it
    was playing are lost (web/tables/forfeits.py)."""
    owned = await _owned(name, request, accounts, settings)
    if isinstance(owned, JSONResponse):
        return owned
    bots, bot = owned
    await hall.leave_rated([bot.account_id], "revoked")
    await asyncio.to_thread(bots.revoke, bot.account_id)
    gateway.kick(bot.account_id, "the bot's token was revoked")
    return answer({"bot": bot_entry(bot, False) | {"revoked": True}})


@router.delete(
    "/api/account/bots/{name}",
    responses=ok("Deleted.") | refusals(*CHANGE, 404, r404="You have no bot of that name (`no-bot`)."),
)
async def delete_bot(
    name: BotName,
    body: Empty,
    request: Request,
    accounts: AccountsDep,
    settings: SettingsDep,
    gateway: GatewayDep,
    hall: HallDep,
):
    """The bot's account goes (its games stay, anonymised, as a person's do), its connection closed; the rated
    matches it was playing are lost first, while its account is there to be rated (web/tables/forfeits.py)."""
    owned = await _owned(name, request, accounts, settings)
    if isinstance(owned, JSONResponse):
        return owned
    bots, bot = owned
    await hall.leave_rated([bot.account_id], "deleted")
    gateway.kick(bot.account_id, "the bot was deleted")
    await asyncio.to_thread(bots.delete, bot.account_id)
    return answer({"deleted": True})
