"""A real `millebornes serve` process, killed with SIGKILL in the middle of two games and started again
on the same SQLite file: each table resumes exactly where it was, a waiting bot included."""

from __future__ import annotations

import json
import random

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("websockets.sync.client")

from serving import Seat, Server  # noqa: E402
from util import stacked_deck  # noqa: E402

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
        versus = server.create(ruleset="classic", players=2, deck=deck, seed=42,
                               seats=[HUMAN, {"kind": "bot", "level": "hard"}])
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
