"""Fixtures of the web tests: the app on a temporary database, WebSocket seats that never hang, and a real
PostgreSQL server (``MILLEBORNES_TEST_POSTGRES_URL`` if set, else a throwaway cluster started with Debian's
binaries; without either its tests skip, unless ``MILLEBORNES_REQUIRE_POSTGRES=1`` (CI) makes them fail).

FastAPI is imported inside the fixtures only, so the engine's tests run without the `web` extra.

The tests play bots of every level, so they run on a ladder where every level is offered (``MILLEBORNES_LADDER``,
also read by the servers they start); tests of the ladder itself (tests/bots/test_ladder.py) point it elsewhere.
"""

from __future__ import annotations

import functools
import glob
import json
import os
import shutil
import socket
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.ladders import every_level_ladder


def pytest_configure(config):
    path = os.path.join(tempfile.mkdtemp(prefix="millebornes-ladder-"), "ladder.json")
    with open(path, "w") as f:
        json.dump(every_level_ladder(), f)
    os.environ["MILLEBORNES_LADDER"] = path


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``MILLEBORNES_NO_SKIP=1``) a skipped test is a failure: CI installs everything every test needs."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("MILLEBORNES_NO_SKIP") == "1" and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, where every dependency is installed: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """The same for a whole module skipped at import (``pytest.importorskip``)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("MILLEBORNES_NO_SKIP") == "1":
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, where every dependency is installed: {reason}"


class Closed(Exception):
    def __init__(self, code: int):
        super().__init__(f"socket closed with {code}")
        self.code = code


@functools.cache
def _sent_shapes() -> dict:
    """Each server frame's type, its fields and a validator, from web/tables/outbound.py."""
    from typing import get_args

    from pydantic import TypeAdapter

    from millebornes.web.tables import outbound

    return {get_args(cls.__annotations__["type"])[0]: (cls, TypeAdapter(cls)) for cls in get_args(outbound.ServerFrame)}


def check_sent(frame: dict) -> None:
    """A frame the server sent is one of web/tables/outbound.py's, field for field: nothing more, nothing missing, each of
    its type (strictly: no string taken for a number)."""
    cls, adapter = _sent_shapes()[frame["type"]]
    assert not set(frame) - set(cls.__annotations__), f"{frame['type']} frame with unknown fields: {frame}"
    assert not cls.__required_keys__ - set(frame), f"{frame['type']} frame with missing fields: {frame}"
    adapter.validate_python(frame, strict=True)


class SeatClient:
    """A test's browser on one seat: keeps every frame it got and the last state, each checked against the
    server's frame types (:func:`check_sent`)."""

    def __init__(self, ws, seat: int | None = None):
        self.ws = ws
        self.seat = seat
        self.frames: list[dict] = []
        self.texts: list[str] = []
        self.state: dict | None = None

    def recv(self, timeout: float = 10.0) -> dict:
        import anyio

        async def get():
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        msg = self.ws.portal.call(get)
        if msg["type"] == "websocket.close":
            raise Closed(msg.get("code", 1000))
        frame = json.loads(msg["text"])
        check_sent(frame)
        self.texts.append(msg["text"])
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    def expect(self, kind: str, timeout: float = 10.0) -> dict:
        """The next frame of this type (frames of other types on the way are kept, not checked)."""
        while True:
            frame = self.recv(timeout)
            if frame["type"] == kind:
                return frame

    def state_after(self, seq: int, timeout: float = 10.0) -> dict:
        while True:
            frame = self.expect("state", timeout)
            if frame["seq"] > seq:
                return frame

    def send(self, frame) -> None:
        if isinstance(frame, bytes):
            self.ws.send_bytes(frame)
        else:
            self.ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))

    def act(self, action: str, seq: int | None = None) -> None:
        self.send({"type": "act", "action": action, "seq": self.state["seq"] if seq is None else seq})

    @property
    def obs(self) -> dict:
        return self.state["observation"]


class Web:
    """Start an app (again) on one database; create tables and seat clients through it."""

    def __init__(self, tmp_path):
        self.url = f"sqlite:///{tmp_path}/mb.db"
        self.stack: ExitStack | None = None
        self.app = self.client = None

    def start(self, url: str | None = None, **settings):
        from fastapi.testclient import TestClient

        from millebornes.web.app import create_app
        from millebornes.web.settings import Limits, Settings

        self.stop()
        self.url = url or self.url
        # every test client signs up from one address: the ratings' same-address guard is on only where a test asks
        limits = settings.pop("limits", Limits(frames_per_second=100_000, rated_same_address_hours=0))
        values = dict(
            database_url=self.url,
            test_mode=True,
            bot_delay=0.0,
            hand_pause=0.0,
            workers=0,
            hint_iterations=200,
            hint_ms=0.0,
            limits=limits,
            sqlite_sync="NORMAL",
        )
        values.update(settings)
        self.app = create_app(Settings(**values))
        self.stack = ExitStack()
        self.client = self.stack.enter_context(TestClient(self.app))
        return self.client

    def stop(self) -> None:
        if self.stack is not None:
            self.stack.close()
        self.stack = self.app = self.client = None

    def create(self, **body) -> dict:
        body.setdefault("ruleset", "classic")
        body.setdefault("players", len(body.get("seats", ())) or 2)
        body.setdefault("seats", [{"kind": "human"}] * body["players"])
        body.setdefault("cf_timeout", 0.05)  # the coup-fourré window after hazards (test mode allows it this short)
        r = self.client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def connect(self, table_id: str) -> SeatClient:
        return SeatClient(self.stack.enter_context(self.client.websocket_connect(f"/ws/{table_id}")))

    def join(self, table: dict, seat: int, nickname: str | None = "Ann") -> SeatClient:
        """Open a socket and take the seat with the token of its invitation link."""
        c = self.connect(table["id"])
        c.seat = seat
        c.send({"type": "join", "seat": seat, "token": token_of(table, seat), "nickname": nickname})
        welcome = c.expect("welcome")
        assert welcome["seat"] == seat
        keep_token(table, seat, welcome)
        c.expect("state")
        return c

    @property
    def hall(self):
        return self.app.state.hall

    @staticmethod
    def play_random(clients: list[SeatClient], rng, stop=None, limit: int = 20_000) -> int:
        """Each client's seat plays random legal actions (bots move by themselves) until the match is
        over or ``stop(state)`` holds; every client reads every state.  Returns the actions seen."""
        by_seat = {c.seat: c for c in clients}
        seen = 0
        while seen < limit:
            seq = max(c.state["seq"] for c in clients)
            for c in clients:
                if c.state["seq"] < seq:
                    c.state_after(c.state["seq"])
            state = clients[0].state
            if state["observation"]["is_over"] or (stop is not None and stop(state)):
                return seen
            # the seat to act, or in a coup-fourré window the seat holding the safety (the one with choices)
            mover = by_seat.get(state["observation"]["to_act"]) or next(
                (c for c in clients if c.obs["legal_actions"]), None
            )
            if mover is not None:
                mover.act(rng.choice(mover.obs["legal_actions"]))
            for c in clients:
                c.state_after(seq)
            seen += 1
        raise AssertionError(f"no end after {limit} actions")


