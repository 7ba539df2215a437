"""How to play one edition, told to someone who has never played: the goal, each card, a turn, hazards and remedies,
the coup fourré, the extension, the end of a hand and the score, in the reader's language.

The same text is the browser's rules page (``GET /api/rules/{edition}``), the terminal game's ``?`` screen and
``millebornes rules EDITION --explain``.  Which sentence applies is decided here from the edition's options, so an
edition with an option switched tells that option; every word comes from the catalog (``howto.*``), every figure
from the ruleset.

>>> guide = how_to_play("classic", "en")
>>> [s["id"] for s in guide["sections"]]
['goal', 'cards', 'turn', 'hazards', 'coup-fourre', 'extension', 'end', 'scoring']
>>> guide["sections"][0]["lines"][0]
'Each hand is a road race: be the first side to cover exactly 700 miles, while you hold the others up with hazards.'
"""

from __future__ import annotations

from typing import TypedDict

from ..cards import CARD_IDS, GROUP, HAZARD_OF, PROTECTS, REMEDY_OF, SAFETY_OF, VALUE
from ..rules import Ruleset, ruleset
from .words import Words

SECTIONS = ("goal", "cards", "turn", "hazards", "coup-fourre", "extension", "end", "scoring")
"""The sections in reading order; an edition without an extension has no ``extension`` section."""
GROUPS = ("distance", "hazard", "remedy", "safety")


class CardHelp(TypedDict):
    card: str
    """The card's id, for drawing it (``cards.js``); its name is ``name``."""
    name: str
    count: int
    """How many the full deck holds."""
    text: str


class ScoreRow(TypedDict):
    key: str
    """The item's id, as in a hand's breakdown (``distance``, ``trip``...)."""
    item: str
    """The item's name, as the score sheet calls it (``item.*``)."""
    points: str
    text: str


class Section(TypedDict):
    id: str
    title: str
    lines: list[str]
    groups: list[dict]
    """For ``cards``: ``{"group", "title", "cards": [CardHelp]}`` per group of cards."""
    rows: list[ScoreRow]
    """For ``scoring``: one row per item this edition scores."""


class Guide(TypedDict):
    edition: str
    lang: str
    players: int
    title: str
    summary: str
    sections: list[Section]


def how_to_play(edition: str | Ruleset, lang: str | None = "en", players: int = 2) -> Guide:
    """The whole explanation of ``edition`` (a name or a ruleset) in ``lang``, for a table of ``players`` (which
    decides the target and the deck); a name the engine does not know raises ``ValueError``."""
    rules = ruleset(edition) if isinstance(edition, str) else edition
    w = Words(lang)
    sections = [
        _goal(rules, w, players),
        _cards(rules, w),
        _turn(rules, w),
        _hazards(rules, w),
        _coup_fourre(rules, w),
        _extension(rules, w),
        _end(rules, w),
        _scoring(rules, w, players),
    ]
    return {
        "edition": rules.name,
        "lang": w.lang,
        "players": players,
        "title": w.edition(rules.name) or rules.name,
        "summary": w.edition_summary(rules.name),
        "sections": [s for s in sections if s is not None],
    }


def as_text(guide: Guide) -> list[str]:
    """The guide as paragraphs for a terminal: titles, sentences, one line per card and per score item."""
    w = Words(guide["lang"])
    out = [guide["title"], guide["summary"]]
    for s in guide["sections"]:
        out += ["", s["title"].upper(), *s["lines"]]
        for group in s["groups"]:
            out += ["", group["title"]]
            out += ["  " + w.t("howto.text.card", **c) for c in group["cards"]]
        out += ["  " + w.t("howto.text.row", item=r["item"], points=r["points"], text=r["text"]) for r in s["rows"]]
    return out


def _counts(w: Words, counts: tuple[int, ...]) -> str:
    """'2, 3 or 4' as the language writes it."""
    names = [w.num(n) for n in counts]
    return names[0] if len(names) == 1 else w.t("howto.or", first=", ".join(names[:-1]), last=names[-1])


def _section(w: Words, id: str, lines: list[str], groups: list[dict] | None = None, rows=None) -> Section:
    return {"id": id, "title": w.t(f"howto.{id}.title"), "lines": lines, "groups": groups or [], "rows": rows or []}


def _goal(rules: Ruleset, w: Words, players: int) -> Section:
    target = w.num(rules.first_target(players))
    lines = [w.t("howto.goal.race", target=target)]
    solo, teams = rules.solo_players, rules.team_players
    lines.append(w.t("howto.goal.players", counts=_counts(w, solo)))
    if teams:
        lines.append(w.t("howto.goal.teams", counts=_counts(w, teams)))
    if rules.winner == "distance":
        lines.append(w.t("howto.goal.distance_wins"))
    if rules.match_target:
        lines.append(w.t("howto.goal.match", goal=w.num(rules.match_target)))
    else:
        lines.append(w.t("howto.goal.one_race"))
    return _section(w, "goal", lines)


def _card_text(rules: Ruleset, w: Words, card: int) -> str:
    name = CARD_IDS[card]
    group = GROUP[card]
    if group == "distance":
        miles = VALUE[card]
        key = "howto.card.200" if miles == 200 else "howto.card.slow" if miles <= 50 else "howto.card.distance"
        return w.t(key, miles=w.num(miles))
    if group == "hazard":
        remedy, safety = w.card(CARD_IDS[REMEDY_OF[card]]), w.card(CARD_IDS[SAFETY_OF[card]])
        return w.t(f"howto.card.{name}", remedy=remedy, safety=safety)
    if group == "remedy":
        hazard = HAZARD_OF[card]
        if name in ("roll", "end-of-limit"):
            return w.t(f"howto.card.{name}")
        after = w.t("howto.card.then_roll") if rules.roll_after_remedy else w.t("howto.card.then_go")
        return w.t("howto.card.remedy", hazard=w.card(CARD_IDS[hazard])) + " " + after
    hazards = [w.card(CARD_IDS[h]) for h in PROTECTS[card]]
    text = w.t("howto.card.safety", hazards=w.names_list(hazards))
    return text + (" " + w.t("howto.card.right-of-way") if name == "right-of-way" else "")


