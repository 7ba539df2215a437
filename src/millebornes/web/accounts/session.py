"""What every signed-in request of the accounts' and the bots' pages shares: the sign-in or the refusal to answer,
answers no cache keeps, the throttled answer, and the welcome that opens a session once a person is known.

The routes are :mod:`.routes` (passwords), :mod:`.passkey_routes` and :mod:`..botaccounts.routes`; how the cookie and
the changes are guarded: :mod:`.signin`.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Annotated

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..db.base import now
from ..settings import Settings
from .guard import SignInGuard
from .repo import Accounts, SignedIn
from .signin import (
    clear_cookie,
    cross_site,
    csrf_ok,
    device_token,
    refusal,
    set_cookie,
    set_device_cookie,
    signed_in,
)

USERNAME = r"^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$"
"""3 to 20 letters, digits, ``_`` and ``-`` (ASCII: no two names that look alike), starting with a letter or digit."""
CLAIMS_MAX = 200
"""Seats one request may bring to an account (a browser's "My tables" keeps fewer)."""

Username = Annotated[str, StringConstraints(strict=True, pattern=USERNAME)]


class SeatLink(BaseModel):
    """A seat as a guest's link opens it: the table, the seat, its token."""

    model_config = ConfigDict(extra="forbid")
    table: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=16)]
    seat: Annotated[int, Field(strict=True, ge=0, lt=6)]
    token: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=64)]


Links = Annotated[list[SeatLink], Field(max_length=CLAIMS_MAX)]


class Empty(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClaimedSeat(BaseModel):
    table: str
    seat: int


class Welcome(BaseModel):
    """A sign-in's answer, as :func:`welcome` makes it (the OpenAPI document's: the routes answer dicts)."""

    username: str
    csrf: str = Field(description="Sent back as `X-CSRF-Token` with every change.")
    claimed: list[ClaimedSeat]


def answer(body: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def claim_seats(accounts: Accounts, account_id: str, links: list[SeatLink]) -> list[dict]:
    if not links:
        return []
    held = await asyncio.to_thread(accounts.claim, account_id, [(x.table, x.seat, x.token) for x in links])
    return [{"table": t, "seat": s} for t, s in held]


async def welcome(
    request: Request,
    accounts: Accounts,
    settings: Settings,
    guard: SignInGuard,
    account_id: str,
    username: str,
    claimed: list[dict],
    status: int,
) -> JSONResponse:
    """The new sign-in's cookie, and the device cookie that keeps this browser trusted by the account."""
    days = settings.limits.session_days
    await asyncio.to_thread(
        accounts.purge_sessions, now()
    )  # every sign-in clears the expired ones: the table stays bounded
    token, csrf = await asyncio.to_thread(
        accounts.open_session,
        account_id,
        timedelta(days=days),
        address(request),
        request.headers.get("user-agent"),
    )
    device = await asyncio.to_thread(guard.remember, account_id, device_token(request))
    response = answer({"username": username, "csrf": csrf, "claimed": claimed}, status)
    set_cookie(response, request, token, days)
    set_device_cookie(response, request, device)
    return response


def address(request: Request) -> str:
    return request.client.host if request.client else ""


def throttled(wait: int, per_minute: int, what: str, span: str = "a minute") -> JSONResponse:
    return JSONResponse(
        {"detail": f"at most {per_minute} {what} {span}; try again in {wait} s", "code": "rate"},
        status_code=429,
        headers={"Retry-After": str(wait), "Cache-Control": "no-store"},
    )


async def session_of(request: Request, accounts: Accounts, settings: Settings, change: bool) -> SignedIn | JSONResponse:
    """The request's sign-in, or the refusal to answer: 401 signed out; for a change, 403 without its CSRF token."""
    if change and (refused := cross_site(request)) is not None:
        return refused
    session = await signed_in(request, accounts, settings.limits)
    if session is None:
        response = refusal(401, "signed-out", "not signed in")
        clear_cookie(response, request)
        return response
    if change and not csrf_ok(request, session):
        return refusal(403, "csrf", "this change needs the sign-in's X-CSRF-Token (GET /api/account gives it)")
    return session
