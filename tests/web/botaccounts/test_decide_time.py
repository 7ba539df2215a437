"""A bot's ``decide`` says how long the server still waits for its answer (docs/protocol.md, "Playing online"):
``seconds_left`` counts down the table's turn clock, the same figure the person's frame shows, or the
``decision_seconds`` of a table without a clock."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tests.serving import bot_seat  # noqa: E402
from tests.web.botaccounts.test_botaccounts import HUMAN, Wire, signed_up  # noqa: E402


def seated_bot(web, clock: float, decision_seconds: float = 10.0):
    """A bot account at seat 1 of a two-seat table with that clock, accepted, and the person at seat 0."""
    c = web.start()
    web.app.state.gateway.decision_seconds = decision_seconds
    token = c.post("/api/account/bots", json={"username": "robo"}, headers=signed_up(c)).json()["token"]
    bot = Wire(web, token)
    table = web.create(ruleset="dujardin", players=2, seats=[HUMAN, bot_seat("robo")], clock=clock)
    bot.send({"type": "accept", "id": bot.expect("challenge")["id"]})
    return bot, web.join(table, 0, "Ann")


def bots_turn(bot: Wire, ann) -> tuple[dict, dict]:
    """The bot's first decide, and the person's frame of that same decision (the person plays until then)."""
    while True:
        state = ann.state
        if state["status"] == "playing" and state["turn"] and state["turn"]["seat"] == 1:
            return bot.expect("decide"), state
        if state["status"] == "playing" and state["observation"]["to_act"] == 0:
            ann.act(state["observation"]["legal_actions"][0])
        ann.expect("state")


def test_a_decide_counts_down_the_tables_turn_clock(web):
    bot, ann = seated_bot(web, clock=30)
    decide, frame = bots_turn(bot, ann)
    left = decide["seconds_left"]
    assert isinstance(left, float) and 25 < left <= 30
    assert left == round(left, 1)
    assert abs(left - frame["turn"]["left"]) < 1.0  # the clock the person sees for the bot's seat
    bot.send({"type": "action", "id": decide["id"], "action": "nonsense"})
    again = bot.expect("decide")  # asked again: the same clock, less of it
    assert again["seconds_left"] <= left


def test_a_decide_at_a_table_without_a_clock_has_the_decision_seconds(web):
    bot, ann = seated_bot(web, clock=0, decision_seconds=7.0)
    decide, frame = bots_turn(bot, ann)
    assert frame["turn"]["left"] is None  # no clock the person sees: the server's own limit for bots
    assert 6 < decide["seconds_left"] <= 7
