"""The pages' files under their build (docs/deploy.md, "Rolling upgrades"): every asset a page names is under
``/static/<build>/``, cached for good; another build's file is never this build's; a build recorded in the database
by another process is served here too; and the build id follows the files' bytes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import update  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from millebornes.web.db.database import Database  # noqa: E402
from millebornes.web.pages import repo, routes  # noqa: E402
from millebornes.web.pages.assets import BUILD, build_of, is_asset, snapshot  # noqa: E402
from millebornes.web.pages.repo import BuildRow, Builds, packed  # noqa: E402
from millebornes.web.pages.shelf import REFRESH, Shelf  # noqa: E402

STATIC = routes.STATIC
ASSET = re.compile(r'\b(?:src|href)="(/static/[^"]*)"')
IMMUTABLE = "public, max-age=31536000, immutable"
ADDRESSES = {
    name: address.replace("{table_id}", "abcdefgh").replace("{username}", "ann")
    for address, name in routes.ADDRESSES.items()
}


def own_build(web) -> str:
    return web.app.state.shelf.own.id


def test_every_page_names_its_assets_under_this_build_and_they_are_cached_for_good(web):
    c = web.start()
    build = own_build(web)
    assert BUILD.fullmatch(build)
    seen: set[str] = set()
    for address in ADDRESSES.values():
        r = c.get(address)
        assert r.status_code == 200, address
        assert r.headers["cache-control"] == ("no-store" if address.startswith("/t/") else "no-cache"), address
        assets = ASSET.findall(r.text)
        assert assets and all(a.startswith(f"/static/{build}/") for a in assets), (address, assets)
        inline = f"<script>{(STATIC / routes.RECOVER).read_text(encoding='utf-8')}</script>"
        assert r.text.index(inline) < r.text.index(assets[0]) < r.text.index("</head>"), address
        rest = ASSET.sub("", r.text.replace(inline, ""))
        assert "/static/" not in rest and "<script>" not in rest, f"{address} names a file outside its build"
        assert web.app.state.pages.script_hash in r.headers["content-security-policy"]
        seen.update(assets)
    assert {f"/static/{build}/css/app.css", f"/static/{build}/js/table.js"} <= seen
    for url in sorted(seen):
        r = c.get(url)
        assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE, url
        assert r.content == (STATIC / url.split("/", 3)[3]).read_bytes()
        again = c.get(url, headers={"If-None-Match": r.headers["etag"]})
        assert (again.status_code, again.content, again.headers["cache-control"]) == (304, b"", IMMUTABLE)


def test_an_unchanged_page_is_a_304_and_a_page_of_another_build_is_a_new_page(web):
    c = web.start()
    first = c.get("/rules")
    assert c.get("/rules", headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    assert c.get("/rules", headers={"If-None-Match": '"0000000000000000"'}).status_code == 200


def test_the_scripts_import_each_other_by_relative_paths_only():
    """A page's whole module graph comes from the build its page named: no script or style names an address
    of its own under /static (the recovery script only tests for it)."""
    specifier = re.compile(r"""(?:(?<!\{)\bimport\s*\(|\bfrom\s+|^\s*import\s+)\s*['"`]([^'"`]+)['"`]""", re.M)
    imports = 0
    for path in sorted(STATIC.rglob("*")):
        name = path.relative_to(STATIC).as_posix()
        if not is_asset(name):
            continue
        text = path.read_text(encoding="utf-8")
        if name != routes.RECOVER:
            assert "/static" not in text, name
        if name.endswith(".css"):
            assert not re.search(r"""url\(\s*['"]?/""", text), f"{name}: an address in url() is relative"
        for found in specifier.findall(text):  # a JSDoc type's {import("../types/game")} is no module
            assert found.startswith(("./", "../")) and found.endswith(".js"), (name, found)
            assert (path.parent / found).resolve().is_file(), (name, found)
            imports += 1
    assert imports > 150  # the pages' modules import each other some 220 times


def test_another_build_is_a_404_never_this_builds_file(web):
    c = web.start()
    build = own_build(web)
    for url in ("/static/0123456789ab/js/table.js", f"/static/{build}/js/nothing.js", f"/static/{build}/table.html"):
        r = c.get(url)
        assert (r.status_code, r.headers["cache-control"]) == (404, "no-store"), url
        assert r.headers["content-type"] == "application/json"


def test_an_address_from_before_the_builds_is_sent_to_this_build(web):
    c = web.start()
    build = own_build(web)
    r = c.get("/static/js/table.js", follow_redirects=False)
    assert (r.status_code, r.headers["location"], r.headers["cache-control"]) == (
        307,
        f"/static/{build}/js/table.js",
        "no-store",
    )
    assert c.get("/static/js/table.js").content == (STATIC / "js/table.js").read_bytes()
    for gone in ("/static/table.html", "/static/js/types/frames.d.ts", "/static/js/nothing.js", "/static/"):
        assert c.get(gone, follow_redirects=False).status_code == 404, gone


def copy_of_static(tmp_path: Path) -> Path:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    return copy


def test_the_build_id_follows_the_files_bytes_and_nothing_else(tmp_path):
    copy = copy_of_static(tmp_path)
    first = snapshot(copy)
    assert first.id == snapshot(STATIC).id and first.files.keys() == snapshot(STATIC).files.keys()
    (copy / "js/types/more.d.ts").write_text("declare const x: number;\n")  # not served: the sdist's only
    (copy / "js/.#board.js").write_text("an editor's lock file")
    (copy / "index.html").write_text("<!doctype html>")  # a page: served at its own address, not as an asset
    assert snapshot(copy).id == first.id
    board = copy / "js/board.js"
    board.write_bytes(board.read_bytes() + b" ")
    changed = snapshot(copy)
    assert changed.id != first.id and BUILD.fullmatch(changed.id)
    assert changed.files["js/board.js"].etag != first.files["js/board.js"].etag
    assert changed.files["js/cards.js"] == first.files["js/cards.js"]
    board.rename(copy / "js/board2.js")  # the same bytes under another name: another build
    assert snapshot(copy).id not in (first.id, changed.id)


def test_a_build_recorded_by_another_process_is_served_here_for_good(web, tmp_path, monkeypatch):
    """The process of the build before (its own files) starts first and records them; the next one, of other
    files, serves both builds, each file as its build has it."""
    c = web.start()
    old = own_build(web)
    web.stop()
    copy = copy_of_static(tmp_path)
    (copy / "js/board.js").write_text("export const changed = true;\n")
    monkeypatch.setattr(routes, "STATIC", copy)
    c = web.start()
    new = own_build(web)
    assert new != old
    page = c.get("/")
    assert f"/static/{new}/js/home.js" in page.text and f"/static/{old}/" not in page.text
    for build, body in ((old, (STATIC / "js/board.js").read_bytes()), (new, b"export const changed = true;\n")):
        r = c.get(f"/static/{build}/js/board.js")
        assert (r.status_code, r.content, r.headers["cache-control"]) == (200, body, IMMUTABLE), build
    assert c.get(f"/static/{old}/js/home.js").content == (STATIC / "js/home.js").read_bytes()
    assert c.get(f"/static/{old}/js/nothing.js").status_code == 404
    assert Builds(Database(web.url, "NORMAL")).ids() == {old, new}


def test_a_build_recorded_while_this_process_runs_is_found_and_a_damaged_one_never_served(web, tmp_path):
    c = web.start()
    db = Database(web.url, "NORMAL")
    other = build_of({"js/board.js": b"export const other = 1;\n", "css/app.css": b"body{}\n"})
    assert c.get(f"/static/{other.id}/js/board.js").status_code == 404  # not recorded yet
    Builds(db).record(other)
    shelf = web.app.state.shelf
    shelf.read_at -= REFRESH  # the list of builds was read just now: as if a second went by
    r = c.get(f"/static/{other.id}/js/board.js")
    assert (r.status_code, r.content) == (200, b"export const other = 1;\n")
    damaged = build_of({"js/board.js": b"export const damaged = 1;\n"})
    Builds(db).record(damaged)
    with Session(db.engine) as s, s.begin():
        s.execute(update(BuildRow).where(BuildRow.id == damaged.id).values(files=packed(other)))
    shelf.read_at -= REFRESH
    assert c.get(f"/static/{damaged.id}/js/board.js").status_code == 404


def test_only_the_builds_started_last_are_kept(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/mb.db", "NORMAL")
    builds = Builds(db)
    made = [build_of({"js/a.js": f"export const a = {i};\n".encode()}) for i in range(repo.KEEP + 2)]
    for b in made:
        builds.record(b)
    assert builds.ids() == {b.id for b in made[-repo.KEEP :]}
    builds.record(made[-repo.KEEP])  # started again: the newest now, so the one after it goes first
    builds.record(made[0])
    assert made[-repo.KEEP].id in builds.ids() and made[0].id in builds.ids()
    assert len(builds.ids()) == repo.KEEP
    assert builds.load(made[0].id).files["js/a.js"].body == b"export const a = 0;\n"
    db.close()


def test_a_build_with_files_this_version_does_not_serve_is_read_back_whole_with_their_types(tmp_path):
    """A later version may ship a kind of file this one does not know: its build still hashes to its id here, and
    each file keeps the type that version served it with."""
    db = Database(f"sqlite:///{tmp_path}/mb.db", "NORMAL")
    later = build_of({"js/a.js": b"export const a = 1;\n", "img/b.png": b"\x89PNG"}, {"img/b.png": "image/png"})
    Builds(db).record(later)
    loaded = Builds(db).load(later.id)
    assert loaded is not None and loaded.id == later.id
    assert loaded.files["img/b.png"].media_type == "image/png"
    assert loaded.files["js/a.js"] == later.files["js/a.js"]
    db.close()


def test_every_other_recorded_build_is_read_from_the_database_once(tmp_path):
    """A client asking for the other recorded builds in turn must not make each request load one again."""
    import asyncio

    db = Database(f"sqlite:///{tmp_path}/mb.db", "NORMAL")
    made = [build_of({"js/a.js": f"export const a = {i};\n".encode()}) for i in range(repo.KEEP)]
    loads: list[str] = []

    class Counted(Builds):
        def load(self, build_id):
            loads.append(build_id)
            return super().load(build_id)

    builds = Counted(db)
    for b in made:
        builds.record(b)
    shelf = Shelf(made[-1], builds)

    async def ask_in_turn() -> None:
        for _ in range(5):
            for b in made[:-1]:
                assert (await shelf.find(b.id, "js/a.js")) == b.files["js/a.js"]

    asyncio.run(ask_in_turn())
    assert sorted(loads) == sorted(b.id for b in made[:-1])
    db.close()


@pytest.mark.postgres
def test_processes_of_one_build_starting_together_on_postgresql_record_it_once(fresh_postgres):
    """Every process records its build at start; several of one build at once: one row, no failure."""
    from concurrent.futures import ThreadPoolExecutor

    url = fresh_postgres()
    own = snapshot(STATIC)
    dbs = [Database(url, "NORMAL") for _ in range(4)]
    try:
        for _ in range(3):
            with ThreadPoolExecutor(len(dbs)) as pool:
                list(pool.map(lambda db: Builds(db).record(own), dbs))
        assert Builds(dbs[0]).ids() == {own.id}
        loaded = Builds(dbs[1]).load(own.id)
        assert loaded is not None and loaded.files == own.files
    finally:
        for db in dbs:
            db.close()
