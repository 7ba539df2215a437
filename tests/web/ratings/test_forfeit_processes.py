"""A rated match forfeited with two server processes on one PostgreSQL (web/tables/forfeits.py): the bot plays from
the process it is connected to, the person from the other, where its owner revokes its token; the process that
forfeits the match rates it once and tells its seats, and the bot's process, told by the ``forfeit`` notice, tells
the bot the match is over with the same result."""

from __future__ import annotations

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets.sync.client")

from tests.serving import Account, Seat, Server, bot_seat, until  # noqa: E402
from tests.web.botaccounts.test_processes import Bot, facts, person_plays  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.server]

HUMAN = {"kind": "human"}


@pytest.fixture
def two(fresh_postgres, tmp_path):
    url = fresh_postgres()
    servers = [Server(url, tmp_path / f"server{i}.log", 0) for i in range(2)]
    yield servers
    for s in servers:
        s.stop()


def test_a_token_revoked_at_one_process_forfeits_the_match_the_bot_plays_at_another(two):
    a, b = two
    ann, owner = Account(a, "ann_1"), Account(a, "owner_2")
    bot = Bot(b, owner.bot("far_bot"))
    until(lambda: owner.connected("far_bot"), what="the bot's connection")
    table = a.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("far_bot")], rated=True, clock=0)
    bot.got("challenge", table["id"])
    seat = Seat(a, table, 0, "Ann")
    token0 = next(s["url"] for s in table["seats"] if s["seat"] == 0).split("token=")[1]
    r = ann.http.post(
        "/api/account/claim", json={"seats": [{"table": table["id"], "seat": 0, "token": token0}]}, headers=ann.csrf
    )
    assert r.json()["claimed"] == [{"table": table["id"], "seat": 0}]
    person_plays(seat, stop=lambda: bot.decides(table["id"]) >= 2 and seat.state["seq"] >= 6, seconds=60)
    r = owner.http.request("DELETE", "/api/account/bots/far_bot/token", json={}, headers=owner.csrf)
    assert r.status_code == 200, r.text
    while seat.state["status"] != "finished":
        seat.recv()
    assert {"type": "forfeit", "seat": 1, "why": "revoked"} in seat.state["events"]
    assert seat.state["observation"]["winners"] == [0]
    assert bot.got("over", table["id"])["winners"] == [0]
    for server in (a, b):
        found = facts(server, table["id"])
        assert (found["status"], found["winners"], found["rated"]) == ("finished", [0], True)
    ratings = until(lambda: ann.http.get("/api/account").json()["ratings"], what="the rating")
    assert ratings["dujardin"]["matches"] == 1 and ratings["dujardin"]["rating"] > 1500
    bot.close()
