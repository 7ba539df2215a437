"""The documentation site (zensical.toml, built by tools/build_docs.py): it builds strictly with every page, a link
inside it leads to a page and heading that are there, a page loads nothing from the internet, every public name of
the API reference has a docstring, and the examples of its pages run as shown."""

from __future__ import annotations

import doctest
import html
import importlib.util
import os
import re
import shutil
import sys
import textwrap
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CONFIG = ROOT / "zensical.toml"

# A link (not a load: nothing is fetched until a reader follows it) out of the site is kept only with its reason.
EXTERNAL_LINKS = {
    "https://babel.pocoo.org": "i18n.md names the library the message catalog is read with",
    "https://github.com/millebornes/millebornes": "the footer's link to the source (zensical.toml, extra.social)",
    "https://github.com/millebornes/millebornes/blob/main/CITATION.cff": "researchers.md, Cite: the citation file",
    "https://github.com/millebornes/millebornes/blob/main/examples/openspiel_mcts.py": (
        "env.md (OpenSpiel) and researchers.md: the OpenSpiel example, a script of the repository, not a page"
    ),
}

# The theme's script names a few URLs, each fetched only on a condition: what a built page would hold to meet it,
# which no page may hold (None: the condition is the browser's, not the site's).
_SOURCE = re.compile(r'data-md-component="source"')  # the repository's stars and forks, with repo_url set
_PYODIDE = re.compile(r'class="[^"]*\bpyodide\b')  # a runnable Python block: its editor and Python in the page
THEME_FETCHES = {
    "https://unpkg.com/mermaid": re.compile(r'<pre[^>]*class="[^"]*\bmermaid\b'),  # a Mermaid diagram
    "https://unpkg.com/glightbox": re.compile(r'class="[^"]*\bglightbox\b'),  # an image that opens in a lightbox
    "https://unpkg.com/ace-builds": _PYODIDE,
    "https://unpkg.com/pyodide": _PYODIDE,
    "https://cdn.jsdelivr.net/pyodide": _PYODIDE,
    "https://api.github.com/": _SOURCE,
    "https://${": _SOURCE,  # the same from a GitLab host
    # only a browser without ResizeObserver (none since 2020) asks for the polyfill
    "https://unpkg.com/resize-observer-polyfill": None,
}

# <link rel=...> that names an address without the browser fetching it: the page's address on the hosted site
_NOT_FETCHED = {"canonical"}

_REMOTE = re.compile(r"\s*(https?:)?//", re.I)
_CSS_LOADS = re.compile(r"""url\(\s*['"]?\s*((?:https?:)?//[^'")\s]*)|@import\s+['"]\s*((?:https?:)?//[^'"]*)""", re.I)
_JS_URLS = re.compile(r"""["'`](https?://[^"'`\s]*)""")
_NAMESPACES = ("http://www.w3.org/",)


def _tool():
    """tools/build_docs.py, the build `make docs` runs."""
    spec = importlib.util.spec_from_file_location("build_docs", ROOT / "tools" / "build_docs.py")
    assert spec and spec.loader
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _project(target: Path) -> Path:
    """A copy of the site's sources to build in (Zensical writes site/ and its cache beside its config): the
    config and docs/, and the package's sources linked, so the build leaves this checkout alone."""
    shutil.copy(CONFIG, target / CONFIG.name)
    shutil.copytree(DOCS, target / "docs")
    (target / "src").symlink_to(ROOT / "src", target_is_directory=True)
    return target


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("zensical")
    project = _project(tmp_path_factory.mktemp("docs"))
    output, faults = _tool().build(project)
    assert not faults, "the strict build failed:\n" + "\n".join(faults) + "\n" + output[-4000:]
    return project / "site"


def test_the_build_counts_every_line_but_its_progress_as_a_fault():
    result = doctest.testmod(_tool())
    assert result.attempted and not result.failed


