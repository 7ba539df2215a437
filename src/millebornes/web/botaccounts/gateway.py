"""Bots online (docs/web-api.md, "Bots online"; docs/protocol.md, "Playing online"): the sessions of the programs
holding a bot account's token, which speak the bot protocol with this server as host over ``/ws/bot``
(:mod:`.socket`), and the gateway that challenges them.

The server says ``hello``, the bot answers ``hello``; then the server sends a ``challenge`` for each table a person
(or another bot) creates with a seat for the bot, and a ``decide`` for each decision of a seat the bot holds.  The
bot's account holds the seat from the table's creation, and an accepted challenge seats the connection by that
account through the room's own join, as a page's socket (:class:`SeatLink` is its connection), so the turn clock,
the grace period, the stand-ins and presence treat the bot as any remote player.  Its seats are its account's, not
this process's: a new connection, at any process, sits down again at every live table where the account holds a
seat it joined.  With several processes, a challenge to a bot connected to another one goes there as a notice
(:attr:`..db.notices.Kind.CHALLENGE`), and the creating process declines it itself if the seat is still not joined in
time.  A bot challenges another with a ``challenge`` of its own: the table is made as a person's is
(:class:`..tables.service.Creation`).  The decide's observation is the one the seat's state frame shows, nothing
more, except that a coup fourré asked in the window names the bot's seat in ``to_act`` (the frame shows nobody, so
that the other seats learn nothing; the bot knows it is asked).  Every limit refuses with an ``error`` message and
changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError

from ..accounts.repo import Account
from ..db.notices import Kind, challenge_args
from ..errors import Refused, Throttled, Unprocessable
from ..logfields import about_table
from ..tables.client import MovingWindow, pump
from ..tables.creation import CreateTable, SeatSpec
from ..tables.hall import Hall
from ..tables.repo import Tables
from ..tables.room import Room
from ..tables.rows import FINISHED, PLAYING, WAITING, SavedTable
from ..tables.service import BotSeat, Creation, Made
from ..tasks import Tasks
from ..throttle import CreationThrottle
from ..tokens import hash_token, new_token
from .accepts import ANY, refusal
from .codes import CODES, known
from .repo import Bots

log = logging.getLogger("millebornes.web")


LINE_BYTES = 16 * 1024
"""The longest message a bot may send: an action or an answer is a few dozen bytes."""
MESSAGES_PER_SECOND = 20
HELLO_SECONDS = 10.0
CHALLENGE_SECONDS = 10.0
"""A challenge not answered within this is declined."""
CHALLENGE_MARGIN = 5.0
"""The process that made a table declines a bot's seat still not joined this long after ``CHALLENGE_SECONDS``:
the bot's process (another one, maybe stale or dead) never answered."""
DECISION_SECONDS = 10.0
"""At a table without a turn clock, the stand-in plays a decision the bot did not answer within this."""
BAD_ANSWERS = 3
"""Wrong answers to one decision before the stand-in plays it."""
TABLES_AT_ONCE = 8
"""Tables a bot plays at once, challenges waiting for its answer included."""
CHALLENGES_PER_MINUTE = 20
BOTS_MADE_PER_MINUTE = 10
"""Bots one account makes in a minute (web/botaccounts/routes.py): a made-and-deleted loop stays slow."""
SEEK_SECONDS = 600.0
"""A seek nobody took within this is withdrawn: its table is cancelled."""
CHECK_SECONDS = 5.0
"""How often a connection checks that its token still opens the bot and that no newer connection replaced it (a
renewal at another server process, or a newer connection there)."""
AUTH, REPLACED, PROTOCOL_ERROR = 4401, 4409, 4400
DISABLED = 4403
"""The close of a bot whose account, or whose owner's, the server's operator disabled (``millebornes admin``)."""


@dataclass
class Decision:
    """A decide waiting for the bot's answer."""

    link: SeatLink
    seq: int
    observation: Mapping[str, Any]
    legal: list[str]
    ends: float
    """When the table's stand-in plays it (``time.monotonic``): the decide's ``seconds_left`` counts down to it."""
    bad: int = 0


