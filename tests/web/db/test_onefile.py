"""One serving process per SQLite file: a second `millebornes serve` on the same file is refused in words
and changes nothing; the file is free again once its server is gone, even killed."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from millebornes.web.db import onefile
from tests.serving import MILLEBORNES, Server, free_port


def second_server(db, url: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """``millebornes serve`` on ``url`` (default: the plain URL of ``db``), from ``cwd``."""
    return subprocess.run(
        [str(MILLEBORNES), "serve", "--port", str(free_port()), "--database-url", url or f"sqlite:///{db}"]
        + ["--test-mode"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={**os.environ, "DATABASE_URL": ""},
    )


PROBE = (
    "import sys; from millebornes.web.db import onefile\n"
    "try:\n onefile.hold(sys.argv[1])\nexcept onefile.NoFile:\n sys.exit(4)\n"
    "except onefile.SharedFile as e:\n print(e); sys.exit(3)"
)
"""Another process holding ``argv[1]``: exit status 3 when another process holds the file (4: no file)."""


def probe(url: str, cwd=None) -> int:
    return subprocess.run([sys.executable, "-c", PROBE, url], capture_output=True, text=True, cwd=cwd).returncode


def spellings(tmp_path) -> list[tuple[str, str]]:
    """Every way found of naming ``tmp_path/a b.db`` to SQLite through a URL, with the working directory each is
    read from: the truthy spellings of ``uri`` SQLAlchemy takes, ``file:`` URIs with their options, a path with
    ``..``, a symlink, a hard link, relative paths from two directories."""
    db = tmp_path / "a b.db"
    quoted = str(db).replace(" ", "%20")
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    if not (tmp_path / "link.db").exists():
        (tmp_path / "link.db").symlink_to(db)
        os.link(db, tmp_path / "hard.db")
    forms = [f"sqlite:///file:{quoted}?uri={truthy}" for truthy in ("true", "t", "y", "1", "on", "yes", "TRUE")]
    forms += [
        f"sqlite:///file://{quoted}?uri=true",
        f"sqlite:///file://localhost{quoted}?mode=rwc&uri=true",
        f"sqlite:///file:{quoted}?mode=rw&uri=1",
        f"sqlite:///file:{quoted}?cache=shared&uri=on",
        f"sqlite:///file:{quoted}?cache=private&mode=rw&uri=y",
        f"sqlite:///{db}?uri=true",
        f"sqlite:///{tmp_path}/elsewhere/../a b.db",
        f"sqlite:///{tmp_path}/link.db",
        f"sqlite:///file:{tmp_path}/link.db?uri=t",
        f"sqlite:///{tmp_path}/hard.db",
        f"sqlite:///file:{tmp_path}/hard.db?mode=rw&uri=yes",
    ]
    return [(form, None) for form in forms] + [
        ("sqlite:///a b.db", str(tmp_path)),
        ("sqlite:///../a b.db", str(tmp_path / "elsewhere")),
        ("sqlite:///file:../a%20b.db?uri=t", str(tmp_path / "elsewhere")),
    ]


@pytest.mark.server
def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path):
    db = tmp_path / "mb.db"
    first = Server(db, tmp_path / "server.log", 0)
    try:
        table = first.create(ruleset="classic", players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        second = second_server(db)
        assert second.returncode == 2
        assert "another millebornes server serves" in second.stderr and "PostgreSQL" in second.stderr
        assert "Traceback" not in second.stderr and "serving the game" not in second.stdout
        assert httpx.get(f"{first.base}/api/tables/{table['id']}", timeout=10).status_code == 200
    finally:
        first.kill()  # SIGKILL: the kernel lets the file go all the same
    again = Server(db, tmp_path / "server.log", 0)
    try:
        assert httpx.get(f"{again.base}/api/tables/{table['id']}", timeout=10).status_code == 200
    finally:
        again.stop()


def test_a_process_may_open_its_own_file_twice_but_not_another_process(tmp_path):
    url = f"sqlite:///{tmp_path}/mb.db"
    held = onefile.hold(url)
    assert onefile.hold(url) == held  # an app opened twice in one process (the tests' restarts)
    assert probe(url) == 3
    onefile.release(held)
    assert probe(url) == 3  # still held once
    onefile.release(held)
    assert probe(url) == 0


def test_a_new_file_is_made_for_its_owner_alone(tmp_path):
    held = onefile.hold(f"sqlite:///{tmp_path}/new.db")
    try:
        assert (tmp_path / "new.db").stat().st_mode & 0o777 == 0o600
    finally:
        onefile.release(held)


def test_this_process_holds_a_file_once_by_any_of_its_names(tmp_path):
    """A hard link or a symlink is the same file: the process's second hold counts, it takes no second lock."""
    db = tmp_path / "a b.db"
    held = onefile.hold(f"sqlite:///{db}")
    try:
        for url, cwd in spellings(tmp_path):
            if cwd is None:
                again = onefile.hold(url)
                assert again == held, url
                onefile.release(again)
    finally:
        onefile.release(held)
    assert probe(f"sqlite:///{db}") == 0


