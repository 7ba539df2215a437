"""The objects every route shares, reached through the app's state: the route files never build them.

``create_app`` sets them on ``app.state`` (the settings and the open table sockets at once, the database, the
tables' repository, the hall of rooms, the
thinking pool, the reviewer and the creation and claim throttles in the lifespan); a route names the one it needs as
a parameter, e.g. ``hall: HallDep``, and FastAPI hands it over, for HTTP requests and WebSockets alike.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from .accounts.guard import SignInGuard
from .accounts.repo import Accounts
from .archive.repo import Archive
from .botaccounts.gateway import Gateway
from .db.database import Database
from .reviews.puzzle_repo import Grown
from .reviews.service import Reviewer
from .settings import Settings
from .tables.drain import Sockets
from .tables.hall import Hall
from .tables.repo import Tables
from .tables.service import Creation
from .throttle import CreationThrottle, SignInThrottles


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings


def get_sockets(conn: HTTPConnection) -> Sockets:
    return conn.app.state.sockets


def get_db(conn: HTTPConnection) -> Database:
    return conn.app.state.db


def get_tables(conn: HTTPConnection) -> Tables:
    return conn.app.state.tables


def get_archive(conn: HTTPConnection) -> Archive:
    return conn.app.state.archive


def get_hall(conn: HTTPConnection) -> Hall:
    return conn.app.state.hall


def get_creation(conn: HTTPConnection) -> Creation:
    return conn.app.state.creation


def get_gateway(conn: HTTPConnection) -> Gateway:
    return conn.app.state.gateway


def get_reviewer(conn: HTTPConnection) -> Reviewer:
    return conn.app.state.reviewer


def get_grown(conn: HTTPConnection) -> Grown:
    return conn.app.state.grown


def get_throttle(conn: HTTPConnection) -> CreationThrottle:
    return conn.app.state.throttle


def get_claim_throttle(conn: HTTPConnection) -> CreationThrottle:
    return conn.app.state.claim_throttle


def get_accounts(conn: HTTPConnection) -> Accounts:
    return conn.app.state.accounts


def get_signin_throttles(conn: HTTPConnection) -> SignInThrottles:
    return conn.app.state.signin_throttles


def get_signin_guard(conn: HTTPConnection) -> SignInGuard:
    return conn.app.state.signin_guard


SettingsDep = Annotated[Settings, Depends(get_settings)]
SocketsDep = Annotated[Sockets, Depends(get_sockets)]
DatabaseDep = Annotated[Database, Depends(get_db)]
TablesDep = Annotated[Tables, Depends(get_tables)]
ArchiveDep = Annotated[Archive, Depends(get_archive)]
HallDep = Annotated[Hall, Depends(get_hall)]
CreationDep = Annotated[Creation, Depends(get_creation)]
GatewayDep = Annotated[Gateway, Depends(get_gateway)]
ReviewerDep = Annotated[Reviewer, Depends(get_reviewer)]
GrownDep = Annotated[Grown, Depends(get_grown)]
ThrottleDep = Annotated[CreationThrottle, Depends(get_throttle)]
ClaimThrottleDep = Annotated[CreationThrottle, Depends(get_claim_throttle)]
AccountsDep = Annotated[Accounts, Depends(get_accounts)]
SignInThrottlesDep = Annotated[SignInThrottles, Depends(get_signin_throttles)]
SignInGuardDep = Annotated[SignInGuard, Depends(get_signin_guard)]
