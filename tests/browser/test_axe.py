"""Accessibility: axe-core (from the npm registry, pinned in package-lock.json) runs inside Chromium on every page
and state a player meets, and finds no violation of WCAG 2.x A/AA whose impact is serious or critical.

axe's script is evaluated in the page through the DevTools protocol: the pages' Content-Security-Policy
(`script-src 'self'`) refuses an injected <script> (page.add_script_tag), but not what the test driver
evaluates, so the pages are checked with their policy in force (and the `pages` fixture still fails a test on
anything the policy blocks). `make test` installs axe-core (`npm ci`); where node_modules lacks it this test runs
`npm ci` itself, and skips only where npm is missing (a skip fails in CI, which installs npm).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from tests.browsing import CHROMIUM, browser, classic_hand_by_clicks, pages, server, won_dujardin_match  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
BLOCKING = ("serious", "critical")
FOUND: dict[str, Counter] = {}  # every state's violations by impact, printed at the end of the module


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists():
        npm = shutil.which("npm")
        if not npm:
            pytest.skip(
                "axe-core is not installed and npm is missing (make test installs it; Debian: apt-get install npm)"
            )
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True, timeout=300)
    yield AXE.read_text(encoding="utf-8") + "\n;true"
    if FOUND:
        print("\naxe-core violations by impact:")
        for state, counts in FOUND.items():
            print(f"  {state}: {dict(counts) or 'none'}")


class Audit:
    """axe on one page state after another; every state's serious or critical violations are kept, and the
    test fails at its end naming each (rule, impact, the nodes' selectors and what to fix)."""

    def __init__(self, source: str):
        self.source = source
        self.failures: list[str] = []

    def __call__(self, page, state: str) -> None:
        if not page.evaluate("typeof window.axe === 'object'"):
            page.evaluate(self.source)
        violations = page.evaluate(
            """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
                 .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary || ''}))})))""",
            TAGS,
        )
        FOUND[state] = Counter()
        for v in violations:
            FOUND[state][v["impact"]] += len(v["nodes"])
        for v in violations:
            if v["impact"] in BLOCKING:
                nodes = "\n".join(f"      {n['target']}: {' '.join(n['summary'].split())}" for n in v["nodes"][:12])
                more = f"\n      ... and {len(v['nodes']) - 12} more" if len(v["nodes"]) > 12 else ""
                self.failures.append(f"{state}: {v['id']} ({v['impact']}): {v['help']}\n{nodes}{more}")

    def check(self) -> None:
        assert not self.failures, "axe found serious or critical violations:\n" + "\n".join(self.failures)


@pytest.fixture
def audit(axe_source):
    return Audit(axe_source)


def set_lang(page, lang: str) -> None:
    page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


# ---------------------------------------------------------------- the home page
def test_home_page(server, pages, audit):
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    audit(page, "home (en)")
    set_lang(page, "fr")
    audit(page, "home (fr)")
    set_lang(page, "en")
    # a creation the server refuses: the error is shown by the form
    page.fill("#cf-timeout", "2")
    page.click("#create")
    expect(page.locator("#create-error")).not_to_be_empty()
    audit(page, "home, a refused creation")
    page.fill("#cf-timeout", "6")
    page.select_option("#players", "3")
    page.select_option("select.seat-kind[data-seat='1']", "human")
    page.select_option("select.seat-kind[data-seat='2']", "human")
    page.click("#create")
    expect(page.locator("#invites")).to_be_visible()
    audit(page, "home, invite links")
    set_lang(page, "fr")
    audit(page, "home, invite links (fr)")
    audit.check()


# ---------------------------------------------------------------- the table page
def test_table_page(server, pages, audit):
    for state, page in classic_hand_by_clicks(server, pages, hint=True):  # the hints' list too (target sizes)
        if state in ("waiting for the others", "another's turn", "waiting for a coup fourré"):
            continue
        audit(page, f"table, {state}")
        if state in ("the coup-fourré dialog", "the end-of-hand panel"):
            set_lang(page, "fr")
            audit(page, f"table, {state} (fr)")
            set_lang(page, "en")
    audit.check()


# ---------------------------------------------------------------- match over, the replay, the history
def test_match_over_replay_and_history(server, pages, audit):
    page, made = won_dujardin_match(server, pages)
    audit(page, "table, match over")

    page.click("#match-replay")
    page.wait_for_url(re.compile(r"/replay/"))
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    audit(page, "replay, start")
    for _ in range(8):
        page.click("#next")
    expect(page.locator("#move")).not_to_be_empty()
    audit(page, "replay, a middle step")
    set_lang(page, "fr")
    audit(page, "replay, a middle step (fr)")
    set_lang(page, "en")
    page.click("#last")
    expect(page.locator("#next")).to_be_disabled()
    audit(page, "replay, the end")

    page.goto(server + "/")
    expect(page.locator(f"#history a.replay-link[data-table='{made['id']}']")).to_have_count(1)
    audit(page, "home, history filled")
    set_lang(page, "fr")
    audit(page, "home, history filled (fr)")
    audit.check()


# ---------------------------------------------------------------- the keyboard alone, and what a screen reader says
def focus(page, selector: str, limit: int = 60) -> None:
    """Tab until `selector` has the focus (as a keyboard user gets there)."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not in the Tab order")


def test_home_page_by_keyboard_and_screen_reader(server, pages):
    page = pages.new()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    # every field has a name, the edition its summary as description
    for role, name in [
        ("combobox", "Edition"),
        ("combobox", "Players"),
        ("checkbox", "Play in teams of two"),
        ("spinbutton", "Coup fourré countdown (seconds)"),
        ("combobox", "Seat 1 (you)"),
        ("combobox", "Seat 2"),
        ("button", "Create the table"),
        ("combobox", "Language"),
    ]:
        expect(page.get_by_role(role, name=name, exact=True)).to_have_count(1)
    expect(page.locator("#ruleset")).to_have_attribute("aria-describedby", "ruleset-summary")
    expect(page.locator("#ruleset-summary")).not_to_contain_text("seed")

    # a wrong countdown: the error is said (role=alert), tied to its field, which takes the focus
    focus(page, "#seat-kind-1")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#seat-kind-1")).to_have_value("human")
    focus(page, "#cf-timeout")
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.locator("#create-error")).to_have_text(
        "The coup fourré countdown is a whole number of seconds from 3 to 600."
    )
    expect(page.locator("#create-error")).to_have_attribute("role", "alert")
    expect(page.locator("#cf-timeout")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#cf-timeout")).to_have_attribute("aria-describedby", "create-error")
    expect(page.locator("#cf-timeout")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("10")
    page.keyboard.press("Enter")

    # the invite links: the focus goes to them; seats count from 1; each button says which link it copies
    expect(page.locator("#invites-title")).to_be_focused()
    expect(page.locator("#cf-timeout")).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("link", name="Sit down at seat 1 (yours)")).to_have_count(1)
    expect(page.get_by_role("textbox", name="Invite link for seat 2")).to_have_count(1)
    expect(page.get_by_role("link", name="Open the link for seat 2 in a new tab")).to_have_count(1)
    focus(page, "button.copy[data-seat='1']")
    expect(page.get_by_role("button", name="Copy the link for seat 2", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#invite-status")).to_have_text("The link for seat 2 is copied.")
    expect(page.locator("#invite-status")).to_have_attribute("role", "status")

    # the language, from the keyboard: every word follows
    focus(page, "#lang")
    page.keyboard.press("ArrowDown")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("button", name="Copier le lien de la place 2", exact=True)).to_have_count(1)
    expect(page.get_by_role("combobox", name="Édition", exact=True)).to_have_count(1)
    expect(page.locator("#ruleset option[value='classic']")).to_have_text("Classique")
    expect(page.locator("#lang option[value='en']")).to_have_attribute("lang", "en")


def test_replay_by_keyboard_and_screen_reader(server, pages):
    page, made = won_dujardin_match(server, pages)

    # the history: a table with a caption, column headers and replay links named by their game
    page.goto(server + "/")
    table = page.get_by_role("table", name="Finished games, the latest first")
    expect(table).to_have_count(1)
    expect(table.get_by_role("columnheader")).to_have_count(4)
    link = page.locator(f"#history a.replay-link[data-table='{made['id']}']")
    expect(link).to_have_attribute("aria-label", re.compile(r"^Replay the game of \S"))
    expect(page.locator("#history")).to_contain_text("Dujardin")  # the edition by its name, not its id
    focus(page, f"#history a.replay-link[data-table='{made['id']}']")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/replay/"))

    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text(re.compile(r"^The deal \(\d+ moves to watch\)$"))
    total = int(page.get_attribute("#step-range", "max"))
    expect(page.get_by_role("group", name="Moves").get_by_role("button")).to_have_count(4)
    expect(page.get_by_role("img", name=re.compile(r"^Stock: \d+ cards$"))).to_have_count(1)
    expect(page.get_by_role("img", name="Discard pile: empty")).to_have_count(1)
    hand = page.locator("#hands .seat-hand[data-seat='0']")
    expect(hand.get_by_role("heading")).to_have_text("Ann's hand (7 cards)")
    expect(hand.get_by_role("listitem")).to_have_count(7)
    expect(hand.get_by_role("listitem").filter(has_text="Roll")).to_have_count(1)  # each card says what it is
    expect(page.locator(".tableau[data-side='1']")).to_contain_text("Bot 2")  # seats count from 1

    page.keyboard.press("ArrowRight")
    expect(announce).to_have_text(f"Move 1 of {total}: Ann played Roll.")
    expect(page.locator("#step-range")).to_have_attribute("aria-valuetext", f"Move 1 of {total}")
    page.keyboard.press("PageDown")
    expect(announce).to_contain_text(f"Move 11 of {total}: ")
    page.keyboard.press("PageUp")
    expect(announce).to_contain_text(f"Move 1 of {total}: ")
    # the buttons, from the keyboard; a button that becomes disabled gives the focus to one that works
    focus(page, "#last")
    page.keyboard.press("Enter")
    expect(announce).to_contain_text(f"Move {total} of {total}: ")
    expect(page.locator("#last")).to_be_disabled()
    expect(page.locator("#prev")).to_be_focused()
    page.keyboard.press("Home")
    expect(announce).to_have_text(f"The deal ({total} moves to watch)")
    expect(page.locator("#next")).to_be_focused()
    page.select_option("#lang", "fr")
    expect(announce).to_have_text(f"La donne ({total}\u00a0coups à revoir)")
