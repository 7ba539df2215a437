"""A real `millebornes serve` process, killed with SIGKILL in the middle of two games and started again
on the same SQLite file: each table resumes exactly where it was, a waiting bot included."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
ws_client = pytest.importorskip("websockets.sync.client")

from util import stacked_deck  # noqa: E402

MILLEBORNES = Path(sys.executable).with_name("millebornes")
HUMAN = {"kind": "human"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `millebornes serve` process on loopback."""

    def __init__(self, db: Path, log: Path, bot_delay: float):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "ab")
        self.proc = subprocess.Popen(
            [str(MILLEBORNES), "serve", "--port", str(self.port), "--database-url", f"sqlite:///{db}",
             "--test-mode", "--bot-delay", str(bot_delay), "--hand-pause", "0", "--workers", "1"],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "DATABASE_URL": ""})
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, f"the server stopped; see {log}"
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).json() == {"ok": True}:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"the server did not start; see {log}"
            time.sleep(0.1)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()

    def create(self, **body) -> dict:
        r = httpx.post(f"{self.base}/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()


class Seat:
    """A browser on one seat, through a real WebSocket."""

    def __init__(self, server: Server, table: dict, seat: int, nickname: str | None = None):
        self.seat = seat
        self.ws = ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", open_timeout=10,
                                    legacy=True)
        self.sent: deque[float] = deque()
        token = next(s["url"] for s in table["seats"] if s["seat"] == seat).split("token=")[1]
        self.ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": nickname}))
        self.welcome = self.expect("welcome")
        self.state = self.expect("state")

    def recv(self, timeout: float = 20) -> dict:
        frame = json.loads(self.ws.recv(timeout=timeout))
        assert frame["type"] != "error", frame
        if frame["type"] == "state":
            self.state = frame
        return frame

    def expect(self, kind: str) -> dict:
        while True:
            frame = self.recv()
            if frame["type"] == kind:
                return frame

    def next_state(self) -> dict:
        seq = self.state["seq"]
        while True:
            frame = self.expect("state")
            if frame["seq"] > seq:
                return frame

    def act(self, action: str) -> None:
        """Send an action, keeping under the server's 20 frames a second."""
        if len(self.sent) >= 18:
            time.sleep(max(0.0, self.sent[0] + 1.05 - time.monotonic()))
            self.sent.popleft()
        self.sent.append(time.monotonic())
        self.ws.send(json.dumps({"type": "act", "action": action, "seq": self.state["seq"]}))

    @property
    def obs(self) -> dict:
        return self.state["observation"]

    def close(self) -> None:
        self.ws.close()


def play(seats: list[Seat], rng: random.Random, moves: int) -> list[dict]:
    """Two people play random legal moves; returns every state's events."""
    events = []
    for _ in range(moves):
        to_act = seats[0].obs["to_act"]
        if to_act is None:
            break
        mover = next(s for s in seats if s.seat == to_act)
        mover.act(rng.choice(mover.obs["legal_actions"]))
        for s in seats:
            events += s.next_state()["events"]
    assert seats[0].state["seq"] == seats[1].state["seq"]
    return events


def test_a_killed_server_resumes_every_table(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, bot_delay=60)
    try:
        deck = stacked_deck("classic", 2, hands={0: ["roll"]})
        people = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], seed=41)
        versus = server.create(ruleset="classic", players=2, deck=deck, seed=42,
                               seats=[HUMAN, {"kind": "bot", "level": "hard"}])
        a, b = Seat(server, people, 0, "Ann"), Seat(server, people, 1, "Bob")
        a.expect("state")
        rng = random.Random(7)
        play([a, b], rng, 12)
        before = {s.seat: (s.state["seq"], s.obs) for s in (a, b)}
        c = Seat(server, versus, 0, "Cid")
        c.act("play roll")
        c.next_state()
        assert c.obs["to_act"] == 1 and c.state["seq"] == 1
        versus_before = c.obs
        server.kill()
        for s in (a, b, c):
            s.close()

        server = Server(db, log, bot_delay=0)
        a, b = Seat(server, people, 0), Seat(server, people, 1)
        assert {s.seat: (s.state["seq"], s.obs) for s in (a, b)} == before
        assert a.welcome["table"]["seats"][0]["nickname"] == "Ann"
        hand = a.obs["hand_number"]
        events = []
        while a.obs["hand_number"] == hand:
            events += play([a, b], rng, 1)
        assert [e for e in events if e["type"] == "hand-over"]

        c = Seat(server, versus, 0)
        log_actions = [e for e in c.welcome["log"] if e["type"] == "action"]
        if c.state["seq"] == 1:
            assert c.obs == versus_before
            c.next_state()
            log_actions += [e for e in c.state["events"] if e["type"] == "action"]
        assert c.state["seq"] >= 2 and log_actions[1]["seat"] == 1
        assert httpx.get(f"{server.base}/api/tables/{versus['id']}").json()["status"] == "playing"
        while c.obs["to_act"] != 0:
            c.next_state()
        c.ws.send(json.dumps({"type": "hint"}))  # worked out in the server's worker process
        hint = c.expect("hint")
        assert hint["seq"] == c.state["seq"]
        assert sorted(h["action"] for h in hint["actions"]) == sorted(c.obs["legal_actions"])
    finally:
        server.stop()
