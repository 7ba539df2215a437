"""Several server processes on one PostgreSQL: any player on any process.

The database decides the order (the process that writes action n+1 first has it; another gets ``stale``
and adopts it), and PostgreSQL's notices bring every process's copy up to date (web/db/listener.py).
"""

from __future__ import annotations

import json
import random
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

import millebornes as mb
from tests.serving import Seat, Server
from tests.util import stacked_deck

pytestmark = [pytest.mark.postgres, pytest.mark.server]

HUMAN = {"kind": "human"}
# Seat 0: a Roll, 700 miles (with the first card drawn) and Extra Tank; seat 1: Out of Gas and fillers.
CF_DECK = stacked_deck(
    "classic", 2, hands={0: ["roll", "200", "200", "100", "100", "extra-tank"], 1: ["out-of-gas"]}, stock=["100"]
)


@pytest.fixture
def two(postgres_url, tmp_path):
    servers = [Server(postgres_url, tmp_path / f"server{i}.log", 0) for i in range(2)]
    yield servers
    for s in servers:
        s.stop()


def settle(seats: list[Seat]) -> None:
    """Every seat has heard of every step: the same ``seq`` everywhere."""
    want = max(s.state["seq"] for s in seats)
    for s in seats:
        while s.state["seq"] < want:
            s.expect("state")


def saved_game(url: str, table: dict, **game) -> tuple[list, mb.Game]:
    """The table's action rows (numbered 0..n-1: none lost, none written twice) and the classic game they
    replay into, every action in its place."""
    engine = create_engine(url)
    with engine.connect() as c:
        rows = c.execute(
            text("SELECT n, seat, action FROM actions WHERE table_id = :t ORDER BY n"), {"t": table["id"]}
        ).all()
    engine.dispose()
    assert [r.n for r in rows] == list(range(len(rows)))
    g = mb.new_game("classic", **game)
    for r in rows:
        g.act(r.action, r.seat)
    return rows, g


def drain(seats: list[Seat], quiet: float = 0.3) -> None:
    """Read every frame already sent, until the table has been quiet for ``quiet`` seconds."""
    for s in seats:
        while True:
            try:
                s.recv(timeout=quiet)
            except TimeoutError:
                break


def someone_to_move(seats: list[Seat], timeout: float = 20.0) -> Seat:
    """The seat with a decision once the bots and windows are done (and the table quiet a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        drain(seats, quiet=0.2)
        mover = next((s for s in seats if s.obs["legal_actions"]), None)
        if mover is not None:
            return mover
        assert time.monotonic() < deadline, "nobody got a decision"


def step(mover: Seat, action: str, seats: list[Seat]) -> None:
    """One move on the mover's process, heard at every seat (a pass behind a window is heard by its holder only)."""
    mover.act(action)
    mover.expect("state")
    settle(seats)


def test_two_players_on_two_processes_play_a_hand_with_a_coup_fourre(two, postgres_url):
    a, b = two
    table = a.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], deck=CF_DECK, seed=4, cf_timeout=3, clock=0)
    ann, bob = Seat(a, table, 0, "Ann"), Seat(b, table, 1, "Bob")
    while ann.state["status"] != "playing":
        ann.expect("state")
    ann.act("play roll")
    ann.next_state()
    bob.next_state()  # process b hears of process a's move
    bob.act("play out-of-gas 0")
    bob.next_state()
    window = ann.next_state()["observation"]  # and process a of process b's
    assert window["decision"] == "coup-fourre" and window["legal_actions"] == ["coup-fourre", "pass"]
    assert window["pending_attack"] == {"attacker": 1, "hazard": "out-of-gas", "side": 0}
    settle([ann, bob])
    assert bob.obs["legal_actions"] == [] and bob.obs["known_cards"] == [[], []]
    step(ann, "coup-fourre", [ann, bob])
    assert "extra-tank" in bob.obs["tableaux"][0]["safeties"]
    assert bob.obs["tableaux"][0]["coups_fourres"] == ["extra-tank"]
    rng = random.Random(5)
    hand = ann.obs["hand_number"]
    moves = 0
    while ann.obs["hand_number"] == hand and not ann.obs["is_over"] and moves < 400:
        mover = next((s for s in (ann, bob) if s.obs["legal_actions"]), None)
        if mover is None:  # a coup-fourré window nobody here can answer: its end comes by itself
            ann.expect("state")
            settle([ann, bob])
            continue
        step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
        moves += 1
    assert ann.obs["hand_number"] > hand or ann.obs["is_over"], "the hand did not end"
    bob.ws.send(json.dumps({"type": "say", "key": "well-played"}))  # the quick chat crosses processes too
    said = ann.expect("said")
    assert (said["seat"], said["key"]) == (1, "well-played")
    assert ann.state["seq"] == bob.state["seq"]
    assert ann.obs["tableaux"] == bob.obs["tableaux"] and ann.obs["match_scores"] == bob.obs["match_scores"]
    rows_a = httpx.get(f"{a.base}/api/tables/{table['id']}", timeout=10).json()
    rows_b = httpx.get(f"{b.base}/api/tables/{table['id']}", timeout=10).json()
    assert rows_a == rows_b


