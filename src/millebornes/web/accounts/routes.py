"""The accounts' JSON API (docs/web-api.md, "Accounts"): sign up, sign in and out, what the account holds, its tables
claimed from a guest's links, its password changed, its data exported, and the account deleted.

Nobody needs an account to play.  Every answer that concerns a sign-in is ``Cache-Control: no-store``; every
refusal has a ``code`` the page turns into words (the catalog's ``account.error.*``), and a ``detail`` in English
for programs.  How the cookie and the changes are guarded: web/accounts/signin.py.
"""

from __future__ import annotations

import asyncio
import json
import math
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .. import metrics
from ..apidoc import CHANGE, GUEST_CHANGE, SIGNED_IN, ok, refusals
from ..botaccounts.repo import Bots
from ..db.base import now
from ..deps import AccountsDep, HallDep, SettingsDep, SignInGuardDep
from ..ratings.repo import Ratings
from ..ratings.skill import Rating
from ..settings import Settings
from ..tables.facts import iso
from . import device_routes, passkey_routes
from .guard import Key, SignInGuard
from .passkey_repo import Passkeys
from .passkey_routes import passkey_entry
from .passwords import PASSWORD_MAX, normalized, weakness
from .repo import Accounts, HeldSeat, SignedIn, Taken
from .session import (
    Empty,
    Links,
    Username,
    Welcome,
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
    device_token,
    hash_password,
    refusal,
)

router = APIRouter(tags=["accounts"])
router.include_router(passkey_routes.router)
router.include_router(device_routes.router)

Password = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=PASSWORD_MAX)]
"""Any length the form sends, up to the bound: :mod:`.passwords` says which may be an account's, with a reason."""


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


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=PASSWORD_MAX)]
    password: Password


def weak(reason: str) -> JSONResponse:
    """The 422 of a password an account may not take, with the reason the page words (``account.weak.<reason>``)."""
    words = {
        "short": "at least 8 characters, not all spaces",
        "name": "not the username, nor close to it or to the game's name",
        "common": "not a common password or word: a few unrelated words make a strong one",
        "pattern": "not a repeat, a sequence, a keyboard row or a date",
    }
    return JSONResponse(
        {"detail": f"password: {words[reason]}", "code": "weak-password", "field": "password", "reason": reason},
        status_code=422,
        headers={"Cache-Control": "no-store"},
    )


def _waited(wait: int) -> JSONResponse:
    return JSONResponse(
        {"detail": f"too many wrong passwords: try again in {wait} s", "code": "rate", "retry_after": wait},
        status_code=429,
        headers={"Retry-After": str(wait), "Cache-Control": "no-store"},
    )


async def _password_checked(
    guard: SignInGuard, keys: list[Key], stored: str | None, password: str
) -> JSONResponse | tuple[bool, str | None]:
    """A password checked under the guard's keys: the 429 to answer while one of them must wait; else (right or
    not, a new hash), the failure counted or the name's count cleared."""
    wait = await asyncio.to_thread(guard.wait, keys)
    if wait is not None:
        metrics.signed_in("waiting")
        return _waited(wait)
    right, rehashed = await check_password(stored, password)
    await asyncio.to_thread(guard.succeeded if right else guard.failed, keys)
    if not right:
        metrics.signed_in("wrong")
    return right, rehashed


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


@router.post(
    "/api/account/signup",
    status_code=201,
    responses=ok("Signed in: the username, the CSRF token, the seats claimed; the sign-in's cookie.", Welcome, 201)
    | refusals(*GUEST_CHANGE, 409, 422, 429, r409="The username is taken (`taken`).", r422="A weak password."),
)
async def sign_up(body: SignUp, request: Request, accounts: AccountsDep, settings: SettingsDep, guard: SignInGuardDep):
    if (refused := cross_site(request)) is not None:
        return refused
    where = address(request)
    per_hour = settings.limits.signups_per_hour
    hour = timedelta(hours=1)
    made = await asyncio.to_thread(accounts.signups_since, where, now() - hour, per_hour)
    if len(made) >= per_hour:
        wait = max(1, math.ceil((made[0] + hour - now()).total_seconds()))
        return throttled(wait, per_hour, "new accounts from one address", "an hour")
    password = normalized(body.password)
    if (reason := weakness(password, body.username)) is not None:
        return weak(reason)
    digest = await hash_password(password)
    try:
        account = await asyncio.to_thread(accounts.create, body.username, digest, where)
    except Taken:
        return refusal(409, "taken", f"username {body.username} is taken")
    held = await claim_seats(accounts, account.id, body.seats)
    return await welcome(request, accounts, settings, guard, account.id, account.username, held, 201)


@router.post(
    "/api/account/signin",
    responses=ok("Signed in: the username, the CSRF token, the seats claimed; the sign-in's cookie.", Welcome)
    | refusals(*GUEST_CHANGE, 401, 429, r401="Wrong username or password (`wrong`)."),
)
async def sign_in(body: SignIn, request: Request, accounts: AccountsDep, settings: SettingsDep, guard: SignInGuardDep):
    """A password sign-in, slowed down for whoever guesses wrong (:mod:`.guard`); a disabled account's right
    password is told so (a wrong one is just wrong)."""
    if (refused := cross_site(request)) is not None:
        return refused
    keys = await asyncio.to_thread(guard.keys, body.username, address(request), device_token(request))
    found = await asyncio.to_thread(accounts.credentials, body.username)
    checked = await _password_checked(guard, keys, found[1] if found else None, normalized(body.password))
    if isinstance(checked, JSONResponse):
        return checked
    right, rehashed = checked
    if found is None or not right:
        return refusal(401, "wrong", "wrong username or password")
    account = found[0]
    if account.disabled is not None:
        metrics.signed_in("disabled")
        return refusal(403, "disabled", "this account is disabled: the server's operator can say why")
    metrics.signed_in("password")
    if rehashed is not None:
        await asyncio.to_thread(accounts.rehash, account.id, rehashed)
    held = await claim_seats(accounts, account.id, body.seats)
    return await welcome(request, accounts, settings, guard, account.id, account.username, held, 200)


