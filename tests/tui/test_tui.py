"""The terminal app (`millebornes play` / `millebornes replay`), driven by key presses.

Headless tests use Textual's ``App.run_test()`` and read what is on the screen; one test runs the
real command under tmux at 80x24 and 120x40.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("textual")

import millebornes as mb  # noqa: E402
from millebornes.cards import CARD_IDS, NAMES_EN, NAMES_FR  # noqa: E402
from millebornes.i18n import catalog  # noqa: E402
from millebornes.tui import PlaySession, Words, card_label  # noqa: E402
from millebornes.tui.app import GameScreen, HandView, MilleBornesApp, PassScreen, QuestionScreen, ReplayApp  # noqa: E402
from millebornes.tui.keepsave import UnfinishedScreen, unfinished  # noqa: E402
from millebornes.tui.render import hand_text  # noqa: E402

BIN = Path(sys.executable).parent / "millebornes"


# ------------------------------------------------------------------------- helpers
def stacked(rules: str, players: int, hands: list[list[str]], stock: list[str]) -> list[str]:
    """A full deck, top first: the hands, then the stock in drawing order, then the rest."""
    left = Counter(dict(zip(CARD_IDS, mb.ruleset(rules).deck_counts(players))))
    deck = [c for h in hands for c in h] + stock
    left.subtract(deck)
    assert min(left.values()) >= 0, left
    return deck + [c for c in CARD_IDS for _ in range(left[c])]


class AttackerBot:
    """A bot that plays a hazard whenever it can, else discards: makes the coup fourré certain."""

    name = "attacker"

    def choose(self, observation: dict, legal: list[str]) -> str:
        attacks = [a for a in legal if a.startswith("play ") and len(a.split()) == 3]
        discards = [a for a in legal if a.startswith("discard ")]
        return (attacks or discards or legal)[0]


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot, app, timeout: float = 15) -> None:
    """Let bots move until a person must act (or a dialog is up)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        await pilot.pause()
        table = app.table
        if table is not None and table.thinking is None:
            await pilot.pause()
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the bots did not finish moving")


async def press_card(pilot, app, card: str) -> None:
    """The number key of a card, as the hand shows it."""
    hand = app.table.hand()
    await pilot.press(str(hand.index(card) + 1))


def run(coro):
    return asyncio.run(coro)


# ------------------------------------------------------------------------- a whole hand
HUMAN = ["100", "roll", "200", "200", "puncture-proof", "100"]
BOT = ["flat-tire", "end-of-limit", "end-of-limit", "gasoline", "gasoline", "repairs"]
# Drawing order: seat 0, seat 1, then seat 0's coup-fourré replacement and its own turn, then alternating.
STOCK = ["25", "spare-tire", "50", "75"] + ["spare-tire", "50"] * 5


