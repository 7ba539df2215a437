"""The table page by keyboard alone, as a screen-reader user meets it: a whole stacked hand of classic for two,
both players pressing keys only (the terminal game's keys, Tab and Enter; never a click or a tap), the join form
too. Along the way: the move bar offers named buttons, the coup-fourré dialog has the focus when it opens, the
focus never falls to <body> after a move, the opponent's moves are told in words in the polite live region, a
refusal in the alert region, and cards, piles and tableaux have names that say what they are and how many.

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
    DUJARDIN_HEAD,
    browser,
    create_table,
    pages,
    seq,
    server,
    stacked,
    wait_turn,
)

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

FOCUSED = "(() => { const a = document.activeElement; return a && a !== document.body ? (a.id || a.className || a.tagName) : ''; })()"


def join_by_keyboard(page, url: str, nickname: str) -> None:
    """Tab to the nickname, type it, Enter: the focus then lands in the hand."""
    page.goto(url)
    nick = page.locator("#nickname")
    expect(nick).to_be_enabled()
    for _ in range(6):
        if page.evaluate("document.activeElement?.id") == "nickname":
            break
        page.keyboard.press("Tab")
    expect(nick).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type(nickname)
    page.keyboard.press("Enter")
    expect(page.locator("#join-overlay")).to_be_hidden()
    page.wait_for_selector("#hand .card")
    expect(page.locator("#hand .card[tabindex='0']")).to_be_focused()


def key_of(page, card: str) -> str:
    """The number key of a card in the hand (1 for the first)."""
    hand = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    return str(hand.index(card) + 1)


def focus_kept(page) -> None:
    """After a move the focus is somewhere sensible (the hand, a dialog), never on <body>."""
    page.wait_for_function(f"() => {FOCUSED} !== ''")


class Player:
    def __init__(self, page):
        self.page = page
        self.last = -1

    def turn(self, decision: str) -> None:
        wait_turn(self.page, decision, self.last)
        self.last = seq(self.page)

    def play(self, card: str, key: str = "p", wait: bool = True) -> None:
        """On the next play decision: the card's number, then p (my side), d (discard) or a side number."""
        if wait:
            self.turn("play")
        self.page.keyboard.press(key_of(self.page, card))
        expect(self.page.locator(f"#hand .card.selected[data-card='{card}']")).to_have_count(1)
        self.page.keyboard.press(key)
        focus_kept(self.page)


def moves(page) -> list[str]:
    return [
        b.strip()
        for b in page.locator("#moves button").evaluate_all(
            "bs => bs.map(b => [...b.childNodes].filter(n => !(n.tagName === 'KBD')).map(n => n.textContent).join(''))"
        )
    ]