@dataclass
class Challenge:
    table_id: str
    seat: int
    answer: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


@dataclass(frozen=True)
class Challengee:
    """A bot a table challenges: its account, its name, its connection if it is connected to this process (None:
    its row says it is connected to another one), and what that connection's hello said it takes."""

    account_id: str
    name: str
    session: BotSession | None
    accepts: Mapping[str, Any] | None


class SeatLink:
    """The bot's connection to one seat of one table, as the room knows a connection (``seat`` and ``send``)."""

    def __init__(self, session: BotSession, table_id: str, seat: int):
        self.session = session
        self.table_id = table_id
        self.seat: int | None = seat
        self.reclaimed = -1
        """The last ``seq`` at which the bot asked its seat back from a stand-in."""

    @property
    def room(self) -> Room | None:
        """The table's room while it is in memory (a seat with a socket keeps it there)."""
        return self.session.gateway.hall.rooms.get(self.table_id)

    def send(self, frame: Mapping[str, Any]) -> None:
        """A welcome's new token opens nothing the bot needs (its account holds the seat): the states alone."""
        if frame.get("type") == "state":
            self.session.state(self, frame)

    def turn_away(self, code: str, message: str, close_code: int) -> None:
        """The seek this bot joined was withdrawn before its match started: the bot is told ``withdrawn`` and leaves
        the seat; its socket, which serves its other tables, stays open.  The seek's own bot has left its seat and
        been told already (:meth:`Gateway.withdraw`)."""
        session = self.session
        if session.links.get(self.table_id) is self:
            session._drop(self)
            del session.links[self.table_id]
            session.send({"type": "withdrawn", "table": self.table_id})


