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


def second_server(db) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MILLEBORNES), "serve", "--port", str(free_port()), "--database-url", f"sqlite:///{db}", "--test-mode"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DATABASE_URL": ""},
    )


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
    probe = [
        sys.executable,
        "-c",
        "import sys; from millebornes.web.db import onefile\n"
        "try:\n onefile.hold(sys.argv[1])\nexcept onefile.SharedFile as e:\n print(e); sys.exit(3)",
        url,
    ]
    assert subprocess.run(probe, capture_output=True, text=True).returncode == 3
    onefile.release(held)
    assert subprocess.run(probe, capture_output=True, text=True).returncode == 3  # still held once
    onefile.release(held)
    assert subprocess.run(probe, capture_output=True, text=True).returncode == 0


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "postgresql://u@localhost/mb"])
def test_only_an_sqlite_file_is_held(url):
    assert onefile.hold(url) is None


@pytest.mark.parametrize(
    "form",
    [
        "sqlite:///file:{db}?uri=true",
        "sqlite:///file://{db}?uri=true",
        "sqlite:///file://localhost{db}?mode=rwc&uri=true",
        "sqlite:///file:{quoted}?uri=true&cache=private",
    ],
)
def test_the_uri_form_of_a_file_is_held_as_the_file_itself(tmp_path, form):
    """The URI form names the same file, so it cannot slip past a server that holds it."""
    db = tmp_path / "a b.db"
    held = onefile.hold(f"sqlite:///{db}")
    try:
        url = form.format(db=db, quoted=str(db).replace(" ", "%20"))
        assert onefile.sqlite_path(url) == os.path.realpath(db)
        probe = [
            sys.executable,
            "-c",
            "import sys; from millebornes.web.db import onefile\n"
            "try:\n onefile.hold(sys.argv[1])\nexcept onefile.SharedFile as e:\n print(e); sys.exit(3)",
            url,
        ]
        assert subprocess.run(probe, capture_output=True, text=True).returncode == 3
    finally:
        onefile.release(held)


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///file::memory:?uri=true",
        "sqlite:///file:mb?mode=memory&uri=true",
        "sqlite:///mb.db?mode=memory&uri=true",
    ],
)
def test_sqlite_in_memory_by_uri_holds_no_file(url):
    assert onefile.sqlite_path(url) is None
