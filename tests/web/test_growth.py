"""What keeps a real `millebornes serve` from growing without bound (docs/web.md, "Limits"): the
creation rate per address, the expiry of tables nobody joined, idle rooms leaving memory and coming
back exactly, and joins checked before a table is loaded.  Timers run with values of a second."""

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

import millebornes as mb  # noqa: E402
from millebornes.web.db.base import now  # noqa: E402
from millebornes.web.db.database import Database  # noqa: E402
from millebornes.web.tables.repo import Tables  # noqa: E402
from millebornes.web.tables.rows import FINISHED, SavedSeat, SavedTable  # noqa: E402
from millebornes.web.tokens import hash_token, new_token  # noqa: E402
from tests.serving import Seat, Server, until  # noqa: E402

pytestmark = pytest.mark.server

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}


def stored(db) -> dict[str, int]:
    """Every stored table with its number of seat rows, read from the file the server writes."""
    with sqlite3.connect(db) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM tables")]
        return {i: conn.execute("SELECT count(*) FROM seats WHERE table_id = ?", (i,)).fetchone()[0] for i in ids}


def refused(server: Server, table_id: str, seat, token: str) -> tuple[str, int]:
    """A join the server refuses: its error code and the code it closes the socket with."""
    with ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": "Eve"}))
        error = json.loads(ws.recv(timeout=10))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    return error["code"], closed.value.rcvd.code


def token(table: dict, seat: int) -> str:
    return next(s["url"] for s in table["seats"] if s["seat"] == seat).split("token=")[1]


def test_creating_beyond_the_rate_limit_is_refused_and_stores_nothing(tmp_path):
    db = tmp_path / "mb.db"
    server = Server(db, tmp_path / "server.log", 0, "--tables-per-minute", "3")
    body = {"ruleset": "classic", "players": 2, "seats": [HUMAN, MEDIUM]}
    try:
        made = {server.create(**body)["id"] for _ in range(3)}
        bad = httpx.post(f"{server.base}/api/tables", json={**body, "players": 5}, timeout=10)
        assert bad.status_code == 422  # judged as before, whatever the count
        over = httpx.post(f"{server.base}/api/tables", json=body, timeout=10)
        assert over.status_code == 429, over.text
        assert 1 <= int(over.headers["Retry-After"]) <= 60
        assert over.json()["detail"].startswith("at most 3 new tables a minute from one address")
        assert set(stored(db)) == made and server.rooms() == 3
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10) as other:
            assert other.post(f"{server.base}/api/tables", json=body).status_code == 201  # its own window
        proxied = {"X-Forwarded-For": "198.51.100.7"}  # from a proxy on this machine, trusted by default
        assert httpx.post(f"{server.base}/api/tables", json=body, headers=proxied).status_code == 201
        assert len(stored(db)) == 5
    finally:
        server.stop()


def test_tables_nobody_joined_expire_at_start_and_in_the_sweep(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, 0)
    try:
        lonely = server.create(ruleset="classic", players=2, seats=[HUMAN, MEDIUM])
        met = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN])
        Seat(server, met, 0, "Ann").close()  # seat 1 never comes: met stays waiting, but someone joined
    finally:
        server.stop()
    time.sleep(1.2)

    server = Server(db, log, 0, "--expire-unjoined", "1", "--sweep-every", "3600")
    try:  # only the sweep at start can have deleted lonely
        assert stored(db) == {met["id"]: 2}
        assert httpx.get(f"{server.base}/api/tables/{lonely['id']}").status_code == 404
        assert refused(server, lonely["id"], 0, token(lonely, 0)) == ("auth", 4401)
        assert server.rooms() == 1
    finally:
        server.stop()

    server = Server(db, log, 0, "--expire-unjoined", "1", "--sweep-every", "0.2")
    try:
        fresh = server.create(ruleset="classic", players=3, seats=[HUMAN, HUMAN, MEDIUM])
        assert server.rooms() == 2 and fresh["id"] in stored(db)
        until(lambda: httpx.get(f"{server.base}/api/tables/{fresh['id']}").status_code == 404)
        assert stored(db) == {met["id"]: 2} and server.rooms() == 1
        assert refused(server, fresh["id"], 1, token(fresh, 1)) == ("auth", 4401)
        ann = Seat(server, met, 0)
        assert ann.welcome["table"]["seats"][0]["nickname"] == "Ann" and ann.state["status"] == "waiting"
    finally:
        server.stop()


