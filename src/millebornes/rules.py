"""Editions as data: every rule option of docs/rules.md is a typed field of :class:`Ruleset`.

The state machine reads these fields; it never asks which edition it is playing.  A preset is a
plain value, and ``ruleset("classic", extension=False)`` is the same preset with one option
switched.

>>> ruleset("classic", extension=False).extension
False
>>> ruleset("classic", stacking=True)
Traceback (most recent call last):
...
ValueError: unknown rule option 'stacking'; options are: ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypedDict, cast

from .cards import DECK_COUNTS, DISTANCES, HAZARDS, VALUE

HAZARD_TARGETS = ("stacking", "moving")
"""Where battle hazards may go: on any started battle pile (hazards stack), or only on a moving car."""
COUP_FOURRE_RIGHTS = ("any-opponent", "attacked-side")
"""Who may call coup fourré: any seat not on the attacker's side, or only the attacked side."""
EXHAUSTIONS = ("play-out", "end-of-turn")
"""When the stock runs out: play the hands out, or end the hand with that turn."""
WINNER_RULES = ("points", "distance")
"""How a hand is won: by the most points, or by exactly the target (else the greatest distance)."""

# The bounds of what an edition could mean, so a record, a table or a score always stays small.
MAX_TARGET = sum(VALUE[k] * DECK_COUNTS[k] for k in DISTANCES)
"""The longest trip an edition may set: all the distance in the deck, 3,500 miles."""
MAX_MATCH_TARGET = 100_000
"""The most points a match may be played to."""
MAX_POINTS = 10_000
"""The most any one scoring item may be worth."""
MAX_MILE = 10
"""The most points a mile may be worth."""
PLAYER_COUNTS = range(2, 9)
"""The table sizes any edition may allow."""


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _short(v: object) -> str:
    """A refused value as the message shows it: a huge one is described, not echoed (nor even written out)."""
    if isinstance(v, (tuple, list, dict, str)) and len(v) > 12:
        return f"a {'text' if isinstance(v, str) else 'list'} of {len(v):,} items"
    if isinstance(v, int) and _whole(v) and abs(v).bit_length() > 64:
        return f"a number of about {int(abs(v).bit_length() * 0.30103) + 1:,} digits"
    return repr(v)


class ScoringTable(TypedDict):
    """A :class:`Scoring` as JSON-ready data (``Scoring(**table)`` rebuilds it)."""

    mile: int
    """Points per mile travelled."""
    safety: int
    """Points per safety on the tableau."""
    all_safeties: int
    """The bonus for all four safeties."""
    coup_fourre: int
    """Points per coup fourré (on top of the safety's own)."""
    trip: int
    """The bonus for completing the trip."""
    delayed_action: int
    """The bonus for completing the trip after the stock ran out."""
    safe_trip: int
    """The bonus for a trip completed without a 200."""
    safe_trip_to_any_winner: bool
    """Whether the no-200 bonus goes to any winner of the hand, not only the side that completed."""
    extension: int
    """The bonus tied to the extension: to the extender who completes, else to each other side."""
    shutout: int
    """The bonus per opponent side that travelled no distance, to the side that completed."""
    hand_penalty: bool
    """Whether distance cards left in hand count against their side."""


