"""What a client may send on the table's WebSocket: one schema per frame type, no extra fields.

A frame that does not fit is refused with a one-line reason that names the field (``_words``);
nicknames are checked here too, since they arrive in a frame.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from .room import Refused


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JoinFrame(_Frame):
    type: Literal["join"]
    seat: StrictInt
    token: Annotated[StrictStr, Field(max_length=128)]
    nickname: StrictStr | None = None


class ActFrame(_Frame):
    type: Literal["act"]
    action: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    seq: StrictInt


class HintFrame(_Frame):
    type: Literal["hint"]


class PingFrame(_Frame):
    type: Literal["ping"]


ClientFrame = Union[JoinFrame, ActFrame, HintFrame, PingFrame]
CLIENT_FRAME = TypeAdapter(Annotated[ClientFrame, Field(discriminator="type")])


def words(exc: ValidationError) -> str:
    """A pydantic error in one line that names the field."""
    parts = []
    for e in exc.errors()[:3]:
        if e["type"] == "json_invalid":
            return "not a JSON object"
        if e["type"] == "union_tag_invalid":
            return "unknown frame type (join, act, hint or ping)"
        if e["type"] == "union_tag_not_found":
            return "a frame needs a \"type\""
        loc = ".".join(str(x) for x in e["loc"])
        parts.append(f"{loc}: {e['msg']}" if loc else e["msg"])
    return "; ".join(parts)


_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}


def clean_nickname(raw: str | None) -> str | None:
    """Stored as given once trimmed: 1-24 characters, no control or direction-changing characters.
    The pages show it with textContent, so nothing else needs escaping."""
    if raw is None:
        return None
    name = raw.strip()
    if not 1 <= len(name) <= 24:
        raise Refused("malformed", "nickname: 1 to 24 characters")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs") or c in _BIDI for c in name):
        raise Refused("malformed", "nickname: no control characters")
    return name
