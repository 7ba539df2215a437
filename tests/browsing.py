"""What the browser tests share: a real `millebornes serve`, Debian's Chromium driven by Playwright, players'
contexts that collect page errors, and the clicks of one move. Tests wait for page state (the #turn element
carries the state's seq, decision and whose decision it is), never for a fixed time."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

import millebornes as mb
from millebornes import cards as C
from tests.conftest import keep_token

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
TIMEOUT_MS = 10_000
XSS = "<img src=x onerror=X=1>"  # 23 characters: a nickname is at most 24


def stacked(ruleset: str, players: int, head: list[str]) -> list[str]:
    """A whole deck, top first: `head` (the deal, then the draws in order), then the rest of the deck."""
    left = Counter(dict(zip(C.CARD_IDS, mb.ruleset(ruleset).deck_counts(players))))
    left.subtract(Counter(head))
    assert min(left.values()) >= 0, left
    return head + [c for c in C.CARD_IDS for _ in range(left[c])]


# Classic, 2 players (101 cards, race to 700 with the extension choice). Ann (seat 0) is dealt the first six
# cards, Bob (seat 1) the next six; then the stock gives 100 to Ann, 25 to Bob, Ann's coup-fourré replacement
# (25) and her turn's draw (50), and so on. The scripted hand: Ann tries 200 while stopped (illegal), rolls;
# Bob plays Flat Tire on her, she answers with a coup fourré; 200, Bob discards, Ann draws from the stock
# (the draw decision: the discard could be taken), 200, 100, 100, 100 = 700: the extension prompt, "end the
# hand", and the breakdown: Ann 700 + 100 + 300 (coup fourré) + 400 (trip) = 1,500, Bob 75.
CLASSIC_HEAD = [
    "roll",
    "200",
    "200",
    "100",
    "100",
    "puncture-proof",
    "flat-tire",
    "roll",
    "25",
    "50",
    "75",
    "75",
    "100",
    "25",
    "25",
    "50",
    "50",
    "75",
    "25",
    "75",
    "75",
    "50",
    "25",
    "50",
]

# Dujardin, 2 players, one race to exactly 1000: Ann holds roll, 200, 200, 100 x3 and draws three more 100s;
# the medium bot gets only harmless cards in its first draws, so Ann ends the match in nine plays.
DUJARDIN_HEAD = [
    "roll",
    "200",
    "200",
    "100",
    "100",
    "100",
    "25",
    "25",
    "50",
    "50",
    "roll",
    "75",
    "100",
    "25",
    "100",
    "50",
    "100",
    "25",
    "25",
    "50",
    "50",
    "25",
    "25",
    "50",
    "25",
    "75",
    "50",
    "75",
    "25",
    "75",
    "50",
    "25",
]


# ---------------------------------------------------------------- the server and the browser
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("web")
    port = free_port()
    exe = Path(sys.executable).with_name("millebornes")
    cmd = [str(exe)] if exe.exists() else [shutil.which("millebornes") or "millebornes"]
    cmd += [
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{tmp / 'db.sqlite'}",
        "--test-mode",
        "--bot-delay",
        "0.05",
        "--hand-pause",
        "0.2",
        "--workers",
        "0",
        "--tables-per-minute",
        "1000",
    ]  # one module's tests create more than the default 10 a minute
    log = open(tmp / "server.log", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if json.load(r).get("ok"):
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            log.close()
            pytest.fail("the server did not start:\n" + (tmp / "server.log").read_text()[-3000:])
        time.sleep(0.1)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Pages:
    """Browser contexts of one test, each a player; page errors (and what the page's security policy
    blocks) are collected and must stay empty."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []

    def new(self, viewport: dict | None = None, touch: bool = False, storage_state: dict | None = None):
        """A page in a context of its own; `viewport` (default 1280x800) and `touch`: a phone's screen,
        touch events and the page's viewport meta tag honoured (`locator.tap()` works there); `storage_state`
        (a context's `storage_state()`): the same browser opened again, its localStorage kept."""
        ctx = self.browser.new_context(
            viewport=viewport or VIEWPORT, has_touch=touch, is_mobile=touch, storage_state=storage_state
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # the pages run under a strict Content-Security-Policy: anything it blocks is a bug
        page.on("console", lambda m: "Content Security Policy" in m.text and self.errors.append(m.text))
        page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))
        return page

    def close(self):
        debug = os.environ.get("MB_BROWSER_DEBUG")
        for i, ctx in enumerate(self.contexts):
            if debug:
                for j, page in enumerate(ctx.pages):
                    page.screenshot(path=f"{debug}/page{i}{j}.png")
                    Path(f"{debug}/page{i}{j}.txt").write_text(
                        page.evaluate(
                            "JSON.stringify({url: location.href, turn: document.querySelector('#turn')?.dataset,"
                            " msg: document.querySelector('#message')?.textContent,"
                            " log: [...document.querySelectorAll('#log li')].map(li => li.textContent)}, null, 1)"
                        )
                    )
            ctx.close()


