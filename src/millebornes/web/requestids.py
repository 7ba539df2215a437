"""Every HTTP request and every WebSocket connection gets a request id, and the records written for it carry it
(:mod:`.logfields`): the client's own ``X-Request-ID`` when it is short and plain (:data:`ACCEPTED`: a proxy's or
a load tester's, to follow one request through both logs), else a new one, 16 hex digits.  The response says which
in its ``X-Request-ID`` header (a WebSocket's in its handshake's answer), a request that failed too: its plain 500
is answered here, with the id, before the exception goes on to the server, which logs it.

A request at a table's address (``/api/tables/{id}/...``, ``/ws/{id}``, the pages ``/t/{id}`` and
``/replay/{id}``) also sets the table id, when it has a table id's shape.  Both are set for the request's task
(the server runs each request and each socket in a task of its own, which the context ends with), and not reset
on the way out, so that the server's own record of a request's failure still carries them.
"""

from __future__ import annotations

import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logfields import REQUEST_ID, TABLE_ID, TABLE_SHAPE

HEADER = b"x-request-id"
ACCEPTED = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""A client's request id that is kept; any other is replaced."""
FAILED = [
    (b"content-type", b"text/plain; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
"""The headers of the plain 500 a request that failed is answered with (the exception still reaches the server's
log, which writes the traceback with the request's id)."""
AT_TABLE = re.compile(r"/(?:api/tables|ws|t|replay)/([^/]+)")
"""The addresses that are about one table, its id first after the prefix (``/ws/bot`` is the bots' socket)."""


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` if it is :data:`ACCEPTED` (the first one sent), else a new id."""
    for name, value in scope.get("headers", ()):
        if name == HEADER:
            text = value.decode("latin-1")
            return text if ACCEPTED.fullmatch(text) else secrets.token_hex(8)
    return secrets.token_hex(8)


def table_of(path: str) -> str | None:
    """The table an address is about, or None."""
    found = AT_TABLE.match(path)
    if found is None or path == "/ws/bot" or not TABLE_SHAPE.fullmatch(found.group(1)):
        return None
    return found.group(1)


class RequestIds:
    """ASGI middleware: the ids of :mod:`.logfields` for each request and socket, and the id in the answer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)
        REQUEST_ID.set(rid)
        TABLE_ID.set(table_of(scope["path"]))
        header = (HEADER, rid.encode())
        started = False

        async def answer(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.http.response.start"):
                started = True
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        try:
            await self.app(scope, receive, answer)
        except Exception:
            if scope["type"] == "http" and not started:  # the server's own 500 would go out without the id
                await answer({"type": "http.response.start", "status": 500, "headers": FAILED})
                await answer({"type": "http.response.body", "body": b"Internal Server Error"})
            raise
