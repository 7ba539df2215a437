"""The objects every route shares, reached through the app's state: the route files never build them.

``create_app`` sets them on ``app.state`` (the settings and the open table sockets at once, the store, the hall of
rooms, the
thinking pool, the reviewer and the creation and claim throttles in the lifespan); a route names the one it needs as
a parameter, e.g. ``hall: HallDep``, and FastAPI hands it over, for HTTP requests and WebSockets alike.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from .accountstore import Accounts
from .drain import Sockets
from .hall import Hall
from .reviewing import Reviewer
from .settings import Settings
from .store import Store
from .throttle import CreationThrottle, SignInThrottles


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings


def get_sockets(conn: HTTPConnection) -> Sockets:
    return conn.app.state.sockets


def get_store(conn: HTTPConnection) -> Store:
    return conn.app.state.store


def get_hall(conn: HTTPConnection) -> Hall:
    return conn.app.state.hall


def get_reviewer(conn: HTTPConnection) -> Reviewer:
    return conn.app.state.reviewer


def get_throttle(conn: HTTPConnection) -> CreationThrottle:
    return conn.app.state.throttle


def get_claim_throttle(conn: HTTPConnection) -> CreationThrottle:
    return conn.app.state.claim_throttle


def get_accounts(conn: HTTPConnection) -> Accounts:
    return conn.app.state.accounts


def get_signin_throttles(conn: HTTPConnection) -> SignInThrottles:
    return conn.app.state.signin_throttles


SettingsDep = Annotated[Settings, Depends(get_settings)]
SocketsDep = Annotated[Sockets, Depends(get_sockets)]
StoreDep = Annotated[Store, Depends(get_store)]
HallDep = Annotated[Hall, Depends(get_hall)]
ReviewerDep = Annotated[Reviewer, Depends(get_reviewer)]
ThrottleDep = Annotated[CreationThrottle, Depends(get_throttle)]
ClaimThrottleDep = Annotated[CreationThrottle, Depends(get_claim_throttle)]
AccountsDep = Annotated[Accounts, Depends(get_accounts)]
SignInThrottlesDep = Annotated[SignInThrottles, Depends(get_signin_throttles)]