def test_a_build_that_does_not_end_is_a_fault_not_a_traceback(monkeypatch, tmp_path):
    tool = _tool()

    def stuck(command, **kwargs):
        raise tool.subprocess.TimeoutExpired(command, kwargs["timeout"], output=b"Build started\n", stderr=None)

    monkeypatch.setattr(tool.subprocess, "run", stuck)
    output, found = tool.build(tmp_path)
    assert output == "Build started\n"
    assert found == [f"the build did not end within {tool.TIMEOUT} s"]


def _nav_pages(entries) -> list[str]:
    """The Markdown pages the config's nav lists, in order."""
    pages = []
    for entry in entries:
        for value in entry.values():
            pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


@pytest.mark.slow
def test_the_site_builds_strictly_with_every_page(site):
    pages = _nav_pages(tomllib.loads(CONFIG.read_text(encoding="utf-8"))["project"]["nav"])
    assert len(pages) >= 28 and "api/state.md" in pages
    for page in pages:
        built = site / ("index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html")
        assert built.is_file(), page
    assert not [page.name for page in DOCS.glob("*.md") if page.relative_to(DOCS).as_posix() not in pages]
    assert "Game" in (site / "api" / "millebornes" / "index.html").read_text(encoding="utf-8")


_SMALL_SITE = {
    "zensical.toml": """
        [project]
        site_name = "small"
        nav = [{ "Home" = "index.md" }]
        [project.plugins.mkdocstrings.handlers.python]
        paths = ["src"]
        options = { docstring_style = "google", allow_inspection = false }
    """,
    "src/pkg/__init__.py": '''
        """A package."""


        def double(x: int) -> int:
            """Twice x.

            Args:
                y: a parameter it does not have.
            """
            return 2 * x
    ''',
}


def _small_site(root: Path, page: str) -> Path:
    for name, text in {**_SMALL_SITE, "docs/index.md": page}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


@pytest.mark.slow
def test_the_strict_build_fails_on_a_broken_link_a_warning_or_a_bad_reference(tmp_path):
    pytest.importorskip("zensical")
    tool = _tool()
    good = _small_site(tmp_path / "good", "# Home\n\n## Usage\n\n[usage](#usage)\n\n::: pkg\n")
    (good / "src" / "pkg" / "__init__.py").write_text('"""A package."""\n', encoding="utf-8")
    assert tool.build(good)[1] == []
    broken = _small_site(tmp_path / "broken", "# Home\n\n[a page](gone.md), [a heading](#gone)\n\n::: pkg\n")
    found = "\n".join(tool.build(broken)[1])
    for fault in ("page does not exist", "anchor does not exist", "Parameter 'y' does not appear in the function"):
        assert fault in found, found
    missing = _small_site(tmp_path / "missing", "# Home\n\n::: pkg.nothing\n")
    assert "pkg.nothing" in "\n".join(tool.build(missing)[1])


