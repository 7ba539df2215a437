"""Tournaments: schedule balance, reproducibility, statistics, forfeits, hand mode, the command, Ray."""

import csv
import json
import math
import os
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

import millebornes as mb
import millebornes.tournament as T
from millebornes.bots import make_bot
from millebornes.cli import app
from millebornes.executors import LocalExecutor, RayExecutor, make_executor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runner = CliRunner()


def strip_times(results):
    """Results without the wall-clock parts, which differ from run to run."""
    return [{k: v for k, v in r.items() if k != "time"} | {"counts": [t["count"] for t in r["time"]]} for r in results]


def table_without_times(summary):
    return [{k: v for k, v in row.items() if k not in ("ms_mean", "ms_max")} for row in summary["table"]]


# ------------------------------------------------------------------------------------ schedule
@pytest.mark.parametrize("nbots,nsides,games", [(2, 2, 10), (3, 2, 7), (4, 3, 5), (2, 3, 6), (3, 4, 4)])
def test_schedule_is_seat_balanced_and_paired(nbots, nsides, games):
    specs = [f"bot{i}" for i in range(nbots)]
    matches = T.schedule(specs, nsides, games, seed=11)
    groups = T.pairings(nbots, nsides)
    deals = math.ceil(games / nsides)
    assert len(matches) == len(groups) * deals * nsides
    assert [m["index"] for m in matches] == list(range(len(matches)))
    per_pairing = Counter(m["pairing"] for m in matches)
    assert set(per_pairing.values()) == {deals * nsides} and deals * nsides >= games
    # every bot takes every side equally often, overall and within each pairing
    seats = Counter((e, side) for m in matches for side, e in enumerate(m["entrants"]))
    for e in range(nbots):
        assert len({seats[e, side] for side in range(nsides)}) == 1, (e, seats)
    # each deal is one seed replayed once per rotation; the rotations put each member of the group on each side
    by_deal = {}
    for m in matches:
        by_deal.setdefault((m["pairing"], m["deal"]), []).append(m)
        assert m["bots"] == [specs[e] for e in m["entrants"]]
    for (p, _deal), ms in by_deal.items():
        assert len(ms) == nsides and len({m["seed"] for m in ms}) == 1
        for side in range(nsides):
            assert Counter(m["entrants"][side] for m in ms) == Counter(groups[p])
    # every pairing meets the same shuffles, and different deals differ
    seeds_of = {p: [ms[0]["seed"] for (q, d), ms in sorted(by_deal.items()) if q == p] for p in range(len(groups))}
    assert all(s == seeds_of[0] for s in seeds_of.values())
    assert len(set(seeds_of[0])) == deals
    # the seeds come from the tournament seed
    assert T.schedule(specs, nsides, games, seed=11) == matches
    assert [m["seed"] for m in T.schedule(specs, nsides, games, seed=12)] != [m["seed"] for m in matches]


