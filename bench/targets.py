"""Whom each level attacks at a table of three sides or more: the leader, or the human (issue 41).

    python bench/targets.py [--ruleset classic] [--players 3] [--teams | --no-teams] [--matches 200]
                            [--search-matches 30] [--seed 41] [--levels easy,medium,hard] [--human medium]
                            [--human-seat 0 | --human-seat rotate] [--workers 2]

Full matches at one table.  One seat is labelled the human and played by a stand-in level (``--human``); every
other seat, the human's partner in teams too, is a bot of the level measured.  Each level plays ``--matches``
matches (``--search-matches`` for the searching levels, ``hard`` and ``expert``, at 30 ms and 0.9 s a decision) on
the same deals (match ``i`` of every level is deal ``i`` of the seed).  The human sits on seat 0, as the web's
home page and quick game seat a person, unless ``--human-seat`` says another seat or ``rotate`` (match ``i`` on
seat ``i`` modulo the seats).  Tables of two sides are refused: there a bot has one side to attack.

Every hazard a bot plays on another side is recorded with the sides it could have played one on (the legal
actions of that decision).  A side's rank is among the attacker's opponents, 1 the furthest: in the hand by the
distance at that moment, in the match by the match scores before the hand (every side is level in the first
hand, counted apart); sides level share the better rank, so two may both be "the leader".  Prints, per level:

- the counts: attacks, those on the human's side, and by the target's rank in the hand and in the match;
- the shares, with 95% Wilson intervals, of the decisions where the choice said something: where the leader of
  the hand and a side behind it were both legal targets, the share on the leader, and the same split by whether
  the leader was the human or a bot (a bot that treats the human as any side attacks a leading human as often
  as a leading bot); where two legal targets were level in the hand, the share on the human (one half if level
  sides are picked alike), on the lower side number and on the side that plays next; after the first hand,
  where the legal targets were level in the hand, the same for the match's leader; and where the hand's leader
  is not the match's, the share on the hand's.

The human's stand-in makes no attack counted.  Bots see the seat's observation and the legal actions only, and
nothing in an observation says who is human (tests/bots/test_targets.py checks it): with ``--human medium``,
``medium`` plays a table of its own level where one seat is only called human, so its figures differ from a
fair share only by the human's seat, which ``--human-seat rotate`` takes out.  The figures of record are in
docs/strength.md, "Whom the bots attack".
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from typing import NamedTuple

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from millebornes.actions import parse  # noqa: E402
from millebornes.bots import LEVELS, SEARCHING_LEVELS, make_bot  # noqa: E402
from millebornes.executors import LocalExecutor  # noqa: E402
from millebornes.state import new_game  # noqa: E402
from millebornes.tournament import wilson  # noqa: E402


class Attack(NamedTuple):
    """One hazard a bot played on another side, and the position it chose in."""

    attacker: int
    """The attacking side."""
    target: int
    """The side attacked."""
    legal: tuple[int, ...]
    """The sides it could have attacked."""
    distances: tuple[int, ...]
    """Every side's distance this hand, at the decision."""
    scores: tuple[int, ...]
    """Every side's match score before this hand."""
    first_hand: bool
    """Whether it is the match's first hand (the match scores tell nothing)."""
    human: int
    """The human's side."""


class Task(NamedTuple):
    """One match to play, as a worker gets it."""

    ruleset: str
    players: int
    teams: bool
    seed: int
    level: str
    human_level: str
    human_seat: int
    match: int


def deal_seed(seed: int, match: int) -> int:
    """The deal of match ``match``, the same for every level."""
    return random.Random(f"millebornes-targets/{seed}/{match}").getrandbits(31)


