"""Taking back a move against bots (docs/web-api.md, "Taking back a move"): a person alone with bots takes back their
last decision and the bots' answers to it, back to the exact position before it; the match is casual from then on.

Each test plays through the WebSocket (every frame checked against web/tables/outbound.py by conftest.check_sent) and
compares what the seat was shown before its move with what it is shown after the undo.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

import millebornes as mb
from millebornes.web.errors import Refused
from millebornes.web.tables.seatbots import SeatBots
from tests.conftest import SeatClient
from tests.util import stacked_deck

pytest.importorskip("fastapi")

HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": "easy"}
SHORT = {"target": 25, "extension_target": 25, "extension": False, "top_discard_pickup": False}
"""A classic hand raced to 25 miles, no extension, no taking the discard: Ann's second move can end it."""
SHORT_DECK = stacked_deck(
    mb.ruleset("classic", **SHORT), 2, hands={0: ["roll", "25", "25", "25", "25", "25"], 1: ["50"] * 6}, stock=["75"]
)


def mine(c: SeatClient, after: int = -1) -> dict:
    """The first state after ``after`` where the seat decides (its play or draw, no coup-fourré window open)."""
    state = c.state
    while not (
        state["seq"] > after
        and state["cf_deadline"] is None
        and state["observation"]["to_act"] == c.seat
        and state["observation"]["decision"] in ("play", "draw")
    ):
        state = c.expect("state")
    return state


def undo(c: SeatClient, seq: int | None = None) -> tuple[dict, dict]:
    """Take back the seat's last decision: the ``undone`` frame and the state that follows it."""
    c.send({"type": "undo", "seq": c.state["seq"] if seq is None else seq})
    undone = c.expect("undone")
    return undone, c.expect("state")


def refused(c: SeatClient, seq: int | None = None) -> dict:
    c.send({"type": "undo", "seq": c.state["seq"] if seq is None else seq})
    return c.expect("error")


def shown(state: dict) -> tuple:
    """What a state shows its seat of the position: the observation (hand, piles, tableaux, scores, legal
    actions...), the card help and whether a move may be taken back."""
    return state["observation"], state["refused"], state["undo"], state["status"]


def test_a_move_taken_back_restores_the_position_before_it_exactly(web):
    web.start()
    table = web.create(players=3, seats=[HUMAN, BOT, BOT], seed=11)
    ann = web.join(table, 0)
    room = web.hall.rooms[table["id"]]
    before = mine(ann)
    log, actions = list(room.view.log), room.actions
    move = before["observation"]["legal_actions"][0]
    ann.act(move)
    again = mine(ann, before["seq"])  # both bots answered
    assert again["undo"] and room.actions >= actions + 3
    assert again["observation"] != before["observation"]

    undone, back = undo(ann)
    assert back["seq"] > again["seq"]  # a step of its own: nothing decided for a position now gone is taken
    assert shown(back) == shown(before)
    assert back["observation"]["legal_actions"] == before["observation"]["legal_actions"]
    assert back["observation"]["hand"] == before["observation"]["hand"]
    assert (back["observation"]["discard_pile"], back["observation"]["stock_size"]) == (
        before["observation"]["discard_pile"],
        before["observation"]["stock_size"],
    )
    assert back["observation"]["match_scores"] == before["observation"]["match_scores"]
    assert undone["log"] == log and list(room.view.log) == log and room.actions == actions
    assert undone["seat"] == 0 and undone["taken"][0] == {"seat": 0, "action": move}
    assert len(undone["taken"]) >= 3 and {t["seat"] for t in undone["taken"][1:]} <= {1, 2}
    assert web.app.state.tables.action_count(table["id"]) == actions
    assert web.client.get(f"/api/tables/{table['id']}").json()["casual"] is True

    other = web.join(table, 0, nickname=None)  # a second tab of the seat gets the same log and position
    assert other.frames[0]["log"] == log and other.frames[0]["table"]["casual"] is True
    assert shown(other.state) == shown(before)

    ann.act(move)  # the same move again: the bots answer it as they did (their seeds count the actions shown)
    assert mine(ann, back["seq"])["observation"] == again["observation"]