def test_a_whole_hand_by_key_presses_against_a_bot(tmp_path):
    deck = stacked("classic", 2, [HUMAN, BOT], STOCK)
    game = mb.new_game("classic", players=2, seed=5, deck=deck)
    session = PlaySession(game, ["human", AttackerBot()], save_path=tmp_path / "save.json")
    app = MilleBornesApp(session, pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table = app.table
            assert isinstance(app.screen, GameScreen)
            assert "Your hand" in screen_text(app) and "Seat 1's hand" not in screen_text(app)
            # A distance card before any Roll: refused, with the engine's reason in words.
            await press_card(pilot, app, "100")
            await pilot.press("p")
            assert "You need a Roll first (battle pile: empty)" in screen_text(app)
            assert game.history == []
            # Keys that make no sense are explained too.
            await pilot.press("escape", "d")
            assert "Choose a card first" in screen_text(app)
            await press_card(pilot, app, "roll")
            await pilot.press("p")
            await settle(pilot, app)
            # The bot attacked with Flat Tire: we hold Puncture-Proof, so we are asked.
            assert isinstance(app.screen, QuestionScreen)
            text = screen_text(app)
            assert "Coup fourré?" in text and "Seat 2 played Flat Tire on you" in text
            assert "Puncture-Proof" in text
            await pilot.press("y")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            assert "Coup fourré! You laid Puncture-Proof against Flat Tire" in table.log_lines
            assert "Puncture-Proof [CF]" in screen_text(app)
            assert game.tableau(0)["coups_fourres"] == ["puncture-proof"]
            for card in ["200", "200", "100", "100", "75", "25"]:
                if game.decision == "draw":  # the bot discarded: draw or take it
                    assert "s draw from the stock" in screen_text(app)
                    await pilot.press("s")
                await press_card(pilot, app, card)
                await pilot.press("p")
                await settle(pilot, app)
            # 700 reached: the extension question; we end the hand.
            assert isinstance(app.screen, QuestionScreen)
            assert "Extension" in screen_text(app) and "a bonus if you make it" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
            text = screen_text(app)
            assert "Hand 1 is over" in text
            for item in ("Distance", "Safeties", "Coups fourrés", "Trip completed", "Shutout", "Points this hand"):
                assert item in text, item
            result = game.hand_results[0]
            assert result["points"][0] == 700 + 100 + 300 + 400 + 500 == 2000
            assert "2,000" in text  # numbers as the language writes them, like the pages
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, GameScreen)
            assert game.hand_number == 1
            assert any(line.startswith("Hand 1 is over: You win") for line in table.log_lines)
            assert any("Seat 2 discarded" in line for line in table.log_lines)
            assert any(line.startswith("You drew") for line in table.log_lines)

    run(go())
    # Every move was saved as it happened, with the table's language and pace (a closed terminal keeps them).
    saved = json.loads((tmp_path / "save.json").read_text())
    assert saved["actions"] == game.history and saved["tui"]["seats"] == ["human", "attacker"]
    assert (saved["tui"]["lang"], saved["tui"]["pace"]) == ("en", 0)


