"""Issue 24, "your turn, anywhere": the tab's title and icon say when it is this seat's decision and stop when the
turn passes; the optional sound and desktop notification are off by default, toggled in the Keys panel,
remembered across a reload, and the notification permission is asked for only when its toggle is turned on
(a notification is shown only while the tab is hidden).

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import CHROMIUM, CLASSIC_HEAD, browser, create_table, join, pages, play, server, stacked, wait_turn  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

TURN_TITLE = "● Your turn — Mille Bornes"
PLAIN_TITLE = "Mille Bornes"

# The page's Notification, watched: the permission reads "default" until the page asks for it (then the
# browser's own answer, granted by the test, is kept in localStorage), every notification is recorded
# instead of shown, and the tab is hidden or visible as the test says (window.__hidden).
WATCH = """
(() => {
  const Real = window.Notification;
  window.__asked = 0;
  window.__notes = [];
  window.__tones = 0;
  class Watched {
    static get permission() { return localStorage.getItem('test.permission') || 'default'; }
    static async requestPermission() {
      window.__asked += 1;
      const answer = Real ? await Real.requestPermission() : 'granted';
      localStorage.setItem('test.permission', answer);
      return answer;
    }
    constructor(title, options) { window.__notes.push({ title, body: (options || {}).body }); }
    close() {}
  }
  window.Notification = Watched;
  window.__hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; } });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get() { return window.__hidden; } });
  const Ctx = window.AudioContext;
  if (Ctx) {
    const make = Ctx.prototype.createOscillator;
    Ctx.prototype.createOscillator = function () { window.__tones += 1; return make.call(this); };
  }
})();
"""


def two_players(server, pages, watch: bool = False):
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "cf_timeout": 60,
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    ann, bob = pages.new(), pages.new()
    if watch:
        ann.context.grant_permissions(["notifications"], origin=server)
        ann.add_init_script(WATCH)
    return ann, bob, urls


def icon(page) -> str:
    return page.get_attribute("link[rel~='icon']", "href")


def test_the_tab_title_and_icon_show_the_turn_and_stop_when_it_passes(server, pages):
    ann, bob, urls = two_players(server, pages)
    join(ann, urls[0], "Ann")
    expect(ann).to_have_title(PLAIN_TITLE)  # waiting for Bob: nobody's turn
    join(bob, urls[1], "Bob")
    wait_turn(ann, "play")
    expect(ann).to_have_title(TURN_TITLE)
    assert icon(ann).startswith("data:image/svg+xml,")
    expect(bob).to_have_title(PLAIN_TITLE)
    assert icon(bob) == "data:,"

    play(ann, "roll")
    wait_turn(bob, "play")
    expect(bob).to_have_title(TURN_TITLE)
    expect(ann).to_have_title(PLAIN_TITLE)
    assert icon(ann) == "data:,"
    assert icon(bob).startswith("data:image/svg+xml,")

    # a coup-fourré answer is a decision of Ann's too (it is not her turn to play, but hers to answer)
    play(bob, "flat-tire", ".tableau[data-side='0']")
    wait_turn(ann, "coup-fourre")
    expect(ann).to_have_title(TURN_TITLE)
    expect(bob).to_have_title(PLAIN_TITLE)

    # the title follows the language
    ann.select_option("#lang", "fr")
    expect(ann).to_have_title("● À vous — Mille Bornes")


def test_sound_and_notification_are_opt_in_remembered_and_notify_only_a_hidden_tab(server, pages):
    ann, bob, urls = two_players(server, pages, watch=True)
    join(ann, urls[0], "Ann")
    ann.click("#keys-button")
    sound, notify = ann.locator("#alert-sound"), ann.locator("#alert-notify")
    expect(sound).to_be_visible()
    expect(sound).not_to_be_checked()
    expect(notify).not_to_be_checked()
    expect(sound).to_have_accessible_name("A sound on my turn")
    expect(notify).to_have_accessible_name("A notification on my turn when this tab is hidden")

    # off by default: the turn comes in a hidden tab, and nothing is asked, shown or played
    ann.evaluate("window.__hidden = true")
    join(bob, urls[1], "Bob")
    wait_turn(ann, "play")
    expect(ann).to_have_title(TURN_TITLE)
    assert ann.evaluate("[window.__asked, window.__notes.length, window.__tones]") == [0, 0, 0]
    ann.evaluate("window.__hidden = false")

    # turned on, by keyboard: the permission is asked for then, once
    sound.focus()
    ann.keyboard.press("Space")
    expect(sound).to_be_checked()
    assert ann.evaluate("window.__tones") > 0  # the player hears what it sounds like
    notify.focus()
    ann.keyboard.press("Space")
    expect(notify).to_be_checked()
    assert ann.evaluate("window.__asked") == 1
    ann.wait_for_function("() => localStorage.getItem('millebornes.alert.notify') === '1'")  # once the browser said yes
    assert ann.evaluate("localStorage.getItem('millebornes.alert.sound')") == "1"

    # remembered across a reload (the seat comes back by itself)
    ann.reload()
    ann.wait_for_selector("#hand .card")
    ann.click("#keys-button")
    expect(ann.locator("#alert-sound")).to_be_checked()
    expect(ann.locator("#alert-notify")).to_be_checked()
    wait_turn(ann, "play")
    expect(ann).to_have_title(TURN_TITLE)
    assert ann.evaluate("[window.__asked, window.__notes.length]") == [0, 0]  # a visible tab is not notified

    # Ann's turn passes while she looks; her next decision (a coup-fourré answer) comes while the tab is hidden
    play(ann, "roll")
    expect(ann).to_have_title(PLAIN_TITLE)
    ann.evaluate("window.__hidden = true; window.__tones = 0")
    play(bob, "flat-tire", ".tableau[data-side='0']")
    wait_turn(ann, "coup-fourre")
    expect(ann).to_have_title(TURN_TITLE)
    ann.wait_for_function("() => window.__notes.length === 1")
    note = ann.evaluate("window.__notes[0]")
    assert note["title"] == TURN_TITLE and note["body"]
    assert ann.evaluate("window.__tones") > 0

    # turned off: remembered too
    ann.evaluate("window.__hidden = false")
    ann.click("#cf-yes")
    expect(ann.locator("#cf-dialog")).to_be_hidden()
    ann.locator("#alert-notify").uncheck()
    ann.wait_for_function("() => localStorage.getItem('millebornes.alert.notify') === '0'")
    ann.reload()
    ann.wait_for_selector("#hand .card")
    ann.click("#keys-button")
    expect(ann.locator("#alert-notify")).not_to_be_checked()
    expect(ann.locator("#alert-sound")).to_be_checked()


def test_the_alerts_in_the_keys_panel_pass_axe_and_fit_a_phone(server, pages):
    from tests.browser.test_axe import AXE, Audit

    if not AXE.exists():
        pytest.skip("axe-core is not installed (make test installs it)")
    audit = Audit(AXE.read_text(encoding="utf-8") + "\n;true")
    made = create_table(
        server,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    phone = pages.new(viewport={"width": 360, "height": 740}, touch=True)
    phone.add_init_script(WATCH + ";localStorage.setItem('test.permission', 'denied');")
    join(phone, urls[0], "Ann")
    phone.locator("#keys-button").tap()
    notify = phone.locator("#alert-notify")
    notify.tap()
    # the browser blocks notifications: nothing is asked, the toggle stays off and the page says why
    expect(notify).not_to_be_checked()
    expect(phone.locator("#alert-status")).to_contain_text("blocks notifications")
    assert phone.evaluate("window.__asked") == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    audit(phone, "table, the turn alerts (phone)")
    phone.select_option("#lang", "fr")
    expect(phone.locator("#alert-status")).to_contain_text("bloque les notifications")
    audit(phone, "table, the turn alerts (phone, fr)")
    audit.check()
