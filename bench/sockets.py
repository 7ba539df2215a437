"""Socket join storm: /healthz latency while many sockets join one table.

    python bench/sockets.py [--sockets 2000] [--addresses 1] [--at-once 50] [--serve=--sockets-per-seat=10000 ...]

It starts ``millebornes serve`` on a free loopback port with a fresh SQLite file and stops it at the end (or
uses ``--url``). One table of two human seats waits for its second player; ``--sockets`` WebSockets join its
seat 0 with the seat's token, ``--at-once`` at a time, from ``--addresses`` loopback addresses (127.0.0.1,
127.0.0.2, ...), and stay open, reading every frame. Meanwhile a thread asks ``/healthz`` every 50 ms. Prints
how many joins were welcomed and refused (by error code), the frames the sockets received in all (each join used
to send a ``seats`` frame to every socket already there: N joins, about N^2/2 frames), and the median and max of
/healthz. ``--serve`` passes options to the server, e.g. ``--serve=--sockets-per-seat=10000`` to see the cost of
the joins themselves without the caps (docs/web.md, "Limits"). Figures: docs/deploy.md, "Sockets and tables".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from served import free_port, http_json, start_server, stop_server  # noqa: E402

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
except ImportError:  # pragma: no cover
    sys.exit("bench/sockets.py needs the websockets package: pip install -e '.[web]' --group dev")


def poll_health(base: str, stopped, out, every: float = 0.05) -> None:
    """/healthz every ``every`` seconds until ``stopped``; sends (when asked, latency in seconds) pairs and
    the failures.  In a process of its own, so the sockets' client here does not slow its clock."""
    answers, failures = [], 0
    while not stopped.is_set():
        start = time.monotonic()
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=60) as resp:
                resp.read()
            answers.append((start, time.monotonic() - start))
        except OSError:
            failures += 1
        stopped.wait(max(0.0, every - (time.monotonic() - start)))
    out.send((answers, failures))


async def one_socket(
    url: str,
    join: dict,
    address: str,
    gate: asyncio.Semaphore,
    tally: Counter,
    frames: list[int],
    joined: asyncio.Event,
    done: asyncio.Event,
    keep: list,
) -> None:
    """Join, then read every frame until ``done``; the outcome goes into ``tally``."""
    async with gate:
        try:
            ws = await connect(url, max_size=2**22, local_addr=(address, 0), open_timeout=60, ping_interval=None)
        except Exception as exc:
            tally[f"connect failed: {type(exc).__name__}"] += 1
            return
        keep.append(ws)
        try:
            try:
                await ws.send(json.dumps(join))
            except ConnectionClosed:
                pass  # turned away at once (over the address's cap): its error frame is still there to read
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
                frames[0] += 1
                if frame["type"] == "welcome":
                    tally["welcomed"] += 1
                    break
                if frame["type"] == "error":
                    tally[f"refused: {frame['code']}"] += 1
                    return
        except Exception as exc:
            tally[f"closed: {type(exc).__name__}"] += 1
            return
    joined.set()
    try:
        while not done.is_set():
            await ws.recv()
            frames[0] += 1
    except Exception:
        pass


async def storm(base: str, table: dict, args) -> tuple[Counter, int, float]:
    url = base.replace("http", "ws", 1) + f"/ws/{table['id']}"
    token = table["seats"][0]["url"].split("token=")[1]
    join = {"type": "join", "seat": 0, "token": token, "nickname": "Storm"}
    gate = asyncio.Semaphore(args.at_once)
    tally: Counter = Counter()
    frames = [0]
    done = asyncio.Event()
    keep: list = []
    start = time.monotonic()
    tasks = [
        asyncio.create_task(
            one_socket(url, join, f"127.0.0.{1 + n % args.addresses}", gate, tally, frames, asyncio.Event(), done, keep)
        )
        for n in range(args.sockets)
    ]
    while sum(tally.values()) < args.sockets:
        await asyncio.sleep(0.05)
    took = time.monotonic() - start
    await asyncio.sleep(args.settle)  # the frames the last joins sent still arrive
    done.set()
    for ws in keep:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally, frames[0], took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sockets", type=int, default=2000, help="sockets joining seat 0 of the table")
    ap.add_argument("--addresses", type=int, default=1, help="loopback addresses the sockets come from")
    ap.add_argument("--at-once", type=int, default=50, help="joins under way at once")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds to keep reading once every join is answered")
    ap.add_argument("--serve", action="append", default=[], help="an option for `millebornes serve` (repeatable)")
    ap.add_argument("--url", help="a running server instead of one started here")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="mb-sockets-")
    db = os.path.join(tmp, "mb.db")
    proc = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start_server(port, db, 0.0, ["--workers", "0", *args.serve])
    failed = True
    try:
        table = http_json(
            f"{base}/api/tables", {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        )
        stopped, (theirs, ours) = multiprocessing.Event(), multiprocessing.Pipe(False)
        poller = multiprocessing.Process(target=poll_health, args=(base, stopped, ours), daemon=True)
        poller.start()
        time.sleep(1.0)
        begin = time.monotonic()
        tally, frames, took = asyncio.run(storm(base, table, args))
        stopped.set()
        answers, failures = theirs.recv()
        poller.join()
        idle = [t for at, t in answers if at < begin]
        during = [t for at, t in answers if at >= begin]
        print(
            f"{args.sockets} sockets joining seat 0 of one table from {args.addresses} address(es), "
            f"{args.at_once} at once; server options: {' '.join(args.serve) or '(defaults)'}"
        )
        print("joins: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) + f"; all answered in {took:.1f} s")
        print(f"frames the sockets received: {frames}")
        if during:
            print(
                f"/healthz during the storm ({len(during)} answers): median {statistics.median(during) * 1000:.0f} ms, "
                f"max {max(during) * 1000:.0f} ms (idle before: median "
                f"{statistics.median(idle) * 1000 if idle else float('nan'):.0f} ms); failures {failures}"
            )
        failed = False
    finally:
        if proc is not None:
            stop_server(proc, db, failed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
