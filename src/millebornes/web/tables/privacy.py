"""Who may look back at a table (its replay, its review): anybody at a public one, only those who sat at a
private one.

A private table is invite-only: its players did not choose to show their game to strangers, so its replay
and review open only to a request that carries one of its human seats' tokens, as ``Authorization: Bearer
<token>`` (a header, never the address: request lines end up in logs), or the sign-in of an account that holds
one of its seats (docs/web-api.md, "Accounts": so a profile's own private games open on any device).  Every seat's
hash is compared, so the time taken tells nothing of which seat, or whether one, matched.  docs/web-api.md, "Private
tables".
"""

from __future__ import annotations

import asyncio

from fastapi import Request
from fastapi.responses import JSONResponse

from ..accounts.signin import session_token, signed_in
from ..tokens import token_opens
from .repo import Tables


def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>``, else None."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def sat_there(hashes: list[str | None], token: str | None) -> bool:
    opened = False
    for h in hashes:
        opened |= token is not None and token_opens(h, token)
    return opened


def may_look_back(public: bool, hashes: list[str | None], request: Request) -> bool:
    return public or sat_there(hashes, bearer(request))


async def may_open(public: bool, hashes: list[str | None], request: Request, table_id: str) -> bool:
    """:func:`may_look_back`, or the request is signed in to an account that holds a seat of the table."""
    return may_look_back(public, hashes, request) or await held_by_signed_in(request, table_id)


async def held_by_signed_in(request: Request, table_id: str) -> bool:
    if session_token(request) is None:
        return False
    accounts = request.app.state.accounts
    session = await signed_in(request, accounts, request.app.state.settings.limits)
    return session is not None and await asyncio.to_thread(accounts.holds, session.account.id, table_id)


async def held_seats(tables: Tables, table_id: str, request: Request) -> list[int]:
    """The seats of the table the request is known to hold: its ``Authorization: Bearer`` token opens the seat
    (the seat's link), or it is signed in to the account that held it.  Every seat's hash is compared."""
    holders = await asyncio.to_thread(tables.holders, table_id)
    token = bearer(request)
    account = None
    if session_token(request) is not None and any(a is not None for _, _, a in holders):
        session = await signed_in(request, request.app.state.accounts, request.app.state.settings.limits)
        account = None if session is None else session.account.id
    held = []
    for seat, token_hash, holder in holders:
        opened = token is not None and token_opens(token_hash, token)
        if opened or (account is not None and holder == account):
            held.append(seat)
    return held


def private() -> JSONResponse:
    """The answer to a look at a private table without one of its seats' tokens."""
    return JSONResponse(
        {"detail": "this table is private: its replay and review open to its players only", "code": "private"},
        status_code=403,
    )


async def refused(tables: Tables, table_id: str, request: Request) -> JSONResponse | None:
    """None when the request may look back at the table (or there is no such table: the route says so), else
    the 403 to answer."""
    facts = await asyncio.to_thread(tables.privacy, table_id)
    if facts is None or await may_open(*facts, request, table_id):
        return None
    return private()
