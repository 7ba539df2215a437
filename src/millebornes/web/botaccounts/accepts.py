"""What tables a bot online takes (docs/web-api.md, "Bots online"): the ``accepts`` of its ``hello``, checked and
bounded here, kept with its connection (``bots.accepts``) so that every server process refuses a challenge outside
it before the bot hears of it (``bot-refuses``).  Absent, or a member absent, means any."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...rules import RULESETS

EDITIONS = tuple(RULESETS)
PLAYERS = tuple(sorted({n for r in RULESETS.values() for n in (*r.solo_players, *r.team_players)}))
"""The player counts some edition is played with: the only ones a bot may list."""
MEMBERS = ("editions", "players", "rated", "casual")
ANY: dict[str, Any] = {"editions": None, "players": None, "rated": True, "casual": True}
"""What a bot takes that says nothing: any table (``GET /api/bots/online`` lists it so)."""


class BadAccepts(ValueError):
    """The hello's ``accepts`` is not valid; the message says which rule it breaks."""


def _listed(value: Any, name: str, allowed: tuple, what: str) -> list | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise BadAccepts(f"accepts.{name} is a non-empty list of {what}, or left out for any")
    if len(value) > len(allowed):
        raise BadAccepts(f"accepts.{name} names each of its {what} once: {len(allowed)} at most")
    for item in value:
        if type(item) is not type(allowed[0]) or item not in allowed:
            shown = repr(item)[:40]
            raise BadAccepts(f"accepts.{name}: {shown} is not one of the {what} ({', '.join(map(str, allowed))})")
    if len(set(value)) != len(value):
        raise BadAccepts(f"accepts.{name} names each of its {what} once")
    return sorted(value, key=allowed.index)


def parse(value: Any) -> dict[str, Any]:
    """The hello's ``accepts`` (None: absent) as the server keeps it: every member there, None for any edition or
    player count; :class:`BadAccepts` for anything else."""
    if value is None:
        return dict(ANY)
    if not isinstance(value, Mapping):
        raise BadAccepts("accepts is an object: editions, players, rated, casual, each optional")
    unknown = sorted(str(k)[:40] for k in value if k not in MEMBERS)
    if unknown:
        raise BadAccepts(f"accepts has no member {unknown[0]!r}: its members are {', '.join(MEMBERS)}")
    kept: dict[str, Any] = {
        "editions": _listed(value.get("editions"), "editions", EDITIONS, "editions"),
        "players": _listed(value.get("players"), "players", PLAYERS, "player counts"),
    }
    for kind in ("rated", "casual"):
        flag = value.get(kind, True)
        if not isinstance(flag, bool):
            raise BadAccepts(f"accepts.{kind} is true or false (true if left out)")
        kept[kind] = flag
    if not kept["rated"] and not kept["casual"]:
        raise BadAccepts("accepts takes no table with rated and casual both false: leave one of them true")
    return kept


def refusal(accepts: Mapping[str, Any] | None, edition: str, players: int, rated: bool) -> str | None:
    """Why a bot that accepts this does not take such a table (the words after "the bot takes"), else None."""
    if accepts is None:
        return None
    editions, counts = accepts.get("editions"), accepts.get("players")
    if editions is not None and edition not in editions:
        return f"the editions {', '.join(editions)} only"
    if counts is not None and players not in counts:
        return f"tables of {', '.join(map(str, counts))} players only"
    if rated and not accepts.get("rated", True):
        return "casual tables only"
    if not rated and not accepts.get("casual", True):
        return "rated tables only"
    return None