def test_a_bot_at_a_table_held_by_two_processes_moves_once(two, postgres_url, tmp_path):
    """Both processes run the bot (the same seed gives the same move); the database takes one, the other
    process adopts it: the record replays, and both processes tell the same game."""
    a, b = two
    table = a.create(
        ruleset="classic",
        players=3,
        teams=False,
        seed=8,
        clock=0,
        cf_timeout=0.3,
        seats=[HUMAN, HUMAN, {"kind": "bot", "level": "medium"}],
    )
    ann, bob = Seat(a, table, 0, "Ann"), Seat(b, table, 1, "Bob")
    rng = random.Random(9)
    moves = 0
    while moves < 60 and not ann.obs["is_over"]:
        drain([ann, bob])
        mover = next((s for s in (ann, bob) if s.obs["legal_actions"]), None)
        if mover is None:  # the bot, or a window's end
            continue
        step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
        moves += 1
    drain([ann, bob], quiet=1.5)  # windows closed, the bot done: a person's turn
    rows, g = saved_game(postgres_url, table, players=3, teams=False, seed=8)
    bot_moves = [r for r in rows if r.seat == 2]
    assert len(bot_moves) >= 10
    assert g.observation(0)["tableaux"] == ann.obs["tableaux"] == bob.obs["tableaux"]
    for log in (tmp_path / "server0.log", tmp_path / "server1.log"):
        written = log.read_text()
        assert "Traceback" not in written and "ERROR" not in written, written[-2000:]
        # the process that wrote the last action leads: the other never worked a bot's move out too
        assert "made here" not in written, written[-2000:]


def test_a_killed_process_hands_its_players_over(two, tmp_path):
    """Ann plays through process a, Bob through b. While both are there nobody stands in for anyone (each
    process knows who is at the other); a killed with SIGKILL: once it is silent, Bob's process counts Ann away
    and a stand-in plays her seat; she comes back through b, takes her seat back and plays on."""
    a, b = two
    table = a.create(ruleset="classic", players=2, seats=[HUMAN, HUMAN], seed=12, clock=0, grace=10, cf_timeout=0.3)
    ann, bob = Seat(a, table, 0, "Ann"), Seat(b, table, 1, "Bob")
    rng = random.Random(13)
    moves = 0
    start = time.monotonic()
    while time.monotonic() - start < 11 or moves < 6:  # past the grace period, both at the table
        drain([ann, bob], quiet=0.2)
        mover = next((s for s in (ann, bob) if s.obs["legal_actions"]), None)
        if mover is not None:
            step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
            moves += 1
            time.sleep(0.3)
    drain([ann, bob])
    assert not [e for e in bob.state["events"] if e["type"] == "standin"]
    assert all(not s["standin"] for s in httpx.get(f"{b.base}/api/tables/{table['id']}", timeout=10).json()["seats"])
    a.kill()
    deadline = time.monotonic() + 45
    stood_in = False
    while not stood_in:  # a's silence, then the grace period
        assert time.monotonic() < deadline, "nobody stood in for Ann"
        frame = bob.recv(timeout=45)
        stood_in = frame["type"] == "state" and any(e["type"] == "standin" and e["seat"] == 0 for e in frame["events"])
        if frame["type"] == "state" and bob.obs["legal_actions"]:
            bob.act(rng.choice(bob.obs["legal_actions"]))
    ann = Seat(b, table, 0)  # her page reconnects, to the process that is left
    assert not httpx.get(f"{b.base}/api/tables/{table['id']}", timeout=10).json()["seats"][0]["standin"]
    drain([ann, bob])
    for _ in range(6):
        mover = next((s for s in (ann, bob) if s.obs["legal_actions"]), None)
        if mover is None:
            drain([ann, bob])
            continue
        step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
    assert ann.obs["tableaux"] == bob.obs["tableaux"]


def test_a_bot_table_goes_on_when_its_process_is_killed(two, postgres_url):
    """Ann plays a medium bot through process a, which is killed mid-hand; her page reconnects to b, which
    loads the table from the database, and the bot, the coup-fourré windows and the game go on: no action
    lost or doubled."""
    a, b = two
    table = a.create(
        ruleset="classic",
        players=2,
        seed=21,
        clock=0,
        cf_timeout=0.3,
        seats=[HUMAN, {"kind": "bot", "level": "medium"}],
    )
    ann = Seat(a, table, 0, "Ann")
    rng = random.Random(22)

    def play(seat: Seat, moves: int) -> None:
        """``moves`` decisions of the seat, each waited for (the bot answers in between, however loaded the
        machine): a bot that stopped playing fails here."""
        for _ in range(moves):
            mover = someone_to_move([seat])
            step(mover, rng.choice(mover.obs["legal_actions"]), [seat])

    play(ann, 8)
    before = httpx.get(f"{a.base}/api/tables/{table['id']}", timeout=10).json()
    a.kill()
    ann = Seat(b, table, 0)
    assert ann.obs["tableaux"] and ann.state["status"] == "playing"
    play(ann, 8)
    drain([ann], quiet=1.0)
    rows, g = saved_game(postgres_url, table, players=2, seed=21)
    assert g.observation(0)["tableaux"] == ann.obs["tableaux"]
    assert sum(1 for r in rows if r.seat == 1) >= 8 and before["seats"][0]["nickname"] == "Ann"