def test_a_one_race_match_ends_with_its_breakdown():
    # dujardin is one race: discarding every turn, the match ends when the bot arrives or the stock runs out.
    game = mb.new_game("dujardin", players=2, seed=8)
    app = MilleBornesApp(PlaySession(game, ["human", "medium"]), pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(200):
                if game.is_over:
                    break
                if isinstance(app.screen, QuestionScreen):
                    await pilot.press("n")
                else:
                    await pilot.press("1", "d")
                await settle(pilot, app)
            assert game.is_over
            text = screen_text(app)
            assert "Match over" in text and "Distance" in text and "Points this hand" in text
            assert "Trip completed" not in text  # dujardin counts distance only
            assert "q: save the match to watch it again, and quit" in text
            # one race, one result line, and it says it is the match's
            assert text.count("The match: ") == 1 and "This hand: " not in text
            await pilot.press("enter")
            await pilot.press("1")
            assert "The match is over. q quits." in screen_text(app)

    run(go())


def test_keys_out_of_turn_and_attacks_are_explained():
    # Seat 0 holds a Speed Limit; the bot has not started (classic: a speed limit may still go on it).
    deck = stacked(
        "parker", 2, [["stop", "speed-limit", "roll", "25", "50", "75"], ["end-of-limit"] * 6], ["25", "gasoline"]
    )
    game = mb.new_game("parker", players=2, seed=1, deck=deck)
    app = MilleBornesApp(PlaySession(game, ["human", "medium"]), pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await press_card(pilot, app, "stop")
            assert "Stop: a attack Seat 2, d discard it" in screen_text(app)
            await pilot.press("9")  # a number key chooses a card, never a side
            assert "There is no card 9 in your hand" in screen_text(app)
            await press_card(pilot, app, "roll")
            await pilot.press("a")
            assert "Roll is not a hazard: only a hazard attacks." in screen_text(app)
            await press_card(pilot, app, "stop")
            await pilot.press("a")  # parker: no hazard on a car that is not moving
            assert "The car of Seat 2 is not moving (battle pile: empty)" in screen_text(app)
            await press_card(pilot, app, "stop")
            await pilot.press("p")
            assert "Stop is played on another side, not on your own" in screen_text(app)
            await pilot.press("s")
            assert "You have already drawn this turn" in screen_text(app)
            await press_card(pilot, app, "speed-limit")
            await pilot.press("enter")  # one opponent: Enter plays it there
            await settle(pilot, app)
            assert game.tableau(1)["speed"][:1] == ["speed-limit"]  # (the bot may cure it at once)
            assert "You played Speed Limit on Seat 2" in app.table.log_lines

    run(go())


def test_hint_runs_analyse_in_a_worker():
    game = mb.new_game("classic", players=2, seed=3)
    app = MilleBornesApp(PlaySession(game, ["human", "easy"]), pace=0, hint_ms=100)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause()
                if "Hint: " in screen_text(app):
                    break
                await asyncio.sleep(0.02)
            text = screen_text(app)
            assert re.search(r"Hint: .*\(hand \d+%, match \d+%\)", text)  # classic plays a match
            assert game.history == []  # a hint never moves

    run(go())


def test_hot_seat_hides_hands_between_turns():
    game = mb.new_game("family", players=3, seed=11)
    app = MilleBornesApp(PlaySession(game, ["human", "human", "medium"]), pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PassScreen)
            text = screen_text(app)
            assert "Pass the keyboard to Seat 1" in text
            for card in game.hand(0) + game.hand(1):  # no card of any hand on screen
                assert card_label(card) not in text
            await pilot.press("enter")
            await settle(pilot, app)
            hand0 = game.hand(0)
            assert all(card_label(c) in screen_text(app) for c in hand0)
            await pilot.press("1", "d")  # seat 0 discards its first card
            await pilot.pause()
            assert isinstance(app.screen, PassScreen)
            assert "Pass the keyboard to Seat 2" in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.table.viewer == 1 and "Seat 2's hand" in screen_text(app)
            assert "Your hand" not in screen_text(app)
            # The log stays on screen: it names seats and never says what anyone drew.
            log = app.table.log_lines
            assert f"Seat 1 discarded {card_label(hand0[0])}" in log
            assert not any(line.startswith("You") for line in log)

    run(go())


def test_setup_screen_picks_edition_players_teams_and_bots(tmp_path):
    app = MilleBornesApp(None, pace=0, seed=4, save_path=tmp_path / "s.json")

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Classic" in text and "hazards pile up" in text
            await pilot.press("right")  # edition: parker
            assert "Parker Brothers and Winning Moves" in screen_text(app)
            await pilot.press("right", "right")  # family
            await pilot.press("down", "right", "right")  # players: 4
            assert "Seat 4" in screen_text(app)
            await pilot.press("down", "right")  # seat 2: hard
            await pilot.press("down", "left")  # seat 3: easy
            await pilot.press("down", "right", "right", "right")  # seat 4: human
            await pilot.press("enter")
            await pilot.pause()
            s = app.session
            assert s.game.ruleset.name == "family" and s.game.players == 4 and s.game.seed == 4
            assert s.kinds == ["human", "hard", "easy", "human"]

    run(go())


# ------------------------------------------------------------------------- French
def test_french_names_for_all_19_cards():
    w = Words("fr", 2, False, 0)
    text = hand_text(list(CARD_IDS), w, 80).plain
    for kind, card in enumerate(CARD_IDS):
        assert card_label(card, "fr") == NAMES_FR[kind]
        assert NAMES_FR[kind] in text
        if NAMES_EN[kind] != NAMES_FR[kind]:
            assert NAMES_EN[kind] not in text
    assert "Bottes" in Words("fr", 2, False, 0).t("table.safeties")
    reason = w.reason("roll_not_now", {"card": "roll", "top": "flat-tire", "need": "spare-tire"})
    assert reason == "Votre pile de bataille montre Crevaison\xa0: il vous faut Roue de secours, pas un Feu vert"
    assert (
        w.event(
            {"type": "coup-fourre", "seat": 0, "card": "driving-ace", "side": 0, "hazard": "accident", "attacker": 1}
        )
        == "Coup fourré\u202f! Vous posez As du volant contre Accident"
    )


def test_the_app_in_french():
    game = mb.new_game("dujardin", players=2, seed=2)
    app = MilleBornesApp(PlaySession(game, ["human", "medium"]), lang="fr", pace=0)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            hand = app.table.observation()["hand"]
            for card in hand:
                assert card_label(card, "fr") in text
            assert "Votre main" in text and Words("fr", 2, False, 0).t("replay.hand_of", name="Place 1") not in text
            assert "Bottes" in text and "pioche" in text
            bad = next(c for c in hand if not any(a.startswith(f"play {c}") for a in game.legal_actions()))
            await press_card(pilot, app, bad)
            await pilot.press("p" if mb.cards.GROUP[CARD_IDS.index(bad)] != "hazard" else "1")
            text = screen_text(app)
            assert any(s in text for s in ("Il vous faut", "vous", "Vous")), text

    run(go())


# ------------------------------------------------------------------------- save, resume, replay
def test_save_on_quit_and_resume(tmp_path):
    path = tmp_path / "deep" / "save.json"
    session = PlaySession.new("classic", players=2, bots=["medium"], seed=9, save_path=path)
    app = MilleBornesApp(session, pace=0)

    async def first():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("1", "d")
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()

    run(first())
    assert app.return_value == path and path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the seed: the owner's only
    history = session.game.history
    assert len(history) >= 2

    resumed, settings = PlaySession.load(path)
    assert resumed.game.history == history and resumed.kinds == ["human", "medium"]
    assert resumed.game.observation(0) == session.game.observation(0)
    assert settings["lang"] == "en"
    app2 = MilleBornesApp(resumed, pace=0)

    async def second():
        async with app2.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app2)
            text = screen_text(app2)
            for card in resumed.game.hand(0):
                assert card_label(card) in text

    run(second())
    with pytest.raises(ValueError, match="no saved game"):
        PlaySession.load(tmp_path / "missing.json")


def test_a_new_match_asks_before_replacing_an_unfinished_save(tmp_path):
    """Every move is saved as it is made: a new match's first move would overwrite the saved one, so the app asks
    first, by a key: go on with it, replace it, or quit and keep it (Escape keeps it too)."""
    path = tmp_path / "save.json"
    saved = PlaySession.new("classic", players=2, bots=["medium"], seed=9, save_path=path)
    saved.game.act(saved.game.legal_actions()[0])
    saved.save()
    before = path.read_text()
    assert unfinished(tmp_path / "missing.json") is None
    assert unfinished(path).game.history == saved.game.history

    def app_for(lang: str = "en") -> MilleBornesApp:
        new = PlaySession.new("parker", players=2, bots=["easy"], seed=3, save_path=path)
        return MilleBornesApp(new, lang=lang, pace=0, save_path=path, unfinished=unfinished(path))

    async def answer(app, key: str, lang: str = "en") -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, UnfinishedScreen)
            text = screen_text(app)
            words = catalog(lang)
            assert words.t("tui.save_ask_title") in text and words.t("tui.key.replace") in text
            await pilot.press(key)
            await pilot.pause()
            if app.table is None:  # quit at the question
                return ""
            await settle(pilot, app)
            text = screen_text(app)
            await pilot.press("q")
            await pilot.pause()
            return text

    for key in ("q", "escape"):  # quit, keeping it: nothing is written
        app = app_for()
        run(answer(app, key))
        assert app.kept and app.return_value is None and path.read_text() == before

    app = app_for("fr")  # o (oui) goes on with it, in French
    run(answer(app, "o", "fr"))
    assert not app.kept and app.session.game.ruleset.name == "classic"
    assert app.session.game.history[: len(saved.game.history)] == saved.game.history

    app = app_for()  # n replaces it: the new match is what the file holds from then on
    text = run(answer(app, "n"))
    assert "Parker Brothers" in text
    assert json.loads(path.read_text())["ruleset"] == "parker"