class BotSession:
    """One bot's WebSocket: its outgoing queue, its open requests and the seats it holds."""

    def __init__(
        self, ws: WebSocket, gateway: Gateway, creation: Creation, account: Account, token: str, connection: str
    ):
        self.ws = ws
        self.gateway, self.creation = gateway, creation
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
        self.tasks = Tasks()
        self.accepts: dict[str, Any] = dict(ANY)
        """What its hello said the bot takes (:mod:`.accepts`)."""

    # ---------------------------------------------------------------- sending
    def send(self, message: dict) -> None:
        if self.closing:
            return
        if self.out.qsize() > 1000:
            log.warning("bot %s does not read its messages; closing it", self.account.username)
            self.close(1008, "unread", "more than 1000 messages wait for the bot to read them")
            return
        self.out.put_nowait(message)

    def error(self, request: int | None, code: str, message: str) -> None:
        """An ``error``: ``code`` from :data:`.codes.CODES`, ``message`` the rule broken, in words."""
        self.send({"type": "error", "id": request, "code": known(code), "message": message})

    def close(self, close_code: int, code: str, reason: str) -> None:
        """The last ``error`` (``code``, ``reason``), then the WebSocket's close with ``close_code``."""
        if not self.closing:
            self.error(None, code, reason)
            self.out.put_nowait((close_code, reason[:120]))
            self.closing = True

    async def pump(self) -> None:
        await pump(self.ws, self.out)

    def later(self, work: Coroutine[Any, Any, Any]) -> None:
        self.tasks.keep(work, f"bot {self.account.username}: a task failed")

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
            if obs.get("to_act") is None:  # the coup-fourré window: every seat sees nobody to act, but it is ours
                obs = {**obs, "to_act": seat}
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
        room = link.room
        self._send_decide(Decision(link, seq, obs, legal, self._ends(room, obs)))
        if room is not None and room.table.clock <= 0 and obs.get("decision") != "coup-fourre":
            self.later(self._limit(link, seq))

    def _ends(self, room: Room | None, obs: Mapping[str, Any]) -> float:
        """When the stand-in plays this decision: the coup-fourré window's end, the turn clock's, or
        ``decision_seconds`` from now at a table without a clock."""
        at = time.monotonic()
        if room is not None and obs.get("decision") == "coup-fourre" and room.window is not None:
            if room.window.deadline is not None:
                return room.window.deadline
            return at + room.table.cf_timeout
        if room is not None and room.table.clock > 0:
            return room.turn.ends if room.turn.ends is not None else at + room.table.clock
        return at + self.gateway.decision_seconds

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
                "seconds_left": round(max(0.0, d.ends - time.monotonic()), 1),
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
                self.error(
                    request if isinstance(request, int) else None,
                    "unknown-challenge",
                    f"{kind} answers an open challenge by its id, and no open challenge has the id {request!r}",
                )
            elif not found.answer.done():
                found.answer.set_result(kind == "accept")
        elif kind in ("action", "error"):
            await self.act(message)
        elif kind == "challenge":
            await self.dare(message)
        elif kind == "seek":
            await self.seek(message)
        elif kind == "join":
            await self.join(message)
        elif kind == "unseek":
            await self.unseek(message)
        elif kind == "hello":
            self.error(None, "hello-again", "hello is said once, first: this connection said it already")
        else:
            self.error(
                request if isinstance(request, int) else None,
                "unknown-type",
                f"unknown message type {str(kind)[:40]!r}: a bot sends hello, action, error, accept, decline, "
                "challenge, seek, join or unseek",
            )

    async def act(self, message: Mapping[str, Any]) -> None:
        """The bot's answer to a decide: submitted as the seat's person would; a wrong one (an illegal action, an
        ``error``) is told and the decision asked again, and after ``BAD_ANSWERS`` the stand-in plays it."""
        request = message.get("id")
        if not isinstance(request, int) or isinstance(request, bool):
            self.error(None, "bad-id", f"an {message['type']} needs the integer id of its decide")
            return
        d = self.decisions.pop(request, None)
        if d is None:
            self.error(request, "stale", f"request {request} is not open: answered already, or the table moved on")
            return
        with about_table(d.link.table_id):  # what the move writes in the log is about its table, on the bot's socket
            await self._answered(d, request, message)

    async def _answered(self, d: Decision, request: int, message: Mapping[str, Any]) -> None:
        room, seat = d.link.room, d.link.seat
        if room is None or seat is None:
            return
        action = message.get("action")
        if message["type"] == "error":
            code, wrong = "bot-error", f"the bot could not decide: {str(message.get('message'))[:200]}"
        elif not isinstance(action, str) or action not in d.legal:
            code = "illegal-action"
            wrong = f"an action is one of its decide's legal actions: {str(action)[:60]!r} is not one of "
            wrong += f"request {request}'s"
        else:
            try:
                await room.submit(seat, action, d.seq, person=True)
                return
            except Refused as r:
                if r.code in ("stale", "standin", "finished", "not-your-turn"):
                    self.error(request, "stale", f"request {request} is over: {r.message}")
                    return
                code, wrong = "illegal-action", r.message
        d.bad += 1
        self.error(request, code, wrong)
        if d.bad >= BAD_ANSWERS:
            self.error(request, "stand-in-plays", f"{BAD_ANSWERS} wrong answers: the stand-in plays this decision")
            await room.time_out(seat, d.seq)
        else:
            self._send_decide(d)

    # ---------------------------------------------------------------- challenges and seats
    @property
    def busy(self) -> int:
        """Tables played or offered now."""
        return len(self.links) + len(self.challenges)

    def challenge(self, table: SavedTable, seat: int) -> None:
        """Ask the bot; its answer (or none in time) settles the seat."""
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
        self.gateway.later(self._settle(request, found), found.table_id)

    async def _settle(self, request: int, found: Challenge) -> None:
        """The bot's answer, or none in time: a decline; the seat then goes to a built-in bot."""
        try:
            accepted = await asyncio.wait_for(asyncio.shield(found.answer), self.gateway.challenge_seconds)
        except TimeoutError:
            accepted = False
        finally:
            self.challenges.pop(request, None)
        if accepted and not self.closing and await self.sit(found.table_id, found.seat):
            return
        await self.gateway.decline(found.table_id, found.seat, self.account.id)

    async def sit(self, table_id: str, seat: int) -> bool:
        """Join the seat through the room by the bot's account, as a page signed in to the account that holds the
        seat does (the database checks the holder in the join's own update)."""
        link = SeatLink(self, table_id, seat)
        self.links[table_id] = link
        try:
            room = await self.gateway.hall.join(link, table_id, seat, self.account.username, account=self.account.id)
        except Refused as r:
            log.info(
                "bot %s could not take seat %d of table %s: %s",
                self.account.username,
                seat,
                table_id,
                r.message,
                extra={"table_id": table_id},
            )
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

    def leave_all(self) -> None:
        """The connection ends: every seat left (its grace period counts; the account keeps it for the bot's next
        connection), and every open challenge declined."""
        for link in list(self.links.values()):
            room = link.room
            if link.seat is not None and room is not None and not room.closed:
                room.leave(link)
        self.links.clear()
        self.decisions.clear()
        for found in self.challenges.values():
            if not found.answer.done():
                found.answer.set_result(False)

    async def _same_owner(self, opponent: str) -> bool:
        def owners() -> tuple[str | None, str | None]:
            mine, theirs = self.gateway.bots.named(self.account.username), self.gateway.bots.named(opponent)
            return (mine.owner_id if mine else None), (theirs.owner_id if theirs else None)

        mine, theirs = await asyncio.to_thread(owners)
        return mine is not None and mine == theirs

    async def dare(self, message: Mapping[str, Any]) -> None:
        """The bot's own ``challenge``: a table made as a person's ``POST /api/tables`` makes it (every check and
        limit), public, the bot on seat 0 and the opponent on seat 1; ``challenged`` names it, the bot sits down by
        its account, then the opponent is challenged as by a person's table, wherever it is connected.  A refusal
        is an ``error`` and makes nothing."""
        request = message.get("id")
        if not isinstance(request, int) or isinstance(request, bool):
            self.error(None, "bad-id", "a challenge needs an integer id")
            return
        why: tuple[str, str] | None = None
        if (wrong := _dare_fields(message)) is not None:
            why = "bad-challenge", wrong
        opponent = message.get("opponent")
        if why is None and str(opponent).casefold() == self.account.username.casefold():
            why = "self-challenge", "a bot cannot challenge itself"
        if why is None and self.busy >= TABLES_AT_ONCE:
            why = "tables-full", f"a bot plays at most {TABLES_AT_ONCE} tables at once, challenges included"
        if why is None and message["rated"] and await self._same_owner(str(opponent)):
            why = (
                "same-owner",
                "two bots of one owner play casual matches only: a rated one would rate the owner against itself",
            )
        if why is not None:
            self.error(request, *why)
            return
        seats = [SeatSpec(kind="human"), SeatSpec(kind="bot-account", name=opponent)]
        made = await self._make(request, message, seats, "challenge")
        if made is None:
            return
        self.send({"type": "challenged", "id": request, "table": made.table.id})
        if not await self.sit(made.table.id, 0):
            self.error(
                request, "not-seated", f"the bot could not sit down at table {made.table.id}; its opponent is not asked"
            )
            return
        await self.gateway.challenge(made.table, made.bots)

    async def seek(self, message: Mapping[str, Any]) -> None:
        """The bot's ``seek``: a public table made as a ``challenge`` makes one (every check and limit), the bot on
        seat 0 and the other seats open to anybody (the lobby lists it; a bot takes one with ``join``); ``sought``
        names it once the bot sits there (the lobby lists a table from then on).  One open seek a bot, counted in its
        tables; withdrawn when nobody took it in time."""
        request = message.get("id")
        if not isinstance(request, int) or isinstance(request, bool):
            self.error(None, "bad-id", "a seek needs an integer id")
            return
        why: tuple[str, str] | None = None
        if (wrong := _seek_fields(message)) is not None:
            why = "bad-challenge", wrong
        elif (open_seek := self.gateway.sought(self.account.id)) is not None:
            why = "seek-open", f"a bot has at most 1 open seek, and table {open_seek} is this bot's"
        elif self.busy >= TABLES_AT_ONCE:
            why = "tables-full", f"a bot plays at most {TABLES_AT_ONCE} tables at once, its seek included"
        if why is not None:
            self.error(request, *why)
            return
        made = await self._make(request, message, [SeatSpec(kind="human")] * message["players"], "seek")
        if made is None:
            return
        table_id = made.table.id
        self.gateway.seeks[self.account.id] = table_id
        if not await self.sit(table_id, 0):
            self.error(request, "not-seated", f"the bot could not sit down at table {table_id}: the seek is withdrawn")
            await self.gateway.withdraw(self.account.id, table_id)
            return
        self.send({"type": "sought", "id": request, "table": table_id})  # seated: the lobby lists it from now on
        self.gateway.later(self.gateway.seek_ends(self.account.id, table_id), table_id)

    async def unseek(self, message: Mapping[str, Any]) -> None:
        table_id = message.get("table")
        if self.gateway.sought(self.account.id) != table_id or not await self.gateway.withdraw(
            self.account.id, str(table_id)
        ):
            self.error(None, "unknown-seek", f"unseek names the bot's open seek, and {str(table_id)[:40]!r} is not")

    async def join(self, message: Mapping[str, Any]) -> None:
        """The bot takes a free seat of an open public table (a seek): claimed as the lobby claims one, held by its
        account, then joined; its decides follow as after an ``accept``."""
        request, table_id = message.get("id"), message.get("table")
        if not isinstance(request, int) or isinstance(request, bool):
            self.error(None, "bad-id", "a join needs an integer id")
            return
        if not isinstance(table_id, str) or table_id in self.links:
            self.error(request, "no-seat", "join names by its id an open public table where the bot has no seat yet")
            return
        if self.busy >= TABLES_AT_ONCE:
            self.error(request, "tables-full", f"a bot plays at most {TABLES_AT_ONCE} tables at once")
            return
        table = await asyncio.to_thread(self.gateway.tables.get, table_id[:40])
        if table is not None and table.public and table.status == WAITING:
            for free in [s.seat for s in table.seats if s.free]:
                if await self.gateway.hall.claim(table_id, free, hash_token(new_token())):
                    await asyncio.to_thread(self.gateway.bots.hold_seat, table_id, free, self.account.id)
                    if not await self.sit(table_id, free):
                        self.error(request, "not-seated", f"the bot could not sit down at table {table_id}")
                    return
        self.error(request, "no-seat", f"table {table_id[:40]!r} is no open public table with a free seat")

    async def _make(self, request: int, message: Mapping[str, Any], seats: list[SeatSpec], what: str) -> Made | None:
        """The public table of the bot's ``challenge`` or ``seek``, made as ``POST /api/tables`` makes one (every
        check, the bot's challenges a minute and the tables a minute of its address), its account holding seat 0;
        else None, the refusal told."""
        try:
            body = CreateTable(
                ruleset=message["edition"],
                players=message["players"],
                seats=seats,
                clock=message["clock"],
                rated=message["rated"],
                cf_timeout=message.get("cf_timeout", DEFAULT_CF_TIMEOUT),
                public=True,
                spectators=True,
            )
        except ValidationError as exc:
            self.error(request, "bad-challenge", f"the {what} is not valid: {exc.errors()[0].get('msg', '')}"[:300])
            return None
        wait = self.gateway.throttle.take(self.account.id)
        if wait is not None:
            most = self.gateway.throttle.per_minute
            self.error(
                request, "challenge-rate", f"a bot challenges or seeks at most {most} times a minute; again in {wait} s"
            )
            return None
        address = self.ws.client.host if self.ws.client else ""
        try:  # made as POST /api/tables makes a table
            return await self.creation.make(body, address, {0: self.account.id})
        except Unprocessable as exc:
            code = exc.code if exc.code in CODES else "bad-challenge"
            self.error(request, code, f"{exc.field}: {exc.message}")
        except Throttled as t:
            self.error(
                request,
                "table-rate",
                f"at most {t.per_minute} new tables a minute from one address; again in {t.wait} s",
            )
        return None


