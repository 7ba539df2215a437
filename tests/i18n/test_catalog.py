"""One vocabulary for every app: the message catalog (src/millebornes/i18n/*.po) and the engine's refusals.

Every reason code of the engine is triggered by a real game and said in English and in French by the terminal's
words; both catalogs have the same keys, placeholders and plural forms; every key the pages, the terminal, the
command line and the server use is in the catalog; the French follows French typography.
"""

from __future__ import annotations

import ast
import json
import pickle
import re
from pathlib import Path

import pytest

import millebornes as mb
from millebornes.actions import PARAM_KINDS, REASONS
from millebornes.bots import LEVELS
from millebornes.cards import CARD_IDS, GROUP, NAMES_EN, NAMES_FR
from millebornes.i18n import HERE, LANGS, Catalog, catalog, placeholders
from millebornes.state import DECISION_NAMES
from millebornes.tui.words import Words
from tests.util import go, new, pass_turn

SRC = Path(mb.__file__).parent
STATIC = SRC / "web" / "static"


# ------------------------------------------------------------------------- every reason, from a real game
def at_start(rules="classic", hand=("25", "50", "75", "100", "roll", "end-of-limit")):
    """Seat 0 to play its first turn (it has drawn); seat 1 holds only harmless cards."""
    return new(rules, hands={0: list(hand), 1: ["end-of-limit", "gasoline", "spare-tire", "repairs", "25", "50"]})


def finished():
    g = mb.new_game("dujardin", players=2, seed=3)
    while not g.is_over:
        g.act(g.legal_actions()[-1])
    return g


def rolling(rules="classic", hand0=(), hand1=(), draws=None):
    """Seat 0 has played its Roll; seat 1 is to play (after its draw)."""
    g = new(rules, hands={0: ["roll", *hand0], 1: list(hand1)}, draws=draws)
    go(g, "play roll")
    if g.decision == "draw":
        go(g, "draw")
    return g


def flat_tire_on_seat_0():
    """Seat 0 rolled, seat 1 played a Flat Tire on it: seat 0 is to play, stopped."""
    g = rolling(hand0=["75", "roll"], hand1=["flat-tire"])
    go(g, "play flat-tire 0")
    return g


def protected():
    g = new("classic", hands={0: ["flat-tire"], 1: ["puncture-proof"]})
    pass_turn(g)
    go(g, "play puncture-proof")
    pass_turn(g)  # the safety's extra turn
    return g


def limited_twice():
    g = new("classic", hands={0: ["speed-limit", "speed-limit"]})
    go(g, "play speed-limit 1")
    pass_turn(g)
    return g


def under_a_limit():
    g = rolling(hand0=["100"], hand1=["speed-limit"])
    go(g, "play speed-limit 0")
    return g


def two_200s_down():
    g = rolling(hand0=["200", "200", "200"])
    for _ in range(2):
        pass_turn(g)
        go(g, "play 200")
    pass_turn(g)
    return g


def at_675():
    g = rolling(hand0=["200", "200", "100", "100", "75"], draws={0: ["50"] + ["25"] * 8})
    for card in ("200", "200", "100", "100", "75"):
        pass_turn(g, keep=("50",))
        go(g, f"play {card}")
    pass_turn(g)
    return g


def rolled():
    g = rolling(hand0=["roll"])
    pass_turn(g)
    return g


