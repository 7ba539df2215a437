"""The pages' files in Chromium (docs/deploy.md, "Rolling upgrades"): every script and style a page loads, its whole
module graph, comes from the one build its page names and is cached for good; a page whose module fails to load
(a process without the page's build) reloads once, and only once.

Skipped where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect  # noqa: E402

from millebornes.web.pages.routes import STATIC  # noqa: E402
from tests.browsing import CHROMIUM, browser, create_table, join, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

IMMUTABLE = "public, max-age=31536000, immutable"
IMPORT = re.compile(r"""(?:\bfrom\s+|^\s*import\s+)['"]([^'"]+)['"]""", re.M)
HUMANS = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def files_loaded(page) -> list:
    """Every script and stylesheet the page asks for, as it answers."""
    got: list = []
    page.on("response", lambda r: r.request.resource_type in ("script", "stylesheet") and got.append(r))
    return got


def graph(html: str) -> set[str]:
    """The files a page's HTML names and every module they import, by their paths under the static folder."""
    todo = re.findall(r'"/static/[0-9a-f]{12}/([^"]+)"', html)
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            if name.endswith(".js"):
                here = (STATIC / name).parent
                text = (STATIC / name).read_text(encoding="utf-8")
                todo += [(here / f).resolve().relative_to(STATIC).as_posix() for f in IMPORT.findall(text)]
    return found


def test_a_pages_whole_module_graph_comes_from_its_build_cached_for_good(server, pages):
    table = create_table(server, HUMANS)
    for address in ("/", table["seats"][0]["url"], "/rules"):
        page = pages.new()
        got = files_loaded(page)
        if address.startswith("/t/"):
            join(page, server + address, "Ann")
        else:
            page.goto(server + address)
            page.wait_for_selector("body[data-ready='1']")
        html = page.request.get(server + address.split("#")[0]).text()
        (build,) = set(re.findall(r'"/static/([0-9a-f]{12})/', html))
        urls = [r.url for r in got]
        assert len(set(urls)) == len(urls), "a module loaded twice: two addresses for one file"
        assert sorted(urls) == sorted(f"{server}/static/{build}/{name}" for name in graph(html)), address
        assert f"{server}/static/{build}/js/lib/words.js" in urls  # imported by modules only: the graph's
        for r in got:
            assert r.status == 200 and r.headers["cache-control"] == IMMUTABLE, (address, r.url)


def test_a_module_that_fails_to_load_reloads_the_page_once(server, pages):
    page = pages.new()
    failed: list[str] = []

    def first_fails(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.fulfill(status=404, body="not this build here")

    page.route("**/js/lib/dom.js", first_fails)
    documents: list[str] = []
    page.on("request", lambda r: r.resource_type == "document" and documents.append(r.url))
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert len(failed) == 1 and documents == [server + "/", server + "/"]
    expect(page.locator(".brand")).to_be_visible()


def test_a_page_whose_module_keeps_failing_reloads_once_only(server, pages):
    page = pages.new()
    page.add_init_script(
        "window.failures = 0; addEventListener('error', (e) => { if (e.target.src) window.failures++; }, true);"
    )
    page.route("**/js/lib/dom.js", lambda route: route.fulfill(status=404, body="never here"))
    documents: list[str] = []
    page.on("request", lambda r: r.resource_type == "document" and documents.append(r.url))
    page.goto(server + "/")
    page.wait_for_function("performance.getEntriesByType('navigation')[0].type === 'reload' && window.failures >= 1")
    # the second failure was handled in the same dispatch as the count: a reload it asked for would be under way
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert documents == [server + "/", server + "/"]
    assert page.evaluate("document.body.dataset.ready") is None
