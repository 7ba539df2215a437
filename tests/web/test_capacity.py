"""What bounds the sockets and the tables a server holds (docs/web.md, "Limits"): sockets per seat, per table and
per client address, each refused whole; a ``seats`` frame only when someone really came or went; after a restart
only the tables used lately are in memory, the others load when asked for; a table nobody used for
``--expire-idle`` expires, and its links say so."""

from __future__ import annotations

import json
import random
import sqlite3
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
ws_client = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

from millebornes.web.settings import Limits  # noqa: E402
from tests.conftest import Closed, token_of  # noqa: E402
from tests.serving import Seat, Server, until  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}


def quiet(client) -> None:
    """Nothing came to ``client`` since its last frame: a ping's pong is the very next frame."""
    client.send({"type": "ping"})
    assert client.recv()["type"] == "pong"


def turned_away(client, first: dict) -> tuple[str, int]:
    """Send ``first`` on a fresh in-process socket: the error code it gets and the code it is closed with."""
    client.send(first)
    error = client.recv()
    assert error["type"] == "error", error
    with pytest.raises(Closed) as closed:
        client.recv()
    return error["code"], closed.value.code


def join_frame(table: dict, seat: int, nickname: str = "Eve") -> dict:
    return {"type": "join", "seat": seat, "token": token_of(table, seat), "nickname": nickname}


# ---------------------------------------------------------------- sockets
def test_a_seat_and_a_table_take_so_many_sockets_and_refuse_the_next_changing_nothing(web):
    web.start(limits=Limits(frames_per_second=100_000, sockets_per_seat=2, sockets_per_table=4))
    table = web.create(seats=[HUMAN, HUMAN])
    ann, ann2 = web.join(table, 0, "Ann"), web.join(table, 0)
    assert turned_away(web.connect(table["id"]), join_frame(table, 0)) == ("seat-full", 4429)
    quiet(ann), quiet(ann2)  # nobody heard of the refused socket
    facts = web.client.get(f"/api/tables/{table['id']}").json()
    assert facts["seats"][0]["nickname"] == "Ann" and facts["status"] == "waiting"  # its nickname not taken

    bob = web.join(table, 1, "Bob")  # the table's third socket; it starts the match
    watcher = web.connect(table["id"])
    watcher.send({"type": "watch"})
    watcher.expect("state")  # the fourth: the table is full
    assert turned_away(web.connect(table["id"]), {"type": "watch"}) == ("table-full", 4429)
    assert turned_away(web.connect(table["id"]), join_frame(table, 1)) == ("table-full", 4429)
    room = web.hall.rooms[table["id"]]
    assert sum(map(len, room.conns.values())) + len(room.watchers) == 4

    bob.ws.close()  # seat 1 has no socket now: its first one gets in even when spectators fill the table
    until(lambda: not room.conns[1])
    watcher2 = web.connect(table["id"])
    watcher2.send({"type": "watch"})
    watcher2.expect("state")
    web.join(table, 1, "Bob")
    assert sum(map(len, room.conns.values())) + len(room.watchers) == 5


def test_one_address_opens_so_many_sockets_over_all_tables(web):
    web.start(limits=Limits(frames_per_second=100_000, sockets_per_address=3))
    one, two = web.create(seats=[HUMAN, MEDIUM]), web.create(seats=[HUMAN, HUMAN])
    web.join(one, 0)
    web.join(two, 0)
    third = web.connect(two["id"])  # not joined nor watching yet: it counts all the same
    over = web.connect(one["id"])
    error = over.recv()  # at once, before any frame of its own
    assert (error["type"], error["code"]) == ("error", "too-many")
    with pytest.raises(Closed) as closed:
        over.recv()
    assert closed.value.code == 4429
    assert web.app.state.sockets.per_address["testclient"] == 3
    third.ws.close()
    until(lambda: web.app.state.sockets.per_address.get("testclient") == 2)
    web.join(one, 0)  # room again


def test_a_seats_frame_only_when_someone_really_comes_or_goes(web):
    web.start()
    table = web.create(seats=[HUMAN, HUMAN])
    ann = web.join(table, 0, "Ann")
    bob = web.join(table, 1, "Bob")
    assert ann.expect("seats")["seats"][1]["connected"] is True  # (after the state of the match's start)
    quiet(ann)
    bob2 = web.join(table, 1, None)  # Bob's phone, on the seat he already holds
    quiet(ann)
    bob.ws.close()  # one of his two sockets goes: he is still there
    room = web.hall.rooms[table["id"]]
    until(lambda: len(room.conns[1]) == 1)
    quiet(ann)
    bob3 = web.join(table, 1, "Robert")  # a new nickname is news
    assert ann.expect("seats")["seats"][1]["nickname"] == "Robert"
    quiet(ann)
    bob2.ws.close()
    bob3.ws.close()
    assert ann.expect("seats")["seats"][1]["connected"] is False  # his last socket went


