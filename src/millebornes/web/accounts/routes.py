"""The accounts' JSON API (docs/web-api.md, "Accounts"): sign up, sign in and out, what the account holds, its tables
claimed from a guest's links, its data exported, and the account deleted.

Nobody needs an account to play.  Every answer that concerns a sign-in is ``Cache-Control: no-store``; every
refusal has a ``code`` the page turns into words (the catalog's ``account.error.*``), and a ``detail`` in English
for programs.  How the cookie and the changes are guarded: web/accounts/signin.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..botaccounts.repo import Bots
from ..db.base import now
from ..deps import AccountsDep, SettingsDep, SignInThrottlesDep
from ..ratings.repo import Ratings
from ..ratings.skill import Rating
from ..tables.facts import iso
from . import passkey_routes
from .passkey_repo import Passkeys
from .passkey_routes import passkey_entry
from .repo import HeldSeat, Taken
from .session import (
    Empty,
    Links,
    Username,
    address,
    answer,
    claim_seats,
    session_of,
    throttled,
    welcome,
)
from .signin import (
    check_password,
    clear_cookie,
    cross_site,
    hash_password,
    refusal,
)

PASSWORD_MIN, PASSWORD_MAX = 8, 256
router = APIRouter()
router.include_router(passkey_routes.router)

Password = Annotated[str, StringConstraints(strict=True, min_length=PASSWORD_MIN, max_length=PASSWORD_MAX)]


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Username
    password: Password
    seats: Links = Field(default_factory=list)
    """The guest tables of this browser, claimed into the new account."""


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=32)]
    password: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=PASSWORD_MAX)]
    seats: Links = Field(default_factory=list)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: Links


class Delete(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=PASSWORD_MAX)]


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def seat_entry(h: HeldSeat) -> dict:
    """What "My tables" shows of a seat the account holds: never a token (a seat is opened from the account)."""
    return {
        "table": h.table_id,
        "seat": h.seat,
        "ruleset": h.ruleset,
        "players": h.players,
        "teams": h.teams,
        "status": h.status,
        "public": h.public,
        "created": iso(h.created),
        "finished": iso(h.finished),
        "scores": h.scores,
        "winners": h.winners,
        "nickname": h.nickname,
    }


def ratings_entry(ratings: dict[str, Rating]) -> dict:
    """The account's rating per edition family it played rated (docs/web-api.md, "Ratings")."""
    return {
        family: {"rating": r.display, "provisional": r.provisional, "matches": r.matches}
        for family, r in sorted(ratings.items())
    }


@router.post("/api/account/signup", status_code=201)
async def sign_up(
    body: SignUp, request: Request, accounts: AccountsDep, settings: SettingsDep, throttles: SignInThrottlesDep
):
    if (refused := cross_site(request)) is not None:
        return refused
    wait = throttles.signups.take(address(request))
    if wait is not None:
        return throttled(wait, throttles.signups.per_minute, "new accounts from one address")
    if body.password.casefold() == body.username.casefold():
        return refusal(422, "password-is-name", "password: not the username")
    digest = await hash_password(body.password)
    try:
        account = await asyncio.to_thread(accounts.create, body.username, digest)
    except Taken:
        return refusal(409, "taken", f"username {body.username} is taken")
    held = await claim_seats(accounts, account.id, body.seats)
    return await welcome(request, accounts, settings, account.id, account.username, held, 201)


@router.post("/api/account/signin")
async def sign_in(
    body: SignIn, request: Request, accounts: AccountsDep, settings: SettingsDep, throttles: SignInThrottlesDep
):
    if (refused := cross_site(request)) is not None:
        return refused
    for throttle, key, what in (
        (throttles.by_address, address(request), "sign-ins from one address"),
        (throttles.by_name, body.username.casefold(), "sign-ins to one account"),
    ):
        wait = throttle.take(key)
        if wait is not None:
            return throttled(wait, throttle.per_minute, what)
    found = await asyncio.to_thread(accounts.credentials, body.username)
    right, rehashed = await check_password(found[1] if found else None, body.password)
    if found is None or not right:
        return refusal(401, "wrong", "wrong username or password")
    account = found[0]
    if rehashed is not None:
        await asyncio.to_thread(accounts.rehash, account.id, rehashed)
    held = await claim_seats(accounts, account.id, body.seats)
    return await welcome(request, accounts, settings, account.id, account.username, held, 200)


@router.post("/api/account/signout")
async def sign_out(body: Empty, request: Request, accounts: AccountsDep, settings: SettingsDep):
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    await asyncio.to_thread(accounts.close_session, session.token_hash)
    response = answer({"signed_out": True})
    clear_cookie(response, request)
    return response


@router.get("/api/account")
async def account(request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Who is signed in, the CSRF token their page sends with every change, the seats the account holds and its
    passkeys."""
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        return _no_store(session)
    seats, passkeys, ratings = await asyncio.gather(
        asyncio.to_thread(accounts.seats, session.account.id, settings.limits.account_seats),
        asyncio.to_thread(Passkeys(accounts.db).listed, session.account.id),
        asyncio.to_thread(Ratings(accounts.db).of, session.account.id),
    )
    return answer(
        {
            "username": session.account.username,
            "created": iso(session.account.created),
            "csrf": session.csrf,
            "seats": [seat_entry(h) for h in seats],
            "passkeys": [passkey_entry(p) for p in passkeys],
            "ratings": ratings_entry(ratings),
        }
    )


@router.post("/api/account/claim")
async def claim(body: Claim, request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Bring seats this browser holds as a guest (their links' tokens) into the account."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    return answer({"claimed": await claim_seats(accounts, session.account.id, body.seats)})


@router.get("/api/account/export")
async def export(request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Everything the server keeps of the account, as a JSON file: never a token nor the password's hash."""
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        return _no_store(session)
    account_id = session.account.id
    seats, sessions, passkeys, ratings, changes = await asyncio.gather(
        asyncio.to_thread(accounts.seats, account_id, 10**9),
        asyncio.to_thread(accounts.sessions, account_id),
        asyncio.to_thread(Passkeys(accounts.db).listed, account_id),
        asyncio.to_thread(Ratings(accounts.db).of, account_id),
        asyncio.to_thread(Ratings(accounts.db).history, account_id, 10**9),
    )
    body = {
        "format": "millebornes-account-1",
        "exported": iso(now()),
        "username": session.account.username,
        "created": iso(session.account.created),
        "sign_ins": [{k: iso(v) for k, v in s.items()} for s in sessions],
        "seats": [seat_entry(h) for h in seats],
        "passkeys": [passkey_entry(p) for p in passkeys],
        "ratings": ratings_entry(ratings),
        "rated_matches": [
            {"table": c.table_id, "family": c.family, "before": c.before, "after": c.after, "at": iso(c.at)}
            for c in changes
        ],
    }
    return Response(
        json.dumps(body, indent=1, ensure_ascii=False),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="millebornes-{session.account.username}.json"',
            "Cache-Control": "no-store",
        },
    )


@router.delete("/api/account")
async def delete_account(body: Delete, request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Delete the account, its password asked again: its sign-ins go, its games stay without its name."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    stored = await asyncio.to_thread(accounts.password_hash, session.account.id)
    right, _ = await check_password(stored, body.password)
    if not right:
        return refusal(401, "wrong", "wrong password")
    await asyncio.to_thread(Bots(accounts.db).delete_owned, session.account.id)  # the person's bots go with them
    await asyncio.to_thread(accounts.delete, session.account.id)
    response = answer({"deleted": True})
    clear_cookie(response, request)
    return response
