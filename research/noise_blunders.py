"""How often does a bot discard a safety, or the only copy of a remedy its side needs? (issue 27)

Plays ``millebornes tournament --hands`` (the same deals, in this process) between SPEC and
``heuristic`` and counts, among SPEC's choices, the discards of a safety (laying it was legal) and of
the last copy in hand of a needed remedy: the one for the hazard on its battle pile, the Roll that
must follow it or start the car, End of Limit under a speed limit with more than 50 km to go.  The
classification is written here again, apart from the search's own, so that it checks the search.
Run it with ``PYTHONPATH`` on another copy of the package to measure an older search on the same
deals:

    PYTHONPATH=src python research/noise_blunders.py \
        "ismcts:iterations=500,baseline=neural,scale=1500,widen=0,confidence=0.5,prior=0.0003" --seed 21

(``hard`` on 500 playouts, about its 30 ms, the same worlds on any machine.)  Seeds 21 and 22, 400
hands each: before the guard of ``ismcts.risky_discards`` the search overrode the network towards
such a discard 6 and 6 times (of some 3,600 decisions each where one was legal), after it 0 and 1;
no safety was discarded either way; 227 + 218 hands won before, 233 + 223 after.
"""

from __future__ import annotations

import argparse
import collections

from millebornes.actions import ACTION_NAMES
from millebornes.tournament import make_player, run_tournament

SAFETIES = {"right-of-way", "extra-tank", "puncture-proof", "driving-ace"}
REMEDY = {"stop": "roll", "out-of-gas": "gasoline", "flat-tire": "spare-tire", "accident": "repairs"}
SAFETY = {"stop": "right-of-way", "out-of-gas": "extra-tank", "flat-tire": "puncture-proof", "accident": "driving-ace"}
COUNTS: collections.Counter = collections.Counter()


def needed(obs: dict) -> set[str]:
    t = obs["tableaux"][obs["side"]]
    safe = set(t["safeties"])
    need = set()
    if not t["moving"]:
        top = t["battle"][-1] if t["battle"] else None
        if top in REMEDY and SAFETY[top] not in safe:
            need.add(REMEDY[top])
            if top != "stop" and obs["options"]["roll_after_remedy"] and "right-of-way" not in safe:
                need.add("roll")
        else:
            need.add("roll")
    if (
        "right-of-way" not in safe
        and t["speed"]
        and t["speed"][-1] == "speed-limit"
        and obs["target"] - t["distance"] > 50
    ):
        need.add("end-of-limit")
    return need


def blunder(obs: dict, legal: list[str], action: str) -> str | None:
    if not action.startswith("discard "):
        return None
    card = action.removeprefix("discard ")
    if card in SAFETIES and f"play {card}" in legal:
        return "safety"
    if card in needed(obs) and obs["hand"].count(card) == 1:
        return "remedy"
    return None


class Counting:
    def __init__(self, bot):
        self.bot, self.name = bot, bot.name

    def choose(self, obs: dict, legal: list[str]) -> str:
        action = self.bot.choose(obs, legal)
        if len(legal) == 1:
            return action
        COUNTS["decisions"] += 1
        kind = blunder(obs, legal, action)
        if kind:
            search = getattr(self.bot, "last", None)
            base = search.baseline if search is not None else None
            overridden = base is not None and ACTION_NAMES[base] != action
            COUNTS[f"{kind}, the search's" if overridden else f"{kind}, the network's"] += 1
        elif any(blunder(obs, legal, a) for a in legal):
            COUNTS["could have"] += 1
        return action


def factory(spec: str, seed: int):
    bot = make_player(spec, seed)
    return bot if spec == "heuristic" else Counting(bot)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("spec")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    summary = run_tournament([args.spec, "heuristic"], games=args.games, seed=args.seed, hands=True, factory=factory)
    row = summary["table"][0]
    print(args.spec, "seed", args.seed, "won", row["wins"], "of", row["matches"], "hands")
    print(dict(COUNTS))


if __name__ == "__main__":
    main()