class Hasty:
    """A chooser for ``Web.play_random``: the longest distance, else a green light, else a play, so a dujardin race
    ends in a few dozen actions."""

    def __init__(self, seed: int):
        import random

        self.rng = random.Random(seed)

    def choice(self, actions: list[str]) -> str:
        for best in ("play 200", "play 100", "play 75", "play 50", "play 25", "play roll"):
            if best in actions:
                return best
        return self.rng.choice([a for a in actions if a.startswith("play")] or actions)


def token_of(table: dict, seat: int) -> str:
    """The seat's token in ``table`` (a create answer): its invite's, or the one its first join gave."""
    url = next(s["url"] for s in table["seats"] if s["seat"] == seat)
    return url.split("token=")[1]


def keep_token(table: dict, seat: int, welcome: dict) -> None:
    """A seat's first join replaces its token (docs/web-api.md, "Seat links"): the welcome's new one becomes the
    seat's link in ``table``, as the page keeps it, so a later join (a reconnect) uses it."""
    if "token" in welcome:
        for s in table["seats"]:
            if s["seat"] == seat:
                s["url"] = f"/t/{table['id']}#seat={seat}&token={welcome['token']}"


@pytest.fixture
def web(tmp_path):
    w = Web(tmp_path)
    yield w
    w.stop()


# ---------------------------------------------------------------- a real PostgreSQL server
def _unavailable(reason: str):
    """A PostgreSQL test cannot run here: skipped, or failed where PostgreSQL is required (CI)."""
    if os.environ.get("MILLEBORNES_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required (MILLEBORNES_REQUIRE_POSTGRES=1) but {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_url():
    url = os.environ.get("MILLEBORNES_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    if not found:
        _unavailable(
            "no MILLEBORNES_TEST_POSTGRES_URL and no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql)"
        )
    bindir = os.path.dirname(found[-1])
    as_user: list[str] = []
    home = tempfile.mkdtemp(prefix="millebornes-pg-", dir="/tmp")
    if os.geteuid() == 0:
        import pwd  # POSIX only, as the server binaries are: the suite's other tests run on Windows too

        try:
            pg = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(home, ignore_errors=True)
            _unavailable("running as root and there is no postgres user to run the server")
        os.chown(home, pg.pw_uid, pg.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = os.path.join(home, "data"), _free_port()

    def run(*cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run(as_user + list(cmd), capture_output=True, text=True, timeout=120)

    done = run(f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    if done.returncode:
        shutil.rmtree(home, ignore_errors=True)
        _unavailable(f"initdb failed: {done.stderr.strip()[-500:]}")
    done = run(
        f"{bindir}/pg_ctl",
        "-D",
        data,
        "-l",
        os.path.join(home, "log"),
        "-w",
        "-t",
        "60",
        "-o",
        f"-p {port} -k {home} -c listen_addresses=127.0.0.1",
        "start",
    )
    if done.returncode:
        log = open(os.path.join(home, "log")).read()[-800:] if os.path.exists(os.path.join(home, "log")) else ""
        shutil.rmtree(home, ignore_errors=True)
        _unavailable(f"pg_ctl start failed: {done.stderr.strip()[-300:]} {log}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def fresh_postgres(postgres_url):
    """A factory of empty PostgreSQL databases on the test server (their URLs), dropped at the end."""
    import secrets

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def make() -> str:
        name = f"mb_{secrets.token_hex(6)}"
        with admin.connect() as c:
            c.execute(text(f"CREATE DATABASE {name}"))
        made.append(name)
        return make_url(postgres_url).set(database=name).render_as_string(hide_password=False)

    yield make
    with admin.connect() as c:
        for name in made:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


WINGS = ("engine", "bots", "research", "cli", "tui", "i18n", "web", "browser", "project")
"""The folders of tests/, each mirroring a part of the package; a test carries its top folder's name as a marker
(tests/web/tables/test_undo.py: web), so ``-m "not browser"`` or ``-m "engine or bots"`` picks a wing without naming
files."""


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        try:
            wing = item.path.relative_to(here).parts[0]
        except ValueError:  # a doctest of src/
            continue
        if wing in WINGS:
            item.add_marker(wing)
