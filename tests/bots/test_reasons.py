"""Why a move is better (millebornes.reasons): each reason code played out on a stacked deck, the figure it quotes,
and the review, the puzzles and the hints that carry one."""

from __future__ import annotations

import json

import pytest

import millebornes as mb
from millebornes.i18n import catalog, placeholders
from millebornes.i18n.words import REASON_PARAMS, TableWords
from millebornes.puzzles import from_review, shipped, with_reasons
from millebornes.reasons import CODES, FIGURE_PARAMS, FIGURES, annotate, reason
from millebornes.review import decisions, review
from tests.bots.test_review import drive

SAID: dict[str, dict] = {}
"""Every reason a test below gave, by code: the catalog test words each one."""


def why(g, better: str, other: str | None = None, figures: dict | None = None) -> dict:
    """The reason of the seat to act, both moves checked legal first."""
    legal = g.legal_actions()
    assert better in legal and (other is None or other in legal), (better, other, legal)
    given = reason(g.observation(g.to_act), better, other, figures)
    assert json.loads(json.dumps(given)) == given  # JSON values only
    SAID.setdefault(given["code"], given)
    return given


def code(g, better: str, other: str | None = None) -> str:
    return why(g, better, other)["code"]


def moving(rules: str = "classic", hand: list[str] | None = None, stock_left: int | None = None):
    """Seat 0 rolling at 100 with ``hand``, seat 1 rolling too; seat 0 to play."""
    g = drive(rules, {0: ["play roll", "play 100"], 1: ["play roll", "play 50"]}, {0: hand or [], 1: []}, stock_left)
    return seat_0_to_play(g)


def seat_0_to_play(g):
    """The game on to seat 0's next play: the others throw their last card, a coup fourré is let go."""
    while g.to_act != 0 or g.decision != "play":
        if g.decision in ("draw", "coup-fourre"):
            g.act("draw" if g.decision == "draw" else "pass")
        else:
            g.act([a for a in g.legal_actions() if a.startswith("discard")][-1])
    return g


# ------------------------------------------------------------------ safeties
def test_a_safety_held_for_a_coup_fourre_and_one_laid():
    g = moving(hand=["puncture-proof", "driving-ace", "100", "200", "25", "50"])
    assert why(g, "play 100", "play puncture-proof") == {
        "code": "hold_safety",
        "params": {"safety": "puncture-proof", "hazard": "flat-tire", "bonus": 300},
    }
    assert code(g, "discard 25", "discard puncture-proof") == "keep_safety"
    assert code(g, "play puncture-proof", "discard 25") == "lay_safety"
    assert why(g, "play puncture-proof", "play driving-ace")["params"] == {
        "safety": "puncture-proof",
        "other_card": "driving-ace",
        "hazard": "accident",
    }
    assert code(g, "play puncture-proof", "play driving-ace") == "lay_safety_keep"


def test_a_safety_late_in_the_hand_is_laid():
    g = moving(hand=["extra-tank", "100"], stock_left=8)
    assert g.stock_size <= 8 and "extra-tank" in g.hand(0)
    assert why(g, "play extra-tank", "discard 25" if "25" in g.hand(0) else "play 100") == {
        "code": "lay_safety_late",
        "params": {"safety": "extra-tank", "bonus": 100},
    }


def test_in_the_french_race_a_coup_fourre_scores_nothing_but_cures():
    g = moving("dujardin", hand=["puncture-proof", "100"])
    assert code(g, "play 100", "play puncture-proof") == "hold_safety_race"


def stopped(rules: str = "classic"):
    """Seat 0 rolling, then stopped by seat 1's Stop, holding a Roll, Right of Way and a 25."""
    g = drive(
        rules,
        {0: ["play roll", "play 100"], 1: ["play roll", "play stop 0"]},
        {0: ["roll", "right-of-way", "25"], 1: []},
    )
    if g.decision == "coup-fourre":
        g.act("pass")  # the Stop stays: the coup fourré was let go
    if g.decision == "draw":
        g.act("draw")
    assert g.to_act == 0 and g.tableau(0)["battle"][-1] == "stop", g.tableau(0)
    return g


