"""What players read: no page shows the engine's notation, an internal reference, a message key or a gap.

Chromium visits the home page, the table (join, play, a refused move, a hint, the coup-fourré and extension
dialogs, the end-of-hand panel, match over) and the replay (start, middle, end) in English and in French, and
reads what a person reads there: the page's text (`innerText`), its title, and the names and help a screen
reader gives (aria-label, title, aria-valuetext, placeholder, alt). None of it may hold an action string
("play 25 1", "take-discard"), a card id ("flat-tire"), "seed", "encyclopedia", a file name ("rules.md"), a message
key, a {placeholder}, "undefined", "null" or "NaN"; in French, no common English word either. Text marked as written
in another language (the language menu's "English") is left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes import cards as C  # noqa: E402
from millebornes.i18n import catalog  # noqa: E402
from tests.browsing import CHROMIUM, browser, classic_hand_by_clicks, pages, server, won_dujardin_match  # noqa: E402,F401

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}")

CARD_IDS = list(C.CARD_IDS)
# the engine's action strings: "play 25", "play flat-tire 1", "discard roll"
ACTION = re.compile(r"\b(?:play|discard) (?:{})(?: \d)?(?![\w-])".format("|".join(map(re.escape, CARD_IDS))))
# the engine's words and card ids that are not English words (a card id written in lower case, hyphens kept)
NOTATION = re.compile(
    r"(?<![\w-])(?:take-discard|coup-fourre|end-hand|{})(?![\w-])".format(
        "|".join(re.escape(c) for c in CARD_IDS if "-" in c)
    )
)
INTERNAL = re.compile(r"\bseeds?\b|encyclop|rules\.md|\bDESIGN\.md|\bsrc/|\.py\b", re.IGNORECASE)
PLACEHOLDER = re.compile(r"\{\w*\}")
JUNK = re.compile(r"\b(?:undefined|null|NaN|None|\[object \w+\])")
KEYS = sorted((k for lang in ("en", "fr") for k in catalog(lang).keys() if "." in k), key=len, reverse=True)
# common English words a French page must not show (none is a French word); names of firms are taken out first
ENGLISH = [
    "the",
    "and",
    "you",
    "your",
    "with",
    "from",
    "of",
    "to",
    "is",
    "are",
    "it",
    "its",
    "this",
    "that",
    "seat",
    "seats",
    "hand",
    "hands",
    "card",
    "cards",
    "played",
    "plays",
    "playing",
    "discard",
    "discarded",
    "draw",
    "drew",
    "hint",
    "hints",
    "miles",
    "move",
    "moves",
    "next",
    "previous",
    "first",
    "last",
    "copy",
    "link",
    "links",
    "winner",
    "winners",
    "won",
    "turn",
    "waiting",
    "over",
    "back",
    "home",
    "join",
    "nickname",
    "language",
    "finished",
    "game",
    "games",
    "player",
    "players",
    "team",
    "teams",
    "replay",
    "deal",
    "dealt",
    "bot",
    "yes",
    "no",
    "let",
    "go",
    "end",
    "extend",
    "trip",
    "safety",
    "safeties",
    "hazard",
    "remedy",
    "win",
    "wins",
    "need",
    "first",
    "roll",
    "flat",
    "tire",
    "speed",
    "limit",
    "gas",
    "gasoline",
    "spare",
    "repairs",
    "right",
    "way",
    "extra",
    "tank",
    "puncture",
    "proof",
    "driving",
    "ace",
    "take",
    "took",
    "pass",
    "passed",
    "empty",
    "nobody",
    "choose",
    "click",
    "press",
    "key",
    "keys",
    "not",
    "only",
    "can",
    "cannot",
    "must",
    "already",
    "when",
]
ENGLISH_RE = re.compile(
    r"(?<![\w'’-])(?:{})(?![\w'’-])".format("|".join(sorted(set(ENGLISH), key=len, reverse=True))), re.IGNORECASE
)
PROPER_NAMES = ["Parker Brothers", "Winning Moves", "Mille Bornes"]

READ = """() => {
  const lang = document.documentElement.lang;
  let text = document.body.innerText;
  // text marked as another language's (the language menu's "English") is not the page's
  for (const node of document.querySelectorAll('body [lang]')) {
    if (node.lang !== lang) for (const s of [node.innerText, node.textContent]) if (s && s.trim()) text = text.split(s).join(' ');
  }
  const said = [document.title];
  for (const node of document.querySelectorAll('[aria-label], [title], [aria-valuetext], [placeholder], [alt], [aria-description]')) {
    if (node.closest('[lang]') && node.closest('[lang]').lang !== lang) continue;
    if (node.closest('[hidden], [aria-hidden="true"]')) continue;
    for (const a of ['aria-label', 'title', 'aria-valuetext', 'placeholder', 'alt', 'aria-description']) {
      const v = node.getAttribute(a);
      if (v) said.push(v);
    }
  }
  return [text, said.join('\\n')];
}"""


def problems(text: str, lang: str) -> list[str]:
    found = []
    for what, regex in (
        ("action string", ACTION),
        ("engine notation", NOTATION),
        ("internal reference", INTERNAL),
        ("unfilled placeholder", PLACEHOLDER),
        ("undefined value", JUNK),
    ):
        found += [f"{what}: {m.group(0)!r} in {context(text, m)}" for m in regex.finditer(text)]
    found += [f"message key: {k!r}" for k in KEYS if re.search(rf"(?<![\w.-]){re.escape(k)}(?![\w-])", text)]
    if lang == "fr":
        plain = text
        for name in PROPER_NAMES:
            plain = plain.replace(name, " ")
        found += [f"English word in French: {m.group(0)!r} in {context(plain, m)}" for m in ENGLISH_RE.finditer(plain)]
    return found


def context(text: str, m: re.Match) -> str:
    return repr(text[max(0, m.start() - 40) : m.end() + 40])


class Reader:
    """Reads a page in its language, then in the other one, and keeps what it should not have found."""

    def __init__(self):
        self.found: list[str] = []

    def read(self, page, state: str) -> None:
        lang = page.evaluate("document.documentElement.lang")
        text, said = page.evaluate(READ)
        self.found += [f"{state} ({lang}): {p}" for p in problems(text + "\n" + said, lang)]

    def both(self, page, state: str) -> None:
        first = page.evaluate("document.documentElement.lang")
        for lang in ("fr", "en") if first == "en" else ("en", "fr"):
            self.read(page, state)
            page.select_option("#lang", lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
        self.read(page, state)  # back in the first language: what a redraw shows too

    def check(self) -> None:
        assert not self.found, "players would read:\n" + "\n".join(dict.fromkeys(self.found))


@pytest.fixture
def reader():
    return Reader()


def test_the_checks_catch_what_they_look_for():
    assert problems("say 'play 25' to move", "en") and problems("play flat-tire 1", "en")
    assert problems("take-discard", "en") and problems("the speed-limit card", "en")
    assert problems("as the encyclopedia text (seed 000) plays it", "en")
    assert problems("Seat {n}", "en") and problems("Score: NaN", "en") and problems("home.copy_for", "en")
    assert problems("Ann a joué Crevaison : you need a Roll first", "fr")
    assert not problems("Ann played Flat Tire on Bob. Speed Limit, Puncture-Proof. Play Roll on my side.", "en")
    assert not problems("Zoé a joué Crevaison sur Léo. Parker Brothers et Winning Moves. Scores : 1 000", "fr")


@pytest.mark.server
def test_home_page(server, pages, reader):
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    for edition in ("classic", "parker", "dujardin", "family"):
        page.select_option("#ruleset", edition)
        reader.both(page, f"home, {edition}")
    page.fill("#cf-timeout", "1")
    page.click("#create")
    expect(page.locator("#create-error")).not_to_be_empty()
    reader.both(page, "home, a refused creation")
    page.fill("#cf-timeout", "6")
    page.select_option("#ruleset", "classic")
    page.select_option("#players", "2")
    page.select_option("select.seat-kind[data-seat='1']", "human")
    page.click("#create")
    expect(page.locator("#invites")).to_be_visible()
    reader.both(page, "home, invite links")
    reader.check()


@pytest.mark.server
def test_table_pages(server, pages, reader):
    for state, page in classic_hand_by_clicks(server, pages, names=("Zoé", "Léo"), hint=True):
        reader.both(page, f"table, {state}")
    reader.check()


@pytest.mark.server
def test_match_over_and_replay(server, pages, reader):
    page, made = won_dujardin_match(server, pages, "Zoé")
    reader.both(page, "table, match over")
    page.click("#match-replay")
    page.wait_for_url(re.compile(r"/replay/"))
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    reader.both(page, "replay, the deal")
    total = int(page.get_attribute("#step-range", "max"))
    for step in range(1, total + 1):  # every move in words, forward in English...
        page.keyboard.press("ArrowRight")
        expect(page.locator("#step-range")).to_have_value(str(step))
        reader.read(page, f"replay, move {step}")
    reader.both(page, "replay, the end")
    page.select_option("#lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    for step in range(total - 1, -1, -1):  # ...and back in French
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#step-range")).to_have_value(str(step))
        reader.read(page, f"replay, move {step}")
    page.select_option("#lang", "en")
    page.goto(server + "/")
    expect(page.locator(f"#history a.replay-link[data-table='{made['id']}']")).to_have_count(1)
    reader.both(page, "home, the finished games")
    reader.check()


@pytest.mark.server
def test_sides_in_a_tie_and_the_extension_read_right(server, pages):
    """A tie names each side apart (a team's own "and" would run two teams into one), a tied hand says it is a
    tie, and the extension's target is written as the language writes numbers."""
    page = pages.new()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    said = page.evaluate("""async () => {
        const here = document.querySelector('script[type=module]').src;  // the page's own build of its modules
        const c = await import(new URL('lib/words.js', here).href);
        const b = await import(new URL('board.js', here).href);
        const teams = { seats: [{ seat: 0, nickname: 'Ann' }, { seat: 1, nickname: 'Bob' }, { seat: 2, nickname: 'Cy' },
                                { seat: 3, nickname: 'Dee' }], sides: [[0, 2], [1, 3]] };
        const solo = { seats: teams.seats.slice(0, 2), sides: [[0], [1]] };
        const read = (nodes) => nodes.map((n) => (n.textContent ?? String(n))).join('');
        const out = {};
        for (const lang of ['en', 'fr']) {
            await c.setLang(lang);
            out[lang] = {
                tie: read(b.winnersText([0, 1], teams)),
                soloTie: read(b.winnersText([0, 1], solo)),
                won: read(b.winnersText([1], teams)),
                matchTie: read(c.describeEvent({ type: 'match-over', winners: [0, 1], scores: [5000, 5000] }, teams)),
                extend: read(c.describeEvent({ type: 'extend', seat: 0, target: 1000 }, solo)),
            };
        }
        return out;
    }""")
    assert said["en"] == {
        "tie": "Tie: Ann and Cy; Bob and Dee",
        "soloTie": "Tie: Ann and Bob",
        "won": "Winner: Bob and Dee",
        "matchTie": "Match over: a tie between Ann and Cy; Bob and Dee (5,000 – 5,000).",
        "extend": said["en"]["extend"],
    }
    assert "1,000" in said["en"]["extend"] and "1000" not in said["en"]["extend"]
    assert said["fr"]["tie"] == "Égalité\u00a0: Ann et Cy\u202f; Bob et Dee"
    assert said["fr"]["matchTie"].startswith("Partie terminée\u00a0: égalité entre Ann et Cy\u202f; Bob et Dee")
    assert "1\u202f000" in said["fr"]["extend"]
