"""Puzzles that speak to the person (docs/review.md, "A set that grows from real games"): a finished game's review
adds its inaccuracies and worse to the database, each the seat's observation only, bounded per seat, per game and in
all; the public set adds public games' puzzles after the shipped ones and names nobody; a player's own are theirs
signed in, and "yours" is said only to the seat's link or the account that held it."""

from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("fastapi")

from millebornes.puzzles import MISTAKES, shipped  # noqa: E402
from millebornes.web.reviews import puzzle_repo as G  # noqa: E402
from millebornes.web.reviews.service import decisions  # noqa: E402
from tests.conftest import token_of  # noqa: E402
from tests.web.accounts.test_accounts import csrf, sign_up  # noqa: E402
from tests.web.reviews.test_review import HUMAN, MEDIUM, SEED, finished  # noqa: E402

WORLDS = 20


def reviewed(web, tid: str, headers: dict | None = None) -> dict:
    """The table's review, once done and its puzzles kept (the reviewer's job gone)."""
    assert web.client.post(f"/api/tables/{tid}/review", headers=headers or {}).status_code in (200, 202)
    deadline = time.monotonic() + 30
    while web.app.state.reviewer.jobs:
        assert time.monotonic() < deadline, "the review's job did not end"
        time.sleep(0.02)
    state = web.client.get(f"/api/tables/{tid}/review", headers=headers or {}).json()
    assert state["state"] == "done", state
    return state["review"]


def private_game(web) -> tuple[dict, str]:
    """finished()'s match at a private table: (the table, seat 0's token as its page keeps it)."""
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=SEED)
    a = web.join(table, 0, "Ann")
    web.play_random([a], random.Random(2))
    assert a.state["status"] == "finished"
    return table, token_of(table, 0)


def bodies(web) -> list[tuple[str, str, int, bool, str]]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    with Session(web.app.state.db.engine) as s:
        rows = s.execute(select(G.PuzzleRow)).scalars().all()
        return [(r.id, r.table_id, r.seat, r.public, r.body) for r in rows]


def test_a_reviewed_public_game_adds_its_mistakes_as_the_seat_saw_them(web):
    web.start(review_worlds=WORLDS)
    table = finished(web)
    tid = table["id"]
    assert bodies(web) == []
    review = reviewed(web, tid)
    rows = bodies(web)
    wrong = [m for m in review["moves"] if m["class"] in MISTAKES]
    assert rows and len(rows) <= min(len(wrong), G.PER_GAME)
    seen = {index: obs for obs, index, _ in decisions(web.app.state.tables.get(tid, True).record())[0]}
    by_played = {(m["seat"], json.dumps(seen[m["index"]], sort_keys=True)): m for m in wrong}
    for key, table_id, seat, public, body in rows:
        p = json.loads(body)
        assert (table_id, public, p["seat"]) == (tid, True, seat)
        assert set(p) <= {*G.FIELDS, "reason"}  # nothing else: no table, no name, no seed
        m = by_played[(seat, json.dumps(p["observation"], sort_keys=True))]  # the seat's observation, as judged
        assert (p["played"], p["best"], p["class"]) == (m["played"], m["best"], m["class"])
        assert p["observation"]["seat"] == seat and "hands" not in p["observation"]
        assert str(SEED) not in body and "Ann" not in body and token_of(table, 0) not in body
        assert key == G.puzzle_id(p)
    # the review worked out again (another format) adds no position twice
    assert web.app.state.grown.add(tid, True, [{**json.loads(b), "id": "x"} for *_, b in rows]) == 0
    assert len(bodies(web)) == len(rows)


def test_the_public_set_is_the_shipped_one_then_public_games_naming_nobody(web):
    web.start(review_worlds=WORLDS)
    public = finished(web, seed=11)  # another deal than the private game's: the same positions would be kept once
    private, token = private_game(web)
    reviewed(web, public["id"])
    reviewed(web, private["id"], {"Authorization": f"Bearer {token}"})
    rows = bodies(web)
    assert {t for _, t, *_ in rows} == {public["id"], private["id"]}
    got = web.client.get("/api/puzzles").json()["puzzles"]
    n = len(shipped()["puzzles"])
    assert [{k: v for k, v in p.items() if k != "source"} for p in got[:n]] == shipped()["puzzles"]
    assert {p["source"] for p in got[:n]} == {"shipped"}
    games = got[n:]
    assert games and {p["source"] for p in games} == {"games"}
    assert sorted(p["id"] for p in games) == sorted(k for k, t, *_ in rows if t == public["id"])  # no private one
    text = json.dumps(games)
    assert public["id"] not in text and private["id"] not in text and "Ann" not in text and '"table"' not in text


