"""The web app: ``create_app(settings)`` builds the FastAPI app of docs/web.md from its routers.

- One router per domain: :mod:`.pages`, :mod:`.health`, :mod:`.tables` (its HTTP routes and its socket),
  :mod:`.accounts`, :mod:`.ratings`, :mod:`.botaccounts`, :mod:`.reviews`, :mod:`.archive`.
- The shared objects (settings, the database and the repositories, the hall of rooms, the thinking pool, the
  reviewer, the throttles) are built here once, live on ``app.state`` and reach the routes through :mod:`.deps`.

The lifespan holds an SQLite file for this process alone (:mod:`.db.onefile`), opens the database (its schema
brought to this version's under a lock, :mod:`.db.schema`), deletes the tables nobody joined in time, expires those
nobody used, replays the unfinished tables used lately (a restart resumes each exactly where it was, bots and
countdowns included; the others load when asked for: :mod:`.tables.hall`) and starts the hall's sweep; at the end it
hands every table socket over (:mod:`.tables.drain`), then stops the sweep, the
rooms' tasks and the thinking processes.  A request body is at most ``MAX_BODY`` bytes, counted as they
arrive (413 past it), and every HTTP response gets the security headers.  The pages' files are read once, when
the app is made (:mod:`.pages.assets`), and the lifespan records their build in the database, for the other
processes to serve (:mod:`.pages.repo`).  Every request and socket gets its request id (:mod:`.requestids`).
The JSON API's OpenAPI document is ``/api/openapi.json`` (:mod:`.apidoc`); ``/openapi.json`` is 404.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from . import apidoc, health, metrics
from . import schemas as schema_routes
from .accounts import routes as account_routes
from .accounts.guard import SignInGuard
from .accounts.repo import Accounts
from .answers import unprocessable
from .archive import routes as archive_routes
from .archive.repo import Archive
from .botaccounts import routes as botaccount_routes
from .botaccounts.gateway import Gateway
from .db import onefile
from .db.database import Database
from .pages import reference as reference_routes
from .pages import routes as page_routes
from .pages import static as static_routes
from .pages.assets import snapshot
from .pages.repo import Builds
from .pages.shelf import Shelf
from .ratings import routes as rating_routes
from .requestids import RequestIds
from .reviews import routes as review_routes
from .reviews.puzzle_repo import Grown
from .reviews.repo import Reviews
from .reviews.service import Reviewer
from .settings import Settings
from .tables import routes as table_routes
from .tables.drain import Sockets
from .tables.hall import Hall
from .tables.repo import Tables
from .tables.service import Creation
from .thinking import Thinker
from .throttle import CreationThrottle, SignInThrottles

MAX_BODY = 64 * 1024

log = logging.getLogger("millebornes.web")


@asynccontextmanager
async def lifespan(app: FastAPI):
    settings: Settings = app.state.settings
    held = onefile.hold(settings.database_url)
    try:
        db = Database(settings.database_url, settings.sqlite_sync, settings.migrate)
    except BaseException:
        onefile.release(held)
        raise
    thinker = Thinker(settings.workers, settings.hint_workers, settings.limits.hint_backlog, settings.review_workers)
    tables = Tables(db)
    hall = Hall(tables, settings, thinker)
    gateway = Gateway(hall, tables)
    await hall.start(challenged=gateway.heard)
    app.state.db, app.state.tables, app.state.thinker, app.state.hall = db, tables, thinker, hall
    app.state.archive = Archive(db)
    app.state.grown = grown = Grown(db)
    app.state.reviewer = reviewer = Reviewer(
        tables, Reviews(db), thinker, settings.review_worlds, settings.limits.reviews_at_once, grown
    )
    app.state.throttle = throttle = CreationThrottle(settings.limits.tables_per_minute)
    app.state.gateway, app.state.creation = gateway, Creation(settings, tables, hall, throttle, gateway)
    app.state.claim_throttle = CreationThrottle(settings.limits.claims_per_minute, "claims")
    app.state.archive_throttle = CreationThrottle(settings.limits.archive_per_minute, "archive")
    app.state.accounts = Accounts(db)
    limits = settings.limits
    app.state.signin_throttles = SignInThrottles(limits.signins_per_minute)
    app.state.signin_guard = SignInGuard(
        db, limits.failures_per_address, limits.failures_per_name, limits.failure_wait_max
    )
    shelf: Shelf = app.state.shelf
    shelf.builds = Builds(db)
    try:
        await asyncio.to_thread(shelf.builds.record, shelf.own)
        log.info("the pages' files are build %s, recorded for the other processes", shelf.own.id)
    except Exception:  # the pages still work from this process; the others do not have its build
        log.warning("this build of the pages' files (%s) could not be recorded", shelf.own.id, exc_info=True)
    metrics.watch(app)
    try:
        yield
    finally:
        metrics.unwatch(app)
        await app.state.sockets.drain()
        reviewer.close()
        hall.close()
        thinker.close()
        db.close()
        onefile.release(held)


async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's own 422 in the API's shape: one message that names the field."""
    e = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    loc = [str(x) for x in e.get("loc", ()) if x not in ("body", "query", "path")]
    field = loc[0] if loc else "body"
    return unprocessable(field, f"{'.'.join(loc[1:]) + ': ' if loc[1:] else ''}{e.get('msg')}")


# Pages load scripts, styles and data from this server only, inline nothing but the script whose hash is named
# (web/static/js/recover.js), and are framed by nobody.
CSP = (
    "default-src 'none'; script-src 'self' {scripts}; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def holds_a_token(request: Request) -> bool:
    """The table page reads a token from its address; the answers to a new table and to a claimed seat
    carry tokens."""
    path = request.url.path
    return path.startswith("/t/") or (request.method == "POST" and (path == "/api/tables" or path.endswith("/claim")))


async def guard(request: Request, call_next):
    """Add the headers every response needs: a strict Content-Security-Policy on the pages, and no
    caching of anything that holds a token."""
    response = await call_next(request)
    metrics.responded(response.status_code)
    if response.headers.get("content-type", "").startswith("text/html"):
        response.headers.setdefault("Content-Security-Policy", request.app.state.csp)
    if holds_a_token(request):
        response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def create_app(settings: Settings | None = None) -> FastAPI:
    # the framework counts the bytes a request body really brings, chunked or not: 413 past MAX_BODY
    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=apidoc.URL, max_body_size=MAX_BODY)
    app.openapi = partial(apidoc.document, app)  # type: ignore[method-assign]
    app.state.settings = settings or Settings()
    app.state.sockets = Sockets()
    build = snapshot(page_routes.STATIC)
    app.state.shelf = Shelf(build)
    app.state.pages = pages = page_routes.Pages(page_routes.STATIC, build)
    app.state.csp = CSP.format(scripts=pages.script_hash)
    app.exception_handler(RequestValidationError)(invalid_request)
    app.middleware("http")(guard)
    app.add_middleware(RequestIds)  # added last, so outside the guard: its records and the access log carry the id
    # one router per package; the bots' socket /ws/bot before the tables' /ws/{table_id}, which would take it
    for routes in (
        page_routes,
        static_routes,
        reference_routes,
        health,
        botaccount_routes,
        table_routes,
        account_routes,
        rating_routes,
        review_routes,
        archive_routes,
        schema_routes,
    ):
        app.include_router(routes.router)
    return app
