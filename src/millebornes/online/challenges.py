"""Which challenges the bridge takes: its answer to each ``challenge``, and the same filter declared to the server in
the hello's ``accepts`` so that the server refuses what the bot would decline before asking it, and lists it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .config import Challenges


def accepts(c: Challenges) -> dict[str, Any]:
    """The hello's ``accepts``: the editions, player counts and rated/casual the bridge takes (a member left out:
    any). The clock and the number of tables are the bridge's own to judge."""
    found: dict[str, Any] = {"rated": c.rated, "casual": c.casual}
    if c.editions is not None:
        found["editions"] = list(c.editions)
    if c.players is not None:
        found["players"] = list(c.players)
    return found


def refusal(c: Challenges, challenge: Mapping[str, Any], playing: int) -> str | None:
    """Why the bridge declines this challenge, in words for the log, or None to accept it. ``playing``: the tables
    the bridge plays now."""
    edition, players, rated, clock = (challenge.get(k) for k in ("edition", "players", "rated", "clock"))
    if c.editions is not None and edition not in c.editions:
        return f"the edition {edition!r} is not among {', '.join(c.editions)}"
    if c.players is not None and players not in c.players:
        return f"{players} players is not among {', '.join(map(str, c.players))}"
    if rated is True and not c.rated:
        return "rated matches are not accepted"
    if rated is not True and not c.casual:
        return "casual matches are not accepted"
    if not isinstance(clock, int | float) or isinstance(clock, bool) or clock < 0:
        return f"the clock {clock!r} is not a number of seconds"
    if clock == 0 and not c.untimed:
        return "tables without a turn clock are not accepted"
    if clock > 0 and clock < c.min_clock:
        return f"{clock:g} s a decision is below the least accepted, {c.min_clock:g} s"
    if clock > 0 and c.max_clock is not None and clock > c.max_clock:
        return f"{clock:g} s a decision is above the most accepted, {c.max_clock:g} s"
    if playing >= c.tables:
        return f"the bot plays {playing} tables already, its most at once"
    return None
