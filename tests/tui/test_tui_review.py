"""The game review in the terminal replay (`millebornes replay FILE [--review REVIEW.json]`), driven by key
presses as tests/tui/test_tui.py drives the table: badges on reviewed moves, the next and previous mistakes, the
summary, and a review computed in the background with its progress in the prompt."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytest.importorskip("textual")

import millebornes as mb  # noqa: E402
from millebornes import review as R  # noqa: E402
from millebornes.bots import make_bot  # noqa: E402
from millebornes.review import decisions, review  # noqa: E402
from millebornes.tui.app import PromptView, ReplayApp  # noqa: E402
from millebornes.tui.reviewing import SummaryScreen  # noqa: E402
from millebornes.tui.words import Words  # noqa: E402

MARKED = ("inaccuracy", "mistake", "blunder")


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def run(coro):
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def match() -> tuple[dict, dict]:
    g = mb.new_game("dujardin", players=2, seed=3)
    bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)]
    while not g.is_over:
        g.act(bots[g.to_act].choose(g.observation(g.to_act), g.legal_actions()))
    record = g.record()
    return record, review(record, worlds=20)


def said(record: dict, index: int, action: str, lang: str = "en") -> str:
    game = mb.replay(record, upto=index)
    top = game.discard_pile[-1] if game.discard_pile else None
    return Words(lang, game.players, game.teams, None).action(action, top)


async def until(pilot, check, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        await pilot.pause()
        await asyncio.sleep(0.02)


def test_badges_and_the_next_and_previous_mistake(match):
    record, rv = match
    marked = [m for m in rv["moves"] if m["class"] in MARKED]
    assert len(marked) >= 2, "the test match should have two marked moves at this budget"
    best = next(m for m in rv["moves"] if m["class"] == "best")
    app = ReplayApp(record, review=rv)

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert "m/M next/previous mistake" in screen_text(app)
            await pilot.press("m")
            first = marked[0]
            assert screen.step == first["index"] + 1
            text = screen_text(app)
            assert f"{first['class'].capitalize()} · Seat {first['seat'] + 1}: " in text
            assert said(record, first["index"], first["played"]) in text
            assert f"better: {said(record, first['index'], first['best'])}" in text
            assert f"{round(100 * first['best_chance'])}% → {round(100 * first['chance'])}%" in text
            assert screen.log_lines[-1].endswith(f" · {first['class'].capitalize()}")
            await pilot.press("m")
            assert screen.step == marked[1]["index"] + 1
            await pilot.press("M")
            assert screen.step == first["index"] + 1
            await pilot.press("M")
            assert screen.step == first["index"] + 1 and "No mistake before this move" in screen_text(app)
            await pilot.press("end")
            await pilot.press("m")
            assert "No mistake after this move" in screen_text(app)
            await pilot.press("M")
            assert screen.step == marked[-1]["index"] + 1
            await pilot.press("home")
            await pilot.press(*["right"] * (best["index"] + 1))
            text = screen_text(app)
            assert f"Best · Seat {best['seat'] + 1}: {said(record, best['index'], best['played'])}" in text
            assert "better:" not in text

    run(go())


def test_the_summary_shows_each_seats_accuracy_and_goes_to_a_key_moment(match):
    record, rv = match
    app = ReplayApp(record, review=rv, lang="fr")

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("v")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "Précision" in text and "Moments clés" in text
            for s in rv["summary"]:
                row = next(line for line in text.splitlines() if f"█  Place {s['seat'] + 1} " in line)
                assert f"{s['accuracy']:.1f}".replace(".", ",") in row
                assert row.split("█")[1].split()[4:] == [str(n) for n in s["counts"].values()]
            moments = sorted((k["index"], s["seat"]) for s in rv["summary"] for k in s["key_moments"])
            index, seat = moments[1]
            row = next(line for line in text.splitlines() if line.split()[1:2] == ["2"])
            assert row.split()[2:5] == [str(index + 1), "Place", str(seat + 1)]
            await pilot.press("2")
            await pilot.pause()
            assert not isinstance(app.screen, SummaryScreen)
            assert app.screen.step == index + 1
            move = next(m for m in rv["moves"] if m["index"] == index)
            assert said(record, move["index"], move["played"], "fr") in screen_text(app)
            await pilot.press("v", "escape")
            assert app.screen.step == index + 1

    run(go())


@pytest.mark.parametrize("workers", [1, 2])
def test_r_reviews_in_the_background_with_its_progress(match, workers, monkeypatch):
    """The review the r key computes is the review of the record at the replay's budget (in this process, or
    in a pool of processes started under Textual); the replay answers keys meanwhile."""
    record, _ = match
    app = ReplayApp(record, budget=50, workers=workers)
    gate = threading.Event()  # the review is not handed back before the test has pressed its keys

    def held(*args, **kw):
        result = computed(*args, **kw)
        gate.wait(60)
        return result

    computed = R.review
    monkeypatch.setattr(R, "review", held)

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("m")
            assert "No review yet: press r" in screen_text(app)
            prompt = screen.query_one(PromptView)
            shown = []
            update = prompt.update
            prompt.update = lambda content="": (shown.append(str(content)), update(content))[1]
            await pilot.press("r", "v", "right")
            assert screen.step == 1 and screen.review is None
            gate.set()
            await until(pilot, lambda: screen.review is not None)
            await pilot.pause()
            assert screen.review == computed(record, worlds=50)
            total = len(decisions(record)[0])
            assert shown[0].startswith("Reviewing the match (50 worlds a decision)…")
            assert any(s.split("\n")[1] == "The review is being computed." for s in shown[1:]), shown
            steps = [s.split("\n")[0] for s in shown if "decisions…" in s]
            assert steps[0].endswith(f" Reviewing the match: 0/{total} decisions…")
            assert steps[-1] == "█" * 20 + f" Reviewing the match: {total}/{total} decisions…"
            assert "Review ready" in screen_text(app)
            await pilot.press("home", "m")
            first = next(m for m in screen.review["moves"] if m["class"] in MARKED)
            assert screen.step == first["index"] + 1

    run(go())


def test_an_unfinished_match_is_not_reviewed(match):
    record, _ = match
    app = ReplayApp(dict(record, actions=record["actions"][:12]), workers=1)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            assert "Only a finished match is reviewed" in screen_text(app)
            assert app.screen.review is None and app.screen.review_progress is None

    run(go())


def test_q_quits_the_replay_even_while_it_reviews(match):
    """q ends the replay at once, the review's processes with it."""
    record, _ = match
    app = ReplayApp(record, budget=2000, workers=2)
    processes = []

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("r")
            await until(pilot, lambda: screen.review_pool is not None and screen.review_pool._processes)
            processes.extend(screen.review_pool._processes.values())
            await pilot.press("q")
        assert screen.review is None

    started = time.monotonic()
    run(go())
    for process in processes:
        process.join(5)
        assert not process.is_alive()
    assert time.monotonic() - started < 15


