"""Quick chat on the table page, end to end: a player says a canned message by keyboard, the other player reads it
in their own language (the list, a bubble on the speaker's tableau, the screen reader's polite live region), mutes
the first and then neither sees nor hears them, and a reload remembers it; a spectator reads without a button;
the rate limit is said in words; on a 360 px phone the open panel scrolls nothing sideways; axe finds nothing
serious with the panel open, nor test_wording's reader anything players should not read.  A real
`millebornes serve` and Chromium, as tests/browser/test_spectator.py."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browser.test_axe import Audit, axe_source  # noqa: E402,F401
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, join, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

NBSP, NNBSP = "\u00a0", "\u202f"
TWO_HUMANS = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def two_players(server, pages, viewport=None, touch=False):
    made = create_table(server, TWO_HUMANS)
    urls = {s["seat"]: server + s["url"] for s in made["seats"]}
    ann, bob = pages.new(viewport, touch), pages.new(viewport, touch)
    join(ann, urls[0], "Ann")
    join(bob, urls[1], "Bob")
    return made, ann, bob


def heard(page) -> int:
    return int(page.get_attribute("#chat-lines", "data-said") or 0)


def wait_heard(page, n: int) -> None:
    """Until the page got its n-th said frame (shown or not)."""
    page.wait_for_function("n => Number(document.querySelector('#chat-lines').dataset.said || 0) >= n", arg=n)


def say_by_keys(page, key: str) -> None:
    """Open the picker from its button by keyboard and Tab to the message, then Enter."""
    page.focus("#chat-button")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-picker")).to_be_visible()
    expect(page.locator("#chat-button")).to_have_attribute("aria-expanded", "true")
    for _ in range(20):
        if page.evaluate("() => document.activeElement?.dataset?.key") == key:
            break
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement?.dataset?.key") == key
    page.keyboard.press("Enter")


def test_a_message_is_read_in_the_readers_language_and_a_muted_seat_is_not(server, pages):
    made, ann, bob = two_players(server, pages)
    bob.select_option("#lang", "fr")
    expect(bob.locator("html")).to_have_attribute("lang", "fr")
    expect(bob.locator("#chat-button")).to_have_text("Dire quelque chose")
    # Esc closes the picker and gives the focus back to its button
    ann.focus("#chat-button")
    ann.keyboard.press("Enter")
    expect(ann.locator("#chat-picker button").first).to_be_focused()
    ann.keyboard.press("Escape")
    expect(ann.locator("#chat-picker")).to_be_hidden()
    expect(ann.locator("#chat-button")).to_be_focused()

    say_by_keys(ann, "good-game")
    expect(ann.locator("#chat-picker")).to_be_hidden()
    expect(ann.locator("#chat-button")).to_be_focused()
    expect(ann.locator("#chat-lines li")).to_have_text(["Ann: Good game!"])

    line = bob.locator("#chat-lines li[data-seat='0'][data-key='good-game']")
    expect(line).to_have_text(f"Ann{NBSP}: Belle partie{NNBSP}!")
    expect(line.locator("bdi")).to_have_text("Ann")
    bubble = bob.locator(".tableau[data-side='0'] .chat-bubble[data-seat='0']")
    expect(bubble).to_be_visible()
    expect(bubble).to_have_text(f"Belle partie{NNBSP}!")
    expect(bob.locator("#announce")).to_contain_text(f"Ann{NBSP}: Belle partie{NNBSP}!")
    expect(bubble).to_have_count(0, timeout=8000)  # short-lived

    # Bob mutes Ann: her lines go, and her next message is neither shown nor told
    bob.click(".chat-options summary")
    box = bob.get_by_label("Ignorer Ann")
    box.check()
    expect(line).to_have_count(0)
    before = heard(bob)
    ann.click("#chat-button")
    ann.click("#chat-picker button[data-key='well-played']")
    expect(ann.locator("#chat-lines li[data-key='well-played']")).to_have_count(1)
    wait_heard(bob, before + 1)
    expect(bob.locator("#chat-lines li")).to_have_count(0)
    expect(bob.locator(".chat-bubble")).to_have_count(0)
    assert "Bien joué" not in bob.locator("#announce").text_content()
    # Bob still talks, and Ann hears him in English
    bob.click("#chat-button")
    bob.click("#chat-picker button[data-key='thanks']")
    expect(ann.locator("#chat-lines li[data-seat='1']")).to_have_text("Bob: Thanks!")
    expect(bob.locator("#chat-lines li")).to_have_text([f"Bob{NBSP}: Merci{NNBSP}!"])

    # remembered for this table: after a reload Ann stays muted, and the welcome's lines of hers stay hidden
    bob.reload()
    expect(bob.locator("#chat-lines li")).to_have_text([f"Bob{NBSP}: Merci{NNBSP}!"])
    bob.click(".chat-options summary")
    expect(bob.get_by_label("Ignorer Ann")).to_be_checked()
    bob.get_by_label("Ignorer Ann").uncheck()
    expect(bob.locator("#chat-lines li")).to_have_count(3)  # the welcome had them all

    # a spectator reads the chat, with no button to say anything
    watcher = pages.new()
    watcher.goto(f"{server}/t/{made['id']}")
    expect(watcher.locator("#chat-lines li")).to_have_count(3)
    expect(watcher.locator("#chat-button")).to_be_hidden()


def say(page, key: str) -> None:
    page.click("#chat-button")
    page.click(f"#chat-picker button[data-key='{key}']")


def test_the_chat_off_and_the_rate_limit(server, pages):
    made, ann, bob = two_players(server, pages)
    # Bob turns the chat off: no button, no line, no bubble, nothing told; it holds after a reload
    bob.click(".chat-options summary")
    bob.get_by_label("Turn the chat off").check()
    expect(bob.locator("#chat-button")).to_be_hidden()
    expect(bob.locator("#chat-off-note")).to_be_visible()
    for key in ("hello", "good-luck", "have-fun"):
        say(ann, key)
    expect(ann.locator("#chat-lines li")).to_have_count(3)
    wait_heard(bob, 3)
    expect(bob.locator("#chat-lines")).to_be_hidden()
    expect(bob.locator(".chat-bubble")).to_have_count(0)
    assert "Hello" not in bob.locator("#announce").text_content()

    # a fourth within 10 s: refused, and said in words to Ann (and her screen reader)
    say(ann, "smile")
    expect(ann.locator("#chat-status")).to_contain_text("Quick chat is rationed: say it again in")
    expect(ann.locator("#sr-alert")).to_contain_text("Quick chat is rationed")
    expect(ann.locator("#chat-lines li")).to_have_count(3)

    bob.reload()
    expect(bob.locator("#chat-off-note")).to_be_visible()
    expect(bob.locator("#chat-button")).to_be_hidden()
    bob.click(".chat-options summary")
    bob.get_by_label("Turn the chat off").uncheck()
    expect(bob.locator("#chat-lines li")).to_have_count(3)
    expect(bob.locator("#chat-button")).to_be_visible()


def test_the_phone_layout_and_axe_with_the_panel_open(server, pages, axe_source):  # noqa: F811
    phone = {"width": 360, "height": 640}
    made, ann, bob = two_players(server, pages, phone, touch=True)
    ann.locator("#chat-button").tap()
    ann.locator("#chat-picker button[data-key='nice-coup-fourre']").tap()
    expect(bob.locator(".chat-bubble")).to_be_visible()
    bob.locator("#chat-button").tap()
    bob.locator(".chat-options summary").tap()
    expect(bob.locator("#chat-picker")).to_be_visible()
    expect(bob.locator("#chat-mutes input")).to_have_count(1)
    for page in (ann, bob):
        page.locator("#chat").scroll_into_view_if_needed()
        got = page.evaluate("""() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth,
          wider: [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length
            && e.getBoundingClientRect().right > innerWidth + 0.5).map((e) => e.id || e.className).slice(0, 5)})""")
        assert got["inner"] == 360 and got["scroll"] <= got["inner"], got
    small = bob.evaluate("""() => [...document.querySelectorAll('#chat-picker button')]
        .map((b) => b.getBoundingClientRect()).filter((r) => r.height < 44 || r.right > innerWidth).length""")
    assert small == 0
    audit = Audit(axe_source)
    audit(bob, "table, the chat panel open with a bubble (phone)")
    bob.select_option("#lang", "fr")
    audit(bob, "table, the chat panel open (phone, fr)")
    ann.set_viewport_size({"width": 1366, "height": 800})
    ann.click("#chat-button")
    audit(ann, "table, the chat panel open")
    audit.check()
    reader = Reader()  # what players read there, in both languages: no key, no gap, no English in French
    reader.both(bob, "table, the chat panel open")
    reader.check()
