"""Quick chat at a table: the canned messages a seat may say, and how often.

There is no free text, so nothing to moderate: a ``say`` frame names one of :data:`KEYS` and each page
shows it in its reader's language (the catalog's ``chat.<key>``).  :class:`ChatWindow` is the per-seat rate
limit (docs/web.md, "Limits"): at most ``Limits.chat_messages`` in any ``chat_seconds``, and not the same
key again within ``chat_repeat_seconds``.  It lives in the room's memory, so a restart forgets it, as it
forgets the recent lines: a few messages more are let through, nothing else.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Literal, get_args

from ..errors import Refused
from ..settings import Limits

Message = Literal[
    "hello",
    "good-luck",
    "have-fun",
    "well-played",
    "nice-coup-fourre",
    "oops",
    "thinking",
    "sorry",
    "thanks",
    "good-game",
    "bye",
]
Emote = Literal["smile", "laugh", "wow", "sad", "applause"]
Key = Literal[Message, Emote]
"""What a ``say`` frame may name: a type, so that the frame's schema is checked against it too."""
MESSAGES: tuple[str, ...] = get_args(Message)
EMOTES: tuple[str, ...] = get_args(Emote)
KEYS = MESSAGES + EMOTES
"""Every id a seat may say, in the order the page offers them (static/js/chat.js has the same list)."""


def _tenths_up(seconds: float) -> float:
    return max(0.1, math.ceil(seconds * 10 - 1e-9) / 10)


class ChatWindow:
    """``take(seat, key, now)`` lets one message through and counts it, or says how long to wait.

    Memory: per seat, the times of its last ``chat_messages`` messages and of each key's last one, so at
    most a few dozen numbers per seat."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.sent: dict[int, deque[float]] = {}
        self.last: dict[int, dict[str, float]] = {}

    def take(self, seat: int, key: str, now: float) -> tuple[float, str] | None:
        """None when ``seat`` may say ``key`` at ``now`` (seconds of a monotonic clock), and it is counted;
        else the seconds to wait (to a tenth, rounded up) and why, in English for the error's message.
        A refusal counts nothing."""
        lim = self.limits
        sent = self.sent.setdefault(seat, deque(maxlen=lim.chat_messages))
        last = self.last.setdefault(seat, {})
        waits = []
        if len(sent) == lim.chat_messages and sent[0] + lim.chat_seconds > now:
            waits.append(
                (
                    sent[0] + lim.chat_seconds - now,
                    f"at most {lim.chat_messages} messages in {lim.chat_seconds:g} seconds",
                )
            )
        if key in last and last[key] + lim.chat_repeat_seconds > now:
            waits.append(
                (
                    last[key] + lim.chat_repeat_seconds - now,
                    f"not the same message again within {lim.chat_repeat_seconds:g} seconds",
                )
            )
        if waits:
            wait, why = max(waits)
            return _tenths_up(wait), why
        sent.append(now)
        last[key] = now
        return None


class Chat:
    """A table's quick chat: each seat's :class:`ChatWindow`, and the last lines a joining socket is given."""

    def __init__(self, limits: Limits):
        self.window = ChatWindow(limits)
        self.lines: deque[dict] = deque(maxlen=limits.chat_lines)

    def take(self, seat: int, key: str, now: float) -> None:
        """Count the seat's message, or refuse it (``rate``, with ``retry_after``) and count nothing."""
        wait = self.window.take(seat, key, now)
        if wait is not None:
            raise Refused("rate", f"quick chat: {wait[1]}; say it again in {wait[0]:.1f} seconds", retry_after=wait[0])

    def heard(self, seat: int, key: str, at: str | None) -> dict:
        """A line said here or at another server process, kept among the last ones."""
        line = {"seat": seat, "key": key, "at": at}
        self.lines.append(line)
        return line
