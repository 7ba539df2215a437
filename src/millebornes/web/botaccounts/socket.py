"""The bots' WebSocket route, ``/ws/bot`` (docs/web-api.md, "Bots online"; docs/protocol.md, "Playing online"): the
token checked before anything else, the ``hello``, then every message read at the bot's pace, and the token watched
while the connection lasts.  What the messages do is the bot's session's (web/botaccounts/gateway.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time

from fastapi import APIRouter, WebSocket

from ...protocol import PROTOCOL
from ..deps import CreationDep, GatewayDep
from . import accepts
from .gateway import (
    AUTH,
    BAD_ANSWERS,
    CHECK_SECONDS,
    DISABLED,
    HELLO_SECONDS,
    LINE_BYTES,
    MESSAGES_PER_SECOND,
    PROTOCOL_ERROR,
    REPLACED,
    TABLES_AT_ONCE,
    BotSession,
)
from .repo import Disabled

log = logging.getLogger("millebornes.web")

router = APIRouter()


def bearer(ws: WebSocket) -> str | None:
    scheme, _, token = ws.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and 0 < len(token) <= 128 else None


@router.websocket("/ws/bot")
async def bot_socket(ws: WebSocket, gateway: GatewayDep, creation: CreationDep) -> None:
    """The token is checked before anything else; a wrong one gets an error and the close 4401, nothing more, and
    the token of a disabled bot (or of a disabled person's bot) an error and the close 4403."""
    await ws.accept()
    token = bearer(ws)
    connection = secrets.token_hex(8)
    try:
        account = None if token is None else await asyncio.to_thread(gateway.bots.connect, token, connection)
    except Disabled as off:
        await ws.send_text(
            json.dumps({"type": "error", "id": None, "code": "disabled", "message": _disabled(off.owner)})
        )
        await ws.close(DISABLED, "disabled")
        return
    if token is None or account is None:
        code, message = "no-token", "send the bot's token in the header Authorization: Bearer <token>"
        if token is not None:
            code, message = "bad-token", "this token opens no bot: it is wrong, or was revoked or renewed"
        await ws.send_text(json.dumps({"type": "error", "id": None, "code": code, "message": message}))
        await ws.close(AUTH, "unauthorized")
        return
    session = BotSession(ws, gateway, creation, account, token, connection)
    older = gateway.sessions.get(account.id)
    if older is not None:
        older.close(REPLACED, "replaced", "a newer connection of this bot replaced this one")
        older.leave_all()
    gateway.sessions[account.id] = session
    pump = asyncio.create_task(session.pump())
    watch = asyncio.create_task(_watch(session))
    try:
        if await _handshake(session):
            await _sit_again(session)
            await _converse(session)
    except Exception:
        log.exception("bot %s: its connection failed", account.username)
        session.close(1011, "server-error", "the server failed")
    finally:
        watch.cancel()
        if gateway.sessions.get(account.id) is session:
            del gateway.sessions[account.id]
        session.leave_all()
        session.tasks.cancel()
        ended = gateway.tasks.keep(
            asyncio.to_thread(gateway.bots.disconnect, account.id, connection),
            f"bot {account.username}: its connection could not be marked ended",
        )
        try:
            if session.closing:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pump, 5)
        finally:
            pump.cancel()
            with contextlib.suppress(Exception):
                await asyncio.shield(ended)  # a cancelled socket (a server shutting down) still marks it ended


def _disabled(owner: bool | None) -> str:
    """The error before the close 4403: whose account the operator disabled, when the server knows."""
    whose = {True: "its owner's account", False: "its account", None: "its account or its owner's"}[owner]
    return f"the server's operator disabled this bot: {whose} is disabled"


async def _sit_again(session: BotSession) -> None:
    """The seats the bot's account sat down at and holds at live tables, taken back by this connection (after a
    lost connection, a restart, or at another process than the last one)."""
    held = await asyncio.to_thread(session.gateway.bots.seats_held, session.account.id, TABLES_AT_ONCE)
    for table_id, seat in held:
        if table_id not in session.links and not session.closing:
            await session.sit(table_id, seat)


