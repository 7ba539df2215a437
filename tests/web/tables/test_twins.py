"""Whatever thinks for a seat sees what that seat's frames showed, no more (docs/web-api.md, "What hints and
stand-ins see"): twin tables that differ only in whether Bob holds Right of Way, the answer to the Stop Ann
plays, which Bob lets run out.  The engine asked Bob, so its own observation still knows his safety; Ann's hint,
the bot standing in for Ann and the review of Ann's moves must come out the same on both twins."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("fastapi")

from millebornes import review as R  # noqa: E402
from millebornes.web.tables import seatbots as seatbots_module  # noqa: E402
from tests.util import stacked_deck  # noqa: E402
from tests.web.test_hardening import cf_twins  # noqa: E402

HUMAN = {"kind": "human"}


def act(actor, seats, action: str) -> None:
    seq = actor.state["seq"]
    actor.act(action)
    for s in seats:
        s.state_after(seq)


def draw(actor, seats) -> None:
    """Draw if the seat must (an edition may draw for it)."""
    if actor.obs["decision"] == "draw":
        act(actor, seats, "draw")


def play(actor, seats, action: str) -> None:
    """Draw if the seat must, then ``action``; every seat reads each step."""
    draw(actor, seats)
    act(actor, seats, action)


def past_the_window(web, deck, **table) -> tuple:
    """Ann's Stop on Bob, the window Bob lets run out (he holds the safety on one twin), Bob's discard, and
    Ann to move: the table, Ann's socket and Bob's."""
    t = web.create(seats=[HUMAN, HUMAN], deck=deck, seed=8, clock=0, **table)
    ann, bob = web.join(t, 0, "Ann"), web.join(t, 1, "Bob")
    while ann.state["status"] != "playing":  # the table starts when Bob joins
        ann.expect("state")
    for actor, action in ((ann, "play roll"), (bob, "play roll"), (ann, "play stop 1")):
        play(actor, [ann, bob], action)
    window = bob.obs
    assert window["decision"] == "coup-fourre" and window["to_act"] is None
    holds = window["legal_actions"] == ["coup-fourre", "pass"]
    for s in (ann, bob):  # nobody answers: the window runs out
        s.state_after(s.state["seq"])
    assert ann.obs["to_act"] == 1 and ann.state["cf_deadline"] is None
    play(bob, [ann, bob], "discard end-of-limit")
    assert ann.obs["to_act"] == 0
    return t, ann, bob, holds


def test_a_hint_knows_nothing_of_a_safety_the_window_showed_the_engine_alone(web):
    web.start()
    hints, holds = [], []
    for deck in cf_twins():
        t, ann, bob, held = past_the_window(web, deck)
        holds.append(held)
        draw(ann, [ann, bob])  # Ann to play: her hand, the table and what she saw are the same on both
        room = web.hall.rooms[t["id"]]
        assert ("right-of-way" in room.game.known_cards(1)) == held  # the engine's own knowledge differs
        ann.send({"type": "hint"})
        hint = ann.expect("hint", timeout=60)
        assert len(hint["actions"]) > 2
        hints.append((hint, ann.obs))
    assert holds == [True, False]
    assert hints[0][1] == hints[1][1]
    assert hints[0][0] == hints[1][0], hints


def test_a_stand_in_decides_from_what_its_seat_saw(web, monkeypatch):
    web.start()
    asked: list[list] = []
    choose = seatbots_module.choose

    def spied(level, seed, observation, legal):
        action = choose(level, seed, observation, legal)
        if observation["seat"] == 0:
            asked[-1].append((level, seed, observation, legal, action))
        return action

    monkeypatch.setattr(seatbots_module, "choose", spied)
    played = []
    for deck in cf_twins():
        asked.append([])
        t, ann, bob, _ = past_the_window(web, deck, grace=0.2, standin="easy")
        ann.ws.close()  # Ann goes away on her turn: after the grace, the stand-in draws and plays for her
        moves = []
        while True:
            frame = bob.expect("state", timeout=30)
            moves += [(e["seat"], e["action"]) for e in frame["events"] if e["type"] == "action"]
            if frame["observation"]["to_act"] == 1 and frame["observation"]["legal_actions"]:
                break
        played.append(moves)
        assert web.hall.rooms[t["id"]].table.seats[0].stood_in
    assert len(asked[0]) == 2 and [c[4] for c in asked[0]] == [m for s, m in played[0] if s == 0]
    assert played[0] == played[1]
    assert asked[0] == asked[1]


def test_a_review_judges_a_move_from_what_its_seat_saw(web, monkeypatch):
    """A finished match shows every card, so a review reveals nothing; but it judges a move by what its player
    could know: Ann's move after the window is judged from the very observation her frame showed."""
    web.start(review_worlds=4)
    judged: dict[int, dict] = {}
    judge = R._judge_many

    def spied(batch, worlds, seed):
        judged.update({index: obs for obs, index, _ in batch})
        return judge(batch, worlds, seed)

    monkeypatch.setattr(R, "_judge_many", spied)
    deck = stacked_deck("dujardin", 2, hands={0: ["roll", "stop", "100", "75"], 1: ["right-of-way", "roll"]})
    t, ann, bob, held = past_the_window(web, deck, ruleset="dujardin", public=True)  # reviewed by anyone
    draw(ann, [ann, bob])
    room = web.hall.rooms[t["id"]]
    index, saw = room.actions, ann.obs
    assert held and room.game.known_cards(1) == ["right-of-way"] and saw["known_cards"] == [[], []]
    web.play_random([ann, bob], random.Random(3))
    assert ann.state["status"] == "finished"
    assert web.client.post(f"/api/tables/{t['id']}/review").status_code == 202
    deadline = time.monotonic() + 60
    while web.client.get(f"/api/tables/{t['id']}/review").json()["state"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert judged[index] == saw
