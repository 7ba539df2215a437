"""What the pages read about the game itself, the same for every visitor and cached: the cards, the message
catalog, how to play an edition, the editions with their tables' ladders of levels."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse

from ... import cards as C
from ...bots.ladder import default_level, measured_at, offered_levels, standing
from ...i18n import LANGS, catalog
from ...i18n.howto import how_to_play
from ...rules import RULESETS
from ..apidoc import ok, refusals

router = APIRouter(tags=["reference"])


def levels(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> list[dict]:
    """The levels offered at a table, weakest first, each with how it did against the one below (none for the
    lowest)."""
    out = []
    for level in offered_levels(ruleset, players, teams):
        step = standing(level, ruleset, players, teams)
        out.append({"level": level} | ({k: step[k] for k in ("below", "rate", "in_ten", "matches")} if step else {}))
    return out


def ladders(name: str, counts: list[int]) -> list[dict]:
    """An edition's tables, each with its levels (:func:`levels`), its default level and whether it was measured
    (``measured`` false: the figures are two-player classic's)."""
    rules = RULESETS[name]
    return [
        {
            "players": n,
            "teams": teams,
            "measured": measured_at(name, n, teams),
            "levels": levels(name, n, teams),
            "default_level": default_level(name, n, teams),
        }
        for n in counts
        for teams in (False, True)
        if rules.allows(n, teams)
    ]


def editions() -> list[dict]:
    out = []
    for name, r in RULESETS.items():
        counts = sorted(set(r.solo_players) | set(r.team_players))
        # what the pages show comes from the catalog (edition.NAME, edition.NAME.summary), written for players
        out.append(
            {
                "name": name,
                "title": {lang: catalog(lang).t(f"edition.{name}") for lang in LANGS},
                "summary": {lang: catalog(lang).t(f"edition.{name}.summary") for lang in LANGS},
                "players": counts,
                "teams": {str(n): r.default_teams(n) for n in counts},
                "solo_players": list(r.solo_players),
                "team_players": list(r.team_players),
                "ladders": ladders(name, counts),
            }
        )
    return out


@router.get("/api/cards", responses=ok("Every card: its id, group, names and value."))
async def cards_list():
    return {
        "cards": [
            {"id": C.CARD_IDS[k], "group": C.GROUP[k], "en": C.NAMES_EN[k], "fr": C.NAMES_FR[k], "value": C.VALUE[k]}
            for k in range(C.NUM_KINDS)
        ]
    }


@router.get("/api/catalog/{lang}", responses=ok("The message catalog of a language."))
async def catalog_of(lang: str):
    """Every word a page shows, in one language (English for a language the catalog lacks)."""
    return JSONResponse(catalog(lang).as_json(), headers={"Cache-Control": "public, max-age=300"})


@router.get(
    "/api/rules/{edition}",
    responses=ok("How to play the edition, in sections.")
    | refusals(404, 422, r404="No edition of that name.", r422="The edition is not played by so many players."),
)
async def rules_of(
    edition: Annotated[str, Path(max_length=20)],
    lang: Annotated[str, Query(max_length=10)] = "en",
    players: Annotated[int, Query(ge=2, le=8)] = 2,
):
    """How to play an edition (i18n/howto.py), in a language, for a table of so many players."""
    if edition not in RULESETS:
        return JSONResponse({"detail": f"no edition {edition!r}: one of {', '.join(RULESETS)}"}, status_code=404)
    rules = RULESETS[edition]
    if not (rules.allows(players, False) or rules.allows(players, True)):
        return JSONResponse(
            {"detail": f"{edition} is not played by {players} players", "field": "players"}, status_code=422
        )
    return JSONResponse(how_to_play(rules, lang, players), headers={"Cache-Control": "public, max-age=300"})


@router.get("/api/editions", responses=ok("The editions with their tables' ladders of levels."))
async def editions_list():
    """The editions, each with its tables' ladders; ``levels`` and ``default_level`` are two-player classic's."""
    return JSONResponse(
        {"editions": editions(), "levels": levels(), "default_level": default_level()},
        headers={"Cache-Control": "public, max-age=300"},
    )
