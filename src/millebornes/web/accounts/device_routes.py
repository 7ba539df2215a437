"""A person's sign-ins, as the account page lists them (docs/web-api.md, "Signed-in devices"): each device's when,
roughly where from and on what, this one marked; one of them, or all but this one, signed out."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from ..apidoc import CHANGE, SIGNED_IN, ok, refusals
from ..db.base import now
from ..deps import AccountsDep, SettingsDep
from ..tables.facts import iso
from .devices import browser, network, system
from .repo import Device
from .session import Empty, answer, session_of
from .signin import clear_cookie, refusal

router = APIRouter()  # tagged "accounts" by the accounts router that includes it

SessionId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[0-9a-f]+$")]


def device_entry(d: Device, current: str) -> dict:
    return {
        "id": d.id,
        "created": iso(d.created),
        "seen": iso(d.seen),
        "expires": iso(d.expires),
        "network": network(d.address),
        "browser": browser(d.agent),
        "system": system(d.agent),
        "current": d.id == current,
    }


@router.get(
    "/api/account/sessions", responses=ok("The account's live sign-ins, the last used first.") | refusals(*SIGNED_IN)
)
async def devices(request: Request, accounts: AccountsDep, settings: SettingsDep):
    """The account's live sign-ins, the last used first."""
    session = await session_of(request, accounts, settings, change=False)
    if isinstance(session, JSONResponse):
        return session
    found = await asyncio.to_thread(accounts.devices, session.account.id, now())
    return answer({"sessions": [device_entry(d, session.id) for d in found]})


@router.delete(
    "/api/account/sessions/{session_id}",
    responses=ok("That sign-in ended, and whether it was this one.")
    | refusals(*CHANGE, 404, r404="The account has no sign-in of that id (`no-session`)."),
)
async def sign_out_device(
    session_id: SessionId, body: Empty, request: Request, accounts: AccountsDep, settings: SettingsDep
):
    """Sign one device out: its cookie opens nothing from now on, at every process."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    gone = await asyncio.to_thread(accounts.close_device, session.account.id, session_id)
    if gone is None:
        return refusal(404, "no-session", "the account has no sign-in of that id")
    response = answer({"signed_out": session_id, "current": gone == session.token_hash})
    if gone == session.token_hash:
        clear_cookie(response, request)
    return response


@router.post(
    "/api/account/sessions/others/signout",
    responses=ok("How many other sign-ins ended.") | refusals(*CHANGE),
)
async def sign_out_others(body: Empty, request: Request, accounts: AccountsDep, settings: SettingsDep):
    """Sign out every device but this one."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    ended = await asyncio.to_thread(accounts.close_others, session.account.id, session.token_hash)
    return answer({"signed_out": ended})