def test_each_undo_goes_one_decision_further_back_within_the_hand(web):
    web.start()
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    first = mine(ann)
    assert not first["undo"]  # nothing of Ann's to take back yet
    seen = [first]
    for _ in range(2):
        ann.act(seen[-1]["observation"]["legal_actions"][0])
        seen.append(mine(ann, seen[-1]["seq"]))
    assert seen[-1]["observation"]["hand_number"] == first["observation"]["hand_number"]
    assert [s["undo"] for s in seen] == [False, True, True]

    undone, back = undo(ann)
    assert shown(back) == shown(seen[1])
    assert undone["taken"][0] == {"seat": 0, "action": seen[1]["observation"]["legal_actions"][0]}
    undone, back = undo(ann)
    assert shown(back) == shown(first) and not back["undo"]
    assert undone["taken"][0] == {"seat": 0, "action": first["observation"]["legal_actions"][0]}
    error = refused(ann)
    assert (error["code"], error["reason"]) == ("not-allowed", "nothing")
    assert shown(ann.state) == shown(first)


def test_a_stale_request_changes_nothing(web):
    web.start()
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    room = web.hall.rooms[table["id"]]
    ann.act(mine(ann)["observation"]["legal_actions"][0])
    now = mine(ann, ann.state["seq"])
    actions, log = room.actions, list(room.view.log)
    for seq in (now["seq"] - 1, now["seq"] + 1):
        assert refused(ann, seq)["code"] == "stale"
    assert (room.actions, list(room.view.log), room.seq) == (actions, log, now["seq"])
    assert web.app.state.tables.action_count(table["id"]) == actions
    assert web.client.get(f"/api/tables/{table['id']}").json()["casual"] is False
    undo(ann)  # on the state shown, it is taken
    assert room.actions < actions


def test_no_move_is_taken_back_with_another_person_at_the_table(web):
    web.start()
    table = web.create(players=3, seats=[HUMAN, HUMAN, BOT], seed=8, grace=0.2)
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    mover = ann if mine_now(ann) else bob
    mover.act(mover.obs["legal_actions"][0])
    mover.expect("state")
    assert not mover.state["undo"]
    error = refused(mover)
    assert (error["code"], error["reason"]) == ("not-allowed", "humans")

    bob.ws.close()  # Bob leaves: a stand-in bot plays for him, but he is a person, not a bot
    while not any(s["standin"] for s in ann.state["seats"]):
        ann.expect("state")
    state = mine(ann, ann.state["seq"]) if not mine_now(ann) else ann.state
    ann.act(state["observation"]["legal_actions"][0])
    ann.expect("state")
    assert not ann.state["undo"]
    error = refused(ann)
    assert (error["code"], error["reason"]) == ("not-allowed", "humans")


def mine_now(c: SeatClient) -> bool:
    o = c.state["observation"]
    return c.state["cf_deadline"] is None and o["to_act"] == c.seat and o["decision"] in ("play", "draw")


def test_no_move_is_taken_back_across_a_deal(web):
    web.start()
    table = web.create(seats=[HUMAN, BOT], options=SHORT, deck=SHORT_DECK, seed=1)
    ann = web.join(table, 0)
    ann.act("play roll")
    ann.act("play 25", mine(ann, ann.state["seq"])["seq"])  # 25 miles: the hand is won and scored
    while ann.obs["hand_number"] == 0:
        ann.expect("state")
    assert len(ann.obs["hand_results"]) == 1
    state = mine(ann, ann.state["seq"] - 1)  # Ann's first decision of the new hand
    assert not state["undo"]
    error = refused(ann)
    assert (error["code"], error["reason"]) == ("not-allowed", "deal")
    assert ann.obs["hand_number"] == 1 and web.hall.rooms[table["id"]].actions == 4


