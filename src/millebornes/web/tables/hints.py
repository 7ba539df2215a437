"""A room's hints: the search's view of a seat's decision, worked out off the event loop and rationed.

One hint at a time per seat (so per socket too), ``Limits.hint_cooldown`` seconds after one is answered
before the next, and no more at once than the server's ``hint_backlog`` (:class:`..thinking.Thinker`).  A
refusal changes nothing and says when to ask again.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable

from ...observation import Observation
from ..errors import HintsBusy, Refused
from ..settings import Settings
from ..thinking import Thinker, hint
from . import outbound

log = logging.getLogger("millebornes.web")


class Hints:
    """The hints of one table's seats: who is waiting for one, and when each seat may ask again."""

    def __init__(self, table_id: str, thinker: Thinker, settings: Settings):
        self.table_id = table_id
        self.thinker = thinker
        self.settings = settings
        self.working: set[int] = set()
        self.ready: dict[int, float] = {}
        """Each seat's next moment (``time.monotonic``) to ask."""

    def ask(self, seat: int, seq: int, observation: Observation, seed: int) -> Awaitable[outbound.HintFrame]:
        """Start the seat's hint on the state it was shown at ``seq``, or refuse at once: the awaitable is
        the hint frame.  ``observation`` is what the seat's frame shows, not the engine's view (which still
        knows the safeties its coup-fourré questions showed it: view.Asked)."""
        if seat in self.working:
            raise Refused("rate", "a hint for this seat is already being worked out: wait for it")
        wait = self.ready.get(seat, 0.0) - time.monotonic()
        if wait > 0:
            retry = math.ceil(wait * 10) / 10
            raise Refused(
                "rate",
                f"a seat waits {self.settings.limits.hint_cooldown:g} seconds after a hint "
                f"before the next: ask again in {retry:.1f} seconds",
                retry_after=retry,
            )
        try:
            work = self.thinker.hint(hint, observation, self.settings.hint_iterations, self.settings.hint_ms, seed)
        except HintsBusy as exc:
            raise Refused("busy", str(exc)) from None
        except Exception:
            log.exception("table %s: a hint could not be started", self.table_id)
            raise Refused("server", "the hint could not be worked out") from None
        self.working.add(seat)
        work.add_done_callback(lambda _: self._done(seat))
        return self._frame(seq, work)

    def _done(self, seat: int) -> None:
        """The seat's hint is over (answered, failed or dropped): its cooldown starts."""
        self.working.discard(seat)
        self.ready[seat] = time.monotonic() + self.settings.limits.hint_cooldown

    @staticmethod
    async def _frame(seq: int, work: Awaitable[list[dict]]) -> outbound.HintFrame:
        return outbound.hint(seq, await work)