class RuleOptions(TypedDict):
    """Every rule option of a :class:`Ruleset` as JSON-ready data (``ruleset(name, **options)`` rebuilds
    it): what records and observations carry so that a game can be played again anywhere."""

    solo_players: list[int]
    """Player counts played alone."""
    team_players: list[int]
    """Player counts played in teams of two."""
    teams_by_default: list[int]
    """Player counts played in teams unless asked otherwise."""
    small_game_deck: bool
    """Whether with 2 or 3 players one of each hazard is taken out."""
    target: int
    """The full length of the trip: distance must reach it exactly."""
    extension: bool
    """Whether a hand may be a race to the short target, which the first side there may extend."""
    extension_target: int
    """The short target."""
    extension_players: list[int]
    """Player counts that race to the short target."""
    top_discard_pickup: bool
    """Whether the top discard may be taken instead of drawing."""
    hazard_target: str
    """Where battle hazards may go: ``stacking`` (any started pile) or ``moving`` (a moving car)."""
    roll_after_remedy: bool
    """Whether a Roll is needed after Gasoline, Spare Tire or Repairs."""
    coup_fourre: str
    """Who may call coup fourré: ``any-opponent`` or ``attacked-side``."""
    safety_extra_turn: bool
    """Whether a safety played normally gives an extra turn."""
    exhaustion: str
    """What an empty stock means: ``play-out`` the hands, or ``end-of-turn``."""
    winner: str
    """How a hand is won: the most ``points``, or ``distance`` (exactly the target, else the farthest)."""
    match_target: int | None
    """The points that end a match of several hands; None: one race is the match."""
    scoring: ScoringTable
    """The points each item of a hand is worth."""


@dataclass(frozen=True)
class Scoring:
    """Points per side at the end of a hand; zero switches an item off."""

    mile: int = 1
    """Points per mile travelled."""
    safety: int = 0
    """Points per safety on the tableau."""
    all_safeties: int = 0
    """Bonus for all four safeties."""
    coup_fourre: int = 0
    """Points per coup fourré (on top of the safety's own)."""
    trip: int = 0
    """Bonus for completing the trip."""
    delayed_action: int = 0
    """Bonus for completing the trip after the stock ran out."""
    safe_trip: int = 0
    """Bonus for a trip completed without a 200."""
    safe_trip_to_any_winner: bool = False
    """Whether the no-200 bonus goes to any winner of the hand, not only the side that completed."""
    extension: int = 0
    """Bonus tied to the extension: to the extender who completes, else to each other side."""
    shutout: int = 0
    """Bonus per opponent side that travelled no distance, to the side that completed."""
    hand_penalty: bool = False
    """Whether distance cards left in hand count against their side."""

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("hand_penalty", "safe_trip_to_any_winner"):
                ok, kind = isinstance(v, bool), "true or false"
            else:
                top = MAX_MILE if f.name == "mile" else MAX_POINTS
                ok, kind = _whole(v) and 0 <= v <= top, f"a whole number of points from 0 to {top:,}"
            if not ok:
                raise ValueError(f"bad value for rule option 'scoring': {f.name} must be {kind}, not {_short(v)}")

    def as_dict(self) -> ScoringTable:
        """The table as JSON-ready data, as records and observations carry it."""
        return cast(ScoringTable, dataclasses.asdict(self))


CLASSIC_SCORING = Scoring(
    mile=1,
    safety=100,
    all_safeties=300,
    coup_fourre=300,
    trip=400,
    delayed_action=300,
    safe_trip=300,
    extension=200,
    shutout=500,
)
"""The classic US table: 1 a mile, 100 a safety, 300 a coup fourré, 400 the trip and the bonuses."""
FAMILY_SCORING = Scoring(
    mile=1, safety=100, coup_fourre=300, trip=400, safe_trip=200, safe_trip_to_any_winner=True, hand_penalty=True
)
"""The French family count: fewer bonuses, and distance cards left in hand count against their side."""
DISTANCE_SCORING = Scoring(mile=1)
"""Only the miles count (the Dujardin race)."""
SCORINGS = {"classic": CLASSIC_SCORING, "family": FAMILY_SCORING, "distance": DISTANCE_SCORING}
"""The scoring tables by the name an option may give instead of a table."""