def test_replay_steps_forward_and_back():
    game = mb.new_game("classic", players=2, seed=21)
    while len(game.history) < 30:
        game.act(game.legal_actions()[-1])
    record = game.record()
    app = ReplayApp(record)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert "step 0/30" in screen_text(app)
            await pilot.press("right", "right", "space")
            assert screen.step == 3 and "step 3/30" in screen_text(app)
            assert screen.game.observation(0) == mb.replay(record, upto=3).observation(0)
            assert len(screen.log_lines) == 4 and screen.log_lines[1].startswith("1. ")
            await pilot.press("pagedown")
            assert screen.step == 13
            await pilot.press("left")
            assert screen.step == 12 and screen.log_lines[-1].startswith("Back to step 12")
            assert screen.game.observation(1) == mb.replay(record, upto=12).observation(1)
            await pilot.press("end")
            assert screen.step == 30 and screen.game.history == record["actions"]
            await pilot.press("home")
            assert screen.step == 0 and screen.game.history == []
            text = screen_text(app)
            for seat in range(2):  # a replay shows every hand
                for card in screen.game.hand(seat):
                    assert card_label(card) in text

    run(go())


def test_the_arrows_step_a_long_replay_at_80_columns():
    """Once the log has a scrollbar, ← and → still step the replay: the log never takes the focus (it did, and
    at 80 columns slid sideways under the arrows instead)."""
    game = mb.new_game("classic", players=2, seed=21)
    rng = random.Random(1)
    while not game.is_over:
        game.act(rng.choice(game.legal_actions()))
    app = ReplayApp(game.record())

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("end", "left", "left")
            assert screen.step == screen.total - 2
            await pilot.press("home", "right")
            assert screen.step == 1
            log = screen.query_one("#log")
            assert app.focused is None and log.scroll_x == 0 and log.virtual_size.width <= log.size.width
            # the newest line stays in sight when the terminal shrinks
            await pilot.press("end")
            await pilot.resize_terminal(80, 18)
            await pilot.pause()
            await pilot.pause()
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y

    run(go())


