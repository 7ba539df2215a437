"""Three `millebornes serve` processes started at the same moment on an empty PostgreSQL database, ten times
over (a new database each time): every process comes up healthy and the schema is made once.

Before the schema was upgraded under a lock (web/db/schema.py), each process ran ``CREATE TABLE`` itself and one
of them could die at start of ``DuplicateTable`` (or of a unique violation in PostgreSQL's catalog).
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.serving import Server

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.server]

TRIALS, PROCESSES = 4, 3
START_TIMEOUT = 120
"""Seconds a server has to come up: three start at once on a machine that may be busy with other tests."""


def start_at_once(url: str, logs: list) -> tuple[list[Server], list[str]]:
    """Start a server per log at the same moment; the ones that came up, and why the others did not."""
    servers: list[Server] = []
    failed: list[str] = []

    def one(log) -> None:
        try:
            servers.append(Server(url, log, 0, "--workers", "0", start_timeout=START_TIMEOUT))
        except AssertionError as exc:
            failed.append(f"{exc}: {died_of(log)}")

    threads = [threading.Thread(target=one, args=(log,)) for log in logs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return servers, failed


def died_of(log) -> str:
    """The last exception a server's log names."""
    lines = [line for line in log.read_text(errors="replace").splitlines() if "Error" in line or "Exception" in line]
    return lines[-1].strip() if lines else "(no error in the log)"


def test_three_servers_started_together_on_an_empty_database_all_come_up(fresh_postgres, tmp_path):
    failures: list[str] = []
    began = time.monotonic()
    urls = []
    for trial in range(TRIALS):
        url = fresh_postgres()
        urls.append(url)
        t0 = time.monotonic()
        servers, failed = start_at_once(url, [tmp_path / f"trial{trial}-server{i}.log" for i in range(PROCESSES)])
        t1 = time.monotonic()
        try:
            for s in servers:
                assert httpx.get(f"{s.base}/healthz", timeout=10).json()["ok"] is True
                s.create(ruleset="classic", players=2, seats=[{"kind": "human"}] * 2)
        finally:
            for s in servers:
                s.proc.terminate()
            for s in servers:
                s.stop()
        print(f"trial {trial}: start {t1 - t0:.1f} s, stop {time.monotonic() - t1:.1f} s")
        failures += [f"trial {trial}: {why}" for why in failed]
    elapsed = time.monotonic() - began
    print(f"{TRIALS} trials of {PROCESSES} servers started at once: {len(failures)} failed to start, {elapsed:.1f} s")
    assert not failures, f"{len(failures)} of {TRIALS * PROCESSES} servers did not start:\n" + "\n".join(failures)

    from millebornes.web.db import schema

    for url in urls:
        engine = create_engine(url)
        with engine.connect() as c:
            assert schema.current(c) == schema.head()
            assert c.execute(text("SELECT count(*) FROM tables")).scalar() == PROCESSES
            assert c.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        engine.dispose()
