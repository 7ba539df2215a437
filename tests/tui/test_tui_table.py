"""The terminal table as a player lives it (issue 39): a resumed match tells what happened, the hand keeps the order
the number keys were learnt in, the hand's title speaks to the one person at the table, a refusal goes once the
game moved on."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("textual")

import millebornes as mb  # noqa: E402
from millebornes.i18n import catalog  # noqa: E402
from millebornes.tui import PlaySession, card_label  # noqa: E402
from millebornes.tui.app import LOG_LINES, MilleBornesApp, QuestionScreen, held_order  # noqa: E402
from tests.tui.test_tui import press_card, run, screen_text, settle, stacked  # noqa: E402


class DiscarderBot:
    """Discards its first card every turn: the human's hand changes only by the human's moves and draws."""

    name = "discarder"

    def choose(self, observation: dict, legal: list[str]) -> str:
        return next((a for a in legal if a.startswith("discard ")), legal[0])


# The human is dealt six cards and draws 100 first; the human's second draw is a 25, which the engine sorts first.
HUMAN = ["roll", "gasoline", "repairs", "stop", "end-of-limit", "75"]
BOT = ["end-of-limit", "end-of-limit", "gasoline", "gasoline", "spare-tire", "spare-tire"]
STOCK = ["100", "50", "25"] + ["50", "25"] * 4


def stacked_table(lang: str = "en", pace: float = 0) -> tuple[mb.Game, MilleBornesApp]:
    game = mb.new_game("classic", players=2, seed=1, deck=stacked("classic", 2, [HUMAN, BOT], STOCK))
    return game, MilleBornesApp(PlaySession(game, ["human", DiscarderBot()]), lang=lang, pace=pace)


def test_a_drawn_card_goes_to_the_end_and_the_number_keys_keep_their_cards():
    game, app = stacked_table()
    en = catalog("en")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table = app.table
            dealt = table.hand()
            assert dealt == game.hand(0) == ["75", "100", "stop", "roll", "end-of-limit", "gasoline", "repairs"]
            await press_card(pilot, app, "roll")
            await pilot.press("p")
            await settle(pilot, app)
            if game.decision == "draw":  # the bot's discard could be taken
                await pilot.press("s")
            # The engine sorts its hand: the 25 drawn would come first and move every key.
            assert game.hand(0)[0] == "25"
            held = ["75", "100", "stop", "end-of-limit", "gasoline", "repairs", "25"]
            assert table.hand() == held
            assert "1 75 miles  2 100 miles  3 Stop" in screen_text(app)
            for key, card in ((1, "75"), (7, "25")):
                await pilot.press(str(key))
                assert en.t("tui.chosen_own", card=card_label(card)) in screen_text(app)
            # The card played leaves its slot, the ones after it close up; moves name the card, not the slot.
            await pilot.press("escape", "2", "p")
            await settle(pilot, app)
            assert game.tableau(0)["distance"] == 100
            assert table.hand()[:5] == ["75", "stop", "end-of-limit", "gasoline", "repairs"]
            assert table.hand()[5] == "25"

    run(go())


def test_held_order_drops_the_slot_chosen_among_twins():
    assert held_order(["100", "roll", "100"], ["100", "roll"], slot=0) == ["roll", "100"]
    assert held_order(["100", "roll", "100"], ["100", "roll"], slot=2) == ["100", "roll"]
    assert held_order(["100", "roll", "100"], ["100", "roll", "25"]) == ["roll", "100", "25"]


@pytest.mark.parametrize("lang, yours, seat", [("en", "Your hand", "Seat 1's hand"), ("fr", "Votre main", "Main")])
def test_one_person_at_the_table_reads_your_hand(lang, yours, seat):
    _, app = stacked_table(lang=lang)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            assert yours in text and seat not in text

    run(go())


def test_a_refusal_goes_once_the_game_moved_on():
    """Said in one position, a refusal is gone in the next, whoever moved (the browser's rule too)."""
    _, app = stacked_table(pace=1)
    refusal = "You need a Roll first"
    out_of_turn = catalog("en").t("tui.wait", who="Seat 2")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await press_card(pilot, app, "75")
            await pilot.press("p")
            assert refusal in screen_text(app)
            await press_card(pilot, app, "roll")
            await pilot.press("p")
            assert refusal not in screen_text(app)
            await pilot.press("1")  # the bot waits a second before its move
            assert app.table.thinking == 1 and out_of_turn in screen_text(app)
            await settle(pilot, app)
            assert app.table.game.to_act == 0 and app.table.game.history[-1].startswith("discard ")
            assert out_of_turn not in screen_text(app) and not app.table.message.plain

    run(go())


def _play_to_your_turn(game: mb.Game, rng: random.Random, actions: int) -> None:
    while len(game.history) < actions or game.to_act != 0 or game.decision != "play":
        game.act(rng.choice(game.legal_actions()))


def test_a_resumed_match_tells_its_log_and_keeps_the_hand_order(tmp_path):
    path = tmp_path / "save.json"
    session = PlaySession.new("classic", players=2, bots=["medium"], seed=9, save_path=path)
    app = MilleBornesApp(session, pace=0)
    said: dict = {}

    async def first():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(4):
                if isinstance(app.screen, QuestionScreen):
                    await pilot.press("n")
                elif session.game.decision == "draw":
                    await pilot.press("s")
                else:
                    await pilot.press("1", "d")
                await settle(pilot, app)
            said.update(lines=list(app.table.log_lines), hand=app.table.hand())
            await pilot.press("q")
            await pilot.pause()

    run(first())
    assert any(line.startswith("You discarded") for line in said["lines"])
    assert said["hand"] != session.game.hand(0)  # the order shown is the player's, not the engine's
    resumed, _ = PlaySession.load(path)
    app2 = MilleBornesApp(resumed, pace=0)
    resumed_line = catalog("en").t("tui.resumed")

    async def second():
        async with app2.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app2)
            table = app2.table
            assert list(table.log_lines) == said["lines"] + [resumed_line]
            text = screen_text(app2)
            assert said["lines"][-1] in text and resumed_line in text
            assert table.hand() == said["hand"]

    run(second())