def test_curing_a_stop():
    g = stopped()
    assert why(g, "play roll", "discard 25") == {"code": "cure", "params": {"card": "roll", "hazard": "stop"}}
    assert why(g, "play roll", "play right-of-way")["code"] == "cure_keep_safety"  # the Roll cures it as well
    assert why(g, "play right-of-way", "play roll") == {
        "code": "safety_cures",
        "params": {"safety": "right-of-way", "hazard": "stop"},
    }
    assert code(g, "discard 25", "discard roll") == "keep_needed"


def test_a_roll_starts_the_car():
    g = mb.new_game("dujardin", players=2, seed=1)
    assert code(g, "play roll", "discard roll") == "start"


def test_end_of_limit_lifts_a_speed_limit():
    g = drive(
        "classic",
        {0: ["play roll", "play 100"], 1: ["play roll", "play speed-limit 0"]},
        {0: ["end-of-limit"], 1: []},
    )
    if g.decision == "coup-fourre":
        g.act("pass")
    if g.decision == "draw":
        g.act("draw")
    assert why(g, "play end-of-limit")["code"] == "lift_limit"


# ------------------------------------------------------------------ coup fourré
def coup_fourre_asked(rules: str):
    g = drive(
        rules,
        {0: ["play roll", "play 200", "play 100"], 1: ["play roll", "play 200", "play 100"]},
        {0: ["puncture-proof", "100", "75"], 1: ["flat-tire", "100", "75"]},
        stock_left=6,
    )
    if g.to_act == 0:
        g.act(next(a for a in g.legal_actions() if a.startswith("discard 2")))
    if g.decision == "draw":
        g.act("draw")
    g.act("play flat-tire 0")
    assert g.to_act == 0 and g.decision == "coup-fourre"
    return g


def test_the_coup_fourre_taken():
    g = coup_fourre_asked("classic")
    assert why(g, "coup-fourre", "pass") == {
        "code": "coup_fourre",
        "params": {"safety": "puncture-proof", "hazard": "flat-tire", "bonus": 300},
    }
    assert code(g, "pass", "coup-fourre") == "general"  # nothing on the table says why: the figure does
    assert code(coup_fourre_asked("dujardin"), "coup-fourre", "pass") == "coup_fourre_race"


# ------------------------------------------------------------------ distance
def nine_hundred(seat0_keeps: list[str]):
    """Dujardin: seat 0 at 900 (two 200s and five 100s) to play, seat 1 at 550."""
    drive_to = ["play 200", "play 200"] + ["play 100"] * 5
    pad = ["25", "50", "75"] * 2  # seat 1 draws every other stock card: as many as seat 0's
    g = drive(
        "dujardin",
        {0: ["play roll"] + drive_to, 1: ["play roll"] + ["play 100"] * 5 + ["play 50"]},
        {0: seat0_keeps, 1: pad},
    )
    seat_0_to_play(g)
    assert g.to_act == 0 and g.tableau(0)["distance"] == 900 and g.tableau(0)["two_hundreds"] == 2
    return g


def test_the_exact_finish_and_the_25_left_to_find():
    """The review's blunder (tests/bots/test_review.py): at 900 the 100 wins, the 75 leaves 25 that only a 25 makes."""
    g = nine_hundred(["100", "75", "50", "200"])
    assert why(g, "play 100", "play 75") == {
        "code": "exact_finish",
        "params": {"card": "100", "target": 1000, "other_card": "75", "left": 25},
    }
    assert why(g, "play 100")["code"] == "finish"
    assert why(g, "play 50", "play 75")["params"] == {"other_card": "75", "left": 25, "target": 1000}
    assert code(g, "discard 200", "play 75") == "awkward_left"
    assert code(g, "discard 200", "discard 50") == "discard_third_200"  # two laid: a third never goes down


