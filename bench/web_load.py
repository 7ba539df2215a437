"""Web load: many concurrent tables played by bot-driven WebSocket clients against a real server.

    python bench/web_load.py [--tables 200] [--duration 60] [--think 1.0] [--bot random] [--url URL]
    python bench/web_load.py --processes 2 --database-url postgresql://... [--tables 1000] [--ramp 20]

Without ``--url`` it starts ``millebornes serve`` on a free loopback port with a fresh SQLite file (the default
deployment), allowed to create ``--tables`` tables a minute and open two sockets a table from this one address, and
stops it at the end (a server given with ``--url`` needs as high a ``--tables-per-minute`` and
``--sockets-per-address``). Every table has two human seats, each a WebSocket client that joins by its token and,
when the state frame says it is its decision, waits a think time (uniform in [0.5, 1.5] x ``--think`` seconds, a
fast human), chooses with a built-in bot from its own observation and sends the action. A move's latency is the time
from sending ``act`` to receiving the state frame that includes it. Prints moves/s, p50/p95/p99 latency, errors and
the server's CPU use; the target of the web issue is 200 tables with no error and p95 under 100 ms.

With ``--processes N`` (and a PostgreSQL ``--database-url``) it starts N servers on that database and seats
the two players of every table on two different processes (seat 0 on process i mod N, seat 1 on the next),
so every move crosses processes through PostgreSQL's notices: the target of the scale-out issue is 1,000
tables on two processes with no error and p95 under 100 ms.  The CPU is each server's, the load's own clients'
and (on this machine) PostgreSQL's, over the whole run, table creation included.  ``--ramp`` spreads the
players' arrival over that many seconds, as players come to a real server; without it every client connects
at once.  The play is also shown by tenths (moves/s and p95 of each), so the start's joins and the load
once settled can be told apart.  Figures: docs/deploy.md, "How far two processes go".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from served import cpu_of, free_port, http_json, postgres_cpu, start_server, stop_server  # noqa: E402

from millebornes.bots import make_bot  # noqa: E402

try:
    from websockets.asyncio.client import connect
except ImportError:  # pragma: no cover
    sys.exit("bench/web_load.py needs the websockets package: pip install -e '.[web]' --group dev")


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.at: list[float] = []
        """When each move's state frame came (``time.monotonic``), beside its latency."""
        self.errors: list[str] = []
        self.moves = 0
        self.played = 0.0
        self.hands = 0
        self.start = 0.0


async def seat_client(
    ws_url: str,
    seat: int,
    token: str,
    spec: str,
    think: float,
    stop: float,
    stats: Stats,
    rng: random.Random,
    arrive: float = 0.0,
) -> None:
    bot = make_bot(spec, seed=rng.randrange(1 << 30))
    await asyncio.sleep(arrive)
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": f"load{seat}"}))
        sent_at = None
        sent_seq = None
        while True:
            try:  # the other seat may have stopped already: nothing more comes, and the run ends here too
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop - time.monotonic() + 5))
            except TimeoutError:
                return
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "error":
                stats.errors.append(frame.get("code", "?") + ": " + frame.get("message", ""))
                sent_at = None
                continue
            if kind != "state":
                continue
            seq = frame["seq"]
            if sent_at is not None and seq > sent_seq:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.at.append(time.monotonic())
                stats.moves += 1
                sent_at = None
            stats.hands += sum(1 for e in frame.get("events", []) if e.get("type") == "hand-over") if seat == 0 else 0
            obs = frame["observation"]
            if obs["is_over"] or time.monotonic() >= stop:
                return
            if (
                frame["status"] != "playing" or obs["to_act"] != seat or not obs["legal_actions"] or sent_at is not None
            ):  # a table waiting for its other player takes no move
                continue
            await asyncio.sleep(min(think * rng.uniform(0.5, 1.5), max(0.0, stop - time.monotonic())))
            if time.monotonic() >= stop:
                return
            action = bot.choose(obs, obs["legal_actions"])
            sent_at, sent_seq = time.perf_counter(), seq
            await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))


