"""millebornes: the open Mille Bornes system.

>>> import millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=7)
>>> g.to_act, g.decision, g.hand(0)
(0, 'play', ['50', '100', '100', '200', 'speed-limit', 'end-of-limit', 'repairs'])
>>> g.legal_actions()[:3]
['play speed-limit 1', 'discard 50', 'discard 100']
>>> g.act("play speed-limit 1")
[{'type': 'play', 'seat': 0, 'card': 'speed-limit', 'side': 1}, {'type': 'draw', 'seat': 1, 'stock': 87}]
>>> g.tableau(1)["speed"], g.to_act
(['speed-limit'], 1)
>>> g.act("play 200")
Traceback (most recent call last):
...
millebornes.actions.IllegalAction: seat 1 has no 200 in hand
"""

import importlib.machinery as _machinery
import os as _os
import warnings as _warnings

from .actions import ACTION_CODES, ACTION_NAMES, IllegalAction, action_code
from .cards import CARD_IDS, card_name
from .determinize import Determinizer, determinize
from .events import Event
from .notation import RECORD_FORMAT, Record, replay
from .observation import Observation
from .rules import RULESETS, Ruleset, Scoring, ruleset
from .state import Game, new_game

__version__ = "1.0.0"
"""The package's version (semantic: a 1.x engine reads every 1.x record)."""


def compiled() -> bool:
    """Whether the engine runs compiled (mypyc, see setup.py) rather than as pure Python."""
    from . import state

    return state.__file__.endswith(tuple(_machinery.EXTENSION_SUFFIXES))


def _compiled_sources() -> list[str]:
    """The sources built as extension modules (setup.py's list): those with one beside them."""
    out = []
    for folder, _, files in _os.walk(_os.path.dirname(__file__)):
        for name in files:
            for suffix in _machinery.EXTENSION_SUFFIXES:
                if name.endswith(suffix):
                    out.append(_os.path.join(folder, name[: -len(suffix)] + ".py"))
                    break
    return sorted(out)


def _warn_if_stale() -> None:
    """An extension module is imported before its source: after editing one, rebuild (make build).
    The compiled code itself lives in one shared library beside the package (``millebornes_core``). Only a
    checkout (src/ under setup.py) is edited: an installed wheel's files take the install's times, in any order."""
    here = _os.path.dirname(__file__)
    if not _os.path.exists(_os.path.join(_os.path.dirname(_os.path.dirname(here)), "setup.py")):
        return
    core = [
        _os.path.join(_os.path.dirname(here), "millebornes_core__mypyc" + suffix)
        for suffix in _machinery.EXTENSION_SUFFIXES
    ]
    built = max((_os.path.getmtime(path) for path in core if _os.path.exists(path)), default=None)
    if built is None:
        return
    for source in _compiled_sources():
        if _os.path.getmtime(source) > built:
            _warnings.warn(
                f"millebornes: {_os.path.relpath(source, here)} is newer than the compiled engine: run `make build`",
                stacklevel=2,
            )
            return


_warn_if_stale()

__all__ = [
    "ACTION_CODES",
    "ACTION_NAMES",
    "CARD_IDS",
    "Determinizer",
    "Event",
    "Game",
    "IllegalAction",
    "Observation",
    "RECORD_FORMAT",
    "RULESETS",
    "Record",
    "Ruleset",
    "Scoring",
    "action_code",
    "card_name",
    "compiled",
    "determinize",
    "new_game",
    "replay",
    "ruleset",
]