class _Page(HTMLParser):
    """What a page makes the browser fetch (src, srcset, link href, CSS and script in it), where it links, and the
    ids a link may point at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.loads: list[str] = []
        self.links: list[str] = []
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self.ids: set[str] = set()
        self._inside: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        rel = set((dict(attrs).get("rel") or "").split())
        for name, value in attrs:
            value = value or ""
            if name == "id":
                self.ids.add(value)
            elif name in ("src", "poster", "data", "background") or (name == "href" and tag in ("use", "image")):
                self.loads.append(value)
            elif name == "href" and tag == "link" and not rel & _NOT_FETCHED:
                self.loads.append(value)
            elif name == "srcset":
                self.loads += [part.split()[0] for part in value.split(",") if part.strip()]
            elif name == "xlink:href":
                self.loads.append(value)
            elif name == "href" and tag == "a":
                self.links.append(value)
            elif name == "style":
                self.styles.append(value)
        self._inside = tag if tag in ("style", "script") else None

    def handle_endtag(self, tag: str) -> None:
        self._inside = None

    def handle_data(self, data: str) -> None:
        if self._inside == "style":
            self.styles.append(data)
        elif self._inside == "script":
            self.scripts.append(data)


def _css_loads(text: str) -> list[str]:
    return [a or b for a, b in _CSS_LOADS.findall(text)]


def _js_fetches(text: str) -> list[str]:
    return [url for url in _JS_URLS.findall(text) if not url.startswith(_NAMESPACES)]


@pytest.mark.slow
def test_no_page_loads_anything_from_the_internet(site):
    loads: list[str] = []
    links: set[str] = set()
    fetches: set[str] = set()
    pages = []
    for path in sorted(site.rglob("*")):
        where = str(path.relative_to(site))
        if path.suffix == ".html":
            text = path.read_text(encoding="utf-8")
            pages.append(text)
            page = _Page()
            page.feed(text)
            loads += [f"{where}: {url}" for url in page.loads if _REMOTE.match(url)]
            loads += [f"{where}: {url}" for css in page.styles for url in _css_loads(css)]
            fetches.update(url for script in page.scripts for url in _js_fetches(script))
            links.update(url for url in page.links if _REMOTE.match(url))
        elif path.suffix == ".css":
            loads += [f"{where}: {url}" for url in _css_loads(path.read_text(encoding="utf-8"))]
        elif path.suffix == ".js":
            fetches.update(_js_fetches(path.read_text(encoding="utf-8")))
    assert pages, "no page built"
    assert not loads, f"fetched from the internet: {loads}"
    unknown = sorted(url for url in fetches if not url.startswith(tuple(THEME_FETCHES)))
    assert not unknown, f"a script fetches from the internet: {unknown}"
    for prefix, marker in THEME_FETCHES.items():
        if marker and any(url.startswith(prefix) for url in fetches):
            assert not [page for page in pages if marker.search(page)], f"a page would make the theme fetch {prefix}"
    unexplained = sorted(links - set(EXTERNAL_LINKS))
    assert not unexplained, f"links out of the site without a reason (EXTERNAL_LINKS): {unexplained}"


def _target(site: Path, base: str, page: Path, href: str) -> tuple[Path, str] | None:
    """The built file and the fragment a link inside the site leads to; None for a link out of it. ``base`` is
    the site's path on its host (the 404 page links from there: it is served at any depth)."""
    url = urlsplit(href)
    if url.scheme or url.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    path = unquote(url.path)
    if not path:
        return page, unquote(url.fragment)
    if path.startswith("/") and not path.startswith(base):
        return site.parent / path.lstrip("/"), ""  # above the site's folder: none of its files
    target = Path(os.path.normpath(site / path.removeprefix(base) if path.startswith("/") else page.parent / path))
    if target.is_dir() or path.endswith("/"):
        target = target / "index.html"
    return target, unquote(url.fragment)


