"""A player who closed the page, as the others see it (issue 39 part 4): from the moment the socket closes, their
tableau and, while the decision is theirs, the turn line say "Bob left — a bot takes over in 0:45", counting down
each second, instead of "Bob is thinking"; then "A bot is playing for Bob", or nothing once Bob is back; only "Bob
left" when no bot is coming.  A screen reader hears the leaving once.  A real `millebornes serve` and Chromium,
with the test mode's short grace periods."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browser.test_presence import NAMES, two_players  # noqa: E402
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

PHONE = {"width": 360, "height": 640}


def countdown(name: str, seconds: str = r"\d") -> re.Pattern:
    return re.compile(rf"^{name} left — a bot takes over in 0:{seconds}$")


def seconds_shown(page, seat: int) -> int:
    return int(page.locator(f'.tableau .away-note[data-seat="{seat}"]').inner_text().rsplit(":", 1)[1])


def watch(server, pages, table_url: str, viewport: dict | None = None):
    """A spectator's page on the table (its link without the seat's token)."""
    page = pages.new(viewport=viewport)
    page.goto(server + "/t/" + table_url.split("/t/")[1].split("#")[0])
    expect(page.locator("#turn")).to_have_attribute("data-status", "playing")
    return page


def test_the_others_see_who_left_and_when_a_bot_takes_over_until_they_come_back(server, pages):
    urls, page, late = two_players(server, pages, clock=0, grace=50)
    name, other = NAMES[late], page[1 - late]
    phone = watch(server, pages, urls[late], PHONE)
    expect(other.locator("#clock")).to_have_text(re.compile(rf"^{name} is thinking: 0:0\d$"))
    expect(other.locator(".away-note")).to_have_count(0)

    kept = page[late].context.storage_state()
    page[late].context.close()
    for seen in (other, phone):  # the seat and the spectator, in the turn line (the decision is his) and on his side
        expect(seen.locator("#turn")).to_have_text(countdown(name, r"[45]\d"))
        expect(seen.locator(f'.tableau[data-side="{late}"] .away-note')).to_have_text(countdown(name, r"[45]\d"))
        expect(seen.locator("#clock")).to_be_hidden()  # no "Bob is thinking" for one who is gone
    first = seconds_shown(other, late)
    other.wait_for_function(
        "([seat, s]) => Number(document.querySelector(`.tableau .away-note[data-seat='${seat}']`)"
        ".textContent.split(':').pop()) <= s - 2",
        arg=[late, first],
    )
    # the screen reader heard it once, not every second
    told = other.locator("#announce p").filter(has_text=re.compile(rf"^{name} left the table: a bot takes over in"))
    expect(told).to_have_count(1)
    expect(told).to_have_text(re.compile(rf"^{name} left the table: a bot takes over in (4\d|50) seconds\.$"))
    # on a phone the line fits the screen
    for line in (phone.locator("#turn"), phone.locator(".tableau .away-note")):
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box

    back = pages.new(storage_state=kept)
    back.goto(urls[late])
    back.wait_for_selector("#hand .card")
    for seen in (other, phone):
        expect(seen.locator(".away-note")).to_have_count(0)
        expect(seen.locator("#turn")).not_to_have_text(re.compile("left"))
    expect(other.locator("#announce p").filter(has_text=f"{name} is back.")).to_have_count(1)
    assert pages.errors == []


def test_the_countdown_gives_way_to_the_stand_in(server, pages):
    urls, page, late = two_players(server, pages, clock=0, grace=2)
    name, other = NAMES[late], page[1 - late]
    page[late].context.close()
    note = other.locator(f'.tableau[data-side="{late}"] .away-note')
    expect(note).to_have_text(countdown(name, r"0[0-2]"))
    expect(note).to_have_text(f"A bot is playing for {name}")
    expect(other.locator("#turn")).not_to_have_text(re.compile("left"))
    expect(other.locator(f'.seat-name[data-seat="{late}"] .standin-mark')).to_have_text(" (bot)")
    assert pages.errors == []


def test_only_who_left_when_no_bot_is_coming_in_french(server, pages):
    """With both players gone, nobody waits for either seat, so no stand-in comes: the spectator reads only who
    left, in French."""
    urls, page, late = two_players(server, pages, clock=0, grace=50)
    phone = watch(server, pages, urls[late], PHONE)
    phone.select_option("#lang", "fr")
    page[late].context.close()
    expect(phone.locator("#turn")).to_have_text(
        re.compile(rf"^{NAMES[late]} a quitté la table — un robot prend sa place dans 0:[45]\d$")
    )
    page[1 - late].context.close()
    for seat in (0, 1):
        expect(phone.locator(f'.tableau .away-note[data-seat="{seat}"]')).to_have_text(
            f"{NAMES[seat]} a quitté la table"
        )
    expect(phone.locator("#turn")).to_have_text(f"{NAMES[late]} a quitté la table")
    assert pages.errors == []
