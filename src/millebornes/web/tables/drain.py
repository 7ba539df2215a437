"""A server asked to stop hands its pages over at once instead of letting them time out.

Every table socket is closed with 1012 (service restart) and the reason ``reconnect``; the page joins
again within half a second, on another process behind the same proxy or on this one once it is back
(docs/deploy.md, "Upgrading without downtime").  uvicorn's own shutdown closes the sockets with 1012 too,
but with no reason and while it still listens; :class:`Server` first stops listening, so that no page
comes back to the process that is going, then closes every socket and gives the close frames a moment
to leave before uvicorn's shutdown goes on.  The lifespan's end drains as well, for any other ASGI server.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from collections import Counter

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from .client import Client

log = logging.getLogger("uvicorn.error")
"""uvicorn's own log, where an operator reads "Shutting down"."""

CODE, REASON = 1012, "reconnect"
GRACE = 2.0
"""Seconds the close frames get to leave before the shutdown goes on regardless."""


class Sockets:
    """The table sockets this process holds, each with the task that sends its frames, counted by client
    address (``Limits.sockets_per_address``)."""

    def __init__(self) -> None:
        self.open: dict[Client, asyncio.Task] = {}
        self.draining = False
        self.address: dict[Client, str] = {}
        self.per_address: Counter[str] = Counter()

    def add(self, client: Client, pump: asyncio.Task, address: str = "", most: int | None = None) -> bool:
        """Take a socket in; one that arrives while the process stops is handed over at once.  False, and
        nothing counted, when ``address`` holds ``most`` sockets already."""
        if most is not None and self.per_address[address] >= most:
            return False
        self.open[client] = pump
        self.address[client] = address
        self.per_address[address] += 1
        if self.draining:
            client.close(CODE, REASON)
        return True

    def discard(self, client: Client) -> None:
        self.open.pop(client, None)
        address = self.address.pop(client, None)
        if address is not None:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]

    async def drain(self, grace: float = GRACE) -> None:
        self.draining = True
        for client in list(self.open):
            client.close(CODE, REASON)
        pumps = list(self.open.values())
        if pumps:
            await asyncio.wait(pumps, timeout=grace)


class Server(uvicorn.Server):
    """uvicorn's server, whose shutdown begins with the drain of ``sockets``."""

    def __init__(self, config: uvicorn.Config, sockets: Sockets):
        super().__init__(config)
        self.sockets = sockets

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        if self.sockets.open:
            log.info("Handing %d table socket(s) over: closed with %d %s", len(self.sockets.open), CODE, REASON)
        await self.sockets.drain()
        await super().shutdown(sockets)


def serve(app, **options) -> None:
    """``uvicorn.run(app, **options)`` for one process, with the drain at shutdown."""
    config = uvicorn.Config(app, **options)
    server = Server(config, app.state.sockets)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    if not server.started:
        sys.exit(STARTUP_FAILURE)