def _cards(rules: Ruleset, w: Words) -> Section:
    full = rules.deck_counts(8)
    lines = [w.n("howto.cards.deck", sum(full))]
    if rules.small_game_deck:
        lines.append(w.n("howto.cards.small", rules.deck_size(2)))
    groups = []
    for group in GROUPS:
        cards: list[CardHelp] = [
            {"card": CARD_IDS[k], "name": w.card(CARD_IDS[k]), "count": full[k], "text": _card_text(rules, w, k)}
            for k in range(len(CARD_IDS))
            if GROUP[k] == group
        ]
        groups.append({"group": group, "title": w.t(f"howto.group.{group}"), "cards": cards})
    return _section(w, "cards", lines, groups)


def _turn(rules: Ruleset, w: Words) -> Section:
    lines = [w.t("howto.turn.draw_or_take") if rules.top_discard_pickup else w.t("howto.turn.draw")]
    lines += [w.t("howto.turn.play"), w.t("howto.turn.roll")]
    if rules.safety_extra_turn:
        lines.append(w.t("howto.turn.safety_again"))
    lines.append(w.t("howto.turn.tableau"))
    return _section(w, "turn", lines)


def _hazards(rules: Ruleset, w: Words) -> Section:
    lines = [w.t("howto.hazards.where")]
    lines.append(w.t("howto.hazards.stacking") if rules.hazard_target == "stacking" else w.t("howto.hazards.moving"))
    lines.append(w.t("howto.hazards.remedy_roll") if rules.roll_after_remedy else w.t("howto.hazards.remedy_go"))
    lines += [w.t("howto.hazards.limit"), w.t("howto.hazards.safety")]
    return _section(w, "hazards", lines)


def _coup_fourre(rules: Ruleset, w: Words) -> Section:
    lines = [w.t("howto.cf.what")]
    lines.append(w.t("howto.cf.anyone") if rules.coup_fourre == "any-opponent" else w.t("howto.cf.attacked"))
    lines.append(w.t("howto.cf.then"))
    extra = rules.scoring.coup_fourre
    if extra:
        lines.append(w.t("howto.cf.points", points=w.n("howto.points", rules.scoring.safety + extra)))
    lines.append(w.t("howto.cf.choose"))
    return _section(w, "coup-fourre", lines)


def _extension(rules: Ruleset, w: Words) -> Section | None:
    if not rules.extension or not rules.extension_players:
        return None
    counts = _counts(w, rules.extension_players)
    lines = [
        w.t("howto.ext.what", counts=counts, short=w.num(rules.extension_target), long=w.num(rules.target)),
        w.t("howto.ext.others", long=w.num(rules.target)),
    ]
    if rules.scoring.extension:
        lines.append(w.t("howto.ext.points", points=w.n("howto.points", rules.scoring.extension)))
    return _section(w, "extension", lines)


def _end(rules: Ruleset, w: Words) -> Section:
    lines = [w.t("howto.end.target")]
    lines.append(w.t("howto.end.play_out") if rules.exhaustion == "play-out" else w.t("howto.end.last_turn"))
    lines.append(w.t("howto.end.by_points") if rules.winner == "points" else w.t("howto.end.by_distance"))
    return _section(w, "end", lines)


def _scoring(rules: Ruleset, w: Words, players: int) -> Section:
    s = rules.scoring
    only_distance = not any((s.safety, s.all_safeties, s.coup_fourre, s.trip, s.safe_trip, s.extension, s.shutout))
    lines = [w.t("howto.scoring.only_distance") if only_distance else w.t("howto.scoring.intro")]
    rows: list[ScoreRow] = [
        {
            "key": "distance",
            "item": w.item("distance"),
            "points": w.n("howto.per_mile", s.mile),
            "text": w.t("howto.item.distance"),
        }
    ]

    def row(item: str, points: int, text: str) -> None:
        if points:
            rows.append({"key": item, "item": w.item(item), "points": w.n("howto.points", points), "text": text})

    row("safeties", s.safety, w.t("howto.item.safeties"))
    row("all_safeties", s.all_safeties, w.t("howto.item.all_safeties"))
    row("coups_fourres", s.coup_fourre, w.t("howto.item.coups_fourres"))
    target = w.num(rules.first_target(players))
    row("trip", s.trip, w.t("howto.item.trip", target=target))
    row("delayed_action", s.delayed_action, w.t("howto.item.delayed_action"))
    row(
        "safe_trip",
        s.safe_trip,
        w.t("howto.item.safe_trip_any") if s.safe_trip_to_any_winner else w.t("howto.item.safe_trip"),
    )
    row("extension", s.extension, w.t("howto.item.extension"))
    row("shutout", s.shutout, w.t("howto.item.shutout"))
    if s.hand_penalty:
        rows.append(
            {
                "key": "hand_penalty",
                "item": w.item("hand_penalty"),
                "points": w.t("howto.minus"),
                "text": w.t("howto.item.hand_penalty"),
            }
        )
    return _section(w, "scoring", lines, rows=rows)
