"""Where does a search that plays the match (``match=1``) decide otherwise than ``hard``?  The extension call.

At every extension decision of some self-play matches, both searches (``hard``'s settings on a fixed budget of
iterations, so the answer is the same on any machine) decide from the same observation with the same seed, and
the calls are counted by the phase of the match (late: a side has 3,000 points or more) and by whether the
deciding side leads (level counts as behind)::

    millebornes selfplay --games 3000 --bots heuristic --seed 7 -o classic2.jsonl
    python research/match_play.py classic2.jsonl --matches 600

On the first 600 of those matches (2,503 calls, 800 iterations; docs/strength.md, "A search that plays the
match"), ``hard`` -> match-aware::

    early  ahead    end-hand -> end-hand     360
    early  ahead    end-hand -> extend        33
    early  ahead      extend -> end-hand       5
    early  ahead      extend -> extend        62
    early  behind   end-hand -> end-hand     813
    early  behind   end-hand -> extend       101
    early  behind     extend -> end-hand       2
    early  behind     extend -> extend       152
    late   ahead    end-hand -> end-hand     439
    late   ahead      extend -> end-hand      15
    late   ahead      extend -> extend        28
    late   behind   end-hand -> end-hand     386
    late   behind   end-hand -> extend        32
    late   behind     extend -> end-hand       1
    late   behind     extend -> extend        74

Early in the match the match's chance grows about in proportion to the points, while ``hard``'s reward
(tanh of the margin over 1,500) flattens for big margins, so the match-aware search extends more (for the 200
points and a longer hand); late, the leader stops more and the side behind extends more.
"""

from __future__ import annotations

import argparse
import collections
import json

from millebornes import new_game
from millebornes.bots import make_bot

HARD = "ismcts:iterations={n},baseline=neural,scale=1500,widen=0,confidence=0.5,prior=0.0003"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="JSON lines of millebornes selfplay (an edition with the extension)")
    parser.add_argument("--matches", type=int, default=600)
    parser.add_argument("--iterations", type=int, default=800)
    args = parser.parse_args()
    spec = HARD.format(n=args.iterations)
    calls = collections.Counter()
    with open(args.records, encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            if n >= args.matches:
                break
            record = json.loads(line)["record"]
            game = new_game(record["ruleset"], players=record["players"], teams=record["teams"], seed=record["seed"])
            for action in record["actions"]:
                seat = game.to_act
                observation = game.observation(seat)
                if observation["decision"] == "extension":
                    legal = game.legal_actions()
                    side = game.side_of(seat)
                    totals = game.match_scores
                    phase = "late" if max(totals) >= 3000 else "early"
                    lead = "ahead" if totals[side] > max(t for s, t in enumerate(totals) if s != side) else "behind"
                    before = make_bot(spec, n).choose(observation, legal)
                    after = make_bot(spec + ",match=1", n).choose(observation, legal)
                    calls[phase, lead, before, after] += 1
                game.act(action, seat)
    print(f"{sum(calls.values())} extension calls, {args.iterations} iterations; hard -> match-aware")
    for key in sorted(calls):
        print("  {:<6} {:<7} {:>9} -> {:<9} {:>6}".format(*key, calls[key]))


if __name__ == "__main__":
    main()