def test_a_whole_hand_by_keyboard(server, pages):
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
    a, b = pages.new(), pages.new()
    ann, bob = Player(a), Player(b)
    join_by_keyboard(a, urls[0], "Ann")
    join_by_keyboard(b, urls[1], "Bob")
    b.emulate_media(reduced_motion="reduce")  # Bob asks for less motion: the card just played is highlighted, still

    # names that say what each thing is and how many
    ann.turn("play")
    expect(a.locator("#hand")).to_have_attribute("aria-label", "Your hand: 7 cards")
    expect(a.locator("#hand .card[data-card='puncture-proof']")).to_have_accessible_name("Puncture-Proof, safety")
    expect(a.locator("#hand .card[data-card='200']").first).to_have_accessible_name("200 miles, distance")
    expect(b.get_by_role("button", name="Flat Tire, hazard", exact=True)).to_have_attribute("data-card", "flat-tire")
    expect(a.get_by_role("button", name="Stock, 88 cards", exact=True)).to_have_id("stock")
    expect(a.locator("#discard")).to_have_accessible_name("Discard pile, empty")
    expect(a.locator(".tableau[data-side='1']")).to_have_attribute(
        "aria-label",
        "Bob's side: battle pile empty, speed pile empty, safeties: none, 0 of 700 miles, 0 points. "
        "Bob: 6 cards in hand.",
    )
    expect(a.locator(".tableau.mine")).to_have_attribute(
        "aria-label", re.compile(r"^Your side \(Ann\): battle pile empty")
    )
    assert a.locator("#hand .card svg[aria-hidden='true']").count() == 7
    expect(a.locator("#table-info")).to_contain_text("Target 700")
    expect(a.locator("#table-info")).to_contain_text("Match to 5,000")
    expect(a.locator(".tableau[data-side='1'] .nick")).to_have_text("Bob")
    expect(a.get_by_role("group", name="Your moves")).to_contain_text("Choose a card: keys 1 to 7")

    # keys with a modifier do nothing; a card chosen offers its moves as named buttons
    a.keyboard.press("Alt+6")
    expect(a.locator("#hand .card.selected")).to_have_count(0)
    a.keyboard.press(key_of(a, "roll"))
    expect(a.locator("#hand .card[data-card='roll']")).to_be_focused()
    expect(a.locator("#hand .card[data-card='roll']")).to_have_attribute("aria-pressed", "true")
    assert moves(a) == ["Play on my side", "Discard", "Back"]
    expect(a.locator("#announce")).to_contain_text("Roll chosen. Play on my side: key p; Discard: key d")
    a.keyboard.press("Escape")
    expect(a.locator("#hand .card.selected")).to_have_count(0)

    # an illegal choice is explained, in the alert region too: distance before the first Roll
    a.keyboard.press(key_of(a, "200"))
    a.keyboard.press("p")
    expect(a.locator("#message")).to_contain_text("Roll first")
    expect(a.locator("#sr-alert")).to_contain_text("Roll first")
    focus_kept(a)

    # Roll, from the move bar: Tab to its button, Enter
    a.keyboard.press(key_of(a, "roll"))
    a.keyboard.press("Tab")
    expect(a.get_by_role("button", name="Play on my side")).to_be_focused()
    a.keyboard.press("Enter")
    focus_kept(a)
    expect(a.locator(".tableau.mine .battle .card[data-card='roll'].landed")).to_have_count(1)
    expect(b.locator("#announce")).to_contain_text("Ann played Roll.")
    landed = ".tableau[data-side='0'] .battle .card.landed[data-card='roll']"
    assert a.eval_on_selector(landed, "n => getComputedStyle(n).animationName") == "landed"
    assert b.eval_on_selector(landed, "n => getComputedStyle(n).animationName") == "none"
    assert "255, 213, 79" in b.eval_on_selector(landed, "n => getComputedStyle(n).boxShadow")

    # Bob: Flat Tire, then a attacks Ann, his one opponent (a number key would choose a card)
    bob.turn("play")
    expect(b.locator("#announce")).to_contain_text("You drew 25 miles.")
    b.keyboard.press(key_of(b, "flat-tire"))
    assert moves(b) == ["Attack Ann", "Discard", "Back"]
    expect(b.locator("#moves button[data-action='play flat-tire 0']")).to_have_attribute("aria-keyshortcuts", "a")
    b.keyboard.press("a")
    focus_kept(b)

    # the coup fourré: the dialog has the focus at once (its primary button); y answers it
    cf = a.locator("#cf-dialog")
    expect(cf).to_be_visible()
    expect(a.locator("#cf-yes")).to_be_focused()
    expect(cf).to_have_attribute("aria-modal", "true")
    expect(a.get_by_role("alertdialog", name="Coup fourré!")).to_be_visible()
    expect(a.locator("#announce")).to_contain_text("Bob played Flat Tire on Ann.")
    a.keyboard.press("y")
    expect(cf).to_be_hidden()
    focus_kept(a)
    expect(a.locator("#hand .card[tabindex='0']")).to_be_focused()  # back to the hand, where Ann was
    expect(b.locator("#announce")).to_contain_text("Coup fourré! Ann laid Puncture-Proof against Bob's Flat Tire.")
    expect(b.locator(".tableau[data-side='0']")).to_have_attribute(
        "aria-label",
        re.compile(
            r"^Ann's side: battle pile Roll, speed pile empty, safeties: Puncture-Proof \(coup fourré\), "
            r"0 of 700 miles, 0 points\."
        ),
    )

    ann.play("200")
    bob.play("75", "d")
    expect(a.locator("#discard")).to_have_accessible_name("Discard pile, top: 75 miles, 2 cards")
    expect(a.locator("#discard .card.landed[data-card='75']")).to_have_count(1)
    expect(a.locator("#log li").last).to_have_text("Bob discarded 75 miles.")

    # the draw decision: the move bar offers both, s draws from the stock
    ann.turn("draw")
    assert moves(a) == ["Draw from the stock", "Take 75 miles from the discard"]
    a.keyboard.press("s")
    focus_kept(a)

    # a hint by h: the recommended move (the search's choice) first, marked; the others by the chance they show; and
    # what its percentages mean (classic plays a match to 5,000)
    ann.turn("play")
    a.keyboard.press("h")
    expect(a.locator("#hints li[data-rank='1']")).to_be_visible(timeout=20_000)
    expect(a.locator("#hints-note")).to_contain_text("chances to win the hand and the match, by the search")
    hints = a.evaluate("window.millebornes.state().hints.actions")
    others = sorted(range(1, len(hints)), key=lambda i: (-hints[i]["match_chance"], i))
    assert a.locator("#hints li").evaluate_all("ls => ls.map(l => l.dataset.action)") == [
        hints[i]["action"] for i in [0, *others]
    ]
    expect(a.locator("#hints li").first).to_have_class("best")
    expect(a.locator("#hints li.best")).to_have_attribute("data-action", hints[0]["action"])  # the search's choice
    expect(a.locator("#hints li.best .hint-mark")).to_have_text("Recommended:")
    expect(a.locator(".hint-mark")).to_have_count(1)
    verb, *rest = hints[0]["action"].split(" ")
    if verb in ("play", "discard"):
        expect(a.locator(f"#hand .card.hinted[data-card='{rest[0]}'] .hint-tag")).to_have_text("Hint")
        expect(a.locator("#hand .card.hinted")).to_have_count(1)
    expect(a.locator("#hints li[data-rank='1'] .hint-chance")).to_have_text(re.compile(r"^hand \d+%, match \d+%$"))
    expect(a.locator("#announce")).to_contain_text(
        re.compile(r"Hint: .*chance to win the hand, \d+% to win the match\.")
    )

    ann.play("200", wait=False)
    bob.play("roll")
    ann.play("100")
    bob.play("25")
    ann.play("100")
    bob.play("50")
    ann.play("100")

    # 700: the extension dialog takes the focus; n ends the hand
    ext = a.locator("#ext-dialog")
    expect(ext).to_be_visible()
    expect(a.locator("#ext-yes")).to_be_focused()
    a.keyboard.press("n")
    for page in (a, b):
        over = page.get_by_role("dialog", name="End of hand 1")
        expect(over).to_be_visible()
        expect(page.locator("#hand-over-close")).to_be_focused()
        expect(over.locator("tr.total")).to_contain_text("1,500")
    expect(b.locator("#announce")).to_contain_text("Ann ends the hand.")
    expect(b.locator("#announce")).to_contain_text("Hand 1 over: Ann 1,500, Bob 75.")
    # Esc closes the panel and gives the focus back
    for page in (a, b):
        page.keyboard.press("Escape")
        expect(page.locator("#hand-over")).to_be_hidden()
        focus_kept(page)
    expect(a.locator("#table-info")).to_contain_text("Hand 2")
    # each event was told once: the announcements are not the whole log again
    told = b.locator("#announce p").all_text_contents()
    assert told.count("Ann ends the hand.") == 1
    notation = re.compile(r"\b(play|discard) (\d|[a-z]+-)|take-discard|coup-fourre|end-hand|flat-tire")
    assert not [line for line in told if notation.search(line)], told