def _broken_links(site: Path, base: str = "/") -> list[str]:
    """Each link of a built page to a file that is not in the site, or to an id its page does not have."""
    pages: dict[Path, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        pages[path] = _Page()
        pages[path].feed(path.read_text(encoding="utf-8"))
    broken = []
    for path, page in pages.items():
        for href in page.links:
            found = _target(site, base, path, href)
            if found is None:
                continue
            target, fragment = found
            where = f"{path.relative_to(site)}: {href}"
            if not target.is_relative_to(site) or not target.is_file():
                broken.append(f"{where} (no such file)")
            elif fragment and target in pages and fragment not in pages[target].ids:
                broken.append(f"{where} (no such heading)")
    return broken


@pytest.mark.slow
def test_every_link_inside_the_site_leads_to_a_page_and_heading_there(site):
    """Zensical checks the links written in the pages; this checks the built site's, the navigation's and the API
    reference's included."""
    base = urlsplit(tomllib.loads(CONFIG.read_text(encoding="utf-8"))["project"]["site_url"]).path
    assert base.endswith("/")
    assert not _broken_links(site, base), "\n".join(_broken_links(site, base))


_HEADING = re.compile(r'<h[1-6] id="([^"]+)"[^>]*>(.*?)<a class="headerlink"', re.S)


@pytest.mark.slow
def test_the_package_makes_each_heading_s_anchor_as_the_site_does(site):
    """The command line's addresses of the documentation (millebornes.documentation) name a heading by its text:
    each guide's headings get from ``slug`` the anchor the built site gives them (a repeated one's aside)."""
    from millebornes.documentation import slug

    anchors = []
    for page in [site / "index.html", *site.glob("*/index.html")]:
        anchors += _HEADING.findall(page.read_text(encoding="utf-8"))
    assert len(anchors) > 150
    wrong = [
        (anchor, text)
        for anchor, text in anchors
        if not re.search(r"_\d+$", anchor) and slug(html.unescape(re.sub(r"<[^>]+>", "", text))) != anchor
    ]
    assert not wrong, wrong


def test_the_link_check_finds_a_missing_page_and_heading(tmp_path):
    (tmp_path / "guide").mkdir()
    (tmp_path / "index.html").write_text(
        '<h1 id="top">x</h1><a href="guide/">ok</a><a href="#top">ok</a><a href="guide/#setup">ok</a>'
        '<a href="gone/">x</a><a href="guide/#gone">x</a><a href="#nowhere">x</a><a href="https://x.example/">out</a>'
    )
    (tmp_path / "guide" / "index.html").write_text(
        '<h2 id="setup">x</h2><a href="../index.html#top">ok</a><a href="/site/guide/#setup">ok</a>'
        '<a href="/elsewhere/">x</a>'
    )
    assert _broken_links(tmp_path, "/site/") == [
        "guide/index.html: /elsewhere/ (no such file)",
        "index.html: gone/ (no such file)",
        "index.html: guide/#gone (no such heading)",
        "index.html: #nowhere (no such heading)",
    ]


def test_the_checks_catch_what_they_look_for():
    page = _Page()
    page.feed(
        '<link rel="canonical" href="https://example.org/page/">'
        '<link rel="stylesheet" href="https://fonts.example/css"><img srcset="a.png 1x, //cdn.example/b.png 2x">'
        '<a href="https://example.org">x</a><style>@import "https://cdn.example/x.css";</style>'
        "<script>fetch('https://api.example/v1')</script>"
    )
    assert [url for url in page.loads if _REMOTE.match(url)] == ["https://fonts.example/css", "//cdn.example/b.png"]
    assert page.links == ["https://example.org"]
    assert _css_loads(page.styles[0]) == ["https://cdn.example/x.css"]
    assert _css_loads("a{background:url( 'http://x.example/i.png' )} b{background:url(data:image/png;base64,AA)}") == [
        "http://x.example/i.png"
    ]
    assert _js_fetches(page.scripts[0] + ' e.setAttribute("xmlns", "http://www.w3.org/2000/svg")') == [
        "https://api.example/v1"
    ]


def _reference_modules() -> list[str]:
    """The modules the API reference pages show (their `::: name` lines)."""
    names = []
    for page in sorted((DOCS / "api").glob("*.md")):
        names += re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M)
    return names


def _documented_in(parent, name: str) -> bool:
    """Whether the parent's docstring has an Attributes section that names ``name`` (Google style)."""
    import griffe

    if parent.docstring is None:
        return False
    sections = parent.docstring.parse(griffe.Parser.google, warnings=False)
    return any(
        section.kind is griffe.DocstringSectionKind.attributes and name in {item.name for item in section.value}
        for section in sections
    )


def _public(module, name: str, member) -> bool:
    """Public in a module: listed in its ``__all__`` when it has one, else its own (not imported) and not _-named."""
    if module.exports is not None:
        return name in module.exports
    return not name.startswith("_") and not member.is_alias


def _undocumented(obj) -> list[str]:
    """The public names under a class that have no docstring, members declared on it (not inherited) included."""
    missing = []
    for name, member in obj.members.items():
        if name.startswith("_") or member.is_alias:
            continue
        if not member.docstring and not _documented_in(obj, name):
            missing.append(member.path)
        if member.is_class:
            missing += _undocumented(member)
    return missing


