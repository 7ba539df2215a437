"""The bridge's connection to the server's ``/ws/bot``: the token in the ``Authorization`` header, the hello with the
program's name and the filter's ``accepts``, the messages read and handed to :class:`.bridge.Bridge`, and after a
drop (the network, a server restart) a new connection, waiting longer each time up to a cap, with jitter. A close
that means "stop" (a wrong token, a disabled bot, a newer connection, a refused hello) ends the bridge instead."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import sys
from typing import Any

from ..protocol import PROTOCOL, BotError
from .bridge import Bridge
from .challenges import accepts
from .config import Config
from .engines import Engines, check_program
from .logs import Logs

FIRST_WAIT = 1.0
"""The first wait before connecting again; it doubles at each failed attempt up to ``MOST_WAIT``."""
MOST_WAIT = 60.0
OPEN_SECONDS = 15.0
HELLO_SECONDS = 15.0
STOPS = {
    4400: "the server refused the bridge's hello",
    4401: "the token opens no bot: it is wrong, or was revoked or renewed (make a new one on /account/bots)",
    4403: "the server's operator disabled this bot or its owner's account",
    4409: "a newer connection of this bot replaced this one (is another bridge running with the same token?)",
}
"""The closes after which connecting again would be refused the same way, or would take the bot back from its newer
connection: the bridge exits with status 1 and says why."""


class Stop(Exception):
    """The server closed the connection for good."""


class Link:
    """One connection: its messages are sent one at a time, and nothing is sent on it once it is closed (an answer
    computed for an old connection's decide would name a request id the new one does not know)."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.open = True
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> bool:
        if not self.open:
            return False
        from websockets.exceptions import ConnectionClosed

        async with self.lock:
            try:
                await self.ws.send(json.dumps(message))
            except ConnectionClosed:
                self.open = False
                return False
        return True


class Client:
    def __init__(self, config: Config, token: str, logs: Logs, name: str, version: str | None):
        self.config, self.token, self.logs = config, token, logs
        self.name, self.version = name, version
        self.engines = Engines(config.command, config.processes, logs)
        self.bridge = Bridge(config, logs, self.engines)
        self.first_wait, self.most_wait = FIRST_WAIT, MOST_WAIT

    async def run(self) -> int:
        """Connect, and again after each drop, until a stopping close (1) or a signal (0)."""
        sweep = asyncio.create_task(self.bridge.sweep())
        if self.engines.shared is not None:
            self.bridge.later(self.engines.shared.warm())
        wait = self.first_wait
        try:
            while True:
                try:
                    if await self.connection():
                        wait = self.first_wait
                except Stop as stop:
                    self.logs.event(f"stopped: {stop}")
                    return 1
                pause = random.uniform(wait / 2, wait)
                self.logs.event(f"connecting again in {pause:.1f} s")
                await asyncio.sleep(pause)
                wait = min(wait * 2, self.most_wait)
        finally:
            sweep.cancel()
            for task in list(self.bridge.tasks):
                task.cancel()
            await self.engines.close()

    async def connection(self) -> bool:
        """One connection, until it ends; whether the hello went through. :class:`Stop` for a close that means
        stop."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        from .. import __version__

        said: list[str] = []
        greeted = False
        link: Link | None = None
        try:
            async with connect(
                self.config.socket_url,
                additional_headers={"Authorization": f"Bearer {self.token}"},
                user_agent_header=f"millebornes-bridge/{__version__}",
                open_timeout=OPEN_SECONDS,
                ping_interval=20,
                ping_timeout=20,
            ) as ws:
                link = Link(ws)
                self.logs.event(f"connected to {self.config.socket_url}")
                greeted = await self.greet(ws, link, said)
                if greeted:
                    async for text in ws:
                        message = self.parse(text)
                        if message is None:
                            continue
                        try:
                            await self.bridge.handle(message, link.send)
                        except Exception as exc:  # one message the bridge cannot follow must not stop the others
                            self.logs.event(f"a {str(message.get('type'))[:40]!r} message failed: {exc!r}")
            self.logs.event("the server closed the connection")
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            if code in STOPS:
                words = said[-1] if said else reason
                raise Stop(f"{STOPS[code]} (close {code}{': ' + words if words else ''})") from None
            self.logs.event(f"the connection was lost (close {code if code is not None else 'without a code'})")
        except InvalidURI as exc:
            raise Stop(f"the server's address is wrong: {exc}") from None
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            self.logs.event(f"could not connect to {self.config.socket_url}: {type(exc).__name__}: {exc}")
        finally:
            if link is not None:
                link.open = False
        return greeted

    async def greet(self, ws: Any, link: Link, said: list[str]) -> bool:
        """The server's hello, answered with the program's name and the filter; an ``error`` first is kept in
        ``said`` (the reason of a close that follows)."""
        while True:
            text = await asyncio.wait_for(ws.recv(), HELLO_SECONDS)
            message = self.parse(text)
            if message is None:
                continue
            if message.get("type") == "error":
                said.append(str(message.get("message"))[:300])
                continue
            if message.get("type") != "hello":
                continue
            self.bridge.greeted(message)
            hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "name": self.name}
            if self.version is not None:
                hello["version"] = self.version
            hello["accepts"] = accepts(self.config.challenges)
            await link.send(hello)
            self.logs.event(
                f"playing as {message.get('name')} with {self.name}"
                f" ({self.config.processes} processes; {json.dumps(hello['accepts'])})"
            )
            return True

    def parse(self, text: str | bytes) -> dict[str, Any] | None:
        try:
            message = json.loads(text)
        except ValueError:
            self.logs.event("the server sent something that is not JSON; ignored")
            return None
        return message if isinstance(message, dict) else None


def run(config: Config, token: str, logs: Logs | None = None) -> int:
    """Play the program online until a signal (status 0) or a stopping close (1); 2 if the program cannot start."""
    logs = logs or Logs(config.log_dir, token)
    try:
        name, version = check_program(config.command)
    except BotError as exc:
        logs.event(f"the program cannot play: {exc}")
        return 2
    client = Client(config, token, logs, name, version)

    async def main() -> int:
        task = asyncio.current_task()
        assert task is not None
        if sys.platform != "win32":
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, task.cancel)
        try:
            return await client.run()
        except asyncio.CancelledError:
            logs.event("stopped by a signal: programs ended")
            return 0

    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main())
    return 0
