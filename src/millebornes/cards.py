"""The 19 card kinds of Mille Bornes, their groups and how they answer each other.

Inside the engine a card is a small integer (its *kind*); the card id string (``"75"``,
``"flat-tire"``...) is the public face.  Cards of one kind are interchangeable, so hands and
piles hold kinds, never individual card objects.

>>> CARD_IDS[FLAT_TIRE], REMEDY_OF[FLAT_TIRE] == SPARE_TIRE, SAFETY_OF[FLAT_TIRE] == PUNCTURE_PROOF
('flat-tire', True, True)
"""

from __future__ import annotations

from typing import Any, Final

D25: Final = 0
D50: Final = 1
D75: Final = 2
D100: Final = 3
D200: Final = 4
STOP: Final = 5
SPEED_LIMIT: Final = 6
OUT_OF_GAS: Final = 7
FLAT_TIRE: Final = 8
ACCIDENT: Final = 9
ROLL: Final = 10
END_OF_LIMIT: Final = 11
GASOLINE: Final = 12
SPARE_TIRE: Final = 13
REPAIRS: Final = 14
RIGHT_OF_WAY: Final = 15
EXTRA_TANK: Final = 16
PUNCTURE_PROOF: Final = 17
DRIVING_ACE: Final = 18
NUM_KINDS: Final = 19

CARD_IDS: Final[tuple[str, ...]] = (
    "25",
    "50",
    "75",
    "100",
    "200",
    "stop",
    "speed-limit",
    "out-of-gas",
    "flat-tire",
    "accident",
    "roll",
    "end-of-limit",
    "gasoline",
    "spare-tire",
    "repairs",
    "right-of-way",
    "extra-tank",
    "puncture-proof",
    "driving-ace",
)
KIND_OF: Final[dict[str, int]] = {card: kind for kind, card in enumerate(CARD_IDS)}

NAMES_EN: Final[tuple[str, ...]] = (
    "25 miles",
    "50 miles",
    "75 miles",
    "100 miles",
    "200 miles",
    "Stop",
    "Speed Limit",
    "Out of Gas",
    "Flat Tire",
    "Accident",
    "Roll",
    "End of Limit",
    "Gasoline",
    "Spare Tire",
    "Repairs",
    "Right of Way",
    "Extra Tank",
    "Puncture-Proof",
    "Driving Ace",
)
NAMES_FR: Final[tuple[str, ...]] = (
    "25 bornes",
    "50 bornes",
    "75 bornes",
    "100 bornes",
    "200 bornes",
    "Feu rouge",
    "Limitation de vitesse",
    "Panne d'essence",
    "Crevaison",
    "Accident",
    "Feu vert",
    "Fin de limitation",
    "Essence",
    "Roue de secours",
    "Réparations",
    "Véhicule prioritaire",
    "Citerne d'essence",
    "Increvable",
    "As du volant",
)

DISTANCE, HAZARD, REMEDY, SAFETY = "distance", "hazard", "remedy", "safety"
GROUP: Final[tuple[str, ...]] = (DISTANCE,) * 5 + (HAZARD,) * 5 + (REMEDY,) * 5 + (SAFETY,) * 4

VALUE: Final[tuple[int, ...]] = (25, 50, 75, 100, 200) + (0,) * 14
DISTANCES: Final = (D25, D50, D75, D100, D200)
HAZARDS: Final = (STOP, SPEED_LIMIT, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
BATTLE_HAZARDS: Final = (STOP, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
REMEDIES: Final = (ROLL, END_OF_LIMIT, GASOLINE, SPARE_TIRE, REPAIRS)
SAFETIES: Final = (RIGHT_OF_WAY, EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE)

REMEDY_OF: Final[dict[int, int]] = dict(zip(HAZARDS, REMEDIES))
HAZARD_OF: Final[dict[int, int]] = dict(zip(REMEDIES, HAZARDS))
SAFETY_OF: Final[dict[int, int]] = {
    STOP: RIGHT_OF_WAY,
    SPEED_LIMIT: RIGHT_OF_WAY,
    OUT_OF_GAS: EXTRA_TANK,
    FLAT_TIRE: PUNCTURE_PROOF,
    ACCIDENT: DRIVING_ACE,
}
PROTECTS: Final[dict[int, tuple[int, ...]]] = {
    RIGHT_OF_WAY: (STOP, SPEED_LIMIT),
    EXTRA_TANK: (OUT_OF_GAS,),
    PUNCTURE_PROOF: (FLAT_TIRE,),
    DRIVING_ACE: (ACCIDENT,),
}

# The 106 cards, the same in every edition (RULES.md section 1).
DECK_COUNTS: Final[tuple[int, ...]] = (
    10,
    10,
    10,
    12,
    4,
    5,
    4,
    3,
    3,
    3,
    14,
    6,
    6,
    6,
    6,
    1,
    1,
    1,
    1,
)


def bit(kind: int) -> int:
    return 1 << kind


DISTANCE_MASK: Final = sum(bit(k) for k in DISTANCES)
HAZARD_MASK: Final = sum(bit(k) for k in HAZARDS)
BATTLE_HAZARD_MASK: Final = sum(bit(k) for k in BATTLE_HAZARDS)
REMEDY_MASK: Final = sum(bit(k) for k in REMEDIES)
SAFETY_MASK: Final = sum(bit(k) for k in SAFETIES)
# how many safeties a mask of safety bits holds, by mask >> RIGHT_OF_WAY (a table: bin().count is slow compiled)
SAFETY_COUNT: Final = tuple(bin(m).count("1") for m in range(16))


def card_kind(card: Any) -> int:
    """The kind of a card id; ValueError naming the id if there is no such card."""
    try:
        return KIND_OF[card]
    except KeyError:
        raise ValueError(f"no card {card!r}; cards are: {', '.join(CARD_IDS)}") from None


def card_name(card: Any, lang: str = "en") -> str:
    """The printed name of a card in English or French (the names RULES.md gives)."""
    kind = card if isinstance(card, int) else card_kind(card)
    return (NAMES_FR if lang == "fr" else NAMES_EN)[kind]
