"""A spectator's page, end to end: a table page opened without a seat link watches the game (every
tableau, the piles, the log, whose turn) with no hand, no hints and no join form; a table whose creator
forbade spectators says so.  A real `millebornes serve` and Chromium, as tests/browser/test_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import CHROMIUM, CLASSIC_HEAD, browser, create_table, join, pages, play, server, stacked  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

HAND = re.compile(r'"(hand|stock)"\s*:\s*\[|"(hands|token|seed|deck)"\s*:')


def test_a_spectator_sees_both_players_moves_and_no_hand(server, pages):
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "cf_timeout": 30,
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    watcher = pages.new()
    received: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(str(payload))))
    watcher.goto(f"{server}/t/{made['id']}")
    expect(watcher.locator("#watching")).to_be_visible()
    expect(watcher.locator("#watching")).to_have_text("Watching")
    expect(watcher.locator("#join-overlay")).to_be_hidden()
    expect(watcher.locator("#turn")).to_have_attribute("data-status", "waiting")

    ann, bob = pages.new(), pages.new()
    join(ann, urls[0], "Ann")
    join(bob, urls[1], "Bob")
    play(ann, "roll")
    play(bob, "flat-tire", ".tableau[data-side='0']")
    expect(ann.locator("#cf-dialog")).to_be_visible()
    expect(watcher.locator("#cf-dialog")).to_be_hidden()  # the holder alone is asked
    ann.click("#cf-yes")
    play(ann, "200")

    log = watcher.locator("#log")
    expect(log).to_contain_text("Bob played Flat Tire on Ann.")
    expect(log).to_contain_text("Coup fourré! Ann laid Puncture-Proof against Bob's Flat Tire.")
    expect(
        watcher.locator(".tableau[data-side='0'] .safeties .card.coup-fourre[data-card='puncture-proof']")
    ).to_have_count(1)
    expect(watcher.locator(".tableau[data-side='1'] .nick")).to_have_text("Bob")
    expect(watcher.locator(".tableau[data-side='0'] .nick")).to_have_text("Ann")
    expect(watcher.locator("#turn")).to_have_attribute("data-mine", "0")
    expect(watcher.locator("#turn")).to_contain_text("Bob")
    # no hand, no moves, no hints, nothing of anybody's own
    expect(watcher.locator("#hand .card")).to_have_count(0)
    expect(watcher.locator(".hand-box")).to_be_hidden()
    expect(watcher.locator("#hint-button")).to_be_hidden()
    expect(watcher.locator(".tableau.mine")).to_have_count(0)
    expect(watcher.locator("#stock-count")).to_have_text(re.compile(r"^\d+$"))
    states = [json.loads(t) for t in received if '"type":"state"' in t]
    assert len(states) >= 6 and not any(HAND.search(t) for t in received)
    assert all(s["observation"]["legal_actions"] == [] and s["observation"]["seat"] is None for s in states)

    # a key or a click on the piles sends nothing a spectator may not do: the page says so in words
    watcher.locator("#stock").click()
    expect(watcher.locator("#message")).to_contain_text("You are watching")


def test_a_table_without_spectators_says_so(server, pages):
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "spectators": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        },
    )
    page = pages.new()
    page.goto(f"{server}/t/{made['id']}")
    expect(page.locator("#message")).to_have_text("This table does not allow spectators.")
    expect(page.locator("#join-overlay")).to_be_hidden()
    expect(page.locator("#hand .card")).to_have_count(0)


def test_the_home_page_offers_the_option(server, pages):
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    box = page.get_by_label("Anyone with the table's address may watch")
    expect(box).to_be_checked()
    box.uncheck()
    page.click("#create")
    link = page.locator("a.invite[data-seat='0']")
    expect(link).to_have_count(1)
    table_id = link.get_attribute("href").split("/t/")[1].split("#")[0]
    facts = json.loads(page.request.get(f"{server}/api/tables/{table_id}").text())
    assert facts["spectators"] is False
