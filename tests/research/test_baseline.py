"""examples/baseline.py, the baseline table, in its quick mode (a tiny training, 2 matches a pair): the same seed
gives the same table, with one worker or two; every pair is there, each rate inside its interval, every deal
played from both seats; the searching levels play a fixed number of playouts (needs the learn extra)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

from millebornes.bots import LEVELS, make_bot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "baseline.py"
LEVELS_PLAYED = "easy,medium,hard"  # the tests' ladder offers every level; expert's 40 playouts would only add time
ENTRANTS = 2 + len(LEVELS_PLAYED.split(","))  # the policy, random and the levels
ROW = re.compile(
    r"^\| (?P<a>[^|]+) \| (?P<b>[^|]+) \| (?P<n>\d+) \| (?P<score>[\d.]+) \| (?P<rate>[\d.]+)% \| "
    r"(?P<low>[\d.]+)%-(?P<high>[\d.]+)% \|$"
)


def _example():
    spec = importlib.util.spec_from_file_location("baseline", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _quick(tmp: Path, name: str, workers: int) -> tuple[str, str]:
    out = tmp / f"{name}.md"
    args = [
        "--quick",
        "--levels",
        LEVELS_PLAYED,
        "--seed",
        "5",
        "--workers",
        str(workers),
        "--out",
        str(out),
        "--train-dir",
        str(tmp / name),
    ]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--json", str(tmp / f"{name}.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, list[tuple[str, str]]]:
    tmp = tmp_path_factory.mktemp("baseline")
    return tmp, [_quick(tmp, "one", 1), _quick(tmp, "two", 2)]


def test_the_same_seed_gives_the_same_table_with_any_workers(runs):
    _, ((printed, written), (_, again)) = runs
    assert written == again
    assert written.strip() in printed
    assert "classic" in written.lower() and "two players" in written


def test_every_pair_and_every_entrant_has_a_line_whose_rate_is_inside_its_interval(runs):
    _, ((_, table), _) = runs
    pairs, entrants = table.split("\n\n| entrant | bot spec")
    rows = [m.groupdict() for m in map(ROW.match, pairs.splitlines()) if m]
    assert len(rows) == ENTRANTS * (ENTRANTS - 1) // 2
    assert len({(r["a"], r["b"]) for r in rows}) == len(rows)
    for r in rows:
        assert int(r["n"]) == 2
        assert float(r["rate"]) == pytest.approx(100 * float(r["score"]) / int(r["n"]), abs=0.05)
        assert float(r["low"]) <= float(r["rate"]) <= float(r["high"])
    lines = [line for line in entrants.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(lines) == ENTRANTS
    assert [line.split(" | ")[0] for line in lines][:2] == ["| ppo", "| random"]
    for line in lines:
        cells = line.split(" | ")
        assert int(cells[2]) == 2 * (ENTRANTS - 1)
        rate, (low, high) = float(cells[4][:-1]), (float(x) for x in cells[5][:-1].split("%-"))
        assert low <= rate <= high


def test_every_deal_is_played_from_both_seats_and_the_policy_plays_legal_moves(runs):
    tmp, _ = runs
    played = json.loads((tmp / "one.json").read_text(encoding="utf-8"))
    assert played["forfeits"] == []  # the policy's bot answered a legal action every time
    seen: dict[tuple[int, frozenset[int]], list[list[int]]] = {}
    for match in played["results"]:
        seen.setdefault((match["seed"], frozenset(match["entrants"])), []).append(match["entrants"])
    assert len(seen) == ENTRANTS * (ENTRANTS - 1) // 2
    for seatings in seen.values():
        assert len(seatings) == 2 and seatings[0] == seatings[1][::-1]
    assert "ppo" in {spec for match in played["results"] for spec in match["bots"]}


def test_the_searching_levels_play_a_fixed_number_of_playouts():
    names = [name for name, _ in _example().entrants(["easy", "medium", "hard"], quick=False)]
    assert names[:2] == ["ppo", "random"] and "hard (800 playouts)" in names