@dataclass(frozen=True)
class Ruleset:
    """One edition's rules.  Field docs are the words ``millebornes rules`` prints."""

    name: str
    """The edition's name, as records and observations give it."""
    title: str = ""
    """A line on where the edition's rules come from and how they differ."""
    solo_players: tuple[int, ...] = (2, 3)
    """Player counts played alone."""
    team_players: tuple[int, ...] = (4, 6)
    """Player counts played in teams of two."""
    teams_by_default: tuple[int, ...] = (4, 6)
    """Player counts played in teams unless asked otherwise."""
    small_game_deck: bool = True
    """Whether with 2 or 3 players one of each hazard is taken out."""
    target: int = 1000
    """The full length of the trip: distance must reach it exactly."""
    extension: bool = True
    """Whether a hand may be a race to the short target, which the first side there may extend."""
    extension_target: int = 700
    """The short target."""
    extension_players: tuple[int, ...] = (2, 3, 6)
    """Player counts that race to the short target."""
    top_discard_pickup: bool = True
    """Whether the top discard may be taken instead of drawing."""
    hazard_target: str = "stacking"
    """Where battle hazards may go: ``stacking`` (any started pile) or ``moving`` (a moving car)."""
    roll_after_remedy: bool = True
    """Whether a Roll is needed after Gasoline, Spare Tire or Repairs."""
    coup_fourre: str = "any-opponent"
    """Who may call coup fourré: ``any-opponent`` or ``attacked-side``."""
    safety_extra_turn: bool = True
    """Whether a safety played normally gives an extra turn."""
    exhaustion: str = "play-out"
    """What an empty stock means: ``play-out`` the hands, or ``end-of-turn``."""
    winner: str = "points"
    """How a hand is won: the most ``points``, or ``distance`` (exactly the target, else the farthest)."""
    match_target: int | None = 5000
    """Points that end a match of several hands; None: one race is the match."""
    scoring: Scoring = field(default_factory=lambda: CLASSIC_SCORING)
    """The scoring table."""

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived facts -------------------------------------------------------------------
    def allows(self, players: int, teams: bool) -> bool:
        """Whether the edition is played by this many players, in teams or alone."""
        return players in (self.team_players if teams else self.solo_players)

    def default_teams(self, players: int) -> bool:
        """Whether this many players sit in teams when nobody says."""
        if players in self.teams_by_default and players in self.team_players:
            return True
        return players not in self.solo_players and players in self.team_players

    def first_target(self, players: int) -> int:
        """The target a hand starts with: the short one when an extension can be called."""
        return self.extension_target if self.has_extension(players) else self.target

    def has_extension(self, players: int) -> bool:
        """Whether hands at this table are a race to the short target that may be extended."""
        return self.extension and players in self.extension_players

    def deck_counts(self, players: int) -> tuple[int, ...]:
        """How many cards of each kind are dealt from at this table (a small game drops some hazards)."""
        counts = list(DECK_COUNTS)
        if self.small_game_deck and players <= 3:
            for hazard in HAZARDS:
                counts[hazard] -= 1
        return tuple(counts)

    def deck_size(self, players: int) -> int:
        """How many cards the deck holds at this table."""
        return sum(self.deck_counts(players))

    def options(self) -> RuleOptions:
        """Every option as JSON-ready data; ``ruleset(name, **options)`` rebuilds it."""
        out: dict[str, object] = {}
        for f in fields(self):
            if f.name in ("name", "title"):
                continue
            value = getattr(self, f.name)
            out[f.name] = (
                value.as_dict() if isinstance(value, Scoring) else (list(value) if isinstance(value, tuple) else value)
            )
        return cast(RuleOptions, out)

    def describe(self) -> list[tuple[str, str]]:
        """(option, sentence) pairs saying what each option means in this edition."""
        return [(name, text(self)) for name, text in _WORDS.items()]