@pytest.mark.server
def test_the_per_address_cap_counts_the_address_uvicorn_reports_behind_a_proxy(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--sockets-per-address", "2")
    url = f"ws://127.0.0.1:{server.port}/ws/nowhere"

    def opened(player: str):
        return ws_client.connect(url, open_timeout=10, additional_headers={"X-Forwarded-For": player}, legacy=True)

    try:
        held = [opened("198.51.100.7"), opened("198.51.100.7")]  # through a proxy on this machine, trusted
        over = opened("198.51.100.7")
        assert json.loads(over.recv(timeout=10))["code"] == "too-many"
        with pytest.raises(ConnectionClosed) as closed:
            over.recv(timeout=10)
        assert closed.value.rcvd.code == 4429
        other = opened("203.0.113.9")  # another player behind the same proxy has sockets of its own
        other.send(json.dumps({"type": "watch"}))
        assert json.loads(other.recv(timeout=10))["code"] == "auth"  # (no such table): past the cap
        for ws in held:
            ws.close()
    finally:
        server.stop()


# ---------------------------------------------------------------- tables
def stored(db) -> dict[str, tuple[str, int]]:
    """Every stored table: its status and its number of actions, read from the file the server writes."""
    with sqlite3.connect(db) as conn:
        return {
            i: (status, conn.execute("SELECT count(*) FROM actions WHERE table_id = ?", (i,)).fetchone()[0])
            for i, status in conn.execute("SELECT id, status FROM tables")
        }


def refused(server: Server, table_id: str, first: dict) -> tuple[str, int]:
    """The error code and the close code a real server answers ``first`` with."""
    with ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps(first))
        error = json.loads(ws.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    return error["code"], closed.value.rcvd.code


def play_a_little(seat: Seat, rng: random.Random, moves: int) -> None:
    """Make ``moves`` of the seat's own decisions, the bot answering between them."""
    for _ in range(moves):
        while seat.obs["to_act"] != 0 or not seat.obs["legal_actions"]:
            seat.next_state()
        seat.act(rng.choice(seat.obs["legal_actions"]))
        seat.next_state()


@pytest.mark.server
def test_after_a_restart_only_asked_for_tables_come_into_memory(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    rng = random.Random(5)
    server = Server(db, log, 0)
    try:
        tables = [server.create(ruleset="classic", players=2, seats=[HUMAN, MEDIUM], seed=n) for n in range(3)]
        for table in tables:
            ann = Seat(server, table, 0, "Ann")
            play_a_little(ann, rng, 2)
            ann.close()
        public = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], public=True)
        Seat(server, public, 0, "Ann").close()
        assert server.rooms() == 4
    finally:
        server.stop()
    time.sleep(1.5)  # longer than the next server's --evict-idle: none of them was in use within it

    server = Server(db, log, 0, "--evict-idle", "1", "--sweep-every", "3600")
    try:
        assert server.rooms() == 0
        lobby = httpx.get(f"{server.base}/api/lobby", timeout=10).json()["tables"]
        assert [t["id"] for t in lobby] == [public["id"]]  # listed from the database
        facts = httpx.get(f"{server.base}/api/tables/{tables[1]['id']}", timeout=10).json()
        assert facts["status"] == "playing" and server.rooms() == 0
        ann = Seat(server, tables[1], 0)
        assert server.rooms() == 1 and ann.welcome["table"]["seats"][0]["nickname"] == "Ann"
        before = ann.state["seq"]
        play_a_little(ann, rng, 2)  # the bot answers: play goes on
        assert ann.state["seq"] > before + 2
    finally:
        server.stop()


@pytest.mark.server
def test_a_table_nobody_uses_expires_and_its_links_say_so(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, 0, "--expire-idle", "2", "--sweep-every", "0.2")
    rng = random.Random(2)
    expired = {"detail": "this table expired: nobody played it for 2 seconds", "code": "expired"}

    def facts(table: dict):
        return httpx.get(f"{server.base}/api/tables/{table['id']}", timeout=10)

    try:
        table = server.create(ruleset="classic", players=2, seats=[HUMAN, MEDIUM], seed=4)
        waiting = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN])
        Seat(server, waiting, 1, "Bob").close()  # someone joined: not an unjoined table
        ann = Seat(server, table, 0, "Ann")
        play_a_little(ann, rng, 1)

        r = until(lambda: (r := facts(waiting)).status_code == 410 and r, what="the expiry of the waiting table")
        assert r.json() == expired
        assert refused(server, waiting["id"], {"type": "watch"}) == ("expired", 4410)
        assert refused(server, waiting["id"], join_frame(waiting, 1, "Bob")) == ("expired", 4410)
        time.sleep(2.5)  # a socket on a table keeps it, however long nobody moves
        assert facts(table).status_code == 200
        play_a_little(ann, rng, 1)
        ann.close()

        r = until(lambda: (r := facts(table)).status_code == 410 and r, what="the expiry")
        assert r.json() == expired
        assert stored(db)[table["id"]] == ("expired", 0)  # the moves are gone
        assert refused(server, table["id"], join_frame(table, 0, "Ann")) == ("expired", 4410)
        assert server.rooms() == 0
        until(lambda: not stored(db), what="the expired rows' deletion")  # as long again, then nothing
        assert facts(table).status_code == 404 and facts(waiting).status_code == 404
    finally:
        server.stop()