# code: (the game, the action, the seat given to act, the parameters expected)
CASES = {
    "action_not_text": (at_start, True, None, {}),
    "action_empty": (at_start, "   ", None, {}),
    "action_needs_card": (at_start, "play", None, {}),
    "unknown_card": (at_start, "discard 300", None, {}),
    "needs_side": (lambda: at_start(hand=["stop"]), "play stop", None, {"card": "stop"}),
    "no_such_side": (lambda: at_start(hand=["stop"]), "play stop 5", None, {}),
    "not_a_hazard": (at_start, "play 75 1", None, {"card": "75"}),
    "discard_just_card": (at_start, "discard 75 1", None, {"card": "75"}),
    "unknown_action": (at_start, "fly to the moon", None, {}),
    "match_over": (finished, "draw", None, {}),
    "not_your_decision": (at_start, "draw", 1, {"seat": 1, "to_act": 0, "decision": "play"}),
    "wrong_decision": (at_start, "extend", None, {"to_act": 0, "decision": "play"}),
    "already_drawn": (at_start, "take-discard", None, {}),
    "no_card": (at_start, "play 200", 0, {"seat": 0, "card": "200"}),
    "own_side": (lambda: at_start(hand=["stop"]), "play stop 0", None, {"card": "stop"}),
    "protected": (protected, "play flat-tire 1", None, {"side": 1, "card": "flat-tire", "safety": "puncture-proof"}),
    "already_limited": (limited_twice, "play speed-limit 1", None, {"side": 1, "card": "speed-limit"}),
    "not_started": (lambda: at_start(hand=["stop"]), "play stop 1", None, {"side": 1, "card": "stop"}),
    "not_moving": (
        lambda: at_start("parker", hand=["stop"]),
        "play stop 1",
        None,
        {"side": 1, "card": "stop", "top": None},
    ),
    "stopped": (flat_tire_on_seat_0, "play 75", None, {"card": "75", "top": "flat-tire", "need": "spare-tire"}),
    "needs_roll": (at_start, "play 75", None, {"card": "75", "top": None, "need": "roll"}),
    "speed_limited": (under_a_limit, "play 100", None, {"card": "100"}),
    "two_200s": (two_200s_down, "play 200", None, {"card": "200"}),
    "past_target": (at_675, "play 50", None, {"card": "50", "distance": 675, "value": 50, "target": 700}),
    "already_rolling": (rolled, "play roll", None, {"card": "roll"}),
    "roll_not_now": (
        flat_tire_on_seat_0,
        "play roll",
        None,
        {"card": "roll", "top": "flat-tire", "need": "spare-tire"},
    ),
    "not_limited": (at_start, "play end-of-limit", None, {"card": "end-of-limit"}),
    "wrong_remedy": (
        lambda: at_start(hand=["gasoline"]),
        "play gasoline",
        None,
        {"card": "gasoline", "hazard": "out-of-gas", "top": None},
    ),
}

# words that betray English left in a French sentence, and the engine's notation
ENGLISH = (
    " the ",
    " you ",
    " your ",
    " is ",
    " not ",
    " has ",
    " must ",
    "Roll",
    "Stop",
    "seat",
    "Seat",
    " side",
    "Side",
    " card",
    "hand",
    "Spare",
    "Flat",
    "Gasoline",
    "Repairs",
    "Speed",
    "Limit ",
    "Right of Way",
    "Extra Tank",
    "Puncture",
    "Driving",
    "miles",
    "pile shows",
    "empty",
    "nothing",
)
IDS = "|".join(sorted(CARD_IDS, key=len, reverse=True))
NOTATION = re.compile(
    rf"\b(play|discard) ({IDS})\b|take-discard|coup-fourre|end-hand|'play|'discard|"
    r"\b(flat-tire|speed-limit|out-of-gas|end-of-limit|spare-tire|right-of-way|extra-tank|"
    r"puncture-proof|driving-ace)\b"
)


def test_every_reason_has_a_case():
    assert set(CASES) == set(REASONS)
    assert all(set(params) <= set(PARAM_KINDS) for params in REASONS.values())


@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_reason_is_raised_by_a_real_game_and_said_in_both_languages(code):
    make, action, seat, params = CASES[code]
    game = make()
    before = game.record(), game.to_act, game.decision
    with pytest.raises(mb.IllegalAction) as info:
        game.act(action, seat)
    exc = info.value
    assert (game.record(), game.to_act, game.decision) == before  # a refusal changes nothing
    assert (exc.reason, exc.params) == (code, params), str(exc)
    assert set(exc.params) == set(REASONS[code])
    assert json.loads(json.dumps(exc.params)) == exc.params
    assert str(exc) and "{" not in str(exc)  # the English sentence of logs and programs, as before
    for lang in LANGS:
        words = Words(lang, game.players, game.teams, 0)
        text = words.reason(exc)
        assert text and text == words.reason(exc.reason, exc.params)
        assert "{" not in text and "}" not in text and "None" not in text, text
        assert not NOTATION.search(text), text
        if lang == "fr":
            left = [w for w in ENGLISH if w in text]
            assert not left, (text, left)
            assert not [n for n, f in zip(NAMES_EN, NAMES_FR) if n != f and n in text], text


def test_a_refusal_keeps_its_reason_across_processes_and_records():
    game = at_start("parker")
    with pytest.raises(mb.IllegalAction) as info:
        game.act("play 75")
    again = pickle.loads(pickle.dumps(info.value))
    assert (type(again), str(again), again.reason, again.params) == (
        mb.IllegalAction,
        str(info.value),
        "needs_roll",
        {"card": "75", "top": None, "need": "roll"},
    )
    record = game.record()
    record["actions"] = ["discard 25", "play 200"]
    with pytest.raises(mb.IllegalAction, match="record action 1") as info:
        mb.replay(record)
    assert (info.value.reason, info.value.params, info.value.move) == ("no_card", {"seat": 1, "card": "200"}, 1)


