"""Why one move is better than another, as a reason code and its parameters: what the better move keeps or
gains (a safety held for a coup fourré, the distance it lays, the hazard it cures...) and what is at stake.

The engine never words it: :func:`reason` answers ``{"code", "params"}``, and each app says it from the catalog
(``reason.<code>``, docs/review.md "Why a move is better").  The parameters are JSON values an app can word
without knowing the code: card ids, a side, distances, points, and one figure in whole percent or points.  The
reason reads the seat's observation only, as the review and the hints do.

>>> import millebornes as mb
>>> g = mb.new_game("dujardin", players=2, seed=1)
>>> reason(g.observation(g.to_act), "play roll", "discard roll")["code"]
'start'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .actions import Move, parse
from .cards import (
    CARD_IDS,
    D200,
    DISTANCE,
    END_OF_LIMIT,
    GROUP,
    HAZARD,
    HAZARD_OF,
    KIND_OF,
    PROTECTS,
    REMEDY,
    REMEDY_OF,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_OF,
    SPEED_LIMIT,
    STOP,
    VALUE,
)
from .observation import Observation
from .rules import ruleset

CODES = (
    "coup_fourre",
    "coup_fourre_race",
    "hold_safety",
    "hold_safety_race",
    "keep_safety",
    "safety_cures",
    "lay_safety_keep",
    "lay_safety_late",
    "lay_safety",
    "cure",
    "cure_keep_safety",
    "lift_limit",
    "start",
    "finish",
    "exact_finish",
    "awkward_left",
    "safe_trip",
    "distance_more",
    "distance",
    "attack_uncurable",
    "attack_leader",
    "attack_sure",
    "attack_limit",
    "attack",
    "keep_needed",
    "keep_hazard",
    "keep_remedy",
    "discard_cured",
    "discard_too_far",
    "discard_third_200",
    "discard_no_target",
    "discard_rather",
    "discard",
    "extend",
    "end_hand",
    "take_discard_cure",
    "take_discard",
    "draw_stock",
    "general",
)
"""Every reason code; each is ``reason.<code>`` in the catalog, in English and French."""
FIGURES = ("chance", "best_chance", "points", "best_points", "match_chance", "best_match_chance")
"""What :func:`reason` may be told of the two moves: the side's chance of the hand, its expected points margin over
the hand and its chance of the match, each with ``other`` and (``best_``) with ``better``."""
FIGURE_PARAMS = ("chance", "other_chance", "match", "other_match", "gain_points", "figure")
"""The parameters that carry the figures (whole percent, or points) and ``figure``, the one that tells most:
``chance``, ``match`` or ``points``."""
FIGURE_ORDER = ("points", "match", "chance")
"""Which figure an app quotes when the one that tells most is already on its screen: the first of these not shown."""
CLEAR = 0.05
"""A gain in the hand's chance this large speaks for itself; a smaller one yields to the points, when given."""
LATE = 10
"""Cards left in the stock under which a safety held may never get its coup fourré."""
REVIEWED = ("inaccuracy", "mistake", "blunder")
"""The classes of a reviewed move that always get a reason (any move whose better move differs gets one too)."""


def reason(
    observation: Observation, better: str, other: str | None = None, figures: Mapping[str, float | None] | None = None
) -> dict[str, Any]:
    """Why ``better`` (legal in ``observation``) is better than ``other`` (the move played or the next best; None
    for the move alone, as a hint's first line): ``{"code", "params"}``, the params quoting the most telling figure
    of ``figures`` (:data:`FIGURES`) when there is one."""
    why = _Why(observation)
    code, params = why.of(parse(better), None if other is None else parse(other))
    params.update(_figure({k: v for k, v in (figures or {}).items() if v is not None}, code))
    return {"code": code, "params": params}


def annotate(moves: Iterable[dict[str, Any]], seen: Mapping[int, Observation]) -> None:
    """Give each reviewed move that is an inaccuracy or worse, or whose better move is not the one played, its
    ``reason`` (from the observation it was decided on, ``seen`` by index, and the figures the move carries)."""
    for move in moves:
        obs = seen.get(move["index"])
        if obs is not None and (move["class"] in REVIEWED or move["best"] != move["played"]):
            move["reason"] = reason(obs, move["best"], move["played"], {k: move.get(k) for k in FIGURES})


