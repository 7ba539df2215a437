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
"""The kind of 25 miles, a distance card."""
D50: Final = 1
"""The kind of 50 miles, a distance card."""
D75: Final = 2
"""The kind of 75 miles, a distance card."""
D100: Final = 3
"""The kind of 100 miles, a distance card."""
D200: Final = 4
"""The kind of 200 miles, a distance card."""
STOP: Final = 5
"""The kind of Stop, a hazard card."""
SPEED_LIMIT: Final = 6
"""The kind of Speed Limit, the hazard played on the speed pile."""
OUT_OF_GAS: Final = 7
"""The kind of Out of Gas, a hazard card."""
FLAT_TIRE: Final = 8
"""The kind of Flat Tire, a hazard card."""
ACCIDENT: Final = 9
"""The kind of Accident, a hazard card."""
ROLL: Final = 10
"""The kind of Roll, the remedy that sets a stopped car moving."""
END_OF_LIMIT: Final = 11
"""The kind of End of Limit, the remedy for a Speed Limit."""
GASOLINE: Final = 12
"""The kind of Gasoline, a remedy card."""
SPARE_TIRE: Final = 13
"""The kind of Spare Tire, a remedy card."""
REPAIRS: Final = 14
"""The kind of Repairs, a remedy card."""
RIGHT_OF_WAY: Final = 15
"""The kind of Right of Way, a safety card."""
EXTRA_TANK: Final = 16
"""The kind of Extra Tank, a safety card."""
PUNCTURE_PROOF: Final = 17
"""The kind of Puncture-Proof, a safety card."""
DRIVING_ACE: Final = 18
"""The kind of Driving Ace, a safety card."""
NUM_KINDS: Final = 19
"""How many kinds of card there are: kinds are 0 to 18."""

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
"""The public id of each kind, as actions, records and observations name cards."""
KIND_OF: Final[dict[str, int]] = {card: kind for kind, card in enumerate(CARD_IDS)}
"""The kind of each card id."""

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
"""The printed English name of each kind."""
NAMES_FR: Final[tuple[str, ...]] = (
    "25\u00a0bornes",
    "50\u00a0bornes",
    "75\u00a0bornes",
    "100\u00a0bornes",
    "200\u00a0bornes",
    "Feu rouge",
    "Limitation de vitesse",
    "Panne d’essence",
    "Crevaison",
    "Accident",
    "Feu vert",
    "Fin de limitation",
    "Essence",
    "Roue de secours",
    "Réparations",
    "Véhicule prioritaire",
    "Citerne d’essence",
    "Increvable",
    "As du volant",
)
"""The printed French name of each kind (the Dujardin cards)."""

DISTANCE, HAZARD, REMEDY, SAFETY = "distance", "hazard", "remedy", "safety"
"""The four families of cards."""
GROUP: Final[tuple[str, ...]] = (DISTANCE,) * 5 + (HAZARD,) * 5 + (REMEDY,) * 5 + (SAFETY,) * 4
"""The family of each kind."""

VALUE: Final[tuple[int, ...]] = (25, 50, 75, 100, 200) + (0,) * 14
"""The miles each kind is worth (0 for all but distance)."""
DISTANCES: Final = (D25, D50, D75, D100, D200)
"""The distance cards, shortest first."""
HAZARDS: Final = (STOP, SPEED_LIMIT, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
"""The hazards, played on an opponent."""
BATTLE_HAZARDS: Final = (STOP, OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
"""The hazards that stop a car (all but the Speed Limit), played on the battle pile."""
REMEDIES: Final = (ROLL, END_OF_LIMIT, GASOLINE, SPARE_TIRE, REPAIRS)
"""The remedies, each answering the hazard of the same rank."""
SAFETIES: Final = (RIGHT_OF_WAY, EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE)
"""The safeties: each protects for the rest of the hand and may be laid as a coup fourré."""

REMEDY_OF: Final[dict[int, int]] = dict(zip(HAZARDS, REMEDIES))
"""The remedy that cures each hazard (a Roll after a Stop)."""
HAZARD_OF: Final[dict[int, int]] = dict(zip(REMEDIES, HAZARDS))
"""The hazard each remedy cures."""
SAFETY_OF: Final[dict[int, int]] = {
    STOP: RIGHT_OF_WAY,
    SPEED_LIMIT: RIGHT_OF_WAY,
    OUT_OF_GAS: EXTRA_TANK,
    FLAT_TIRE: PUNCTURE_PROOF,
    ACCIDENT: DRIVING_ACE,
}
"""The safety that protects against each hazard."""
PROTECTS: Final[dict[int, tuple[int, ...]]] = {
    RIGHT_OF_WAY: (STOP, SPEED_LIMIT),
    EXTRA_TANK: (OUT_OF_GAS,),
    PUNCTURE_PROOF: (FLAT_TIRE,),
    DRIVING_ACE: (ACCIDENT,),
}
"""The hazards each safety protects against."""

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
"""How many cards of each kind the deck holds: 106 in all, the same in every edition (docs/rules.md section 1)."""


def bit(kind: int) -> int:
    """A kind's bit in a mask of kinds: the engine keeps hands and legal plays as such masks."""
    return 1 << kind


DISTANCE_MASK: Final = sum(bit(k) for k in DISTANCES)
"""The distance cards as a mask of kinds."""
HAZARD_MASK: Final = sum(bit(k) for k in HAZARDS)
"""The hazards as a mask of kinds."""
BATTLE_HAZARD_MASK: Final = sum(bit(k) for k in BATTLE_HAZARDS)
"""The battle hazards as a mask of kinds."""
REMEDY_MASK: Final = sum(bit(k) for k in REMEDIES)
"""The remedies as a mask of kinds."""
SAFETY_MASK: Final = sum(bit(k) for k in SAFETIES)
"""The safeties as a mask of kinds."""
SAFETY_COUNT: Final = tuple(bin(m).count("1") for m in range(16))
"""How many safeties a mask of safety bits holds, by ``mask >> RIGHT_OF_WAY`` (a table: counting bits is
slow compiled)."""


def card_kind(card: Any) -> int:
    """The kind of a card id; ValueError naming the id if there is no such card."""
    try:
        return KIND_OF[card]
    except KeyError:
        raise ValueError(f"no card {card!r}; cards are: {', '.join(CARD_IDS)}") from None


def card_name(card: Any, lang: str = "en") -> str:
    """The printed name of a card in English or French (the names docs/rules.md gives)."""
    kind = card if isinstance(card, int) else card_kind(card)
    return (NAMES_FR if lang == "fr" else NAMES_EN)[kind]