def test_every_refused_code_of_random_games_has_its_parameters():
    """Every action the engine refuses in the middle of random games of every edition names a code of REASONS
    with exactly its parameters."""
    import random

    for name in mb.RULESETS:
        for seed in range(3):
            game = mb.new_game(name, players=3 if name != "parker" else 2, seed=seed)
            rng = random.Random(seed)
            for _ in range(80):
                if game.is_over:
                    break
                legal = set(game.legal_codes())
                for code in mb.ACTION_NAMES:
                    if code not in legal:
                        exc = game.refusal(code)
                        assert set(exc.params) == set(REASONS[exc.reason]), (exc.reason, exc.params)
                game.act_code(rng.choice(sorted(legal)))


# ------------------------------------------------------------------------- the two catalogs agree
@pytest.fixture(scope="module")
def cats() -> dict[str, Catalog]:
    return {lang: Catalog(lang) for lang in LANGS}


def test_both_languages_have_the_same_keys_placeholders_and_plurals(cats):
    en, fr = cats["en"], cats["fr"]
    assert set(en.messages) == set(fr.messages), set(en.messages) ^ set(fr.messages)
    assert set(en.plurals) == set(fr.plurals), set(en.plurals) ^ set(fr.plurals)
    for key, text in en.messages.items():
        assert placeholders(text) == placeholders(fr.messages[key]), key
        assert text.strip() or key == "and", key
    for key in en.plurals:
        assert len(en.plurals[key]) == 2 and len(fr.plurals[key]) == 2, key
        assert len({frozenset(placeholders(f)) for f in en.plurals[key] + fr.plurals[key]}) == 1, key


def test_no_message_is_given_twice():
    """A key given twice in one file would silently keep its last text."""
    for lang in LANGS:
        ids = re.findall(r'^msgid "(.+)"$', (HERE / f"{lang}.po").read_text(encoding="utf-8"), re.M)
        assert len(ids) == len(set(ids)), (lang, sorted({i for i in ids if ids.count(i) > 1}))


def test_card_names_are_the_names_of_rules_md(cats):
    for k, card in enumerate(CARD_IDS):
        assert (cats["en"].t(f"card.{card}"), cats["fr"].t(f"card.{card}")) == (NAMES_EN[k], NAMES_FR[k])


def test_french_typography(cats):
    """A no-break space before ':' and inside « », a narrow one before ';', '!' and '?' (never a plain
    space or none); no straight double quotes."""
    fr = cats["fr"]
    texts = [(k, v) for k, v in fr.messages.items()] + [(k, f) for k, v in fr.plurals.items() for f in v]
    for key, text in texts:
        for m in re.finditer(r"(.?)([:;!?»])", text):
            before, mark = m.groups()
            want = "\u00a0" if mark in ":»" else "\u202f"
            assert before == want, f"{key}: {mark!r} after {before!r} in {text!r}"
        for m in re.finditer("«(.?)", text):
            assert m.group(1) in ("\u00a0", "\u202f"), f"{key}: {text!r}"
        assert '"' not in text, key


def test_french_reasons_assume_no_gender(cats):
    """A refusal speaks to a player without knowing whether they are a man or a woman."""
    for code in REASONS:
        text = cats["fr"].messages[f"reason.{code}"]
        assert not re.search(r"\b(arrêté|seul|prêt|parti|elle|le joueur|un joueur)\b", text), (code, text)


# ------------------------------------------------------------------------- every key used is in the catalog
def families() -> dict[str, set[str]]:
    """The keys built at run time, by prefix (and suffix): every value each may take."""
    breakdown = set(re.findall(r'b\["(\w+)"\]', (SRC / "state.py").read_text()))
    actions = {a.split()[0] for a in mb.ACTION_NAMES.values()} | {"play_on"}
    return {
        "card.": set(CARD_IDS),
        "reason.": set(REASONS),
        "decision.": set(DECISION_NAMES),
        "level.": set(LEVELS),
        "kind.": {"human", *LEVELS},
        "item.": breakdown,
        "edition.": set(mb.RULESETS),
        "edition.|.summary": set(mb.RULESETS),
        "action.": actions,
        "a11y.group.": set(GROUP),
        "turn.yours_": {"play", "draw", "cf", "ext"},
        "turn.other_": {"play", "draw", "cf", "ext"},
        "tui.ev.": {"attack", "safety", "play", "discard", "take", "cf", "extend", "end", "deal"},
        "tui.ev.|_you": {"attack", "safety", "play", "discard", "take", "cf", "extend", "end", "deal"},
    }