def test_distance_laid_and_a_200_kept_off_for_the_safe_trip():
    g = moving(hand=["100", "200", "25", "50"])
    assert why(g, "play 100", "discard 25") == {
        "code": "distance",
        "params": {"card": "100", "km": 100, "distance": 200, "target": 700, "left": 500},
    }
    assert why(g, "play 100", "play 25")["params"]["more"] == 75
    assert code(g, "play 100", "play 25") == "distance_more"
    assert why(g, "play 100", "play 200") == {"code": "safe_trip", "params": {"card": "100", "bonus": 300}}
    assert code(moving("dujardin", hand=["100", "200"]), "play 100", "play 200") == "distance"  # no such bonus


def test_a_card_that_no_longer_fits_is_thrown():
    drive_to = ["play 200"] + ["play 100"] * 7
    throws = ["discard 25", "discard 75"] * 5  # seat 1 draws every other stock card: as many of its own as seat 0
    g = seat_0_to_play(
        drive(
            "dujardin", {0: ["play roll"] + drive_to, 1: ["play roll", "play 50"] + throws}, {0: ["200", "25"], 1: []}
        )
    )
    assert g.to_act == 0 and g.tableau(0)["distance"] == 900 and g.tableau(0)["two_hundreds"] == 1
    assert why(g, "discard 200", "play 25") == {
        "code": "discard_too_far",
        "params": {"card": "200", "km": 200, "distance": 900, "target": 1000},
    }


# ------------------------------------------------------------------ attacks
def test_attacks():
    g = moving(hand=["flat-tire", "stop", "speed-limit", "puncture-proof", "25", "50"])
    assert why(g, "play flat-tire 1", "discard 25") == {
        "code": "attack_sure",  # its safety is in this hand: no coup fourré can answer
        "params": {"hazard": "flat-tire", "side": 1, "distance": 50, "target": 700, "safety": "puncture-proof"},
    }
    assert code(g, "play stop 1", "discard 25") == "attack"
    assert code(g, "play speed-limit 1", "discard 25") == "attack_limit"


def test_the_leader_is_the_one_to_stop():
    g = drive(
        "classic",
        {0: ["play roll"], 1: ["play roll", "play 200"], 2: ["play roll", "play 50"]},
        {0: ["stop"], 1: [], 2: []},
    )
    seat_0_to_play(g)
    assert why(g, "play stop 1", "play stop 2")["code"] == "attack_leader"
    assert why(g, "play stop 1", "discard stop")["params"]["side"] == 1


def test_an_attack_nobody_can_cure():
    """Every Repairs thrown or in hand, and the Driving Ace in hand: an Accident stays for the hand."""
    g = drive(
        "classic",
        {0: ["play roll"] + ["discard repairs"] * 6, 1: ["play roll"] + ["discard 25", "discard 50", "discard 75"] * 3},
        {0: ["driving-ace", "accident"], 1: []},
    )
    seat_0_to_play(g)
    assert g.discard_pile.count("repairs") == 6 and "driving-ace" in g.hand(0)
    assert why(g, "play accident 1")["code"] == "attack_uncurable"


# ------------------------------------------------------------------ discards
def test_what_to_throw_away():
    g = moving(hand=["flat-tire", "spare-tire", "25", "50", "100"])
    assert why(g, "discard 25", "discard flat-tire") == {
        "code": "keep_hazard",
        "params": {"card": "25", "other_card": "flat-tire"},
    }
    assert why(g, "discard 25", "discard spare-tire") == {
        "code": "keep_remedy",
        "params": {"other_card": "spare-tire", "hazard": "flat-tire"},
    }
    assert code(g, "discard 25", "discard 50") == "discard_rather"
    assert why(g, "discard 25") == {"code": "discard", "params": {"card": "25"}}


