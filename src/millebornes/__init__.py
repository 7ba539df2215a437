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
import sys as _sys
import warnings as _warnings

from .actions import ACTION_CODES, ACTION_NAMES, IllegalAction, action_code
from .cards import CARD_IDS, card_name
from .determinize import Determinizer, determinize
from .events import Event
from .notation import RECORD_FORMAT, Record, replay
from .observation import Observation
from .rules import RULESETS, Ruleset, Scoring, ruleset
from .state import Game, new_game

__version__ = "1.1.0.dev0"
"""The package's version (semantic: a 1.x engine reads every 1.x record). Between releases main names the next one
with ``.dev0``; tools/release.py cuts a release and checks its tag."""


def compiled() -> bool:
    """Whether the engine runs compiled (mypyc, see setup.py) rather than as pure Python."""
    from . import state

    return state.__file__.endswith(tuple(_machinery.EXTENSION_SUFFIXES))


class PureEngineWarning(UserWarning):
    """Warned once, on import, when the engine runs as pure Python (:func:`compiled` is false) and nobody asked for
    it: the same games, only slower. Not warned under ``MILLEBORNES_PURE=1``; silence it like any warning,
    ``warnings.simplefilter("ignore", millebornes.PureEngineWarning)``."""


def _pure_advice() -> str:
    """How to get the compiled engine, said by the warning and by ``millebornes --version``."""
    here = _os.path.dirname(__file__)
    if _os.path.exists(_os.path.join(_os.path.dirname(_os.path.dirname(here)), "setup.py")):
        return "in this checkout, run `make build` (it needs a C compiler)"
    return (
        "install a wheel made for your platform, or build from source with a C compiler: "
        "pip install --force-reinstall --no-deps --no-cache-dir --no-binary millebornes millebornes"
    )


def _importer() -> tuple[str, int]:
    """Where millebornes was imported from: the first frame outside the package, the import machinery and the
    warnings module (which imports a category named by ``-W``), so the warning names the user's line."""
    frame = _sys._getframe(1)
    while frame.f_back is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.partition(".")[0] not in ("millebornes", "importlib", "_frozen_importlib", "warnings"):
            break
        frame = frame.f_back
    return frame.f_code.co_filename, frame.f_lineno


def _warn_if_pure() -> None:
    """Run once per process (the package's import): a pure engine nobody chose is worth one line, not one per game."""
    if compiled() or _os.environ.get("MILLEBORNES_PURE", "0") not in ("", "0"):
        return
    filename, lineno = _importer()
    _warnings.warn_explicit(
        "millebornes runs its pure Python engine, slower than the compiled one; for the compiled engine, "
        f"{_pure_advice()}. MILLEBORNES_PURE=1 chooses pure Python without this warning.",
        PureEngineWarning,
        filename,
        lineno,
    )


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
_warn_if_pure()

__all__ = [
    "ACTION_CODES",
    "ACTION_NAMES",
    "CARD_IDS",
    "Determinizer",
    "Event",
    "Game",
    "IllegalAction",
    "Observation",
    "PureEngineWarning",
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
