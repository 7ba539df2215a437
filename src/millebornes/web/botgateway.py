"""The bots' WebSocket, ``/ws/bot`` (docs/web.md, "Bots online"; docs/protocol.md, "Playing online"): a program
holding a bot account's token speaks the bot protocol with this server as its host.

The server says ``hello``, the bot answers ``hello``; then the server sends a ``challenge`` for each table a person
creates with a seat for the bot, and a ``decide`` for each decision of a seat the bot holds.  An accepted challenge
seats the connection through the room's own join, as a page's socket (:class:`SeatLink` is its connection), so the
turn clock, the grace period, the stand-ins and presence treat the bot as any remote player, and its account holds
the seat.  The decide's observation is the one the seat's state frame shows, nothing more.  Every limit refuses
with an ``error`` message and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, FastAPI, WebSocket

from ..protocol import PROTOCOL
from .accountstore import Account
from .botstore import Bots
from .client import MovingWindow
from .errors import Refused, Unprocessable
from .hall import Hall
from .room import Room
from .store import FINISHED, PLAYING, SavedTable
from .throttle import CreationThrottle

log = logging.getLogger("millebornes.web")

router = APIRouter()

LINE_BYTES = 16 * 1024
"""The longest message a bot may send: an action or an answer is a few dozen bytes."""
MESSAGES_PER_SECOND = 20
HELLO_SECONDS = 10.0
CHALLENGE_SECONDS = 10.0
"""A challenge not answered within this is declined."""
DECISION_SECONDS = 10.0
"""At a table without a turn clock, the stand-in plays a decision the bot did not answer within this."""
BAD_ANSWERS = 3
"""Wrong answers to one decision before the stand-in plays it."""
TABLES_AT_ONCE = 8
"""Tables a bot plays at once, challenges waiting for its answer included."""
CHALLENGES_PER_MINUTE = 20
BOTS_MADE_PER_MINUTE = 10
"""Bots one account makes in a minute (web/botaccounts.py): a made-and-deleted loop stays slow."""
CHECK_SECONDS = 5.0
"""How often a connection checks that its token still opens the bot and that no newer connection replaced it (a
renewal at another server process, or a newer connection there)."""
AUTH, REPLACED, PROTOCOL_ERROR = 4401, 4409, 4400


@dataclass
class Decision:
    """A decide waiting for the bot's answer."""

    link: SeatLink
    seq: int
    observation: Mapping[str, Any]
    legal: list[str]
    bad: int = 0


