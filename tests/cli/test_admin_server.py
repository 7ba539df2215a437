"""`millebornes admin` beside a running `millebornes serve` (another process on the same SQLite file): a bot connected
to the server is closed by `admin revoke-bot` (4401) and by `admin disable` of its owner (4403, and refused again
while disabled), and a live table deleted with `--force` leaves the server at its next sweep."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

httpx = pytest.importorskip("httpx")
ws_sync = pytest.importorskip("websockets.sync.client")

from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.serving import MILLEBORNES, Account, Seat, Server, until  # noqa: E402

pytestmark = pytest.mark.server


def admin(db, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MILLEBORNES), "admin", *args, "--database-url", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DATABASE_URL": ""},
    )


def connected_bot(server: Server, token: str):
    ws = ws_sync.connect(
        f"ws://127.0.0.1:{server.port}/ws/bot",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=10,
        legacy=True,
    )
    assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    ws.send(json.dumps({"type": "hello", "protocol": "millebornes-bot/1", "name": "t"}))
    return ws


def closed(ws, seconds: float = 20) -> tuple[list[dict], int | None]:
    """The messages until the server closes the socket, and its close code."""
    got = []
    try:
        while True:
            got.append(json.loads(ws.recv(timeout=seconds)))
    except ConnectionClosed as gone:
        return got, gone.rcvd.code if gone.rcvd else None


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--sweep-every", "1")
    yield s
    s.stop()


def test_admin_closes_a_bot_connected_to_a_running_server(server, tmp_path):
    db = tmp_path / "mb.db"
    owner = Account(server, "owner_1")
    first, second = owner.bot("first_bot"), owner.bot("second_bot")
    ws = connected_bot(server, first)
    until(lambda: owner.connected("first_bot"), what="the bot's connection")
    done = admin(db, "revoke-bot", "first_bot")
    assert done.returncode == 0 and "revoked the token of first_bot" in done.stdout, done.stderr
    got, code = closed(ws)
    assert code == 4401 and got[-1]["type"] == "error" and "revoked" in got[-1]["message"]

    ws = connected_bot(server, second)
    done = admin(db, "disable", "owner_1")
    assert done.returncode == 0 and "disabled owner_1" in done.stdout and "second_bot" in done.stdout, done.stderr
    got, code = closed(ws)
    assert code == 4403 and "disabled" in got[-1]["message"]
    again = ws_sync.connect(
        f"ws://127.0.0.1:{server.port}/ws/bot", additional_headers={"Authorization": f"Bearer {second}"}, legacy=True
    )
    got, code = closed(again)
    assert code == 4403 and [m["type"] for m in got] == ["error"]

    assert admin(db, "enable", "owner_1").returncode == 0
    connected_bot(server, second).close()


def test_admin_deletes_a_live_table_of_a_running_server(server, tmp_path):
    table = server.create(ruleset="classic", players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    seat = Seat(server, table, 0, "Ann")
    assert server.rooms() == 1
    refused = admin(tmp_path / "mb.db", "delete-table", table["id"])
    assert refused.returncode == 2 and "--force" in refused.stderr
    done = admin(tmp_path / "mb.db", "delete-table", table["id"], "--force")
    assert done.returncode == 0 and f"deleted table {table['id']}" in done.stdout, done.stderr
    until(lambda: server.rooms() == 0, what="the sweep closing the deleted table's room")
    assert httpx.get(f"{server.base}/api/tables/{table['id']}", timeout=10).status_code == 404
    seat.ws.close()