@pytest.mark.parametrize("size, every", [((80, 24), False), ((120, 40), True)])
def test_a_replay_of_six_shows_the_hands_the_terminal_has_room_for(size, every):
    """Six hands do not fit 80×24 beside the tableaux: the seat to act's shows, and a shows them all."""
    game = mb.new_game("classic", players=6, teams=True, seed=3)
    rng = random.Random(4)
    while len(game.history) < 60:
        game.act(rng.choice(game.legal_actions()))
    app = ReplayApp(game.record(), step=60)

    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            titles = [title for title, *_ in screen.query_one(HandView).rows]
            shown = [s for s in range(6) if any(t.startswith(f"Seat {s + 1}") for t in titles)]
            assert all(t.split("   ")[0] in screen_text(app) for t in titles)
            assert screen.every_hand() is every
            assert shown == (list(range(6)) if every else [game.to_act])
            assert ("a: every hand" in screen_text(app)) is not every
            await pilot.press("a")
            assert screen.every_hand() is not every

    run(go())


# ------------------------------------------------------------------------- the real command under tmux
def _tmux(sock: str, *args: str, env=None) -> str:
    return subprocess.run(["tmux", "-S", sock, *args], check=True, capture_output=True, text=True, env=env).stdout


def _capture_until(sock: str, needle: str, timeout: float = 20) -> str:
    end = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < end:
        screen = _tmux(sock, "capture-pane", "-p", "-t", "mb")
        if needle in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} never appeared; screen:\n{screen}")


