"""A real `millebornes serve` process: killed with SIGKILL in the middle of two games and started again
on the same SQLite file, each table resumes exactly where it was, a waiting bot included; hints are
rationed (one at a time per seat, a cooldown, a cap on the whole server); and its thinking processes
do not outlive it."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("websockets.sync.client")

from tests.serving import Seat, Server  # noqa: E402
from tests.util import stacked_deck  # noqa: E402

pytestmark = pytest.mark.server

HUMAN = {"kind": "human"}


def play(seats: list[Seat], rng: random.Random, moves: int) -> list[dict]:
    """Two people play random legal moves; returns every state's events."""
    events = []
    for _ in range(moves):
        # the seat to act, or in a coup-fourré window the one holding the safety; else the window's end
        mover = next((s for s in seats if s.obs["legal_actions"]), None)
        if mover is not None:
            mover.act(rng.choice(mover.obs["legal_actions"]))
        elif seats[0].obs["decision"] != "coup-fourre" or seats[0].obs["is_over"]:
            break
        for s in seats:
            events += s.next_state()["events"]
    assert seats[0].state["seq"] == seats[1].state["seq"]
    return events


def test_a_killed_server_resumes_every_table(tmp_path):
    db, log = tmp_path / "mb.db", tmp_path / "server.log"
    server = Server(db, log, bot_delay=60)
    try:
        deck = stacked_deck("classic", 2, hands={0: ["roll"]})
        people = server.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], seed=41)
        versus = server.create(
            ruleset="classic", players=2, deck=deck, seed=42, seats=[HUMAN, {"kind": "bot", "level": "hard"}]
        )
        a, b = Seat(server, people, 0, "Ann"), Seat(server, people, 1, "Bob")
        a.expect("state")
        rng = random.Random(7)
        play([a, b], rng, 12)
        before = {s.seat: (s.state["seq"], s.obs) for s in (a, b)}
        c = Seat(server, versus, 0, "Cid")
        c.act("play roll")
        c.next_state()
        assert c.obs["to_act"] == 1 and c.state["seq"] == 1
        versus_before = c.obs
        server.kill()
        for s in (a, b, c):
            s.close()

        server = Server(db, log, bot_delay=0)
        a, b = Seat(server, people, 0), Seat(server, people, 1)
        assert {s.seat: (s.state["seq"], s.obs) for s in (a, b)} == before
        assert a.welcome["table"]["seats"][0]["nickname"] == "Ann"
        hand = a.obs["hand_number"]
        events = []
        while a.obs["hand_number"] == hand:
            events += play([a, b], rng, 1)
        assert [e for e in events if e["type"] == "hand-over"]

        c = Seat(server, versus, 0)
        log_actions = [e for e in c.welcome["log"] if e["type"] == "action"]
        if c.state["seq"] == 1:
            assert c.obs == versus_before
            c.next_state()
            log_actions += [e for e in c.state["events"] if e["type"] == "action"]
        assert c.state["seq"] >= 2 and log_actions[1]["seat"] == 1
        assert httpx.get(f"{server.base}/api/tables/{versus['id']}").json()["status"] == "playing"
        while c.obs["to_act"] != 0:
            c.next_state()
        c.ws.send(json.dumps({"type": "hint"}))  # worked out in the server's worker process
        hint = c.expect("hint")
        assert hint["seq"] == c.state["seq"]
        assert sorted(h["action"] for h in hint["actions"]) == sorted(c.obs["legal_actions"])
    finally:
        server.stop()


def waiting_for_the_human(server: Server, seed: int) -> dict:
    """A table where seat 0, a human, is to act and the bot waits for it."""
    return server.create(ruleset="classic", players=2, seed=seed, seats=[HUMAN, {"kind": "bot", "level": "medium"}])


def two_at_once(sockets) -> tuple[dict, Seat]:
    """Both sockets ask for a hint at once: one is answered; the other's refusal, and that socket."""
    for s in sockets:
        s.ask_hint()
    answers = [s.answer() for s in sockets]
    assert sorted(f["type"] for f in answers) == ["error", "hint"], answers
    return next((f, s) for s, f in zip(sockets, answers) if f["type"] == "error")


def test_one_hint_at_a_time_per_seat_then_a_cooldown(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 60, "--hint-cooldown", "1.5")
    try:
        table = waiting_for_the_human(server, 3)
        sockets = Seat(server, table, 0, "Ann"), Seat(server, table, 0)
        refused, again = two_at_once(sockets)
        assert refused["code"] == "rate" and "already being worked out" in refused["message"]

        again.ask_hint()
        early = again.answer()
        assert early["code"] == "rate", early
        wait = float(re.search(r"ask again in ([0-9.]+) seconds", early["message"]).group(1))
        assert 0 < wait <= 1.5 and early["retry_after"] == wait  # the page words it from retry_after
        time.sleep(wait)
        again.ask_hint()
        hint = again.answer()
        assert hint["type"] == "hint" and hint["seq"] == 0, hint
        assert [s.state["seq"] for s in sockets] == [0, 0]
    finally:
        server.stop()


def test_hints_beyond_the_servers_backlog_are_refused(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 60, "--hint-backlog", "1", "--hint-cooldown", "0")
    try:
        busy, refused = two_at_once([Seat(server, waiting_for_the_human(server, seed), 0, "Ann") for seed in (4, 5)])
        assert busy["code"] == "busy" and "ask again" in busy["message"]
        refused.ask_hint()
        assert refused.answer()["type"] == "hint"
    finally:
        server.stop()


def proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> dict[int, tuple[str, int]]:
    """The processes whose parent is ``pid``: their start time (told apart from a reused pid) and niceness."""
    found = {}
    for entry in Path("/proc").iterdir():
        fields = proc_stat(int(entry.name)) if entry.name.isdigit() else None
        if fields is not None and int(fields[1]) == pid:
            found[int(entry.name)] = (fields[19], int(fields[16]))
    return found


def running(pid: int, start: str) -> bool:
    fields = proc_stat(pid)
    return fields is not None and fields[19] == start and fields[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_thinking_processes_go_when_the_server_is_killed(tmp_path):
    server = Server(tmp_path / "mb.db", tmp_path / "server.log", 0, "--hint-cooldown", "0")
    try:
        table = server.create(ruleset="classic", players=2, seed=9, seats=[HUMAN, {"kind": "bot", "level": "hard"}])
        c = Seat(server, table, 0, "Cid")
        while not any(e["type"] == "action" and e["seat"] == 1 for e in c.state["events"]):
            if c.obs["to_act"] == 0:
                c.act(c.obs["legal_actions"][0])
            c.next_state()
        while c.obs["to_act"] != 0:
            c.next_state()
        c.ask_hint()
        assert c.answer()["type"] == "hint"
        workers = children(server.proc.pid)
        assert [nice for _, nice in workers.values()].count(19) == 1, workers  # the one hint worker
        assert len(workers) >= 2, workers
        c.ask_hint()  # still being worked out when the server dies
    finally:
        server.kill()
    deadline, left = time.monotonic() + 5, workers
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = {pid: w for pid, w in workers.items() if running(pid, w[0])}
    for pid in left:  # so that a failure leaves no orphan behind
        os.kill(pid, signal.SIGKILL)
    assert not left, f"still running 5 s after the server was killed: {left}"
