"""The game review on the replay page, in Chromium: a short match played to its end on a test server, its replay
opened, Review clicked; the progress bar, then the evaluation graph and its table, the badge of each judged move,
the better move on the board and why it is better, next / previous mistake by buttons and keys, the per-seat summary and its key
moments; axe-core finds nothing serious with the review open (English and French, the better move shown, the
table open), the words are the catalog's, and the page fits a 360 px phone. A classic match of several hands
(added to the server's database as its bots played it) shows each side's chance of the match and the hands.

Screenshots for a person to look at: /tmp/review-desktop.png (1366x800) and /tmp/review-phone.png (360x640).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import urllib.request
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

import millebornes as mb  # noqa: E402
from millebornes.i18n.words import TableWords  # noqa: E402
from tests.browser.test_axe import Audit, axe_source, set_lang  # noqa: E402,F401
from tests.browser.test_phone import check_fits  # noqa: E402
from tests.browser.test_wording import Reader  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, free_port, pages  # noqa: E402,F401
from tests.serving import Seat  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

WORLDS = 40
MISTAKES = ("inaccuracy", "mistake", "blunder")
SHOWN = ("chance", "match", "points")  # the badge shows the chances and the cost: the reason quotes the rest
WORDS = {"best": "Best", "good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


class Served:
    """`millebornes serve` on a database this module knows (a classic match is added to it), a small review budget."""

    def __init__(self, tmp: Path):
        self.db = tmp / "db.sqlite"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).with_name("millebornes")
        self.log = open(tmp / "server.log", "w")
        self.proc = subprocess.Popen(
            [
                str(exe),
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                f"sqlite:///{self.db}",
                "--test-mode",
                "--bot-delay",
                "0.02",
                "--hand-pause",
                "0",
                "--workers",
                "0",
                "--tables-per-minute",
                "1000",
                "--review-worlds",
                str(WORLDS),
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 30
        while True:
            try:
                if get(self.base + "/healthz").get("ok"):
                    return
            except OSError:
                pass
            assert self.proc.poll() is None and time.time() < deadline, (tmp / "server.log").read_text()[-3000:]
            time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.log.close()


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = Served(tmp_path_factory.mktemp("review"))
    yield s
    s.stop()


def random_race(served: Served, seed: int = 13) -> str:
    """A dujardin race: Ann plays random legal moves against an easy bot, to the end (mistakes guaranteed)."""
    made = create_table(
        served.base,
        {
            "ruleset": "dujardin",
            "players": 2,
            "seed": seed,
            "cf_timeout": 0.3,
            "public": True,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        },
    )
    ann = Seat(served, made, 0, "Ann")
    rng = random.Random(seed)
    while not ann.obs["is_over"]:
        if ann.obs["legal_actions"]:
            ann.act(rng.choice(ann.obs["legal_actions"]))
        ann.next_state()
    ann.close()
    return made["id"]


def classic_match(served: Served) -> str:
    """A whole classic match of several hands between an easy and a medium bot, saved as a finished table."""
    from millebornes.bots import make_bot
    from millebornes.web.db.base import now
    from millebornes.web.db.database import Database
    from millebornes.web.tables.repo import Tables
    from millebornes.web.tables.rows import PLAYING, SavedSeat, SavedTable

    game = mb.new_game("classic", players=2, seed=4)
    bots = [make_bot("easy", seed=1), make_bot("medium", seed=2)]
    store = Tables(Database(f"sqlite:///{served.db}", "NORMAL"))
    table = SavedTable(
        id="classic4",
        ruleset="classic",
        options={},
        players=2,
        teams=False,
        seed=4,
        deck=None,
        cf_timeout=5,
        status=PLAYING,
        created=now(),
        public=True,
        seats=[SavedSeat(0, "human", nickname="Zoé", joined=True), SavedSeat(1, "bot", level="medium", joined=True)],
    )
    store.create(table)
    n = 0
    while not game.is_over:
        seat = game.to_act
        action = bots[seat].choose(game.observation(seat), game.legal_actions())
        game.act(action)
        store.append_action(table.id, n, seat, action)
        n += 1
    store.finish(table.id, list(game.match_scores), game.winners)
    store.db.close()
    assert len(game.hand_results) > 1
    return table.id


def open_replay(pages, served, tid: str, viewport=None, step: int = 0):
    page = pages.new(viewport=viewport)
    page.goto(f"{served.base}/replay/{tid}?step={step}")
    expect(page.locator("#hands .seat-hand")).to_have_count(2)
    return page


def step_of(page) -> int:
    return int(page.get_attribute("#step-range", "value"))


def wait_step(page, step: int) -> None:
    expect(page.locator("#step-range")).to_have_value(str(step))


def focus(page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate("s => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not in the Tab order")


def pct(x: float) -> str:
    """A chance as the page writes it (Intl: the exact value, halves rounded up)."""
    return f"{(Decimal(x) * 100).quantize(Decimal(1), ROUND_HALF_UP)}%"


def test_the_review_of_a_race_in_the_replay(served, pages, axe_source):  # noqa: F811
    audit = Audit(axe_source)
    tid = random_race(served)
    assert get(f"{served.base}/api/tables/{tid}/review")["state"] == "none"
    page = open_replay(pages, served, tid)
    total = int(page.get_attribute("#step-range", "max"))
    audit(page, "replay, before the review")

    # by keyboard: Tab to the button, Enter; the progress bar at once, then the graph
    expect(page.get_by_role("button", name="Review the game")).to_be_visible()
    focus(page, "#review-start")
    page.keyboard.press("Enter")
    bar = page.get_by_role("progressbar", name=re.compile(r"^Decisions judged: \d+ of \d+$"))
    expect(bar).to_be_visible()
    assert int(bar.get_attribute("aria-valuenow")) >= 0 and int(bar.get_attribute("aria-valuemax")) >= 1
    expect(page.locator("#review-title")).to_be_focused()  # the button went: the focus is on the panel's title
    page.wait_for_function(
        "() => document.querySelector('#review-graph') && !document.querySelector('#review-graph').hidden"
        " && document.querySelector('.eval-graph svg')",
        timeout=60_000,
    )
    expect(page.locator("#review-status")).to_have_text("The review is ready.")
    review = get(f"{served.base}/api/tables/{tid}/review")["review"]
    moves = {m["index"] + 1: m for m in review["moves"]}
    mistakes = [s for s, m in sorted(moves.items()) if m["class"] in MISTAKES]
    assert len(mistakes) >= 3, "random moves against a bot make mistakes"
    audit(page, "replay, the review open")

    # the summary: a column per seat named as the replay names seats, each figure from the review
    summary = page.locator("table.review-summary")
    expect(summary.locator("thead th")).to_have_text(["Ann", "Bot 2 (easy)"])
    for col, s in enumerate(review["summary"]):
        expect(summary.locator("tr.accuracy td").nth(col)).to_have_text(f"{s['accuracy']:g}")
        for cls in WORDS:
            expect(summary.locator(f"tr[data-class='{cls}'] td").nth(col)).to_have_text(str(s["counts"][cls]))
            expect(summary.locator(f"tr[data-class='{cls}'] th")).to_contain_text(WORDS[cls])
    # learn from the mistakes: a link to the puzzles of each seat that made any
    erred = [s["seat"] for s in review["summary"] if sum(s["counts"][c] for c in MISTAKES)]
    learn = page.locator("#review-body a.learn-link")
    expect(learn).to_have_count(len(erred))
    for k, seat in enumerate(erred):
        expect(learn.nth(k)).to_have_attribute("href", re.compile(rf"^/puzzles\?table=[\w-]+&seat={seat}$"))
    moments = sorted(k["index"] + 1 for s in review["summary"] for k in s["key_moments"])
    links = page.locator("#review-body .moments a")
    expect(links).to_have_text([f"Move {n}" for n in moments])
    links.nth(0).click()
    wait_step(page, moments[0])

    # a judged move's badge: its class in words, the chance before and after; a mistake's better move
    first = min(moves)
    page.locator("#step-range").fill(str(first))
    wait_step(page, first)
    m = moves[first]
    badge = page.locator("#move-review .review-badge")
    expect(badge).to_have_attribute("data-class", m["class"])
    expect(badge.locator(".review-chip")).to_have_text(re.compile(rf"{WORDS[m['class']]}$"))
    expect(badge).to_contain_text(
        f"Chance of winning the hand: {pct(m['best_chance'])} before this move, {pct(m['chance'])} after it."
    )
    expect(page.locator("#announce")).to_contain_text(f"{WORDS[m['class']]}.")

    # next and previous mistake: buttons and keys N / P
    page.keyboard.press("Home")
    expect(page.locator("#prev-mistake")).to_be_disabled()
    page.keyboard.press("n")
    wait_step(page, mistakes[0])
    page.click("#next-mistake")
    wait_step(page, mistakes[1])
    expect(page.locator("#next-mistake")).to_be_focused()
    page.keyboard.press("p")
    wait_step(page, mistakes[0])
    m = moves[mistakes[0]]
    expect(badge).to_have_attribute("data-class", m["class"])
    expect(badge.locator(".better")).to_have_text(re.compile(r"^Better for \S.*: \S"))
    expect(page.locator("#announce")).to_contain_text("Better for ")
    # what it cost, in points of what was at stake (the review's loss, to the nearest 5)
    cost = f"{5 * round(m['loss'] / 5):,}"
    expect(badge.locator(".cost")).to_have_text(re.compile(rf"^This move gave away about {cost} points of what"))
    # why, under the better move: the page words the move's reason as the terminal does (reasons.py)
    why = TableWords("en", 2, False).why(m["reason"], ["Ann", "Bot 2 (easy)"].__getitem__, SHOWN)
    expect(badge.locator(".reason")).to_have_text(why)
    expect(page.locator("#announce")).to_contain_text(why)

    # the better move on the board: the position before the move, its card and target marked; and back
    page.click("#show-better")
    wait_step(page, mistakes[0] - 1)
    expect(page.locator("#back-to-move")).to_be_focused()
    expect(page.locator("#move-review")).to_contain_text("The better move here for ")
    expect(page.locator("#move-review")).to_contain_text(", marked on the board: ")
    expect(page.locator("#move-review .reason")).to_have_text(why)
    # "This move" says the better move looked at, not the move played before this position
    better = page.locator("#move-review p").first.text_content().split(", marked on the board: ", 1)[1].rstrip(".")
    expect(page.locator("#move")).to_have_text(
        re.compile(rf": {re.escape(better)} \(the better move, not the one played\)$")
    )
    expect(page.locator("#move-events li")).to_have_count(0)
    verb, *rest = m["best"].split(" ")
    if verb in ("play", "discard"):
        card = page.locator(f"#hands .seat-hand[data-seat='{m['seat']}'] .card.better-card")
        expect(card).to_have_count(1)
        expect(card).to_have_attribute("data-card", rest[0])
        expect(card.locator(".better-tag")).to_have_text("Better move")
    if verb in ("play", "discard", "draw", "take-discard"):
        expect(page.locator(".better-target")).to_have_count(1)
    audit(page, "replay, the better move shown")
    page.keyboard.press("Enter")
    wait_step(page, mistakes[0])
    expect(page.locator("#show-better")).to_be_focused()
    expect(page.locator(".better-card, .better-target")).to_have_count(0)
    expect(page.locator("#move")).not_to_contain_text("the better move")

    # the graph: a slider over the judged moves; its keys, a click
    graph = page.get_by_role("slider", name="Each side’s chance of winning the hand, move by move")
    expect(graph).to_have_attribute("aria-valuenow", str(mistakes[0]))
    expect(graph).to_have_attribute(
        "aria-valuetext", re.compile(rf"^Move {mistakes[0]} of {total}: Ann: \d+%, Bot 2 \(easy\): \d+%$")
    )
    graph.focus()
    page.keyboard.press("ArrowRight")
    after = min(s for s in moves if s > mistakes[0])
    wait_step(page, after)
    page.keyboard.press("Home")  # on the graph: the first judged move, not the deal
    wait_step(page, first)
    page.keyboard.press("End")
    wait_step(page, max(moves))
    box = graph.bounding_box()
    graph.click(position={"x": 6, "y": box["height"] / 2})
    wait_step(page, first)
    expect(page.locator(".eval-graph .dot")).to_have_count(len(mistakes))
    # whose move each dot marks: the seat's number beside it; and the chances' axis in percent
    seats = page.locator(".eval-graph .dot-seat").all_text_contents()
    assert seats == [str(moves[step]["seat"] + 1) for step in sorted(mistakes)], seats
    expect(page.locator(".eval-graph .axis-label")).to_have_text(["0%", "50%", "100%"])

    # the graph in words: a table per hand (one here), a row per judged move, its link goes there
    page.click("#graph-words summary")
    rows = page.locator("#graph-words tbody tr")
    expect(rows).to_have_count(len(moves))
    expect(page.locator("#graph-words caption")).to_have_text(
        ["Hand 1: each side’s chance of winning the hand after each judged move"]
    )
    last = rows.nth(len(moves) - 1)
    expect(last.locator("td").nth(3)).to_have_text(re.compile(r"^\d+%$"))
    last.get_by_role("link").click()
    wait_step(page, max(moves))
    audit(page, "replay, the graph in words")

    set_lang(page, "fr")
    expect(page.locator("#review-title")).to_have_text("Analyse de la partie")
    page.click("#first")
    page.keyboard.press("n")
    wait_step(page, mistakes[0])
    fr_why = TableWords("fr", 2, False).why(m["reason"], ["Ann", "Robot 2 (facile)"].__getitem__, SHOWN)
    expect(badge.locator(".reason")).to_have_text(fr_why)
    expect(page.locator("#next-mistake")).to_have_text("Erreur suivante")
    audit(page, "replay, the review open (fr)")
    reader = Reader()
    reader.both(page, "replay, the review open")
    page.click("#first")
    page.keyboard.press("n")
    wait_step(page, mistakes[0])
    reader.both(page, "replay, a mistake")
    page.click("#show-better")
    wait_step(page, mistakes[0] - 1)
    reader.both(page, "replay, the better move")
    reader.check()
    audit.check()

    # kept: a new page shows it at once, without a click
    again = open_replay(pages, served, tid, step=mistakes[0])
    expect(again.locator("#move-review .review-badge")).to_have_attribute("data-class", moves[mistakes[0]]["class"])
    expect(again.locator("#review-start")).to_have_count(0)
    again.set_viewport_size({"width": 1366, "height": 800})
    again.screenshot(path="/tmp/review-desktop.png")


def test_the_review_on_a_phone(served, pages):
    tid = random_race(served, seed=12)
    page = open_replay(pages, served, tid, viewport={"width": 360, "height": 640})
    check_fits(page, {"width": 360, "height": 640}, "replay, the review not asked")
    page.click("#review-start")
    page.wait_for_function("() => document.querySelector('.eval-graph svg')", timeout=60_000)
    page.keyboard.press("n")
    expect(page.locator("#move-review .review-badge")).to_be_visible()
    check_fits(page, {"width": 360, "height": 640}, "replay, the review open")
    page.click("#graph-words summary")
    check_fits(page, {"width": 360, "height": 640}, "replay, the graph in words open")
    for button in ("#prev-mistake", "#next-mistake", "#show-better"):
        b = page.locator(button).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 360 and b["height"] >= 40, (button, b)
    page.click("#graph-words summary")
    page.evaluate(
        "() => window.scrollBy(0, document.querySelector('#review-graph').getBoundingClientRect().top - "
        "document.querySelector('.topbar').getBoundingClientRect().bottom - 6)"
    )
    page.screenshot(path="/tmp/review-phone.png")


def test_a_match_of_several_hands(served, pages):
    """The graph shows each side's chance of the match, the hands marked; the badge the match's chance too."""
    tid = classic_match(served)
    page = open_replay(pages, served, tid)
    page.click("#review-start")
    page.wait_for_function("() => document.querySelector('.eval-graph svg')", timeout=120_000)
    review = get(f"{served.base}/api/tables/{tid}/review")["review"]
    assert review["match_target"] == 5000
    hands = sorted({m["hand"] for m in review["moves"]})
    expect(page.locator(".eval-graph .hand-line")).to_have_count(len(hands) - 1)
    graph = page.get_by_role("slider", name="Each side’s chance of winning the match, move by move")
    expect(graph).to_have_count(1)
    expect(page.locator("#graph-words caption")).to_have_count(len(hands))
    m = review["moves"][-1]
    graph.focus()
    page.keyboard.press("End")
    wait_step(page, m["index"] + 1)
    expect(page.locator("#move-review")).to_contain_text(
        f"Chance of winning the match: {pct(m['best_match_chance'])} before, {pct(m['match_chance'])} after."
    )
    expect(graph).to_have_attribute(
        "aria-valuetext",
        re.compile(
            rf"^Move {m['index'] + 1} of \d+: Zoé: {pct(m['match_sides'][0] / sum(m['match_sides']))}, "
            rf"Bot 2 \(medium\): {pct(m['match_sides'][1] / sum(m['match_sides']))}$"
        ),
    )
