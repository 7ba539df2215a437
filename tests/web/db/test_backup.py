"""``millebornes backup``: a copy of the SQLite database taken while a real server plays moves into it is
whole (SQLite's integrity check passes, every action up to some point and none after, nothing half written)
and serves again; PostgreSQL, a missing database and an existing target are refused and nothing changes."""

from __future__ import annotations

import sqlite3
import threading
import time

import httpx
import pytest
from typer.testing import CliRunner

from millebornes.cli import app
from millebornes.web.db import schema
from tests.serving import Seat, Server

runner = CliRunner()
HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": "easy"}


def rows(path, table_id: str) -> list[tuple]:
    """A database's actions of one table, in order, read without writing to it."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT n, seat, action FROM actions WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
    finally:
        db.close()


def keep_playing(seat: Seat, stop: threading.Event) -> None:
    """The human's seat plays its first legal action at each new state, against a bot that answers at once."""
    acted = -1
    while not stop.is_set() and not seat.obs["is_over"]:
        if seat.obs["legal_actions"] and seat.state["seq"] > acted:
            acted = seat.state["seq"]
            seat.act(seat.obs["legal_actions"][0])
        try:
            seat.recv(timeout=0.5)
        except TimeoutError:
            pass


@pytest.mark.server
def test_a_backup_taken_while_the_server_plays_is_whole_and_serves_again(tmp_path):
    db = tmp_path / "mb.db"
    server = Server(db, tmp_path / "server.log", 0)
    copies = [tmp_path / f"copy{i}.db" for i in range(4)]
    try:
        table = server.create(ruleset="classic", players=2, seats=[HUMAN, BOT], seed=11)
        seat = Seat(server, table, 0, "Ann")
        stop = threading.Event()
        player = threading.Thread(target=keep_playing, args=(seat, stop))
        player.start()
        try:
            for copy in copies:
                wanted = len(rows(db, table["id"])) + 10
                deadline = time.monotonic() + 60
                while len(rows(db, table["id"])) < wanted:  # the server is writing moves
                    assert player.is_alive() and time.monotonic() < deadline, "the table stopped moving"
                    time.sleep(0.05)
                done = runner.invoke(app, ["backup", str(copy), "--database-url", f"sqlite:///{db}"])
                assert done.exit_code == 0, done.output
                assert f"backed up to {copy}" in done.output and "integrity ok" in done.output
        finally:
            stop.set()
            player.join(30)
        seat.close()
    finally:
        server.stop()
    live = rows(db, table["id"])
    held = []
    for copy in copies:
        with sqlite3.connect(copy) as c:
            assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert c.execute("SELECT count(*) FROM tables WHERE id = ?", (table["id"],)).fetchone() == (1,)
            assert c.execute("SELECT version_num FROM alembic_version").fetchall() == [(schema.head(),)]
        actions = rows(copy, table["id"])
        assert actions == live[: len(actions)]  # every action up to some point, in order, none missing
        held.append(len(actions))
    assert held == sorted(held) and held[0] >= 10 and held[-1] >= held[0] + 30, held

    restored = Server(copies[1], tmp_path / "restored.log", 60, "--no-migrate")  # restore: serve the copy as it is
    try:
        got = httpx.get(f"{restored.base}/api/tables/{table['id']}", timeout=10)
        assert got.status_code == 200 and got.json()["status"] == "playing"
    finally:
        restored.stop()
    assert rows(copies[1], table["id"])[: held[1]] == live[: held[1]]


def test_a_backup_refuses_postgresql_a_missing_database_and_an_existing_target(tmp_path):
    target = tmp_path / "copy.db"
    pg = runner.invoke(app, ["backup", str(target), "--database-url", "postgresql://u@localhost/mb"])
    assert pg.exit_code == 2 and "pg_dump" in pg.output
    missing = runner.invoke(app, ["backup", str(target), "--database-url", f"sqlite:///{tmp_path}/none.db"])
    assert missing.exit_code == 2 and "no database at" in missing.output
    assert not (tmp_path / "none.db").exists()
    memory = runner.invoke(app, ["backup", str(target), "--database-url", "sqlite://"])
    assert memory.exit_code == 2 and "in memory" in memory.output
    assert not target.exists()

    assert runner.invoke(app, ["db", "upgrade", "--database-url", f"sqlite:///{tmp_path}/mb.db"]).exit_code == 0
    target.write_bytes(b"keep me")
    taken = runner.invoke(app, ["backup", str(target)], env={"DATABASE_URL": f"sqlite:///{tmp_path}/mb.db"})
    assert taken.exit_code == 2 and "never overwrites" in taken.output
    assert target.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "mb.db"]  # no partial copy left
    other = tmp_path / "other.db"
    made = runner.invoke(app, ["backup", str(other)], env={"DATABASE_URL": f"sqlite:///{tmp_path}/mb.db"})
    assert made.exit_code == 0 and f"0 tables, 0 actions, schema revision {schema.head()}" in made.output
    stray = runner.invoke(app, ["backup", str(tmp_path / "x.db"), "--database-url", f"sqlite:///{target}"])
    assert stray.exit_code == 2 and "file is not a database" in stray.output