def _validate(r: Ruleset) -> None:
    def want(cond: bool, option: str, msg: str) -> None:
        if not cond:
            raise ValueError(f"bad value for rule option {option!r}: {msg}, not {_short(getattr(r, option))}")

    for name in ("small_game_deck", "extension", "top_discard_pickup", "roll_after_remedy", "safety_extra_turn"):
        want(isinstance(getattr(r, name), bool), name, "must be true or false")
    for name in ("target", "extension_target"):
        v = getattr(r, name)
        want(
            _whole(v) and 0 < v <= MAX_TARGET and v % 25 == 0,
            name,
            f"must be a multiple of 25 from 25 to {MAX_TARGET:,} (all the distance in the deck)",
        )
    want(r.extension_target <= r.target, "extension_target", "must not exceed target")
    want(r.hazard_target in HAZARD_TARGETS, "hazard_target", f"one of {HAZARD_TARGETS}")
    want(r.coup_fourre in COUP_FOURRE_RIGHTS, "coup_fourre", f"one of {COUP_FOURRE_RIGHTS}")
    want(r.exhaustion in EXHAUSTIONS, "exhaustion", f"one of {EXHAUSTIONS}")
    want(r.winner in WINNER_RULES, "winner", f"one of {WINNER_RULES}")
    mt = r.match_target
    want(
        mt is None or (_whole(mt) and 0 < mt <= MAX_MATCH_TARGET),
        "match_target",
        f"a number of points from 1 to {MAX_MATCH_TARGET:,}, or null for one race",
    )
    want(isinstance(r.scoring, Scoring), "scoring", "a Scoring")
    for name in ("solo_players", "team_players", "teams_by_default", "extension_players"):
        v = getattr(r, name)
        want(
            isinstance(v, tuple) and all(_whole(n) and n in PLAYER_COUNTS for n in v) and len(set(v)) == len(v),
            name,
            "a list of distinct player counts from 2 to 8",
        )
    want(all(n % 2 == 0 and n >= 4 for n in r.team_players), "team_players", "teams are pairs: 4, 6 or 8 players")


def _coerce(name: str, value: object) -> object:
    if name == "scoring":
        if isinstance(value, str):
            if value not in SCORINGS:
                raise ValueError(f"bad value for rule option 'scoring': one of {tuple(SCORINGS)}")
            return SCORINGS[value]
        if isinstance(value, dict):
            try:
                return Scoring(**value)
            except TypeError as exc:
                raise ValueError(f"bad value for rule option 'scoring': {exc}") from None
        return value
    if isinstance(value, list):
        return tuple(value)
    return value


_OPTION_NAMES = tuple(f.name for f in fields(Ruleset) if f.name not in ("name", "title"))


def ruleset(name: str | Ruleset, /, **options: Any) -> Ruleset:
    """A preset by name (or a Ruleset) with some options changed; ValueError names a bad one."""
    if isinstance(name, Ruleset):
        base = name
    else:
        try:
            base = RULESETS[name]
        except KeyError:
            raise ValueError(f"no ruleset {name!r}; rulesets are: {', '.join(RULESETS)}") from None
    if not options:
        return base
    for key in options:
        if key not in _OPTION_NAMES:
            raise ValueError(f"unknown rule option {key!r}; options are: {', '.join(_OPTION_NAMES)}")
    changes: dict[str, Any] = {k: _coerce(k, v) for k, v in options.items()}  # checked by Ruleset itself
    return dataclasses.replace(base, **changes)


def _yes(flag: bool, yes: str, no: str) -> str:
    return yes if flag else no


