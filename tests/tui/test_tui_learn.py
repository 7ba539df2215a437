"""``millebornes learn`` in the terminal (tui/learn.py): the guided first match completed by key presses, each
lesson on screen, a move that is not the lesson's refused with the reason, and the hand's score as the end."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from millebornes.i18n import catalog  # noqa: E402
from millebornes.tui.learn import LearnApp  # noqa: E402
from millebornes.tutorial import LEARNER, SCRIPT  # noqa: E402
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
                    await pilot.press("y")
                elif action == "end-hand":
                    await pilot.press("n")
                else:
                    await press_card(pilot, app, action.split()[1])
                    await pilot.press("p")
                await pilot.pause()
            await settle(pilot, app)
            assert app.tutorial.over and app.tutorial.lesson == "score"
            await pilot.press("enter")  # the hand's score closes
            await pilot.pause()
            assert words.t("learn.score.why")[:30] in screen_text(app)
            result = app.tutorial.game.observation(LEARNER)["hand_results"][-1]
            assert result["distance"][LEARNER] == 700 and result["breakdown"][LEARNER]["coups_fourres"] > 0

    run(go())
