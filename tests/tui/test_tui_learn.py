"""``millebornes learn`` in the terminal (tui/learn.py): the guided first match completed by key presses, each
lesson on screen, a move that is not the lesson's refused with the reason, and the hand's score as the last lesson on
an end screen that says what to do next, after which nothing moves."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from millebornes.i18n import catalog  # noqa: E402
from millebornes.i18n.howto import how_to_play  # noqa: E402
from millebornes.i18n.words import Words  # noqa: E402
from millebornes.rules import ruleset  # noqa: E402
from millebornes.tui.learn import LearnApp, LessonEndScreen  # noqa: E402
from millebornes.tutorial import EDITION, LEARNER, LESSONS, SCRIPT, scored  # noqa: E402
from tests.tui.test_tui import press_card, run, screen_text, settle  # noqa: E402


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_guided_match_by_key_presses(lang):
    app = LearnApp(lang=lang, pace=0)
    words = catalog(lang)
    learner = [(action, lesson) for seat, action, lesson in SCRIPT if seat == LEARNER]

    async def go():
        async with app.run_test(size=(100, 40)) as pilot:
            for k, (action, lesson) in enumerate(learner):
                while app.tutorial.game.to_act != LEARNER:
                    await settle(pilot, app)
                    await pilot.pause()
                assert app.tutorial.lesson == lesson
                text = screen_text(app)
                if action not in ("coup-fourre", "end-hand"):
                    assert words.t(f"learn.{lesson}.do")[:30] in text, (lesson, text)
                if k == 1:  # a move that is legal but not the lesson's, then one the rules refuse
                    await press_card(pilot, app, "200")
                    await pilot.press("p")
                    await pilot.pause()
                    assert words.t("learn.not_this") in screen_text(app)
                    await press_card(pilot, app, "repairs")
                    await pilot.press("p")
                    await pilot.pause()
                    assert app.tutorial.lesson == lesson and len(app.tutorial.game.history) == 2
                if action == "coup-fourre":
                    await pilot.press(words.t("tui.yes_key"))  # o for oui in French
                elif action == "end-hand":
                    await pilot.press("n")
                else:
                    await press_card(pilot, app, action.split()[1])
                    await pilot.press("p")
                await pilot.pause()
            await settle(pilot, app)
            game = app.tutorial.game
            assert app.tutorial.over and app.tutorial.lesson == "score"
            result = game.observation(LEARNER)["hand_results"][-1]
            assert result["distance"][LEARNER] == 700 and result["breakdown"][LEARNER]["coups_fourres"] > 0
            # the last lesson: the score sheet, what each point was for, then what to do next and how to leave
            assert isinstance(app.screen, LessonEndScreen)
            await pilot.pause(0.2)
            text = screen_text(app)
            assert words.t("learn.step", n=len(LESSONS) + 1, total=len(LESSONS) + 1) in text
            assert words.t("learn.score.do")[:40] in text and words.t("learn.scored.title") in text
            for item, points in scored(game):
                assert words.t(f"learn.scored.{item}", points=Words(lang).num(points))[:40] in text, item
            assert words.t("learn.end.title") in text and "millebornes play" in text
            assert "q " + words.t("tui.key.quit") in text and words.t("tui.key.save_quit") not in text
            # nothing moves after the end: no second hand, no key plays
            history = list(game.history)
            for key in ("enter", "escape", "1", "p"):
                await pilot.press(key)
            await pilot.pause(0.3)
            assert game.history == history and game.is_over and game.hand_number == 0
            assert isinstance(app.screen, LessonEndScreen)
            await pilot.press("q")
            await pilot.pause()
        assert app.return_value is None  # nothing was saved

    run(go())


def test_the_guided_match_says_that_q_only_quits():
    """The tutorial saves nothing: its footer and its keys screen say "Quit", not "Save & quit"."""
    app = LearnApp(lang="en", pace=0)
    words = catalog("en")

    async def go():
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert "q " + words.t("tui.key.quit") in text and words.t("tui.key.save_quit") not in text
            await pilot.press("question_mark")
            await pilot.pause()
            assert words.t("tui.keys_quit_unsaved") in screen_text(app)
            # the edition's own rules, where a match is several hands, not the guided match's one-hand rules
            edition = how_to_play(ruleset(EDITION), "en", 2)
            assert app.screen.guide == edition != how_to_play(app.tutorial.game.ruleset, "en", 2)

    run(go())