def test_every_public_name_of_the_api_reference_has_a_docstring():
    griffe = pytest.importorskip("griffe")
    modules = _reference_modules()
    assert "millebornes" in modules and "millebornes.state" in modules
    # the sources, as the site reads them: with the compiled engine imported (this test run), griffe would
    # otherwise inspect its extension modules, whose members carry no docstrings
    package = griffe.load("millebornes", search_paths=[str(ROOT / "src")], resolve_aliases=True, allow_inspection=False)
    missing: list[str] = []
    for dotted in modules:
        module = package[dotted.removeprefix("millebornes").lstrip(".")] if dotted != "millebornes" else package
        if not module.docstring:
            missing.append(f"{dotted} (the module)")
        for name, member in module.members.items():
            if not _public(module, name, member):
                continue
            try:
                target = member.final_target if member.is_alias else member
            except griffe.AliasResolutionError:
                missing.append(f"{dotted}.{name} (the reference cannot find where it is defined)")
                continue
            if target.is_module:
                continue
            if not target.docstring and not _documented_in(target.parent, target.name):
                missing.append(target.path)
            if target.is_class:
                missing += _undocumented(target)
    missing = list(dict.fromkeys(missing))  # a name the package re-exports is told once, where it is defined
    assert not missing, f"{len(missing)} public names without a docstring:\n" + "\n".join(missing)


def _left_out(page: Path) -> set[str]:
    """The names a reference page's filters leave out by name (``"!^(a|b)$"``), beyond the _-named."""
    names: set[str] = set()
    for alternatives in re.findall(r'"!\^\(([\w|]+)\)\$"', page.read_text(encoding="utf-8")):
        names.update(alternatives.split("|"))
    return names


def test_the_game_reference_leaves_out_only_the_inner_door_the_engine_guide_lists():
    griffe = pytest.importorskip("griffe")
    left_out = _left_out(DOCS / "api" / "state.md")
    game = griffe.load("millebornes", search_paths=[str(ROOT / "src")], allow_inspection=False)["state.Game"]
    assert not left_out - set(game.members), "a name left out of the reference that Game no longer has"
    guide = (DOCS / "engine.md").read_text(encoding="utf-8")
    door = re.split(r"^#", guide.split("\n### The inner door\n", 1)[1], flags=re.M)[0]
    assert left_out <= set(re.findall(r"`(\w+)`", door)), "the engine guide's inner door lists what the reference hides"
    assert len(left_out) >= 15 and {"act", "legal_actions", "tableau", "apply_legal"}.isdisjoint(left_out)


def test_the_package_page_lists_each_name_the_package_exports_once():
    """docs/api/millebornes.md lists ``millebornes.__all__`` in a table, each name linked to where it is defined
    (the site's link check follows the links), rather than every class and its members a second time."""
    import millebornes

    listed = re.findall(r"^\| \[`(\w+)`\]\(", (DOCS / "api" / "millebornes.md").read_text(encoding="utf-8"), re.M)
    assert sorted(listed) == sorted(millebornes.__all__) and len(set(listed)) == len(listed)


def test_the_docstring_check_reads_attributes_sections():
    griffe = pytest.importorskip("griffe")
    code = '''
    """Cars.

    Attributes:
        LIMIT: the most a car may carry.
    """

    LIMIT = 4
    OTHER = 2


    class Car:
        """A car.

        Attributes:
            speed: how fast it goes.
        """

        speed: int
        colour: str

        def drive(self) -> None:
            """Go."""

        def stop(self) -> None:
            pass
    '''
    with griffe.temporary_visited_module(textwrap.dedent(code), module_name="cars") as module:
        assert _documented_in(module, "LIMIT") and not _documented_in(module, "OTHER")
        assert _public(module, "OTHER", module["OTHER"]) and not _public(module, "_x", module["OTHER"])
        assert _undocumented(module["Car"]) == ["cars.Car.colour", "cars.Car.stop"]


def _pages_with_examples() -> list[Path]:
    return [page for page in sorted(DOCS.glob("*.md")) if re.search(r"^>>> ", page.read_text(encoding="utf-8"), re.M)]


def test_the_library_guide_has_examples():
    assert DOCS / "library.md" in _pages_with_examples()


