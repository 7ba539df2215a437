"""Private tables stay private after the match (docs/web-api.md, "Private tables"): the history lists public ones
only, and a private table's replay and review open only to a request carrying one of its seats' tokens."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")

from tests.conftest import token_of  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}


def finished(web, **body) -> dict:
    """A dujardin race between random moves (seat 0, Ann) and a medium bot, played to its end."""
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=5, **body)
    a = web.join(table, 0, "Ann")
    web.play_random([a], random.Random(2))
    assert a.state["status"] == "finished"
    return table


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_history_lists_public_tables_only(web):
    web.start()
    private, public = finished(web), finished(web, public=True)
    listed = web.client.get("/api/history").json()["tables"]
    assert [t["id"] for t in listed] == [public["id"]]
    assert "Ann" in str(listed) and private["id"] not in web.client.get("/api/history?limit=200").text


def test_a_private_replay_opens_to_its_players_only(web):
    web.start()
    table, other = finished(web), finished(web)
    replay = f"/api/tables/{table['id']}/replay?step=1"
    c = web.client
    for headers in ({}, bearer("x" * 32), bearer(token_of(other, 0)), {"Authorization": token_of(table, 0)}):
        r = c.get(replay, headers=headers)
        assert (r.status_code, r.json()["code"]) == (403, "private"), headers
        assert "hands" not in r.text and "Ann" not in r.text
    # the token is never taken from the address, which logs keep
    assert c.get(replay, params={"token": token_of(table, 0)}).status_code == 403
    opened = c.get(replay, headers=bearer(token_of(table, 0)))
    assert opened.status_code == 200 and opened.json()["step"] == 1 and len(opened.json()["state"]["hands"]) == 2
    assert c.get(f"/api/tables/{other['id']}/replay", headers=bearer(token_of(other, 0))).status_code == 200


def test_a_public_replay_opens_to_anybody(web):
    web.start()
    table = finished(web, public=True)
    assert web.client.get(f"/api/tables/{table['id']}/replay?step=0").status_code == 200


def test_a_private_review_opens_to_its_players_only(web):
    web.start(review_worlds=2)
    table = finished(web)
    review = f"/api/tables/{table['id']}/review"
    c = web.client
    for call in (c.get, c.post):
        r = call(review, headers=bearer("nope"))
        assert (r.status_code, r.json()["code"]) == (403, "private")
    assert web.app.state.reviewer.reviews.job(table["id"]) is None and not web.app.state.reviewer.jobs  # none started
    assert c.get(review, headers=bearer(token_of(table, 0))).json()["state"] == "none"
    assert c.post(review, headers=bearer(token_of(table, 0))).status_code in (200, 202)
    assert c.get(review).status_code == 403
    assert c.get("/api/tables/nope/review").status_code == 404  # an unknown table is still unknown
