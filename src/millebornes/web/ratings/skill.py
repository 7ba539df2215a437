"""Ratings of people and bots, per edition family: pure arithmetic over openskill's Plackett-Luce model (no
database, no web), so that the database only keeps what :class:`Rating` holds and the pages only show what it says.

**The model.** openskill's :class:`~openskill.models.PlackettLuce` with its defaults (mu 25, sigma 25/3,
beta 25/6, tau 25/300): it rates teams and any number of sides natively, and ties.  A rating keeps the model's
``mu`` and ``sigma`` and how many rated matches it took in.

**The display number** is on the Elo scale people know from chess sites: ``display = 1500 + K * (mu - 25)``, so
a fresh player shows :data:`FRESH_DISPLAY`, 1500.  For two single players whose ratings have settled (sigma
small beside beta) the model predicts ``P(win) = Phi(dmu / (sqrt(2) * beta))``; Elo predicts ``1 / (1 +
10^(-D/400)) = L(D * ln 10 / 400)`` with ``L`` the logistic.  Haley's constant ``a = 1.702`` makes ``L(a * z)``
within 0.0095 of ``Phi(z)`` for every z, so equating ``D * ln 10 / 400 = a * dmu / (sqrt(2) * beta)`` gives
``K = 400 * a / (ln 10 * sqrt(2) * beta)``, about 50.18 display points per unit of mu
(:data:`DISPLAY_PER_MU`): a display gap D then means an expected score within 0.01 of Elo's at any gap.
(Matching the slopes at D = 0 instead gives 47.04, exact for tiny gaps but 0.016 off at 400.)  An unsettled
rating's sigma widens the model's spread, so its odds are flatter than its display gap says: one more reason
to mark it provisional.

**Provisional** (:attr:`Rating.provisional`) while sigma is at least :data:`SETTLED_SIGMA`, 5 (about 250 display
points), or fewer than :data:`SETTLED_MATCHES`, 10, rated matches were taken in.  At sigma 5 the matches carry
nearly twice the weight of the starting guess (precision 1/25 against the prior's 1/69); ten matches keep a lucky
run of big tables, where sigma falls fastest, from settling a rating on a handful of evenings.  A person who
alternates wins and losses against the medium bot crosses both near the tenth match.

**Edition families.** A rating is per (person or bot, family), and a family is an edition: a ruleset of
:data:`millebornes.rules.RULESETS` (classic, parker, dujardin, family).  Editions differ in what wins (points
over several hands, or the distance of one race), so skill at one is not skill at another; within an edition a
table of any size, in teams or not, rates in the same family, since it is the same game and splitting by table
would starve each rating of matches.  Rated tables play standard options only, so options split nothing.

**Bots** are anchors (:func:`bot_rating`): the medium bot of every family sits at :data:`MEDIUM_ANCHOR`, 1500,
the display a newcomer starts from, since medium is the level a picker offers first
(:func:`millebornes.bots.ladder.default_level`).  Every other level sits above or below it by the ladder's
measured Elo gaps on the family's two-player line (``bots/ladder.json``; an edition without a line of its own
takes two-player classic's, as the pickers do), with the small fixed sigma :data:`BOT_SIGMA`.  A bot's rating
never moves: a match updates only the people, each computed against the bots' anchored ratings as they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating

from ...bots import LEVELS
from ...bots.ladder import ladder_at
from ...rules import RULESETS

MODEL: Final = PlackettLuce()
"""The rating model, with openskill's defaults (the tests compute with a model of their own and compare)."""

FRESH_DISPLAY: Final = 1500
"""What a player who never played a rated match in the family shows (mu = the model's 25)."""

HALEY: Final = 1.702
"""The scale that makes the logistic closest to the normal distribution (maximum error below 0.0095)."""

DISPLAY_PER_MU: Final = 400 * HALEY / (math.log(10) * math.sqrt(2) * MODEL.beta)
"""Display points per unit of mu, about 50.18: derived from the model's beta in the module's docstring."""

SETTLED_SIGMA: Final = 5.0
"""A rating stays provisional while its sigma is at least this (about 250 display points)."""

SETTLED_MATCHES: Final = 10
"""A rating stays provisional until it has taken in this many rated matches."""

MEDIUM_ANCHOR: Final = FRESH_DISPLAY
"""The display of the medium bot in every family."""

BOT_SIGMA: Final = 1.0
"""The sigma of a bot's anchored rating, about 50 display points: the ladder measures a gap to about that."""

FAMILIES: Final = tuple(RULESETS)
"""The edition families, one per ruleset."""

MAX_SIDES: Final = 6
"""The most sides at a rated table (six players alone, in the family edition)."""

MAX_SEATS: Final = 3
"""The most participants on one side: the game's teams are pairs today; three leaves room for teams of three."""


def display_of(mu: float) -> float:
    """The Elo-scale display of a mu, unrounded."""
    return FRESH_DISPLAY + DISPLAY_PER_MU * (mu - MODEL.mu)