def check_family(prefix: str, suffix: str, keys: set[str], where: str) -> None:
    values = families().get(f"{prefix}|{suffix}" if suffix else prefix)
    if values is None:  # a family this test does not know: at least its keys exist
        assert any(k.startswith(prefix) and k.endswith(suffix) for k in keys), f"{where}: {prefix}…{suffix}"
        return
    missing = {v for v in values if f"{prefix}{v}{suffix}" not in keys}
    assert not missing, f"{where}: {prefix}…{suffix} lacks {sorted(missing)}"


def catalog_families(keys: set[str]) -> set[str]:
    return {k.split(".")[0] for k in keys}


def test_every_key_the_pages_use_is_in_the_catalog(cats):
    keys = cats["en"].keys()
    heads = catalog_families(keys)
    used = 0
    for path in sorted(STATIC.rglob("*.js")) + sorted(STATIC.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for literal in re.findall(r'"([a-z][\w]*\.[\w.-]+)"|\'([a-z][\w]*\.[\w.-]+)\'', text):
            key = literal[0] or literal[1]
            if key.split(".")[0] in heads and not re.search(r"\.(js|html|css|svg|json|png)$", key):
                used += 1
                assert key in keys, f"{path.name}: {key}"
        for template in re.findall(r"`([a-z][\w]*\.[^`]*)`", text):
            parts = re.split(r"\$\{[^}]*\}", template)
            if template.split(".")[0] not in heads:
                continue
            if len(parts) == 1:
                assert template in keys, f"{path.name}: {template}"
            else:
                check_family(parts[0], parts[-1], keys, path.name)
    assert used > 100


def python_sources() -> list[Path]:
    return [
        *sorted((SRC / "tui").glob("*.py")),
        *sorted((SRC / "web").glob("*.py")),
        *sorted((SRC / "cli").glob("*.py")),
        *sorted((SRC / "i18n").glob("*.py")),
    ]


def test_every_key_python_uses_is_in_the_catalog(cats):
    keys = cats["en"].keys()
    heads = catalog_families(keys) - {"millebornes"}
    used = 0
    for path in python_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        actions = {
            id(call.args[1])
            for call in ast.walk(tree)  # Textual's action names ("app.quit")
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Binding" and len(call.args) > 1
        }
        actions |= {id(part) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for part in f.values}
        for node in ast.walk(tree):
            if id(node) in actions:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"[a-z][\w]*\.[\w.-]+", node.value) and node.value.split(".")[0] in heads:
                    if not re.search(r"\.(js|html|css|svg|json|py|db|md)$", node.value):  # files, docs/ pages
                        used += 1
                        assert node.value in keys, f"{path.name}:{node.lineno}: {node.value}"
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                head = node.values[0].value
                if isinstance(head, str) and head.split(".")[0] in heads and "." in head:
                    tail = node.values[-1].value if isinstance(node.values[-1], ast.Constant) else ""
                    if " " not in head:
                        check_family(head, tail, keys, f"{path.name}:{node.lineno}")
    assert used > 80


def test_the_page_says_params_as_the_engine_names_them():
    """lib/words.js renders each refusal parameter by the kind the engine gives it."""
    text = (STATIC / "js" / "lib" / "words.js").read_text(encoding="utf-8")
    block = re.search(r"const PARAM_KINDS = \{(.*?)\};", text, re.S).group(1)
    found = dict(re.findall(r'(\w+): "(\w+)"', block))
    assert found == PARAM_KINDS


def test_catalog_files_are_what_babel_reads():
    """The files parse without a warning: every entry has its text."""
    from babel.messages.pofile import read_po

    for lang in LANGS:
        with open(HERE / f"{lang}.po", "rb") as f:
            po = read_po(f, locale=lang, abort_invalid=True)
        assert all(m.string if not m.pluralizable else all(m.string) for m in po if m.id), lang


def test_the_terminal_numbers_seats_from_one_and_names_levels_like_the_pages(cats):
    w = Words("fr", 4, True, 0, ["human", "hard", "easy", "human"])
    assert w.seat(0) == "Place 1" and w.kind(1) == "robot difficile" and w.side_title(1) == "Équipe 2 (2+4)"
    assert catalog("fr").t("level.hard") == "difficile"
    assert "Allonge" in cats["fr"].t("ext.title") and "Allonge" == cats["fr"].t("item.extension")
