"""Quick chat (docs/web-api.md, "Quick chat"; docs/web.md, "Limits"): a seat says one of the canned messages and every seat and
spectator of its table hears it; a spectator cannot say anything; the per-seat rate limit refuses with
``retry_after`` and tells nobody; a (re)joining socket's welcome carries the last lines."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from millebornes.i18n import catalog  # noqa: E402
from millebornes.web.settings import Limits  # noqa: E402
from millebornes.web.tables.chat import KEYS, ChatWindow  # noqa: E402
from tests.conftest import SeatClient  # noqa: E402

HUMAN = {"kind": "human"}
CHAT_JS = Path(__file__).resolve().parents[3] / "src" / "millebornes" / "web" / "static" / "js" / "chat.js"


def watch(web, table_id: str) -> SeatClient:
    c = web.connect(table_id)
    c.send({"type": "watch"})
    welcome = c.expect("welcome")
    c.expect("state")
    c.welcome = welcome
    return c


def nothing_more(c: SeatClient) -> list[dict]:
    """The frames ``c`` got before the answer to a ping: what was sent to it so far."""
    c.send({"type": "ping"})
    got = []
    while (frame := c.recv())["type"] != "pong":
        got.append(frame)
    return got


def said(c: SeatClient) -> list[dict]:
    return [f for f in nothing_more(c) if f["type"] == "said"]


def table_of_two(web, **limits):
    web.start(limits=Limits(frames_per_second=100_000, **limits))
    table = web.create(seats=[HUMAN, HUMAN])
    return table, web.join(table, 0, "Ann"), web.join(table, 1, "Bob")


def test_a_message_goes_to_every_seat_and_spectator_of_the_table_and_no_other(web):
    table, ann, bob = table_of_two(web)
    spectator = watch(web, table["id"])
    assert spectator.welcome["chat"] == []
    other = web.create(seats=[HUMAN, HUMAN])
    stranger = web.join(other, 0, "Zoe")
    ann.send({"type": "say", "key": "good-game"})
    heard = [said(c) for c in (ann, bob, spectator)]
    for frames in heard:
        assert len(frames) == 1
        assert set(frames[0]) == {"type", "seat", "key", "at"}
        assert (frames[0]["seat"], frames[0]["key"]) == (0, "good-game")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", frames[0]["at"])
    assert heard[0] == heard[1] == heard[2]
    assert said(stranger) == []
    bob.send({"type": "say", "key": "thanks"})
    assert [(f["seat"], f["key"]) for f in said(ann)] == [(1, "thanks")]


def test_an_unknown_key_or_a_wrong_frame_is_malformed_and_tells_nobody(web):
    table, ann, bob = table_of_two(web)
    for frame in (
        {"type": "say", "key": "you-lose"},
        {"type": "say", "key": "Good game"},
        {"type": "say", "key": 3},
        {"type": "say"},
        {"type": "say", "key": "hello", "text": "hi"},
        {"type": "say", "key": "hello", "seat": 1},
    ):
        ann.send(frame)
        error = ann.expect("error")
        assert error["code"] == "malformed", (frame, error)
        field = "say.text" if "text" in frame else "say.seat" if "seat" in frame else "say.key"
        assert error["message"].startswith(field + ":"), (frame, error)
    ann.send({"type": "shout", "key": "hello"})
    assert "say" in ann.expect("error")["message"]  # the unknown type's message lists the frame types
    assert said(bob) == [] and said(ann) == []


def test_a_spectator_only_listens(web):
    table, ann, bob = table_of_two(web)
    spectator = watch(web, table["id"])
    spectator.send({"type": "say", "key": "hello"})
    error = spectator.expect("error")
    assert (error["code"], error["say"]) == ("spectator", "hello")
    assert said(ann) == [] and said(bob) == [] and said(spectator) == []


def test_the_rate_limit_refuses_with_retry_after_and_tells_nobody(web):
    table, ann, bob = table_of_two(web)  # the defaults: 3 in 10 s, not the same within 5 s
    ann.send({"type": "say", "key": "hello"})
    assert len(said(bob)) == 1
    ann.send({"type": "say", "key": "hello"})
    error = ann.expect("error")
    assert (error["code"], error["say"]) == ("rate", "hello")
    assert 4.0 <= error["retry_after"] <= 5.0 and "same message" in error["message"]
    assert said(bob) == []
    ann.send({"type": "say", "key": "good-luck"})
    ann.send({"type": "say", "key": "have-fun"})
    assert [f["key"] for f in said(bob)] == ["good-luck", "have-fun"]
    ann.send({"type": "say", "key": "oops"})  # a fourth within 10 s
    error = ann.expect("error")
    assert (error["code"], error["say"]) == ("rate", "oops") and 9.0 <= error["retry_after"] <= 10.0
    nothing_more(ann)
    assert said(bob) == []
    assert [f["key"] for f in ann.frames if f["type"] == "said"] == ["hello", "good-luck", "have-fun"]
    # the limit is the seat's: Bob still may; and Ann's second socket shares her window
    bob.send({"type": "say", "key": "oops"})
    assert [f["key"] for f in said(ann)] == ["oops"]
    again = web.join(table, 0)
    again.send({"type": "say", "key": "bye"})
    assert again.expect("error")["code"] == "rate"


def test_the_window_moves_on(web):
    table, ann, bob = table_of_two(web, chat_messages=2, chat_seconds=0.4, chat_repeat_seconds=0.2)
    ann.send({"type": "say", "key": "hello"})
    ann.send({"type": "say", "key": "wow"})
    ann.send({"type": "say", "key": "sad"})
    assert ann.expect("error")["retry_after"] <= 0.4
    time.sleep(0.45)
    ann.send({"type": "say", "key": "hello"})
    assert [f["key"] for f in said(bob)] == ["hello", "wow", "hello"]


def test_the_window_counts_only_what_it_lets_through():
    clock = ChatWindow(Limits(chat_messages=3, chat_seconds=10, chat_repeat_seconds=5))
    assert clock.take(0, "hello", 100.0) is None
    assert clock.take(0, "hello", 104.0)[0] == 1.0  # the same key: 5 s after the last
    assert clock.take(0, "hello", 105.0) is None
    assert clock.take(0, "wow", 105.5) is None
    assert clock.take(0, "sad", 106.0) == (4.0, "at most 3 messages in 10 seconds")
    assert clock.take(1, "sad", 106.0) is None  # another seat's own window
    assert clock.take(0, "sad", 110.0) is None  # the first of the three left the window
    assert clock.take(0, "hello", 110.05)[0] == 5.0  # both limits: the longer wait, to a tenth up
    assert len(clock.sent[0]) == 3 and set(clock.last[0]) == {"hello", "wow", "sad"}


def test_a_joining_socket_gets_the_last_lines_and_a_restart_forgets_them(web):
    table, ann, bob = table_of_two(web, chat_lines=3)
    keys = ["hello", "good-luck", "smile"]
    for key in keys:
        ann.send({"type": "say", "key": key})
    bob.send({"type": "say", "key": "laugh"})
    assert len(said(ann)) == 4
    c = web.connect(table["id"])
    c.send({"type": "join", "seat": 1, "token": table["seats"][1]["url"].split("token=")[1]})
    lines = c.expect("welcome")["chat"]
    assert [(x["seat"], x["key"]) for x in lines] == [(0, "good-luck"), (0, "smile"), (1, "laugh")]
    assert all(set(x) == {"seat", "key", "at"} for x in lines)
    assert [x["key"] for x in watch(web, table["id"]).welcome["chat"]] == ["good-luck", "smile", "laugh"]
    web.start(limits=Limits(frames_per_second=100_000))
    assert watch(web, table["id"]).welcome["chat"] == []


def test_every_message_is_in_both_catalogs_and_the_page_offers_the_same_list():
    for lang in ("en", "fr"):
        words = catalog(lang)
        for key in KEYS:
            assert words.t(f"chat.{key}") != f"chat.{key}", (lang, key)
    text = CHAT_JS.read_text(encoding="utf-8")
    messages = re.search(r"export const MESSAGES = \[([^\]]*)\]", text).group(1)
    emotes = re.search(r"export const EMOTES = \{\n(.*?)\n\};", text, re.S).group(1)
    page = re.findall(r'"([\w-]+)"', messages) + re.findall(r'^  "([\w-]+)":', emotes, re.M)
    assert tuple(page) == KEYS
