"""Whose decision it is, since when, and when the human deciding runs out of time: the turn facts a state
frame carries (docs/web-api.md, "turn"), on ``time.monotonic``.  The turn clock's deadline is also stored, on
the wall clock, so a restart keeps it (:meth:`.clock.Clock._start_clock`)."""

from __future__ import annotations


class Turn:
    def __init__(self, at: float):
        self.seq = -1
        """The step whose decision this is."""
        self.since = at
        self.ends: float | None = None
        """When the human to act runs out of time; None without a clock running."""
        self.starts: float | None = None
        """When the clock starts, if it waits while the person reads the last hand's score (paused until then)."""

    def step(self, seq: int, at: float) -> None:
        """The state the room now waits on: a new decision starts unless it is the same step."""
        self.ends = self.starts = None
        if seq != self.seq:
            self.seq, self.since = seq, at

    def facts(self, seat: int | None, at: float) -> dict:
        """``left``: the clock's seconds left; ``paused``: the seconds before it starts, while it waits for the
        person to read the score (``left`` stays whole meanwhile), else None."""
        left = None if self.ends is None else round(max(0.0, self.ends - at), 1)
        paused = None
        if self.ends is not None and self.starts is not None and at < self.starts:
            left, paused = round(self.ends - self.starts, 1), round(self.starts - at, 1)
        return {"seat": seat, "for": round(at - self.since, 1), "left": left, "paused": paused}

    def run_out(self, at: float) -> bool:
        return self.ends is not None and at >= self.ends