async def run(
    bases: list[str], tables: int, duration: float, think: float, spec: str, seed: int, ruleset: str, ramp: float = 0.0
) -> Stats:
    rng = random.Random(seed)
    stats = Stats()
    created = []
    for i in range(tables):
        body = {"ruleset": ruleset, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        created.append(await asyncio.to_thread(http_json, f"{bases[i % len(bases)]}/api/tables", body))
    start = stats.start = time.monotonic()
    stop = start + duration
    tasks = []
    for i, table in enumerate(created):
        for s in table["seats"]:
            fragment = dict(p.split("=", 1) for p in s["url"].split("#", 1)[1].split("&"))
            ws_base = bases[(i + s["seat"]) % len(bases)].replace("http", "ws", 1)
            tasks.append(
                seat_client(
                    f"{ws_base}/ws/{table['id']}",
                    s["seat"],
                    fragment["token"],
                    spec,
                    think,
                    stop,
                    stats,
                    random.Random(rng.random()),
                    ramp * i / tables,
                )
            )
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.played = time.monotonic() - start
    stats.errors += [f"client failed: {r!r}" for r in results if isinstance(r, BaseException)]
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def by_tenth(stats: Stats) -> list[tuple[int, float]]:
    """(moves, p95 latency ms) of each tenth of the play: how the load settled once every client joined."""
    tenths: list[list[float]] = [[] for _ in range(10)]
    for at, latency in zip(stats.at, stats.latencies):
        tenths[min(9, int(10 * (at - stats.start) / stats.played))].append(1000 * latency)
    return [(len(t), percentile(t, 0.95)) for t in tenths]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play after every table is created")
    ap.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the tables' players arrive (default 0: every client connects at once)",
    )
    ap.add_argument("--think", type=float, default=1.0, help="mean think time of a client, seconds")
    ap.add_argument("--bot", default="random", help="the bot that chooses for the clients")
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", help="an already running server; default: start one on loopback")
    ap.add_argument("--processes", type=int, default=1, help="servers to start on --database-url")
    ap.add_argument(
        "--database-url",
        help="the servers' database (PostgreSQL for more than one process); default: a fresh SQLite file",
    )
    args = ap.parse_args()
    if args.processes > 1 and not (args.database_url or "").startswith(("postgres://", "postgresql")):
        ap.error("--processes above 1 needs a PostgreSQL --database-url")

    procs = []
    tmp = tempfile.TemporaryDirectory()
    dbs = [os.path.join(tmp.name, f"load{i}.db") for i in range(args.processes)]
    bases = [args.url] if args.url else []
    if not bases:
        for db in dbs:
            port = free_port()
            # every table and every player's socket comes from this one address: over the default limits
            limits = [
                "--tables-per-minute",
                str(max(10, args.tables)),
                "--sockets-per-address",
                str(2 * args.tables + 8),
            ]
            procs.append(start_server(port, db, 0.0, limits, url=args.database_url))
            bases.append(f"http://127.0.0.1:{port}")
    failed = True
    try:
        cpu0 = [cpu_of(p.pid) for p in procs]
        mine0 = cpu_of(os.getpid())
        pg0 = postgres_cpu()
        t0 = time.perf_counter()
        stats = asyncio.run(
            run(bases, args.tables, args.duration, args.think, args.bot, args.seed, args.ruleset, args.ramp)
        )
        wall = time.perf_counter() - t0
        cpus = [cpu_of(p.pid) - c for p, c in zip(procs, cpu0)]
        mine = cpu_of(os.getpid()) - mine0
        pg = postgres_cpu() - pg0
        cpu = sum(cpus) if procs else float("nan")
        failed = bool(stats.errors)
    finally:
        for proc, db in zip(procs, dbs):
            stop_server(proc, db, failed)
        tmp.cleanup()
    lat = [x * 1000 for x in stats.latencies]
    print(
        f"tables {args.tables}, clients {2 * args.tables}, think {args.think} s, bot {args.bot}, "
        f"{args.ruleset}, {len(bases)} server process(es), {wall:.1f} s wall"
    )
    print(
        f"moves {stats.moves}, {stats.moves / stats.played:.1f} moves/s over {stats.played:.1f} s of play "
        f"(the tables made before it), hands finished {stats.hands}"
    )
    if lat:
        print(
            f"move latency ms: p50 {percentile(lat, 0.50):.1f}, p95 {percentile(lat, 0.95):.1f}, "
            f"p99 {percentile(lat, 0.99):.1f}, max {max(lat):.1f}, mean {statistics.fmean(lat):.1f}"
        )
    print(
        f"server CPU {cpu:.1f} s ({cpu / wall:.0%} of one core; each process: {', '.join(f'{c:.1f} s' for c in cpus)})"
        if procs
        else "server CPU: not measured (--url)"
    )
    print(f"this load's own clients: CPU {mine:.1f} s ({mine / wall:.0%} of one core), on the same machine")
    if pg:
        print(f"PostgreSQL on this machine: CPU {pg:.1f} s ({pg / wall:.0%} of one core)")
    if stats.moves:
        per = [("servers", cpu), ("clients", mine)] + ([("PostgreSQL", pg)] if pg else [])
        print("CPU per move: " + ", ".join(f"{name} {1000 * c / stats.moves:.2f} ms" for name, c in per if c == c))
    print(f"errors {len(stats.errors)}")
    for e in stats.errors[:10]:
        print("  ", e)
    if lat:
        print(
            "by tenths of the play: "
            + "; ".join(f"{n / (stats.played / 10):.0f} moves/s p95 {p95:.0f} ms" for n, p95 in by_tenth(stats))
        )
    ok = not stats.errors and lat and percentile(lat, 0.95) < 100
    print("target (no error, p95 < 100 ms):", "met" if ok else "NOT met")
    return 0 if not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
