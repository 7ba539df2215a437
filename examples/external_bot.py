#!/usr/bin/env python3
"""A tiny external Mille Bornes bot: it speaks the bot protocol (docs/protocol.md) and nothing else.

It needs only the Python standard library and does not import millebornes, so it is also a model
for a bot in any other language: read one JSON object per line on stdin, write one JSON object
per line on stdout, flush after each.

Its policy is simple but sensible: call a coup fourré, extend when ahead, lay safeties, cure its
own hazards, play the largest distance card, attack the leader, else discard the least useful card.

Try it against a built-in bot:

    millebornes tournament --bots heuristic --bots "cmd:python examples/external_bot.py" --games 20

or by hand (type a hello, then bye):

    python examples/external_bot.py
    {"type": "hello", "protocol": "millebornes-bot/1", "seed": 1}
    {"type": "bye"}
"""

import json
import random
import sys

PROTOCOL = "millebornes-bot/1"
NAME = "example-external"
VERSION = "1.0"

HAZARDS = ("stop", "speed-limit", "out-of-gas", "flat-tire", "accident")
REMEDY_OF = {
    "stop": "roll",
    "speed-limit": "end-of-limit",
    "out-of-gas": "gasoline",
    "flat-tire": "spare-tire",
    "accident": "repairs",
}
SAFETY_OF = {
    "stop": "right-of-way",
    "speed-limit": "right-of-way",
    "out-of-gas": "extra-tank",
    "flat-tire": "puncture-proof",
    "accident": "driving-ace",
}
REMEDIES = tuple(REMEDY_OF.values())
SAFETIES = ("right-of-way", "extra-tank", "puncture-proof", "driving-ace")
MILES = {"25": 25, "50": 50, "75": 75, "100": 100, "200": 200}


def choose(obs, legal, rng):
    """One action out of ``legal`` for the observation ``obs`` (a dict as docs/protocol.md says)."""
    me = obs.get("side", 0)
    tableaux = obs.get("tableaux") or []
    mine = tableaux[me] if me < len(tableaux) else {}
    others = [t for side, t in enumerate(tableaux) if side != me]
    hand = obs.get("hand") or []

    if "coup-fourre" in legal:
        return "coup-fourre"
    if "extend" in legal:
        lead = mine.get("distance", 0) - max((t.get("distance", 0) for t in others), default=0)
        miles_in_hand = sum(MILES.get(c, 0) for c in hand)
        return "extend" if mine.get("moving") and (lead >= 200 or miles_in_hand >= 200) else "end-hand"
    if "take-discard" in legal:
        pile = obs.get("discard_pile") or []
        top = pile[-1] if pile else None
        battle = mine.get("battle") or []
        wanted = set(SAFETIES)
        if battle and battle[-1] in REMEDY_OF:
            wanted.add(REMEDY_OF[battle[-1]])
        return "take-discard" if top in wanted else "draw"

    plays = [a for a in legal if a.startswith("play ")]
    for safety in SAFETIES:
        if "play " + safety in plays:
            return "play " + safety
    battle_remedies = [a for a in plays if a.split()[1] in REMEDIES and a != "play end-of-limit"]
    if battle_remedies:
        return battle_remedies[0]
    distances = [a for a in plays if a.split()[1] in MILES]
    if "play end-of-limit" in plays and not any(MILES[a.split()[1]] > 50 for a in distances):
        return "play end-of-limit"
    if distances:
        return max(distances, key=lambda a: MILES[a.split()[1]])
    attacks = [a for a in plays if len(a.split()) == 3]
    if attacks:

        def worth(action):
            _, hazard, side = action.split()
            side = int(side)
            distance = tableaux[side].get("distance", 0) if side < len(tableaux) else 0
            return (distance, hazard != "speed-limit", rng.random())

        return max(attacks, key=worth)

    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        return min(discards, key=lambda a: usefulness(a.split()[1], hand, mine, obs))
    return legal[0]


def usefulness(card, hand, mine, obs):
    """How much we want to keep ``card``: the least useful card is discarded."""
    safeties = set(mine.get("safeties") or [])
    if card in SAFETIES:
        return 100
    if card in REMEDIES:
        covered = [h for h, r in REMEDY_OF.items() if r == card and SAFETY_OF[h] in safeties]
        if covered:
            return 0  # a safety already protects us: this remedy is dead weight
        return 35 if card == "roll" else 30 - 15 * (hand.count(card) > 1)
    if card in HAZARDS:
        return 20 if card == "speed-limit" else 25
    if card in MILES:
        if card == "200" and mine.get("two_hundreds", 0) >= 2:
            return 1
        if mine.get("distance", 0) + MILES[card] > obs.get("target", 1000):
            return 2  # cannot be played in this race
        return 40 + MILES[card] // 10
    return 50


def request_error(rid, message):
    return {
        "type": "error",
        "id": rid if isinstance(rid, int) and not isinstance(rid, bool) else None,
        "message": message,
    }


def answer(request, rng):
    """The reply to one request (None for bye)."""
    if not isinstance(request, dict):
        return request_error(None, "a request is a JSON object")
    kind = request.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION}
    if kind != "decide":
        return request_error(request.get("id"), f"unknown request type {kind!r}")
    rid = request.get("id")
    obs, legal = request.get("observation"), request.get("legal_actions")
    if not isinstance(rid, int) or isinstance(rid, bool):
        return request_error(None, '"id" must be an integer')
    if not isinstance(obs, dict):
        return request_error(rid, '"observation" must be an object')
    if not isinstance(legal, list) or not legal or not all(isinstance(a, str) for a in legal):
        return request_error(rid, '"legal_actions" must be a non-empty array of strings')
    try:
        action = choose(obs, legal, rng)
    except Exception as exc:  # a strange observation: still answer something legal
        print(f"example bot: {type(exc).__name__}: {exc}", file=sys.stderr)
        action = legal[0]
    return {"type": "action", "id": rid, "action": action}


def main():
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    sys.stdout.reconfigure(encoding="utf-8")
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            reply = request_error(None, "the request is not valid JSON")
        else:
            if isinstance(request, dict) and request.get("type") == "bye":
                return 0
            if isinstance(request, dict) and request.get("type") == "hello":
                seed = request.get("seed")
                rng = random.Random(seed if isinstance(seed, int) else 0)
            reply = answer(request, rng)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
