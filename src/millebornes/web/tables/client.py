"""One WebSocket of one browser: its seat once joined, its outgoing queue and its rate window.

Frames go out through a queue per socket, so a slow reader never holds a room's lock; a reader
that lets 1,000 frames pile up is closed.  A frame coming in passes the size limit, the rate limit,
then the schema, in that order; anything refused gets an ``error`` frame and changes nothing.  The
rate limit (a moving window of a second) counts the frames it let through, so a client that sends too
fast still gets its share through instead of being shut out while it keeps on.  Each socket keeps its own
window, the times of its last frames: the `limits` package's in-memory storage, shared by every socket,
starts a thread that sweeps every socket's window 10 ms after a frame (520 µs of CPU a frame with 2,000
sockets open, measured), where this costs a comparison.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque

from fastapi import WebSocket
from pydantic import ValidationError

from .. import metrics
from ..settings import Limits
from . import outbound
from .inbound import CLIENT_FRAME, ClientFrame, words
from .room import Room

log = logging.getLogger("millebornes.web")


class MovingWindow:
    """At most ``per_second`` events in any second: ``take()`` counts one, or says no (and counts nothing)."""

    def __init__(self, per_second: int):
        self.times: deque[float] = deque(maxlen=per_second)

    def take(self, at: float) -> bool:
        if len(self.times) == self.times.maxlen and at - self.times[0] < 1.0:
            return False
        self.times.append(at)
        return True


class Client:
    """One socket; the room knows it as a connection (``seat`` and ``send``)."""

    def __init__(self, ws: WebSocket, limits: Limits):
        self.ws = ws
        self.limits = limits
        self.seat: int | None = None
        """None before the join, and for a spectator's socket once it watches."""
        self.room: Room | None = None
        self.out: asyncio.Queue = asyncio.Queue()
        self.rate = MovingWindow(limits.frames_per_second)
        self.closing = False
        self.hint_tasks: set[asyncio.Task] = set()
        """The hints asked on this socket not answered yet (the room's :class:`.hints.Hints` rations them)."""

    def send(self, frame: outbound.ServerFrame) -> None:
        if self.closing:
            return
        if self.out.qsize() > 1000:
            log.warning("a client does not read its frames; closing it")
            self.close(1008)
            return
        self.out.put_nowait(frame)

    def error(self, code: str, message: str, action: str | None = None, **extra) -> None:
        """An error frame: ``code``, an English ``message`` (for logs), the ``action`` refused, and what the
        page needs to say it in its own words (``reason`` and ``params``, ``retry_after``)."""
        metrics.refused(code)
        self.send(outbound.error(code, message, action, **extra))

    def turn_away(self, code: str, message: str, close_code: int) -> None:
        """Refuse the socket's first frame: the error, then the close."""
        self.error(code, message)
        self.close(close_code)

    def close(self, code: int, reason: str = "") -> None:
        if not self.closing:
            self.closing = True
            self.out.put_nowait((code, reason))

    async def pump(self) -> None:
        await pump(self.ws, self.out)

    async def receive(self) -> str | bytes | None:
        """The next frame's text (bytes for a binary frame), or None once the socket is gone."""
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        return text if text is not None else (msg.get("bytes") or b"")

    def read(self, data: str | bytes) -> ClientFrame | None:
        """Size, rate, schema, in that order; a refused frame gets its error and None."""
        size = len(data) if isinstance(data, bytes) or len(data) > self.limits.frame_bytes else len(data.encode())
        if size > self.limits.frame_bytes:
            self.error("too-large", f"a frame is at most {self.limits.frame_bytes} bytes")
            return None
        if not self.rate.take(time.monotonic()):
            self.error("rate", f"more than {self.limits.frames_per_second} frames in a second")
            return None
        if isinstance(data, bytes):
            self.error("malformed", "frames are JSON text, not binary")
            return None
        try:
            return CLIENT_FRAME.validate_json(data)
        except ValidationError as exc:
            self.error("malformed", words(exc))
            return None


async def pump(ws: WebSocket, out: asyncio.Queue) -> None:
    """Send a socket's queued messages in order, as compact JSON; a (code, reason) pair in the queue closes the
    socket (a table's page and a bot's connection alike)."""
    try:
        while True:
            item = await out.get()
            if isinstance(item, tuple):
                await ws.close(*item)
                return
            await ws.send_text(json.dumps(item, separators=(",", ":"), ensure_ascii=False))
    except Exception as exc:  # the socket went away; the reader sees it too
        log.debug("a socket stopped taking messages: %r", exc)