class Gateway:
    """Every bot connected to this server process, by account id; built once in the app's lifespan."""

    def __init__(self, hall: Hall, tables: Tables):
        self.hall, self.tables = hall, tables
        self.bots = Bots(tables.db)
        self.sessions: dict[str, BotSession] = {}
        self.throttle = CreationThrottle(CHALLENGES_PER_MINUTE, "bot-challenges")
        self.creations = CreationThrottle(BOTS_MADE_PER_MINUTE, "bots")
        self.challenge_seconds = CHALLENGE_SECONDS
        self.challenge_margin = CHALLENGE_MARGIN
        self.decision_seconds = DECISION_SECONDS
        self.seek_seconds = SEEK_SECONDS
        self.seeks: dict[str, str] = {}
        """Each bot's open seek here, by account id: its table."""
        self.tasks = Tasks()
        """Answers to challenges being settled: they outlive the connection that was asked (a decline then)."""

    def sought(self, account_id: str) -> str | None:
        """The table of the bot's open seek here, if nobody has taken it yet (its match not started)."""
        table_id = self.seeks.get(account_id)
        room = None if table_id is None else self.hall.rooms.get(table_id)
        if table_id is not None and room is not None and room.status != WAITING:
            del self.seeks[account_id]
            return None
        return table_id

    async def seek_ends(self, account_id: str, table_id: str) -> None:
        await asyncio.sleep(self.seek_seconds)
        await self.withdraw(account_id, table_id)

    async def withdraw(self, account_id: str, table_id: str) -> bool:
        """The bot's seek, if still open: its table cancelled (expired, at every process), the bot told
        ``withdrawn``; False once its match started."""
        if self.seeks.get(account_id) != table_id:
            return False
        del self.seeks[account_id]
        if not await asyncio.to_thread(self.bots.withdraw, table_id):
            return False
        session = self.sessions.get(account_id)
        if session is not None and (link := session.links.get(table_id)) is not None:
            session._drop(link)
            del session.links[table_id]
        room = self.hall.rooms.pop(table_id, None)
        if room is not None:
            room.cancel()
        if session is not None:
            session.send({"type": "withdrawn", "table": table_id})
        return True

    def later(self, work: Coroutine[Any, Any, Any], table_id: str | None = None) -> None:
        """``table_id``: the table the challenge seats a bot at."""
        self.tasks.keep(work, "bots: a challenge could not be settled", table_id)

    def named(self, username: str) -> BotSession | None:
        key = username.casefold()
        return next((s for s in self.sessions.values() if s.account.username.casefold() == key), None)

    def kick(self, account_id: str, reason: str) -> None:
        """Close the bot's connection here at once (its token was renewed or revoked, or the bot deleted)."""
        session = self.sessions.get(account_id)
        if session is not None:
            session.close(AUTH, "token-gone", reason)

    async def decline(self, table_id: str, seat: int, account_id: str) -> None:
        """The bot declined, or never answered: a built-in bot at the table's stand-in level takes the seat if the
        bot has still not sat down there.  The database decides (a join that raced this one, at any process, keeps
        the seat), and the room here reads the seats back from it, as the other processes do at its notice."""
        level = await asyncio.to_thread(self.bots.challenge_open, table_id, seat, account_id)
        if level is None:
            return
        await asyncio.to_thread(self.tables.seats_to_bots, table_id, [seat], level)
        room = self.hall.rooms.get(table_id)
        if room is not None:
            await room.refresh_seats()

    def refusal(self, session: BotSession) -> str | None:
        """Why a connected bot takes no challenge now (at its tables' limit, or challenged too often this minute; a
        challenge that passes is counted), else None."""
        if session.busy >= TABLES_AT_ONCE:
            return f"the bot {session.account.username!r} plays {TABLES_AT_ONCE} tables already"
        wait = self.throttle.take(session.account.id)
        if wait is not None:
            return (
                f"the bot {session.account.username!r} was challenged {CHALLENGES_PER_MINUTE} times this minute; "
                f"try again in {wait} s"
            )
        return None

    async def challengeable(
        self, seats: list[tuple[int, str]], edition: str, players: int, rated: bool
    ) -> dict[int, Challengee]:
        """The bot of each bot-account seat (index, name) at a table of ``edition``, ``players`` and ``rated``, or
        :class:`Unprocessable` (nothing changed) with its code: a bot connected nowhere (its row says so:
        ``bot-offline``), one named twice (``bot-twice``), one whose hello does not accept such a table, wherever
        it is connected (``bot-refuses``); a bot connected here also at its tables' limit (``bot-busy``) or
        challenged too often this minute (``bot-challenged``; a bot connected to another process declines then,
        at once)."""
        found: dict[int, Challengee] = {}
        for seat, name in seats:
            session = self.named(name)
            if session is not None and not session.closing:
                bot = Challengee(session.account.id, session.account.username, session, session.accepts)
            else:
                row = await asyncio.to_thread(self.bots.named, name)
                if row is None or not row.connected:
                    raise Unprocessable(
                        "seats", f"seat {seat}: the bot {name[:32]!r} is not connected now", "bot-offline"
                    )
                bot = Challengee(row.account_id, row.username, None, row.accepts)
            if any(b.account_id == bot.account_id for b in found.values()):
                raise Unprocessable(
                    "seats", f"seat {seat}: the bot {name[:32]!r} has a seat at this table already", "bot-twice"
                )
            if (why := refusal(bot.accepts, edition, players, rated)) is not None:
                raise Unprocessable("seats", f"seat {seat}: the bot {bot.name!r} takes {why}", "bot-refuses")
            if bot.session is not None and bot.session.busy >= TABLES_AT_ONCE:
                raise Unprocessable(
                    "seats", f"seat {seat}: the bot {name[:32]!r} plays {TABLES_AT_ONCE} tables already", "bot-busy"
                )
            found[seat] = bot
        for seat, bot in found.items():
            if bot.session is not None and (why := self.refusal(bot.session)) is not None:
                code = "bot-busy" if bot.session.busy >= TABLES_AT_ONCE else "bot-challenged"
                raise Unprocessable("seats", f"seat {seat}: {why}", code)
        return found

    async def hold(self, table: SavedTable, holders: Mapping[int, str]) -> None:
        """Each seat (index: account id) is its account's, and not free: the lobby never offers it."""
        for seat, account_id in holders.items():
            await asyncio.to_thread(self.bots.hold_seat, table.id, seat, account_id)
            table.seats[seat].claimed = True

    async def challenge(self, table: SavedTable, bots: Mapping[int, BotSeat]) -> None:
        """Ask each bot (its account holds its seat already, :meth:`hold`): here if it is connected here, else by a
        notice to the process it is connected to; and decline, from here, a seat still not joined once the answer
        is overdue (that process may be gone)."""
        for seat, bot in bots.items():
            session = self.sessions.get(bot.account_id)  # now: it may have connected again meanwhile
            if session is not None and not session.closing:
                session.challenge(table, seat)
            else:
                await asyncio.to_thread(
                    self.tables.notify, table.id, Kind.CHALLENGE, *challenge_args(seat, bot.account_id)
                )
            self.later(self._overdue(table.id, seat, bot.account_id), table.id)

    async def _overdue(self, table_id: str, seat: int, account_id: str) -> None:
        await asyncio.sleep(self.challenge_seconds + self.challenge_margin)
        if await asyncio.to_thread(self.bots.challenge_open, table_id, seat, account_id) is not None:
            log.info("table %s: the bot's seat %d was not taken in time; a built-in bot takes it", table_id, seat)
            await self.decline(table_id, seat, account_id)

    def heard(self, table_id: str, seat: int, account_id: str) -> None:
        """Another process made a table that challenges a bot (web/tables/hall.py): asked here if it is connected
        here."""
        session = self.sessions.get(account_id)
        if session is not None and not session.closing:
            self.later(self._asked_here(session, table_id, seat), table_id)

    async def _asked_here(self, session: BotSession, table_id: str, seat: int) -> None:
        """The challenge, if this is still the bot's live connection (a newer one elsewhere is asked there) and
        the seat still waits for it; a bot at its limits declines at once."""
        account_id = session.account.id
        if await asyncio.to_thread(self.bots.lost, account_id, session.token, session.connection) is not None:
            return
        if await asyncio.to_thread(self.bots.challenge_open, table_id, seat, account_id) is None:
            return
        table = await asyncio.to_thread(self.tables.get, table_id)
        if table is None or table.status != WAITING or session.closing:
            return
        why = self.refusal(session)
        if why is None and (outside := refusal(session.accepts, table.ruleset, table.players, table.rated)):
            why = f"the bot {session.account.username!r} takes {outside}"  # its hello came after the creation read it
        if why is not None:
            log.info("table %s: %s; a built-in bot takes seat %d", table_id, why, seat)
            await self.decline(table_id, seat, account_id)
            return
        session.challenge(table, seat)


