"""The table's WebSocket, ``/ws/{table}``: a client joins a seat with its token, then acts, asks for
hints, says a quick-chat message and pings; or watches, and may then only ping.  The room decides and
tells every seat and spectator (docs/web-api.md, "WebSocket")."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from contextlib import suppress

from fastapi import APIRouter, WebSocket

from ..accounts.repo import Accounts
from ..accounts.signin import signed_in, socket_from_elsewhere
from ..deps import AccountsDep, HallDep, SettingsDep, SocketsDep
from ..errors import GONE_CLOSE, Refused
from ..settings import Limits
from . import outbound, rematch
from .client import Client
from .hall import Hall
from .inbound import (
    ActFrame,
    BackFrame,
    ClientFrame,
    HintFrame,
    JoinFrame,
    PingFrame,
    SayFrame,
    SheetClosedFrame,
    UndoFrame,
    WatchFrame,
    clean_nickname,
)
from .room import Room

log = logging.getLogger("millebornes.web")

router = APIRouter()

CROWDED = 4429
"""The close code of a socket over a cap (``too-many``, ``seat-full``, ``table-full``): the page does not come back."""
EXPIRED = GONE_CLOSE
"""The close code of a socket to a table that expired (``expired``)."""
CLOSE_ON = {"seat-full": CROWDED, "table-full": CROWDED, "expired": EXPIRED, "auth": 4401}
"""Refusals of a join or a watch that close the socket (and their code); another refused join may be sent again.
An ``auth`` refused under the room's lock is a link replaced meanwhile (a first join, a claim): as a wrong one."""


@router.websocket("/ws/{table_id}")
async def table_socket(
    ws: WebSocket, table_id: str, hall: HallDep, settings: SettingsDep, sockets: SocketsDep, accounts: AccountsDep
):
    await ws.accept()
    client = Client(ws, settings.limits)
    pump = asyncio.create_task(client.pump())
    most = settings.limits.sockets_per_address
    try:
        if sockets.add(client, pump, ws.client.host if ws.client else "", most):
            await converse(client, hall, table_id, settings.limits, accounts)
        else:
            client.turn_away("too-many", f"at most {most} table sockets are open from one address at once", CROWDED)
    except Exception:
        log.exception("table %s: a connection failed", table_id)
        client.close(1011)
    finally:
        if client.room is not None:
            client.room.leave(client)
        for task in client.hint_tasks:
            task.cancel()
        if client.closing:
            with suppress(Exception):
                await asyncio.wait_for(pump, 5)
        pump.cancel()
        sockets.discard(client)


async def converse(client: Client, hall: Hall, table_id: str, limits: Limits, accounts: Accounts) -> None:
    """The join (within ``join_seconds``, or the socket is closed with 4401), then every frame.

    The token (or the account's hold on the seat) is checked before the room is loaded: a wrong link to a table
    out of memory costs one small query, never a replayed match."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.join_seconds
    room: Room | None = None
    while room is None:
        try:
            data = await asyncio.wait_for(client.receive(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            client.turn_away("auth", f"send join within {limits.join_seconds:g} seconds", 4401)
            return
        if data is None:
            return
        frame = client.read(data)
        if frame is None:
            continue
        if isinstance(frame, WatchFrame):
            try:
                room = await hall.watch(client, table_id)
            except Refused as r:
                client.turn_away(r.code, r.message, CLOSE_ON.get(r.code, 4403))
                return
            if room is None:
                client.turn_away("auth", "there is no such table to watch", 4401)
                return
            client.room = room
            break
        if not isinstance(frame, JoinFrame):
            client.turn_away("auth", "the first frame must be join or watch", 4401)
            return
        try:
            if frame.account:
                account = await holder(client, hall, table_id, frame.seat, limits, accounts)
                if account is None:
                    return
                room = await hall.join(client, table_id, frame.seat, clean_nickname(frame.nickname), account=account)
            elif frame.token is not None and await hall.authenticate(table_id, frame.seat, frame.token):
                room = await hall.join(client, table_id, frame.seat, clean_nickname(frame.nickname), frame.token)
        except Refused as r:
            if r.code in CLOSE_ON:
                client.turn_away(r.code, r.message, CLOSE_ON[r.code])
                return
            client.error(r.code, r.message, **r.extra)
            continue
        if room is None:
            client.turn_away("auth", "this link does not open that seat", 4401)
            return
        client.room = room
    while not client.closing:
        data = await client.receive()
        if data is None:
            return
        frame = client.read(data)
        if isinstance(frame, rematch.FRAMES):
            await rematch.handle(client, hall, room, frame)
        elif frame is not None:
            await dispatch(client, room, frame)


async def holder(
    client: Client, hall: Hall, table_id: str, seat: int, limits: Limits, accounts: Accounts
) -> str | None:
    """The id of the signed-in account that holds the seat, else None with the socket turned away: a seat of
    one's account opens on any device where it is signed in, from this site's pages only."""
    if socket_from_elsewhere(client.ws):
        client.turn_away("cross-site", "a seat opens by its account from this site's own pages only", 4403)
        return None
    session = await signed_in(client.ws, accounts, limits)
    if session is None:
        client.turn_away("signed-out", "sign in to the account that holds this seat to open it here", 4401)
        return None
    if not await hall.holds(table_id, seat, session.account.id):
        client.turn_away("auth", "this account does not hold that seat", 4401)
        return None
    return session.account.id


async def dispatch(client: Client, room: Room, frame: ClientFrame) -> None:
    if isinstance(frame, PingFrame):
        client.send(outbound.pong())
    elif isinstance(frame, SayFrame):
        say(client, room, frame.key)
    elif client.seat is None:  # a spectator (a seat's socket has joined by now)
        if isinstance(frame, (ActFrame, HintFrame, BackFrame, SheetClosedFrame, UndoFrame)):
            client.error(
                "spectator",
                "a spectator watches: it cannot act, ask for hints, take back a move or take a seat",
                frame.action if isinstance(frame, ActFrame) else None,
            )
        else:
            client.error("malformed", "already watching")
    elif isinstance(frame, ActFrame):
        try:
            await room.submit(client.seat, frame.action, frame.seq, person=True)
        except Refused as r:
            client.error(r.code, r.message, frame.action, **r.extra)
    elif isinstance(frame, SheetClosedFrame):
        await room.sheet_closed(client.seat)
    elif isinstance(frame, BackFrame):
        try:
            await room.back(client.seat)
        except Refused as r:
            client.error(r.code, r.message, **r.extra)
    elif isinstance(frame, UndoFrame):
        try:
            await room.undo(client.seat, frame.seq)
        except Refused as r:
            client.error(r.code, r.message, **r.extra)
    elif isinstance(frame, HintFrame):
        try:
            answer = room.hint(client.seat)
        except Refused as r:
            client.error(r.code, r.message, **r.extra)
            return
        task = asyncio.create_task(send_hint(client, room, answer))
        client.hint_tasks.add(task)
        task.add_done_callback(client.hint_tasks.discard)
    else:
        client.error("malformed", "already joined")


def say(client: Client, room: Room, key: str) -> None:
    """A quick-chat message from a seat; a refusal names the ``say`` it refuses, so the page tells it apart."""
    if client.seat is None:
        client.error("spectator", "a spectator watches: it cannot chat", say=key)
        return
    try:
        room.say(client.seat, key)
    except Refused as r:
        client.error(r.code, r.message, say=key, **r.extra)


async def send_hint(client: Client, room: Room, answer: Awaitable[outbound.HintFrame]) -> None:
    try:
        client.send(await answer)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table %s: hint failed", room.id)
        client.error("server", "the hint could not be worked out")