def test_a_remedy_a_safety_covers_and_a_hazard_nobody_can_take():
    g = drive(
        "classic",
        {0: ["play roll", "play puncture-proof"], 1: ["play roll", "play driving-ace"]},
        {0: ["spare-tire", "accident", "25"], 1: []},
    )
    seat_0_to_play(g)
    assert why(g, "discard spare-tire", "discard 25") == {
        "code": "discard_cured",
        "params": {"card": "spare-tire", "safety": "puncture-proof"},
    }
    assert why(g, "discard accident", "discard 25") == {
        "code": "discard_no_target",
        "params": {"card": "accident", "safety": "driving-ace"},
    }


# ------------------------------------------------------------------ the extension, drawing
def test_the_extension_either_way():
    g = drive(
        "classic", {0: ["play roll", "play 200", "play 200", "play 100", "play 100", "play 100"], 1: []}, {0: [], 1: []}
    )
    assert g.decision == "extension" and g.to_act == 0
    figures = {"chance": 1.0, "best_chance": 0.9, "match_chance": 0.60, "best_match_chance": 0.64}
    assert why(g, "extend", "end-hand", figures) == {
        "code": "extend",  # the match's chance tells most: the hand's alone would say otherwise
        "params": {"distance": 700, "target": 1000, "bonus": 200, "match": 64, "other_match": 60}
        | {"chance": 90, "other_chance": 100, "figure": "match"},
    }
    assert code(g, "end-hand", "extend") == "end_hand"


def test_taking_the_discard_or_drawing():
    g = drive(
        "classic",
        {0: ["play roll"], 1: ["play roll", "play stop 0", "discard roll"]},
        {0: ["25", "50", "75", "100", "25"], 1: []},  # a full hand: no safety dealt to seat 0, no coup fourré
    )
    assert g.to_act == 0 and g.decision == "draw" and g.discard_pile[-1] == "roll", (g.decision, g.discard_pile)
    assert why(g, "take-discard", "draw") == {"code": "take_discard_cure", "params": {"card": "roll", "hazard": "stop"}}
    assert code(g, "draw", "take-discard") == "general"  # the stock beat the card the car needs: the figure says it
    g = drive(
        "classic", {0: ["play roll"], 1: ["play roll", "discard 25"]}, {0: ["50", "75", "100", "50", "75"], 1: []}
    )
    assert g.to_act == 0 and g.decision == "draw" and g.discard_pile[-1] == "25"
    assert why(g, "take-discard", "draw") == {"code": "take_discard", "params": {"card": "25"}}
    assert why(g, "draw", "take-discard") == {"code": "draw_stock", "params": {"card": "25"}}


# ------------------------------------------------------------------ the figure
def test_the_figure_is_the_one_that_tells_most():
    g = moving(hand=["100", "25"])
    clear = why(g, "play 100", "discard 25", {"chance": 0.40, "best_chance": 0.62})["params"]
    assert clear.items() >= {"chance": 62, "other_chance": 40, "figure": "chance"}.items()
    slight = {"chance": 0.60, "best_chance": 0.62, "points": 410.0, "best_points": 530.4}
    said = why(g, "play 100", "discard 25", slight)["params"]
    assert said["gain_points"] == 120 and said["figure"] == "points"  # 2 points of chance tell less than 120 points
    words = TableWords("en", 2, False)
    assert words.figure(said) == "(about 120 more points for your side in this hand)"
    assert words.figure(clear, shown=["chance"]) == ""  # nothing else to quote
    assert words.figure(said | {"figure": "chance"}, shown=["chance"]).startswith("(about 120")  # the next one
    alone = why(g, "play 100", None, {"best_chance": 0.7})["params"]  # a hint's line: its own chance
    assert alone.items() >= {"chance": 70, "figure": "chance"}.items() and "other_chance" not in alone
    assert not set(why(g, "play 100", "discard 25")["params"]) & set(FIGURE_PARAMS)  # no figure given, none quoted
    match = {"chance": 0.50, "best_chance": 0.52, "match_chance": 0.40, "best_match_chance": 0.47}
    assert why(g, "play 100", "discard 25", match)["params"].items() >= {"match": 47, "other_match": 40}.items()
    assert words.figure(why(g, "play 100", "discard 25", match)["params"]).startswith("(chance of winning the match")