@dataclass
class Challenge:
    table_id: str
    seat: int
    answer: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class SeatLink:
    """The bot's connection to one seat of one table, as the room knows a connection (``seat`` and ``send``)."""

    def __init__(self, session: BotSession, table_id: str, seat: int, token: str):
        self.session = session
        self.table_id = table_id
        self.seat: int | None = seat
        self.token = token
        """The seat's token: a first join replaces it (the welcome carries the new one), kept for a reconnection."""
        self.reclaimed = -1
        """The last ``seq`` at which the bot asked its seat back from a stand-in."""

    @property
    def room(self) -> Room | None:
        """The table's room while it is in memory (a seat with a socket keeps it there)."""
        return self.session.gateway.hall.rooms.get(self.table_id)

    def send(self, frame: Mapping[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "welcome" and frame.get("token"):
            self.token = frame["token"]
        elif kind == "state":
            self.session.state(self, frame)


class BotSession:
    """One bot's WebSocket: its outgoing queue, its open requests and the seats it holds."""

    def __init__(self, ws: WebSocket, gateway: Gateway, account: Account, token: str, connection: str):
        self.ws = ws
        self.gateway = gateway
        self.account = account
        self.token = token
        self.connection = connection
        self.out: asyncio.Queue[dict | tuple[int, str]] = asyncio.Queue()
        self.rate = MovingWindow(MESSAGES_PER_SECOND)
        self.closing = False
        self.ids = 0
        self.decisions: dict[int, Decision] = {}
        self.challenges: dict[int, Challenge] = {}
        self.links: dict[str, SeatLink] = {}
        self.tasks: set[asyncio.Task] = set()

    # ---------------------------------------------------------------- sending
    def send(self, message: dict) -> None:
        if self.closing:
            return
        if self.out.qsize() > 1000:
            log.warning("bot %s does not read its messages; closing it", self.account.username)
            self.close(1008, "too many messages waiting to be read")
            return
        self.out.put_nowait(message)

    def error(self, request: int | None, message: str) -> None:
        self.send({"type": "error", "id": request, "message": message})

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.error(None, reason)
            self.out.put_nowait((code, reason[:120]))
            self.closing = True

    async def pump(self) -> None:
        try:
            while True:
                item = await self.out.get()
                if isinstance(item, tuple):
                    await self.ws.close(*item)
                    return
                await self.ws.send_text(json.dumps(item, separators=(",", ":"), ensure_ascii=False))
        except Exception as exc:
            log.debug("a bot's socket stopped taking messages: %r", exc)

    def later(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("bot %s: a task failed", self.account.username, exc_info=task.exception())

    def next_id(self) -> int:
        self.ids += 1
        return self.ids

    # ---------------------------------------------------------------- what the rooms tell the seats
    def state(self, link: SeatLink, frame: Mapping[str, Any]) -> None:
        """A state frame of a seat the bot holds: a decide when the decision is the seat's, the hand's score
        closed at once (a program reads it in no time), and the seat taken back from a stand-in once it played."""
        room, seat = link.room, link.seat
        if room is None or seat is None:
            return
        obs = frame["observation"]
        events = frame.get("events") or []
        if frame["status"] == FINISHED or obs.get("is_over"):
            self.forget(link)
            self.send(
                {
                    "type": "over",
                    "table": link.table_id,
                    "scores": list(obs.get("match_scores") or []),
                    "winners": list(obs.get("winners") or []),
                }
            )
            return
        if any(e.get("type") == "hand-over" for e in events):
            self.later(room.sheet_closed(seat))
        stood_in = any(s["seat"] == seat and s["standin"] for s in frame.get("seats") or [])
        if stood_in:
            self._drop(link)
            moved = any(e.get("type") == "action" and e.get("seat") == seat for e in events)
            if (moved or obs.get("to_act") != seat) and link.reclaimed < frame["seq"]:
                link.reclaimed = frame["seq"]
                self.later(self._reclaim(room, seat))
            return
        legal = list(obs.get("legal_actions") or [])
        if frame["status"] == PLAYING and legal:
            self.ask(link, frame["seq"], obs, legal)
        else:
            self._drop(link)

    async def _reclaim(self, room: Room, seat: int) -> None:
        try:
            await room.back(seat)
        except Refused:
            pass

    def ask(self, link: SeatLink, seq: int, obs: Mapping[str, Any], legal: list[str]) -> None:
        """A decide for the seat's decision at ``seq`` (once: the same state sent again asks nothing new)."""
        if any(d.link is link and d.seq == seq for d in self.decisions.values()):
            return
        self._drop(link)
        self._send_decide(Decision(link, seq, obs, legal))
        room = link.room
        if room is not None and room.table.clock <= 0:
            self.later(self._limit(link, seq))

    def _send_decide(self, d: Decision) -> None:
        request = self.next_id()
        self.decisions[request] = d
        self.send(
            {
                "type": "decide",
                "id": request,
                "observation": d.observation,
                "legal_actions": d.legal,
                "table": d.link.table_id,
            }
        )

    def _drop(self, link: SeatLink) -> None:
        for request in [i for i, d in self.decisions.items() if d.link is link]:
            del self.decisions[request]

    async def _limit(self, link: SeatLink, seq: int) -> None:
        """A table without a turn clock: the stand-in plays a decision left unanswered ``DECISION_SECONDS``."""
        await asyncio.sleep(self.gateway.decision_seconds)
        if link.room is not None and link.seat is not None and not self.closing:
            await link.room.time_out(link.seat, seq)

    # ---------------------------------------------------------------- what the bot says
    async def answer(self, message: Mapping[str, Any]) -> None:
        kind, request = message.get("type"), message.get("id")
        if kind in ("accept", "decline"):
            found = self.challenges.get(request) if isinstance(request, int) else None
            if found is None:
                self.error(request if isinstance(request, int) else None, f"no open challenge has the id {request!r}")
            elif not found.answer.done():
                found.answer.set_result(kind == "accept")
        elif kind in ("action", "error"):
            await self.act(message)
        elif kind == "challenge":
            self.error(None, "a bot cannot challenge yet: a person creates the table with a seat for the bot")
        elif kind == "hello":
            self.error(None, "hello was said already")
        else:
            self.error(request if isinstance(request, int) else None, f"unknown message type {str(kind)[:40]!r}")

    async def act(self, message: Mapping[str, Any]) -> None:
        """The bot's answer to a decide: submitted as the seat's person would; a wrong one (an illegal action, an
        ``error``) is told and the decision asked again, and after ``BAD_ANSWERS`` the stand-in plays it."""
        request = message.get("id")
        if not isinstance(request, int) or isinstance(request, bool):
            self.error(None, "an action needs the integer id of its decide")
            return
        d = self.decisions.pop(request, None)
        if d is None:
            self.error(request, f"request {request} is not open: answered already, or the table moved on")
            return
        room, seat = d.link.room, d.link.seat
        if room is None or seat is None:
            return
        action = message.get("action")
        if message["type"] == "error":
            wrong = f"the bot could not decide: {str(message.get('message'))[:200]}"
        elif not isinstance(action, str) or action not in d.legal:
            wrong = f"{str(action)[:60]!r} is not one of the legal actions of request {request}"
        else:
            try:
                await room.submit(seat, action, d.seq, person=True)
                return
            except Refused as r:
                if r.code in ("stale", "standin", "finished", "not-your-turn"):
                    self.error(request, f"request {request} is over: {r.message}")
                    return
                wrong = r.message
        d.bad += 1
        self.error(request, wrong)
        if d.bad >= BAD_ANSWERS:
            self.error(request, f"{BAD_ANSWERS} wrong answers: the stand-in plays this decision")
            await room.time_out(seat, d.seq)
        else:
            self._send_decide(d)

    # ---------------------------------------------------------------- challenges and seats
    @property
    def busy(self) -> int:
        """Tables played or offered now."""
        return len(self.links) + len(self.challenges)

    def challenge(self, table: SavedTable, seat: int, token: str) -> None:
        request = self.next_id()
        found = Challenge(table.id, seat)
        self.challenges[request] = found
        self.send(
            {
                "type": "challenge",
                "id": request,
                "table": table.id,
                "seat": seat,
                "edition": table.ruleset,
                "players": table.players,
                "teams": table.teams,
                "rated": table.rated,
                "clock": table.clock,
            }
        )
        self.gateway.later(self._settle(request, found, token))

    async def _settle(self, request: int, found: Challenge, token: str) -> None:
        """The bot's answer, or none in time: a decline; the seat then goes to a built-in bot."""
        try:
            accepted = await asyncio.wait_for(asyncio.shield(found.answer), self.gateway.challenge_seconds)
        except TimeoutError:
            accepted = False
        finally:
            self.challenges.pop(request, None)
        if accepted and not self.closing and await self.sit(found.table_id, found.seat, token):
            return
        await self.gateway.decline(found.table_id, found.seat)

    async def sit(self, table_id: str, seat: int, token: str) -> bool:
        """Join the seat through the room, as a page does with the seat's link."""
        link = SeatLink(self, table_id, seat, token)
        self.links[table_id] = link
        try:
            room = await self.gateway.hall.join(link, table_id, seat, self.account.username, token)
        except Refused as r:
            log.info("bot %s could not take seat %d of table %s: %s", self.account.username, seat, table_id, r.message)
            room = None
        if room is None:
            self.links.pop(table_id, None)
            return False
        return True

    def forget(self, link: SeatLink) -> None:
        """The seat's match is over (or the bot leaves): the room no longer counts this connection."""
        self._drop(link)
        if self.links.get(link.table_id) is link:
            del self.links[link.table_id]
        room = link.room
        if room is not None:  # after the room's step that told the end, not inside it
            asyncio.get_running_loop().call_soon(room.leave, link)

    def leave_all(self) -> dict[str, tuple[int, str]]:
        """The connection ends: every seat left (its grace period counts), and what a reconnection needs."""
        held = {}
        for link in list(self.links.values()):
            room = link.room
            if link.seat is not None and room is not None and not room.closed:
                held[link.table_id] = (link.seat, link.token)
                room.leave(link)
        self.links.clear()
        self.decisions.clear()
        for found in self.challenges.values():
            if not found.answer.done():
                found.answer.set_result(False)
        return held


class Gateway:
    """Every bot connected to this server process, by account id; made on first use (:func:`gateway_of`)."""

    def __init__(self, app: FastAPI):
        self.app = app
        self.sessions: dict[str, BotSession] = {}
        self.parked: dict[str, dict[str, tuple[int, str]]] = {}
        """The seats of bots whose connection ended, for their next connection here to take back."""
        self.throttle = CreationThrottle(CHALLENGES_PER_MINUTE, "bot-challenges")
        self.creations = CreationThrottle(BOTS_MADE_PER_MINUTE, "bots")
        self.challenge_seconds = CHALLENGE_SECONDS
        self.decision_seconds = DECISION_SECONDS
        self.tasks: set[asyncio.Task] = set()
        """Answers to challenges being settled: they outlive the connection that was asked (a decline then)."""

    def later(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def hall(self) -> Hall:
        return self.app.state.hall

    @property
    def bots(self) -> Bots:
        return Bots(self.app.state.store)

    def named(self, username: str) -> BotSession | None:
        key = username.casefold()
        return next((s for s in self.sessions.values() if s.account.username.casefold() == key), None)

    def kick(self, account_id: str, reason: str) -> None:
        """Close the bot's connection here at once (its token was renewed or revoked, or the bot deleted)."""
        session = self.sessions.get(account_id)
        if session is not None:
            session.close(AUTH, reason)

    async def decline(self, table_id: str, seat: int) -> None:
        room = await self.hall.room(table_id)
        if room is None:
            return
        try:
            await room.decline(seat)
        except Refused:
            pass

    def challengeable(self, seats: list[tuple[int, str]]) -> dict[int, BotSession]:
        """The connected bot of each bot-account seat (index, name), or :class:`Unprocessable` (nothing changed):
        a bot not connected here, one at its tables' limit, or challenged too often this minute."""
        found: dict[int, BotSession] = {}
        for seat, name in seats:
            session = self.named(name)
            if session is None or session.closing:
                raise Unprocessable("seats", f"seat {seat}: the bot {name[:32]!r} is not connected now")
            if session in found.values():
                raise Unprocessable("seats", f"seat {seat}: the bot {name[:32]!r} has a seat at this table already")
            if session.busy >= TABLES_AT_ONCE:
                raise Unprocessable(
                    "seats", f"seat {seat}: the bot {name[:32]!r} plays {TABLES_AT_ONCE} tables already"
                )
            found[seat] = session
        for seat, session in found.items():
            wait = self.throttle.take(session.account.id)
            if wait is not None:
                raise Unprocessable(
                    "seats",
                    f"seat {seat}: the bot {session.account.username!r} was challenged {CHALLENGES_PER_MINUTE} "
                    f"times this minute; try again in {wait} s",
                )
        return found

    async def challenge(self, table: SavedTable, bots: Mapping[int, BotSession], tokens: Mapping[int, str]) -> None:
        """Each bot's account holds its seat (not free in the lobby), and each bot is asked."""
        for seat, session in bots.items():
            await asyncio.to_thread(self.bots.hold_seat, table.id, seat, session.account.id)
            table.seats[seat].claimed = True
            session.challenge(table, seat, tokens[seat])


def gateway_of(app: FastAPI) -> Gateway:
    gateway = getattr(app.state, "bot_gateway", None)
    if gateway is None:
        gateway = app.state.bot_gateway = Gateway(app)
    return gateway


def bearer(ws: WebSocket) -> str | None:
    scheme, _, token = ws.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and 0 < len(token) <= 128 else None


@router.websocket("/ws/bot")
async def bot_socket(ws: WebSocket) -> None:
    """The token is checked before anything else; a wrong one gets an error and the close 4401, nothing more."""
    await ws.accept()
    gateway = gateway_of(ws.app)
    token = bearer(ws)
    connection = secrets.token_hex(8)
    account = None if token is None else await asyncio.to_thread(gateway.bots.connect, token, connection)
    if token is None or account is None:
        message = "send the bot's token in the header Authorization: Bearer <token>"
        if token is not None:
            message = "this token opens no bot: it is wrong, or was revoked or renewed"
        await ws.send_text(json.dumps({"type": "error", "id": None, "message": message}))
        await ws.close(AUTH, "unauthorized")
        return
    session = BotSession(ws, gateway, account, token, connection)
    older = gateway.sessions.get(account.id)
    if older is not None:
        older.close(REPLACED, "a newer connection of this bot replaced this one")
        gateway.parked.setdefault(account.id, {}).update(older.leave_all())
    gateway.sessions[account.id] = session
    pump = asyncio.create_task(session.pump())
    watch = asyncio.create_task(_watch(session))
    try:
        if await _handshake(session):
            for table_id, (seat, seat_token) in gateway.parked.pop(account.id, {}).items():
                await session.sit(table_id, seat, seat_token)
            await _converse(session)
    except Exception:
        log.exception("bot %s: its connection failed", account.username)
        session.close(1011, "the server failed")
    finally:
        watch.cancel()
        if gateway.sessions.get(account.id) is session:
            del gateway.sessions[account.id]
            held = session.leave_all()
            if held:
                gateway.parked.setdefault(account.id, {}).update(held)
        else:
            session.leave_all()
        for task in list(session.tasks):
            task.cancel()
        if session.closing:
            try:
                await asyncio.wait_for(pump, 5)
            except Exception:
                pass
        pump.cancel()


async def _receive(session: BotSession) -> str | None:
    """The next message's text, or None once the socket is gone; a binary message is refused."""
    while True:
        msg = await session.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        if text is not None:
            return text
        session.error(None, "messages are JSON text, not binary")


def _parse(session: BotSession, text: str) -> dict | None:
    """Size, then JSON; a refused message gets its error and None (the rate is :func:`_pace`'s)."""
    if len(text) > LINE_BYTES or len(text.encode()) > LINE_BYTES:
        session.error(None, f"a message is at most {LINE_BYTES} bytes")
        return None
    if not text.strip():
        return None
    try:
        message = json.loads(text)
    except ValueError as exc:
        session.error(None, f"the message is not valid JSON: {exc}")
        return None
    if not isinstance(message, dict):
        session.error(None, "a message is a JSON object")
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
                "bad_answers": BAD_ANSWERS,
            },
        }
    )
    try:
        text = await asyncio.wait_for(_receive(session), HELLO_SECONDS)
    except TimeoutError:
        session.close(PROTOCOL_ERROR, f"answer the hello within {HELLO_SECONDS:g} s")
        return False
    message = None if text is None else _parse(session, text)
    if text is None:
        return False
    if message is None or message.get("type") != "hello" or message.get("protocol") != PROTOCOL:
        session.close(PROTOCOL_ERROR, f"the first message is a hello of protocol {PROTOCOL!r}")
        return False
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
    """Close the connection once its token no longer opens the bot, or a newer connection replaced it."""
    while not session.closing:
        await asyncio.sleep(CHECK_SECONDS)
        why = await asyncio.to_thread(session.gateway.bots.lost, session.account.id, session.token, session.connection)
        if why == "token":
            session.close(AUTH, "the bot's token was revoked or renewed")
        elif why == "replaced":
            session.close(REPLACED, "a newer connection of this bot replaced this one")
