"""What a client may send on the table's WebSocket: one schema per frame type, no extra fields.

A frame that does not fit is refused with a one-line reason that names the field (:func:`words`);
nicknames are checked here too, since they arrive in a frame.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ..errors import Refused
from . import lookalikes
from .chat import Key as ChatKey


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JoinFrame(_Frame):
    """A seat opened by its link's ``token``, or with ``account`` true by the sign-in of the account that holds it
    (the session cookie sent with the socket's handshake: the same seat on another device)."""

    type: Literal["join"]
    seat: StrictInt
    token: Annotated[StrictStr, Field(max_length=128)] | None = None
    account: StrictBool = False
    nickname: StrictStr | None = None

    @model_validator(mode="after")
    def _one_key(self) -> JoinFrame:
        if (self.token is None) != self.account:
            raise ValueError("a join carries either the seat's token or account: true, not both")
        return self


class WatchFrame(_Frame):
    type: Literal["watch"]


class ActFrame(_Frame):
    type: Literal["act"]
    action: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    seq: StrictInt


class HintFrame(_Frame):
    type: Literal["hint"]


class PingFrame(_Frame):
    type: Literal["ping"]


class BackFrame(_Frame):
    """A person takes the seat back from the stand-in bot that played it."""

    type: Literal["back"]


class UndoFrame(_Frame):
    """A person alone with bots takes back their last decision, asked on the state ``seq`` (docs/web-api.md)."""

    type: Literal["undo"]
    seq: StrictInt


class SayFrame(_Frame):
    """A quick-chat message: one of the canned ids, never free text."""

    type: Literal["say"]
    key: ChatKey


class RematchFrame(_Frame):
    """A seat of a finished table accepts (true) or declines (false) the rematch (web/tables/rematch.py)."""

    type: Literal["rematch"]
    answer: StrictBool


class FillBotsFrame(_Frame):
    """A joined seat of a waiting rematch gives the seats nobody joined to bots (web/tables/rematch.py)."""

    type: Literal["fill-bots"]


class SheetClosedFrame(_Frame):
    """The seat's page closed the score of the hand just over: its turn clock, held meanwhile, may run."""

    type: Literal["sheet-closed"]


ClientFrame = (
    JoinFrame
    | WatchFrame
    | ActFrame
    | HintFrame
    | PingFrame
    | BackFrame
    | UndoFrame
    | SayFrame
    | RematchFrame
    | FillBotsFrame
    | SheetClosedFrame
)
CLIENT_FRAME = TypeAdapter(Annotated[ClientFrame, Field(discriminator="type")])


def words(exc: ValidationError) -> str:
    """A pydantic error in one line that names the field."""
    parts = []
    for e in exc.errors()[:3]:
        if e["type"] == "json_invalid":
            return "not a JSON object"
        if e["type"] == "union_tag_invalid":
            return (
                "unknown frame type (join, watch, act, hint, back, undo, say, ping, rematch, fill-bots or sheet-closed)"
            )
        if e["type"] == "union_tag_not_found":
            return 'a frame needs a "type"'
        loc = ".".join(str(x) for x in e["loc"])
        parts.append(f"{loc}: {e['msg']}" if loc else e["msg"])
    return "; ".join(parts)


NICKNAME_LENGTH = 24
"""Characters (code points, after NFC), counted the same way by the page."""
_HIDDEN = ("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp")  # controls, format and direction marks, unassigned


def clean_nickname(raw: str | None) -> str | None:
    """A nickname as stored and shown: NFC, trimmed, 1-24 characters, at least one letter or digit, no
    invisible or direction-changing character, only plain spaces, and not a name the pages give to a
    seat or a bot ("Seat 2", "Bot 1 (hard)"), which another player could be taken for.  The pages show
    it with textContent inside <bdi>, so nothing else needs escaping."""
    if raw is None:
        return None
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= NICKNAME_LENGTH:
        raise Refused("malformed", f"nickname: 1 to {NICKNAME_LENGTH} characters")
    if any(unicodedata.category(c) in _HIDDEN or (unicodedata.category(c) == "Zs" and c != " ") for c in name):
        raise Refused("malformed", "nickname: no invisible, control or direction characters, only plain spaces")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise Refused("malformed", "nickname: at least one letter or digit")
    if lookalikes.mixes_scripts(name):
        raise Refused(
            "malformed", "nickname: letters of one alphabet (Latin with Cyrillic or Greek looks like another name)"
        )
    if lookalikes.reads_as_reserved(name):
        raise Refused("malformed", 'nickname: names like "Seat 2" or "Bot 1" are the table\'s own')
    return name