@pytest.mark.parametrize("page", _pages_with_examples(), ids=lambda page: page.name)
def test_the_examples_of_a_page_run_as_shown(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted and not result.failed, f"{result.failed} of {result.attempted} examples of {page.name}"


def test_the_reference_fences_doctest_sessions():
    spec = importlib.util.spec_from_file_location("griffe_doctests", DOCS / "griffe_doctests.py")
    assert spec and spec.loader
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    result = doctest.testmod(extension)
    assert result.attempted and not result.failed
    assert (
        extension.fenced("See :func:`new_game` and :class:`~millebornes.Game`.")
        == "See `new_game` and `millebornes.Game`."
    )


# The web wing's tree in docs/web.md, "The code": one line per package and per module of the wiring.
WEB = ROOT / "src" / "millebornes" / "web"
_TREE_ENTRY = re.compile(r"^((?:│   |    )*)[├└]── (\S+)")


def _tree_paths(page: str) -> list[str]:
    """The paths the tree of a page's "The code" section names, relative to the web wing (``tables/``, ``app.py``,
    ``db/migrations/``): each entry's name under those of the entries it is drawn beneath."""
    section = re.split(r"^## ", re.split(r"^## The code$", page, flags=re.M)[1], flags=re.M)[0]
    (tree,) = re.findall(r"```text\nsrc/millebornes/web/\n(.*?)```", section, re.S)
    paths: list[str] = []
    above: list[str] = []
    for line in tree.splitlines():
        entry = _TREE_ENTRY.match(line)
        if entry:
            depth = len(entry.group(1)) // 4
            above = above[:depth] + [entry.group(2)]
            paths.append("".join(above))
    return paths


def _wing(root: Path) -> set[str]:
    """What the tree must name: every package under the wing (a folder with an ``__init__.py``; not the pages'
    static files, nor the migrations' revisions, a file each) and every module of the wiring at its top."""
    packages = {
        f"{folder.relative_to(root).as_posix()}/"
        for folder in root.rglob("*")
        if (folder / "__init__.py").is_file() and "static" not in folder.relative_to(root).parts
    }
    packages = {package for package in packages if not package.startswith("db/migrations/versions/")}
    modules = {module.name for module in root.glob("*.py") if module.name != "__init__.py"}
    return packages | modules


def _tree_faults(page: str, root: Path) -> list[str]:
    named = _tree_paths(page)
    faults = [f"{path} is not in the tree" for path in sorted(_wing(root) - set(named))]
    faults += [f"the tree names {path}, which is not there" for path in named if not (root / path).exists()]
    faults += [f"the tree names {path} twice" for path in sorted({p for p in named if named.count(p) > 1})]
    return faults


def test_the_web_guide_draws_the_wing_as_it_is():
    page = (DOCS / "web.md").read_text(encoding="utf-8")
    assert {"app.py", "tables/", "db/", "db/migrations/"} <= set(_tree_paths(page))
    assert not _tree_faults(page, WEB), "docs/web.md, The code:\n" + "\n".join(_tree_faults(page, WEB))


def test_the_tree_check_catches_a_missing_and_a_stale_entry(tmp_path):
    for folder in ("tables", "db/migrations/versions", "static/js"):
        (tmp_path / folder).mkdir(parents=True)
    for module in (
        "app.py",
        "tokens.py",
        "tables/__init__.py",
        "tables/room.py",
        "db/__init__.py",
        "db/migrations/__init__.py",
        "db/migrations/versions/__init__.py",
    ):
        (tmp_path / module).write_text("")
    page = textwrap.dedent(
        """\
        ## The code

        ```text
        src/millebornes/web/
        ├── app.py          the app
        ├── store.py        gone since
        ├── tables/         the live game
        │                   on two lines
        ├── db/             the database
        │   └── migrations/ its revisions
        └── static/         the pages
        ```

        ## Security
        """
    )
    assert _tree_paths(page) == ["app.py", "store.py", "tables/", "db/", "db/migrations/", "static/"]
    assert _tree_faults(page, tmp_path) == [
        "tokens.py is not in the tree",
        "the tree names store.py, which is not there",
    ]
