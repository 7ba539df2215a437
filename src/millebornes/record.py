"""The shape of a record, as a TypedDict: a game as JSON, what ``Game.record()`` gives and
:func:`millebornes.replay` plays back (docs/record.schema.json).

:mod:`millebornes.state` makes records and :mod:`millebornes.notation` reads them; the type lives here because
state.py is compiled (setup.py), and a compiled TypedDict does not keep the types of its values for a program that
reads them at run time.
"""

# no `from __future__ import annotations`, like observation.py: the annotations stay plain objects
from typing import TypedDict

from .rules import RuleOptions


class Record(TypedDict):
    """A game as JSON-ready data: everything :func:`millebornes.replay` needs to play it again, checking every
    action (the web app's public archive adds its ``table``)."""

    format: str
    """The record's format and version, ``millebornes-record/1`` (:data:`millebornes.RECORD_FORMAT`)."""
    ruleset: str
    """The edition's name (a key of :data:`millebornes.RULESETS`)."""
    options: RuleOptions
    """Every rule option as played: ``ruleset(name, **options)`` rebuilds the rules."""
    players: int
    """The number of seats."""
    teams: bool
    """Whether partners play as teams."""
    seed: int
    """The seed of every shuffle of the match."""
    deck: list[str] | None
    """The stacked deck of the first hand (card ids, top first), or None for a shuffled one."""
    actions: list[str]
    """Every action taken, in notation and in order."""
