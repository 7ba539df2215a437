"""The shipped deployment (deploy/): two `millebornes serve` processes on one PostgreSQL behind Debian's Caddy
with deploy/Caddyfile as it is, its placeholders filled from the environment.  A table is made and played through
the proxy over WebSockets, the processes see each player's own address (per-address limits hold per player, not
for the proxy), Caddy adds its headers and keeps the app's, and a stopped process is passed over."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from tests.serving import Seat, Server, free_port, stop  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.server]

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
HUMAN = {"kind": "human"}


class Caddy:
    """Caddy running deploy/Caddyfile on a loopback port, in front of ``upstreams``."""

    def __init__(self, tmp: Path, upstreams: list[int]):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        home = tmp / "caddy"
        home.mkdir()
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_DATA_HOME": str(home),
            "XDG_CONFIG_HOME": str(home),
            "MILLEBORNES_SITE": self.base,
            "MILLEBORNES_CADDY_ADMIN": "off",
            "MILLEBORNES_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in upstreams),
        }
        self.log = open(tmp / "caddy.log", "wb")
        self.proc = subprocess.Popen(
            [CADDY, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, (tmp / "caddy.log").read_text()
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "caddy did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        stop(self.proc)
        self.log.close()


@pytest.fixture
def site(postgres_url, tmp_path):
    servers = [
        Server(postgres_url, tmp_path / f"server{i}.log", 0, "--tables-per-minute", "2", "--log-json") for i in range(2)
    ]
    caddy = Caddy(tmp_path, [s.port for s in servers])
    yield caddy, servers
    caddy.stop()
    for s in servers:
        s.stop()


def create(base: str, address: str = "127.0.0.1") -> httpx.Response:
    """A new table asked from ``address`` (a loopback address of its own: another player)."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10) as client:
        return client.post(
            f"{base}/api/tables", json={"ruleset": "classic", "players": 2, "seats": [HUMAN, HUMAN], "cf_timeout": 0.3}
        )


def access(server: Server, words: str) -> list[str]:
    """The messages of the process's log that hold ``words`` (its log is JSON lines)."""
    lines = [json.loads(line) for line in Path(server.log.name).read_text().splitlines()]
    return [x["message"] for x in lines if words in x["message"]]


def test_two_processes_behind_the_shipped_caddyfile(site):
    caddy, servers = site
    page = httpx.get(f"{caddy.base}/", timeout=10)
    assert page.status_code == 200
    assert page.headers["strict-transport-security"] == "max-age=31536000"  # Caddy's
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]  # the app's, passed on
    assert "server" not in page.headers
    assert httpx.get(f"{caddy.base}/metrics", timeout=10).status_code == 404

    r = create(caddy.base)
    assert r.status_code == 201, r.text
    table = r.json()
    front = SimpleNamespace(port=caddy.port)  # the seats connect to Caddy, which picks a process for each
    seats = [Seat(front, table, 0, "Ann"), Seat(front, table, 1, "Bob")]
    rng = random.Random(5)
    moves = 0
    while moves < 12 and not seats[0].obs["is_over"]:
        mover = next((s for s in seats if s.obs["legal_actions"]), None)
        if mover is None:  # a coup-fourré window nobody here may answer: its end
            for s in seats:
                s.next_state()
            continue
        mover.act(rng.choice(mover.obs["legal_actions"]))
        for s in seats:
            s.next_state()
        moves += 1
    want = max(s.state["seq"] for s in seats)
    for s in seats:
        while s.state["seq"] < want:
            s.expect("state")
    assert moves == 12 and seats[0].obs["tableaux"] == seats[1].obs["tableaux"]
    assert seats[0].state["seq"] == seats[1].state["seq"] >= 12
    joined = [len(access(s, f"WebSocket /ws/{table['id']}")) for s in servers]
    assert sum(joined) == 2, joined
    print(f"sockets per process: {joined}")

    # an account through the proxy: the browser's Origin is Caddy's address, which both processes take for their
    # own (Caddy passes the Host on), and the sign-in, kept in PostgreSQL, opens on whichever process answers
    own = {"Origin": caddy.base, "Sec-Fetch-Site": "same-origin"}
    with httpx.Client(timeout=10) as browser:
        made = browser.post(
            f"{caddy.base}/api/account/signup",
            json={"username": "proxied", "password": "proxied through caddy safely"},
            headers=own,
        )
        assert made.status_code == 201, made.text
        answers = [browser.get(f"{caddy.base}/api/account") for _ in range(6)]
        assert {(a.status_code, a.json()["username"]) for a in answers} == {(200, "proxied")}
        out = browser.post(
            f"{caddy.base}/api/account/signout", json={}, headers=own | {"X-CSRF-Token": made.json()["csrf"]}
        )
        assert out.status_code == 200 and browser.get(f"{caddy.base}/api/account").status_code == 401

    # each process sees the player's address, not Caddy's: 127.0.0.2 runs into its limit, 127.0.0.3 does not
    codes = []
    while 429 not in codes:
        codes.append(create(caddy.base, "127.0.0.2").status_code)
        assert len(codes) <= 5, codes  # two processes, two tables a minute each: the fifth at the latest
    assert create(caddy.base, "127.0.0.3").status_code == 201
    assert all(m.startswith("127.0.0.2:") for s in servers for m in access(s, "POST /api/tables") if "429" in m), [
        access(s, "POST /api/tables") for s in servers
    ]

    for s in seats:
        s.close()
    servers[0].stop()  # a stopped process: Caddy hands its requests to the other one
    for n in range(4, 8):
        assert create(caddy.base, f"127.0.0.{n}").status_code == 201
