"""Motion at the table: every seat's move travels (bots' included) as a flying copy that lets every click
through, a hazard marks the tableau it hit, a coup fourré and a completed trip get their moment; with reduced
motion nothing flies; the game's sounds are off by default, remembered, and sound only when turned on.

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import (  # noqa: E402,F401
    CHROMIUM,
    DUJARDIN_WIN,
    against_bots,
    browser,
    classic_hand_by_clicks,
    dujardin_against_a_bot,
    mine_again,
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

# What the page does, as it does it: each flying copy (its card, whether it lets the pointer through, whether it
# moves), each mark on a tableau and each moment.
RECORD = """() => {
  const seen = { flights: [], marks: [], moments: [] };
  window.__seen = seen;
  new MutationObserver((ms) => {
    for (const m of ms) {
      if (m.type === "childList") for (const n of m.addedNodes) {
        if (n.classList?.contains("flying")) {
          const r = n.getBoundingClientRect();
          seen.flights.push({ card: n.dataset.card || null, through: document.elementFromPoint(r.x + r.width / 2,
            r.y + r.height / 2) !== n, moving: n.getAnimations().length > 0,
            dialog: Boolean(document.querySelector(".overlay:not([hidden])")) });
        }
        if (n.classList?.contains("moment")) {
          seen.moments.push({ kind: n.className, text: n.textContent, side: n.closest(".tableau")?.dataset.side });
        }
      }
      if (m.type === "attributes" && m.target.classList?.contains("hit")) {
        seen.marks.push({ side: m.target.dataset.side, anim: getComputedStyle(m.target).animationName });
      }
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
}"""

# Classic for three: Ann holds Roll and distance; the bots hold distance and discard.
ANN = ["roll", "200", "25", "50", "100", "75"]
BOT = ["25", "50", "75", "25", "50", "75"]
HEAD = ANN + BOT + BOT + ["75", "25", "50", "25", "75", "50", "25", "75", "50"]


def seen(page) -> dict:
    return page.evaluate("window.__seen")


def test_every_move_travels_and_the_big_moments_show(server, pages):
    steps = classic_hand_by_clicks(server, pages)
    ann = bob = None
    for state, page in steps:
        if state == "waiting for the others":
            ann = page
            ann.evaluate(RECORD)
        if state == "another's turn":
            bob = page
            bob.evaluate(RECORD)
        if state == "the extension dialog":
            break
    assert ann is not None and bob is not None
    # Bob saw each of Ann's plays fly, and Ann her own (from her hand) and Bob's
    bob_saw = [f["card"] for f in seen(bob)["flights"]]
    ann_saw = [f["card"] for f in seen(ann)["flights"]]
    for card in ("roll", "puncture-proof", "200", "100"):
        assert card in bob_saw, bob_saw
    for card in ("roll", "flat-tire", "75"):
        assert card in ann_saw, ann_saw
    flights = seen(ann)["flights"] + seen(bob)["flights"]
    assert all(f["through"] and f["moving"] for f in flights), flights  # input never waits for them
    assert None in ann_saw  # a draw: the stock's back, flying to the hand
    # the Flat Tire marked Ann's tableau, on both screens, shaking
    for page in (ann, bob):
        marks = seen(page)["marks"]
        assert {"side": "0", "anim": "hit"} in marks, marks
    # the coup fourré and the trip to 700 had their moment over Ann's tableau (the trip's once its card landed)
    bob.wait_for_function("() => window.__seen.moments.some((m) => m.kind === 'moment trip')")
    moments = seen(bob)["moments"]
    assert {"kind": "moment cf", "text": "Coup fourré!", "side": "0"} in moments, moments
    assert {"kind": "moment trip", "text": "Trip completed!", "side": "0"} in moments, moments
    # every flying copy is gone once it landed
    expect(bob.locator(".card.flying")).to_have_count(0)
    expect(bob.locator(".card.arriving")).to_have_count(0)


def three_handed(server, pages, reduced: bool):
    page = pages.new()
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    against_bots(server, page, HEAD)
    page.evaluate(RECORD)
    return page


def play_and_wait_for_the_bots(page, card: str) -> None:
    mine = seq(page)
    if page.get_attribute("#turn", "data-decision") == "draw":
        page.click("#stock")
        wait_turn(page, "play", mine)
        mine = seq(page)
    page.click(f"#hand .card[data-card='{card}']")
    page.click(".tableau.mine")
    mine_again(page, mine)


@pytest.mark.parametrize("reduced", [False, True])
def test_bots_moves_fly_unless_motion_is_reduced(server, pages, reduced):
    page = three_handed(server, pages, reduced)
    play_and_wait_for_the_bots(page, "roll")
    flights = seen(page)["flights"]
    if reduced:
        assert flights == []
        expect(page.locator(".card.landed")).to_have_count(1)  # the last card played is still highlighted
    else:
        cards = [f["card"] for f in flights]
        assert "roll" in cards
        assert len([c for c in cards if c in ("25", "50", "75")]) >= 2, cards  # each bot's card flew too


def test_no_card_flies_over_a_dialog(server, pages):
    """The move that ends the match opens its dialog: that move does not fly over it, and a flight under way
    passes under every dialog."""
    page, _ = dujardin_against_a_bot(server, pages)
    page.evaluate(RECORD)
    for card in DUJARDIN_WIN:
        play(page, card)
    expect(page.locator("#match-over")).to_be_visible()
    flights = seen(page)["flights"]
    assert "100" in [f["card"] for f in flights] and not any(f["dialog"] for f in flights), flights
    layers = page.evaluate(
        """() => { const ghost = document.createElement("div"); ghost.className = "card flying"; document.body.append(ghost);
             const z = (n) => Number(getComputedStyle(n).zIndex);
             const out = { flying: z(ghost), overlay: z(document.querySelector("#match-over")),
                           float: z(document.querySelector("#cf-dialog")) };
             ghost.remove(); return out; }"""
    )
    assert layers["flying"] < min(layers["overlay"], layers["float"]), layers


SPY = """() => {
  window.__tones = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { window.__tones += 1; return super.createOscillator(); }
  };
}"""


def test_the_game_sounds_are_off_until_turned_on_and_remembered(server, pages):
    page = pages.new()
    page.add_init_script(f"({SPY})()")
    against_bots(server, page, HEAD)
    play_and_wait_for_the_bots(page, "roll")
    assert page.evaluate("window.__tones") == 0  # off by default: the moves made no sound
    page.click("#keys-button")
    toggle = page.get_by_label("Sounds of the game: cards, attacks, coups fourrés")
    expect(toggle).not_to_be_checked()
    toggle.check()
    assert page.evaluate("localStorage.getItem('millebornes.sounds')") == "1"
    heard = page.evaluate("window.__tones")
    assert heard > 0  # a sample as it is turned on
    play_and_wait_for_the_bots(page, "200")
    assert page.evaluate("window.__tones") > heard
    page.reload()
    page.wait_for_selector("#hand .card")
    page.click("#keys-button")
    expect(page.get_by_label("Sounds of the game: cards, attacks, coups fourrés")).to_be_checked()