def test_my_puzzles_are_the_seats_my_account_held(web):
    c = web.start(review_worlds=WORLDS)
    table, token = private_game(web)
    tid = table["id"]
    assert c.get("/api/puzzles/mine").json() == {"format": "millebornes-puzzles/1", "signed_in": False, "puzzles": []}
    reviewed(web, tid, {"Authorization": f"Bearer {token}"})
    ann = {k for k, t, seat, *_ in bodies(web) if seat == 0}
    assert ann, "random moves make mistakes"
    sign_up(c, "ann_1", seats=[{"table": tid, "seat": 0, "token": token}])
    mine = c.get("/api/puzzles/mine").json()
    assert mine["signed_in"] is True and {p["id"] for p in mine["puzzles"]} == ann
    assert all(p["table"] == tid and p["seat"] == 0 and p["source"] == "mine" for p in mine["puzzles"])
    # the owner reads the table's puzzles as theirs, without the link
    assert c.get(f"/api/tables/{tid}/puzzles?seat=0").json()["yours"] is True
    assert c.get(f"/api/tables/{tid}/puzzles?seat=1").json()["yours"] is False
    assert c.get(f"/api/tables/{tid}/review").json()["yours"] == [0]
    # another account: none of them, and nothing of that table is theirs
    c.post("/api/account/signout", json={}, headers=csrf(c))
    c.cookies.clear()
    sign_up(c, "bob_2")
    assert c.get("/api/puzzles/mine").json()["puzzles"] == []
    assert c.get(f"/api/tables/{tid}/puzzles?seat=0").status_code == 403  # a private table: not theirs to see


def test_yours_is_said_to_the_seats_link_only(web):
    c = web.start(review_worlds=WORLDS)
    table = finished(web)
    tid = table["id"]
    bearer = {"Authorization": f"Bearer {token_of(table, 0)}"}
    reviewed(web, tid)
    mine = c.get(f"/api/tables/{tid}/puzzles?seat=0", headers=bearer).json()
    theirs = c.get(f"/api/tables/{tid}/puzzles?seat=0").json()
    assert mine["yours"] is True and theirs["yours"] is False
    assert mine["puzzles"] == theirs["puzzles"]
    assert [(s["seat"], s["kind"], s["nickname"], s["level"]) for s in theirs["seats"]] == [
        (0, "human", "Ann", None),
        (1, "bot", None, "medium"),
    ]
    assert c.get(f"/api/tables/{tid}/puzzles?seat=1", headers=bearer).json()["yours"] is False
    assert c.get(f"/api/tables/{tid}/review", headers=bearer).json()["yours"] == [0]
    assert c.get(f"/api/tables/{tid}/review").json()["yours"] == []
    wrong = {"Authorization": "Bearer not-a-token"}
    assert c.get(f"/api/tables/{tid}/review", headers=wrong).json()["yours"] == []
    assert token_of(table, 0) not in c.get(f"/api/tables/{tid}/puzzles?seat=0", headers=bearer).text


def fake(seat: int, stake: float, n: int) -> dict:
    return {
        "edition": "classic",
        "seat": seat,
        "observation": {"seat": seat, "n": n},
        "played": "draw",
        "best": "take-discard",
        "chance": 0.5 - stake,
        "best_chance": 0.5,
        "stake": stake,
        "class": "mistake",
        "theme": "other",
        "reason": {"code": "kept", "params": {"n": n}},
    }


def test_the_bounds_per_seat_per_game_and_in_all(web):
    web.start()
    grown = web.app.state.grown
    table = web.create(ruleset="dujardin", seats=[{"kind": "human"}] * 3, public=True)
    many = [fake(seat, (k + 1) / 100 + seat / 1000, seat * 100 + k) for seat in range(3) for k in range(10)]
    picked = G.chosen(many)
    assert len(picked) == G.PER_GAME
    assert all(sum(p["seat"] == s for p in picked) <= G.PER_SEAT for s in range(3))
    assert min(p["stake"] for p in picked) >= sorted((p["stake"] for p in many), reverse=True)[3 * G.PER_SEAT - 1]
    assert grown.add(table["id"], True, many) == G.PER_GAME
    stored = {p["id"]: p for p in grown.public()}
    assert all(p["reason"]["code"] == "kept" for p in stored.values())  # a move's reason is kept untouched
    # past the total the weakest go
    kept = G.PER_GAME - 3
    assert grown.prune(kept) == 3 and grown.count() == kept
    left = sorted(p["stake"] for p in grown.public())
    assert left == sorted((p["stake"] for p in stored.values()), reverse=True)[:kept][::-1]
    assert grown.prune(kept) == 0
    # the operator deleting the table deletes its puzzles
    from millebornes.web.admin.repo import Admin

    assert Admin(web.app.state.db).delete_table(table["id"])["puzzles"] == kept and grown.count() == 0
