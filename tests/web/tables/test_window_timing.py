"""The coup-fourré window lasts as long whoever holds what (docs/web-api.md, "The coup-fourré window"): timed from
outside, on real servers.

Many twin tables (tests/web/test_hardening.py ``cf_twins``): on one kind Bob holds Right of Way against Ann's
Stop and lets the window run out (the server saves his pass when it closes), on the other nobody holds it. A
socket stamps each frame as it arrives; from the hazard's frame to the closing one, a classifier that learns its
threshold on every other window (leave one out) must not tell the kinds apart much better than a coin.  Without
the window's slack it does, nearly always: the pass is saved before the closing frame goes out.
"""

from __future__ import annotations

import json
import random
import statistics
import threading
import time

import pytest

from tests.serving import Server, ws_client
from tests.web.test_hardening import cf_twins

HUMAN = {"kind": "human"}
WINDOWS = 30
"""Windows of each kind: 60 in all, so a coin's accuracy is 0.5 give or take 0.065."""
CHANCE_MARGIN = 0.75
"""The most the classifier may reach: about four standard errors above a coin."""


class Timed:
    """A socket on a table (a seat, or watching) whose frames a thread of its own stamps as they arrive."""

    def __init__(self, server: Server, table: dict, seat: int | None = None, nickname: str | None = None):
        self.ws = ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", open_timeout=10, legacy=True)
        self.frames: list[tuple[float, dict]] = []
        self.seen = threading.Condition()
        if seat is None:
            self.ws.send(json.dumps({"type": "watch"}))
        else:
            token = next(s["url"] for s in table["seats"] if s["seat"] == seat).split("token=")[1]
            self.ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": nickname}))
        threading.Thread(target=self._read, daemon=True).start()
        self.at, self.state = self.after(-1)

    def _read(self) -> None:
        try:
            while True:
                text = self.ws.recv()
                at = time.perf_counter()
                with self.seen:
                    self.frames.append((at, json.loads(text)))
                    self.seen.notify_all()
        except Exception:  # closed
            pass

    def after(self, seq: int, timeout: float = 20.0) -> tuple[float, dict]:
        """The first state frame after ``seq`` (and after the last one read), with when it came."""
        with self.seen:
            while True:
                for i, (at, frame) in enumerate(self.frames):
                    assert frame["type"] != "error", frame
                    if frame["type"] == "state" and frame["seq"] > seq:
                        del self.frames[: i + 1]
                        self.at, self.state = at, frame
                        return at, frame
                assert self.seen.wait(timeout), f"no state after {seq}"

    def act(self, action: str) -> None:
        self.ws.send(json.dumps({"type": "act", "action": action, "seq": self.state["seq"]}))

    @property
    def obs(self) -> dict:
        return self.state["observation"]


def window_length(ann_at: Server, bob_at: Server, deck: list[str], watch_at: Server | None = None) -> list[float]:
    """One table to its Stop: the seconds from the hazard's frame to the closing one, on Ann's socket (and a
    spectator's on ``watch_at``)."""
    table = ann_at.create(
        ruleset="classic", players=2, seats=[HUMAN, HUMAN], deck=deck, seed=8, cf_timeout=0.05, clock=0
    )
    ann, bob = Timed(ann_at, table, 0, "Ann"), Timed(bob_at, table, 1, "Bob")
    while ann.state["status"] != "playing":
        ann.after(ann.state["seq"] - 1)
    sockets = [ann, bob] + ([Timed(watch_at, table)] if watch_at is not None else [])
    timed = [ann] + sockets[2:]
    seq = max(s.state["seq"] for s in sockets)
    for s in sockets:
        while s.state["seq"] < seq:
            s.after(s.state["seq"])
    for actor, action in ((ann, "play roll"), (bob, "play roll"), (ann, "play stop 1")):
        for step in ("draw", action):
            if step == "draw" and actor.obs["decision"] != "draw":
                continue
            seq = actor.state["seq"]
            actor.act(step)
            for s in sockets:
                s.after(seq)
    assert ann.state["cf_deadline"] is not None and ann.obs["decision"] == "coup-fourre"
    hazard = [s.at for s in timed]
    lengths = [s.after(s.state["seq"])[0] - at for s, at in zip(timed, hazard)]
    assert ann.state["cf_deadline"] is None and ann.obs["to_act"] == 1
    for s in sockets:
        s.ws.close()
    return lengths


def leave_one_out(xs: list[float], ys: list[bool]) -> float:
    """The accuracy of a threshold (and its side) chosen on all the other windows, for each window in turn."""

    def rule(pairs):
        cuts = sorted(x for x, _ in pairs)
        best = (-1, 0.0, True)
        for a, b in zip(cuts, cuts[1:]):
            cut = (a + b) / 2
            for above in (True, False):
                right = sum(((x > cut) == above) == y for x, y in pairs)
                best = max(best, (right, cut, above), key=lambda r: r[0])
        return best[1:]

    right = 0
    for i, (x, y) in enumerate(zip(xs, ys)):
        cut, above = rule([p for j, p in enumerate(zip(xs, ys)) if j != i])
        right += ((x > cut) == above) == y
    return right / len(xs)


def classify(measure) -> list[float]:
    """Every window of both kinds in a shuffled order; the classifier's accuracy on each socket measured."""
    holds, lacks = cf_twins()
    kinds = [True] * WINDOWS + [False] * WINDOWS
    random.Random(35).shuffle(kinds)
    lengths = [measure(holds if k else lacks) for k in kinds]
    out = []
    for n in range(len(lengths[0])):
        xs = [length[n] for length in lengths]
        accuracy = leave_one_out(xs, kinds)
        held = [x for x, k in zip(xs, kinds) if k]
        free = [x for x, k in zip(xs, kinds) if not k]
        print(
            f"socket {n}: median {1000 * statistics.median(held):.2f} ms when held and passed, "
            f"{1000 * statistics.median(free):.2f} ms when nobody holds it; leave-one-out accuracy {accuracy:.2f}"
        )
        out.append(accuracy)
    return out


@pytest.mark.server
def test_the_window_closes_at_the_same_moment_on_sqlite(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--tables-per-minute", "10000")
    try:
        accuracy = classify(lambda deck: window_length(server, server, deck))
    finally:
        server.stop()
    assert accuracy[0] <= CHANCE_MARGIN, accuracy


@pytest.mark.server
@pytest.mark.postgres
def test_the_window_closes_at_the_same_moment_on_two_processes(postgres_url, tmp_path):
    """Ann on process a, which saves the pass; Bob and a spectator on process b, which learns of it by a notice."""
    a, b = (Server(postgres_url, tmp_path / f"server{i}.log", 0, "--tables-per-minute", "10000") for i in range(2))
    try:
        accuracy = classify(lambda deck: window_length(a, b, deck, watch_at=b))
    finally:
        a.stop()
        b.stop()
    assert max(accuracy) <= CHANCE_MARGIN, accuracy


def test_the_slack_is_bounded():
    from millebornes.web.settings import WINDOW_SLACK_MAX, Settings

    assert Settings().window_slack == 0.05 and Settings(window_slack=0).window_slack == 0
    for bad in (-0.01, WINDOW_SLACK_MAX + 1):
        with pytest.raises(ValueError, match="window_slack: seconds, from 0 to 5"):
            Settings(window_slack=bad)