async def _receive(session: BotSession) -> str | None:
    """The next message's text, or None once the socket is gone; a binary message is refused."""
    while True:
        msg = await session.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        if text is not None:
            return text
        session.error(None, "binary", "messages are JSON text, not binary")


def _parse(session: BotSession, text: str) -> dict | None:
    """Size, then JSON; a refused message gets its error and None (the rate is :func:`_pace`'s)."""
    if len(text) > LINE_BYTES or len(text.encode()) > LINE_BYTES:
        session.error(None, "too-big", f"a message is at most {LINE_BYTES} bytes")
        return None
    if not text.strip():
        return None
    try:
        message = json.loads(text)
    except ValueError as exc:
        session.error(None, "bad-json", f"a message is JSON, and this one is not valid JSON: {exc}")
        return None
    if not isinstance(message, dict):
        session.error(None, "not-object", "a message is a JSON object")
        return None
    return message


async def _handshake(session: BotSession) -> bool:
    session.send(
        {
            "type": "hello",
            "protocol": PROTOCOL,
            "seed": secrets.randbelow(2**63),
            "name": session.account.username,
            "limits": {
                "message_bytes": LINE_BYTES,
                "messages_per_second": MESSAGES_PER_SECOND,
                "tables": TABLES_AT_ONCE,
                "challenge_seconds": session.gateway.challenge_seconds,
                "decision_seconds": session.gateway.decision_seconds,
                "seek_seconds": session.gateway.seek_seconds,
                "bad_answers": BAD_ANSWERS,
            },
        }
    )
    try:
        text = await asyncio.wait_for(_receive(session), HELLO_SECONDS)
    except TimeoutError:
        session.close(PROTOCOL_ERROR, "hello-late", f"answer the hello within {HELLO_SECONDS:g} s")
        return False
    message = None if text is None else _parse(session, text)
    if text is None:
        return False
    if message is None or message.get("type") != "hello" or message.get("protocol") != PROTOCOL:
        session.close(PROTOCOL_ERROR, "no-hello", f"the first message is a hello of protocol {PROTOCOL!r}")
        return False
    try:
        session.accepts = accepts.parse(message.get("accepts"))
    except accepts.BadAccepts as bad:
        session.close(PROTOCOL_ERROR, "bad-hello", str(bad))
        return False
    await asyncio.to_thread(session.gateway.bots.accept, session.account.id, session.connection, session.accepts)
    return True


async def _pace(session: BotSession) -> None:
    """Read at most ``MESSAGES_PER_SECOND`` messages in any second: a faster bot waits, nothing it says is lost (an
    answer dropped would leave its decision to the clock), and its socket's buffers fill, so a flood slows the
    sender rather than the server."""
    while not session.rate.take(now := time.monotonic()):
        await asyncio.sleep(max(0.001, session.rate.times[0] + 1.0 - now))


async def _converse(session: BotSession) -> None:
    while not session.closing:
        await _pace(session)
        text = await _receive(session)
        if text is None:
            return
        message = _parse(session, text)
        if message is not None:
            await session.answer(message)


async def _watch(session: BotSession) -> None:
    """Close the connection once its token no longer opens the bot, the bot or its owner was disabled, or a newer
    connection replaced it."""
    while not session.closing:
        await asyncio.sleep(CHECK_SECONDS)
        why = await asyncio.to_thread(session.gateway.bots.lost, session.account.id, session.token, session.connection)
        if why == "token":
            session.close(AUTH, "token-gone", "the bot's token was revoked or renewed")
        elif why == "disabled":
            session.close(DISABLED, "disabled", _disabled(None))
        elif why == "replaced":
            session.close(REPLACED, "replaced", "a newer connection of this bot replaced this one")