def test_pairings_cover_every_pair_or_combination():
    assert T.pairings(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert T.pairings(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    with pytest.raises(ValueError):
        T.pairings(1, 2)


def test_parse_bot_options_keeps_commands_whole():
    assert T.parse_bot_options(["heuristic,ismcts", "cmd:python my_bot.py --x,y", "random"]) == [
        "heuristic",
        "ismcts",
        "cmd:python my_bot.py --x,y",
        "random",
    ]
    assert T.parse_bot_options(["heuristic:noise=0.3,random"]) == ["heuristic:noise=0.3", "random"]


# --------------------------------------------------------------------------------- reproducible
def test_same_seed_same_results_in_process_and_with_two_workers():
    kwargs = dict(ruleset="classic", players=2, games=4, seed=5, hands=True)
    a = T.run_tournament(["heuristic", "random", "easy"], **kwargs)
    b = T.run_tournament(["heuristic", "random", "easy"], **kwargs)
    with LocalExecutor(2) as ex:
        c = T.run_tournament(["heuristic", "random", "easy"], executor=ex, batch=1, **kwargs)
    assert a["matches"] == 12 and [r["index"] for r in c["results"]] == list(range(12))
    assert strip_times(a["results"]) == strip_times(b["results"]) == strip_times(c["results"])
    assert table_without_times(a) == table_without_times(c)
    assert a["head_to_head"] == c["head_to_head"]
    d = T.run_tournament(["heuristic", "random", "easy"], **(kwargs | {"seed": 6}))
    assert [r["seed"] for r in d["results"]] != [r["seed"] for r in a["results"]]


def test_play_match_plays_a_full_match_from_observations_only():
    seen = []

    class Spy:
        def __init__(self, spec, seed):
            self.inner = make_bot(spec, seed)
            self.seats = set()
            seen.append(self)

        def choose(self, observation, legal):
            assert type(observation) is dict and observation["legal_actions"] == legal
            assert "stock" not in observation and "seed" not in observation
            self.seats.add(observation["seat"])
            return self.inner.choose(observation, legal)

    r = T.play_match("classic", 4, True, 3, ["heuristic", "random"], factory=Spy)
    assert len(seen) == 4 and all(len(bot.seats) == 1 for bot in seen)
    assert sorted(s for bot in seen for s in bot.seats) == [0, 1, 2, 3]
    g = mb.new_game("classic", 4, True, 3)
    assert r["forfeit"] is None and r["decisions"] == sum(t["count"] for t in r["time"]) > 0
    assert max(r["points"]) >= g.ruleset.match_target == 5000
    assert r["winners"] and all(0 <= w < 2 for w in r["winners"]) and r["hands"] >= 1


# ------------------------------------------------------------------------------------ statistics
def made(entrants, winners, points=None, forfeit=None, index=0):
    n = len(entrants)
    return {
        "index": index,
        "seed": 0,
        "entrants": entrants,
        "winners": winners,
        "points": points or [0] * n,
        "time": [{"count": 2, "total": 0.002 * (e + 1), "max": 0.0015 * (e + 1)} for e in entrants],
        "forfeit": forfeit,
    }


def test_wilson_interval_known_values():
    low, high = T.wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = T.wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = T.wilson(50, 100)
    assert math.isclose(low + high, 1.0) and round(low, 4) == 0.4038
    assert T.wilson(0, 0) == (0.0, 1.0)
    for n in (1, 7, 100, 400, 1200):  # sweeps: the interval holds the rate exactly
        assert T.wilson(0, n)[0] == 0.0 and T.wilson(n, n)[1] == 1.0
        assert T.wilson(0, n)[1] > 0 and T.wilson(n, n)[0] < 1


def test_bradley_terry_matches_the_two_player_formula():
    elo = T.bradley_terry_elo(2, {(0, 1): 75.0}, {(0, 1): 100.0}, prior=0)
    assert math.isclose(elo[0] - elo[1], 400 * math.log10(3), rel_tol=1e-6)
    assert math.isclose(sum(elo) / 2, 1500)
    # a clean sweep stays finite thanks to the virtual draws
    elo = T.bradley_terry_elo(2, {(0, 1): 10.0}, {(0, 1): 10.0})
    assert math.isfinite(elo[0]) and elo[0] > elo[1]


def test_summary_of_hand_made_results():
    results = []
    # A beats B 7 of 10, B beats C 7 of 10, A beats C 9 of 10; one A-B match is a tie
    for i in range(10):
        results.append(made([0, 1], [0] if i < 6 else [0, 1] if i < 8 else [1], [100, 50]))
        results.append(made([1, 2], [0] if i < 7 else [1], [30, 20]))
        results.append(made([2, 0], [1] if i < 9 else [0], [10, 90]))
    for i, r in enumerate(results):
        r["index"] = i
    results[-1]["forfeit"] = {"side": 0, "seat": 0, "bot": "C", "message": "side 0 (C) forfeited: answered 'x'"}
    s = T.summarize(results, ["A", "B", "C"])
    rows = {row["bot"]: row for row in s["table"]}
    assert rows["A"]["matches"] == rows["B"]["matches"] == rows["C"]["matches"] == 20
    assert rows["A"]["wins"] == 6 + 2 * 0.5 + 9  # 6 wins, 2 ties, 9 wins against C
    assert rows["B"]["wins"] == 2 * 0.5 + 2 + 7
    assert rows["C"]["wins"] == 3 + 1
    assert sum(row["wins"] for row in s["table"]) == len(results)
    assert rows["A"]["win_rate"] == rows["A"]["wins"] / 20
    assert (rows["A"]["ci_low"], rows["A"]["ci_high"]) == T.wilson(rows["A"]["wins"], 20)
    assert rows["A"]["mean_points"] == (100 * 10 + 90 * 10) / 20
    assert rows["C"]["forfeits"] == 1 and rows["A"]["forfeits"] == 0
    assert s["forfeits"][0]["message"].startswith("side 0 (C) forfeited")
    assert rows["A"]["elo"] > rows["B"]["elo"] > rows["C"]["elo"]
    assert math.isclose(sum(row["elo"] for row in s["table"]) / 3, 1500)
    assert rows["C"]["ms_mean"] == pytest.approx(1000 * 0.006 / 2) and rows["C"]["ms_max"] == pytest.approx(4.5)
    h2h = {(h["a"], h["b"]): h for h in s["head_to_head"]}
    assert h2h["A", "B"]["a_score"] == 7 and h2h["A", "B"]["games"] == 10
    assert h2h["A", "C"]["a_score"] == 9 and h2h["B", "C"]["a_score"] == 7
    # completion order does not matter
    assert T.summarize(list(reversed(results)), ["A", "B", "C"]) == s
    text = T.format_table(s)
    assert text.index("\nA ") < text.index("\nB ") < text.index("\nC ") and "head to head" in text


def test_the_head_to_head_interval_paired_by_deal():
    """Each deal played in both seatings: the interval of the deals' mean scores (6 deals won twice, 4 lost twice,
    10 split: mean 0.55, sample variance 2.45 / 19 over 20 deals); when every deal splits, no doubt is left."""

    def deal(seed, a_wins):
        first = made([0, 1], [0] if a_wins[0] else [1], index=2 * seed)
        second = made([1, 0], [1] if a_wins[1] else [0], index=2 * seed + 1)
        first["seed"] = second["seed"] = seed
        return [first, second]

    wins = [(True, True)] * 6 + [(False, False)] * 4 + [(True, False)] * 10
    results = [r for seed, w in enumerate(wins) for r in deal(seed, w)]
    h = T.summarize(results, ["A", "B"])["head_to_head"][0]
    half = T.Z95 * math.sqrt(2.45 / 19 / 20)
    assert h["a_score"] == 22 and h["deals"] == 20
    assert (h["paired_low"], h["paired_high"]) == pytest.approx((0.55 - half, 0.55 + half))
    assert (h["ci_low"], h["ci_high"]) == T.wilson(22, 40)
    assert f"paired by deal (20 deals) {100 * (0.55 - half):.1f}-{100 * (0.55 + half):.1f}%" in T.format_table(
        T.summarize(results, ["A", "B"])
    )
    split = [r for seed in range(20) for r in deal(seed, (True, False))]
    h = T.summarize(split, ["A", "B"])["head_to_head"][0]
    assert (h["paired_low"], h["paired_high"]) == (0.5, 0.5) and h["ci_low"] < 0.4


def test_plot_of_a_clean_sweep(tmp_path):
    pytest.importorskip("matplotlib")  # the plot extra (a wheel's tests where matplotlib has no wheel go without)
    s = T.summarize([made([0, 1], [0], index=i) for i in range(50)], ["A", "B"])
    assert [row["win_rate"] for row in s["table"]] == [1.0, 0.0]
    T.plot_win_rates(s, str(tmp_path / "sweep.png"))
    assert (tmp_path / "sweep.png").read_bytes()[:4] == b"\x89PNG"


def test_three_sided_results_count_every_pair():
    s = T.summarize([made([0, 1, 0], [2], [10, 30, 50]), made([1, 0, 1], [0, 2], [40, 10, 40], index=1)], ["A", "B"])
    rows = {row["bot"]: row for row in s["table"]}
    assert rows["A"]["matches"] == 3 and rows["B"]["matches"] == 3
    assert rows["A"]["wins"] == 1 and rows["B"]["wins"] == 1
    # match 0: A(side 0) loses to B, A(side 2) beats B; match 1: B beats A twice
    assert s["head_to_head"] == [dict(s["head_to_head"][0], a="A", b="B", games=4, a_score=1.0, b_score=3.0)]


# -------------------------------------------------------------------------------------- forfeits
class Garbage:
    name = "garbage"

    def __init__(self, seed):
        self.closed = False

    def choose(self, observation, legal):
        return "fly"

    def close(self):
        self.closed = True


class Raiser:
    name = "raiser"

    def choose(self, observation, legal):
        raise RuntimeError("boom")


def fake_factory(spec, seed):
    """Module level, so a process pool can pickle it."""
    if spec == "garbage":
        return Garbage(seed)
    if spec == "raiser":
        return Raiser()
    return make_bot(spec, seed)


def test_garbage_bot_forfeits_and_the_tournament_goes_on():
    with LocalExecutor(2) as ex:
        s = T.run_tournament(
            ["heuristic", "garbage", "random"], "dujardin", games=4, seed=2, executor=ex, factory=fake_factory
        )
    rows = {row["bot"]: row for row in s["table"]}
    assert s["matches"] == 12
    assert rows["garbage"]["forfeits"] == 8 and rows["garbage"]["wins"] == 0
    assert rows["heuristic"]["forfeits"] == rows["random"]["forfeits"] == 0
    for r in s["results"]:
        if "garbage" in r["bots"]:
            side = r["bots"].index("garbage")
            assert r["forfeit"]["side"] == side and r["winners"] == [1 - side]
            assert (
                r["forfeit"]["message"]
                == f"side {side} (garbage) forfeited: answered 'fly' which is not a legal action"
            )
        else:
            assert r["forfeit"] is None and r["decisions"] > 0
    assert "forfeited: answered 'fly' which is not a legal action" in T.format_table(s)


def test_a_bot_that_raises_forfeits_and_bots_are_closed():
    made_bots = []

    def factory(spec, seed):
        bot = fake_factory(spec, seed)
        made_bots.append(bot)
        return bot

    r = T.play_match("classic", 2, None, 1, ["raiser", "random"], factory=factory)
    assert r["winners"] == [1] and r["forfeit"]["message"] == "side 0 (raiser) forfeited: raised RuntimeError: boom"
    r = T.play_match("classic", 2, None, 1, ["random", "garbage"], factory=factory)
    assert r["winners"] == [0] and r["forfeit"]["seat"] == 1
    assert made_bots[-1].closed


def test_external_bots_through_the_protocol():
    good = f"cmd:{sys.executable} {os.path.join(ROOT, 'examples', 'external_bot.py')}"
    bad = f"cmd:{sys.executable} {os.path.join(ROOT, 'examples', 'garbage_bot.py')}"
    s = T.run_tournament(["random", good, bad], "dujardin", games=2, seed=4)
    rows = {row["bot"]: row for row in s["table"]}
    assert s["matches"] == 6
    assert rows[good]["forfeits"] == 0 and rows[good]["decisions"] > 0 and rows[good]["matches"] == 4
    assert rows[bad]["forfeits"] == 4
    assert all(
        "forfeited" in f["message"] and "'fly'" in f["message"] and "not a legal action" in f["message"]
        for f in s["forfeits"]
    )


# -------------------------------------------------------------------------------------- hand mode
def test_hands_mode_plays_one_hand_and_scores_its_points():
    s = T.run_tournament(["heuristic", "random"], "classic", games=6, seed=9, hands=True)
    assert s["hands"] is True and s["matches"] == 6
    for r in s["results"]:
        assert r["hands"] == 1 and r["forfeit"] is None
        best = max(r["points"])
        assert best < 5000
        if r["points"].count(best) == 1:
            assert r["winners"] == [r["points"].index(best)]
    # the same deal played out to the end is a different (longer) result
    full = T.play_match("classic", 2, None, s["results"][0]["seed"], s["results"][0]["bots"])
    assert full["decisions"] > s["results"][0]["decisions"] and max(full["points"]) >= 5000


# ------------------------------------------------------------------------------------------ command
def test_cli_table_json_csv_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    args = [
        "tournament",
        "--bots",
        "heuristic,random",
        "--ruleset",
        "dujardin",
        "--games",
        "4",
        "--seed",
        "1",
        "--workers",
        "1",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "dujardin, 2 players, 4 matches" in out and "95% CI" in out and "Elo" in out
    assert "heuristic vs random:" in out

    result = runner.invoke(app, args + ["--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["matches"] == 4 and [row["bot"] for row in data["table"]] == ["heuristic", "random"]
    assert len(data["results"]) == 4 and data["head_to_head"][0]["games"] == 4

    csv_file, png = tmp_path / "t.csv", tmp_path / "t.png"
    result = runner.invoke(app, args + ["--csv", str(csv_file), "--plot", str(png), "--quiet"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(csv_file.open(encoding="utf-8", newline="")))
    assert [r["bot"] for r in rows] == ["heuristic", "random"]
    assert float(rows[0]["wins"]) == data["table"][0]["wins"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000

    result = runner.invoke(app, args + ["--csv", "-"])
    assert result.exit_code == 0 and result.output.splitlines()[0].startswith("bot,matches,wins,win_rate")


def test_cli_forfeit_message_with_a_patched_player_factory(monkeypatch):
    def factory(spec, seed):
        return Garbage(seed) if spec.startswith("cmd:") else make_bot(spec, seed)

    monkeypatch.setattr(T, "make_player", factory)
    result = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "random",
            "--bots",
            "cmd:python bad.py --a,b",
            "--ruleset",
            "dujardin",
            "--games",
            "2",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "side 1 (cmd:python bad.py --a,b) forfeited: answered 'fly' which is not a legal action" in result.output
    assert "side 0 (cmd:python bad.py --a,b) forfeited" in result.output


def test_cli_rejects_bad_input():
    assert runner.invoke(app, ["tournament", "--bots", "heuristic,nosuchbot"]).exit_code != 0
    assert runner.invoke(app, ["tournament", "--bots", "heuristic"]).exit_code != 0
    assert runner.invoke(app, ["tournament", "--bots", "heuristic,random", "--ruleset", "nope"]).exit_code != 0
    assert runner.invoke(app, ["tournament", "--bots", "heuristic,random", "--backend", "spark"]).exit_code != 0


def test_local_executor_map_keeps_order():
    with make_executor("local", 2) as ex:
        assert ex.map(abs, [-3, 2, -1, 0]) == [3, 2, 1, 0]
        assert sorted(ex.map_unordered(abs, [-3, 2, -1])) == [1, 2, 3]


# ---------------------------------------------------------------------------------------- Ray (one)
@pytest.mark.ray
def test_ray_executor_runs_a_few_matches():
    import ray

    ex = RayExecutor(num_cpus=2)
    try:
        assert ray.is_initialized() and ex.workers == 2
        s = T.run_tournament(["heuristic", "random"], "dujardin", games=4, seed=3, executor=ex, batch=1)
        assert ex.map(abs, [-3, 2, -1]) == [3, 2, 1]  # map keeps the order, through callable objects
    finally:
        ex.close()
    assert not ray.is_initialized()
    local = T.run_tournament(["heuristic", "random"], "dujardin", games=4, seed=3)
    assert s["matches"] == 4 and strip_times(s["results"]) == strip_times(local["results"])
    assert table_without_times(s) == table_without_times(local)