@pytest.fixture
def pages(browser):
    LAST.clear()
    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, p.errors


def create_table(base: str, body: dict) -> dict:
    req = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 201
        return json.load(r)


def join(page, url: str, nickname: str) -> None:
    page.goto(url)
    page.fill("#nickname", nickname)
    page.click("#join")
    expect(page.locator("#join-overlay")).to_be_hidden()
    page.wait_for_selector("#hand .card")


def seq(page) -> int:
    value = page.get_attribute("#turn", "data-seq")
    return int(value) if value else -1


def wait_turn(page, decision: str, after: int = -1) -> None:
    """Wait until the page's seat must take `decision` on a state newer than seq `after`."""
    page.wait_for_function(
        """([d, after]) => { const t = document.querySelector('#turn');
             return t && t.dataset.mine === '1' && t.dataset.decision === d && Number(t.dataset.seq) > after; }""",
        arg=[decision, after],
    )


LAST: dict = {}


def play(page, card: str, target: str = ".tableau.mine", tap: bool = False) -> None:
    """On the seat's next play decision: click (or `tap`, on a touch page) the card in hand, then the target."""
    wait_turn(page, "play", LAST.get(id(page), -1))
    LAST[id(page)] = seq(page)
    press = (lambda sel: page.locator(sel).first.tap()) if tap else page.click
    press(f"#hand .card[data-card='{card}']")
    expect(page.locator(f"#hand .card.selected[data-card='{card}']")).to_have_count(1)
    press(target)


def join_by_socket(base: str, made: dict, seat: int, nickname: str):
    """Take a seat without a browser, through the table's WebSocket (a table needs every human seat joined
    once to start); returns the open socket, to close when done."""
    from websockets.sync.client import connect

    token = next(s["url"] for s in made["seats"] if s["seat"] == seat).split("token=")[1]
    ws = connect(base.replace("http://", "ws://") + f"/ws/{made['id']}", open_timeout=10, legacy=True)
    ws.send(json.dumps({"type": "join", "seat": seat, "token": token, "nickname": nickname}))
    while (frame := json.loads(ws.recv(timeout=10)))["type"] != "welcome":
        assert frame["type"] != "error", frame
    keep_token(made, seat, frame)
    return ws


DUJARDIN_WIN = ["roll", "200", "200", "100", "100", "100", "100", "100", "100"]


def dujardin_against_a_bot(base: str, pages, nickname: str = "Ann", public: bool = True):
    """A dujardin table against a medium bot, the deck stacked with DUJARDIN_HEAD, the player joined; returns the
    page and the created table.  ``public``: listed in the history, its replay open to any page (a private one's
    only to its players)."""
    made = create_table(
        base,
        {
            "ruleset": "dujardin",
            "players": 2,
            "public": public,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}],
            "deck": stacked("dujardin", 2, DUJARDIN_HEAD),
        },
    )
    page = pages.new()
    join(page, base + made["seats"][0]["url"], nickname)
    return page, made