@router.post(
    "/api/account/password",
    responses=ok("Changed, and how many other sign-ins ended.")
    | refusals(*CHANGE, 422, 429, r401="Not signed in (`signed-out`), or the current password is wrong (`wrong`)."),
)
async def change_password(
    body: NewPassword, request: Request, accounts: AccountsDep, settings: SettingsDep, guard: SignInGuardDep
):
    """A new password, the current one asked again (a borrowed session cannot take the account): every other
    sign-in ends and every device is a stranger again; this one stays."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    checked = await _current_password(accounts, guard, session, body.current)
    if checked is not None:
        return checked
    password = normalized(body.password)
    if (reason := weakness(password, session.account.username)) is not None:
        return weak(reason)
    digest = await hash_password(password)
    ended = await asyncio.to_thread(accounts.set_password, session.account.id, digest, session.token_hash)
    await asyncio.to_thread(guard.forget_devices, session.account.id)
    return answer({"changed": True, "signed_out": ended})


async def _current_password(
    accounts: Accounts, guard: SignInGuard, session: SignedIn, password: str
) -> JSONResponse | None:
    """None when ``password`` is the account's; else the 401 (or 429 while guesses must wait) to answer."""
    stored = await asyncio.to_thread(accounts.password_hash, session.account.id)
    checked = await _password_checked(guard, [guard.account_key(session.account.id)], stored, normalized(password))
    if isinstance(checked, JSONResponse):
        return checked
    return None if checked[0] else refusal(401, "wrong", "wrong password")


@router.post("/api/account/signout", responses=ok("Signed out.") | refusals(*CHANGE))
async def sign_out(body: Empty, request: Request, accounts: AccountsDep, settings: SettingsDep):
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    await asyncio.to_thread(accounts.close_session, session.token_hash)
    response = answer({"signed_out": True})
    clear_cookie(response, request)
    return response


async def _account_body(session: SignedIn, accounts: Accounts, settings: Settings) -> dict:
    seats, passkeys, ratings = await asyncio.gather(
        asyncio.to_thread(accounts.seats, session.account.id, settings.limits.account_seats),
        asyncio.to_thread(Passkeys(accounts.db).listed, session.account.id),
        asyncio.to_thread(Ratings(accounts.db).of, session.account.id),
    )
    return {
        "username": session.account.username,
        "created": iso(session.account.created),
        "csrf": session.csrf,
        "seats": [seat_entry(h) for h in seats],
        "passkeys": [passkey_entry(p) for p in passkeys],
        "ratings": ratings_entry(ratings),
    }


@router.get(
    "/api/account",
    responses=ok("The account: its username, CSRF token, seats, passkeys and ratings.") | refusals(*SIGNED_IN),
)
async def account(request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Who is signed in, the CSRF token their page sends with every change, the seats the account holds and its
    passkeys."""
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        return _no_store(session)
    return answer(await _account_body(session, accounts, settings))


@router.get("/api/me", responses=ok("`signed_in`, and when true what `GET /api/account` gives."))
async def me(request: Request, accounts: AccountsDep, settings: SettingsDep):
    """GET /api/account for a page that does not know whether anyone is signed in: signed out is an answer here
    (200, ``signed_in`` false), not a refusal a browser's console logs as an error on every signed-out page."""
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        signed_out = answer({"signed_in": False})
        clear_cookie(signed_out, request)  # as the refusal would: a sign-in that ended takes its cookie along
        return signed_out
    return answer({"signed_in": True, **await _account_body(session, accounts, settings)})


@router.post(
    "/api/account/claim", responses=ok("The seats the account now holds of those sent.") | refusals(*CHANGE, 422)
)
async def claim(body: Claim, request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Bring seats this browser holds as a guest (their links' tokens) into the account."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    return answer({"claimed": await claim_seats(accounts, session.account.id, body.seats)})


@router.get(
    "/api/account/export",
    responses=ok("Everything kept of the account, as a JSON file: never a token nor a hash.") | refusals(*SIGNED_IN),
)
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
        "sign_ins": [{k: iso(v) if k in ("created", "seen", "expires") else v for k, v in s.items()} for s in sessions],
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


@router.delete(
    "/api/account",
    responses=ok("Deleted, and signed out.")
    | refusals(*CHANGE, 429, r401="Not signed in (`signed-out`), or the current password is wrong (`wrong`)."),
)
async def delete_account(
    body: Delete,
    request: Request,
    accounts: AccountsDep,
    settings: SettingsDep,
    guard: SignInGuardDep,
    hall: HallDep,
):
    """Delete the account, its password asked again: the rated matches it (or one of its bots) is playing are lost,
    its sign-ins go, its games stay without its name."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    checked = await _current_password(accounts, guard, session, body.password)
    if checked is not None:
        return checked
    bots = await asyncio.to_thread(Bots(accounts.db).owned, session.account.id)
    await hall.leave_rated([session.account.id, *(b.account_id for b in bots)], "deleted")  # lost, rated first
    await asyncio.to_thread(Bots(accounts.db).delete_owned, session.account.id)  # the person's bots go with them
    await asyncio.to_thread(accounts.delete, session.account.id)
    response = answer({"deleted": True})
    clear_cookie(response, request)
    return response
