"""A real `millebornes serve` process on loopback and WebSocket seats on it, for the tests that need
the whole server: its command line, its start-up and shutdown, its sweep and its limits."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest

from tests.conftest import keep_token

httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

MILLEBORNES = Path(sys.executable).with_name("millebornes")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(check, seconds: float = 15.0, what: str = "the server"):
    """Poll ``check`` until it gives something true, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < deadline, f"{what} did not get there in {seconds} s"
        time.sleep(0.05)
    return result


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, as systemd stops a service; SIGKILL after 10 s if it is still there."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class Server:
    """One `millebornes serve` process on loopback."""

    def __init__(
        self,
        db: Path | str,
        log: Path,
        bot_delay: float,
        *options: str,
        port: int | None = None,
        start_timeout: float = 30,
    ):
        """``db``: an SQLite file, or a database URL; ``options``: more `serve` options, e.g. ``"--evict-idle",
        "1"``; ``port``: a given one (a restart behind the same address), else a free one.  A server that does
        not answer /healthz within ``start_timeout`` seconds is killed, not left running."""
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "ab")
        self.proc = subprocess.Popen(
            [
                str(MILLEBORNES),
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                db if isinstance(db, str) else f"sqlite:///{db}",
                "--test-mode",
                "--bot-delay",
                str(bot_delay),
                "--hand-pause",
                "0",
                "--workers",
                "1",
                "--rated-same-address-hours",  # every account here is made from 127.0.0.1: a test asks for the guard
                "0",
                *options,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "DATABASE_URL": ""},
        )
        deadline = time.monotonic() + start_timeout
        try:
            while True:
                assert self.proc.poll() is None, f"the server stopped; see {log}"
                try:
                    if httpx.get(f"{self.base}/healthz", timeout=1).json()["ok"] is True:
                        return
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, f"the server did not start; see {log}"
                time.sleep(0.1)
        except BaseException:
            self.kill()
            raise

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()

    def stop(self) -> None:
        stop(self.proc)
        self.log.close()

    def rooms(self) -> int:
        """How many tables the server holds in memory (its /healthz says)."""
        return httpx.get(f"{self.base}/healthz", timeout=10).json()["rooms"]

    def create(self, **body) -> dict:
        body.setdefault("cf_timeout", 0.3)  # the coup-fourré window after hazards (test mode allows it this short)
        r = httpx.post(f"{self.base}/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        return r.json()


class Seat:
    """A browser on one seat, through a real WebSocket."""

    def __init__(self, server: Server, table: dict, seat: int, nickname: str | None = None):
        self.seat = seat
        self.ws = ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table['id']}", open_timeout=10, legacy=True)
        self.sent: deque[float] = deque()
        token = next(s["url"] for s in table["seats"] if s["seat"] == seat).split("token=")[1]
        self.ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": nickname}))
        self.welcome = self.expect("welcome")
        keep_token(table, seat, self.welcome)
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

    def ask_hint(self) -> None:
        self.ws.send(json.dumps({"type": "hint"}))

    def answer(self, timeout: float = 20) -> dict:
        """The next hint or error frame: refusals are what some tests wait for."""
        while True:
            frame = json.loads(self.ws.recv(timeout=timeout))
            if frame["type"] == "state":
                self.state = frame
            if frame["type"] in ("hint", "error"):
                return frame

    def close(self) -> None:
        self.ws.close()


PASSWORD = "correct horse battery"


def bot_seat(name: str) -> dict:
    """A table's seat for the bot account of that name (docs/web-api.md, "Bots online")."""
    return {"kind": "bot-account", "name": name}


class Account:
    """A person's browser signed in to a real server: it makes bots and asks which are connected."""

    def __init__(self, server: Server, username: str):
        self.http = httpx.Client(base_url=server.base, timeout=10)
        r = self.http.post("/api/account/signup", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = {"X-CSRF-Token": r.json()["csrf"]}

    def bot(self, username: str) -> str:
        """A new bot of this account: its token."""
        r = self.http.post("/api/account/bots", json={"username": username}, headers=self.csrf)
        assert r.status_code == 201, r.text
        return r.json()["token"]

    def connected(self, name: str) -> bool:
        return any(b["name"] == name and b["connected"] for b in self.http.get("/api/account/bots").json()["bots"])