def won_dujardin_match(base: str, pages, nickname: str = "Ann", public: bool = True):
    """The player wins the one race of :func:`dujardin_against_a_bot` in nine plays; returns the page on the
    match-over panel and the created table."""
    page, made = dujardin_against_a_bot(base, pages, nickname, public)
    for card in DUJARDIN_WIN:
        play(page, card)
    expect(page.locator("#match-over")).to_be_visible()
    return page, made


def classic_hand_by_clicks(base: str, pages, names=("Ann", "Bob"), hint: bool = False):
    """The CLASSIC_HEAD hand between two players by clicks, pausing in every state a table page can be in:
    yields (state, page) with the page showing it (the join form, waiting for the others, my turn, another's
    turn, a hint if asked, a refused move, the coup-fourré dialog and the table waiting for it, the draw, the
    extension dialog, the end-of-hand panel)."""
    made = create_table(
        base,
        {
            "ruleset": "classic",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "cf_timeout": 60,
            "deck": stacked("classic", 2, CLASSIC_HEAD),
        },
    )
    urls = {s["seat"]: base + s["url"] for s in made["seats"]}
    ann, bob = pages.new(), pages.new()
    ann.goto(urls[0])
    expect(ann.locator("#nickname")).to_be_enabled()
    yield "join", ann
    join(ann, urls[0], names[0])
    yield "waiting for the others", ann
    join(bob, urls[1], names[1])
    wait_turn(ann, "play")
    yield "my turn", ann
    yield "another's turn", bob
    if hint:
        ann.click("#hint-button")
        expect(ann.locator("#hints li").first).to_be_visible(timeout=20_000)
        yield "a hint", ann
    ann.click("#hand .card[data-card='200']")
    ann.click(".tableau.mine")
    expect(ann.locator("#message")).not_to_be_empty()
    yield "a refused move", ann
    play(ann, "roll")
    play(bob, "flat-tire", ".tableau[data-side='0']")
    expect(ann.locator("#cf-dialog")).to_be_visible()
    yield "the coup-fourré dialog", ann
    yield "waiting for a coup fourré", bob
    ann.click("#cf-yes")
    expect(ann.locator("#cf-dialog")).to_be_hidden()
    play(ann, "200")
    play(bob, "75", "#discard")
    wait_turn(ann, "draw")
    yield "draw or take the discard", ann
    ann.click("#stock")
    for who, card in [(ann, "200"), (bob, "roll"), (ann, "100"), (bob, "25"), (ann, "100"), (bob, "50"), (ann, "100")]:
        play(who, card)
    expect(ann.locator("#ext-dialog")).to_be_visible()
    yield "the extension dialog", ann
    ann.click("#ext-no")
    expect(bob.locator("#hand-over")).to_be_visible()
    yield "the end-of-hand panel", bob


def against_bots(base: str, page, head: list[str], players: int = 3, lang: str = "en") -> None:
    """A classic table where the page's player (Ann, seat 0) meets easy bots, the deck stacked with `head`: the
    page joins it (in `lang`) and waits for her first play decision. Set the page up first (a viewport, reduced
    motion, an init script)."""
    made = create_table(
        base,
        {
            "ruleset": "classic",
            "players": players,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1),
            "deck": stacked("classic", players, head),
        },
    )
    if lang != "en":
        page.goto(base + "/")
        page.evaluate(f"localStorage.setItem('millebornes.lang', '{lang}')")
    page.goto(base + made["seats"][0]["url"])
    page.fill("#nickname", "Ann")
    page.locator("#join").click()
    page.wait_for_selector("#hand .card")
    wait_turn(page, "play")


def mine_again(page, after: int, bots: int = 2) -> None:
    """Each of the `bots` moved since seq `after`: the seat decides again (to draw, where a bot's discard could be
    taken, or to play)."""
    page.wait_for_function(
        "([after, bots]) => { const t = document.querySelector('#turn');"
        " return t.dataset.mine === '1' && Number(t.dataset.seq) > after + bots; }",
        arg=[after, bots],
    )


def option_values(page, select: str) -> list[str]:
    """The values a ``<select>`` offers, in order."""
    return page.eval_on_selector_all(f"{select} option", "options => options.map(o => o.value)")