def _figure(f: Mapping[str, float], code: str) -> dict[str, Any]:
    """Every figure given (the better move's chance, the other's where it differs, the points gained) and which tells
    most (``figure``): the match's chance where it moved more than the hand's (an extension), a clear gain in the
    hand's chance, else the points, else whatever chance there is.  An app that shows one beside the line already
    quotes the next."""
    pct = lambda x: round(100 * x)  # noqa: E731
    out: dict[str, Any] = {}
    for name, other, best in (("chance", "chance", "best_chance"), ("match", "match_chance", "best_match_chance")):
        if best in f:
            out[name] = pct(f[best])
            if other in f and pct(f[other]) != out[name]:
                out[f"other_{name}"] = pct(f[other])
    if "best_points" in f and "points" in f and round(f["best_points"] - f["points"]) >= 1:
        out["gain_points"] = round(f["best_points"] - f["points"])
    hand = f["best_chance"] - f["chance"] if "other_chance" in out else None
    match = f["best_match_chance"] - f["match_chance"] if "other_match" in out else None
    if match is not None and match > 0 and (hand is None or match > hand or code in ("extend", "end_hand")):
        out["figure"] = "match"
    elif hand is not None and hand >= CLEAR:
        out["figure"] = "chance"
    elif "gain_points" in out:
        out["figure"] = "points"
    elif "chance" in out or "match" in out:
        out["figure"] = "chance" if "chance" in out else "match"
    return out