@pytest.mark.skipif(shutil.which("tmux") is None or not BIN.exists(), reason="needs tmux and the command")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_play_command_under_tmux(tmp_path, size):
    width, height = size
    sock = str(tmp_path / "tmux")  # a private tmux server for this test
    socks = [sock]
    save = tmp_path / "save.json"
    cmd = f"{BIN} play --ruleset classic --players 2 --bots medium --seed 1 --pace 0 --save {save}"
    env = {**os.environ, "TERM": "xterm-256color"}
    _tmux(sock, "new-session", "-d", "-s", "mb", "-x", str(width), "-y", str(height), cmd, env=env)
    try:
        _capture_until(sock, "Your turn")
        screen = _capture_until(sock, "q Save match & quit")  # the footer may come a frame after the table
        lines = screen.splitlines()
        assert len(lines) <= height and all(len(line) <= width for line in lines)
        hand = mb.new_game("classic", players=2, seed=1).hand(0)  # seat 0 starts: nothing moved yet
        for i, card in enumerate(hand):
            assert f"{i + 1} {card_label(card)}" in screen, card
        for title in ("Seat 1 (you)", "Seat 2 [medium bot]"):
            assert title in screen
        assert screen.count("Battle:") == 2 and screen.count("Safeties:") == 2
        assert screen.count("0/700") == 2
        assert "q Save match & quit" in screen
        if width == 80:
            # Save on quit, then --resume shows the same table.
            _tmux(sock, "send-keys", "-t", "mb", "1", "d")
            _capture_until(sock, "You discarded")
            _capture_until(sock, "Your turn")
            _tmux(sock, "send-keys", "-t", "mb", "q")
            end = time.monotonic() + 10
            while not save.exists() or json.loads(save.read_text())["actions"] == []:
                assert time.monotonic() < end, "no save file"
                time.sleep(0.1)
            actions = json.loads(save.read_text())["actions"]
            assert actions[0] == f"discard {hand[0]}"
            sock += "r"
            socks.append(sock)
            _tmux(
                sock,
                "new-session",
                "-d",
                "-s",
                "mb",
                "-x",
                "80",
                "-y",
                "24",
                f"{BIN} play --resume --save {save} --pace 0",
                env=env,
            )
            screen = _capture_until(sock, "Your turn")
            for card in mb.replay(json.loads(save.read_text())).hand(0):
                assert card_label(card) in screen
            # The log tells the match so far, down to the move made before quitting.
            assert "Saved match resumed" in screen and f"You discarded {card_label(hand[0])}" in screen
    finally:
        for sock in socks:
            subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None or not BIN.exists(), reason="needs tmux and the command")
def test_quitting_a_finished_match_points_to_its_replay(tmp_path):
    """A finished match has nothing to go on with: quitting names the replay, not `play --resume`."""
    game = mb.new_game("dujardin", players=2, seed=8)
    rng = random.Random(2)
    while not game.is_over:
        game.act(rng.choice(game.legal_actions()))
    save = tmp_path / "save.json"
    PlaySession(game, ["human", "medium"]).save(save)
    sock = str(tmp_path / "tmux")
    env = {**os.environ, "TERM": "xterm-256color"}
    _tmux(
        sock,
        "new-session",
        "-d",
        "-s",
        "mb",
        "-x",
        "100",
        "-y",
        "24",
        f"sh -c '{BIN} play --resume --save {save} --pace 0 --lang en; sleep 30'",
        env=env,
    )
    try:
        _capture_until(sock, "The match is over")
        _tmux(sock, "send-keys", "-t", "mb", "q")
        screen = _capture_until(sock, "watch it again with")
        assert f"millebornes replay {save}" in screen.replace("\n", "") and "--resume" not in screen
    finally:
        subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)


# ------------------------------------------------------------------------- how to play
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_question_mark_shows_how_to_play_the_tables_edition_and_escape_goes_back(lang):
    from millebornes.i18n import catalog
    from millebornes.tui.rules import RulesScreen

    game = mb.new_game("parker", players=2, seed=4)
    app = MilleBornesApp(PlaySession(game, ["human", "medium"]), lang=lang, pace=0)
    words = catalog(lang)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            table = app.screen
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            text = screen_text(app)
            assert words.t("edition.parker") in text and words.t("howto.goal.title") in text
            # first the table's keys, in the browser's words: a attacks the one opponent
            assert words.t("tui.keys_title") in text and words.t("keys.attack") in text
            # parker: no hazard on a hazard, only the side that was hit calls coup fourré
            assert words.t("howto.hazards.moving") in app.screen.guide["sections"][3]["lines"]
            assert words.t("howto.cf.attacked") in app.screen.guide["sections"][4]["lines"]
            await pilot.press("end")
            await pilot.pause()
            assert words.t("howto.scoring.title") in screen_text(app)  # scrolled to the score
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is table

    run(go())
