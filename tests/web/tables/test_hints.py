"""Hints rationed by decisions (docs/web.md, "Thinking: bots first, hints rationed"): a player who asks once on each
decision of their own is never refused, against bots as fast as they come; asking again on one decision waits the
cooldown, and a seat has at most two hints in the pool at once."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("fastapi")

from millebornes.web.errors import Refused  # noqa: E402
from millebornes.web.settings import Limits, Settings  # noqa: E402
from millebornes.web.tables.hints import HINTS_PER_SEAT, Hints  # noqa: E402

HUMAN, EASY = {"kind": "human"}, {"kind": "bot", "level": "easy"}


def test_a_hint_on_every_decision_of_a_match_against_fast_bots_is_never_refused(web):
    """Easy bots answer at once (no pacing): each of Ann's decisions follows her last hint by much less than the
    2 s cooldown.  Every third decision she plays before her hint comes, and asks again on the next one."""
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, EASY, EASY], seed=11, cf_timeout=1.0)
    ann = web.join(table, 0, "Ann")
    asked = answered = 0
    while not ann.obs["is_over"]:
        legal, seq = ann.obs["legal_actions"], ann.state["seq"]
        if not legal:
            ann.expect("state", timeout=30)
            continue
        if ann.obs["decision"] == "coup-fourre":  # a window that closes by itself: answered at once
            ann.act(legal[0])
            ann.state_after(seq, timeout=30)
            continue
        ann.send({"type": "hint"})
        asked += 1
        if asked % 3 == 0:
            ann.act(legal[0])
        else:
            while (frame := ann.recv(timeout=30))["type"] not in ("hint", "error") or frame.get("seq", seq) != seq:
                pass
            assert frame["type"] == "hint", frame
            answered += 1
            ann.act(frame["actions"][0]["action"])
        ann.state_after(seq, timeout=30)
    errors = [f for f in ann.frames if f["type"] == "error" and f["code"] != "stale"]  # stale: an act late in a window
    assert errors == [] and asked >= 15 and answered >= 10, (errors, asked, answered)


class Pool:
    """A stand-in for the server's Thinker: every hint a future the test answers, at most ``backlog`` at once."""

    def __init__(self, backlog: int = 8):
        self.backlog = backlog
        self.futures: list[asyncio.Future] = []

    def hint(self, fn, *args) -> asyncio.Future:
        from millebornes.web.errors import HintsBusy

        if sum(not f.done() for f in self.futures) >= self.backlog:
            raise HintsBusy("the server is working out as many hints as it takes")
        self.futures.append(asyncio.get_running_loop().create_future())
        return self.futures[-1]


def start(hints: Hints, seat: int, seq: int) -> None:
    """Ask, and drop the frame's coroutine: the test answers the pool's future itself."""
    hints.ask(seat, seq, dict, 0).close()  # type: ignore[attr-defined]


def refusal(hints: Hints, seat: int, seq: int) -> Refused:
    with pytest.raises(Refused) as refused:
        hints.ask(seat, seq, dict, 0)
    return refused.value


def test_one_decision_is_asked_again_only_after_the_cooldown_and_a_seat_holds_two_hints_at_most():
    async def run():
        pool = Pool()
        hints = Hints("t", pool, Settings(limits=Limits(hint_cooldown=1.0), hint_ms=1500))  # type: ignore[arg-type]
        start(hints, 0, 5)
        assert "already being worked out" in refusal(hints, 0, 5).message  # the same decision, still thinking
        start(hints, 0, 7)  # the seat moved on: its next decision's hint starts at once
        assert len(pool.futures) == HINTS_PER_SEAT == 2
        crowded = refusal(hints, 0, 9)  # a third while both still think: a flood of moves cannot pile them up
        assert crowded.code == "rate" and crowded.extra["retry_after"] == 1.5
        start(hints, 1, 9)  # another seat is not held back by this one
        pool.futures[0].set_result([])
        await asyncio.sleep(0)
        start(hints, 0, 9)  # a past decision's hint is done: room again
        pool.futures[-1].set_result([])
        await asyncio.sleep(0)
        again = refusal(hints, 0, 9)  # the same decision again, right after its answer: the cooldown
        assert again.code == "rate" and 0 < again.extra["retry_after"] <= 1.0
        pool.futures[1].set_result([])  # the late answer of a past decision
        await asyncio.sleep(0)
        assert refusal(hints, 0, 9).code == "rate"  # leaves the last decision's cooldown as it was
        start(hints, 0, 10)  # a new decision: at once

    asyncio.run(run())


def test_the_servers_backlog_still_bounds_every_seat_together():
    async def run():
        pool = Pool(backlog=3)
        hints = Hints("t", pool, Settings(limits=Limits(hint_cooldown=0.0)))  # type: ignore[arg-type]
        for seat in range(3):
            start(hints, seat, 1)
        busy = refusal(hints, 3, 1)
        assert busy.code == "busy" and 3 not in hints.working.get(3, set())  # refused, nothing started
        pool.futures[0].set_result([])
        await asyncio.sleep(0)
        start(hints, 3, 1)

    asyncio.run(run())
