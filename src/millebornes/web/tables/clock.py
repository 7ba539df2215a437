"""The room's timed step: what the table waits for next, as the room's one task (a bot's move, the end of a
coup-fourré window, a person's turn clock), replaced at every step.

Why apart from :mod:`.room`: the room takes what seats send and judges it (``Room.submit``, ``Room._apply``);
this part decides when nobody sends anything, and submits like anyone else, naming the ``seq`` it decided on, so
that a late decision never lands on a game that moved on.  It also holds a turn clock while its person reads the
last hand's score (``sheet-closed``), tries a move the database refused again and again, and breaks the table
after the last try.  A process that did not write the table's last action waits ``standby`` longer for the one
that did (``Room.leads``).  Every moment here is ``time.monotonic``, but the turn clock's deadline, which is
stored on the wall clock so that a restart or another process keeps it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from ...state import Game
from ..db.base import now
from ..errors import Refused
from ..logfields import at_table
from .host import Host
from .pacing import BotMoves, PersonDecides, WindowEnds, next_wait
from .rows import BROKEN, PLAYING

log = logging.getLogger("millebornes.web")


async def until(moment: float) -> None:
    """Sleep until ``time.monotonic()`` reaches ``moment``: the event loop may wake a timer a little early."""
    while (left := moment - time.monotonic()) > 0:
        await asyncio.sleep(left)


class Clock:
    """One room's timed step; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    def _start(self, step: Coroutine[Any, Any, None]) -> asyncio.Task:
        """The room's one task, in its table's context: by whatever request it was started, its records carry
        the table's id and no request's."""
        return asyncio.create_task(step, context=at_table(self.room.id))

    def schedule(self, events: Sequence[Mapping[str, Any]], caller: asyncio.Task | None = None) -> None:
        """Start what the new state waits for (:func:`.pacing.next_wait`) as the room's one task.

        The task that is itself submitting (``caller``) is finishing its work, not cancelled."""
        if self.room.task is not None and self.room.task is not caller and self.room.task is not asyncio.current_task():
            self.room.task.cancel()
        self.room.task = None
        self.room.turn.step(self.room.seq, time.monotonic())
        if self.room.status != PLAYING:
            return
        # reopened at start: the whole window again
        if self.room.window is not None and self.room.window.deadline is None:
            self.room.window.deadline = time.monotonic() + self.room.table.cf_timeout
        someone = any(self.room.connected().values())
        match next_wait(self.room.view, self.room.bots, self.room.settings, events, someone, self.room.leads):
            case WindowEnds(deadline):
                self.room.task = self._start(self._window_ends(self.room.seq, deadline))
            case BotMoves(seat, delay):
                self.room.task = self._start(self._bot_move(seat, self.room.seq, delay))
            case PersonDecides(seat):
                self._start_clock(seat, events)

    def deadline(
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
        if self.room.table.clock <= 0 or game.is_over or not (anyone or game.to_act in self.room.humans):
            return None
        held = self._held(game.to_act, events, after, self.room.reading if reading is None else reading)
        return now() + timedelta(seconds=after + held + self.room.table.clock)

    def _held(
        self, seat: int | None, events: Sequence[Mapping[str, Any]], after: float, reading: Mapping[int, float]
    ) -> float:
        """Seconds the clock of ``seat``'s decision waits after the decision starts: while the seat's page shows
        the hand's score (until it says ``sheet-closed``, ``Limits.sheet_seconds`` at most); for a seat with no
        page here, ``hand_pause`` right after a hand's end, as for the bots."""
        if seat is not None and seat in reading:
            return max(0.0, reading[seat] - time.monotonic() - after)
        return self.room.settings.hand_pause if any(e["type"] == "hand-over" for e in events) else 0.0

    def readers(self, game: Game, events: Sequence[Mapping[str, Any]], after: float, mover: int) -> dict[int, float]:
        """Who reads the score after ``mover``'s step that told ``events``: at a hand's end (its sheet shows
        ``after`` seconds from now, when a window closes), every person with a socket here, until the page says it
        closed the sheet or ``Limits.sheet_seconds`` pass; after any other step, those reading already but the
        one who just moved (they are back at the table)."""
        if not any(e["type"] == "hand-over" for e in events):
            return {seat: end for seat, end in self.room.reading.items() if seat != mover}
        if self.room.table.clock <= 0 or game.is_over:
            return {}
        end = time.monotonic() + after + self.room.settings.limits.sheet_seconds
        return {seat: end for seat in self.room.humans if self.room.conns.get(seat)}

    async def sheet_closed(self, seat: int) -> None:
        """The seat's page closed the hand's score: the clock of its decision, held meanwhile, starts now (it
        never ends later than it would have)."""
        async with self.room.lock:
            if self.room.reading.pop(seat, None) is not None:
                await self._start_held(seat)

    async def _start_held(self, seat: int) -> None:
        """Under the lock: when the decision is the seat's, its clock's deadline moves to ``clock`` seconds from
        now, stored (``set_clock``) so that a restart keeps it, and everyone is shown the clock running."""
        deadline = self.room.table.clock_deadline
        if (
            self.room.status != PLAYING
            or self.room.closed
            or self.room.window is not None
            or self.room.game.is_over
            or self.room.game.to_act != seat
            or seat not in self.room.humans
            or self.room.table.clock <= 0
            or self.room.table.clock_at != self.room.actions
            or deadline is None
        ):
            return
        sooner = now() + timedelta(seconds=self.room.table.clock)
        if sooner >= deadline:
            return
        try:
            await asyncio.to_thread(self.room.repo.set_clock, self.room.id, self.room.actions, sooner)
        except Exception:
            log.warning("table %s: the clock's deadline could not be saved; it waits for the score's end", self.room.id)
            return
        self.room.table.clock_deadline = sooner
        self.schedule(self.room.last_events)
        self.room.broadcast_state([])

    def _start_clock(self, seat: int, events: Sequence[Mapping[str, Any]]) -> None:
        """The human to act has ``clock`` seconds.  The deadline is stored, so a restart keeps it, and kept
        for the same decision until it passes: with the action before it (``append_action``), else (the
        match's start, a seat taken back, a window's end) by the clock's task."""
        if self.room.table.clock <= 0:
            return
        wall = now()
        deadline = self.room.table.clock_deadline if self.room.table.clock_at == self.room.actions else None
        fresh = deadline is None
        if deadline is None:
            deadline = self.deadline(self.room.game, events) or wall + timedelta(seconds=self.room.table.clock)
            self.room.table.clock_at, self.room.table.clock_deadline = self.room.actions, deadline
        self.room.turn.ends = time.monotonic() + (deadline - wall).total_seconds()
        self.room.turn.starts = self.room.turn.ends - self.room.table.clock if seat in self.room.reading else None
        self.room.task = self._start(self._turn_clock(self.room.seq, self.room.actions, deadline if fresh else None))

    async def _turn_clock(self, seq: int, at: int, store: datetime | None) -> None:
        try:
            if store is not None:
                try:
                    await asyncio.to_thread(self.room.repo.set_clock, self.room.id, at, store)
                except Exception:
                    log.warning("table %s: the clock's deadline could not be saved", self.room.id)
            if self.room.turn.ends is not None:
                await until(self.room.turn.ends)
            await self._stand_by(seq, "a clock's time-out")
            async with self.room.lock:
                if self.room.seq == seq:
                    await self.room.standins.take_over_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the turn clock failed", self.room.id)

    async def _stand_by(self, seq: int, what: str) -> None:
        """A process that does not lead waits for the leader's row first (its notice cancels the wait)."""
        if not self.room.leads:
            await asyncio.sleep(self.room.settings.standby)
            if self.room.seq == seq:
                log.warning(
                    "table %s: %s after %d actions, made here: its leader wrote nothing in %.1f s",
                    self.room.id,
                    what,
                    self.room.actions,
                    self.room.settings.standby,
                )

    async def _bot_move(self, seat: int, seq: int, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            if self.room.seq != seq:
                return
            if not self.room.leads:
                log.warning(
                    "table %s: a bot's move after %d actions, made here: its leader wrote nothing in %.1f s",
                    self.room.id,
                    self.room.actions,
                    self.room.settings.standby,
                )
            if self.room.game.decision == "coup-fourre":
                action = self.room.bots.answer(self.room.view, seat)
            else:
                action = await self.room.bots.decide(self.room.view, seat)
            await self.room.submit(seat, action, seq)
        except Refused as r:
            if r.code not in ("stale", "server"):  # a failed save is retried, and logged once if it breaks the table
                log.warning("table %s: bot move refused: %s %s", self.room.id, r.code, r.message)
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot move failed", self.room.id)

    async def _window_ends(self, seq: int, deadline: float) -> None:
        """The window closes: the holder who did not call passes, a bot holder answers, and everyone
        sees what happened behind it."""
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            if self.room.view.holder() is not None:  # an answer to write; once written, any process closes the window
                await self._stand_by(seq, "a window's answer")
            async with self.room.lock:
                if self.room.seq != seq or (self.room.window is None and not self.room.game.is_over):
                    return
                await asyncio.shield(self._close(asyncio.current_task()))
        except Refused as r:
            await self._retry(r, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the coup-fourré window failed to close", self.room.id)

    async def _close(self, caller: asyncio.Task | None) -> None:
        """Under the lock: the holder's answer saved, then the window closed and shown ``window_slack`` seconds
        after its deadline, not when the save is done: with a pass to save or none, in the process that saved it
        or in one that learnt of it (``Following._adopt``), the closing frame goes out at the same moment."""
        told: list[Mapping[str, Any]] = []
        shows = None
        if self.room.window is not None and self.room.window.deadline is not None:
            shows = self.room.window.deadline + self.room.settings.window_slack
        holder = self.room.view.holder()
        if holder is not None:
            answer = "pass" if holder in self.room.humans else self.room.bots.answer(self.room.view, holder)
            told += await self.room._apply(holder, answer) or []
        if shows is not None:
            await self._show_at(shows)
        if self.room.window is not None:
            told += self.room.view.close_window()
        await self.room._finish_if_over()
        self.schedule(told, caller)
        self.room.broadcast_state(told)

    async def _show_at(self, moment: float) -> None:
        """Wait for the window's closing moment; one already past (a save or a notice slower than the slack)
        is logged, since that close came late enough to be told apart."""
        late = time.monotonic() - moment
        if late > 0:
            log.warning(
                "table %s: a coup-fourré window closed %.1f ms after its slack of %g s: the save or the "
                "other process's notice took that long (raise --window-slack)",
                self.room.id,
                1000 * late,
                self.room.settings.window_slack,
            )
        await until(moment)

    async def _retry(self, refused: Refused, seq: int) -> None:
        """A move the database could not take is tried again later and later, if nothing moved meanwhile;
        after the last try the table is broken, so a move that can never be saved is not tried for ever."""
        if refused.code != "server":
            return
        limits = self.room.settings.limits
        if self.room.save_failures >= limits.save_retries:
            await self._break()
            return
        await asyncio.sleep(limits.save_backoff * 2**self.room.save_failures)
        self.room.save_failures += 1
        if self.room.seq == seq:
            self.schedule(self.room.last_events)

    async def _break(self) -> None:
        """Stop the table where it is, once: no more moves, one log line, every seat told."""
        async with self.room.lock:
            if self.room.table.status == BROKEN:
                return
            self.room.table.status = BROKEN
            if self.room.task is not None and self.room.task is not asyncio.current_task():
                self.room.task.cancel()
            self.room.task = None
            try:
                await asyncio.to_thread(self.room.repo.mark_broken, self.room.id)
                kept = "marked broken in the database"
            except Exception as exc:
                kept = f"not marked in the database either ({type(exc).__name__}); it will be tried again at start"
            log.error(
                "table %s is broken: action %d could not be saved after %d tries (%s); %s",
                self.room.id,
                self.room.actions,
                self.room.save_failures + 1,
                self.room.save_error,
                kept,
            )
            self.room.broadcast_state([])
