"""Self-play: matches between bots written as game records, for offline training.

Each match is one JSON line: ``{"index", "seed", "bots" (spec per side), "record" (Game.record()),
"result" ({"winners", "match_scores", "hands", "decisions"})}``.  ``mb.replay(line["record"])``
rebuilds the finished game, so a record is also the full list of decisions with who made them.
Matches run in batches through the tournament executors (a local process pool or Ray).

Bots take the sides in turn: match ``i`` gives side ``s`` the bot ``bots[(s + i) % len(bots)]``,
so with two bots each takes every side equally often.

>>> lines = list(iter_selfplay(2, ["random", "greedy"], seed=1))
>>> [line["bots"] for line in lines]
[['random', 'greedy'], ['greedy', 'random']]
>>> import millebornes as mb
>>> mb.replay(lines[0]["record"]).winners == lines[0]["result"]["winners"]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from .rules import Ruleset
from .state import new_game
from .tournament import close_bots, is_external
from .tournament import make_player as make_player  # re-exported: cli selfplay builds its players here

if TYPE_CHECKING:
    from .executors import Executor


def _seed(seed: int, index: int) -> int:
    return random.Random(f"millebornes-selfplay/{seed}/{index}").getrandbits(31)


def play_record(
    ruleset: str | Ruleset, players: int, teams: bool | None, seed: int, bots: Sequence[str], hands: bool = False
) -> dict[str, Any]:
    """One match (or its first hand) between ``bots`` (a spec per side): its record and result."""
    game = new_game(ruleset, players=players, teams=teams, seed=seed)
    seat_bots: list[Any] = []  # bots or external programs (tournament.make_player)
    decisions = 0
    try:
        for s in range(players):
            seat_bots.append(make_player(bots[game.side_of(s)], _seed(seed, 1000 + s)))
        while not game.is_over and not (hands and game.hand_results):
            seat = game.to_act
            assert seat is not None  # the match goes on: a seat acts
            legal = game.legal_actions()
            action = legal[0] if len(legal) == 1 else seat_bots[seat].choose(game.observation(seat), legal)
            game.act(action, seat)
            decisions += 1
    finally:
        close_bots(seat_bots)
    result: dict[str, Any]
    if hands:
        result = {"winners": list(game.hand_results[0]["winners"]), "match_scores": list(game.match_scores)}
    else:
        result = {"winners": game.winners, "match_scores": list(game.match_scores)}
    result.update(hands=len(game.hand_results), decisions=decisions)
    return {"seed": seed, "bots": list(bots), "record": game.record(), "result": result}


Task = tuple[str | Ruleset, int, bool | None, bool, list[tuple[int, int, list[str]]]]
"""A batch of matches for an executor: ruleset, players, teams, hands only, and (index, seed, bots) per match."""


def play_batch(task: Task) -> list[dict[str, Any]]:
    """A batch of matches (the unit of work sent to an executor)."""
    ruleset, players, teams, hands, matches = task
    out = []
    for index, seed, bots in matches:
        line = play_record(ruleset, players, teams, seed, bots, hands=hands)
        out.append({"index": index, **line})
    return out


def iter_selfplay(
    games: int,
    bots: Sequence[str],
    ruleset: str | Ruleset = "classic",
    players: int = 2,
    teams: bool | None = None,
    seed: int = 0,
    hands: bool = False,
    executor: Executor | None = None,
    batch: int = 8,
) -> Iterator[dict[str, Any]]:
    """Yield one line (a dict) per match, in match order; see the module docstring."""
    from .executors import LocalExecutor

    bots = list(bots)
    if not bots:
        raise ValueError("give at least one bot")
    probe = new_game(ruleset, players=players, teams=teams, seed=0)
    for spec in bots:
        if not is_external(spec):
            make_player(spec, 0)  # ValueError for an unknown bot before any work is sent out
    nsides = probe.nsides
    matches = [(i, _seed(seed, i), [bots[(s + i) % len(bots)] for s in range(nsides)]) for i in range(games)]
    tasks: list[Task] = [
        (ruleset, players, teams, hands, matches[i : i + batch]) for i in range(0, len(matches), batch)
    ]
    own = executor is None
    executor = executor or LocalExecutor(1)
    done: dict[int, list[dict[str, Any]]] = {}
    next_index = 0
    try:
        for lines in executor.map_unordered(play_batch, tasks):  # yielded in match order as they complete
            done[lines[0]["index"]] = lines
            while next_index in done:
                batch_lines = done.pop(next_index)
                yield from batch_lines
                next_index += len(batch_lines)
    finally:
        if own:
            executor.close()


def write_selfplay(stream: IO[str], games: int, bots: Sequence[str], **kwargs: Any) -> int:
    """Write the JSON lines of :func:`iter_selfplay` to ``stream``; returns the number of matches."""
    n = 0
    for line in iter_selfplay(games, bots, **kwargs):
        stream.write(json.dumps(line, separators=(",", ":")) + "\n")
        n += 1
    return n


def read_records(path: str) -> Iterator[dict[str, Any]]:
    """The lines of a self-play file, one dict each."""
    with open(path, encoding="utf-8") as f:
        for text in f:
            if text.strip():
                yield json.loads(text)
