"""Game review: every decision of the chosen seats judged after the match, as chess sites do.

For each decision where the seat had a real choice, every legal action is played on the same possible
worlds (dealt from that seat's observation alone, :class:`~millebornes.determinize.Determinizer`) and
the hand is played out by the greedy policy.  An action's *chance* is the share of those worlds in which
its side wins the hand; where the edition plays a match of several hands, its chance of the match is given
too (each world's end of hand mapped to a chance of the match by :func:`match_chances`).  A decision is
judged by the hand, as a player judges a move: the loss of the move played is the best action's chance less
its own, and the class follows from the loss (:data:`THRESHOLDS`); but a move with the best chance of the match
loses nothing.  A decision's *stake* is the best action's chance less the worst one's: a seat's accuracy counts
only the decisions with something at stake (:data:`MATTERS`), so that many near-equal choices (which card to
throw away when none will be needed) do not drown the few that decide the hand.

Everything a review draws comes from the budget's seed and the decision's index in the record, and the
search reads the seat's observation only: two records that differ in cards the seat never saw get the
same review of that seat, and a review is the same on every machine and in every process pool.

>>> import millebornes as mb
>>> from millebornes.bots import make_bot
>>> g = mb.new_game("dujardin", players=2, seed=3)
>>> bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)]
>>> while not g.is_over:
...     _ = g.act(bots[g.to_act].choose(g.observation(g.to_act), g.legal_actions()))
>>> r = review(g.record(), seats=[1], worlds=20)
>>> r["match_target"], {m["seat"] for m in r["moves"]}, sorted(r["summary"][0]["counts"]) == sorted(CLASSES)
(None, {1}, True)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any

from .actions import ACTION_CODES
from .bots.match import match_chances, match_outcome
from .bots.rollout import hand_win_share, play_first
from .determinize import Determinizer
from .notation import replay
from .observation import Observation
from .reasons import annotate
from .rules import ruleset
from .state import Game, new_game

REVIEW_FORMAT = "millebornes-review/2"
"""The format and version a review names (2: each move's stake, and the accuracy of the decisions that mattered)."""
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes of a decision, best first."""
THRESHOLDS = {"good": 0.005, "inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
"""The least loss (in chance, 0-1) of each class below ``best``; docs/review.md gives the figures behind them."""
SIGNIFICANCE = 2.0
"""A loss smaller than this many standard errors of the paired difference is at worst ``good``: the
worlds could not tell the two moves apart."""
DEFAULT_WORLDS = 1000
"""The possible worlds each decision is judged on, unless asked otherwise."""
MAX_WORLDS = 5000
"""The most worlds a review may ask for per decision."""
KEY_MOMENTS = 3
"""How many key moments a seat's summary lists."""
ACCURACY_SCALE = 0.045
"""A decision's accuracy is 100 exp(-ACCURACY_SCALE * loss in percentage points): 80 for a 5-point
loss, 51 for 15."""
MATTERS = THRESHOLDS["inaccuracy"]
"""The least stake of a decision that a seat's accuracy counts: one where even the worst action loses less than
an inaccuracy tells nothing of the player, however many such decisions a match holds (docs/review.md)."""


def decision_seed(seed: int, index: int) -> int:
    """The seed of decision ``index``'s worlds: from the budget's seed and the index, nothing hidden."""
    digest = hashlib.sha256(f"millebornes-review/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def judge(
    observation: Observation, index: int, played: str, worlds: int = DEFAULT_WORLDS, seed: int = 0
) -> dict[str, Any] | None:
    """One decision judged from the seat's observation (``played`` is the action taken), or None when
    there was nothing to choose: one legal action, or actions that end every world alike."""
    legal = observation["legal_actions"]
    if len(legal) < 2:
        return None
    rules = ruleset(observation["ruleset"], **observation["options"])
    target = rules.match_target
    side, hand = observation["side"], observation["hand_number"]
    nsides = len(observation["sides"])
    codes = [ACTION_CODES[a] for a in legal]
    det = Determinizer(observation)
    rng = random.Random(decision_seed(seed, index))
    unused = random.Random(0)  # the greedy playout draws nothing
    hand_sum = [[0.0] * nsides for _ in codes]
    match_sum = [[0.0] * nsides for _ in codes]
    values: list[list[float]] = [[] for _ in codes]
    for _ in range(worlds):
        world = det.sample(rng)
        for i, code in enumerate(codes):
            w = world.clone(halt=True)
            play_first(w, code, side, 700.0, unused, "greedy")
            row = hand_sum[i]
            for s in range(nsides):
                row[s] += hand_win_share(w, hand, s)
            values[i].append(hand_win_share(w, hand, side))
            if target is not None:
                row = match_sum[i]
                for s, x in enumerate(match_outcome(w, target)):
                    row[s] += x
    if all(v == values[0] for v in values[1:]) and all(m == match_sum[0] for m in match_sum[1:]):
        return None
    means = [sum(v) / worlds for v in values]
    p = legal.index(played)
    top = max(means)
    match_best = target is not None and match_sum[p][side] >= max(row[side] for row in match_sum)
    b = p if means[p] == top or match_best else means.index(top)  # a move the match prefers loses nothing
    diffs = [x - y for x, y in zip(values[b], values[p])]
    loss = means[b] - means[p]
    spread = math.sqrt(sum((d - loss) ** 2 for d in diffs) / (worlds - 1)) if worlds > 1 else 0.0
    error = spread / math.sqrt(worlds)
    move: dict[str, Any] = {
        "index": index,
        "seat": observation["seat"],
        "side": side,
        "hand": hand,
        "played": played,
        "best": legal[b],
        "options": len(legal),
        "chance": round(means[p], 4),
        "best_chance": round(means[b], 4),
        "stake": round(top - min(means), 4),
        "match_chance": None if target is None else round(match_sum[p][side] / worlds, 4),
        "best_match_chance": None if target is None else round(match_sum[b][side] / worlds, 4),
        "sides": [round(x / worlds, 4) for x in hand_sum[p]],
        "match_sides": None if target is None else [round(x / worlds, 4) for x in match_sum[p]],
        "loss": round(loss, 4),
        "error": round(error, 4),
    }
    move["class"] = classify(loss, error)
    return move


def classify(loss: float, error: float = 0.0) -> str:
    """The class of a decision from its loss in chance and the loss's standard error."""
    if loss < THRESHOLDS["good"]:
        return "best"
    if loss < SIGNIFICANCE * error:
        return "good"
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= THRESHOLDS[name]:
            return name
    return "good"


def move_accuracy(loss: float) -> float:
    """One decision's accuracy in percent from its loss in chance (0-1): 100 for the best move."""
    return 100.0 * math.exp(-ACCURACY_SCALE * 100.0 * loss)


def mattered(move: dict[str, Any]) -> bool:
    """Whether a judged move counts in its seat's accuracy: something was at stake (:data:`MATTERS`)."""
    return bool(move["stake"] >= MATTERS)


def accuracy(moves: Iterable[dict[str, Any]]) -> float | None:
    """A seat's accuracy in percent: the mean of :func:`move_accuracy` over its judged moves that mattered
    (None without any)."""
    scores = [move_accuracy(m["loss"]) for m in moves if mattered(m)]
    if not scores:
        return None
    return round(sum(scores) / len(scores), 1)


def decisions(
    record: dict[str, Any], seats: Iterable[int] | None = None
) -> tuple[list[tuple[Observation, int, str]], dict[int, int]]:
    """The decisions of ``seats`` (all by default) in a finished match: (observation, index, action played)
    for each with more than one legal action, and how many forced ones each seat had."""
    game = _start(record)
    if seats is None:
        seats = range(game.players)
    chosen = set(seats)
    bad = [s for s in chosen if not (isinstance(s, int) and 0 <= s < game.players)]
    if bad or not chosen:
        raise ValueError(f"seats to review are 0 to {game.players - 1}, not {sorted(chosen, key=str)}")
    out: list[tuple[Observation, int, str]] = []
    forced = {s: 0 for s in sorted(chosen)}
    for index, action in enumerate(record["actions"]):
        seat = game.to_act
        if seat is not None and seat in chosen:
            obs = game.observation(seat)
            if len(obs["legal_actions"]) > 1:
                out.append((obs, index, action))
            else:
                forced[seat] += 1
        game.act(action)
    if not game.is_over:
        raise ValueError("only a finished match is reviewed: this record's match is still being played")
    return out, forced


def _start(record: dict[str, Any]) -> Game:
    """The record's game before its first action (the record is checked whole by :func:`replay`)."""
    replay(record)
    rules = ruleset(record["ruleset"], **(record.get("options") or {}))
    return new_game(
        rules, players=record["players"], teams=record.get("teams"), seed=record["seed"], deck=record.get("deck")
    )


def _judge_many(
    batch: list[tuple[Observation, int, str]], worlds: int, seed: int
) -> list[tuple[int, dict[str, Any] | None]]:
    return [(index, judge(obs, index, played, worlds, seed)) for obs, index, played in batch]


def review(
    record: dict[str, Any],
    seats: Iterable[int] | None = None,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    batch: int = 4,
) -> dict[str, Any]:
    """The review of a finished match's record for ``seats`` (all by default); the same for the same
    record, seats, worlds and seed, whatever ``executor`` runs the decisions."""
    if not isinstance(worlds, int) or not 2 <= worlds <= MAX_WORLDS:
        raise ValueError(f"worlds is a whole number from 2 to {MAX_WORLDS}, not {worlds!r}")
    todo, forced = decisions(record, seats)
    total = len(todo)
    batches = [todo[i : i + batch] for i in range(0, total, batch)]
    judged: dict[int, dict[str, Any] | None] = {}
    done = 0
    if progress:
        progress(0, total)
    results: Iterable[list[tuple[int, dict[str, Any] | None]]]
    if executor is None:
        results = (_judge_many(b, worlds, seed) for b in batches)
    else:
        results = executor.map(_judge_many, batches, [worlds] * len(batches), [seed] * len(batches))
    for part in results:
        judged.update(part)
        done += len(part)
        if progress:
            progress(done, total)
    return assemble(record, todo, forced, judged, worlds, seed)


def assemble(
    record: dict[str, Any],
    todo: list[tuple[Observation, int, str]],
    forced: dict[int, int],
    judged: dict[int, dict[str, Any] | None],
    worlds: int,
    seed: int,
) -> dict[str, Any]:
    """The review from :func:`decisions`' answer and each decision's :func:`judge` (by index), however they
    were computed."""
    forced = dict(forced)
    for obs, index, _ in todo:
        if judged[index] is None:
            forced[obs["seat"]] += 1
    moves = [move for _, index, _ in todo if (move := judged[index]) is not None]
    annotate(moves, {index: obs for obs, index, _ in todo})  # why the better move is better (reasons.py)
    rules = ruleset(record["ruleset"], **(record.get("options") or {}))
    return {
        "format": REVIEW_FORMAT,
        "match_target": rules.match_target,
        "budget": {"worlds": worlds, "seed": seed},
        "thresholds": dict(THRESHOLDS),
        "seats": sorted(forced),
        "moves": moves,
        "summary": [summarize(seat, moves, forced[seat]) for seat in sorted(forced)],
    }


def summarize(seat: int, moves: list[dict[str, Any]], forced: int) -> dict[str, Any]:
    """One seat's accuracy, how many decisions of each class and how many mattered, and its key moments: the
    decisions after which its side's chance of the hand moved most since its previous one (luck included), in
    the order played."""
    mine = [m for m in moves if m["seat"] == seat]
    counts = {name: sum(1 for m in mine if m["class"] == name) for name in CLASSES}
    swings = []
    previous: dict[str, Any] | None = None
    for m in mine:
        after = m["sides"][m["side"]]
        start = previous["sides"][previous["side"]] if previous and previous["hand"] == m["hand"] else m["best_chance"]
        swings.append((abs(after - start), m["index"], round(after - start, 4)))
        previous = m
    key = sorted(swings, key=lambda s: (-s[0], s[1]))[:KEY_MOMENTS]
    return {
        "seat": seat,
        "accuracy": accuracy(mine),
        "judged": len(mine),
        "mattered": sum(1 for m in mine if mattered(m)),
        "forced": forced,
        "counts": counts,
        "key_moments": [{"index": i, "swing": d} for _, i, d in sorted(key, key=lambda s: s[1])],
    }


__all__ = [
    "CLASSES",
    "DEFAULT_WORLDS",
    "MATTERS",
    "REVIEW_FORMAT",
    "THRESHOLDS",
    "accuracy",
    "assemble",
    "classify",
    "decisions",
    "judge",
    "match_chances",
    "mattered",
    "move_accuracy",
    "review",
    "summarize",
]
