"""Signing in: passwords (argon2id), the session cookie, and the checks every change made with it must pass.

- A password is hashed with argon2id (argon2-cffi's defaults, RFC 9106's second recommendation: 64 MiB, 3
  passes), in a worker thread, at most ``HASHING_AT_ONCE`` at a time in a process, so that sign-ins never hold up
  the tables' event loop nor take more than that much memory.  A name nobody has is checked against a dummy hash,
  so the time taken does not tell which names exist (sign-up still says a name is taken: it must).
- The session cookie (``COOKIE``) holds a random token whose SHA-256 the database keeps (web/accounts/repo.py):
  HttpOnly (no script reads it), SameSite=Lax (no other site's page sends it with a change), Secure when the page
  came over HTTPS, for ``Limits.session_days`` from its last use and ``Limits.session_max_days`` at most.  A
  disabled account's sign-ins open nothing.
- The device cookie (``mb_device``, :mod:`.guard`) tells a browser that signed in to an account before from a
  guesser: the same flags, sent to the sign-in routes only.
- A change made with a sign-in (every POST and DELETE of /api/account) must come from this site's pages: the
  browser's ``Sec-Fetch-Site`` and ``Origin`` say so when sent, the body must be JSON (a form of another site
  cannot send it without asking first, and this server allows no other site), and a signed-in change carries
  the sign-in's CSRF token in ``X-CSRF-Token``, which only this site's pages can read (``GET /api/account``).
"""

from __future__ import annotations

import asyncio
import hmac
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from ..settings import Limits
from .guard import DEVICE_COOKIE, DEVICE_DAYS
from .repo import Accounts, SignedIn

COOKIE = "mb_session"
"""The session cookie's name."""
HASHING_AT_ONCE = 2
"""Password hashes worked out at once in a process (each takes 64 MiB for about 50 ms)."""
TOUCH_EVERY = timedelta(minutes=10)
"""A sign-in's expiry moves on with use, written at most this often."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_hasher = PasswordHasher()
_DUMMY = _hasher.hash("a password nobody has")
_hashing: asyncio.Semaphore | None = None


def _slots() -> asyncio.Semaphore:
    global _hashing
    if _hashing is None:
        _hashing = asyncio.Semaphore(HASHING_AT_ONCE)
    return _hashing


async def hash_password(password: str) -> str:
    async with _slots():
        return await asyncio.to_thread(_hasher.hash, password)


async def check_password(stored: str | None, password: str) -> tuple[bool, str | None]:
    """(whether ``password`` is the one ``stored`` was made from, a new hash when the parameters changed since);
    ``stored`` None checks against a dummy, taking as long, and says no."""

    def check() -> tuple[bool, str | None]:
        try:
            _hasher.verify(stored or _DUMMY, password)
        except (VerificationError, InvalidHashError):
            return False, None
        if stored is None:
            return False, None
        return True, (_hasher.hash(password) if _hasher.check_needs_rehash(stored) else None)

    async with _slots():
        return await asyncio.to_thread(check)


def refusal(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status)


def cross_site(request: Request) -> JSONResponse | None:
    """None when a change comes from this site's own pages (or from a program that sends no browser headers),
    else the 403 to answer."""
    if request.method in SAFE_METHODS:
        return None
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    if (site is not None and site not in ("same-origin", "none")) or (
        origin is not None and origin != own_origin(request)
    ):
        return refusal(403, "cross-site", "a change to an account is made from this site's own pages only")
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return refusal(415, "not-json", "send the request's body as application/json")
    return None


def own_origin(conn: HTTPConnection) -> str:
    """This server's origin as the browser names it (a WebSocket's ``ws``/``wss`` is its page's ``http``/``https``)."""
    scheme = {"ws": "http", "wss": "https"}.get(conn.url.scheme, conn.url.scheme)
    return f"{scheme}://{conn.url.netloc}"


def socket_from_elsewhere(conn: HTTPConnection) -> bool:
    """Whether a WebSocket was opened by another site's page (its ``Origin``): a browser sends the cookie with
    any site's WebSocket, so a sign-in opens a socket only for this site's own pages (or a program sending none)."""
    origin = conn.headers.get("origin")
    return origin is not None and origin != own_origin(conn)


def session_token(request: HTTPConnection) -> str | None:
    token = request.cookies.get(COOKIE)
    return token if token and len(token) <= 64 else None


async def signed_in(request: HTTPConnection, accounts: Accounts, limits: Limits) -> SignedIn | None:
    """The request's (or WebSocket's) live sign-in, or None."""
    token = session_token(request)
    if token is None:
        return None
    return await asyncio.to_thread(
        accounts.session,
        token,
        timedelta(days=limits.session_days),
        TOUCH_EVERY,
        timedelta(days=limits.session_max_days),
    )


def csrf_ok(request: Request, session: SignedIn) -> bool:
    sent = request.headers.get("x-csrf-token", "")
    return hmac.compare_digest(sent.encode(), session.csrf.encode())


def set_cookie(response: Response, request: Request, token: str, days: float) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def device_token(request: HTTPConnection) -> str | None:
    token = request.cookies.get(DEVICE_COOKIE)
    return token if token and len(token) <= 64 else None


def set_device_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        token,
        max_age=DEVICE_DAYS * 86400,
        path="/api/account",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