def test_a_bots_move_worked_out_for_a_position_taken_back_is_never_played(web, monkeypatch):
    """Seat 1's bot decides after Ann's move and waits at a gate; Ann takes her move back meanwhile and plays
    it again: the decision made for the first time is refused as stale, not played on the same-looking
    position, and only the bot's new decision is."""
    gate, decided = threading.Event(), []
    real = SeatBots.decide

    async def slow(self, view, seat):
        action = await real(self, view, seat)
        decided.append(action)
        while not gate.is_set():
            await asyncio.sleep(0.01)
        return action

    monkeypatch.setattr(SeatBots, "decide", slow)
    web.start()
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    room = web.hall.rooms[table["id"]]
    start = mine(ann)
    move, actions = start["observation"]["legal_actions"][0], room.actions
    ann.act(move)
    asked = ann.state_after(start["seq"])["seq"]  # the bot's turn: it decides, and waits
    until(lambda: decided)
    undone, back = undo(ann)
    assert shown(back) == shown(start) and undone["taken"] == [{"seat": 0, "action": move}]
    ann.act(move)
    assert ann.state_after(back["seq"])["seq"] > asked
    until(lambda: len(decided) == 2)
    assert decided[0] == decided[1]  # the same position: the same decision, which the room must not take twice
    with pytest.raises(Refused) as stale:
        web.client.portal.call(room.submit, 1, decided[0], asked)
    assert stale.value.code == "stale" and room.actions == actions + 1
    gate.set()
    mine(ann, ann.state["seq"])
    assert room.view.played()[actions : actions + 2] == [(0, move), (1, decided[1])]
    assert web.app.state.tables.action_count(table["id"]) == room.actions


def until(check, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.01)


def test_the_casual_mark_is_kept_by_the_database_across_a_restart(web):
    web.start()
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    ann.act(mine(ann)["observation"]["legal_actions"][0])
    mine(ann, ann.state["seq"])
    _, back = undo(ann)
    web.start()  # the server again, on the same database: the table replayed from what is left
    facts = web.client.get(f"/api/tables/{table['id']}").json()
    assert facts["casual"] is True
    ann = web.join(table, 0, nickname=None)
    assert ann.frames[0]["table"]["casual"] is True
    assert shown(ann.state) == shown(back)
    fresh = web.create(seats=[HUMAN, BOT], seed=5)
    assert web.client.get(f"/api/tables/{fresh['id']}").json()["casual"] is False


def test_a_spectator_cannot_take_back_and_is_shown_the_position_again(web):
    web.start()
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    start = mine(ann)
    watcher = web.connect(table["id"])
    watcher.send({"type": "watch"})
    watcher.expect("welcome")
    seen = watcher.expect("state")
    assert seen["undo"] is False
    ann.act(start["observation"]["legal_actions"][0])
    mine(ann, start["seq"])
    watcher.send({"type": "undo", "seq": ann.state["seq"]})
    assert watcher.expect("error")["code"] == "spectator"
    undone, back = undo(ann)
    heard = watcher.expect("undone")
    assert heard == undone and "hand" not in watcher.expect("state")["observation"]
    assert (
        watcher.state["seq"] == back["seq"]
        and watcher.state["observation"]["tableaux"] == start["observation"]["tableaux"]
    )


@pytest.mark.postgres
def test_a_process_that_missed_the_undo_cannot_write_behind_it(web, fresh_postgres):
    """PostgreSQL writes action n only while action n - 1 is there: a process whose copy still holds the moves
    taken back (it has not heard the notice yet) is stale, and leaves no gap in the rows."""
    from millebornes.web.errors import Stale

    web.start(url=fresh_postgres())
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    ann.act(mine(ann)["observation"]["legal_actions"][0])
    mine(ann, ann.state["seq"])
    room, store = web.hall.rooms[table["id"]], web.app.state.tables
    count, played = room.actions, room.view.played()
    undo(ann)
    assert store.action_count(table["id"]) == room.actions < count
    for result in (None, ([0, 0], [0])):  # a move, and a move that would end the match
        with pytest.raises(Stale):
            store.append_action(table["id"], count, *played[-1], result)
    with pytest.raises(Stale):  # the same undo again, from a copy that did not hear of the first
        store.take_back(table["id"], count, room.actions, 0)
    assert store.action_count(table["id"]) == room.actions
    assert store.get(table["id"], actions=True).actions == played[: room.actions]