def test_one_race_in_french_by_keyboard(server, pages):
    """Dujardin is one race (no match goal in the header); the names and the move bar speak French; seats count
    from 1 (the bot is seat 1, "Robot 2")."""
    made = create_table(
        server,
        {
            "ruleset": "dujardin",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
            "deck": stacked("dujardin", 2, DUJARDIN_HEAD),
        },
    )
    page = pages.new()
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('millebornes.lang', 'fr')")
    join_by_keyboard(page, server + made["seats"][0]["url"], "Zoé")
    zoe = Player(page)
    zoe.turn("play")
    expect(page.locator("#table-info")).to_contain_text("Objectif 1\u202f000")
    expect(page.locator("#table-info")).not_to_contain_text("Partie en")
    expect(page.locator("#hand .card[data-card='roll']")).to_have_accessible_name("Feu vert, parade")
    # French answers oui with o: the keys panel says so
    page.click("#keys-button")
    expect(page.locator("#keys-list")).to_contain_text("o / n")
    expect(page.locator("#cf-yes kbd")).to_have_text("o")
    page.click("#keys-button")
    expect(page.locator(".tableau[data-side='1']")).to_have_attribute(
        "aria-label",
        re.compile(
            "^Robot 2 \\(moyen\\)\u00a0: pile de bataille vide, pile de vitesse vide, bottes\u00a0: aucune, 0 sur 1\u202f000\u00a0bornes"
        ),
    )
    page.keyboard.press(key_of(page, "roll"))
    assert moves(page) == ["Jouer dans mon jeu", "Défausser", "Retour"]
    page.keyboard.press("p")
    focus_kept(page)
    zoe.play("200")
    expect(page.locator("#announce")).to_contain_text("Zoé a joué 200 bornes.")