_WORDS: dict[str, Callable[[Ruleset], str]] = {
    "players": lambda r: (
        f"{', '.join(map(str, r.solo_players))} players alone"
        + (f"; {', '.join(map(str, r.team_players))} players in teams of two" if r.team_players else "")
        + (f" (teams by default with {', '.join(map(str, r.teams_by_default))})" if r.teams_by_default else "")
    ),
    "small_game_deck": lambda r: _yes(
        r.small_game_deck,
        "with 2 or 3 players one of each hazard is removed (101 cards)",
        "all 106 cards are always used",
    ),
    "target": lambda r: f"a hand is a race to exactly {r.target}; distance may never pass the target",
    "extension": lambda r: _yes(
        r.extension,
        f"with {', '.join(map(str, r.extension_players))} players the race is to {r.extension_target}; "
        f"the first side there ends the hand or extends it to {r.target}",
        "no extension: the target is fixed",
    ),
    "top_discard_pickup": lambda r: _yes(
        r.top_discard_pickup,
        "instead of drawing, a player may take the card discarded on the turn just before "
        "(not when the stock is empty, not by two players in a row)",
        "the discard pile is dead: only the stock is drawn from",
    ),
    "hazard_target": lambda r: (
        "battle hazards go on any non-empty battle pile, a hazard too (stacking; only the top one needs "
        "curing); with Right of Way also on an empty pile"
        if r.hazard_target == "stacking"
        else "battle hazards only hit a moving side (no hazard on a hazard)"
    ),
    "roll_after_remedy": lambda r: _yes(
        r.roll_after_remedy,
        "after Gasoline, Spare Tire or Repairs a Roll is needed (not with Right of Way)",
        "a remedy alone sets the car moving again; a Roll is needed only to start the first time",
    ),
    "coup_fourre": lambda r: (
        "any player not on the attacker's side holding the safety may call coup fourré"
        if r.coup_fourre == "any-opponent"
        else "only the attacked side (either partner) may call coup fourré"
    ),
    "safety_extra_turn": lambda r: _yes(
        r.safety_extra_turn, "a safety played normally gives an extra turn", "a safety ends the turn"
    ),
    "exhaustion": lambda r: (
        "when the stock is empty play goes on without drawing; empty hands are skipped; the hand ends "
        "when every hand is empty"
        if r.exhaustion == "play-out"
        else "the hand ends when the turn that drew the last card is over"
    ),
    "winner": lambda r: (
        "the side with the most points wins a hand"
        if r.winner == "points"
        else "exactly the target wins; otherwise the greatest distance; a tie is shared"
    ),
    "match_target": lambda r: (
        f"hands are played until a side has {r.match_target} points; the highest total wins"
        if r.match_target
        else "one race is the whole match"
    ),
    "scoring": lambda r: (
        ", ".join(
            f"{k.replace('_', ' ')} {v}"
            for k, v in r.scoring.as_dict().items()
            if v and k not in ("hand_penalty", "safe_trip_to_any_winner")
        )
        + (" (the no-200 bonus to any winner of the hand)" if r.scoring.safe_trip_to_any_winner else "")
        + ("; minus distance cards left in hand" if r.scoring.hand_penalty else "")
    ),
}


CLASSIC = Ruleset(
    name="classic",
    title="The US/Parker game as the encyclopedia text (seed 000) plays it: hazards stack, "
    "the top discard may be taken, anyone but the attacker's side may coup fourré",
)
"""The classic edition, the default: its title says how it plays."""
PARKER = dataclasses.replace(
    CLASSIC,
    name="parker",
    title="The classic game as the printed Parker Brothers / Winning Moves rules play it: "
    "no hazard on a hazard, no taking the discard, coup fourré only by the attacked side",
    top_discard_pickup=False,
    hazard_target="moving",
    coup_fourre="attacked-side",
)
"""The printed Parker Brothers rules: classic without stacked hazards or taking the discard."""
DUJARDIN = Ruleset(
    name="dujardin",
    title="The French Dujardin 1954-2014 leaflet: a race to exactly 1000, only distance counts, "
    "a remedy alone restarts the car",
    solo_players=(2, 3, 4),
    team_players=(4, 6, 8),
    teams_by_default=(6, 8),
    small_game_deck=False,
    extension=False,
    top_discard_pickup=False,
    hazard_target="moving",
    roll_after_remedy=False,
    coup_fourre="attacked-side",
    exhaustion="end-of-turn",
    winner="distance",
    match_target=None,
    scoring=DISTANCE_SCORING,
)
"""The French Dujardin leaflet: one race to exactly 1000, won on distance."""
FAMILY = dataclasses.replace(
    DUJARDIN,
    name="family",
    title="The popular French family rules: a race to exactly 1000 with a simple points count, "
    "a Roll after every repair",
    solo_players=(2, 3, 4, 5, 6),
    team_players=(),
    teams_by_default=(),
    roll_after_remedy=True,
    scoring=FAMILY_SCORING,
)
"""The French family rules: Dujardin's race with a simple points count, up to six alone."""

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CLASSIC, PARKER, DUJARDIN, FAMILY)}
"""The four editions by name: classic, parker, dujardin, family."""