# ------------------------------------------------------------------ every code, said in both languages
def test_every_code_is_played_out_above():
    """Each code of reasons.CODES is the answer of a stacked position in this file."""
    import re
    from pathlib import Path

    text = Path(__file__).read_text(encoding="utf-8")
    shown = set(re.findall(r'== "(\w+)"', text)) | set(re.findall(r'"code": "(\w+)"', text))
    assert set(CODES) <= shown, sorted(set(CODES) - shown)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_code_is_said_in_the_catalog(lang):
    cat = catalog(lang)
    params = {"km": 75, "left": 25, "more": 25, "distance": 900, "target": 1000, "bonus": 300, "side": 1}
    params |= {name: "flat-tire" for name, kind in REASON_PARAMS.items() if kind == "card"}
    words = TableWords(lang, 2, False)
    for c in CODES:
        text = cat.messages[f"reason.{c}"]
        assert placeholders(text) <= set(REASON_PARAMS), (c, text)
        line = words.why({"code": c, "params": params | {"chance": 62, "other_chance": 40}}, words.side_title)
        assert "{" not in line and line.endswith("%)") and len(line) < 260, line
    one = words.why({"code": "start", "params": {"card": "roll", "gain_points": 1}})
    assert one.endswith(cat.n("reason.figure.points", 1)) and cat.t("card.roll") in one


def test_the_pages_say_the_params_as_the_terminal_does():
    """js/lib/words.js says each parameter of a reason by the kind i18n/words.py gives it."""
    import re
    from pathlib import Path

    import millebornes

    js = (Path(millebornes.__file__).parent / "web/static/js/lib/words.js").read_text(encoding="utf-8")
    block = re.search(r"const REASON_PARAMS = \{(.*?)\};", js, re.S).group(1)
    assert dict(re.findall(r'(\w+): "(\w+)"', block)) == REASON_PARAMS


# ------------------------------------------------------------------ the review, the puzzles
def test_a_review_gives_every_mistake_and_every_other_better_move_its_reason():
    g = mb.new_game("dujardin", players=2, seed=3)
    from millebornes.bots import make_bot

    bots = [make_bot("random", seed=1), make_bot("easy", seed=2)]
    while not g.is_over:
        g.act(bots[g.to_act].choose(g.observation(g.to_act), g.legal_actions()))
    r = review(g.record(), seats=[0], worlds=12)
    told = [m for m in r["moves"] if "reason" in m]
    assert told and all(m["reason"]["code"] in CODES for m in told)
    assert all(("reason" in m) == (m["best"] != m["played"] or m["class"] in MISTAKES) for m in r["moves"])
    m = next(m for m in told if m["best"] != m["played"])
    seen = {i: obs for obs, i, _ in decisions(g.record(), [0])[0]}
    assert m["reason"] == reason(seen[m["index"]], m["best"], m["played"], {k: m.get(k) for k in FIGURES})
    again = [{k: v for k, v in m.items() if k != "reason"} for m in r["moves"]]
    annotate(again, seen)  # the same from the moves and what the seat saw
    assert again == r["moves"]
    puzzles = from_review(g.record(), r, 0)
    assert all(p["reason"]["code"] in CODES for p in puzzles)


MISTAKES = ("inaccuracy", "mistake", "blunder")


def test_the_shipped_puzzles_carry_their_reasons():
    """`millebornes puzzles src/millebornes/puzzles.json --reasons` wrote them: re-deriving gives the same."""
    data = shipped()
    assert all(p["reason"]["code"] in CODES for p in data["puzzles"])
    assert with_reasons(data) == data


def test_a_hint_says_why_its_first_move():
    from millebornes.web.thinking import hint

    g = stopped()
    actions = hint(g.observation(0), iterations=200, ms=0, seed=1)
    first = actions[0]
    assert first["reason"]["code"] in CODES and all("reason" not in a for a in actions[1:])
    assert first["reason"]["params"]["chance"] == round(100 * first["win_chance"])