def test_the_bots_of_a_silent_leader_are_moved_by_the_other_process(postgres_url, tmp_path):
    """The process that wrote a table's last action leads its next timed step; the other waits ``standby``
    longer.  Process a takes a minute before its bot moves (a leader that writes nothing: slow, or dead),
    so after each of Ann's moves process b moves the bot itself, once; then a is killed and the game goes
    on through b alone."""
    a = Server(postgres_url, tmp_path / "a.log", 60.0)
    b = Server(postgres_url, tmp_path / "b.log", 0.0, "--standby", "0.5")
    try:
        table = a.create(
            ruleset="classic",
            players=3,
            teams=False,
            seed=8,
            clock=0,
            cf_timeout=0.3,
            seats=[HUMAN, HUMAN, {"kind": "bot", "level": "medium"}],
        )
        ann, bob = Seat(a, table, 0, "Ann"), Seat(b, table, 1, "Bob")
        rng = random.Random(10)
        for _ in range(25):
            mover = someone_to_move([ann, bob])  # after b's standby and its bot's move, or a window's end
            step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
        rows, g = saved_game(postgres_url, table, players=3, teams=False, seed=8)
        assert sum(1 for r in rows if r.seat == 2) >= 5
        assert g.observation(0)["tableaux"] == ann.obs["tableaux"] == bob.obs["tableaux"]
        assert "made here" in (tmp_path / "b.log").read_text()
        assert "made here" not in (tmp_path / "a.log").read_text()

        a.kill()
        ann = Seat(b, table, 0)
        for _ in range(10):
            mover = someone_to_move([ann, bob])
            step(mover, rng.choice(mover.obs["legal_actions"]), [ann, bob])
        rows_after, g = saved_game(postgres_url, table, players=3, teams=False, seed=8)
        assert len(rows_after) > len(rows) and g.observation(1)["tableaux"] == bob.obs["tableaux"]
    finally:
        for s in (a, b):
            s.stop()


def test_a_review_is_followed_on_any_process_and_survives_its_own(postgres_url, tmp_path):
    """A review asked of process a is followed through b (a page behind a load balancer polls either), never
    worked out twice; a killed mid-review, its silent claim is taken over through b, which saves the review."""
    a, b = (Server(postgres_url, tmp_path / f"server{i}.log", 0, "--review-worlds", "200") for i in range(2))
    try:
        table = a.create(
            ruleset="dujardin",
            players=2,
            seed=31,
            clock=0,
            public=True,
            seats=[HUMAN, {"kind": "bot", "level": "medium"}],
        )
        ann = Seat(a, table, 0, "Ann")
        rng = random.Random(32)
        while ann.state["status"] != "finished":
            drain([ann], quiet=0.1)
            if ann.obs["legal_actions"]:
                step(ann, rng.choice(ann.obs["legal_actions"]), [ann])
        review = f"/api/tables/{table['id']}/review"
        started = httpx.post(a.base + review, timeout=10)
        assert started.status_code == 202, started.text
        total = started.json()["total"]
        engine = create_engine(postgres_url)

        def owner() -> str:
            with engine.connect() as c:
                return c.execute(text("SELECT owner FROM review_jobs WHERE table_id = :t"), {"t": table["id"]}).scalar()

        held_by_a = owner()
        deadline = time.monotonic() + 60
        while (seen := httpx.get(b.base + review, timeout=10).json())["done"] == 0:
            assert (
                seen == {"state": "running", "done": 0, "total": total, "yours": []} and time.monotonic() < deadline
            ), seen
            time.sleep(0.1)
        assert seen["state"] == "running" and 0 < seen["done"] < total, seen  # a's progress, told by b
        joined = httpx.post(b.base + review, timeout=10)
        assert joined.status_code == 202 and joined.json()["total"] == total and owner() == held_by_a

        a.kill()
        while (seen := httpx.get(b.base + review, timeout=10).json())["state"] == "running":
            assert time.monotonic() < deadline + 30, seen  # a's claim falls silent
            time.sleep(0.2)
        assert seen == {"state": "none", "done": 0, "total": 0, "yours": []}
        assert httpx.post(b.base + review, timeout=10).status_code == 202 and owner() not in (None, held_by_a)
        redo = time.monotonic() + 300  # the whole review again, on a machine other tests load
        while (seen := httpx.get(b.base + review, timeout=10).json())["state"] == "running":
            assert time.monotonic() < redo, seen
            time.sleep(0.2)
        assert seen["state"] == "done" and seen["review"]["budget"] == {"worlds": 200, "seed": 0}
        assert owner() is None
        engine.dispose()
    finally:
        a.stop()
        b.stop()