def steady(state: dict) -> dict:
    """A state frame less what time changes: its events, how long the decision has taken and has left,
    how long a seat has been away."""
    out = {k: v for k, v in state.items() if k not in ("events", "turn", "seats")}
    out["turn"] = state["turn"]["seat"]
    out["seats"] = [{k: v for k, v in s.items() if k != "away"} for s in state["seats"]]
    return out


def test_an_idle_room_leaves_memory_and_resumes_exactly(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--evict-idle", "1", "--sweep-every", "0.2")
    rng = random.Random(3)
    try:
        table = server.create(ruleset="classic", players=3, seats=[HUMAN, MEDIUM, MEDIUM], seed=11)
        ann = Seat(server, table, 0, "Ann")

        def play_until_my_plain_decision() -> None:
            while ann.obs["to_act"] != 0 or ann.obs["decision"] not in ("draw", "play"):
                if ann.obs["to_act"] == 0:
                    ann.act(rng.choice(ann.obs["legal_actions"]))
                ann.next_state()

        for _ in range(6):
            play_until_my_plain_decision()
            ann.act(rng.choice(ann.obs["legal_actions"]))
            ann.next_state()
        play_until_my_plain_decision()
        before = ann.state
        assert before["seq"] >= 12 and server.rooms() == 1
        time.sleep(1.5)
        assert server.rooms() == 1  # a connected socket keeps its room
        ann.close()
        until(lambda: server.rooms() == 0, what="the idle room")

        ann = Seat(server, table, 0)
        assert server.rooms() == 1
        assert steady(ann.state) == steady(before)
        assert ann.state["turn"]["left"] < before["turn"]["left"]  # the same decision's clock, not a new one
        ann.act(rng.choice(ann.obs["legal_actions"]))
        seen = []
        while True:
            seen += [e for e in ann.next_state()["events"] if e["type"] == "action"]
            if ann.obs["to_act"] == 0 or ann.obs["is_over"]:
                break
        assert seen[0]["seat"] == 0 and {e["seat"] for e in seen[1:]} & {1, 2}  # the bots play on
    finally:
        server.stop()


def finished_table(db) -> tuple[str, str]:
    """A finished match stored as the server stores one (a person against a bot); its id and the
    person's token."""
    game, rng, moves = mb.new_game("classic", players=2, seed=3), random.Random(1), []
    while not game.is_over:
        seat, action = game.to_act, rng.choice(game.legal_actions())
        game.act(action)
        moves.append((seat, action))
    secret = new_token()
    store = Tables(Database(f"sqlite:///{db}", "NORMAL"))
    try:
        saved = store.create(
            SavedTable(
                id="done",
                ruleset="classic",
                options={},
                players=2,
                teams=False,
                seed=3,
                deck=None,
                cf_timeout=10,
                status="playing",
                created=now(),
                seats=[
                    SavedSeat(0, "human", nickname="Ann", token_hash=hash_token(secret), joined=True),
                    SavedSeat(1, "bot", level="medium", joined=True),
                ],
            )
        )
        for n, (seat, action) in enumerate(moves):
            result = (list(game.match_scores), game.winners) if n == len(moves) - 1 else None
            store.append_action(saved.id, n, seat, action, result)
        assert store.get(saved.id).status == FINISHED
    finally:
        store.db.close()
    return saved.id, secret


def test_wrong_links_to_a_finished_table_do_not_load_it(tmp_path):
    db = tmp_path / "mb.db"
    table_id, secret = finished_table(db)
    server = Server(db, tmp_path / "server.log", 0)
    try:
        assert server.rooms() == 0  # finished tables are not loaded at start
        for seat, key in ((0, "x" * 32), (0, secret[:-1]), (1, secret), (2, secret), (-1, secret), (10**30, secret)):
            assert refused(server, table_id, seat, key) == ("auth", 4401)
            assert server.rooms() == 0
        ann = Seat(server, {"id": table_id, "seats": [{"seat": 0, "url": f"#token={secret}"}]}, 0)
        assert ann.state["status"] == "finished" and ann.obs["is_over"]
        assert server.rooms() == 1
    finally:
        server.stop()