def test_a_marked_move_of_a_match_gives_the_match_s_chance_too(match):
    """Where the edition plays a match, a marked move says its chance of the match beside the hand's: what marks
    an extension may be the match alone."""
    from millebornes.tui.review_text import ReviewWords

    record, rv = match
    move = {
        **next(m for m in rv["moves"]),
        "class": "blunder",
        "best_chance": 1.0,
        "chance": 0.57,
        "best_match_chance": 0.47,
        "match_chance": 0.37,
    }
    line = ReviewWords(record, rv).move_line(move).plain
    assert "(chance of the hand 100% → 57%, of the match 47% → 37%)" in line and "better: " in line
    line = ReviewWords(record, rv, "fr").move_line(move).plain
    assert "(chances de la manche 100\u202f% → 57\u202f%, de la partie 47\u202f% → 37\u202f%)" in line
    move["match_chance"] = None  # an edition of one race
    assert "of the match" not in ReviewWords(record, rv).move_line(move).plain


def test_a_marked_move_says_why_its_better_move_is_better(match):
    """The verdict line ends with the reason, in words, without the chances the line gives already."""
    from millebornes.tui.review_text import ReviewWords

    record, rv = match
    move = next(m for m in rv["moves"] if m["class"] in MARKED)
    words = ReviewWords(record, rv)
    line = words.move_line(move).plain
    why = words.w.why(move["reason"], words.w.side_title, shown=("chance", "match", "points"))
    assert why and line.endswith(f" · {why}") and "chance of winning" not in why
    french = ReviewWords(record, rv, "fr")
    assert french.move_line(move).plain.endswith(
        french.w.why(move["reason"], french.w.side_title, ("chance", "match", "points"))
    )
