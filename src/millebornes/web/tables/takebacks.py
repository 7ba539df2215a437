"""Taking back a move (docs/web.md): a person alone with bots, at a casual table, takes back its last decision of
this hand and every move after it.

Why apart from :mod:`.room`: a take-back is no action: it deletes saved rows and rebuilds the room's game from
what is left, here, at the other processes (their ``undo`` notice) and at one whose notices were lost meanwhile
(``recover``).  ``seq`` goes on rising, so that anything worked out for a position now gone is stale.
"""

from __future__ import annotations

import asyncio
import logging

from ..errors import Refused, Stale
from . import outbound
from .facts import view_of
from .host import Host
from .rows import BROKEN, FINISHED, PLAYING

log = logging.getLogger("millebornes.web")


class Takebacks:
    """One room's take-backs; see the module docstring."""

    def __init__(self, room: Host):
        self.room = room

    def undo_point(self, seat: int) -> int:
        """The saved actions that stay when ``seat`` takes back its last decision now, or Refused (nothing changes):
        only a person alone with bots (a person a stand-in plays for is no bot), in a match being played, with no
        coup-fourré window open, and back to a decision of this hand (a deal since showed new hands)."""
        if self.room.status == FINISHED or self.room.game.is_over:
            raise Refused("finished", "the match is over")
        if self.room.status != PLAYING:
            self.room.check_turn(seat, None)
        self.room.check_person(seat)
        if self._beside_people(seat):
            raise Refused("not-allowed", "moves are taken back only when every other seat is a bot", reason="humans")
        if self.room.teaches:
            raise Refused("not-allowed", "the guided match's moves are its lessons", reason="lesson")
        if self.room.table.rated:
            raise Refused("not-allowed", "no move is taken back at a rated table", reason="rated")
        if self.room.window is not None:
            raise Refused("not-allowed", "a coup-fourré window is open: wait for it to close", reason="window")
        keep = self.room.view.take_back(seat)
        if keep == "deal":
            raise Refused("not-allowed", "only a move of this hand is taken back: new hands were dealt", reason="deal")
        if isinstance(keep, str):
            raise Refused("not-allowed", "you have made no decision in this hand to take back", reason="nothing")
        return keep

    def _beside_people(self, seat: int) -> bool:
        """Another seat is a person's, whether a stand-in plays it or not."""
        return any(s.kind != "bot" for s in self.room.table.seats if s.seat != seat)

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
        rebuilt from what is left (:meth:`rebuild`).  Refused: nothing changed."""
        async with self.room.lock:
            if self.room.closed:
                raise Refused("stale", "the table left this server's memory: try again")
            keep = self.undo_point(seat)
            if seq != self.room.seq:
                raise Refused("stale", f"the table moved on: state {self.room.seq}, you asked on {seq}")
            taken = self.room.view.shown_after(keep)
            try:
                await asyncio.to_thread(self.room.repo.take_back, self.room.id, self.room.actions, keep, seat)
            except Stale:
                await self.room.following.read_actions()
                raise Refused("stale", "another move came first: the table is shown as it is now") from None
            except Exception:
                log.exception("table %s: seat %d's moves could not be taken back", self.room.id, seat)
                raise Refused("server", "the move could not be taken back; nothing changed") from None
            log.info("table %s: seat %d took back %d actions", self.room.id, seat, self.room.actions - keep)
            self.room.leads = True
            await self.rebuild(seat, taken)

    async def reload(self, keep: int, seat: int) -> None:
        """Another server process took back moves (its ``undo`` notice): the table as the database now has it."""
        async with self.room.lock:
            if not self.room.closed and self.room.table.status != BROKEN:
                self.room.leads = False
                await self.rebuild(seat, self.room.view.shown_after(keep) if keep <= self.room.actions else [])

    async def recover(self) -> None:
        """The notices were lost for a while: a casual table, whose moves may have been taken back meanwhile, is
        rebuilt when its rows no longer begin with this copy's; any table adopts the rows it lacks."""
        async with self.room.lock:
            if self.room.closed or self.room.table.status == BROKEN:
                return
            saved = await asyncio.to_thread(self.room.repo.get, self.room.id)
            if saved is not None and saved.casual:  # its rows too, only then
                saved = await asyncio.to_thread(self.room.repo.get, self.room.id, True)
            if saved is not None and saved.casual and saved.actions[: self.room.actions] != self.room.view.played():
                self.room.leads = False
                person = next((s.seat for s in saved.seats if s.kind == "human"), 0)
                await self.rebuild(person, [])
            else:
                await self.room.following.read_actions()

    async def rebuild(self, seat: int, taken: list[dict]) -> None:
        """Under the lock: the game replayed from the saved rows, and everyone sent the log as it now stands
        (``undone``) and their state.  ``seq`` goes on rising, so that a bot's move, a hint or a clock worked out
        for a position now gone is stale when it comes back."""
        saved = await asyncio.to_thread(self.room.repo.get, self.room.id, True)
        if saved is None:
            return
        t, seq = self.room.table, self.room.seq
        t.actions, t.notes, t.casual = saved.actions, saved.notes, saved.casual
        t.clock_at, t.clock_deadline = saved.clock_at, saved.clock_deadline
        view = view_of(t, self.room.settings.limits.log_events)
        if view.window is not None and view.holder() is None:
            view.close_window()  # it had closed before the decision taken back: nobody waits for it again
        view.seq = max(view.seq, seq + 1)
        self.room.view, self.room.notes = view, len(saved.notes)
        self.room.reseat()
        self.room.schedule([])
        self.room.broadcast(outbound.undone(seat, taken, list(view.log)))
        self.room.broadcast_state([])
