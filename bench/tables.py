"""Abandoned tables: the server's memory after a restart, with many tables someone joined and left.

    python bench/tables.py [--tables 3000] [--at-once 20] [--idle 10] [--serve=--expire-unjoined=60 ...]

It starts ``millebornes serve`` on a free loopback port with a fresh SQLite file (``--workers 0``, allowed to
create as many tables a minute as it is asked to) and measures its resident memory (VmRSS) once started empty.
Then ``--tables`` tables of a person against a ``medium`` bot are created, ``--at-once`` at a time; a socket joins
each one's human seat (so the table is no longer unjoined: ``--expire-unjoined`` never deletes it), waits for its
state and leaves. The server is stopped and, ``--idle`` seconds later (both servers run with ``--evict-idle``
that long, so the tables are as idle as rooms a running server has dropped: after the default 600 s, say), started
again on the same file; its memory and ``/healthz``'s ``rooms`` (tables in memory) are read once it answers, and
again ``--settle`` seconds later. Last, one of the tables is joined again, to show it comes back. ``--serve``
passes more options to both servers. Figures: docs/deploy.md, "Sockets and tables".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from served import free_port, http_json, start_server, stop_server  # noqa: E402

try:
    from websockets.asyncio.client import connect
except ImportError:  # pragma: no cover
    sys.exit("bench/tables.py needs the websockets package: pip install -e '.[web]' --group dev")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def join_and_leave(ws_base: str, table: dict) -> str:
    """Join the table's human seat, wait for its state, leave; the first state's status."""
    token = table["seats"][0]["url"].split("token=")[1]
    async with connect(f"{ws_base}/ws/{table['id']}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "join", "seat": 0, "token": token, "nickname": "Ann"}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["type"] == "error":
                raise RuntimeError(f"join refused: {frame}")
            if frame["type"] == "state":
                return frame["status"]


async def abandon(base: str, n: int, at_once: int) -> list[dict]:
    gate = asyncio.Semaphore(at_once)
    body = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}]}
    ws_base = base.replace("http", "ws", 1)

    async def one() -> dict:
        async with gate:
            table = await asyncio.to_thread(http_json, f"{base}/api/tables", body)
            await join_and_leave(ws_base, table)
            return table

    return await asyncio.gather(*(one() for _ in range(n)))


def serve(db: str, options: list[str]) -> tuple[object, str]:
    port = free_port()
    proc = start_server(port, db, 0.0, ["--workers", "0", "--tables-per-minute", "10000", *options])
    return proc, f"http://127.0.0.1:{port}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=3000, help="tables created, joined and left")
    ap.add_argument("--at-once", type=int, default=20, help="tables being created and joined at once")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds after the restart for the second reading")
    ap.add_argument(
        "--idle",
        type=float,
        default=10.0,
        help="the servers' --evict-idle, and the seconds between the stop and the restart",
    )
    ap.add_argument("--serve", action="append", default=[], help="an option for `millebornes serve` (repeatable)")
    args = ap.parse_args()

    db = os.path.join(tempfile.mkdtemp(prefix="mb-tables-"), "mb.db")
    options = ["--evict-idle", f"{args.idle:g}", *args.serve]
    proc, base = serve(db, options)
    failed = True
    try:
        time.sleep(1.0)
        empty = rss_mib(proc.pid)
        start = time.monotonic()
        tables = asyncio.run(abandon(base, args.tables, args.at_once))
        made = time.monotonic() - start
        full = rss_mib(proc.pid)
        rooms = http_json(f"{base}/healthz")["rooms"]
        failed = False
    finally:
        stop_server(proc, db, failed)
    print(f"{args.tables} tables created, joined and left in {made:.0f} s; server options: {' '.join(options)}")
    print(f"first server: {empty:.0f} MiB started empty, {full:.0f} MiB with them ({rooms} rooms in memory)")

    time.sleep(args.idle)
    start = time.monotonic()
    proc, base = serve(db, options)
    failed = True
    try:
        up = time.monotonic() - start
        first, rooms = rss_mib(proc.pid), http_json(f"{base}/healthz")["rooms"]
        time.sleep(args.settle)
        settled, later = rss_mib(proc.pid), http_json(f"{base}/healthz")["rooms"]
        print(
            f"after the restart: answering in {up:.1f} s, {first:.0f} MiB and {rooms} rooms in memory; "
            f"{args.settle:g} s later {settled:.0f} MiB, {later} rooms"
        )
        status = asyncio.run(join_and_leave(base.replace("http", "ws", 1), tables[0]))
        print(f"one of them joined again: {status}, {http_json(f'{base}/healthz')['rooms']} rooms in memory")
        failed = False
    finally:
        stop_server(proc, db, failed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
