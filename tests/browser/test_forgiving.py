"""A table that forgives: browsing the hand by number keys never plays a card, a hazard goes to a side only
through its own step (a, then the side's number), a refusal goes once the position moves on, and from 1,024 px
the top bar keeps one row of one height whatever appears in it; the turn clock keeps to two lines inside the bar
at every width.

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
    CLASSIC_HEAD,
    against_bots,
    browser,
    create_table,
    join,
    mine_again,
    pages,
    play,
    seq,
    server,
    stacked,
    wait_turn,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

# Classic for three (no teams): Ann holds a Speed Limit (legal on anyone at the start), Roll and distance; the
# bots hold harmless cards, so nothing they do can stop her.
ANN = ["speed-limit", "roll", "200", "25", "50", "100"]
BOT = ["25", "50", "75", "25", "50", "75"]
HEAD = ANN + BOT + BOT + ["75", "25", "50", "25", "75", "50", "25", "75", "50"]


def hand(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")


def key_of(page, card: str) -> str:
    return str(hand(page).index(card) + 1)


def attacks(page) -> list[tuple[str, str]]:
    """The move bar's attack buttons: [what they say, the key they show]."""
    return page.locator("#moves button.attack").evaluate_all(
        "bs => bs.map(b => [[...b.childNodes].filter(n => n.tagName !== 'KBD').map(n => n.textContent).join('').trim(),"
        " b.querySelector('kbd').textContent])"
    )


def three_handed(server, pages, lang: str = "en"):
    page = pages.new()
    against_bots(server, page, HEAD, lang=lang)
    return page


def test_number_keys_only_browse_and_a_hazard_has_its_target_step(server, pages):
    page = three_handed(server, pages)
    before = seq(page)
    start = hand(page)
    assert len(start) == 7 and "speed-limit" in start

    # every number key chooses its card, the hazard's among them, and nothing is played
    for k in range(1, 8):
        page.keyboard.press(str(k))
        chosen = page.locator("#hand .card.selected")
        expect(chosen).to_have_count(1)
        expect(chosen).to_have_attribute("data-index", str(k - 1))
        expect(page.locator(f"#hand .card[data-index='{k - 1}']")).to_be_focused()
    page.keyboard.press(key_of(page, "speed-limit"))
    page.keyboard.press(key_of(page, "200"))  # the trap was here: the key of a card was read as a side
    expect(page.locator("#hand .card.selected")).to_have_attribute("data-card", "200")
    page.keyboard.press("8")
    expect(page.locator("#message")).to_have_text("There is no card 8 in your hand.")
    assert seq(page) == before and hand(page) == start

    # a hazard chosen: its attacks wait for a, then the side's number
    page.keyboard.press(key_of(page, "speed-limit"))
    assert attacks(page) == [["Attack Bot 2 (easy)", "a 2"], ["Attack Bot 3 (easy)", "a 3"]]
    page.keyboard.press("a")
    expect(page.locator("#moves .move-caption")).to_have_text("Speed Limit: attack which side? Its number, or Esc")
    assert attacks(page) == [["Attack Bot 2 (easy)", "2"], ["Attack Bot 3 (easy)", "3"]]
    expect(page.locator("#moves button[data-action='discard speed-limit']")).to_have_count(0)
    expect(page.locator("#announce")).to_contain_text(
        "Speed Limit: which side? Attack Bot 2 (easy): key 2; Attack Bot 3 (easy): key 3. Esc: back."
    )
    # Esc leaves the step: the card stays chosen and the numbers choose cards again
    page.keyboard.press("Escape")
    expect(page.locator("#moves .move-caption")).to_have_text("Speed Limit:")
    expect(page.locator("#hand .card.selected")).to_have_attribute("data-card", "speed-limit")
    page.keyboard.press("2")
    expect(page.locator("#hand .card.selected")).to_have_attribute("data-index", "1")
    assert seq(page) == before

    # a: the step; 1 (her own side) is refused in words; then 3 attacks the third side
    page.keyboard.press(key_of(page, "speed-limit"))
    page.keyboard.press("a")
    page.keyboard.press("1")
    expect(page.locator("#message")).to_contain_text("Not allowed")
    assert seq(page) == before
    page.keyboard.press(key_of(page, "speed-limit"))
    page.keyboard.press("a")
    page.keyboard.press("3")
    expect(page.locator(".tableau[data-side='2'] .speed .card[data-card='speed-limit']")).to_have_count(1)
    # the refusal spoke of the position before: it went with it
    expect(page.locator("#message")).to_have_text("")

    # the Keys panel says it
    page.keyboard.press("?")
    expect(page.locator("#keys-list")).to_contain_text("a, 1–3")


