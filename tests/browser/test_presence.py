"""Absent players in the browser (issue 24 item 2): a player who closes the browser on their turn is played
by a bot after the grace period and takes the seat back on return; a player whose clock runs out sees the
bot play for them and takes the seat back with one button.  A real `millebornes serve` and Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import CHROMIUM, browser, create_table, join, pages, seq, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

NAMES = ("Ann", "Bob")


def two_players(server, pages, **options) -> tuple[dict, dict, dict]:
    """Ann and Bob at a classic table, both on their pages: (urls, pages by seat, the seat to act first)."""
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}] * 2,
            "cf_timeout": 0.5,
            "standin": "easy",
            **options,
        },
    )
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    page = {seat: pages.new() for seat in urls}
    for seat in urls:
        join(page[seat], urls[seat], NAMES[seat])
    for seat in urls:
        expect(page[seat].locator("#turn")).to_have_attribute("data-status", "playing")
    page[0].wait_for_function("() => [...document.querySelectorAll('#turn')].some((t) => t.dataset.clockSeat !== '')")
    first = int(page[0].get_attribute("#turn", "data-clock-seat"))
    return urls, page, first


def log_has(page, text: str):
    expect(page.locator("#log li").filter(has_text=text).first).to_be_visible()


def moves(page) -> None:
    """The seat takes its decision from the move bar (choosing its first card when it must play one), and the
    table moves on."""
    expect(page.locator("#turn")).to_have_attribute("data-mine", "1")
    before = seq(page)
    if page.get_attribute("#turn", "data-decision") == "play":
        page.locator("#hand .card").first.click()
    page.locator("#moves button.move").first.click()
    page.wait_for_function("(s) => Number(document.querySelector('#turn').dataset.seq) > s", arg=before)


def test_a_player_who_closes_the_browser_on_their_turn_is_played_by_a_bot_and_comes_back(server, pages):
    urls, page, late = two_players(server, pages, clock=0, grace=1.5)
    name, other = NAMES[late], page[1 - late]
    # the other player sees who is thinking, and for how long
    expect(other.locator("#clock")).to_have_text(re.compile(rf"^{name} is thinking: 0:0\d$"))

    kept = page[late].context.storage_state()  # what the browser keeps when it is closed (not sessionStorage)
    page[late].context.close()  # the browser is closed on the seat's turn
    expect(other.locator(f'.seat-name[data-seat="{late}"]')).to_have_class(re.compile(r"\boffline\b"))
    log_has(other, f"{name} left the table: a bot plays that seat until {name} comes back.")
    expect(other.locator(f'.seat-name[data-seat="{late}"] .standin-mark')).to_have_text(" (bot)")
    # the table goes on: the stand-in played the seat's decision, and the other player's turn comes
    expect(other.locator("#turn")).to_have_attribute("data-mine", "1")

    # the same browser opened again, and the invite link with it: its first join replaced the link's token, and
    # My tables, which kept the new one, opens the seat (a browser that never sat there is refused)
    back = pages.new(storage_state=kept)
    back.goto(urls[late])
    back.wait_for_selector("#hand .card")
    log_has(other, f"{name} is back and plays again.")
    expect(other.locator(f'.seat-name[data-seat="{late}"] .standin-mark')).to_have_count(0)
    expect(back.locator("#standin-box")).to_be_hidden()
    # the human plays their seat again: the other plays their turn, then the returning player moves
    for _ in range(4):
        moves(other)
        if other.get_attribute("#turn", "data-mine") != "1":
            break
    moves(back)
    assert pages.errors == []


def test_a_player_out_of_time_takes_the_seat_back_with_one_button(server, pages):
    urls, page, late = two_players(server, pages, clock=3, grace=600)
    name, mine, other = NAMES[late], page[late], page[1 - late]
    expect(mine.locator("#clock")).to_have_text(re.compile(r"^Your move: 0:0\d left$"))
    expect(other.locator("#clock")).to_have_text(re.compile(rf"^{name} is thinking: 0:0\d · 0:0\d left$"))
    log_has(other, f"Time is up for {name}: a bot plays that seat until {name} comes back.")
    banner = mine.locator("#standin-box")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("A bot is playing for you while you are away.")
    mine.locator("#take-back").focus()
    mine.keyboard.press("Enter")
    expect(banner).to_be_hidden()
    log_has(other, f"{name} is back and plays again.")
    log_has(mine, f"{name} is back and plays again.")


def test_the_clock_and_the_banner_are_french_for_a_french_page(server, pages):
    urls, page, late = two_players(server, pages, clock=3, grace=600)
    mine = page[late]
    mine.select_option("#lang", "fr")
    expect(mine.locator("#standin-box")).to_contain_text("Un robot joue à votre place pendant votre absence.")
    expect(mine.locator("#take-back")).to_have_text("Reprendre ma place")
    page[1 - late].select_option("#lang", "fr")
    log_has(page[1 - late], f"{NAMES[late]} n’a plus de temps\u00a0: un robot joue à sa place jusqu’à son retour.")
