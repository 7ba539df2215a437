"""What a new table may be: the body of ``POST /api/tables`` and the checks it passes (:mod:`.service` makes it).

The schema refuses unknown fields and wrong types; the engine then judges the edition, options,
players, teams and deck, so no second copy of the rules lives here.  Every refusal names its field.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from ...actions import IllegalAction
from ...bots import LEVELS
from ...bots.ladder import default_level, offered_levels
from ...rules import RULESETS
from ...rules import ruleset as get_ruleset
from ...state import Game, new_game
from ..errors import Unprocessable
from ..settings import Settings
from .pacing import Pace

TEST_CF_TIMEOUT = 0.05
"""The shortest coup-fourré window, with the server's --test-mode only."""
TEST_SECONDS = 0.2
"""The shortest turn clock and grace period, with --test-mode only (tests never wait real minutes)."""
DEFAULT_CLOCK = 120.0
"""Two minutes a decision: generous for friends, and a table never stalls for good."""

MAX_SEATS = 8


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot", "bot-account"]
    level: Literal[tuple(LEVELS)] | None = None  # type: ignore[valid-type]
    name: Annotated[StrictStr, Field(min_length=1, max_length=32)] | None = None
    """A ``bot-account`` seat's bot, by username: it is challenged, and a built-in bot takes the seat if it declines
    (docs/web-api.md, "Bots online")."""


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: StrictStr
    options: dict = Field(default_factory=dict)
    players: StrictInt
    teams: StrictBool | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS)]
    cf_timeout: StrictInt | StrictFloat = 6.0
    """Seconds of the coup-fourré window everyone waits after a hazard a human could answer."""
    deck: Annotated[list[StrictStr], Field(max_length=120)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None
    spectators: StrictBool = True
    """Whether a page opened without a seat link may watch the table (docs/web-api.md, "Spectators")."""
    clock: StrictInt | StrictFloat = DEFAULT_CLOCK
    """Seconds a human has for each decision before a stand-in bot plays the seat; 0: no clock."""
    grace: StrictInt | StrictFloat = 60.0
    """Seconds a disconnected human keeps the seat before a stand-in bot plays it."""
    standin: Literal[tuple(LEVELS)] | None = None  # type: ignore[valid-type]
    """The level of the bot that plays for an absent human (one of the levels offered at the table; by default the
    table's default level, which :func:`check_table` fills in)."""
    public: StrictBool = False
    """Whether the lobby lists the table and strangers may take its free seats (docs/web-api.md, "Lobby");
    a table is private, invite-only, unless its creator asks."""
    pace: Pace = "normal"
    """How soon the table's bots move: ``relaxed``, ``normal`` or ``fast`` (:func:`.pacing.bot_delay`)."""
    rated: StrictBool = False
    """Whether the finished match rates its players' accounts (docs/web-api.md, "Ratings"): standard options, no
    stacked deck, bots of measured levels, and no move taken back; otherwise the table is casual."""


SHOWN = 40
"""Characters of a refused value a message repeats: enough to recognise it, never a whole huge body."""
MESSAGE = 300
"""Characters of a refusal's message at most (the engine's own words included)."""


def shown(value: object) -> str:
    """A refused value as a message repeats it, cut to :data:`SHOWN` characters."""
    text = str(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def brief(message: str) -> str:
    return message if len(message) <= MESSAGE else message[: MESSAGE - 1] + "…"


def table_words(ruleset: str, players: int, teams: bool) -> str:
    """'classic, 4 players in teams', as a refusal names a table."""
    return f"{ruleset}, {players} players{' in teams' if teams else ''}"


def check_table(body: CreateTable, settings: Settings) -> tuple[Game, int]:
    """The match the body describes and its seed, or :class:`Unprocessable`; a body without a stand-in level gets
    the table's default one."""
    if not settings.test_mode:
        for name in ("deck", "seed"):
            if getattr(body, name) is not None:
                raise Unprocessable(name, "a stacked deck or a chosen seed needs the server's --test-mode")
    if body.ruleset not in RULESETS:
        raise Unprocessable("ruleset", f"no edition {shown(body.ruleset)!r}; editions are: {', '.join(RULESETS)}")
    try:
        rules = get_ruleset(body.ruleset, **body.options)
    except (ValueError, TypeError) as exc:
        raise Unprocessable("options", str(exc)) from None
    seed = body.seed if body.seed is not None else secrets.randbelow(2**63)
    try:
        game = new_game(rules, players=body.players, teams=body.teams, seed=seed)
    except ValueError as exc:
        raise Unprocessable("players", str(exc)) from None
    if body.deck is not None:
        try:
            new_game(rules, players=body.players, teams=body.teams, seed=seed, deck=body.deck)
        except (ValueError, IllegalAction) as exc:
            raise Unprocessable("deck", str(exc)) from None
    if len(body.seats) != body.players:
        raise Unprocessable("seats", f"one seat per player: {body.players} seats, not {len(body.seats)}")
    if not any(s.kind == "human" for s in body.seats):
        raise Unprocessable("seats", "at least one seat is a human's")
    table = (body.ruleset, game.players, game.teams)
    offered = offered_levels(*table)
    where = f" at this table ({table_words(*table)})"
    for i, s in enumerate(body.seats):
        if s.kind != "bot" and s.level is not None:
            raise Unprocessable("seats", f"seat {i} is a {'human' if s.kind == 'human' else 'bot account'}'s: no level")
        if (s.kind == "bot-account") != (s.name is not None):
            raise Unprocessable("seats", f"seat {i}: a name is given for a bot account's seat, and only for it")
        if s.level is not None and s.level not in offered:
            raise Unprocessable(
                "level",
                f"seat {i}: the level {shown(s.level)!r} is not offered{where}; levels are: {', '.join(offered)}",
            )
    if body.standin is None:
        body.standin = default_level(*table)
    if body.standin not in offered:
        raise Unprocessable(
            "standin", f"the level {shown(body.standin)!r} is not offered{where}; levels are: {', '.join(offered)}"
        )
    # a test may want a short window; a real table gets at least cf_timeout_min, so a coup fourré is humanly possible
    low = TEST_CF_TIMEOUT if settings.test_mode else settings.limits.cf_timeout_min
    if not low <= body.cf_timeout <= settings.limits.cf_timeout_max:  # (NaN fails both)
        raise Unprocessable("cf_timeout", f"a number of seconds from {low:g} to {settings.limits.cf_timeout_max:g}")
    limits = settings.limits
    for name, least, most, none in (
        ("clock", limits.clock_min, limits.clock_max, " (0: no clock)"),
        ("grace", limits.grace_min, limits.grace_max, ""),
    ):
        value, least = getattr(body, name), TEST_SECONDS if settings.test_mode else least
        if not (least <= value <= most or (none and value == 0)):
            raise Unprocessable(name, f"a number of seconds from {least:g} to {most:g}{none}")
    if body.rated:
        check_rated(body, default_level(*table))
    return game, seed


def check_rated(body: CreateTable, default: str) -> None:
    """A rated table plays the edition as it comes, against bots whose strength was measured (their anchored
    ratings), so that its ratings compare with every other table's of the family."""
    from ..ratings.skill import bot_anchors, family_of

    if get_ruleset(body.ruleset, **body.options) != get_ruleset(body.ruleset):
        raise Unprocessable("rated", "a rated table plays the edition's standard options: leave options out")
    if body.deck is not None:
        raise Unprocessable("rated", "a rated table is dealt at random: no stacked deck")
    anchored = bot_anchors(family_of(body.ruleset))
    for i, s in enumerate(body.seats):
        if s.kind == "bot" and (s.level or default) not in anchored:
            raise Unprocessable(
                "rated", f"seat {i}: a rated table's bots are of measured levels ({', '.join(anchored)})"
            )