def test_a_refusal_goes_once_the_position_moves_on(server, pages):
    page = three_handed(server, pages, "fr")
    page.keyboard.press(key_of(page, "200"))
    page.keyboard.press("p")
    message = page.locator("#message")
    expect(message).to_contain_text("Feu vert")
    expect(page.locator("#sr-alert")).to_contain_text("Feu vert")
    # a card that is not a hazard cannot attack: said, nothing sent
    page.keyboard.press(key_of(page, "roll"))
    page.keyboard.press("a")
    expect(message).to_have_text("Feu vert n’est pas une attaque\u00a0: seule une attaque se joue contre un autre jeu.")
    mine = seq(page)
    page.keyboard.press("p")  # Roll: the position moves on
    page.wait_for_function(f"() => Number(document.querySelector('#turn').dataset.seq) > {mine}")
    expect(message).to_have_text("")
    # her next turn (she draws first where a bot's discard could be taken): a refusal, then a discard moves the
    # position on
    mine_again(page, mine)
    if page.get_attribute("#turn", "data-decision") == "draw":
        drawing = seq(page)
        page.keyboard.press("s")
        wait_turn(page, "play", drawing)
    page.keyboard.press("s")
    expect(message).to_contain_text("Interdit")
    refused = seq(page)
    page.keyboard.press(key_of(page, "25"))
    page.keyboard.press("d")
    page.wait_for_function(f"() => Number(document.querySelector('#turn').dataset.seq) > {refused}")
    expect(message).to_have_text("")


@pytest.mark.parametrize("width", [1024, 1366])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_top_bar_keeps_one_row(server, pages, width, lang):
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 4,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
            "clock": 120,
        },
    )
    page = pages.new(viewport={"width": width, "height": 800})
    if lang != "en":
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(server + made["seats"][0]["url"])
    page.fill("#nickname", "Bartholomew")
    page.click("#join")
    page.wait_for_selector("#hand .card")
    bar = "document.querySelector('.topbar').getBoundingClientRect().height"
    arena = "document.querySelector('#arena').getBoundingClientRect().top"
    height, top = page.evaluate(bar), page.evaluate(arena)
    assert height == 48
    # whatever appears in it: every button it can show, a long turn line
    page.evaluate(
        "for (const b of document.querySelectorAll('.topbar .tools button')) b.hidden = false;"
        "document.querySelector('#turn').textContent = 'Bartholomew ' + document.querySelector('#turn').textContent"
        " + ' ' + document.querySelector('#turn').textContent;"
    )
    assert page.evaluate(bar) == height
    assert page.evaluate(arena) == top
    rows = page.evaluate(
        "[...document.querySelectorAll('.topbar > *, .topbar .tools > *')].filter(n => n.offsetParent && !n.hidden)"
        ".map(n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; })"
    )
    assert all(0 <= t and b <= 48 for t, b in rows), rows
    buttons = page.evaluate(
        "[...document.querySelectorAll('.topbar .tools button')].map(b => b.getBoundingClientRect().height)"
    )
    assert max(buttons) <= 40, buttons  # none wraps its words
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_turn_clock_keeps_to_two_lines_inside_the_top_bar(server, pages):
    """Another's turn at every width, in both languages: "Wolfgang Amadeus Mozartt is thinking: 0:02 · 1:58 left"
    stays inside the top bar on two lines at most (it took four at 1,024 px, and spilled out), none of it hidden."""
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}] * 2,
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    ann, bob = pages.new(), pages.new()
    join(ann, server + made["seats"][0]["url"], "Ann")
    join(bob, server + made["seats"][1]["url"], "Wolfgang Amadeus Mozartt")
    play(ann, "roll")
    expect(ann.locator("#clock")).to_contain_text("is thinking: 0:")
    for lang in ("en", "fr"):
        ann.select_option("#lang", lang)
        for width in (360, 640, 800, 1024, 1100, 1280, 1366):
            ann.set_viewport_size({"width": width, "height": 800})
            ann.evaluate("window.scrollTo(0, 0)")
            got = ann.evaluate(
                """() => { const c = document.querySelector('#clock'), bar = document.querySelector('.topbar');
                     const r = c.getBoundingClientRect(), b = bar.getBoundingClientRect();
                     const line = parseFloat(getComputedStyle(c).lineHeight) || 1.2 * parseFloat(getComputedStyle(c).fontSize);
                     return { text: c.textContent, top: r.top - b.top, bottom: b.bottom - r.bottom, lines: r.height / line,
                              hidden: c.scrollHeight > c.clientHeight + 1 || c.scrollWidth > c.clientWidth + 1,
                              wide: document.documentElement.scrollWidth - innerWidth }; }"""
            )
            what = (lang, width, got)
            assert "Wolfgang" in got["text"] and len(re.findall(r"\d:\d\d", got["text"])) == 2, what  # both times
            assert got["top"] >= 0 and got["bottom"] >= 0 and got["lines"] <= 2.05 and not got["hidden"], what
            assert got["wide"] <= 0, what