@pytest.mark.server
@pytest.mark.postgres
def test_every_process_shows_the_position_taken_back(postgres_url, tmp_path):
    """Ann on two server processes: she takes back her move on one, and her tab on the other is shown the same
    log and position (the ``undo`` notice), and plays from there."""
    from tests.serving import Seat, Server

    servers = [Server(postgres_url, tmp_path / f"server{i}.log", 0) for i in range(2)]
    try:
        a, b = servers
        table = a.create(ruleset="classic", players=2, seats=[HUMAN, BOT], seed=5, clock=0)
        ann = Seat(a, table, 0, "Ann")
        there = Seat(b, table, 0)
        while not (ann.obs["to_act"] == 0 and ann.state["cf_deadline"] is None):
            ann.expect("state")
        before = ann.state
        ann.act(before["observation"]["legal_actions"][0])
        while not (ann.state["seq"] > before["seq"] and ann.obs["to_act"] == 0 and ann.state["cf_deadline"] is None):
            ann.expect("state")
        ann.ws.send(json.dumps({"type": "undo", "seq": ann.state["seq"]}))
        undone, back = ann.expect("undone"), ann.expect("state")
        heard = there.expect("undone")
        assert heard["log"] == undone["log"] and heard["taken"] == undone["taken"]
        assert there.expect("state")["observation"] == back["observation"] == before["observation"]
        there.act(back["observation"]["legal_actions"][-1])  # on the other process: its copy follows the rows
        moved = there.next_state()
        assert moved["events"][0] == {"type": "action", "seat": 0, "action": back["observation"]["legal_actions"][-1]}
        while ann.state["seq"] < moved["seq"]:
            ann.expect("state")
        assert ann.obs == moved["observation"]
    finally:
        for s in servers:
            s.stop()


@pytest.mark.postgres
def test_a_process_that_lost_its_notices_finds_the_moves_taken_back(web, fresh_postgres):
    """Rows taken back while this process heard nothing (as another process would, its notice lost): when the
    notices come back the room sees its rows no longer begin with its copy's, and rebuilds from the database."""
    web.start(url=fresh_postgres())
    table = web.create(seats=[HUMAN, BOT], seed=5)
    ann = web.join(table, 0)
    start = mine(ann)
    ann.act(start["observation"]["legal_actions"][0])
    mine(ann, start["seq"])
    room, store = web.hall.rooms[table["id"]], web.app.state.tables
    keep = room.view.take_back(0)
    store.take_back(table["id"], room.actions, keep, 0)  # this process's own notice: it does not hear it
    assert room.actions > keep
    web.client.portal.call(web.hall.missed)
    undone = ann.expect("undone")
    assert shown(ann.expect("state")) == shown(start) and undone["seat"] == 0 and room.actions == keep


def test_no_move_is_taken_back_while_a_coup_fourre_window_is_open(web, monkeypatch):
    """The bot stops Ann: for the window's seconds nothing is taken back (a window opens only when a person could
    answer); once it closed, Ann's Roll and the Stop are taken back together, and no window opens again."""
    real = SeatBots.decide

    async def stopper(self, view, seat):
        legal = view.game.legal_actions()
        return "play stop 0" if "play stop 0" in legal else await real(self, view, seat)

    monkeypatch.setattr(SeatBots, "decide", stopper)
    web.start()
    deck = stacked_deck("classic", 2, hands={0: ["roll"], 1: ["stop"]}, stock=["25", "25", "25"])
    table = web.create(seats=[HUMAN, BOT], deck=deck, seed=3, cf_timeout=3)
    ann = web.join(table, 0)
    start = mine(ann)
    ann.act("play roll")
    window = ann.expect("state")
    while window["cf_deadline"] is None:
        window = ann.expect("state")
    assert window["observation"]["pending_attack"]["hazard"] == "stop" and not window["undo"]
    error = refused(ann)
    assert (error["code"], error["reason"]) == ("not-allowed", "window")
    after = mine(ann, window["seq"])  # the window closed
    assert after["undo"] and after["observation"]["tableaux"][0]["battle"][-1] == "stop"
    undone, back = undo(ann)
    assert [t["action"] for t in undone["taken"]] == ["play roll", "play stop 0"]
    assert shown(back) == shown(start) and back["cf_deadline"] is None
