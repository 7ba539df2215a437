"""millebornes: the open Mille Bornes system.

>>> import millebornes as mb
>>> g = mb.new_game("classic", players=2, seed=7)
>>> g.legal_actions()[:2]
['play roll', 'play right-of-way']
"""

from .actions import ACTION_CODES, ACTION_NAMES, IllegalAction, action_code
from .cards import CARD_IDS, card_name
from .notation import RECORD_FORMAT, replay
from .rules import RULESETS, Ruleset, Scoring, ruleset
from .state import Game, new_game

__version__ = "0.1.0"

__all__ = [
    "ACTION_CODES", "ACTION_NAMES", "CARD_IDS", "Game", "IllegalAction", "RECORD_FORMAT", "RULESETS",
    "Ruleset", "Scoring", "action_code", "card_name", "new_game", "replay", "ruleset",
]
