"""A room's hints: the search's view of a seat's decision, worked out off the event loop and rationed.

The ration is counted in decisions, not in seconds: a seat's first hint on a decision (a ``seq`` it was shown) is
always granted, however soon after the last one, so a player who asks once per decision of their own never meets
it, against bots as fast as they come.  Asking again on the same decision waits ``Limits.hint_cooldown`` seconds
after the last answer; one hint of a decision is worked out at a time; and a seat has at most
:data:`HINTS_PER_SEAT` in the pool at once (a hint of a decision it has moved on from still runs to its end).  The
server's ``hint_backlog`` (:class:`..thinking.Thinker`) bounds the hints of every seat together, so a flood cannot
starve the thinking pool.  A refusal changes nothing and says when to ask again.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable

from ...observation import Observation
from ..errors import HintsBusy, Refused
from ..settings import Settings
from ..thinking import Thinker, hint
from . import outbound

log = logging.getLogger("millebornes.web")

HINTS_PER_SEAT = 2
"""A seat's hints in the pool at once: its decision's, and one left from a decision it has already made."""


class Hints:
    """The hints of one table's seats: which decisions' hints are being worked out, and when each seat may ask
    again on the decision it last had one for."""

    def __init__(self, table_id: str, thinker: Thinker, settings: Settings):
        self.table_id = table_id
        self.thinker = thinker
        self.settings = settings
        self.working: dict[int, set[int]] = {}
        """Each seat's decisions (``seq``) whose hint is being worked out."""
        self.answered: dict[int, tuple[int, float]] = {}
        """Each seat's last decision answered, and the moment (``time.monotonic``) it may ask on it again."""

    def ask(self, seat: int, seq: int, observe: Callable[[], Observation], seed: int) -> Awaitable[outbound.HintFrame]:
        """Start the seat's hint on the state it was shown at ``seq``, or refuse at once: the awaitable is
        the hint frame.  ``observe()`` gives what the seat's frame shows, not the engine's view (which still
        knows the safeties its coup-fourré questions showed it: view.Asked); it is asked only for a hint granted,
        so a flood of refused asks costs the server next to nothing."""
        working = self.working.setdefault(seat, set())
        if seq in working:
            raise Refused("rate", "the hint of this decision is already being worked out: wait for it")
        last_seq, ready = self.answered.get(seat, (None, 0.0))
        wait = ready - time.monotonic()
        if last_seq == seq and wait > 0:
            retry = math.ceil(wait * 10) / 10
            raise Refused(
                "rate",
                f"a seat waits {self.settings.limits.hint_cooldown:g} seconds after a hint before asking again "
                f"on the same decision: ask again in {retry:.1f} seconds",
                retry_after=retry,
            )
        if len(working) >= HINTS_PER_SEAT:
            retry = max(0.1, math.ceil(self.settings.hint_ms / 100) / 10)
            raise Refused(
                "rate",
                f"this seat's hints of decisions it has made are still being worked out: ask again in {retry:.1f} "
                "seconds",
                retry_after=retry,
            )
        try:
            work = self.thinker.hint(hint, observe(), self.settings.hint_iterations, self.settings.hint_ms, seed)
        except HintsBusy as exc:
            raise Refused("busy", str(exc)) from None
        except Exception:
            log.exception("table %s: a hint could not be started", self.table_id)
            raise Refused("server", "the hint could not be worked out") from None
        working.add(seq)
        work.add_done_callback(lambda _: self._done(seat, seq))
        return self._frame(seq, work)

    def _done(self, seat: int, seq: int) -> None:
        """The seat's hint of decision ``seq`` is over (answered, failed or dropped): asking again on that decision
        waits the cooldown."""
        self.working.get(seat, set()).discard(seq)
        if seq >= self.answered.get(seat, (seq, 0.0))[0]:  # a past decision's late answer leaves the last one be
            self.answered[seat] = (seq, time.monotonic() + self.settings.limits.hint_cooldown)

    @staticmethod
    async def _frame(seq: int, work: Awaitable[list[dict]]) -> outbound.HintFrame:
        return outbound.hint(seq, await work)