def play(task: Task) -> tuple[str, int, list[Attack]]:
    """Play one match; return the level, the match index and the bots' attacks."""
    deal = deal_seed(task.seed, task.match)
    game = new_game(task.ruleset, players=task.players, teams=task.teams, seed=deal)
    human = game.side_of(task.human_seat)
    bots = [
        make_bot(task.human_level if seat == task.human_seat else task.level, deal + seat)
        for seat in range(task.players)
    ]
    attacks: list[Attack] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None  # someone acts while the match is on
        legal = game.legal_actions()
        obs = game.observation(seat)
        action = bots[seat].choose(obs, list(legal))
        move = parse(action)
        if move.verb == "attack" and seat != task.human_seat:
            attacks.append(
                Attack(
                    attacker=game.side_of(seat),
                    target=move.side,
                    legal=tuple(sorted({m.side for m in map(parse, legal) if m.verb == "attack"})),
                    distances=tuple(t["distance"] for t in obs["tableaux"]),
                    scores=tuple(obs["match_scores"]),
                    first_hand=obs["hand_number"] == 0,
                    human=human,
                )
            )
        game.act(action, seat)
    return task.level, task.match, attacks


def rank(values: tuple[int, ...], side: int, among: tuple[int, ...]) -> int:
    """1 + the sides of ``among`` strictly ahead of ``side``: level sides share the better rank."""
    return 1 + sum(values[o] > values[side] for o in among)


def opponents(a: Attack) -> tuple[int, ...]:
    return tuple(s for s in range(len(a.distances)) if s != a.attacker)


class Share:
    """Hits among decisions, with the Wilson interval."""

    def __init__(self) -> None:
        self.hits = 0
        self.n = 0

    def add(self, hit: bool) -> None:
        self.n += 1
        self.hits += hit

    def cell(self) -> str:
        if not self.n:
            return "none"
        low, high = wilson(self.hits, self.n)
        return f"{100 * self.hits / self.n:.0f}% of {self.n} ({100 * low:.0f}-{100 * high:.0f}%)"


SITUATIONS = {
    "hand": "hand: the leader and a side behind it both legal targets; on the leader",
    "hand_human": "hand: the human leads alone, a bot behind it legal too; on the human",
    "hand_bot": "hand: a bot leads alone, the human behind it legal too; on the leader",
    "level": "hand: the human and one bot level, the only legal targets; on the human",
    "low": "hand: two legal targets, level; on the lower side number",
    "next": "hand: two legal targets, level; on the side that plays next",
    "match": "match, the legal targets level in the hand: the leader and a side behind it; on the leader",
    "match_human": "match, level in the hand: the human leads alone, a bot behind it; on the human",
    "match_bot": "match, level in the hand: a bot leads alone, the human behind it; on the leader",
    "split": "the hand's leader is not the match's, both legal; on the hand's",
}
"""The decisions whose choice says something, and what is counted in them; the match's after the first hand."""


def leader_choice(values: tuple[int, ...], a: Attack, shares: dict[str, Share], key: str) -> None:
    """Count an attack where the leader of ``values`` and a side behind it were both legal targets."""
    ranks = {s: rank(values, s, opponents(a)) for s in a.legal}
    leaders = [s for s in a.legal if ranks[s] == 1]
    if not leaders or len(leaders) == len(a.legal):
        return
    on_leader = ranks[a.target] == 1
    shares[key].add(on_leader)
    if a.human in a.legal and len(leaders) == 1:
        shares[key + ("_human" if leaders == [a.human] else "_bot")].add(on_leader)


def tally(attacks: list[Attack]) -> tuple[Counter[str], dict[str, Share]]:
    counts: Counter[str] = Counter()
    shares = {key: Share() for key in SITUATIONS}
    for a in attacks:
        opps = opponents(a)
        counts["attacks"] += 1
        counts["human"] += a.target == a.human
        counts[f"hand {rank(a.distances, a.target, opps)}"] += 1
        counts["match first hand" if a.first_hand else f"match {rank(a.scores, a.target, opps)}"] += 1
        if len(a.legal) < 2:
            continue
        leader_choice(a.distances, a, shares, "hand")
        level = len({a.distances[s] for s in a.legal}) == 1
        if len(a.legal) == 2 and level:
            shares["low"].add(a.target == a.legal[0])
            shares["next"].add(a.target == min(a.legal, key=lambda s: (s - a.attacker) % len(a.distances)))
            if a.human in a.legal:
                shares["level"].add(a.target == a.human)
        if a.first_hand:
            continue
        if level:
            leader_choice(a.scores, a, shares, "match")
        hand_leaders = [s for s in a.legal if a.distances[s] == max(a.distances[o] for o in a.legal)]
        match_leaders = [s for s in a.legal if a.scores[s] == max(a.scores[o] for o in a.legal)]
        if len(hand_leaders) == len(match_leaders) == 1 and hand_leaders != match_leaders:
            shares["split"].add(a.target in hand_leaders)
    return counts, shares