DARE_FIELDS = {"type", "id", "opponent", "edition", "players", "rated", "clock"}
"""A bot's ``challenge`` has them all, and may have ``cf_timeout`` too."""
DEFAULT_CF_TIMEOUT = CreateTable.model_fields["cf_timeout"].default


SEEK_FIELDS = {"type", "id", "edition", "players", "rated", "clock"}
"""A bot's ``seek`` has them all, and may have ``cf_timeout`` too."""


def _seek_fields(message: Mapping[str, Any]) -> str | None:
    """What is wrong with the fields of a bot's ``seek`` (their types; the values are the creation's to judge)."""
    unknown = sorted(set(message) - SEEK_FIELDS - {"cf_timeout"})
    if unknown:
        return f"a seek has no field {str(unknown[0])[:40]!r}"
    missing = sorted(SEEK_FIELDS - set(message))
    if missing:
        return f"a seek needs {', '.join(missing)}"
    players = message["players"]
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
        return "players is the number of players, 2 to 8"
    return _common_fields(message)


def _common_fields(message: Mapping[str, Any]) -> str | None:
    if not isinstance(message["edition"], str):
        return "edition is an edition's name"
    if not isinstance(message["rated"], bool):
        return "rated is true or false"
    clock = message["clock"]
    if not isinstance(clock, int | float) or isinstance(clock, bool):
        return "clock is a number of seconds (0: none)"
    window = message.get("cf_timeout", DEFAULT_CF_TIMEOUT)
    if not isinstance(window, int | float) or isinstance(window, bool):
        return "cf_timeout is a number of seconds"
    return None


def _dare_fields(message: Mapping[str, Any]) -> str | None:
    """What is wrong with the fields of a bot's ``challenge`` (their types; the values are the creation's to
    judge), else None."""
    unknown = sorted(set(message) - DARE_FIELDS - {"cf_timeout"})
    if unknown:
        return f"a challenge has no field {str(unknown[0])[:40]!r}"
    missing = sorted(DARE_FIELDS - set(message))
    if missing:
        return f"a challenge needs {', '.join(missing)}"
    opponent, players, clock = message["opponent"], message["players"], message["clock"]
    if not isinstance(opponent, str) or not 1 <= len(opponent) <= 32:
        return "opponent is a bot's name"
    if not isinstance(message["edition"], str):
        return "edition is an edition's name"
    if not isinstance(players, int) or isinstance(players, bool) or players != 2:
        return "players is 2: a bot challenges one bot"
    if not isinstance(message["rated"], bool):
        return "rated is true or false"
    if not isinstance(clock, int | float) or isinstance(clock, bool):
        return "clock is a number of seconds (0: none)"
    window = message.get("cf_timeout", DEFAULT_CF_TIMEOUT)
    if not isinstance(window, int | float) or isinstance(window, bool):
        return "cf_timeout is a number of seconds"
    return None
