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
from .notation import RECORD_FORMAT, replay
from .rules import RULESETS, Ruleset, Scoring, ruleset
from .state import Game, new_game

__version__ = "0.1.0"

COMPILED_MODULES = ("cards", "actions", "observe", "state", "determinize", "bots.rollout")


def compiled() -> bool:
    """Whether the engine runs compiled (mypyc, see setup.py) rather than as pure Python."""
    from . import state
    return state.__file__.endswith(tuple(_machinery.EXTENSION_SUFFIXES))


def _warn_if_stale() -> None:
    """An extension module is imported before its source: after editing one, rebuild (make build)."""
    here = _os.path.dirname(__file__)
    for name in COMPILED_MODULES:
        base = _os.path.join(here, *name.split("."))
        for suffix in _machinery.EXTENSION_SUFFIXES:
            ext = base + suffix
            if _os.path.exists(ext) and _os.path.getmtime(ext) < _os.path.getmtime(base + ".py"):
                _warnings.warn(f"millebornes: {name}.py is newer than its compiled module: run `make build`",
                               stacklevel=2)
                return


_warn_if_stale()

__all__ = [
    "ACTION_CODES", "ACTION_NAMES", "CARD_IDS", "Determinizer", "Game", "IllegalAction", "RECORD_FORMAT", "RULESETS",
    "Ruleset", "Scoring", "action_code", "card_name", "compiled", "determinize", "new_game", "replay", "ruleset",
]
