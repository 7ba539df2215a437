"""A live table: the game, who is connected to which seat, and the clock that moves bots and timers.

One :class:`Room` per table in play.  Everything that changes the game goes through
:meth:`Room.submit` under the room's lock, in the order docs/web.md gives: the seat must be the
one to act on the state it saw, the engine judges the action on a clone, the action is committed
to the database, and only then does the clone become the game and each seat hear of it, through
what :mod:`.view` lets it see (no coup-fourré tell: after a hazard a human could answer, everyone
waits the same window).  Bots, the coup-fourré window and its end are one task per room that is
replaced at every step, and they submit like anyone else, naming the ``seq`` they decided on, so a
late decision never lands on a game that moved on.

``seq`` counts the steps every seat was shown, not the actions saved (``Room.actions``): a pass is
saved but never shown, and the end of a window is shown without an action.  Both are worked out
from the saved actions alone, so a restart gives every seat the same frames again.

Nothing here knows about HTTP or WebSockets: a connection is anything with ``seat`` and a
non-blocking ``send(frame)``; :mod:`millebornes.web.tables.client` provides them.

Two clocks: ``time.monotonic`` for every moment kept in memory (a window's deadline, the grace period,
the turn clock's end, a hint's cooldown), and the wall clock (:func:`..db.base.now`) for a turn clock's
deadline, which is stored so that a restart or another process keeps it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from ... import tutorial
from ...actions import IllegalAction
from ...state import Game
from .. import metrics
from ..db.base import now
from ..db.notices import Kind, presence_args, said_args
from ..errors import Gone, Refused, Stale, expired
from ..ratings.repo import Ratings
from ..ratings.stats_repo import settle_finished
from ..settings import Settings
from ..tasks import Tasks
from ..thinking import Thinker, bot_seed
from ..tokens import hash_token, new_token, token_opens
from . import outbound
from .cardhelp import refusals
from .chat import Chat
from .facts import iso, people, seat_facts, shown_game, table_facts, view_of
from .hints import Hints
from .pacing import BotMoves, PersonDecides, WindowEnds, next_wait
from .presence import Connection, Presence
from .repo import Tables
from .rows import BROKEN, EXPIRED, FINISHED, PLAYING, WAITING, SavedTable
from .seatbots import SeatBots
from .turn import Turn
from .view import Window, is_hidden

log = logging.getLogger("millebornes.web")

NOT_HELD = "this account does not hold that seat"


async def until(moment: float) -> None:
    """Sleep until ``time.monotonic()`` reaches ``moment``: the event loop may wake a timer a little early."""
    while (left := moment - time.monotonic()) > 0:
        await asyncio.sleep(left)


class Room:
    """One table in play (or finished and looked at); see the module docstring."""

    def __init__(self, saved: SavedTable, repo: Tables, settings: Settings, thinker: Thinker):
        self.table = saved
        self.repo = repo
        self.settings = settings
        self.thinker = thinker
        self.lock = asyncio.Lock()
        self.view = view_of(saved, settings.limits.log_events)
        """The game and the steps its seats were shown: every action goes through ``view.advance``."""
        self.task: asyncio.Task | None = None
        self.save_failures = 0
        self.save_error = ""
        self.bots = SeatBots(saved, thinker)
        self.hints = Hints(saved.id, thinker, settings)
        self.chat = Chat(settings.limits)
        """Memory only: a restart forgets the last lines and the seats' counts."""
        self.notes = len(saved.notes)
        """The log's notes this copy knows (another server process may write more: refresh_seats)."""
        self.tasks = Tasks()
        self.closed = False
        self.presence = Presence((s.seat for s in saved.seats), self.humans | self._stood_in())
        self.away_tasks: dict[int, asyncio.Task] = {}
        self.turn = Turn(self.presence.idle_since)
        self.reading: dict[int, float] = {}
        """The human seats whose page shows the last hand's score, and until when (``time.monotonic``) at the
        most: their turn clock waits meanwhile (:meth:`_held`, :meth:`sheet_closed`).  Memory only."""
        self.leads = True
        """Whether this process wrote the table's last action (or has not seen another process write one):
        it makes the next timed step, and a process that does not waits ``standby`` longer (schedule, _stand_by)."""

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def status(self) -> str:
        return self.table.status

    @property
    def conns(self) -> dict[int, set[Connection]]:
        return self.presence.conns

    @property
    def watchers(self) -> set[Connection]:
        """Spectators' sockets: they get every public step, from no seat (TableView.spectator_observation)."""
        return self.presence.watchers

    @property
    def game(self) -> Game:
        return self.view.game

    @property
    def seq(self) -> int:
        return self.view.seq

    @property
    def window(self) -> Window | None:
        return self.view.window

    @property
    def actions(self) -> int:
        """The saved actions this copy knows (another server process may write more: catch_up)."""
        return self.view.actions

    @property
    def last_events(self) -> list[Mapping[str, Any]]:
        return self.view.last_events

    @property
    def humans(self) -> set[int]:
        """The seats people decide for now: human seats no stand-in bot plays (reseat)."""
        return self.view.humans

    # ---------------------------------------------------------------- what clients see
    def connected(self) -> dict[int, bool]:
        """Each seat: whether someone is on it, here or at another server process."""
        return self.presence.connected()

    def seat_facts(self) -> list[outbound.SeatFacts]:
        at = time.monotonic()
        return seat_facts(self.table, self.connected(), self.presence.away_for(at), self._takeovers(at))

    def _takeovers(self, at: float) -> dict[int, float]:
        """Seconds until a stand-in plays each seat whose person left, as :meth:`_take_over_due` will decide:
        the grace period's end, or the turn clock's when the decision is theirs and it comes first; none while
        the table is not being played."""
        if self.status != PLAYING or self.game.is_over or self.closed:
            return {}
        due = self.presence.grace_left(self.humans, self.table.grace, at)
        late = self.game.to_act
        if late in due and self.window is None and self.turn.ends is not None:
            due[late] = round(min(due[late], max(0.0, self.turn.ends - at)), 1)
        return due

    def turn_facts(self) -> dict | None:
        """Who is deciding, for how long, and the seconds left on the clock; nothing while a window is
        open (who holds the safety is nobody's business) or while the match is not being played."""
        if self.status != PLAYING or self.window is not None or self.game.is_over:
            return None
        return self.turn.facts(self.game.to_act, time.monotonic())

    def facts(self) -> dict:
        """The public facts of GET /api/tables/{table}: while a window is open, the scores from before it."""
        return table_facts(self.table, shown_game(self.view), self.connected())

    def _deadline_left(self) -> float | None:
        if self.window is not None and self.window.deadline is not None:
            return round(max(0.0, self.window.deadline - time.monotonic()), 2)
        return None

    def state_frame(self, seat: int | None, events: list[Mapping[str, Any]]) -> outbound.StateFrame:
        """A seat's state frame; ``seat=None``: a spectator's."""
        obs = self.view.spectator_observation() if seat is None else self.view.observation(seat)
        refused = refusals(self.game, seat) if seat is not None and self.window is None else None
        frame = outbound.state(
            self.seq,
            obs,
            events,
            self.seat_facts(),
            self.status,
            self._deadline_left(),
            self.turn_facts(),
            refused,
            undo=seat is not None and self.may_undo(seat),
        )
        if (lesson := self.lesson(seat)) is not None:
            frame["lesson"] = lesson
        return frame

    def send_state(self, seat: int, events: list[Mapping[str, Any]]) -> None:
        if self.conns.get(seat):
            frame = self.state_frame(seat, events)
            for conn in list(self.conns[seat]):
                conn.send(frame)

    def broadcast_state(self, events: list[Mapping[str, Any]]) -> None:
        for seat in self.conns:
            self.send_state(seat, events)
        if self.watchers:
            frame = self.state_frame(None, events)
            for conn in list(self.watchers):
                conn.send(frame)

    def broadcast(self, frame: outbound.ServerFrame, but: Connection | None = None) -> None:
        for conns in (*self.conns.values(), self.watchers):
            for conn in list(conns):
                if conn is not but:
                    conn.send(frame)

    def say(self, seat: int, key: str) -> None:
        """A seat's quick-chat message to every seat and spectator, and to the other server processes;
        refused and told to nobody over the seat's chat limits (:class:`.chat.Chat`)."""
        self.chat.take(seat, key, time.monotonic())
        self.hear(seat, key)
        self._notify(Kind.SAID, *said_args(seat, key))

    def hear(self, seat: int, key: str) -> None:
        """A quick-chat line said here or at another server process: kept among the last lines, told to all."""
        at = iso(now())
        self.chat.heard(seat, key, at)
        self.broadcast(outbound.said(seat, key, at))

    # ---------------------------------------------------------------- seats
    def authenticate(self, seat: int, token: str) -> bool:
        if not 0 <= seat < len(self.table.seats):
            return False
        s = self.table.seats[seat]
        return s.kind == "human" and token_opens(s.token_hash, token)

    async def claim(self, seat: int, token_hash: str) -> bool:
        """A free seat of an open public table gets the hash of a new token (Store.claim); False when it is
        not free.  Under the lock, so that a join with the old link cannot slip in between."""
        async with self.lock:
            if not await asyncio.to_thread(self.repo.claim, self.id, seat, token_hash):
                return False
            s = self.table.seats[seat]
            s.token_hash, s.claimed = token_hash, True
            return True

    async def join(
        self, conn: Connection, seat: int, nickname: str | None, token: str | None = None, account: str | None = None
    ) -> None:
        """Seat an authenticated connection: welcome, its state, and everyone hears who came.  ``token`` is
        checked again under the lock (a seat claimed from the lobby meanwhile has a new one) and by the
        database's join (another process may have replaced it); ``account``, the account that holds the seat, by
        the database's join alone.  A seat's first join replaces its token: the welcome carries the new one to
        this socket alone, and the invite link, which its creator's page still shows, opens nothing any more
        (docs/web-api.md, "Seat links")."""
        async with self.lock:
            if self.closed:
                raise Gone(self.id)
            if token is not None and not self.authenticate(seat, token):
                raise Refused("auth", "this link does not open that seat")
            if account is not None and not (
                0 <= seat < len(self.table.seats) and self.table.seats[seat].kind == "human"
            ):
                raise Refused("auth", NOT_HELD)
            s = self.table.seats[seat]
            if nickname is None:
                if s.nickname is None:
                    raise Refused("malformed", "a nickname is needed to take a seat the first time")
                nickname = s.nickname
            self._make_room(seat)
            before, was_there, was_named = self.status, self.connected()[seat], s.nickname
            fresh = None if s.joined else new_token()
            status = await asyncio.to_thread(
                self.repo.join,
                self.id,
                seat,
                nickname,
                None if token is None else hash_token(token),
                None if fresh is None else hash_token(fresh),
                account,
            )
            if status == EXPIRED:
                raise expired(self.settings)
            if status is None:
                await self._refresh_seats()
                raise Refused("auth", "this link does not open that seat" if account is None else NOT_HELD)
            s.nickname, s.joined = nickname, True
            if fresh is not None:
                s.token_hash = hash_token(fresh)
            if before == WAITING:
                self.table.status = status
            conn.seat = seat
            if self.presence.sit(seat, conn):
                self._tell_presence(seat, True)
            self._arrived(seat)
            told = await self._reclaim(seat) if s.stood_in else []
            answers = None
            if self.status == FINISHED:  # who accepted the rematch so far (web/tables/rematch.py)
                answers = await asyncio.to_thread(self.repo.rematch_state, self.id)
            conn.send(outbound.welcome(seat, self.facts(), list(self.view.log), list(self.chat.lines), fresh, answers))
            if self.status != before or told:
                self.schedule(told or self.last_events)
                self.broadcast_state(told)
            else:
                conn.send(self.state_frame(seat, []))
                if self.task is None or self.task.done():  # stand-ins and an overdue clock wait for a person
                    self.schedule(self.last_events)
            if not was_there or s.nickname != was_named:
                self.broadcast(outbound.seats(self.seat_facts()), but=conn)
            for other in self.presence.away_since:
                self._watch_absence(other)
            await self._take_over_due()

    async def watch(self, conn: Connection) -> None:
        """Let a connection watch: welcome (no seat), the spectator's state, then every public step.
        Refused (nothing changes) when the creator forbade spectators or the table has its fill."""
        async with self.lock:
            if self.closed:
                raise Gone(self.id)
            if not self.table.spectators:
                raise Refused("no-spectators", "this table does not allow spectators")
            if self.status == FINISHED:
                raise Refused("finished", "this match is over: its replay shows it")
            limit = self.settings.limits.spectators_per_table
            if len(self.watchers) >= limit:
                raise Refused("full", f"this table has {limit} spectators already, the most it takes")
            self._make_room(None)
            conn.seat = None
            self.watchers.add(conn)
            conn.send(outbound.spectator_welcome(self.facts(), list(self.view.log), list(self.chat.lines)))
            conn.send(self.state_frame(None, []))

    def _make_room(self, seat: int | None) -> None:
        """Refuse a socket over the seat's or the table's cap (``Limits.sockets_per_seat``, ``sockets_per_table``);
        a seat's first socket is let in past the table's, so that spectators never lock a player out."""
        limits = self.settings.limits
        if seat is not None and len(self.conns[seat]) >= limits.sockets_per_seat:
            raise Refused(
                "seat-full",
                f"this seat has {limits.sockets_per_seat} sockets open already (other "
                "windows or devices): close one first",
            )
        at_table = self.presence.sockets()
        if at_table >= limits.sockets_per_table and (seat is None or self.conns[seat]):
            raise Refused(
                "table-full", f"this table has {limits.sockets_per_table} sockets open already, the most it takes"
            )

    def leave(self, conn: Connection) -> None:
        seat = self.presence.leave(conn)
        if seat is None:
            return
        self._tell_presence(seat, False)
        if seat in self.reading:  # no page of the seat shows the score here any more: its clock runs
            self.tasks.keep(self.sheet_closed(seat), f"table {self.id}: the score sheet's close failed")
        if self.presence.missed(seat):  # else someone is still on the seat at another process: nothing changed
            self._watch_absence(seat)
            self.broadcast(outbound.seats(self.seat_facts()))

    # ---------------------------------------------------------------- other server processes (web/db/listener.py)
    def _notify(self, kind: Kind, *args: str) -> None:
        """A notice to the other server processes about this table, sent in the background."""
        if self.repo.notifies:
            work = asyncio.to_thread(self.repo.notify, self.id, kind, *args)
            self.tasks.keep(work, f"table {self.id}: a notice to the other server processes failed")

    def _tell_presence(self, seat: int, on: bool) -> None:
        """The other server processes hear when a seat gets its first socket here, or loses its last."""
        self._notify(Kind.PRESENCE, *presence_args(seat, on))

    def process_gone(self, origin: str) -> None:
        """A server process stopped telling it is alive: nobody is on a seat there any more."""
        for seat in sorted(self.presence.remote.get(origin, set())):
            self.remote_presence(origin, seat, False)
        self.presence.remote.pop(origin, None)

    async def rematch_moved(self) -> None:
        """Someone answered the rematch at another server process: the answers so far, to everyone here."""
        self.broadcast(outbound.rematch(**await asyncio.to_thread(self.repo.rematch_state, self.id)))

    def announce(self) -> None:
        """A process that just opened the table asks who is here: every seat with a socket here says so."""
        for seat, conns in self.conns.items():
            if conns:
                self._tell_presence(seat, True)

    def remote_presence(self, origin: str, seat: int, on: bool) -> None:
        """Someone came to ``seat`` at another server process, or its last socket there went."""
        if seat not in self.conns:
            return
        was_there = self.connected()[seat]
        self.presence.there(origin, seat, on)
        if on:
            self._arrived(seat)
        elif self.presence.missed(seat):
            self._watch_absence(seat)
        if self.connected()[seat] != was_there:
            self.broadcast(outbound.seats(self.seat_facts()))

    async def refresh_seats(self) -> None:
        """Another server process changed the seats (a join, a claim, a stand-in, a seat given to a bot):
        the seats and the table's start from the database, and the log's notes written there."""
        async with self.lock:
            if not self.closed:
                await self._refresh_seats()

    async def _refresh_seats(self) -> None:
        """Under the lock: the body of :meth:`refresh_seats`."""
        saved = await asyncio.to_thread(self.repo.get, self.id)
        notes = await asyncio.to_thread(self.repo.notes_after, self.id, self.notes)
        if saved is None:
            return
        before, seats_before = self.status, self.table.seats
        self.table.seats = saved.seats
        if before == WAITING:
            self.table.status = saved.status
        self.reseat()
        told: list[Mapping[str, Any]] = []
        for _, note in notes:
            self.notes += 1
            told += self.view.note(note)
        if self.status != before or told:
            self.schedule(told or self.last_events)
            self.broadcast_state(told)
        if saved.seats != seats_before:
            self.broadcast(outbound.seats(self.seat_facts()))

    # ---------------------------------------------------------------- absent players and stand-ins
    def _stood_in(self) -> set[int]:
        return {s.seat for s in self.table.seats if s.kind == "human" and s.stood_in}

    def reseat(self) -> None:
        """Work out ``humans`` again after a seat changed hands (a stand-in came or went, a rematch seat
        went to a bot or back): the one place that decides who people are."""
        self.view.humans = people(self.table)

    def _arrived(self, seat: int) -> None:
        self.presence.arrived(seat)
        task = self.away_tasks.pop(seat, None)
        if task is not None:
            task.cancel()

    def _watch_absence(self, seat: int) -> None:
        """Count down the grace period of a human seat with no socket, unless it is counting already."""
        if (
            self.status != PLAYING
            or seat not in self.humans
            or seat not in self.presence.away_since
            or seat in self.away_tasks
            or self.closed
        ):
            return
        left = self.table.grace - (time.monotonic() - self.presence.away_since[seat])
        self.away_tasks[seat] = asyncio.create_task(self._absent(seat, left))

    async def _absent(self, seat: int, delay: float) -> None:
        try:
            await until(time.monotonic() + delay)
            self.away_tasks.pop(seat, None)
            async with self.lock:
                await self._take_over_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a stand-in could not take seat %d", self.id, seat)

    async def _take_over_due(self) -> None:
        """Stand-in bots take the seats whose people are gone past the grace period, or whose clock ran
        out; only while someone else is at the table to wait for them (nobody waits on an empty table).
        Called under the lock."""
        if self.status != PLAYING or self.game.is_over or self.closed:
            return
        at = time.monotonic()
        present = {s for s, on in self.connected().items() if on}
        due = [
            (s, "away")
            for s in sorted(self.humans)
            if self.presence.away_past(s, self.table.grace, at) and present - {s}
        ]
        late = self.game.to_act
        if (
            self.turn.run_out(at)
            and self.window is None
            and late in self.humans
            and present - {late}
            and late not in dict(due)
        ):
            due.append((late, "time"))
        told: list[Mapping[str, Any]] = []
        for seat, why in due:
            told += await self._stand_in(seat, why)
        if told:
            self.schedule(told)
            self.broadcast_state(told)

    async def _stand_in(self, seat: int, why: str) -> list[Mapping[str, Any]]:
        note = {"type": "standin", "seat": seat, "why": why}
        try:
            await asyncio.to_thread(self.repo.set_standin, self.id, seat, True, self.actions, note)
        except Exception:
            log.exception("table %s: could not save the stand-in of seat %d; the seat waits", self.id, seat)
            return []
        self.table.seats[seat].stood_in = True
        self.notes += 1
        self.reseat()
        task = self.away_tasks.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        return self.view.note(note)

    async def _reclaim(self, seat: int) -> list[Mapping[str, Any]]:
        """The human takes the seat back from the stand-in, with a whole clock again."""
        note = {"type": "back", "seat": seat}
        await asyncio.to_thread(self.repo.set_standin, self.id, seat, False, self.actions, note)
        self.table.seats[seat].stood_in = False
        self.notes += 1
        self.reseat()
        self.table.clock_deadline = None
        return self.view.note(note)

    async def time_out(self, seat: int, seq: int) -> None:
        """A remote player's decision at ``seq`` ran past its own limit (a bot account's:
        web/botaccounts/gateway.py): the stand-in plays for the seat, as when the turn clock runs out; nothing when
        the table moved on."""
        async with self.lock:
            if self.closed or self.seq != seq or self.status != PLAYING or self.game.is_over:
                return
            if self.window is not None or self.game.to_act != seat or seat not in self.humans:
                return
            told = await self._stand_in(seat, "time")
            if told:
                self.schedule(told)
                self.broadcast_state(told)

    async def back(self, seat: int) -> None:
        """A person still at the table takes the seat back (their clock had run out)."""
        async with self.lock:
            if not self.table.seats[seat].stood_in:
                raise Refused("malformed", "your seat is yours already: no bot plays it")
            try:
                told = await self._reclaim(seat)
            except Exception:
                log.exception("table %s: could not save seat %d's return", self.id, seat)
                raise Refused("server", "your return could not be saved; try again") from None
            self.schedule(told)
            self.broadcast_state(told)

    # ---------------------------------------------------------------- the rematch (web/tables/rematch.py)
    async def open_rematch(self, seed: int) -> str:
        """Under the lock of this finished table: its rematch, created at the first answer (Store.create_rematch)."""
        self.table.rematch = await asyncio.to_thread(self.repo.create_rematch, self.id, seed)
        return self.table.rematch

    async def seat_back(self, seat: int) -> str:
        """At the waiting rematch: a new token for the seat (its hash stored, the old one's forgotten), the
        seat a human's again if a bot was given it meanwhile.  Refused once its player sat down or the rematch
        started: the finished table's link must not take the seat, and its hand, from the one playing it."""
        async with self.lock:
            if self.closed:
                raise Gone(self.id)
            s = self.table.seats[seat]
            if s.kind == "human" and s.joined:
                raise Refused("joined", "this seat has taken its place at the rematch already")
            if self.status != WAITING:
                raise Refused("started", "the rematch has started without this seat")
            token = new_token()
            if not await asyncio.to_thread(self.repo.issue_token, self.id, seat, hash_token(token)):
                await self._refresh_seats()  # another process seated it or started the table: this copy was behind
                seated = self.table.seats[seat]
                raise Refused(
                    "joined" if seated.kind == "human" and seated.joined else "started",
                    "this seat of the rematch is taken or the rematch has started",
                )
            if s.kind == "bot":
                s.kind, s.level, s.joined = "human", None, False
                self.reseat()
                self.broadcast(outbound.seats(self.seat_facts()))
            s.token_hash = hash_token(token)
            return token

    async def decline(self, seat: int) -> None:
        """At the waiting rematch: the seat's player said no, and a bot takes it."""
        async with self.lock:
            if self.closed:
                raise Gone(self.id)
            s = self.table.seats[seat]
            if s.kind == "human" and s.joined:
                raise Refused("joined", "this seat has taken its place at the rematch already")
            if s.kind == "human":
                await self._to_bots([seat])

    async def fill_bots(self) -> None:
        """Give every human seat of the waiting rematch that nobody joined to a bot, and start it."""
        async with self.lock:
            if self.status != WAITING:
                raise Refused("not-waiting", "this table is not waiting for players")
            empty = [s.seat for s in self.table.seats if s.kind == "human" and not s.joined]
            if empty:
                await self._to_bots(empty)

    async def _to_bots(self, seats: list[int]) -> None:
        """Under the lock: the seats are bots' (stored, then in memory), and the table starts when every
        human seat left has joined, as a join would start it."""
        level = self.table.standin_level  # the table's stand-in level, chosen at the first match's creation
        status = await asyncio.to_thread(self.repo.seats_to_bots, self.id, seats, level)
        for n in seats:
            s = self.table.seats[n]
            s.kind, s.level, s.token_hash, s.nickname, s.joined = "bot", level, None, None, True
        self.reseat()
        started = self.status == WAITING and status == PLAYING
        self.table.status = status
        if started:
            self.schedule(self.last_events)
            self.broadcast_state([])
        self.broadcast(outbound.seats(self.seat_facts()))

    # ---------------------------------------------------------------- acting
    @property
    def teaches(self) -> bool:
        """The guided first match: its tutor sits at the table (millebornes.tutorial; the view knows it)."""
        return self.view.teaching

    def check_lesson(self, action: str) -> None:
        """In the guided match, the learner's move must be the lesson's; a move the rules refuse is left to the
        engine, which says why (``illegal``), and one they allow is refused as ``lesson``."""
        out = tutorial.check(self.game, action)
        if out.why == "not_this":
            raise Refused("lesson", "this lesson asks for another move", reason="not_this")

    def lesson(self, seat: int | None) -> dict | None:
        """The learner's lesson, for its frames (none for anyone else, nor at other tables)."""
        if seat != tutorial.LEARNER or not self.teaches:
            return None
        lesson = tutorial.lesson_of(self.game)
        return {"key": lesson, "n": tutorial.number_of(lesson), "total": len(tutorial.LESSONS) + 1}

    def check_person(self, seat: int) -> None:
        if self.table.seats[seat].stood_in:
            raise Refused("standin", "a bot plays for you now: take your seat back first")

    def check_turn(self, seat: int, seq: int | None) -> None:
        if self.status == FINISHED or self.game.is_over:
            raise Refused("finished", "the match is over")
        if self.status == BROKEN:
            raise Refused("broken", "this table is stopped: the server could not save its moves")
        if self.status == WAITING:
            raise Refused("waiting", "the table waits for every player to join")
        if seq is not None and seq != self.seq:
            raise Refused("stale", f"the table moved on: state {self.seq}, you acted on {seq}")
        if self.window is not None:
            if self.view.holder() != seat:
                raise Refused("not-your-turn", "the coup-fourré window is open: wait for it to close")
        elif self.game.to_act != seat:
            raise Refused("not-your-turn", f"it is seat {self.game.to_act}'s decision, not yours")

    async def submit(self, seat: int, action: str, seq: int | None, person: bool = False) -> None:
        """Apply one action for ``seat``; raises Refused and changes nothing if it cannot be.  A ``person``
        whose seat a stand-in plays must take it back first."""
        since = time.perf_counter()
        async with self.lock:
            if self.status == WAITING and self.repo.notifies:  # the last join may have been at another process
                await self._refresh_seats()
            if person:
                self.check_person(seat)
            self.check_turn(seat, seq)
            if person and self.teaches:
                self.check_lesson(action)
            await asyncio.shield(self._step(seat, action, asyncio.current_task()))
        metrics.move_took("person" if person else "bot", since)

    async def _step(self, seat: int, action: str, caller: asyncio.Task | None) -> None:
        """One action and what it sets off; shielded so a cancelled caller cannot leave it half done."""
        told = await self._apply(seat, action)
        if told is None:  # a pass behind the window: only the holder sees its buttons go
            self.send_state(seat, [])
            return
        holder = self.view.holder()
        if self.window is None and holder is not None and holder not in self.humans:
            # a hazard no human could answer: the bot holding the safety answers in the same step
            try:
                told += await self._apply(holder, self.bots.answer(self.view, holder)) or []
            except Refused:
                pass  # not saved: its task tries again (schedule)
        await self._finish_if_over()
        self.schedule(told, caller)
        self.broadcast_state(told)

    async def _apply(self, seat: int, action: str) -> list[Mapping[str, Any]] | None:
        """Judge, save, adopt: the events every seat is now told, or None for a pass behind a window."""
        try:
            judged = self.view.judge(seat, action)
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), reason=exc.reason, params=exc.params) from None
        clone, events, opens = judged.game, judged.events, judged.opens
        result = (list(clone.match_scores), clone.winners) if clone.is_over else None
        if self.window is not None or opens:
            result = None  # a match that ends behind a window is finished when it closes (_finish_if_over)
        slack = self.settings.window_slack
        after, anyone = 0.0, False
        if opens:  # the next decision starts when the window ends: cf_timeout from now, whoever holds the safety
            after, anyone = self.table.cf_timeout + slack, True
        elif self.window is not None and is_hidden(action) and self.window.deadline is not None:
            after, anyone = max(0.0, self.window.deadline + slack - time.monotonic()), True  # a pass: the same moment
        reading = self._readers(clone, events, after, seat)
        clock = self._deadline(clone, events, after, anyone, reading)
        try:
            await asyncio.to_thread(self.repo.append_action, self.id, self.actions, seat, action, result, clock=clock)
        except Stale:
            await self._catch_up()
            raise Refused("stale", "another move came first: the table is shown as it is now") from None
        except Exception as exc:
            self.save_error = f"{type(exc).__name__}: {str(exc)[:200]}"
            log.debug("table %s: could not save action %d: %s", self.id, self.actions, self.save_error)
            raise Refused("server", "the action could not be saved; nothing changed") from None
        self.save_failures = 0
        self.reading = reading
        metrics.moved("person" if seat in self.humans else "bot")
        self.leads = True
        if clock is not None:
            self.table.clock_at, self.table.clock_deadline = self.actions + 1, clock
        if result is not None:
            await self._finished(result)
        deadline = time.monotonic() + self.table.cf_timeout
        return self.view.advance(seat, action, deadline, judged)

    async def catch_up(self) -> None:
        """Adopt the actions other server processes wrote (PostgreSQL told of them): as if played here."""
        async with self.lock:
            if not self.closed and self.table.status != BROKEN:
                await self._catch_up()

    async def adopt(self, count: int, seat: int, action: str, deadline: datetime | None) -> None:
        """Another process wrote the table's action number ``count`` (from 1), as its notice tells: adopted
        as it is when it is the next one here, read with those missed when some notice was lost."""
        async with self.lock:
            if self.closed or self.table.status == BROKEN or count <= self.actions:
                return
            if count == self.actions + 1:
                await self._adopt([(seat, action, deadline)])
            else:
                await self._catch_up()

    async def _catch_up(self) -> None:
        """Under the lock: every action saved after this copy's, applied, shown and scheduled from."""
        rows = await asyncio.to_thread(self.repo.actions_after, self.id, self.actions)
        if rows:
            await self._adopt(rows)

    async def _adopt(self, rows: list[tuple[int, str, datetime | None]]) -> None:
        """Under the lock: the next actions, saved by another process, applied, shown and scheduled from."""
        told: list[Mapping[str, Any]] = []
        hidden: set[int] = set()
        self.leads = False
        for seat, action, clock in rows:
            try:
                shown = self.view.advance(seat, action, time.monotonic() + self.table.cf_timeout)
            except IllegalAction:
                log.error(
                    "table %s: action %d (%s) saved by another process does not follow from this copy",
                    self.id,
                    self.actions,
                    action,
                )
                raise
            if clock is not None:
                self.table.clock_at, self.table.clock_deadline = self.actions, clock
            if shown is None:
                hidden.add(seat)
            else:
                told += shown
        if any(e["type"] == "hand-over" for e in told):
            self.reading = {}  # the process that wrote the hand's end holds the clocks of the pages it serves
        await self._finish_if_over()
        self.schedule(told)
        if told:
            self.broadcast_state(told)
        else:
            for seat in hidden:
                self.send_state(seat, [])

    async def _finish_if_over(self) -> None:
        """A match that ended behind a window is finished once everyone may see it ended."""
        if self.window is None and self.game.is_over and self.table.status != FINISHED:
            result = list(self.game.match_scores), self.game.winners
            await asyncio.to_thread(self.repo.finish, self.id, *result)
            await self._finished(result)

    async def _finished(self, result: tuple[list, list]) -> None:
        """The match's end, saved already: the room's copy of the table says so, then the match is rated (a rated
        table) and its counts per seat written (web/ratings/stats_repo.py)."""
        self.table.status = FINISHED
        self.table.scores, self.table.winners = result
        self.table.finished = now()
        if self.table.rated:
            await self._rate()
        await asyncio.to_thread(settle_finished, self.repo.db, self.id)

    async def _rate(self) -> None:
        """Rate the finished match (web/ratings/repo.py); a failure is logged, and the hall's sweep tries again."""
        try:
            if await asyncio.to_thread(Ratings(self.repo.db).rate, self.id) is False:
                self.table.rated = False  # as the database now says: not every seat was an account's
        except Exception:
            log.exception("table %s: the rated match could not be rated now; the sweep tries again", self.id)

    # ---------------------------------------------------------------- the clock: bots and windows
    def schedule(self, events: Sequence[Mapping[str, Any]], caller: asyncio.Task | None = None) -> None:
        """Start what the new state waits for (:func:`.pacing.next_wait`) as the room's one task.

        The task that is itself submitting (``caller``) is finishing its work, not cancelled."""
        if self.task is not None and self.task is not caller and self.task is not asyncio.current_task():
            self.task.cancel()
        self.task = None
        self.turn.step(self.seq, time.monotonic())
        if self.status != PLAYING:
            return
        if self.window is not None and self.window.deadline is None:  # reopened at start: the whole window again
            self.window.deadline = time.monotonic() + self.table.cf_timeout
        someone = any(self.connected().values())
        match next_wait(self.view, self.bots, self.settings, events, someone, self.leads):
            case WindowEnds(deadline):
                self.task = asyncio.create_task(self._window_ends(self.seq, deadline))
            case BotMoves(seat, delay):
                self.task = asyncio.create_task(self._bot_move(seat, self.seq, delay))
            case PersonDecides(seat):
                self._start_clock(seat, events)

    def _deadline(
        self,
        game: Game,
        events: Sequence[Mapping[str, Any]],
        after: float = 0.0,
        anyone: bool = False,
        reading: Mapping[int, float] | None = None,
    ) -> datetime | None:
        """When the human deciding in ``game`` runs out of time if the decision starts ``after`` seconds from
        now: ``clock`` seconds, once the score of a hand just over is read (:meth:`_held`); None when nobody's
        clock runs (``anyone``: whoever will decide, when that is not known yet, as behind a window)."""
        if self.table.clock <= 0 or game.is_over or not (anyone or game.to_act in self.humans):
            return None
        held = self._held(game.to_act, events, after, self.reading if reading is None else reading)
        return now() + timedelta(seconds=after + held + self.table.clock)

    def _held(
        self, seat: int | None, events: Sequence[Mapping[str, Any]], after: float, reading: Mapping[int, float]
    ) -> float:
        """Seconds the clock of ``seat``'s decision waits after the decision starts: while the seat's page shows
        the hand's score (until it says ``sheet-closed``, ``Limits.sheet_seconds`` at most); for a seat with no
        page here, ``hand_pause`` right after a hand's end, as for the bots."""
        if seat is not None and seat in reading:
            return max(0.0, reading[seat] - time.monotonic() - after)
        return self.settings.hand_pause if any(e["type"] == "hand-over" for e in events) else 0.0

    def _readers(self, game: Game, events: Sequence[Mapping[str, Any]], after: float, mover: int) -> dict[int, float]:
        """Who reads the score after ``mover``'s step that told ``events``: at a hand's end (its sheet shows
        ``after`` seconds from now, when a window closes), every person with a socket here, until the page says it
        closed the sheet or ``Limits.sheet_seconds`` pass; after any other step, those reading already but the
        one who just moved (they are back at the table)."""
        if not any(e["type"] == "hand-over" for e in events):
            return {seat: end for seat, end in self.reading.items() if seat != mover}
        if self.table.clock <= 0 or game.is_over:
            return {}
        end = time.monotonic() + after + self.settings.limits.sheet_seconds
        return {seat: end for seat in self.humans if self.conns.get(seat)}

    async def sheet_closed(self, seat: int) -> None:
        """The seat's page closed the hand's score: the clock of its decision, held meanwhile, starts now (it
        never ends later than it would have)."""
        async with self.lock:
            if self.reading.pop(seat, None) is not None:
                await self._start_held(seat)

    async def _start_held(self, seat: int) -> None:
        """Under the lock: when the decision is the seat's, its clock's deadline moves to ``clock`` seconds from
        now, stored (``set_clock``) so that a restart keeps it, and everyone is shown the clock running."""
        deadline = self.table.clock_deadline
        if (
            self.status != PLAYING
            or self.closed
            or self.window is not None
            or self.game.is_over
            or self.game.to_act != seat
            or seat not in self.humans
            or self.table.clock <= 0
            or self.table.clock_at != self.actions
            or deadline is None
        ):
            return
        sooner = now() + timedelta(seconds=self.table.clock)
        if sooner >= deadline:
            return
        try:
            await asyncio.to_thread(self.repo.set_clock, self.id, self.actions, sooner)
        except Exception:
            log.warning("table %s: the clock's deadline could not be saved; it waits for the score's end", self.id)
            return
        self.table.clock_deadline = sooner
        self.schedule(self.last_events)
        self.broadcast_state([])

    def _start_clock(self, seat: int, events: Sequence[Mapping[str, Any]]) -> None:
        """The human to act has ``clock`` seconds.  The deadline is stored, so a restart keeps it, and kept
        for the same decision until it passes: with the action before it (``append_action``), else (the
        match's start, a seat taken back, a window's end) by the clock's task."""
        if self.table.clock <= 0:
            return
        wall = now()
        deadline = self.table.clock_deadline if self.table.clock_at == self.actions else None
        fresh = deadline is None
        if deadline is None:
            deadline = self._deadline(self.game, events) or wall + timedelta(seconds=self.table.clock)
            self.table.clock_at, self.table.clock_deadline = self.actions, deadline
        self.turn.ends = time.monotonic() + (deadline - wall).total_seconds()
        self.turn.starts = self.turn.ends - self.table.clock if seat in self.reading else None
        self.task = asyncio.create_task(self._clock(self.seq, self.actions, deadline if fresh else None))

    async def _clock(self, seq: int, at: int, store: datetime | None) -> None:
        try:
            if store is not None:
                try:
                    await asyncio.to_thread(self.repo.set_clock, self.id, at, store)
                except Exception:
                    log.warning("table %s: the clock's deadline could not be saved", self.id)
            if self.turn.ends is not None:
                await until(self.turn.ends)
            await self._stand_by(seq, "a clock's time-out")
            async with self.lock:
                if self.seq == seq:
                    await self._take_over_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the turn clock failed", self.id)

    async def _stand_by(self, seq: int, what: str) -> None:
        """A process that does not lead waits for the leader's row first (its notice cancels the wait)."""
        if not self.leads:
            await asyncio.sleep(self.settings.standby)
            if self.seq == seq:
                log.warning(
                    "table %s: %s after %d actions, made here: its leader wrote nothing in %.1f s",
                    self.id,
                    what,
                    self.actions,
                    self.settings.standby,
                )

    async def _bot_move(self, seat: int, seq: int, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            if self.seq != seq:
                return
            if not self.leads:
                log.warning(
                    "table %s: a bot's move after %d actions, made here: its leader wrote nothing in %.1f s",
                    self.id,
                    self.actions,
                    self.settings.standby,
                )
            if self.game.decision == "coup-fourre":
                action = self.bots.answer(self.view, seat)
            else:
                action = await self.bots.decide(self.view, seat)
            await self.submit(seat, action, seq)
        except Refused as r:
            if r.code not in ("stale", "server"):  # a failed save is retried, and logged once if it breaks the table
                log.warning("table %s: bot move refused: %s %s", self.id, r.code, r.message)
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot move failed", self.id)

    async def _window_ends(self, seq: int, deadline: float) -> None:
        """The window closes: the holder who did not call passes, a bot holder answers, and everyone
        sees what happened behind it."""
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            if self.view.holder() is not None:  # an answer to write; once written, any process closes the window
                await self._stand_by(seq, "a window's answer")
            async with self.lock:
                if self.seq != seq or (self.window is None and not self.game.is_over):
                    return
                await asyncio.shield(self._close(asyncio.current_task()))
        except Refused as r:
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the coup-fourré window failed to close", self.id)

    async def _close(self, caller: asyncio.Task | None) -> None:
        """Under the lock: the holder's answer saved, then the window closed and shown ``window_slack`` seconds
        after its deadline, not when the save is done: with a pass to save or none, in the process that saved it
        or in one that learnt of it (``_adopt``), the closing frame goes out at the same moment."""
        told: list[Mapping[str, Any]] = []
        shows = None
        if self.window is not None and self.window.deadline is not None:
            shows = self.window.deadline + self.settings.window_slack
        holder = self.view.holder()
        if holder is not None:
            answer = "pass" if holder in self.humans else self.bots.answer(self.view, holder)
            told += await self._apply(holder, answer) or []
        if shows is not None:
            await self._show_at(shows)
        if self.window is not None:
            told += self.view.close_window()
        await self._finish_if_over()
        self.schedule(told, caller)
        self.broadcast_state(told)

    async def _show_at(self, moment: float) -> None:
        """Wait for the window's closing moment; one already past (a save or a notice slower than the slack)
        is logged, since that close came late enough to be told apart."""
        late = time.monotonic() - moment
        if late > 0:
            log.warning(
                "table %s: a coup-fourré window closed %.1f ms after its slack of %g s: the save or the "
                "other process's notice took that long (raise --window-slack)",
                self.id,
                1000 * late,
                self.settings.window_slack,
            )
        await until(moment)

    async def _retry(self, refused: Refused, seq: int) -> None:
        """A move the database could not take is tried again later and later, if nothing moved meanwhile;
        after the last try the table is broken, so a move that can never be saved is not tried for ever."""
        if refused.code != "server":
            return
        limits = self.settings.limits
        if self.save_failures >= limits.save_retries:
            await self._break()
            return
        await asyncio.sleep(limits.save_backoff * 2**self.save_failures)
        self.save_failures += 1
        if self.seq == seq:
            self.schedule(self.last_events)

    async def _break(self) -> None:
        """Stop the table where it is, once: no more moves, one log line, every seat told."""
        async with self.lock:
            if self.table.status == BROKEN:
                return
            self.table.status = BROKEN
            if self.task is not None and self.task is not asyncio.current_task():
                self.task.cancel()
            self.task = None
            try:
                await asyncio.to_thread(self.repo.mark_broken, self.id)
                kept = "marked broken in the database"
            except Exception as exc:
                kept = f"not marked in the database either ({type(exc).__name__}); it will be tried again at start"
            log.error(
                "table %s is broken: action %d could not be saved after %d tries (%s); %s",
                self.id,
                self.actions,
                self.save_failures + 1,
                self.save_error,
                kept,
            )
            self.broadcast_state([])

    def hint(self, seat: int) -> Awaitable[outbound.HintFrame]:
        """Start the seat's hint (:class:`.hints.Hints`), or refuse at once and change nothing.  The search
        starts from the observation the seat's frame shows, with the seed a bot's choice there would have."""
        self.check_person(seat)
        self.check_turn(seat, None)
        seed = bot_seed(self.table.seed, self.view.shown_actions)
        return self.hints.ask(seat, self.seq, self.view.observation(seat), seed)

    # ---------------------------------------------------------------- taking back a move (docs/web.md)
    def undo_point(self, seat: int) -> int:
        """The saved actions that stay when ``seat`` takes back its last decision now, or Refused (nothing changes):
        only a person alone with bots (a person a stand-in plays for is no bot), in a match being played, with no
        coup-fourré window open, and back to a decision of this hand (a deal since showed new hands)."""
        if self.status == FINISHED or self.game.is_over:
            raise Refused("finished", "the match is over")
        if self.status != PLAYING:
            self.check_turn(seat, None)
        self.check_person(seat)
        if self._beside_people(seat):
            raise Refused("not-allowed", "moves are taken back only when every other seat is a bot", reason="humans")
        if self.teaches:
            raise Refused("not-allowed", "the guided match's moves are its lessons", reason="lesson")
        if self.table.rated:
            raise Refused("not-allowed", "no move is taken back at a rated table", reason="rated")
        if self.window is not None:
            raise Refused("not-allowed", "a coup-fourré window is open: wait for it to close", reason="window")
        keep = self.view.take_back(seat)
        if keep == "deal":
            raise Refused("not-allowed", "only a move of this hand is taken back: new hands were dealt", reason="deal")
        if isinstance(keep, str):
            raise Refused("not-allowed", "you have made no decision in this hand to take back", reason="nothing")
        return keep

    def _beside_people(self, seat: int) -> bool:
        """Another seat is a person's, whether a stand-in plays it or not."""
        return any(s.kind != "bot" for s in self.table.seats if s.seat != seat)

    def may_undo(self, seat: int) -> bool:
        """Whether the seat's frames offer to take back its last decision (:meth:`undo_point`); at once, with no
        refusal built, at a table of people (most of those whose frames are sent)."""
        if self._beside_people(seat):
            return False
        try:
            self.undo_point(seat)
        except Refused:
            return False
        return True

    async def undo(self, seat: int, seq: int) -> None:
        """``seat`` takes back its last decision and every move after it, back to the position just before it
        (:meth:`undo_point`), asked on the state ``seq`` (another: ``stale``).  The rows after it are deleted in
        one guarded transaction (:meth:`.repo.Tables.take_back`), the match is casual from then on, and the room is
        rebuilt from what is left (:meth:`_reload`).  Refused: nothing changed."""
        async with self.lock:
            if self.closed:
                raise Refused("stale", "the table left this server's memory: try again")
            keep = self.undo_point(seat)
            if seq != self.seq:
                raise Refused("stale", f"the table moved on: state {self.seq}, you asked on {seq}")
            taken = self.view.shown_after(keep)
            try:
                await asyncio.to_thread(self.repo.take_back, self.id, self.actions, keep, seat)
            except Stale:
                await self._catch_up()
                raise Refused("stale", "another move came first: the table is shown as it is now") from None
            except Exception:
                log.exception("table %s: seat %d's moves could not be taken back", self.id, seat)
                raise Refused("server", "the move could not be taken back; nothing changed") from None
            log.info("table %s: seat %d took back %d actions", self.id, seat, self.actions - keep)
            self.leads = True
            await self._reload(seat, taken)

    async def reload(self, keep: int, seat: int) -> None:
        """Another server process took back moves (its ``undo`` notice): the table as the database now has it."""
        async with self.lock:
            if not self.closed and self.table.status != BROKEN:
                self.leads = False
                await self._reload(seat, self.view.shown_after(keep) if keep <= self.actions else [])

    async def recover(self) -> None:
        """The notices were lost for a while: a casual table, whose moves may have been taken back meanwhile, is
        rebuilt when its rows no longer begin with this copy's; any table adopts the rows it lacks."""
        async with self.lock:
            if self.closed or self.table.status == BROKEN:
                return
            saved = await asyncio.to_thread(self.repo.get, self.id)
            if saved is not None and saved.casual:  # its rows too, only then
                saved = await asyncio.to_thread(self.repo.get, self.id, True)
            if saved is not None and saved.casual and saved.actions[: self.actions] != self.view.played():
                self.leads = False
                person = next((s.seat for s in saved.seats if s.kind == "human"), 0)
                await self._reload(person, [])
            else:
                await self._catch_up()

    async def _reload(self, seat: int, taken: list[dict]) -> None:
        """Under the lock: the game replayed from the saved rows, and everyone sent the log as it now stands
        (``undone``) and their state.  ``seq`` goes on rising, so that a bot's move, a hint or a clock worked out
        for a position now gone is stale when it comes back."""
        saved = await asyncio.to_thread(self.repo.get, self.id, True)
        if saved is None:
            return
        t, seq = self.table, self.seq
        t.actions, t.notes, t.casual = saved.actions, saved.notes, saved.casual
        t.clock_at, t.clock_deadline = saved.clock_at, saved.clock_deadline
        view = view_of(t, self.settings.limits.log_events)
        if view.window is not None and view.holder() is None:
            view.close_window()  # it had closed before the decision taken back: nobody waits for it again
        view.seq = max(view.seq, seq + 1)
        self.view, self.notes = view, len(saved.notes)
        self.reseat()
        self.schedule([])
        self.broadcast(outbound.undone(seat, taken, list(view.log)))
        self.broadcast_state([])

    # ---------------------------------------------------------------- in the hall's memory
    @property
    def in_use(self) -> bool:
        """A socket is connected or an action is being submitted: the hall never drops the room then."""
        return self.lock.locked() or not self.presence.empty()

    def idle_for(self, at: float) -> float:
        """Seconds (of ``time.monotonic``) since the room was last in use; 0 while it is."""
        return 0.0 if self.in_use else at - self.presence.idle_since

    def close(self) -> None:
        """Stop the room's bot or countdown; a join still waiting for the lock finds it Gone."""
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            self.task = None
        for task in self.away_tasks.values():
            task.cancel()
        self.away_tasks.clear()