class _Why:
    """The reason of one observation's moves, from the public table and the seat's own hand."""

    def __init__(self, obs: Observation):
        self.obs = obs
        self.rules = ruleset(obs["ruleset"], **obs["options"])
        self.scoring = self.rules.scoring
        self.side = obs["side"]
        self.mine = obs["tableaux"][self.side]
        self.safeties = {KIND_OF[c] for c in self.mine["safeties"]}
        self.distance = self.mine["distance"]
        self.target = obs["target"]

    # -- the table as the seat sees it ----------------------------------------------------
    def showing(self) -> int | None:
        """The hazard that holds the seat's car now (a battle hazard on top, else a Speed Limit), if any."""
        battle, speed = self.mine["battle"], self.mine["speed"]
        top = KIND_OF[battle[-1]] if battle else None
        if top is not None and GROUP[top] == HAZARD and SAFETY_OF[top] not in self.safeties:
            return top
        if speed and speed[-1] == "speed-limit" and RIGHT_OF_WAY not in self.safeties:
            return SPEED_LIMIT
        return None

    def needs_roll(self) -> bool:
        """Whether a Roll is what the car lacks to move (nothing else holds it)."""
        return not self.mine["moving"] and self.showing() in (None, SPEED_LIMIT, STOP)

    def unseen(self, kind: int) -> int:
        """How many cards of ``kind`` the seat cannot see: not in its hand, on the discard pile or on a tableau."""
        card = CARD_IDS[kind]
        seen = self.obs["hand"].count(card) + self.obs["discard_pile"].count(card)
        for tab in self.obs["tableaux"]:
            piles = tab["battle"] + tab["speed"] + tab["safeties"] + tab["distance_cards"]
            seen += piles.count(card)
        seen += sum(cards.count(card) for cards in self.obs["known_cards"])
        return max(0, self.rules.deck_counts(self.obs["players"])[kind] - seen)

    def opponents(self) -> list[int]:
        return [s for s in range(len(self.obs["sides"])) if s != self.side]

    def room(self) -> int:
        """The most distance the side may still lay this hand (the full trip while an extension may come)."""
        far = self.obs["options"]["target"] if self.obs["extension_open"] else self.target
        return max(far, self.target) - self.distance

    def dead(self, kind: int) -> tuple[str, dict[str, Any]] | None:
        """Why a card can no longer be used this hand, if it cannot."""
        group = GROUP[kind]
        if group == REMEDY:
            safety = RIGHT_OF_WAY if kind == ROLL else SAFETY_OF[HAZARD_OF[kind]]
            if safety in self.safeties:
                return "discard_cured", {"card": CARD_IDS[kind], "safety": CARD_IDS[safety]}
        if group == DISTANCE:
            if kind == D200 and self.mine["two_hundreds"] >= 2:
                return "discard_third_200", {"card": CARD_IDS[kind]}
            if VALUE[kind] > self.room():
                return "discard_too_far", {
                    "card": CARD_IDS[kind],
                    "km": VALUE[kind],
                    "distance": self.distance,
                    "target": self.distance + self.room(),
                }
        if group == HAZARD:
            tabs = self.obs["tableaux"]
            if all(CARD_IDS[SAFETY_OF[kind]] in tabs[s]["safeties"] for s in self.opponents()):
                return "discard_no_target", {"card": CARD_IDS[kind], "safety": CARD_IDS[SAFETY_OF[kind]]}
        return None

    def needed(self, kind: int) -> bool:
        """Whether the car needs this card to move again: the cure of the hazard showing, or its missing Roll."""
        showing = self.showing()
        if showing is not None and kind in (REMEDY_OF[showing], SAFETY_OF[showing]):
            return True
        return kind == ROLL and self.needs_roll() and RIGHT_OF_WAY not in self.safeties

    def cf_points(self) -> int:
        return int(self.scoring.coup_fourre)

    # -- the reason -------------------------------------------------------------------------
    def of(self, better: Move, other: Move | None) -> tuple[str, dict[str, Any]]:
        """The code and parameters of why ``better`` beats ``other``, the most telling first."""
        if self.obs["decision"] == "coup-fourre" and better.verb == "coup-fourre":
            hazard = KIND_OF[self.obs["pending_attack"]["hazard"]] if self.obs["pending_attack"] else STOP
            params: dict[str, Any] = {"safety": CARD_IDS[SAFETY_OF[hazard]], "hazard": CARD_IDS[hazard]}
            if self.cf_points():
                return "coup_fourre", {**params, "bonus": self.cf_points()}
            return "coup_fourre_race", params
        if better.verb in ("extend", "end-hand"):
            full = self.obs["options"]["target"]
            race = {"distance": self.distance, "target": full, "bonus": int(self.scoring.extension)}
            return ("extend" if better.verb == "extend" else "end_hand"), race
        if better.verb in ("take-discard", "draw"):
            return self.drawing(better)
        finishing = (
            better.verb == "play"
            and GROUP[better.kind] == DISTANCE
            and self.distance + VALUE[better.kind] == self.target
        )
        if other is not None and not finishing:
            held = self.held(better, other)
            if held is not None:
                return held
        if better.verb == "attack":
            return self.attacking(better, other)
        if better.verb == "discard":
            return self.discarding(better, other)
        if better.verb != "play":
            return "general", {}  # letting a coup fourré go: nothing the table shows says why
        group = GROUP[better.kind]
        if group == SAFETY:
            return self.laying(better, other)
        if group == REMEDY:
            return self.curing(better)
        return self.going(better, other)

    def held(self, better: Move, other: Move) -> tuple[str, dict[str, Any]] | None:
        """A safety the other move would lay (without curing anything) or throw away: keeping it is the reason."""
        if other.verb not in ("play", "discard") or GROUP[other.kind] != SAFETY:
            return None
        if better.verb == "play" and GROUP[better.kind] == SAFETY:
            return None  # which safety to lay: the better one's own reason says it
        safety = other.kind
        hazard = PROTECTS[safety][0]
        params: dict[str, Any] = {"safety": CARD_IDS[safety], "hazard": CARD_IDS[hazard]}
        showing = self.showing()
        if showing in PROTECTS[safety]:
            if better.verb == "play" and better.kind == REMEDY_OF[showing]:
                return "cure_keep_safety", {**params, "card": CARD_IDS[better.kind], "hazard": CARD_IDS[showing]}
            return None  # laying it would cure: the better move has another reason
        if other.verb == "discard":
            return "keep_safety", params
        if self.cf_points():
            return "hold_safety", {**params, "bonus": self.cf_points()}
        return "hold_safety_race", params

    def laying(self, better: Move, other: Move | None) -> tuple[str, dict[str, Any]]:
        safety = better.kind
        showing = self.showing()
        params: dict[str, Any] = {"safety": CARD_IDS[safety]}
        if showing in PROTECTS[safety]:
            return "safety_cures", {**params, "hazard": CARD_IDS[showing]}
        if other is not None and other.verb == "play" and GROUP[other.kind] == SAFETY:
            return "lay_safety_keep", {
                **params,
                "other_card": CARD_IDS[other.kind],
                "hazard": CARD_IDS[PROTECTS[other.kind][0]],
            }
        if self.obs["stock_size"] <= LATE:
            return "lay_safety_late", {**params, "bonus": int(self.scoring.safety)}
        return "lay_safety", params

    def curing(self, better: Move) -> tuple[str, dict[str, Any]]:
        card, showing = better.kind, self.showing()
        if card == END_OF_LIMIT:
            return "lift_limit", {"card": CARD_IDS[card], "hazard": CARD_IDS[SPEED_LIMIT]}
        if showing is not None and REMEDY_OF[showing] == card:
            return "cure", {"card": CARD_IDS[card], "hazard": CARD_IDS[showing]}
        return "start", {"card": CARD_IDS[card]}

    def going(self, better: Move, other: Move | None) -> tuple[str, dict[str, Any]]:
        """Distance: the trip finished, a 200 kept off for a safe trip, a remainder hard to finish, or miles."""
        km = VALUE[better.kind]
        after = self.distance + km
        params: dict[str, Any] = {"card": CARD_IDS[better.kind], "km": km, "distance": after, "target": self.target}
        rival = other if other is not None and other.verb == "play" and GROUP[other.kind] == DISTANCE else None
        if after == self.target:
            if rival is not None:
                left = self.target - self.distance - VALUE[rival.kind]
                return "exact_finish", {
                    "card": CARD_IDS[better.kind],
                    "target": self.target,
                    "other_card": CARD_IDS[rival.kind],
                    "left": left,
                }
            return "finish", {"card": CARD_IDS[better.kind], "target": self.target}
        params["left"] = self.target - after
        if rival is not None:
            awkward = self.awkward(rival)
            if awkward is not None:
                return awkward
            if rival.kind == D200 and self.scoring.safe_trip and not self.mine["two_hundreds"]:
                return "safe_trip", {"card": CARD_IDS[better.kind], "bonus": int(self.scoring.safe_trip)}
            if VALUE[rival.kind] < km:
                return "distance_more", {**params, "other_card": CARD_IDS[rival.kind], "more": km - VALUE[rival.kind]}
        return "distance", params

    def awkward(self, other: Move) -> tuple[str, dict[str, Any]] | None:
        """The other move lays distance that leaves 25 or 50 to find: only those exact cards finish."""
        if other.verb != "play" or GROUP[other.kind] != DISTANCE:
            return None
        left = self.target - self.distance - VALUE[other.kind]
        if left in (25, 50):
            return "awkward_left", {"other_card": CARD_IDS[other.kind], "left": left, "target": self.target}
        return None

    def attacking(self, better: Move, other: Move | None) -> tuple[str, dict[str, Any]]:
        hazard, side = better.kind, better.side
        tab = self.obs["tableaux"][side]
        params = {"hazard": CARD_IDS[hazard], "side": side, "distance": tab["distance"], "target": self.target}
        remedy, safety = REMEDY_OF[hazard], SAFETY_OF[hazard]
        if not self.unseen(remedy) and not self.unseen(safety):
            return "attack_uncurable", {**params, "remedy": CARD_IDS[remedy]}
        dist = {s: self.obs["tableaux"][s]["distance"] for s in self.opponents()}
        rival_side = other.side if other is not None and other.verb == "attack" else None
        if (rival_side is not None and dist[side] > dist[rival_side]) or (
            len(dist) > 1 and dist[side] == max(dist.values()) and min(dist.values()) < dist[side]
        ):
            return "attack_leader", params
        if not self.unseen(safety):
            return "attack_sure", {**params, "safety": CARD_IDS[safety]}
        if hazard == SPEED_LIMIT:
            return "attack_limit", params
        return "attack", params

    def discarding(self, better: Move, other: Move | None) -> tuple[str, dict[str, Any]]:
        card = CARD_IDS[better.kind]
        if other is not None:
            awkward = self.awkward(other)
            if awkward is not None:
                return awkward
            if other.verb == "discard" and self.needed(other.kind) and not self.needed(better.kind):
                return "keep_needed", {"card": card, "other_card": CARD_IDS[other.kind]}
        dead = self.dead(better.kind)
        if dead is not None:
            return dead
        if other is not None and other.verb == "discard" and self.dead(other.kind) is None:
            kept = other.kind
            if GROUP[kept] == HAZARD:
                return "keep_hazard", {"card": card, "other_card": CARD_IDS[kept]}
            if GROUP[kept] == REMEDY and GROUP[better.kind] != REMEDY:
                return "keep_remedy", {"other_card": CARD_IDS[kept], "hazard": CARD_IDS[HAZARD_OF[kept]]}
        if other is not None and other.verb == "discard":
            return "discard_rather", {"card": card, "other_card": CARD_IDS[other.kind]}
        return "discard", {"card": card}

    def drawing(self, better: Move) -> tuple[str, dict[str, Any]]:
        pile = self.obs["discard_pile"]
        top = KIND_OF[pile[-1]] if pile else None
        if top is None:
            return "general", {}
        if better.verb == "take-discard":
            if self.needed(top):
                showing = self.showing()
                hazard = CARD_IDS[showing] if showing is not None else CARD_IDS[STOP]
                return "take_discard_cure", {"card": CARD_IDS[top], "hazard": hazard}
            return "take_discard", {"card": CARD_IDS[top]}
        if self.needed(top):
            return "general", {}  # the stock beat a card the car needs: only the playouts say why
        return "draw_stock", {"card": CARD_IDS[top]}


__all__ = ["CODES", "FIGURES", "FIGURE_ORDER", "FIGURE_PARAMS", "annotate", "reason"]
