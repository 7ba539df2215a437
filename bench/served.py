"""A `millebornes serve` process for a benchmark (bench/web_load.py, bench/hint_flood.py): a free loopback
port, the server started and waited for, JSON over HTTP, and the CPU a process used."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_json(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def start_server(port: int, db: str, bot_delay: float, options: list[str], url: str | None = None) -> subprocess.Popen:
    """`millebornes serve` of this Python's environment on a fresh SQLite file (or the database ``url``), once it
    answers /healthz.  Its log goes to ``db + ".log"`` (a pipe nobody reads would fill up and stall the server)."""
    exe = os.path.join(os.path.dirname(sys.executable), "millebornes")
    cmd = [
        exe,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database-url",
        url or f"sqlite:///{db}",
        "--bot-delay",
        str(bot_delay),
        "--hand-pause",
        "0",
        *options,
    ]
    with open(db + ".log", "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "DATABASE_URL": ""})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if http_json(f"http://127.0.0.1:{port}/healthz").get("ok"):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: {server_log(db)}")


def server_log(db: str, tail: int = 3000) -> str:
    with open(db + ".log", errors="replace") as f:
        return f.read()[-tail:]


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu() -> float:
    """User + system CPU seconds of this machine's PostgreSQL: its live processes, plus what its postmasters
    reaped from backends that have ended (a local database only; 0 without one)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                name, fields = f.read().split("(", 1)[1].rsplit(")", 1)
        except OSError:
            continue
        if name == "postgres":
            fields = fields.split()
            total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return total / tick


def stop_server(proc: subprocess.Popen, db: str, failed: bool) -> None:
    """Stop it; after a failed run, show the end of its log (the server's side of what went wrong)."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    if failed:
        print(f"--- the server's log, last lines:\n{server_log(db)}", file=sys.stderr)
