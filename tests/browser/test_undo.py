"""Taking back a move against a bot on the table page (docs/web-api.md, "Taking back a move"): the key u and the
*Take back* button put the position back exactly as it was before the move (the page's observation, compared
whole), say what was taken back, and the header marks the match casual, as its replay does.

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import (  # noqa: E402,F401
    CHROMIUM,
    DUJARDIN_WIN,
    LAST,
    browser,
    dujardin_against_a_bot,
    pages,
    play,
    seq,
    server,
    wait_turn,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

OBS = "JSON.stringify(window.millebornes.state().obs)"


def position(page) -> str:
    return page.evaluate(OBS)


def back_to(page, before: str, after: int) -> None:
    """Wait for a state newer than ``after`` whose observation is ``before``, the position taken back to."""
    page.wait_for_function(
        f"([want, after]) => Number(document.querySelector('#turn').dataset.seq) > after && {OBS} === want",
        arg=[before, after],
    )


def answered(page) -> None:
    """Wait for the seat's next play decision after its last move (the bot answered it)."""
    wait_turn(page, "play", LAST[id(page)])


def test_a_move_taken_back_by_key_and_by_button_restores_the_position(server, pages):
    page, made = dujardin_against_a_bot(server, pages)
    wait_turn(page, "play")
    first, told = position(page), page.locator("#log li").all_text_contents()
    button = page.locator("#undo-button")
    expect(button).to_be_hidden()  # nothing of Ann's to take back yet
    expect(page.locator("#casual")).to_be_hidden()

    play(page, "roll")
    answered(page)
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-keyshortcuts", "u")
    page.locator("#hand .card").first.focus()
    now = seq(page)
    page.keyboard.press("u")
    back_to(page, first, now)
    expect(button).to_be_hidden()
    expect(page.locator("#casual")).to_be_visible()
    expect(page.locator("#casual .casual-long")).to_have_text("Casual: a move was taken back")
    expect(page.locator("#message")).to_contain_text("You took back: Ann: Play Roll")
    expect(page.locator("#announce")).to_contain_text("You took back: Ann: Play Roll")
    assert page.evaluate("document.activeElement && document.activeElement !== document.body")
    expect(page.locator("#log li")).to_have_text(told)  # the log as it was before the move

    play(page, "roll")
    answered(page)
    second = position(page)
    play(page, "200")
    answered(page)
    now = seq(page)
    button.click()
    back_to(page, second, now)
    expect(button).to_be_visible()  # the Roll can still be taken back
    now = seq(page)
    button.click()
    back_to(page, first, now)
    expect(button).to_be_hidden()
    assert page.evaluate("document.activeElement && document.activeElement !== document.body")

    page.keyboard.press("?")
    expect(page.locator("#keys-list")).to_contain_text("take back your last move")
    expect(page.locator("#keys-list kbd", has_text=re.compile(r"^u$"))).to_have_count(1)
    page.select_option("#lang", "fr")
    expect(page.locator("#casual .casual-long")).to_have_text("Partie amicale\u00a0: un coup a été repris")
    expect(page.locator("#casual .casual-short")).to_have_text("Amicale")  # the bar's one word at 1,280 px
    page.keyboard.press("u")  # nothing to take back: the server says why, in the page's language
    expect(page.locator("#message")).to_have_text("Vous n’avez aucun coup de cette manche à reprendre.")
    page.select_option("#lang", "en")

    for card in DUJARDIN_WIN:  # the match played to its end: its replay says it was casual
        play(page, card)
    expect(page.locator("#match-over")).to_be_visible()
    page.goto(f"{server}/replay/{made['id']}")
    expect(page.locator("#casual")).to_be_visible()
    expect(page.locator("#casual")).to_have_text("Casual: a move was taken back")
