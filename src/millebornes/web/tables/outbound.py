"""What the server sends on a table's WebSocket: one type and one builder per frame (docs/web-api.md, "Frames").

Every frame a socket receives is built here, so its fields are written once and a new field has one home;
what the client may send is :mod:`.inbound`.  (No ``from __future__ import annotations``: a test reads each
frame's required and optional keys at run time.)
"""

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, cast

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict  # pydantic validates this one on Python 3.11 (the tests do)

Events = Sequence[Mapping[str, Any]]


@with_config(ConfigDict(extra="forbid"))
class SeatFacts(TypedDict):
    """One seat as state and seats frames tell it (:func:`.facts.seat_facts`)."""

    seat: int
    kind: str
    level: str | None
    nickname: str | None
    connected: bool
    standin: bool
    away: float | None
    """Seconds since the joined human's last socket left."""
    takeover: float | None
    """Seconds until a stand-in bot plays for the human who left, counted from when the frame was sent: the
    end of the grace period, or of the turn clock when it is their decision and it ends first."""


class StateFrame(TypedDict):
    type: Literal["state"]
    seq: int
    observation: Mapping[str, Any]
    events: Events
    seats: list[SeatFacts]
    status: str
    cf_deadline: float | None
    turn: dict | None
    refused: list[dict | None] | None
    """For the seat whose play it is: why each card of its hand cannot be played now (:mod:`.cardhelp`)."""
    undo: bool
    """Whether this seat may take back its last decision now (docs/web-api.md, "Taking back a move"): the page shows
    its button only then.  False for a spectator."""
    lesson: NotRequired[dict]
    """In the guided first match, to the learner: ``{"key", "n", "total"}``, the lesson it is on; the last one,
    ``score``, adds ``scored`` (what the learner's points were for: ``[{"item", "points"}]``) and ``goal`` (the
    points that end a real match of the edition)."""


class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    seat: int | None
    spectator: NotRequired[bool]
    table: dict
    log: list
    chat: list
    token: NotRequired[str]
    rematch: NotRequired[dict]


class SeatsFrame(TypedDict):
    type: Literal["seats"]
    seats: list[SeatFacts]


class SaidFrame(TypedDict):
    type: Literal["said"]
    seat: int
    key: str
    at: str | None


class MoveReason(TypedDict):
    """Why a move is better (millebornes.reasons): a code the page words as ``reason.<code>``, and its params."""

    code: str
    params: dict


class HintChoice(TypedDict):
    """One action of a hint, with the search's chances; the first, the search's choice, says why (``reason``)."""

    action: str
    win_chance: float | None
    match_chance: float | None
    visits: int
    reason: NotRequired[MoveReason]


class HintFrame(TypedDict):
    type: Literal["hint"]
    seq: int
    actions: list[HintChoice]


class RematchFrame(TypedDict):
    type: Literal["rematch"]
    table: str | None
    seats: list[dict]


class RematchSeatFrame(TypedDict):
    type: Literal["rematch-seat"]
    table: str
    seat: int
    url: str


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    action: NotRequired[str]
    reason: NotRequired[str]
    params: NotRequired[dict]
    retry_after: NotRequired[float]
    say: NotRequired[str]


class PongFrame(TypedDict):
    type: Literal["pong"]


class UndoneFrame(TypedDict):
    """A seat took back moves: the log as it now stands replaces the page's, and a state frame follows."""

    type: Literal["undone"]
    seat: int
    taken: list[dict]
    """The moves taken back that everyone was shown, oldest first: ``{"seat", "action"}`` (never a pass)."""
    log: list


ServerFrame = (
    StateFrame
    | WelcomeFrame
    | SeatsFrame
    | SaidFrame
    | HintFrame
    | RematchFrame
    | RematchSeatFrame
    | ErrorFrame
    | PongFrame
    | UndoneFrame
)


def state(
    seq: int,
    observation: Mapping[str, Any],
    events: Events,
    seats: list[SeatFacts],
    status: str,
    cf_deadline: float | None,
    turn: dict | None,
    refused: list[dict | None] | None = None,
    undo: bool = False,
) -> StateFrame:
    return {
        "type": "state",
        "seq": seq,
        "observation": observation,
        "events": events,
        "seats": seats,
        "status": status,
        "cf_deadline": cf_deadline,
        "turn": turn,
        "refused": refused,
        "undo": undo,
    }


def welcome(
    seat: int, table: dict, log: list, chat: list, token: str | None = None, rematch: dict | None = None
) -> WelcomeFrame:
    """A seat's welcome; ``token`` only on its first join, ``rematch`` only at a finished table."""
    frame: WelcomeFrame = {"type": "welcome", "seat": seat, "table": table, "log": log, "chat": chat}
    if token is not None:
        frame["token"] = token
    if rematch is not None:
        frame["rematch"] = rematch
    return frame


def spectator_welcome(table: dict, log: list, chat: list) -> WelcomeFrame:
    return {"type": "welcome", "seat": None, "spectator": True, "table": table, "log": log, "chat": chat}


def seats(facts: list[SeatFacts]) -> SeatsFrame:
    return {"type": "seats", "seats": facts}


def said(seat: int, key: str, at: str | None) -> SaidFrame:
    return {"type": "said", "seat": seat, "key": key, "at": at}


def hint(seq: int, actions: list[dict]) -> HintFrame:
    """``actions`` as web.thinking.hint works them out (a worker's answer: plain dicts of a HintChoice's keys)."""
    return {"type": "hint", "seq": seq, "actions": cast(list[HintChoice], actions)}


def rematch(table: str | None, seats: list[dict]) -> RematchFrame:
    return {"type": "rematch", "table": table, "seats": seats}


def rematch_seat(table: str, seat: int, token: str) -> RematchSeatFrame:
    """The link to the same seat of the rematch, to the one socket whose seat accepted."""
    return {"type": "rematch-seat", "table": table, "seat": seat, "url": f"/t/{table}#seat={seat}&token={token}"}


def error(code: str, message: str, action: str | None = None, **extra: Any) -> ErrorFrame:
    """``message`` is English, for logs; the page words an error from ``code`` and ``extra``."""
    frame: ErrorFrame = {"type": "error", "code": code, "message": message}
    if action is not None:
        frame["action"] = action
    frame.update(extra)  # type: ignore[typeddict-item]
    return frame


def pong() -> PongFrame:
    return {"type": "pong"}


def undone(seat: int, taken: list[dict], log: list) -> UndoneFrame:
    return {"type": "undone", "seat": seat, "taken": taken, "log": log}
