"""How to play (i18n/howto.py): each edition's explanation says what its options make of the game, with the
edition's own figures, in both languages, and never a word of the engine's notation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from millebornes.cards import CARD_IDS
from millebornes.i18n import catalog
from millebornes.i18n.howto import SECTIONS, as_text, how_to_play
from millebornes.rules import RULESETS, ruleset

BIN = Path(sys.executable).parent / "millebornes"
IDS = "|".join(re.escape(c) for c in sorted(CARD_IDS, key=len, reverse=True))
NOTATION = re.compile(
    rf"\b(?:play|discard) (?:{IDS})(?= \d|$|[.,;:])|take-discard|stop-here|[a-z]+-[a-z]+-[a-z]+|\{{|\}}|_", re.M
)


def lines_of(guide, section: str) -> list[str]:
    return next(s for s in guide["sections"] if s["id"] == section)["lines"]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("edition", list(RULESETS))
def test_every_edition_is_told_whole_in_both_languages(edition, lang):
    guide = how_to_play(edition, lang)
    ids = [s["id"] for s in guide["sections"]]
    assert ids == [s for s in SECTIONS if s != "extension" or ruleset(edition).extension]
    cards = [c for s in guide["sections"] for g in s["groups"] for c in g["cards"]]
    assert [c["card"] for c in cards] == list(CARD_IDS)  # every card, once, in the deck's order
    assert sum(c["count"] for c in cards) == 106
    assert all(c["name"] == catalog(lang).t(f"card.{c['card']}") and c["text"] for c in cards)
    text = "\n".join(as_text(guide))
    assert not NOTATION.search(text), NOTATION.search(text)
    if lang == "fr":
        assert "mile" not in text.lower()


def test_what_the_options_change_is_what_the_text_says():
    en = catalog("en")
    classic, parker, dujardin, family = (how_to_play(e, "en") for e in ("classic", "parker", "dujardin", "family"))
    assert en.t("howto.hazards.stacking") in lines_of(classic, "hazards")
    assert en.t("howto.hazards.moving") in lines_of(parker, "hazards")
    assert en.t("howto.turn.draw_or_take") in lines_of(classic, "turn")
    assert en.t("howto.turn.draw") in lines_of(parker, "turn")
    assert en.t("howto.cf.anyone") in lines_of(classic, "coup-fourre")
    assert en.t("howto.cf.attacked") in lines_of(family, "coup-fourre")
    assert en.t("howto.hazards.remedy_go") in lines_of(dujardin, "hazards")
    assert en.t("howto.hazards.remedy_roll") in lines_of(family, "hazards")
    assert en.t("howto.end.last_turn") in lines_of(dujardin, "end")
    assert en.t("howto.end.play_out") in lines_of(classic, "end")
    assert en.t("howto.scoring.only_distance") in lines_of(dujardin, "scoring")
    # a switched option is told as switched: classic without the extension is a race to 1,000
    plain = how_to_play(ruleset("classic", extension=False, top_discard_pickup=False), "en")
    assert "extension" not in [s["id"] for s in plain["sections"]]
    assert "1,000" in lines_of(plain, "goal")[0] and en.t("howto.turn.draw") in lines_of(plain, "turn")


def test_the_score_gives_the_editions_own_values():
    rows = {
        r["item"]: r["points"]
        for r in next(s for s in how_to_play("classic", "en")["sections"] if s["id"] == "scoring")["rows"]
    }
    assert (
        rows["Shutout"] == "500 points"
        and rows["Trip completed"] == "400 points"
        and rows["Distance"] == "1 point a mile"
    )
    family = next(s for s in how_to_play("family", "fr")["sections"] if s["id"] == "scoring")["rows"]
    assert [r["item"] for r in family] == [
        catalog("fr").t(f"item.{k}")
        for k in ("distance", "safeties", "coups_fourres", "trip", "safe_trip", "hand_penalty")
    ]
    assert next(r for r in family if r["item"] == catalog("fr").t("item.safe_trip"))["points"] == "200\u00a0points"
    dujardin = next(s for s in how_to_play("dujardin", "en")["sections"] if s["id"] == "scoring")["rows"]
    assert [r["item"] for r in dujardin] == ["Distance"]
    # four players of classic race to 1,000 with no extension: the trip is told at 1,000
    four = next(s for s in how_to_play("classic", "en", 4)["sections"] if s["id"] == "goal")
    assert "exactly 1,000 miles" in four["lines"][0]


def test_rules_explain_on_the_command_line():
    out = subprocess.run([BIN, "rules", "dujardin", "--explain", "--lang", "fr"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    fr = catalog("fr")
    assert out.stdout.startswith(fr.t("edition.dujardin")) and fr.t("howto.coup-fourre.title").upper() in out.stdout
    assert fr.t("howto.scoring.only_distance")[:30] in out.stdout
    bad = subprocess.run([BIN, "rules", "nope", "--explain", "--lang", "en"], capture_output=True, text=True)
    assert bad.returncode == 2 and "nope" in bad.stderr and "Traceback" not in bad.stderr
    none = subprocess.run([BIN, "rules", "--explain", "--lang", "en"], capture_output=True, text=True)
    assert none.returncode == 2 and "classic" in none.stderr
    many = subprocess.run([BIN, "rules", "family", "--explain", "--players", "9"], capture_output=True, text=True)
    assert many.returncode == 2 and "Traceback" not in many.stderr


@pytest.mark.parametrize("edition", list(RULESETS))
def test_each_score_row_names_an_item_of_a_hands_breakdown(edition):
    """The table page explains a hand's score item by item from these rows: their keys are the breakdown's."""
    import random

    import millebornes as mb

    game = mb.new_game(edition, players=2, seed=3)
    rng = random.Random(3)
    while not game.observation(0)["hand_results"]:
        game.act(rng.choice(game.legal_actions()))
    items = set(game.observation(0)["hand_results"][0]["breakdown"][0]) | {"extension"}  # when one was called
    rows = next(s for s in how_to_play(edition, "en")["sections"] if s["id"] == "scoring")["rows"]
    assert {r["key"] for r in rows} <= items, {r["key"] for r in rows} - items