def test_postgresql_holds_no_file():
    assert onefile.hold("postgresql://u@localhost/mb") is None


@pytest.mark.parametrize(
    "url",
    [
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///file::memory:?uri=true",
        "sqlite:///file:mb?mode=memory&uri=true",
        "sqlite:///file:mb?mode=memory&cache=shared&uri=t",
        "sqlite:///?uri=true",
    ],
)
def test_sqlite_in_memory_has_no_file_and_cannot_be_served(url, tmp_path, monkeypatch):
    """In memory (or SQLite's private temporary file) every connection of the pool would see its own empty
    database: refused in words, and no file is made."""
    monkeypatch.chdir(tmp_path)
    assert onefile.sqlite_path(url) is None
    with pytest.raises(onefile.NoFile, match="in memory cannot be served"):
        onefile.hold(url)
    assert list(tmp_path.iterdir()) == []


def test_memory_options_on_a_plain_path_name_a_file(tmp_path, monkeypatch):
    """Without ``file:`` SQLite takes the whole name as a file's, options and all: that file is made and held."""
    monkeypatch.chdir(tmp_path)
    url = "sqlite:///mb.db?mode=memory&uri=true"
    assert onefile.sqlite_path(url) == str(tmp_path / "mb.db?mode=memory")
    held = onefile.hold(url)
    try:
        assert (tmp_path / "mb.db?mode=memory").is_file()
        assert probe(f"sqlite:///{tmp_path}/mb.db%3Fmode=memory") == 3
    finally:
        onefile.release(held)


@pytest.mark.parametrize("index", range(21))
def test_every_spelling_of_a_held_file_is_refused_to_another_process(tmp_path, index):
    """The file SQLite opens is held, whatever the URL spells: each of :func:`spellings` is refused while a
    process holds the plain path, and names that same file when found without opening it."""
    db = tmp_path / "a b.db"
    held = onefile.hold(f"sqlite:///{db}")
    try:
        forms = spellings(tmp_path)
        assert len(forms) == 21
        url, cwd = forms[index]
        assert probe(url, cwd) == 3, url
        if cwd is None:
            assert os.stat(onefile.sqlite_path(url)).st_ino == db.stat().st_ino, url
    finally:
        onefile.release(held)
    assert probe(url, cwd) == 0


def test_a_plain_path_is_refused_while_a_uri_spelling_holds_it(tmp_path):
    """The other way round: the first server came by a URI, the second by the plain path."""
    db = tmp_path / "mb.db"
    held = onefile.hold(f"sqlite:///file:{db}?mode=rwc&uri=y")
    try:
        assert probe(f"sqlite:///{db}") == 3
    finally:
        onefile.release(held)


@pytest.mark.server
def test_a_second_server_is_refused_by_each_kind_of_spelling(tmp_path):
    """Real `millebornes serve` processes: the first on the plain path, a second on one spelling of each kind (a
    ``file:`` URI, a path through ``..``, a symlink, a hard link, a relative path). The serve command asks the same
    guard as the probe, which each of the 21 spellings meets in the test above; a server started for each took
    two and a half minutes of CI."""
    db = tmp_path / "a b.db"
    first = Server(f"sqlite:///{db}", tmp_path / "server.log", 0)
    forms = spellings(tmp_path)
    kinds = [
        next(form for form in forms if form[0].startswith("sqlite:///file:") and "link" not in form[0]),
        next(form for form in forms if "/../" in form[0]),
        next(form for form in forms if form[0].endswith("/link.db")),
        next(form for form in forms if form[0].endswith("/hard.db")),
        next(form for form in forms if form[1] is not None),
    ]
    try:
        table = first.create(ruleset="classic", players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
        for url, cwd in kinds:
            second = second_server(db, url, cwd)
            assert second.returncode == 2, (url, second.stderr)
            assert "another millebornes server serves" in second.stderr, url
            assert "Traceback" not in second.stderr and "serving the game" not in second.stdout
        assert httpx.get(f"{first.base}/api/tables/{table['id']}", timeout=10).status_code == 200
    finally:
        first.stop()


@pytest.mark.server
def test_serve_refuses_sqlite_in_memory_in_words(tmp_path):
    served = second_server(None, "sqlite://", tmp_path)
    assert served.returncode == 2
    assert "in memory cannot be served" in served.stderr and "Traceback" not in served.stderr
    assert "serving the game" not in served.stdout
