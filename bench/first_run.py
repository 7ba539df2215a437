"""First run: how long a newcomer waits, from a fresh clone, until `make run` serves the home page.

    python3 bench/first_run.py [--ref HEAD] [--repeats 1] [--keep-cache]

Clones this repository at REF into a temporary folder, runs ``make run`` there with an empty pip
cache (a new user's machine; ``--keep-cache`` reuses one cache across repeats instead) and polls
http://127.0.0.1:8000/ until the home page answers.  Prints, per run, the seconds to the first
page and the size of the virtual environment it built, then the median.  Port 8000 must be free.
Needs only Python, git, make and the package registries.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URL = "http://127.0.0.1:8000/"


def port_free() -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", 8000)) != 0


def home_served() -> bool:
    try:
        with urllib.request.urlopen(URL, timeout=2) as resp:
            return resp.status == 200 and b"<html" in resp.read(4096).lower()
    except OSError:
        return False


def size_mb(path: str) -> float:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                total += os.path.getsize(full)
    return total / 2**20


def one_run(ref: str, cache: str, timeout: float) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="mb-first-run-") as tmp:
        clone = os.path.join(tmp, "millebornes")
        subprocess.run(["git", "clone", "-q", REPO, clone], check=True)
        subprocess.run(["git", "-C", clone, "checkout", "-q", ref], check=True)
        env = dict(os.environ, PIP_CACHE_DIR=cache, PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("VIRTUAL_ENV", None)
        log = open(os.path.join(tmp, "make.log"), "w")
        start = time.monotonic()
        proc = subprocess.Popen(
            ["make", "run"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            while not home_served():
                if proc.poll() is not None:
                    log.close()
                    sys.exit(f"make run stopped (rc {proc.returncode}):\n" + open(log.name).read()[-3000:])
                if time.monotonic() - start > timeout:
                    sys.exit(f"no home page after {timeout:g} s")
                time.sleep(0.25)
            seconds = time.monotonic() - start
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            log.close()
        return seconds, size_mb(os.path.join(clone, ".venv"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="commit to clone (default: HEAD)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--keep-cache", action="store_true", help="one pip cache for all repeats")
    parser.add_argument("--timeout", type=float, default=1200)
    args = parser.parse_args()
    if not port_free():
        sys.exit("port 8000 is taken: stop what listens there first")
    ref = subprocess.run(
        ["git", "-C", REPO, "rev-parse", "--short", args.ref], check=True, capture_output=True, text=True
    ).stdout.strip()
    shared = tempfile.mkdtemp(prefix="mb-pip-cache-")
    times, sizes = [], []
    try:
        for i in range(args.repeats):
            cache = shared if args.keep_cache else tempfile.mkdtemp(prefix="mb-pip-cache-")
            seconds, mb = one_run(ref, cache, args.timeout)
            if cache != shared:
                shutil.rmtree(cache, ignore_errors=True)
            times.append(seconds)
            sizes.append(mb)
            print(f"{ref} run {i + 1}: home page after {seconds:.1f} s, .venv {mb:.0f} MB", flush=True)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    print(
        f"{ref}: median {statistics.median(times):.1f} s to the home page over {len(times)} run(s), "
        f".venv {statistics.median(sizes):.0f} MB ({'warm' if args.keep_cache else 'empty'} pip cache)"
    )


if __name__ == "__main__":
    main()
