"""Hint flood: a `hard` bot's move time at one table, idle and while many sockets ask for hints.

    python bench/hint_flood.py [--moves 40] [--tables 10] [--sockets 6] [--bot-delay 0.5] [--workers 2]
                               [--hint-workers N] [--retry 0.1]

It starts ``millebornes serve`` on a free loopback port with a fresh SQLite file (in test mode, so the
measured table is dealt the same way in both phases) and stops it at the end. One human seat, a client
here choosing with the ``heuristic`` bot, plays a ``hard`` bot; the bot's move time is the time from
sending the human's action to receiving the state frame that carries the bot's answer, less the
server's ``--bot-delay`` (moves after a hand's end or on a coup fourré, which have another delay, are
left out). First idle, then while ``--sockets`` sockets on each of ``--tables`` other tables (all on
the seat whose decision it is) ask for a hint as fast as the server lets them: again as soon as one is
answered, and ``--retry`` seconds after a refusal. Prints the medians, p90 and the ratio flood / idle;
the target of the hardening issue is a median within 2x of idle. These machines are noisy: compare
medians of several runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from served import cpu_of, free_port, http_json, start_server, stop_server  # noqa: E402

from millebornes.bots import make_bot  # noqa: E402

try:
    from websockets.asyncio.client import connect
except ImportError:  # pragma: no cover
    sys.exit("bench/hint_flood.py needs the websockets package: pip install -e '.[web]' --group dev")

HUMAN, BOT = 0, 1
WARM_UP = 2
"""Bot moves left out at the start of each phase (the first one starts the bots' worker processes)."""


def workers_of(pid: int) -> dict[int, int]:
    """The server's child processes and their niceness (19: a hint worker)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found[int(entry.name)] = int(fields[16])
    return found


def table(base: str, seats: list[dict], seed: int) -> tuple[str, str]:
    """A new classic table for two; its id and the token of seat 0, the human."""
    created = http_json(f"{base}/api/tables", {"ruleset": "classic", "players": 2, "seats": seats, "seed": seed})
    url = next(s["url"] for s in created["seats"] if s["seat"] == HUMAN)
    return created["id"], url.split("token=")[1]


async def bot_moves(ws_url: str, token: str, moves: int, bot_delay: float, seed: int) -> list[float]:
    """Play the human seat against the bot until ``moves`` bot moves are timed (seconds each)."""
    human = make_bot("heuristic", seed=seed)
    times: list[float] = []
    sent_at, timing, acted_on = 0.0, False, -1
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "join", "seat": HUMAN, "token": token, "nickname": "timed"}))
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "error":
                raise SystemExit(f"the timed seat was refused: {frame}")
            if frame["type"] != "state":
                continue
            obs, events = frame["observation"], frame["events"]
            mover = events[0]["seat"] if events and events[0]["type"] == "action" else None
            if timing and mover == BOT:
                times.append(time.perf_counter() - sent_at - bot_delay)
                timing = False
                if len(times) >= moves + WARM_UP:
                    return times[WARM_UP:]
            elif mover == HUMAN:
                timing = (
                    obs["to_act"] == BOT
                    and obs["decision"] != "coup-fourre"
                    and not any(e["type"] == "hand-over" for e in events)
                )
            if obs["is_over"]:
                raise SystemExit(f"the match ended after {len(times)} bot moves; ask for fewer --moves")
            if obs["to_act"] == HUMAN and frame["seq"] > acted_on:
                acted_on = frame["seq"]
                action = human.choose(obs, obs["legal_actions"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "seq": frame["seq"]}))
    raise SystemExit("the server closed the timed seat's socket")


async def first_join(ws_url: str, token: str) -> str:
    """Take the seat once: its first join replaces the link's token, and the flooding sockets join with the new one."""
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "join", "seat": HUMAN, "token": token, "nickname": "flood"}))
        while (frame := json.loads(await ws.recv()))["type"] != "welcome":
            if frame["type"] == "error":
                raise SystemExit(f"a flooding seat was refused: {frame}")
        return frame.get("token", token)


async def ask_hints(ws_url: str, token: str, retry: float, tally: Counter) -> None:
    """One socket asking for hints as fast as the server lets it, until cancelled."""
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "join", "seat": HUMAN, "token": token, "nickname": "flood"}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        while True:
            await ws.send(json.dumps({"type": "hint"}))
            while (frame := json.loads(await ws.recv()))["type"] not in ("hint", "error"):
                pass
            if frame["type"] == "hint":
                tally["hint"] += 1
            else:
                tally[frame["code"]] += 1
                await asyncio.sleep(retry)


def summary(times: list[float]) -> tuple[float, float]:
    ms = sorted(t * 1000 for t in times)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.9 * len(ms)))]