def mu_of(display: float) -> float:
    """The mu whose display is ``display``."""
    return MODEL.mu + (display - FRESH_DISPLAY) / DISPLAY_PER_MU


@dataclass(frozen=True)
class Rating:
    """One participant's rating in one family; ``Rating()`` is a fresh player's.  ``anchored`` marks a bot's
    (:func:`bot_rating`), which matches never move."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0
    anchored: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a finite positive sigma, not {self.mu}, {self.sigma}")
        if self.matches < 0:
            raise ValueError(f"a rating cannot have taken in {self.matches} matches")

    @property
    def display(self) -> int:
        """The number a player reads, on the Elo scale."""
        return round(display_of(self.mu))

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too uncertain to be trusted (never a bot's)."""
        return not self.anchored and (self.sigma >= SETTLED_SIGMA or self.matches < SETTLED_MATCHES)


def family_of(ruleset: str) -> str:
    """The family a table of the edition ``ruleset`` rates in, whatever its size."""
    if ruleset not in RULESETS:
        raise ValueError(f"unknown edition {ruleset!r}: the families are {', '.join(FAMILIES)}")
    return ruleset


def _gap(pair: dict[str, Any]) -> float:
    """A measured pair's Elo gap; a ladder written without ``elo_gap`` (a made-up one) gives it by its rate."""
    gap = pair.get("elo_gap")
    if isinstance(gap, int | float):
        return float(gap)
    rate = min(max(float(pair["rate"]), 0.001), 0.999)
    return 400 * math.log10(rate / (1 - rate))


def bot_anchors(family: str) -> dict[str, int]:
    """The display of every level the family's two-player line reaches from medium through measured pairs (the
    measured gap is the best estimate even where it did not earn the level a place: a rated table only seats the
    levels offered at it, web/tables/creation.py)."""
    ruleset = family_of(family)
    pairs = ladder_at(ruleset, 2, False)[1]["pairs"]
    anchors: dict[str, float] = {"medium": MEDIUM_ANCHOR}
    grew = True
    while grew:
        grew = False
        for pair in pairs:
            upper, lower = pair["level"], pair["below"]
            if lower in anchors and upper not in anchors:
                anchors[upper] = anchors[lower] + _gap(pair)
                grew = True
            elif upper in anchors and lower not in anchors:
                anchors[lower] = anchors[upper] - _gap(pair)
                grew = True
    return {level: round(anchors[level]) for level in LEVELS if level in anchors}


def bot_rating(level: str, family: str) -> Rating:
    """The fixed rating of the bot of ``level`` in ``family``; ValueError for a level not measured there."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: the levels are {', '.join(LEVELS)}")
    anchors = bot_anchors(family)
    if level not in anchors:
        raise ValueError(
            f"the {level} bot has no measured anchor in {family}: the ladder measured {', '.join(anchors)}"
        )
    return Rating(mu=mu_of(anchors[level]), sigma=BOT_SIGMA, anchored=True)


def _order(values: Sequence[float]) -> list[float]:
    """Ranks reduced to their order (ties kept): openskill truncates a fractional rank, so 1.5 would tie 1."""
    ordered = sorted(values)
    return [float(ordered.index(v)) for v in values]


def rate_match(
    sides: Sequence[Sequence[Rating]],
    *,
    scores: Sequence[float] | None = None,
    ranks: Sequence[float] | None = None,
) -> list[list[Rating]]:
    """The ratings after a finished rated match, side by side and seat by seat as given.

    ``sides`` holds each side's participants' current ratings in the match's family (2 to 6 sides of 1 to 3);
    the result is ``scores`` (higher is better) or ``ranks`` (lower is better), one per side, equal for a tie.
    People's ratings move and count the match; anchored ones (bots) come back as they were.
    """
    if not MAX_SIDES >= len(sides) >= 2:
        raise ValueError(f"a rated match has 2 to {MAX_SIDES} sides, not {len(sides)}")
    for number, side in enumerate(sides, 1):
        if not side:
            raise ValueError(f"side {number} has nobody: every side needs at least one participant")
        if len(side) > MAX_SEATS:
            raise ValueError(f"side {number} has {len(side)} participants: at most {MAX_SEATS}")
    if (scores is None) == (ranks is None):
        raise ValueError("give the result as either scores or ranks, not both or neither")
    kind, result = ("scores", scores) if scores is not None else ("ranks", ranks or [])
    if len(result) != len(sides):
        raise ValueError(f"{len(result)} {kind} for {len(sides)} sides: give one per side")
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in result):
        raise ValueError(f"the {kind} must be finite numbers, not {list(result)}")
    teams = [[PlackettLuceRating(r.mu, r.sigma) for r in side] for side in sides]
    if scores is not None:
        rated = MODEL.rate(teams, scores=[float(v) for v in scores])
    else:
        rated = MODEL.rate(teams, ranks=_order(result))
    return [
        [
            old if old.anchored else Rating(mu=new.mu, sigma=new.sigma, matches=old.matches + 1)
            for old, new in zip(side, new_side)
        ]
        for side, new_side in zip(sides, rated)
    ]