def test_a_long_resumed_match_tells_its_newest_lines_in_french():
    game = mb.new_game("classic", players=2, seed=21)
    _play_to_your_turn(game, random.Random(3), 400)
    app = MilleBornesApp(PlaySession(game, ["human", "medium"]), lang="fr", pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lines = list(app.table.log_lines)
            assert len(lines) == LOG_LINES and len(app.table.query_one("#log").lines) <= LOG_LINES
            assert lines[-1] == catalog("fr").t("tui.resumed")
            assert not lines[0].startswith("Manche 1 distribuée")  # the oldest lines went
            assert any(line.startswith("Vous avez pioché") for line in lines)

    run(go())


# ------------------------------------------------------------------------- the keys of the browser's table
# The human holds a Speed Limit, which may go on a car that has not started, and a Stop, which may not yet.
ATTACKER = ["roll", "gasoline", "repairs", "stop", "speed-limit", "75"]


def attack_table(players: int, lang: str = "en") -> tuple[mb.Game, MilleBornesApp]:
    hands = [ATTACKER] + [["end-of-limit"] * 6, ["spare-tire"] * 6][: players - 1]
    game = mb.new_game("classic", players=players, seed=1, deck=stacked("classic", players, hands, ["100", "50"] * 6))
    bots: list = [DiscarderBot() for _ in range(players - 1)]
    return game, MilleBornesApp(PlaySession(game, ["human", *bots]), lang=lang, pace=0)


def test_number_keys_with_a_hazard_chosen_choose_cards_and_never_play():
    """The trap the browser had: 3 (a hazard), then 4 to look at the next card, attacked side 4."""
    game, app = attack_table(3)
    en = catalog("en")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table, moves = app.table, len(game.history)
            for n in range(1, 10):
                for hazard in ("speed-limit", "stop"):
                    await press_card(pilot, app, hazard)
                    await pilot.press(str(n))
                    assert len(game.history) == moves and not table.side_step()
                    if n <= len(table.hand()):
                        assert table.selected == n - 1
                    else:
                        assert table.selected is None or table.hand()[table.selected] == hazard
                        assert en.t("tui.no_such_card", n=n) in screen_text(app)

    run(go())


def test_a_attacks_at_once_with_one_opponent():
    game, app = attack_table(2)
    en = catalog("en")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await press_card(pilot, app, "speed-limit")
            assert en.t("tui.chosen_attack", card="Speed Limit", side="Seat 2") in screen_text(app)
            await pilot.press("a")
            await settle(pilot, app)
            assert game.history[0] == "play speed-limit 1"
            assert "You played Speed Limit on Seat 2" in app.table.log_lines

    run(go())


def test_a_with_several_opponents_asks_which_side_and_escape_steps_back():
    game, app = attack_table(3)
    en = catalog("en")
    chosen = en.t("tui.chosen_aim", card="Speed Limit")
    aim = en.t("tui.aim", card="Speed Limit", sides="2 Seat 2, 3 Seat 3")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table = app.table
            await press_card(pilot, app, "speed-limit")
            assert chosen in screen_text(app)
            await pilot.press("a")
            assert table.side_step() and aim in screen_text(app)
            await pilot.press("escape")  # back to the card chosen
            assert not table.side_step() and table.hand()[table.selected] == "speed-limit"
            assert chosen in screen_text(app)
            await pilot.press("escape")  # the card put down
            assert table.selected is None and game.history == []
            await press_card(pilot, app, "speed-limit")
            await pilot.press("enter")  # Enter asks as a does
            assert table.side_step()
            await pilot.press("4")
            assert en.t("tui.no_side", n=4) in screen_text(app) and table.side_step() and game.history == []
            await pilot.press("3")
            await settle(pilot, app)
            assert game.history[0] == "play speed-limit 2"
            assert "You played Speed Limit on Seat 3" in table.log_lines

    run(go())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_on_a_card_that_is_not_a_hazard_is_explained(lang):
    game, app = attack_table(3, lang)
    words = catalog(lang)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table = app.table
            await pilot.press("a")
            assert words.t("tui.choose_first", n=7) in screen_text(app)
            await press_card(pilot, app, "roll")
            await pilot.press("a")
            assert table.message.plain == words.t("tui.not_hazard", card=card_label("roll", lang))
            assert table.hand()[table.selected] == "roll" and not table.side_step() and game.history == []

    run(go())