async def run(args, base: str, proc: subprocess.Popen) -> None:
    ws_base = base.replace("http", "ws", 1) + "/ws/"
    hard = [{"kind": "human"}, {"kind": "bot", "level": "hard"}]
    table_id, token = await asyncio.to_thread(table, base, hard, args.seed)
    idle = await bot_moves(ws_base + table_id, token, args.moves, args.bot_delay, args.seed)

    tally: Counter = Counter()
    waiting = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
    flooders = []
    for n in range(args.tables):
        flood_id, flood_token = await asyncio.to_thread(table, base, waiting, 1000 + n)
        flood_token = await first_join(ws_base + flood_id, flood_token)
        flooders += [
            asyncio.create_task(ask_hints(ws_base + flood_id, flood_token, args.retry, tally))
            for _ in range(args.sockets)
        ]
    await asyncio.sleep(args.warm_up)
    cpu0 = {pid: cpu_of(pid) for pid in [proc.pid, *workers_of(proc.pid)]}
    tally.clear()
    t0 = time.perf_counter()
    table_id, token = await asyncio.to_thread(table, base, hard, args.seed)
    flood = await bot_moves(ws_base + table_id, token, args.moves, args.bot_delay, args.seed)
    wall = time.perf_counter() - t0
    workers = workers_of(proc.pid)
    cpu = {pid: cpu_of(pid) - cpu0.get(pid, 0.0) for pid in [proc.pid, *workers]}
    for task in flooders:
        task.cancel()
    gone = await asyncio.gather(*flooders, return_exceptions=True)
    failed = [g for g in gone if not isinstance(g, asyncio.CancelledError)]

    (idle_median, idle_p90), (flood_median, flood_p90) = summary(idle), summary(flood)
    hint_cpu = sum(c for pid, c in cpu.items() if workers.get(pid) == 19)
    bot_cpu = sum(c for pid, c in cpu.items() if pid in workers and workers[pid] != 19)
    hint_workers = "" if args.hint_workers is None else f", --hint-workers {args.hint_workers}"
    print(
        f"hard bot, --bot-delay {args.bot_delay} s, --workers {args.workers}{hint_workers}, "
        f"{args.moves} timed bot moves a phase"
    )
    print(f"idle:  median {idle_median:.0f} ms, p90 {idle_p90:.0f} ms")
    print(
        f"flood: median {flood_median:.0f} ms, p90 {flood_p90:.0f} ms "
        f"({args.tables} tables x {args.sockets} sockets asking for hints, retry {args.retry} s after a refusal)"
    )
    print(f"ratio flood/idle: median {flood_median / idle_median:.2f}, p90 {flood_p90 / idle_p90:.2f}")
    print(
        f"during the flood ({wall:.0f} s): hints answered {tally['hint']} ({tally['hint'] / wall:.1f}/s), "
        f"refused " + ", ".join(f"{code} {n}" for code, n in sorted(tally.items()) if code != "hint")
    )
    print(
        f"CPU during the flood: server {cpu.get(proc.pid, 0):.1f} s, bot workers {bot_cpu:.1f} s, "
        f"hint workers (nice 19) {hint_cpu:.1f} s"
    )
    if failed:
        print(f"{len(failed)} flooding sockets failed, the first: {failed[0]!r}")
    print("target (flood median within 2x of idle):", "met" if flood_median <= 2 * idle_median else "NOT met")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40, help="bot moves timed in each phase")
    ap.add_argument("--tables", type=int, default=10, help="tables whose sockets ask for hints")
    ap.add_argument("--sockets", type=int, default=6, help="sockets per flooding table")
    ap.add_argument("--retry", type=float, default=0.1, help="seconds a flooding socket waits after a refusal")
    ap.add_argument("--bot-delay", type=float, default=0.5, help="the server's --bot-delay")
    ap.add_argument("--workers", type=int, default=2, help="the server's --workers")
    ap.add_argument("--hint-workers", type=int, help="the server's --hint-workers (default: its own)")
    ap.add_argument("--warm-up", type=float, default=3.0, help="seconds of flood before the timing starts")
    ap.add_argument("--seed", type=int, default=1, help="the timed table's seed (the same in both phases)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        options = ["--test-mode", "--workers", str(args.workers), "--tables-per-minute", str(args.tables + 10)]
        # every flooding socket is let in: as many on one seat, and from this one address, as the flood opens
        options += [
            "--sockets-per-seat",
            str(args.sockets),
            "--sockets-per-address",
            str(args.tables * args.sockets + 4),
        ]
        if args.hint_workers is not None:
            options += ["--hint-workers", str(args.hint_workers)]
        db = os.path.join(tmp, "flood.db")
        proc = start_server(port, db, args.bot_delay, options)
        failed = True
        try:
            asyncio.run(run(args, f"http://127.0.0.1:{port}", proc))
            failed = False
        finally:
            stop_server(proc, db, failed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
