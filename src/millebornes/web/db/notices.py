"""What server processes tell each other through PostgreSQL: the notice kinds, and how each is written.

A notice is one line of words, ``"<table id> <kind> <origin> <args...>"``, on :data:`CHANNEL`, sent at the
commit of what it tells (:meth:`.database.Database.notice`) and heard by every other process (:mod:`.listener`,
:meth:`..tables.hall.Hall.heard`).  Processes of two versions run side by side during an upgrade, so the words are
the contract: a kind is added, never renamed, and a kind a process does not know is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

CHANNEL = "millebornes_tables"
"""PostgreSQL's notification channel (``LISTEN``/``pg_notify``)."""

NO_TABLE = "-"
"""The table id of a notice about no table (:attr:`Kind.ALIVE`)."""


class Kind(StrEnum):
    """What a notice tells; its arguments after the origin."""

    ACTION = "action"
    """``N SEAT DEADLINE ACTION...``: the table has N actions, the last of them this row (:func:`action_args`)."""
    SEATS = "seats"
    """A join, a claim, a stand-in, a seat given to a bot: read the seats again."""
    PRESENCE = "presence"
    """``SEAT 0|1``: a seat's first socket at a process, or its last gone."""
    WHO = "who"
    """A process opened the table: who is here?"""
    SAID = "said"
    """``SEAT KEY``: a quick-chat line."""
    REMATCH = "rematch"
    """Someone answered the rematch: its answers so far are in the database."""
    EXPIRED = "expired"
    """Another process's sweep expired the table; ``withdrawn``: a bot's seek, withdrawn before its match started
    (:data:`WITHDRAWN_NOTICE`), whose people are told."""
    ALIVE = "alive"
    """A process's heartbeat, about no table."""
    UNDO = "undo"
    """``N SEAT``: SEAT took back moves, the table has N actions left: read it again (:func:`undo_args`)."""
    CHALLENGE = "challenge"
    """``SEAT ACCOUNT``: the table holds SEAT for the bot account ACCOUNT; the process where that bot is connected
    sends it the challenge (web/botaccounts/gateway.py, :func:`challenge_args`)."""
    FORFEIT = "forfeit"
    """A seat left the rated match after it started and the table is finished, the other side winning
    (web/tables/forfeits.py): read the table and its log's notes again."""


WITHDRAWN_NOTICE = "withdrawn"
"""The argument of an ``expired`` notice for a bot's seek that was withdrawn."""


@dataclass(frozen=True)
class Notice:
    table_id: str
    kind: str
    """A :class:`Kind`'s value, or a newer version's kind this one does not know."""
    origin: str
    """The process that sent it (:attr:`.database.Database.origin`)."""
    args: list[str]


def encode(table_id: str, kind: Kind, origin: str, *args: object) -> str:
    """A notice's payload."""
    return " ".join([table_id, kind.value, origin, *map(str, args)])


def decode(payload: str) -> Notice:
    table_id, kind, origin, *args = payload.split(" ")
    return Notice(table_id, kind, origin, args)


def action_args(n: int, seat: int, action: str, clock: datetime | None) -> list[str]:
    """The arguments of an ``action`` notice: the row itself (the action's words last, they may be several)."""
    return [str(n + 1), str(seat), clock.isoformat() if clock is not None else "-", action]


def action_row(args: list[str]) -> tuple[int, int, str, datetime | None]:
    """An ``action`` notice's row back: (actions the table now has, seat, action, deadline)."""
    count, seat, deadline, *words = args
    return int(count), int(seat), " ".join(words), None if deadline == "-" else datetime.fromisoformat(deadline)


def presence_args(seat: int, on: bool) -> list[str]:
    return [str(seat), str(int(on))]


def presence_of(args: list[str]) -> tuple[int, bool]:
    """A ``presence`` notice's (seat, whether someone is on it there)."""
    return int(args[0]), args[1] == "1"


def said_args(seat: int, key: str) -> list[str]:
    return [str(seat), key]


def said_of(args: list[str]) -> tuple[int, str]:
    """A ``said`` notice's (seat, quick-chat key)."""
    return int(args[0]), args[1]


def undo_args(keep: int, seat: int) -> list[str]:
    return [str(keep), str(seat)]


def undo_of(args: list[str]) -> tuple[int, int]:
    """An ``undo`` notice's (actions the table has left, the seat that took its move back)."""
    return int(args[0]), int(args[1])


def challenge_args(seat: int, account_id: str) -> list[str]:
    return [str(seat), account_id]


def challenge_of(args: list[str]) -> tuple[int, str]:
    """A ``challenge`` notice's (seat, the bot's account id)."""
    return int(args[0]), args[1]
