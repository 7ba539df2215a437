"""The browser pages, end to end: a real `millebornes serve` and Debian's Chromium driven by Playwright.

Every move is a click on the page hooks of docs/web.md. Skipped where Playwright or /usr/bin/chromium is missing.
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
    LAST,
    XSS,
    browser,
    create_table,
    join,
    pages,
    play,
    seq,
    server,
    stacked,
    wait_turn,
    won_dujardin_match,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]


# ---------------------------------------------------------------- 1. two humans, a whole hand by clicks
def test_two_humans_play_a_hand_with_a_coup_fourre(server, pages):
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
    ann, bob = pages.new(), pages.new()
    join(ann, urls[0], "Ann")
    expect(ann.locator("#turn")).to_have_attribute("data-status", "waiting")
    join(bob, urls[1], "Bob")
    wait_turn(ann, "play")
    expect(ann.locator(".tableau.mine")).to_have_attribute("data-side", "0")
    expect(ann.locator(".tableau[data-side='1'] .nick")).to_have_text("Bob")
    expect(ann.locator("#hand .card")).to_have_count(7)

    # an illegal click is explained: distance before the first Roll
    ann.click("#hand .card[data-card='200']")
    ann.click(".tableau.mine")
    expect(ann.locator("#message")).to_contain_text("Roll first")
    expect(ann.locator("#message")).to_have_class(re.compile("error"))
    expect(ann.locator(".tableau.mine .progress")).to_have_attribute("title", "0 / 700")

    play(ann, "roll")
    play(bob, "flat-tire", ".tableau[data-side='0']")

    # the coup fourré: a prompt with a countdown, answered yes
    expect(ann.locator("#cf-dialog")).to_be_visible()
    expect(ann.locator("#cf-countdown")).to_have_text(re.compile(r"^\d+ s$"))
    expect(ann.locator("#cf-text")).to_contain_text("Flat Tire")
    ann.click("#cf-yes")
    expect(ann.locator("#cf-dialog")).to_be_hidden()
    expect(ann.locator(".tableau.mine .safeties .card.coup-fourre[data-card='puncture-proof']")).to_have_count(1)
    expect(bob.locator("#log")).to_contain_text("Coup fourré! Ann laid Puncture-Proof against Bob's Flat Tire.")
    expect(bob.locator("#log li").filter(has_text="Bob played Flat Tire on Ann.")).to_have_count(1)

    play(ann, "200")
    # Bob's connection drops: the page reconnects by itself and sends join again with its token
    bob.evaluate("window.millebornes.socket().close()")
    expect(bob.locator("#message")).to_have_text("Connected again.")
    play(bob, "75", "#discard")
    expect(bob.locator("#message")).to_be_empty()

    # the draw decision: the discard could be taken; Ann draws from the stock instead
    wait_turn(ann, "draw", LAST[id(ann)])
    expect(ann.locator("#discard")).to_have_class(re.compile("target-ok"))
    LAST[id(ann)] = seq(ann)
    ann.click("#stock")
    play(ann, "200")
    play(bob, "roll")
    play(ann, "100")
    play(bob, "25")
    play(ann, "100")
    play(bob, "50")
    play(ann, "100")
    expect(ann.locator(".tableau.mine .progress")).to_have_attribute("title", "700 / 700")

    # 700: the extension choice; Ann ends the hand
    expect(ann.locator("#ext-dialog")).to_be_visible()
    ann.click("#ext-no")
    for page in (ann, bob):
        over = page.locator("#hand-over")
        expect(over).to_be_visible()
        expect(over).to_contain_text("End of hand 1")
        expect(over.locator("tr[data-item='coups_fourres']")).to_contain_text("300")
        expect(over.locator("tr[data-item='trip']")).to_contain_text("400")
        expect(over.locator("tr.total")).to_contain_text("1,500")
        expect(over.locator("tr.total")).to_contain_text("75")
    expect(bob.locator("#log")).to_contain_text("Ann ends the hand.")
    expect(bob.locator("#log")).to_contain_text("Hand 1 over: Ann 1,500, Bob 75.")

    # the same log and breakdown in French, card names as docs/rules.md §1 gives them
    bob.select_option("#lang", "fr")
    expect(bob.locator("#log")).to_contain_text("Bob a joué Crevaison sur Ann.")
    expect(bob.locator("#hand-over")).to_contain_text("Voyage terminé")
    bob.click("#hand-over-close")
    expect(bob.locator("#hand-over")).to_be_hidden()
    # the next hand is dealt
    expect(ann.locator("#table-info")).to_contain_text("Hand 2")


# ---------------------------------------------------------------- 2. a table with a bot, made on the home page
def test_bot_table_from_the_home_page(server, pages):
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#ruleset", "classic")
    page.select_option("#players", "2")
    page.select_option("select.seat-kind[data-seat='1']", "medium")
    page.click("#create")
    page.click("a.invite[data-seat='0']")
    page.fill("#nickname", "Solo")
    page.click("#join")
    page.wait_for_selector("#hand .card")

    hinted = False
    mine = 0
    last = -1
    while mine < 8 or page.locator("#log li").count() < 12:
        page.wait_for_function(
            """(after) => { const t = document.querySelector('#turn');
                 return (t.dataset.mine === '1' && Number(t.dataset.seq) > after)
                        || !document.querySelector('#hand-over').hidden || t.dataset.decision === ''; }""",
            arg=last,
        )
        if page.locator("#hand-over").is_visible():
            page.click("#hand-over-close")
            break
        last = seq(page)
        decision = page.get_attribute("#turn", "data-decision")
        if not hinted and decision == "play":
            page.click("#hint-button")
            expect(page.locator("#hints li[data-action]").first).to_be_visible(timeout=20_000)
            hinted = True
        if decision == "draw":
            page.click("#stock")
        elif decision == "coup-fourre":
            page.click("#cf-yes")
        elif decision == "extension":
            page.click("#ext-no")
        else:
            playable = page.locator("#hand .card.playable")
            if playable.count():
                playable.first.click()
                target = page.locator(".tableau.target-ok")
                if target.count():
                    target.first.click(position={"x": 8, "y": 8})
                else:
                    page.click("#discard")
            else:
                page.click("#hand .card >> nth=0")
                page.click("#discard")
        mine += 1
    assert mine >= 8 or page.locator("#hand-over").count()
    assert page.locator("#log li").count() >= 12
    expect(page.locator(".tableau[data-side='1'] .nick")).to_have_text(
        "Bot 2 (medium)"
    )  # seats count from 1 for people


# ---------------------------------------------------------------- 3. French
def test_french_card_names_and_messages(server, pages):
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lang", "fr")
    expect(page.locator("#create")).to_have_text("Créer la table")
    expect(page.locator("#fan .card[data-card='flat-tire']")).to_have_attribute("title", "Crevaison")
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    join(page, server + made["seats"][0]["url"], "Zoé")  # the language is remembered (localStorage)
    expect(page.locator("#hand .card[data-card='roll']")).to_have_attribute("title", "Feu vert")
    expect(page.locator("#hand .card[data-card='roll'] svg")).to_contain_text("Feu vert")
    expect(page.locator("#hand .card[data-card='puncture-proof']")).to_have_attribute("title", "Increvable")
    wait_turn(page, "play")
    expect(page.locator("#turn")).to_have_text("À vous : jouez ou défaussez une carte")
    page.click("#hand .card[data-card='200']")
    page.click(".tableau.mine")
    expect(page.locator("#message")).to_contain_text("Interdit")
    expect(page.locator("#message")).to_contain_text("Feu vert")  # "Roll" named in French
    page.select_option("#lang", "en")
    expect(page.locator("#hand .card[data-card='roll']")).to_have_attribute("title", "Roll")
    expect(page.locator("#message")).to_contain_text("you need a Roll first")


# ---------------------------------------------------------------- 4. nicknames are text, never markup
def test_nicknames_are_escaped(server, pages):
    a = pages.new()
    a.goto(server + "/")
    a.wait_for_selector("body[data-ready='1']")
    a.select_option("#players", "2")
    a.select_option("select.seat-kind[data-seat='1']", "human")
    a.click("#create")
    invite = a.get_attribute("a.invite[data-seat='1']", "href")
    a.click("a.invite[data-seat='0']")
    a.fill("#nickname", XSS)
    a.click("#join")
    a.wait_for_selector("#hand .card")
    expect(a.locator("#turn")).to_have_attribute("data-status", "waiting")
    b = pages.new()
    join(b, invite, "Bea")
    for page in (a, b):
        expect(page.locator(".tableau[data-side='0'] .nick")).to_have_text(XSS)
        assert page.locator("img").count() == 0
        assert page.evaluate("window.X") is None
    expect(b.locator("#turn")).to_contain_text(XSS)
    b.click("#hand .card >> nth=0")
    b.click("#discard")
    expect(b.locator("#message")).to_contain_text("not your turn")
    assert b.evaluate("window.X") is None


# ---------------------------------------------------------------- 5. match end, history and the replay viewer
def test_match_end_history_and_replay(server, pages):
    page, made = won_dujardin_match(server, pages)
    over = page.locator("#match-over")
    expect(over).to_contain_text("Winner: Ann")
    expect(page.locator("#turn")).to_have_text("The match is over")

    page.click("#match-replay")
    page.wait_for_url(re.compile(r"/replay/"))
    expect(page.locator("#step")).to_contain_text("The deal")
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    expect(page.locator("#hands .seat-hand[data-seat='0'] .card")).to_have_count(7)  # dealt 6, drew 1
    expect(page.locator("#hands .seat-hand[data-seat='1'] .card[data-card='75']")).to_have_count(1)
    page.click("#next")
    expect(page.locator("#step")).to_contain_text("Move 1 of")
    expect(page.locator("#move")).to_have_text("Ann: Play Roll")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step")).to_contain_text("Move 2 of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step")).to_contain_text("Move 1 of")
    page.click("#last")
    expect(page.locator("#replay-scores")).to_contain_text("Winner: Ann")
    expect(page.locator(".tableau[data-side='0'] .progress")).to_have_attribute("title", "1000 / 1000")
    expect(page.locator("#next")).to_be_disabled()
    page.click("#first")
    expect(page.locator("#step")).to_contain_text("The deal")

    page.goto(server + "/")
    link = page.locator(f"#history a.replay-link[data-table='{made['id']}']")
    expect(link).to_have_count(1)
    expect(page.locator("#history")).to_contain_text("Ann")


# ---------------------------------------------------------------- the invite link's token, names, the page's policy
def test_the_token_leaves_the_address_and_names_stand_apart(server, pages):
    """The token moves from the address bar to the tab's sessionStorage (a reload finds it there); a name
    written right to left stands in its own <bdi>; the pages run under their Content-Security-Policy."""
    made = create_table(
        server, {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "cf_timeout": 3}
    )
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    ann, bob = pages.new(), pages.new()
    join(ann, urls[0], "Ann")
    assert "token" not in ann.url and ann.evaluate("location.hash") == ""
    kept = ann.evaluate(f"JSON.parse(sessionStorage.getItem('millebornes.seat.{made['id']}'))")
    # the first join replaced the invite's token: the tab keeps the new one (a reload, below, takes the seat)
    assert kept["seat"] == 0 and kept["used"] == urls[0].split("token=")[1] and len(kept["token"]) >= 32
    assert kept["token"] != kept["used"]
    join(bob, urls[1], "אבג 2")
    nick = ann.locator(".tableau[data-side='1'] bdi.nick")
    expect(nick).to_have_text("אבג 2")
    ann.reload()
    expect(ann.locator("#join-overlay")).to_be_hidden()
    ann.wait_for_selector("#hand .card")
    expect(ann.locator(".tableau[data-side='1'] bdi.nick")).to_have_text("אבג 2")
    assert "token" not in ann.url
    # Ann's own invite link, opened again in another tab of her browser, takes her seat with its new token
    again = ann.context.new_page()
    again.goto(urls[0])
    again.wait_for_selector("#hand .card")
    again.close()
    # the creator's copy of Bob's invite link opens nothing once Bob sat down: no hand, the words of msg.auth
    creator = ann.context.new_page()
    creator.goto(urls[1])
    creator.fill("#nickname", "Eve")
    creator.click("#join")
    expect(creator.locator("#join-error")).to_contain_text("it is wrong, or it was used already")
    expect(creator.locator("#hand .card")).to_have_count(0)
    creator.close()
    for path in ("/", f"/replay/{made['id']}"):
        ann.goto(server + path)
        ann.wait_for_load_state("networkidle")  # the pages fixture fails the test on any blocked load
