"""Game review: every decision of the chosen seats judged after the match, as chess sites do.

For each decision where the seat had a real choice, every legal action is played on the same possible
worlds (dealt from that seat's observation alone, :class:`~millebornes.determinize.Determinizer`) and
the hand is played out by the greedy policy.  An action's *value* is what is still at stake, in points: the
side's points margin in the hand, plus :data:`WIN_POINTS` times its chance of the match (each world's end of
hand mapped to a chance of the match by :func:`match_chances`), or of the race where the edition plays no match.
While the result is open, winning weighs; once it is settled, the points still tell good play from bad.  The
loss of the move played is the best action's value less its own, and the class follows from the loss
(:data:`THRESHOLDS`).  A decision's *stake* is the best action's value less the worst one's: a seat's accuracy
counts only the decisions with something at stake (:data:`MATTERS`), so that many near-equal choices (which card
to throw away when none will be needed) do not drown the few that decide the hand.  The chance of the hand is
given beside, as players read it.

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

REVIEW_FORMAT = "millebornes-review/3"
"""The format and version a review names (3: decisions judged in points of what is still at stake, the loss and
the stake in points, each move's expected points; 2 judged them by the chance of the hand alone)."""
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes of a decision, best first."""
THRESHOLDS = {"good": 5.0, "inaccuracy": 50.0, "mistake": 100.0, "blunder": 200.0}
"""The least loss (in points) of each class below ``best``; docs/review.md gives the figures behind them."""
SIGNIFICANCE = 2.0
"""A loss smaller than this many standard errors of the paired difference is at worst ``good``: the
worlds could not tell the two moves apart."""
WIN_POINTS = 1000.0
"""What winning is worth in points, beside the points themselves: the match where the edition plays one, else the
race.  About what a side scores in a hand, so that the points lead while the result is open, and still tell good
play from bad once it is settled (a match lost whatever one does)."""
DEFAULT_WORLDS = 1000
"""The possible worlds each decision is judged on, unless asked otherwise."""
MAX_WORLDS = 5000
"""The most worlds a review may ask for per decision."""
KEY_MOMENTS = 3
"""How many key moments a seat's summary lists."""
ACCURACY_SCALE = 120.0
"""A decision's accuracy is 100 exp(-loss / ACCURACY_SCALE), the loss in points less one standard error (the loss
the worlds are sure of): 66 for a 50-point loss, 43 for 100, 19 for 200."""
MATTERS = THRESHOLDS["inaccuracy"]
"""The least stake of a decision that a seat's accuracy counts: one where even the worst action loses less than
an inaccuracy tells nothing of the player, however many such decisions a match holds (docs/review.md)."""


def decision_seed(seed: int, index: int) -> int:
    """The seed of decision ``index``'s worlds: from the budget's seed and the index, nothing hidden."""
    digest = hashlib.sha256(f"millebornes-review/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def margin(world: Game, hand: int, side: int) -> float:
    """The side's points in hand ``hand`` of a played-out world less the other sides' mean (the distance, if the
    hand is unfinished)."""
    n = world.nsides
    got = world.hand_results[hand]["points"] if len(world.hand_results) > hand else world.distances
    return got[side] - (sum(got) - got[side]) / (n - 1) if n > 1 else float(got[side])


def judge(
    observation: Observation, index: int, played: str, worlds: int = DEFAULT_WORLDS, seed: int = 0
) -> dict[str, Any] | None:
    """One decision judged from the seat's observation (``played`` is the action taken), or None when
    there was nothing to choose: one legal action, or actions that end every world alike.

    Each action's value in a world is the side's points margin in the hand plus :data:`WIN_POINTS` times its
    chance of the match (of the race where there is no match): what is still at stake."""
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
    points = [0.0] * len(codes)
    values: list[list[float]] = [[] for _ in codes]
    for _ in range(worlds):
        world = det.sample(rng)
        for i, code in enumerate(codes):
            w = world.clone(halt=True)
            play_first(w, code, side, 700.0, unused, "greedy")
            row = hand_sum[i]
            for s in range(nsides):
                row[s] += hand_win_share(w, hand, s)
            won = hand_win_share(w, hand, side)
            if target is not None:
                row = match_sum[i]
                outcome = match_outcome(w, target)
                for s, x in enumerate(outcome):
                    row[s] += x
                won = outcome[side]
            m = margin(w, hand, side)
            points[i] += m
            values[i].append(m + WIN_POINTS * won)
    if all(v == values[0] for v in values[1:]):
        return None
    means = [sum(v) / worlds for v in values]
    p = legal.index(played)
    top = max(means)
    b = p if means[p] == top else means.index(top)
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
        "value": round(means[p], 1),
        "best_value": round(means[b], 1),
        "points": round(points[p] / worlds, 1),
        "best_points": round(points[b] / worlds, 1),
        "chance": round(hand_sum[p][side] / worlds, 4),
        "best_chance": round(hand_sum[b][side] / worlds, 4),
        "stake": round(top - min(means), 1),
        "match_chance": None if target is None else round(match_sum[p][side] / worlds, 4),
        "best_match_chance": None if target is None else round(match_sum[b][side] / worlds, 4),
        "sides": [round(x / worlds, 4) for x in hand_sum[p]],
        "match_sides": None if target is None else [round(x / worlds, 4) for x in match_sum[p]],
        "loss": round(loss, 1),
        "error": round(error, 1),
    }
    move["class"] = classify(loss, error)
    return move


def classify(loss: float, error: float = 0.0) -> str:
    """The class of a decision from its loss in points and the loss's standard error."""
    if loss < THRESHOLDS["good"]:
        return "best"
    if loss < SIGNIFICANCE * error:
        return "good"
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= THRESHOLDS[name]:
            return name
    return "good"


def move_accuracy(loss: float, error: float = 0.0) -> float:
    """One decision's accuracy in percent from its loss in points and the loss's standard error: 100 for the best
    move, or for a loss the worlds cannot tell from nothing."""
    return 100.0 * math.exp(-max(0.0, loss - error) / ACCURACY_SCALE)


def mattered(move: dict[str, Any]) -> bool:
    """Whether a judged move counts in its seat's accuracy: something was at stake (:data:`MATTERS`)."""
    return bool(move["stake"] >= MATTERS)


def accuracy(moves: Iterable[dict[str, Any]]) -> float | None:
    """A seat's accuracy in percent: the mean of :func:`move_accuracy` over its judged moves that mattered, each
    weighted by its stake, so that a decision counts as much as it could cost (lichess weighs its moves by the
    volatility around them); None without any."""
    counted = [(move_accuracy(m["loss"], m.get("error", 0.0)), float(m["stake"])) for m in moves if mattered(m)]
    if not counted:
        return None
    return round(sum(a * w for a, w in counted) / sum(w for _, w in counted), 1)


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
