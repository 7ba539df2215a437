"""Puzzles' API: the shipped set, and a reviewed table's own mistakes as puzzles, each from what its seat's frames
showed; nothing before the review, a private table's only with one of its seats' tokens."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from millebornes.puzzles import MISTAKES, PUZZLE_FORMAT, shipped  # noqa: E402
from tests.web.reviews.test_review import finished, wait_state  # noqa: E402


def test_the_shipped_set(web):
    web.start()
    r = web.client.get("/api/puzzles")
    assert r.status_code == 200  # no game reviewed yet: the shipped set alone
    assert r.json() == {**shipped(), "puzzles": [{**p, "source": "shipped"} for p in shipped()["puzzles"]]}


def test_a_reviewed_tables_mistakes_as_puzzles(web):
    web.start(review_worlds=20)
    table = finished(web)
    tid = table["id"]
    assert web.client.get(f"/api/tables/{tid}/puzzles?seat=0").json()["code"] == "no-review"
    assert web.client.get("/api/tables/nope/puzzles?seat=0").status_code == 404
    web.client.post(f"/api/tables/{tid}/review")
    review = wait_state(web, tid, lambda s: s["state"] == "done")["review"]
    r = web.client.get(f"/api/tables/{tid}/puzzles?seat=0")
    assert r.status_code == 200
    made = r.json()
    assert made["format"] == PUZZLE_FORMAT and made["seat"] == 0 and made["yours"] is False
    wrong = [m for m in review["moves"] if m["seat"] == 0 and m["class"] in MISTAKES]
    assert [p["played"] for p in made["puzzles"]] == [m["played"] for m in wrong] and wrong
    assert all(p["observation"]["seat"] == 0 for p in made["puzzles"])
    assert web.client.get(f"/api/tables/{tid}/puzzles?seat=5").status_code == 422
    assert web.client.get(f"/api/tables/{tid}/puzzles?seat=x").status_code == 422
