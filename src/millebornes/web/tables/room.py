"""A live table: the game, who is connected to which seat, and the one lock every change takes.

One :class:`Room` per table in play, the table's actor: it keeps the table's state and its lock, seats sockets,
tells seats and spectators what they may see, and takes every action; what else the table does is one part each,
built with the room and holding it (their state stays here, under its lock):

- :class:`.clock.Clock`: the timed step (a bot's move, the coup-fourré window's end, a person's turn clock);
- :class:`.standins.StandIns`: absent players and the bots that stand in for them;
- :class:`.following.Following`: the notices of the other server processes, and what this room does with them;
- :class:`.takebacks.Takebacks`: taking back a move;
- :class:`.rematchseats.RematchSeats`: the rematch's seats (the frames' side is :mod:`.rematch`);
- :class:`.forfeits.Forfeits`: a rated match its player left, lost.

Everything that changes the game goes through :meth:`Room.submit` under the room's lock, in the order docs/web.md
gives: the seat must be the one to act on the state it saw, the engine judges the action on a clone, the action is
committed to the database, and only then does the clone become the game and each seat hear of it, through what
:mod:`.view` lets it see (no coup-fourré tell: after a hazard a human could answer, everyone waits the same window).
Bots, the coup-fourré window and its end are one task per room that is replaced at every step (:mod:`.clock`), and
they submit like anyone else, naming the ``seq`` they decided on, so a late decision never lands on a game that
moved on.

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
from datetime import datetime
from typing import Any

from ... import tutorial
from ...actions import IllegalAction
from ...state import Game
from .. import metrics
from ..db.base import now
from ..db.notices import Kind, said_args
from ..errors import GONE_CLOSE, WITHDRAWN, Gone, Refused, Stale, expired
from ..ratings.repo import Ratings
from ..ratings.stats_repo import settle_finished
from ..settings import Settings
from ..tasks import Tasks
from ..thinking import Thinker, bot_seed
from ..tokens import hash_token, new_token, token_opens
from . import outbound
from .cardhelp import refusals
from .chat import Chat
from .clock import Clock
from .facts import iso, people, seat_facts, shown_game, table_facts, view_of
from .following import Following
from .forfeits import Forfeits, forfeited
from .hints import Hints
from .presence import Connection, Presence
from .rematchseats import RematchSeats
from .repo import Tables
from .rows import BROKEN, EXPIRED, FINISHED, PLAYING, WAITING, SavedTable
from .seatbots import SeatBots
from .standins import StandIns, stood_in
from .takebacks import Takebacks
from .turn import Turn
from .view import Window, is_hidden

log = logging.getLogger("millebornes.web")

NOT_HELD = "this account does not hold that seat"


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
        self.tasks = Tasks(saved.id)
        self.closed = False
        self.presence = Presence((s.seat for s in saved.seats), self.humans | stood_in(saved))
        self.away_tasks: dict[int, asyncio.Task] = {}
        self.turn = Turn(self.presence.idle_since)
        self.reading: dict[int, float] = {}
        """The human seats whose page shows the last hand's score, and until when (``time.monotonic``) at the
        most: their turn clock waits meanwhile (:meth:`.clock.Clock._held`, :meth:`.clock.Clock.sheet_closed`).
        Memory only."""
        self.leads = True
        """Whether this process wrote the table's last action (or has not seen another process write one):
        it makes the next timed step, and a process that does not waits ``standby`` longer (:mod:`.clock`)."""
        self.clock = Clock(self)
        self.standins = StandIns(self)
        self.following = Following(self)
        self.takebacks = Takebacks(self)
        self.rematch_seats = RematchSeats(self)
        self.forfeits = Forfeits(self)

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
        return seat_facts(self.table, self.connected(), self.presence.away_for(at), self.standins.takeovers(at))

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
        if self.status == FINISHED and not self.game.is_over:  # forfeited: over, with the table's result
            obs = forfeited(obs, self.table)  # type: ignore[assignment]
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
            undo=seat is not None and self.takebacks.may_undo(seat),
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
        self.following.notify(Kind.SAID, *said_args(seat, key))

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
        """A free seat of an open public table gets the hash of a new token (Tables.claim); False when it is
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
                await self.following.read_seats()
                raise Refused("auth", "this link does not open that seat" if account is None else NOT_HELD)
            s.nickname, s.joined = nickname, True
            if fresh is not None:
                s.token_hash = hash_token(fresh)
            if before == WAITING:
                self.table.status = status
            conn.seat = seat
            if self.presence.sit(seat, conn):
                self.following.tell_presence(seat, True)
            self.standins.arrived(seat)
            told = await self.standins.reclaim(seat) if s.stood_in else []
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
                self.standins.watch_absence(other)
            await self.standins.take_over_due()

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
        self.following.tell_presence(seat, False)
        if seat in self.reading:  # no page of the seat shows the score here any more: its clock runs
            self.tasks.keep(self.clock.sheet_closed(seat), f"table {self.id}: the score sheet's close failed")
        if self.presence.missed(seat):  # else someone is still on the seat at another process: nothing changed
            self.standins.watch_absence(seat)
            self.broadcast(outbound.seats(self.seat_facts()))

    def reseat(self) -> None:
        """Work out ``humans`` again after a seat changed hands (a stand-in came or went, a rematch seat
        went to a bot or back): the one place that decides who people are."""
        self.view.humans = people(self.table)

    # ---------------------------------------------------------------- other server processes (.following)
    def process_gone(self, origin: str) -> None:
        """A server process went silent: :meth:`.following.Following.process_gone`."""
        self.following.process_gone(origin)

    async def rematch_moved(self) -> None:
        """The rematch was answered at another process: :meth:`.following.Following.rematch_moved`."""
        await self.following.rematch_moved()

    def announce(self) -> None:
        """Another process asks who is here: :meth:`.following.Following.announce`."""
        self.following.announce()

    def remote_presence(self, origin: str, seat: int, on: bool) -> None:
        """Someone came or went at another process: :meth:`.following.Following.remote_presence`."""
        self.following.remote_presence(origin, seat, on)

    async def refresh_seats(self) -> None:
        """The seats and notes, read again: :meth:`.following.Following.refresh_seats`."""
        await self.following.refresh_seats()

    async def catch_up(self) -> None:
        """The actions other processes wrote, adopted: :meth:`.following.Following.catch_up`."""
        await self.following.catch_up()

    async def adopt(self, count: int, seat: int, action: str, deadline: datetime | None) -> None:
        """The action another process wrote, adopted: :meth:`.following.Following.adopt`."""
        await self.following.adopt(count, seat, action, deadline)

    # ---------------------------------------------------------------- absent players and stand-ins (.standins)
    async def time_out(self, seat: int, seq: int) -> None:
        """A remote player's decision ran out of time: :meth:`.standins.StandIns.time_out`."""
        await self.standins.time_out(seat, seq)

    async def back(self, seat: int) -> None:
        """A person takes the seat back from its stand-in: :meth:`.standins.StandIns.back`."""
        await self.standins.back(seat)

    # ---------------------------------------------------------------- leaving a rated match (.forfeits)
    async def forfeit(self, seats: set[int], why: str) -> bool:
        """The players of ``seats`` left the rated match: :meth:`.forfeits.Forfeits.leave`, under the lock, once
        this copy has every action another process saved (it may have been loaded just now)."""
        async with self.lock:
            if self.repo.notifies and not self.closed:
                await self.following.read_actions()
            return await self.forfeits.leave(seats, why)

    async def forfeit_heard(self) -> None:
        """Another process finished the table by a forfeit: :meth:`.forfeits.Forfeits.adopt`."""
        await self.forfeits.adopt()

    # ---------------------------------------------------------------- the rematch (.rematchseats, .rematch)
    async def open_rematch(self, seed: int) -> str:
        """Under the lock of this finished table: :meth:`.rematchseats.RematchSeats.open_rematch`."""
        return await self.rematch_seats.open_rematch(seed)

    async def seat_back(self, seat: int) -> str:
        """At the waiting rematch, a new token: :meth:`.rematchseats.RematchSeats.seat_back`."""
        return await self.rematch_seats.seat_back(seat)

    async def decline(self, seat: int) -> None:
        """At the waiting rematch, a bot for the seat: :meth:`.rematchseats.RematchSeats.decline`."""
        await self.rematch_seats.decline(seat)

    async def fill_bots(self) -> None:
        """The waiting rematch's empty seats to bots: :meth:`.rematchseats.RematchSeats.fill_bots`."""
        await self.rematch_seats.fill_bots()

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
        frame: dict = {"key": lesson, "n": tutorial.number_of(lesson), "total": len(tutorial.LESSONS) + 1}
        if lesson == "score":
            frame["scored"] = [{"item": item, "points": points} for item, points in tutorial.scored(self.game)]
            frame["goal"] = tutorial.GOAL
        return frame

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
                await self.following.read_seats()
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
        reading = self.clock.readers(clone, events, after, seat)
        clock = self.clock.deadline(clone, events, after, anyone, reading)
        try:
            await asyncio.to_thread(self.repo.append_action, self.id, self.actions, seat, action, result, clock=clock)
        except Stale:
            await self.following.read_actions()
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
            if await asyncio.to_thread(Ratings(self.repo.db).rate, self.id, self.settings.limits) is False:
                self.table.rated = False  # as the database now says: not every seat was an account's
        except Exception:
            log.exception("table %s: the rated match could not be rated now; the sweep tries again", self.id)

    # ---------------------------------------------------------------- the timed step (.clock)
    def schedule(self, events: Sequence[Mapping[str, Any]], caller: asyncio.Task | None = None) -> None:
        """The room's one task, started again: :meth:`.clock.Clock.schedule`."""
        self.clock.schedule(events, caller)

    async def sheet_closed(self, seat: int) -> None:
        """The seat's page closed the score: :meth:`.clock.Clock.sheet_closed`."""
        await self.clock.sheet_closed(seat)

    def hint(self, seat: int) -> Awaitable[outbound.HintFrame]:
        """Start the seat's hint (:class:`.hints.Hints`), or refuse at once and change nothing.  The search
        starts from the observation the seat's frame shows, with the seed a bot's choice there would have."""
        self.check_person(seat)
        self.check_turn(seat, None)
        seed = bot_seed(self.table.seed, self.view.shown_actions)
        return self.hints.ask(seat, self.seq, lambda: self.view.observation(seat), seed)

    # ---------------------------------------------------------------- taking back a move (.takebacks)
    async def undo(self, seat: int, seq: int) -> None:
        """The seat takes back its last decision: :meth:`.takebacks.Takebacks.undo`."""
        await self.takebacks.undo(seat, seq)

    async def reload(self, keep: int, seat: int) -> None:
        """Another process took back moves: :meth:`.takebacks.Takebacks.reload`."""
        await self.takebacks.reload(keep, seat)

    async def recover(self) -> None:
        """The notices were lost for a while: :meth:`.takebacks.Takebacks.recover`."""
        await self.takebacks.recover()

    # ---------------------------------------------------------------- in the hall's memory
    @property
    def in_use(self) -> bool:
        """A socket is connected or an action is being submitted: the hall never drops the room then."""
        return self.lock.locked() or not self.presence.empty()

    def idle_for(self, at: float) -> float:
        """Seconds (of ``time.monotonic``) since the room was last in use; 0 while it is."""
        return 0.0 if self.in_use else at - self.presence.idle_since

    def cancel(self) -> None:
        """A bot's seek withdrawn before its match started (the table expired, at every process): everyone here is
        told why (:data:`..errors.WITHDRAWN`) and turned away, and the room stops."""
        code, words = WITHDRAWN
        for conns in (*self.conns.values(), self.watchers):
            for conn in list(conns):
                conn.turn_away(code, words, GONE_CLOSE)
        self.close()

    def close(self) -> None:
        """Stop the room's bot or countdown; a join still waiting for the lock finds it Gone."""
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            self.task = None
        for task in self.away_tasks.values():
            task.cancel()
        self.away_tasks.clear()