def markdown(results: dict[str, tuple[Counter[str], dict[str, Share]]], nsides: int) -> str:
    levels = list(results)
    ranks = range(1, nsides)
    lines = [
        "| level | attacks | on the human | "
        + " | ".join(f"hand rank {r}" for r in ranks)
        + " | "
        + " | ".join(f"match rank {r}" for r in ranks)
        + " | first hand |",
        "| --- " * (4 + 2 * len(ranks)) + "|",
    ]
    for level in levels:
        c = results[level][0]
        n = c["attacks"] or 1
        lines.append(
            f"| `{level}` | {c['attacks']} | {c['human']} ({100 * c['human'] / n:.0f}%) | "
            + " | ".join(str(c[f"hand {r}"]) for r in ranks)
            + " | "
            + " | ".join(str(c[f"match {r}"]) for r in ranks)
            + f" | {c['match first hand']} |"
        )
    lines += ["", "| decisions | " + " | ".join(f"`{level}`" for level in levels) + " |"]
    lines.append("| --- " * (1 + len(levels)) + "|")
    for key, words in SITUATIONS.items():
        lines.append(f"| {words} | " + " | ".join(results[level][1][key].cell() for level in levels) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument(
        "--teams", action=argparse.BooleanOptionalAction, default=None, help="default: the edition's default"
    )
    ap.add_argument("--matches", type=int, default=200, help="full matches for each level that does not search")
    ap.add_argument("--search-matches", type=int, default=30, help="full matches for hard and expert")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--levels", default="easy,medium,hard", help="the levels measured, in order")
    ap.add_argument("--human", default="medium", help="the level that plays the human's seat")
    ap.add_argument("--human-seat", default="0", help="the human's seat, or 'rotate'")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    levels = [name.strip() for name in args.levels.split(",")]
    unknown = [name for name in levels + [args.human] if name not in LEVELS]
    if unknown:
        ap.error(f"no level {', '.join(unknown)}: levels are {', '.join(LEVELS)}")
    try:
        probe = new_game(args.ruleset, players=args.players, teams=args.teams, seed=0)
    except (ValueError, KeyError) as exc:
        ap.error(f"no such table: {exc}")
    if probe.nsides < 3:
        ap.error(f"{probe.nsides} sides: a bot has one side to attack; take three sides or more")
    rotate = args.human_seat == "rotate"
    if not rotate and not (args.human_seat.isdigit() and int(args.human_seat) < args.players):
        ap.error(f"--human-seat: a seat from 0 to {args.players - 1}, or rotate")
    tasks = [
        Task(
            args.ruleset,
            args.players,
            probe.teams,
            args.seed,
            level,
            args.human,
            index % args.players if rotate else int(args.human_seat),
            index,
        )
        for level in levels
        for index in range(args.search_matches if level in SEARCHING_LEVELS else args.matches)
    ]
    seat = "seat i of match i, modulo the seats" if rotate else f"seat {args.human_seat}"
    print(
        f"{args.ruleset}, {args.players} players{' in teams' if probe.teams else ''}, deals of seed {args.seed}; "
        f"the human ({args.human}) on {seat}",
        flush=True,
    )
    start = time.perf_counter()
    attacks: dict[str, list[tuple[int, list[Attack]]]] = {level: [] for level in levels}
    seconds: dict[str, float] = {}
    with LocalExecutor(args.workers) as executor:
        for level in levels:
            began = time.perf_counter()
            mine = [t for t in tasks if t.level == level]
            for _, index, found in executor.map_unordered(play, mine):
                attacks[level].append((index, found))
            seconds[level] = time.perf_counter() - began
            print(f"{level}: {len(mine)} matches, {seconds[level]:.0f} s", flush=True)
    results = {}
    for level in levels:
        ordered = [a for _, found in sorted(attacks[level], key=lambda pair: pair[0]) for a in found]
        results[level] = tally(ordered)
    print()
    print(markdown(results, probe.nsides))
    print(f"\n{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
