"""The pages on phones: 360x640 and 390x844, touch screens, every move a tap.

Every page and state is checked the same way: nothing is wider than the screen (no sideways scrolling); on the
table the hand is the largest set of cards and each of its cards is a fingertip wide (44 px or more); whose turn
it is stays readable and on screen wherever the page is scrolled; a dialog's buttons are on screen. Skipped where
Playwright or /usr/bin/chromium is missing.
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
    DUJARDIN_HEAD,
    DUJARDIN_WIN,
    LAST,
    against_bots,
    browser,
    create_table,
    join_by_socket,
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

SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
PHONES = [pytest.param(size, id=f"{size['width']}x{size['height']}") for size in SIZES]
FINGER = 44  # px: the smallest hand card, a touch target
# 24 characters, the longest a nickname may be: one without a space (it cannot wrap), others with
LONG = [
    "Maximiliansternwolkenxyz",
    "Wilhelmina Wolkenstein W",
    "Bartholomew Featherstonx",
    "Anastasia Konstantinova",
    "Christophermontgomeryxx",
    "Guinevere Pendragon-Ash",
]

# what the checks measure, in one look at the page; widths are layout widths (a coup fourré's card lies
# crosswise by a rotation, the same card)
LAYOUT = """() => {
  const box = (e) => { const b = e.getBoundingClientRect(); return {left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width}; };
  const name = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase()) + [...e.classList].map((c) => '.' + c).join('');
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const wider = [...document.querySelectorAll('body *')].filter((e) => shown(e) && e.getBoundingClientRect().right > innerWidth + 0.5)
    .slice(0, 6).map((e) => name(e) + ' ' + Math.round(e.getBoundingClientRect().right));
  const turn = document.querySelector('#turn');
  const dialogs = [...document.querySelectorAll('.overlay, .float-dialog')].filter(shown);
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight, wider,
    hand: [...document.querySelectorAll('#hand .card')].map((c) => c.offsetWidth),
    others: [...document.querySelectorAll('.tableau .card, #stock .card, #discard .card')].map((c) => c.offsetWidth),
    clipped: [...document.querySelectorAll('.card.slot > span')].filter((s) => { const p = s.parentElement;
      return p.scrollWidth > p.clientWidth + 1 || p.scrollHeight > p.clientHeight + 1; })
      .map((s) => `${s.textContent} ${s.parentElement.clientWidth}x${s.parentElement.clientHeight} ${getComputedStyle(s).fontSize}`),
    turn: turn && shown(turn) ? {...box(turn), text: turn.textContent, clipped: turn.scrollWidth > turn.clientWidth + 1
      || turn.scrollHeight > turn.clientHeight + 1} : null,
    buttons: dialogs.flatMap((d) => [...d.querySelectorAll('button, a.button')].filter(shown)
      .map((b) => ({name: name(b), ...box(b)}))),
  };
}"""


def layout(page) -> dict:
    return page.evaluate(LAYOUT)


def check_fits(page, viewport: dict, what: str) -> dict:
    """No sideways scrolling: the page is no wider than the screen (and the screen was not zoomed out to
    show a wider page)."""
    got = layout(page)
    assert got["innerWidth"] == viewport["width"], (what, got["innerWidth"])
    assert got["scrollWidth"] <= got["innerWidth"], (what, got["scrollWidth"], got["wider"])
    assert not got["clipped"], (what, "slot labels cut", got["clipped"])
    return got


def check_table(page, viewport: dict, what: str) -> None:
    """The table while playing: fits, the hand is the largest set of cards and a finger wide, the turn
    readable and on screen, at the top of the page and at its bottom (a sticky header)."""
    got = check_fits(page, viewport, what)
    assert got["hand"] and min(got["hand"]) >= FINGER, (what, got["hand"])
    assert min(got["hand"]) >= max(got["others"]), (what, got["hand"], got["others"])
    for end in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {end})")
        turn = layout(page)["turn"]
        assert turn and turn["text"].strip(), (what, turn)
        assert not turn["clipped"], (what, turn)
        assert turn["width"] >= 0.6 * viewport["width"], (what, turn)
        assert turn["top"] >= 0 and turn["bottom"] <= viewport["height"], (what, end, turn)
        assert turn["left"] >= 0 and turn["right"] <= viewport["width"], (what, turn)
    page.evaluate("window.scrollTo(0, 0)")


def check_buttons(page, viewport: dict, what: str, at_least: int = 1) -> None:
    """A dialog is up: its buttons lie inside the screen, without scrolling."""
    got = check_fits(page, viewport, what)
    buttons = got["buttons"]
    assert len(buttons) >= at_least, (what, buttons)
    for b in buttons:
        assert b["left"] >= 0 and b["top"] >= 0, (what, b)
        assert b["right"] <= viewport["width"] and b["bottom"] <= viewport["height"], (what, b)


def tap(page, selector: str) -> None:
    page.locator(selector).first.tap()


def phone(pages, viewport):
    return pages.new(viewport=viewport, touch=True)


def on_each_phone(page, check, *args) -> None:
    """Run `check(page, size, *args)` at each phone size (the page resized, as a phone turned to another
    model would be), then give the page its first size back."""
    first = page.viewport_size
    for size in SIZES:
        page.set_viewport_size(size)
        check(page, size, *args)
    page.set_viewport_size(first)


def join_by_taps(page, url: str, nickname: str, viewport: dict) -> None:
    page.goto(url)
    expect(page.locator("#join")).to_be_enabled()
    check_buttons(page, viewport, "join overlay")
    page.fill("#nickname", nickname)
    tap(page, "#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    page.wait_for_selector("#hand .card")


# ---------------------------------------------------------------- the table, 2 to 6 players, long names
@pytest.mark.parametrize("viewport", PHONES)
@pytest.mark.parametrize(
    "ruleset,players", [("classic", 2), ("classic", 3), ("classic", 4), ("family", 4), ("family", 6), ("classic", 6)]
)
def test_the_table_fits_a_phone(server, pages, viewport, ruleset, players):
    """Every seat human with a nickname of 24 characters; the others join through the socket."""
    made = create_table(server, {"ruleset": ruleset, "players": players, "seats": [{"kind": "human"}] * players})
    page = phone(pages, viewport)
    page.goto(server + made["seats"][0]["url"])
    expect(page.locator("#join")).to_be_enabled()
    sockets = [join_by_socket(server, made, seat, LONG[seat % len(LONG)]) for seat in range(1, players)]
    try:
        page.fill("#nickname", LONG[0])
        tap(page, "#join")
        expect(page.locator("#turn")).to_have_attribute("data-status", "playing")
        page.wait_for_selector("#hand .card")
        expect(page.locator(".tableau")).to_have_count(
            players // 2 if players in (4, 6) and ruleset == "classic" else players
        )
        check_table(page, viewport, f"{ruleset} {players}")
    finally:
        for ws in sockets:
            ws.close()


# ---------------------------------------------------------------- a whole hand by taps
def test_a_hand_by_taps(server, pages):
    """The CLASSIC_HEAD hand between two phones, Ann's 360x640 and Bob's 390x844: a coup fourré, the draw,
    the extension prompt, the end-of-hand panel; every move a tap; each dialog checked at both sizes."""
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
    ann, bob = phone(pages, SIZES[0]), phone(pages, SIZES[1])
    join_by_taps(ann, urls[0], LONG[0], SIZES[0])
    join_by_taps(bob, urls[1], LONG[1], SIZES[1])
    wait_turn(ann, "play")
    check_table(ann, SIZES[0], "Ann's turn")
    check_table(bob, SIZES[1], "Bob waits")

    play(ann, "roll", tap=True)
    play(bob, "flat-tire", ".tableau[data-side='0']", tap=True)
    expect(ann.locator("#cf-dialog")).to_be_visible()
    on_each_phone(ann, check_buttons, "coup fourré", 2)
    tap(ann, "#cf-yes")
    expect(ann.locator("#cf-dialog")).to_be_hidden()
    expect(ann.locator(".tableau.mine .card.coup-fourre[data-card='puncture-proof']")).to_have_count(1)
    on_each_phone(ann, check_table, "after the coup fourré")

    play(ann, "200", tap=True)
    play(bob, "75", "#discard", tap=True)
    wait_turn(ann, "draw", LAST[id(ann)])
    LAST[id(ann)] = seq(ann)
    tap(ann, "#stock")
    for page, card in [(ann, "200"), (bob, "roll"), (ann, "100"), (bob, "25"), (ann, "100"), (bob, "50"), (ann, "100")]:
        play(page, card, tap=True)

    expect(ann.locator("#ext-dialog")).to_be_visible()
    on_each_phone(ann, check_buttons, "extension", 2)
    tap(ann, "#ext-no")
    for page in (ann, bob):
        over = page.locator("#hand-over")
        expect(over).to_be_visible()
        expect(over.locator("tr.total")).to_contain_text("1,500")
    on_each_phone(ann, check_buttons, "end of hand")
    tap(bob, "#hand-over-close")
    expect(bob.locator("#hand-over")).to_be_hidden()
    expect(bob.locator("#table-info")).to_contain_text("Hand 2")  # the next hand is dealt
    # the widest header: French words and the last hand's button
    bob.select_option("#lang", "fr")
    expect(bob.locator("#last-hand")).to_be_visible()
    expect(bob.locator("#table-info")).to_contain_text("Manche 2")
    on_each_phone(bob, check_table, "in French, after a hand")


# ---------------------------------------------------------------- home, invites, match over, replay, history
def test_home_match_over_and_replay_fit(server, pages):
    """One phone, every page and state checked at both sizes: the home page (with the invite links, then
    the finished games), the join overlay, a match against a bot to its match-over panel, the replay."""
    page = phone(pages, SIZES[0])
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    on_each_phone(page, check_fits, "home")
    page.select_option("#players", "4")
    for seat in (1, 2, 3):
        page.select_option(f"select.seat-kind[data-seat='{seat}']", "human")
    tap(page, "#create")
    expect(page.locator("#invites")).to_be_visible()
    on_each_phone(page, check_fits, "home with the invite links")

    # a one-race dujardin match against a bot, by taps: the match-over panel
    made = create_table(
        server,
        {
            "ruleset": "dujardin",
            "players": 2,
            "public": True,  # listed in the history
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
            "deck": stacked("dujardin", 2, DUJARDIN_HEAD),
        },
    )
    page.goto(server + made["seats"][0]["url"])
    expect(page.locator("#join")).to_be_enabled()
    on_each_phone(page, check_buttons, "join overlay")
    page.fill("#nickname", LONG[1])
    tap(page, "#join")
    page.wait_for_selector("#hand .card")
    on_each_phone(page, check_table, "against a bot")
    for card in DUJARDIN_WIN:
        play(page, card, tap=True)
    expect(page.locator("#match-over")).to_be_visible()
    on_each_phone(page, check_buttons, "match over", 3)

    tap(page, "#match-replay")
    page.wait_for_url(re.compile(r"/replay/"))
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    on_each_phone(page, check_fits, "replay, the deal")
    tap(page, "#next")
    tap(page, "#next")
    expect(page.locator("#step")).to_contain_text("Move 2 of")
    tap(page, "#last")
    expect(page.locator("#replay-scores")).to_contain_text("Winner")
    on_each_phone(page, check_fits, "replay, the end")
    on_each_phone(page, check_replay_buttons)

    page.goto(server + "/")
    expect(page.locator(f"#history a.replay-link[data-table='{made['id']}']")).to_have_count(1)
    on_each_phone(page, check_fits, "home with the finished games")


def check_replay_buttons(page, viewport: dict) -> None:
    for button in ("#first", "#prev", "#next", "#last", "#step-range"):
        b = page.locator(button).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= viewport["width"], (button, b)


# ---------------------------------------------------------------- choosing a card: my tableau in sight, a held finger
# Classic for three: Ann holds Roll and distance; the bots hold distance only and cannot stop her.
ANN = ["roll", "200", "25", "50", "100", "75"]
BOT = ["25", "50", "75", "25", "50", "75"]
HEAD = ANN + BOT + BOT + ["75", "25", "50", "25", "75", "50", "25", "75", "50"]


def against_bots_on_a_phone(server, pages):
    page = phone(pages, SIZES[0])
    against_bots(server, page, HEAD)
    return page


def test_my_tableau_shows_above_the_hand_while_i_choose(server, pages):
    """The hand's sheet covers my tableau while I choose: its battle and speed piles, distance and safeties show in
    small above the hand, inside the sheet; on a wider screen the tableau itself is in sight and the strip is not."""
    page = against_bots_on_a_phone(server, pages)
    brief = page.locator("#me-brief")
    expect(brief).to_be_visible()
    expect(brief.locator(".brief-km")).to_have_text("0 / 700")
    before = seq(page)
    play(page, "roll", tap=True)
    mine_again(page, before)
    expect(brief.locator(".brief-pile").first.locator(".card[data-card='roll']")).to_have_count(1)
    if page.get_attribute("#turn", "data-decision") == "draw":
        before = seq(page)  # read before the tap: the answer may come before a read after it
        tap(page, "#stock")
        wait_turn(page, "play", before)
    tap(page, "#hand .card[data-card='200']")
    expect(page.locator("#moves button").first).to_be_visible()
    box, hand, sheet = (page.locator(s).bounding_box() for s in ("#me-brief", "#hand", ".hand-box"))
    assert sheet["y"] <= box["y"] and box["y"] + box["height"] <= hand["y"] + 1, (box, hand, sheet)
    check_table(page, SIZES[0], "choosing, my tableau above the hand")
    page.set_viewport_size({"width": 1024, "height": 768})
    expect(brief).to_be_hidden()


def test_a_finger_held_on_a_card_shows_its_help_and_chooses_nothing(server, pages):
    page = against_bots_on_a_phone(server, pages)
    card = page.locator("#hand .card[data-card='200']").first
    b = card.bounding_box()
    touch = page.context.new_cdp_session(page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": b["x"] + 20, "y": b["y"] + 30}]}
    )
    expect(page.locator("#card-help")).to_contain_text("200 miles:")
    page.wait_for_timeout(700)  # a long press: longer than a tap by its nature
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#card-help")).to_contain_text("200 miles:")  # its help stays to be read
    page.wait_for_timeout(300)  # the click a browser sends after the lift, if any, has come
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    tap(page, "#hand .card[data-card='200']")  # a tap chooses
    expect(page.locator("#hand .card.selected[data-card='200']")).to_have_count(1)


def test_a_name_on_the_phone_score_sheet_breaks_between_words_only(server, pages):
    """The match's score sheet on a phone: a name of several words wraps between them; a single long word is cut
    short on screen, its whole text kept for a screen reader; no heading breaks inside a word ("Manch/e")."""
    page = phone(pages, SIZES[0])
    for nickname, lang in (("Maximiliansternwolkenxyz", "fr"), ("Wilhelmina Wolkenstein W", "en")):
        made = create_table(
            server,
            {
                "ruleset": "dujardin",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
                "deck": stacked("dujardin", 2, DUJARDIN_HEAD),
            },
        )
        LAST.pop(id(page), None)  # a new table: its steps count from 0 again
        join_by_taps(page, server + made["seats"][0]["url"], nickname, SIZES[0])
        page.select_option("#lang", lang)
        for card in DUJARDIN_WIN:
            play(page, card, tap=True)
        expect(page.locator("#match-over")).to_be_visible()
        broken = page.evaluate(
            """() => [...document.querySelectorAll('#match-over th')].flatMap((th) => {
                 const words = [], walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
                 for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                   for (const m of n.textContent.matchAll(/\\S+/g)) {
                     const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
                     const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
                     if (lines.size > 1) words.push(m[0]);
                   }
                 }
                 return words; })"""
        )
        assert broken == [], (nickname, broken)
        head = page.locator("#match-over thead th .side-head").first
        expect(head).to_have_text(nickname)  # all of it, for a screen reader
        check_fits(page, SIZES[0], f"the score sheet of {nickname}")
