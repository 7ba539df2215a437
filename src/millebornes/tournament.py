"""Tournaments: seat-balanced, paired matches between bots, and the statistics of their results.

A tournament takes two or more bot specs (``"heuristic"``, ``"ismcts:ms=50"``, ``"cmd:python my_bot.py"``)
and a table of ``n`` sides.  Every pairing of bots (for two sides each unordered pair; for more sides each
combination of distinct bots, or cyclic fillings when there are fewer bots than sides) plays a number of
*deals*; each deal is one seed, replayed once per rotation of the bots over the sides, so every bot takes
every side equally often and meets the same shuffles.  Every pairing uses the same deals.

>>> from millebornes.tournament import schedule
>>> [(m["index"], m["entrants"], m["seed"] == schedule(["a", "b"], 2, 4, seed=1)[0]["seed"])
...  for m in schedule(["a", "b"], 2, 4, seed=1)[:2]]
[(0, [0, 1], True), (1, [1, 0], True)]

Matches run through an executor (:mod:`millebornes.executors`), in batches; results are sorted by
match index before the statistics, so the table never depends on completion order.

>>> from millebornes.tournament import wilson
>>> [round(x, 3) for x in wilson(8, 10)]
[0.49, 0.943]
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NotRequired, TextIO, TypedDict

from .bots import Bot, make_bot
from .rules import Ruleset
from .state import new_game

if TYPE_CHECKING:
    from .executors import Executor

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
ELO_BASE = 1500.0
"""The mean of every tournament's Elo ratings, so ratings read as above or below an average entrant."""

Factory = Callable[[str, int], Bot]
"""Builds a seat's bot from its spec and a seed, as :func:`make_player` does."""


class Scheduled(TypedDict):
    """One match of the schedule: which deal, and which bot plays each side."""

    index: int
    """The match's place in the schedule, from 0."""
    seed: int
    """The deal's seed: every seating of the deal gets the same shuffles."""
    entrants: list[int]
    """The bot index per side."""
    bots: list[str]
    """The bot spec per side."""
    pairing: int
    """Which group of bots meets, from 0."""
    deal: int
    """Which deal of the pairing, from 0."""
    rotation: int
    """Which seating of the deal: the bots move one side round per rotation."""


class DecisionTimes(TypedDict):
    """The seconds a side's bot spent in ``choose`` over one match."""

    count: int
    """The decisions timed."""
    total: float
    """The seconds they took together."""
    max: float
    """The seconds of the slowest one."""


class Forfeit(TypedDict):
    """Who broke a match, and how, in words for the table."""

    side: int
    """The side that forfeited, and so lost."""
    seat: int
    """The seat whose bot failed."""
    bot: str
    """That bot's spec."""
    message: str
    """What went wrong, in a line."""


class MatchResult(TypedDict):
    """What :func:`play_match` returns; JSON-ready."""

    winners: list[int]
    """The sides that won (several on a tie)."""
    points: list[int]
    """Points per side: the match totals, or the hand's with ``hands``."""
    decisions: int
    """The decisions the bots made in the match."""
    hands: int
    """The hands played."""
    time: list[DecisionTimes]
    """Per side."""
    forfeit: Forfeit | None
    """Who broke the match, or None when it was played out."""


class PlayedMatch(MatchResult):
    """A match result with its place in the schedule, as tournaments keep them."""

    index: int
    """The match's place in the schedule."""
    seed: int
    """The deal's seed, to replay the match."""
    entrants: list[int]
    """The bot index per side."""
    bots: list[str]
    """The bot spec per side."""


class BotRow(TypedDict):
    """One bot's line of the table: its results over every side it took."""

    bot: str
    """The bot's name in the table (its spec, told apart when two entrants share one)."""
    spec: str
    """The spec it was built from."""
    matches: int
    """The matches it played, once per side it took."""
    wins: float
    """Ties count as shares: a win shared by two sides is half a win."""
    win_rate: float
    """Its wins per match."""
    ci_low: float
    """The low end of the 95% interval of the win rate."""
    ci_high: float
    """The high end of that interval."""
    mean_points: float
    """Its side's mean points per match."""
    elo: float
    """Its rating from every head-to-head result, 1500 the tournament's average."""
    ms_mean: float
    """Its mean milliseconds per decision."""
    ms_max: float
    """Its slowest decision, in milliseconds."""
    decisions: int
    """The decisions it made."""
    forfeits: int
    """The matches it forfeited."""


class HeadToHead(TypedDict):
    """Two bots' results against each other, with the single-game and the paired-by-deal interval."""

    a: str
    """The first bot."""
    b: str
    """The second bot."""
    games: int
    """The matches in which they met."""
    a_score: float
    """The first bot's score against the second over those matches: 1 a win, 0.5 a tie."""
    b_score: float
    """The second bot's score against the first."""
    a_rate: float
    """The first bot's score per match."""
    ci_low: float
    """The low end of the 95% interval of that rate, match by match."""
    ci_high: float
    """The high end of that interval."""
    deals: int
    """The deals they met on."""
    paired_low: float
    """The low end of the interval of the rate deal by deal: the tighter, fair one when every deal is played in every
    seating."""
    paired_high: float
    """The high end of that interval."""


class ForfeitNote(TypedDict):
    """A forfeit as the table lists it, with the match to replay it."""

    index: int | None
    """The match's place in the schedule, or None for a result without one."""
    seed: int | None
    """The match's seed, to replay it, or None."""
    bot: str
    """The bot that forfeited."""
    message: str
    """What went wrong."""


class Summary(TypedDict):
    """The statistics of a set of results (:func:`summarize`); :func:`run_tournament` adds how it was run."""

    bots: list[str]
    """Every bot's name in the table, in the order of the specs."""
    table: list[BotRow]
    """One line per bot."""
    head_to_head: list[HeadToHead]
    """One line per pair of bots that met."""
    forfeits: list[ForfeitNote]
    """Every forfeit, in schedule order."""
    ruleset: NotRequired[str]
    """The edition played."""
    players: NotRequired[int]
    """The seats at each table."""
    teams: NotRequired[bool]
    """Whether the seats played in teams."""
    nsides: NotRequired[int]
    """The sides at each table."""
    hands: NotRequired[bool]
    """Whether each match was a single hand."""
    games: NotRequired[int]
    """The matches asked for per pairing."""
    seed: NotRequired[int]
    """The tournament's seed, to run it again."""
    matches: NotRequired[int]
    """The matches played."""
    seconds: NotRequired[float]
    """How long the tournament took."""
    results: NotRequired[list[PlayedMatch]]
    """Every match's result, in schedule order."""


BatchTask = tuple[str | Ruleset, int, bool | None, bool, Factory | None, list[Scheduled]]
"""What :func:`play_batch` gets: the table (ruleset, players, teams), hand mode, the factory and the matches."""


# ----------------------------------------------------------------------------------------- players
def is_external(spec: str) -> bool:
    """Whether a spec names a program that speaks the bot protocol (``cmd:COMMAND``)."""
    return spec.startswith("cmd:")


def make_player(spec: str, seed: int = 0) -> Bot:
    """The factory hook: an external bot for ``"cmd:COMMAND"``, a built-in bot otherwise."""
    if is_external(spec):
        from .protocol import ExternalBot  # lazily: the protocol is only needed for external bots

        return ExternalBot(spec[4:].strip(), seed=seed)
    return make_bot(spec, seed)


def close_bots(bots: Iterable[object]) -> None:
    """Close every bot that has a ``close`` (external programs), ignoring errors and ``None`` slots."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if close is not None:
            try:
                close()
            except Exception:
                pass


def parse_bot_options(values: Iterable[str]) -> list[str]:
    """Bot specs from ``--bots`` values: each value is split on commas unless it starts with ``cmd:``.

    >>> parse_bot_options(["heuristic,random", "cmd:python my_bot.py --x,y", " ismcts:ms=50 "])
    ['heuristic', 'random', 'cmd:python my_bot.py --x,y', 'ismcts:ms=50']

    A built-in spec with parameters takes its commas along: ``ismcts:iterations=400,playout=random``
    stays whole, since ``playout=random`` is no bot name.

    >>> parse_bot_options(["ismcts:iterations=400,playout=random,heuristic"])
    ['ismcts:iterations=400,playout=random', 'heuristic']
    """
    specs: list[str] = []
    for value in values:
        value = value.strip()
        if not value:
            continue
        if is_external(value):
            specs.append(value)
            continue
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            if "=" in part and ":" not in part and specs and ":" in specs[-1] and not is_external(specs[-1]):
                specs[-1] += "," + part  # a parameter of the spec before it
            else:
                specs.append(part)
    return specs


def bot_labels(specs: Sequence[str]) -> list[str]:
    """Names for the table: the specs, with ``#2``, ``#3`` added to repeated ones."""
    seen: dict[str, int] = {}
    labels: list[str] = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def _derived_seed(*parts: object) -> int:
    """A 31-bit seed from a tuple of values, the same in every process and Python version."""
    return random.Random("millebornes-tournament/" + "/".join(map(str, parts))).getrandbits(31)


def _clip(text: str, size: int = 80) -> str:
    return text if len(text) <= size else text[: size - 3] + "..."


# ------------------------------------------------------------------------------------------- a match
def play_match(
    ruleset: str | Ruleset,
    players: int,
    teams: bool | None,
    seed: int,
    bots: Sequence[str],
    hands: bool = False,
    time_decisions: bool = True,
    factory: Factory | None = None,
) -> MatchResult:
    """Play one match (or, with ``hands``, its first hand) between ``bots``, one spec per side.

    Partners share their side's spec; each seat gets its own bot, built by ``factory(spec, seed)``
    (default :func:`make_player`) with a seed derived from ``(seed, seat)``.  Bots see only
    ``game.observation(seat)`` and the legal actions.  A bot that raises, or answers something
    that is not a legal action, forfeits: the other sides win.  The result is JSON-ready:

    ``winners`` (sides), ``points`` (match scores, or the hand's points with ``hands``; with a
    forfeit the scores reached so far, zeros in hand mode), ``decisions``, ``hands`` (hands
    scored), ``time`` (per side: ``count``, ``total`` and ``max`` seconds of ``choose``) and
    ``forfeit`` (``None`` or ``{side, seat, bot, message}``).
    """
    factory = factory or make_player
    game = new_game(ruleset, players=players, teams=teams, seed=seed)
    nsides = game.nsides
    if len(bots) != nsides:
        raise ValueError(f"this table has {nsides} sides, but {len(bots)} bots were given")
    times: list[DecisionTimes] = [{"count": 0, "total": 0.0, "max": 0.0} for _ in range(nsides)]
    seat_bots: list[Bot | None] = [None] * players
    forfeit: Forfeit | None = None
    decisions = 0

    def lose(seat: int, words: str) -> Forfeit:
        side = game.side_of(seat)
        return {
            "side": side,
            "seat": seat,
            "bot": bots[side],
            "message": f"side {side} ({bots[side]}) forfeited: {words}",
        }

    try:
        for s in range(players):
            try:
                seat_bots[s] = factory(bots[game.side_of(s)], _derived_seed("bot", seed, s))
            except Exception as exc:  # an external program that does not start or greet
                forfeit = lose(s, _words(exc))
                break
        perf = time.perf_counter
        while forfeit is None and not game.is_over and not (hands and game.hand_results):
            seat = game.to_act
            assert seat is not None  # someone acts while the match is on
            legal = game.legal_actions()
            bot = seat_bots[seat]
            assert bot is not None  # every seat got its bot, or the match was forfeited
            start = perf()
            try:
                action = bot.choose(game.observation(seat), list(legal))
            except Exception as exc:
                forfeit = lose(seat, _words(exc))
                break
            if time_decisions:
                spent = perf() - start
                t = times[game.side_of(seat)]
                t["count"] += 1
                t["total"] += spent
                if spent > t["max"]:
                    t["max"] = spent
            if not isinstance(action, str) or action not in legal:
                forfeit = lose(seat, f"answered {_clip(repr(action))} which is not a legal action")
                break
            game.act(action, seat)
            decisions += 1
    finally:
        close_bots(seat_bots)

    if forfeit is not None:
        loser = forfeit["side"]
        winners = [s for s in range(nsides) if s != loser]
        points = [0] * nsides if hands else list(game.match_scores)
    elif hands:
        winners = list(game.hand_results[0]["winners"])
        points = list(game.hand_results[0]["points"])
    else:
        winners = list(game.winners)
        points = list(game.match_scores)
    return {
        "winners": winners,
        "points": points,
        "decisions": decisions,
        "hands": len(game.hand_results),
        "time": times,
        "forfeit": forfeit,
    }


def _words(exc: BaseException) -> str:
    """An exception in words: BotError messages as they are, others with their type."""
    if type(exc).__name__ == "BotError":
        return str(exc)
    return f"raised {type(exc).__name__}: {exc}" if str(exc) else f"raised {type(exc).__name__}"


# ------------------------------------------------------------------------------------------ schedule
def pairings(nbots: int, nsides: int) -> list[tuple[int, ...]]:
    """The groups of entrants that meet: pairs for two sides, combinations (or cyclic fillings) for more.

    >>> pairings(3, 2)
    [(0, 1), (0, 2), (1, 2)]
    >>> pairings(2, 3)
    [(0, 1, 0), (1, 0, 1)]
    """
    if nbots < 2:
        raise ValueError("a tournament needs at least two bots")
    if nsides < 2:
        raise ValueError("a tournament needs at least two sides")
    if nbots >= nsides:
        return list(itertools.combinations(range(nbots), nsides))
    return [tuple((start + k) % nbots for k in range(nsides)) for start in range(nbots)]


def deals_per_pairing(games: int, nsides: int) -> int:
    """Deals needed for at least ``games`` matches per pairing, each deal played once per rotation."""
    return max(1, math.ceil(games / nsides))


def schedule(specs: Sequence[str], nsides: int, games: int, seed: int = 0) -> list[Scheduled]:
    """Every match of the tournament, in a fixed order: ``index``, ``seed``, ``entrants`` (bot index
    per side), ``bots`` (spec per side), ``pairing``, ``deal`` and ``rotation``."""
    deals = deals_per_pairing(games, nsides)
    deal_seeds = [_derived_seed("deal", seed, d) for d in range(deals)]
    matches: list[Scheduled] = []
    for p, group in enumerate(pairings(len(specs), nsides)):
        for d, deal_seed in enumerate(deal_seeds):
            for r in range(nsides):
                entrants = [group[(side + r) % nsides] for side in range(nsides)]
                matches.append(
                    {
                        "index": len(matches),
                        "seed": deal_seed,
                        "entrants": entrants,
                        "bots": [specs[e] for e in entrants],
                        "pairing": p,
                        "deal": d,
                        "rotation": r,
                    }
                )
    return matches


# ------------------------------------------------------------------------------------------- running
def play_batch(task: BatchTask) -> list[PlayedMatch]:
    """Play a batch of scheduled matches (the unit of work sent to an executor)."""
    ruleset, players, teams, hands, factory, matches = task
    results: list[PlayedMatch] = []
    for m in matches:
        r = play_match(ruleset, players, teams, m["seed"], m["bots"], hands=hands, factory=factory)
        results.append(
            {**r, "index": m["index"], "seed": m["seed"], "entrants": list(m["entrants"]), "bots": list(m["bots"])}
        )
    return results


def run_tournament(
    specs: Sequence[str],
    ruleset: str | Ruleset = "classic",
    players: int = 2,
    teams: bool | None = None,
    games: int = 100,
    seed: int = 0,
    hands: bool = False,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    batch: int | None = None,
    factory: Factory | None = None,
) -> Summary:
    """Play a whole tournament and return its results and statistics (see :func:`summarize`).

    ``executor`` is a :mod:`millebornes.executors` executor (default: in-process);
    ``progress(done, total)`` is called as matches finish; ``factory(spec, seed)`` builds bots
    (default :func:`make_player`; it must be picklable for a process pool).

    Four hands, two deals each played in both seatings; :func:`format_table` prints the summary:

    >>> summary = run_tournament(["random", "heuristic"], games=4, hands=True, seed=1)
    >>> summary["matches"], [(row["bot"], row["matches"]) for row in summary["table"]]
    (4, [('random', 4), ('heuristic', 4)])
    """
    from .executors import LocalExecutor

    specs = list(specs)
    probe = new_game(ruleset, players=players, teams=teams, seed=0)  # ValueError for a bad table
    if factory is None:
        for spec in specs:
            if not is_external(spec):
                make_bot(spec, 0)  # ValueError for an unknown bot, before any work is sent out
    matches = schedule(specs, probe.nsides, games, seed)
    own = executor is None
    executor = executor or LocalExecutor(1)
    workers = max(1, int(getattr(executor, "workers", 1) or 1))
    if batch is None:
        batch = max(1, min(50, math.ceil(len(matches) / (workers * 20))))
    tasks: list[BatchTask] = [
        (ruleset, players, teams, hands, factory, matches[i : i + batch]) for i in range(0, len(matches), batch)
    ]
    results: list[PlayedMatch] = []
    start = time.perf_counter()
    try:
        if progress:
            progress(0, len(matches))
        for done in executor.map_unordered(play_batch, tasks):
            results.extend(done)
            if progress:
                progress(len(results), len(matches))
    finally:
        if own:
            executor.close()
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r["index"])
    summary = summarize(results, specs)
    summary["ruleset"] = probe.ruleset.name
    summary["players"] = players
    summary["teams"] = probe.teams
    summary["nsides"] = probe.nsides
    summary["hands"] = hands
    summary["games"] = games
    summary["seed"] = seed
    summary["matches"] = len(results)
    summary["seconds"] = round(seconds, 3)
    summary["results"] = results
    return summary


# ---------------------------------------------------------------------------------------- statistics
def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (ties counted as half wins); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    low = 0.0 if wins <= 0 else max(0.0, min(p, centre - half))
    high = 1.0 if wins >= n else min(1.0, max(p, centre + half))
    return low, high


def paired_interval(deal_scores: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal interval of a mean over deals, each deal's score the mean of its games.

    Every deal is played in every seating, so the luck of its cards is shared by both bots: the deals'
    scores vary less than single games do, and this interval is the tighter, honest one for a seat-balanced
    tournament.  (0, 1) with fewer than two deals."""
    n = len(deal_scores)
    if n < 2:
        return 0.0, 1.0
    mean = sum(deal_scores) / n
    var = sum((x - mean) ** 2 for x in deal_scores) / (n - 1)
    half = z * math.sqrt(var / n)
    return max(0.0, mean - half), min(1.0, mean + half)


def pair_score(result: MatchResult, a: int, b: int) -> float:
    """Side ``a``'s score against side ``b`` in one match: 1 a win, 0 a loss, 0.5 a tie.

    One of them among the winners beats the other, both among them tie; when neither won (a match
    of three or more sides) more points win.
    """
    winners = result["winners"]
    wa, wb = a in winners, b in winners
    if wa != wb:
        return 1.0 if wa else 0.0
    if wa:
        return 0.5
    pa, pb = result["points"][a], result["points"][b]
    return 1.0 if pa > pb else 0.0 if pa < pb else 0.5


def bradley_terry_elo(
    nbots: int, outcomes: dict[tuple[int, int], float], games: dict[tuple[int, int], float], prior: float = 1.0
) -> list[float]:
    """Elo ratings (mean 1500) from a maximum-likelihood Bradley-Terry fit.

    ``outcomes[i, j]`` is i's score against j (i < j) over ``games[i, j]`` games.  ``prior``
    virtual drawn games are added to every pair that met, so a bot that won (or lost) every game
    still gets a finite rating.  Fitted with Hunter's MM iterations; order-independent.
    """
    wins = [[0.0] * nbots for _ in range(nbots)]
    n = [[0.0] * nbots for _ in range(nbots)]
    for (i, j), g in games.items():
        if g <= 0:
            continue
        s = outcomes.get((i, j), 0.0)
        wins[i][j] += s + prior / 2
        wins[j][i] += g - s + prior / 2
        n[i][j] += g + prior
        n[j][i] += g + prior
    total_wins = [sum(row) for row in wins]
    p = [1.0] * nbots
    for _ in range(20000):
        new = []
        for i in range(nbots):
            denom = sum(n[i][j] / (p[i] + p[j]) for j in range(nbots) if n[i][j])
            new.append(total_wins[i] / denom if denom else p[i])
        logs = [math.log(x) for x in new]
        shift = sum(logs) / nbots
        new = [math.exp(x - shift) for x in logs]
        delta = max(abs(math.log(a / b)) for a, b in zip(new, p))
        p = new
        if delta < 1e-12:
            break
    elo = [400 * math.log10(x) for x in p]
    mean = sum(elo) / nbots
    return [ELO_BASE + e - mean for e in elo]


def summarize(results: Sequence[PlayedMatch], specs: Sequence[str]) -> Summary:
    """Per-bot table, head-to-head lines, Elo ratings and forfeit messages from match results.

    Each result needs ``entrants`` (bot index per side), ``winners``, ``points``, ``time`` and
    ``forfeit``; a bot on several sides of one match counts once per side.
    """
    nb = len(specs)
    labels = bot_labels(specs)
    matches = [0] * nb
    wins = [0.0] * nb
    points = [0.0] * nb
    t_count = [0] * nb
    t_total = [0.0] * nb
    t_max = [0.0] * nb
    forfeits = [0] * nb
    h2h_games: dict[tuple[int, int], float] = {}
    h2h_score: dict[tuple[int, int], float] = {}
    h2h_deals: dict[tuple[int, int], dict[int | None, list[float]]] = {}
    messages: list[ForfeitNote] = []
    for r in sorted(results, key=lambda r: r.get("index", 0)):
        entrants = r["entrants"]
        winners = r["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        for side, e in enumerate(entrants):
            matches[e] += 1
            if side in winners:
                wins[e] += share
            points[e] += r["points"][side]
            t = r["time"][side]
            t_count[e] += t["count"]
            t_total[e] += t["total"]
            t_max[e] = max(t_max[e], t["max"])
        f = r.get("forfeit")
        if f:
            forfeits[entrants[f["side"]]] += 1
            messages.append(
                {
                    "index": r.get("index"),
                    "seed": r.get("seed"),
                    "bot": labels[entrants[f["side"]]],
                    "message": f["message"],
                }
            )
        for a, b in itertools.combinations(range(len(entrants)), 2):
            i, j = entrants[a], entrants[b]
            if i == j:
                continue
            s = pair_score(r, a, b)
            if i > j:
                i, j, s = j, i, 1.0 - s
            h2h_games[i, j] = h2h_games.get((i, j), 0.0) + 1
            h2h_score[i, j] = h2h_score.get((i, j), 0.0) + s
            deal = h2h_deals.setdefault((i, j), {}).setdefault(r.get("seed"), [0.0, 0])
            deal[0] += s
            deal[1] += 1
    elo = bradley_terry_elo(nb, h2h_score, h2h_games)
    table: list[BotRow] = []
    for e in range(nb):
        low, high = wilson(wins[e], matches[e])
        table.append(
            {
                "bot": labels[e],
                "spec": specs[e],
                "matches": matches[e],
                "wins": wins[e],
                "win_rate": wins[e] / matches[e] if matches[e] else 0.0,
                "ci_low": low,
                "ci_high": high,
                "mean_points": points[e] / matches[e] if matches[e] else 0.0,
                "elo": elo[e],
                "ms_mean": 1000 * t_total[e] / t_count[e] if t_count[e] else 0.0,
                "ms_max": 1000 * t_max[e],
                "decisions": t_count[e],
                "forfeits": forfeits[e],
            }
        )
    head_to_head: list[HeadToHead] = []
    for (i, j), g in sorted(h2h_games.items()):
        s = h2h_score[i, j]
        low, high = wilson(s, g)
        deals = h2h_deals[i, j].values()
        paired_low, paired_high = paired_interval([total / count for total, count in deals])
        head_to_head.append(
            {
                "a": labels[i],
                "b": labels[j],
                "games": int(g),
                "a_score": s,
                "b_score": g - s,
                "a_rate": s / g,
                "ci_low": low,
                "ci_high": high,
                "deals": len(deals),
                "paired_low": paired_low,
                "paired_high": paired_high,
            }
        )
    return {"bots": labels, "table": table, "head_to_head": head_to_head, "forfeits": messages}


# ------------------------------------------------------------------------------------------- output
TABLE_COLUMNS = [
    "bot",
    "matches",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_points",
    "elo",
    "ms_mean",
    "ms_max",
    "forfeits",
]
"""The columns of :func:`write_csv`, in order: the table's keys a spreadsheet needs."""


def format_table(summary: Summary, max_forfeits: int = 5) -> str:
    """The per-bot table, the head-to-head lines and the first forfeit messages, as text."""
    table = summary["table"]
    width = max([len("bot")] + [len(row["bot"]) for row in table])
    lines: list[str] = []
    if "ruleset" in summary:
        what = "hands" if summary["hands"] else "matches"
        teams = " in teams" if summary.get("teams") else ""
        lines.append(
            f"{summary['ruleset']}, {summary['players']} players{teams}, {summary['matches']} {what} "
            f"(seed {summary['seed']}, {summary['seconds']:.1f} s)"
        )
    lines.append(
        f"{'bot':<{width}}  {'matches':>7}  {'wins':>7}  {'win rate':>8}  {'95% CI':>13}  "
        f"{'mean pts':>8}  {'Elo':>5}  {'ms/decision':>15}  {'forfeits':>8}"
    )
    lines.append(
        f"{'':<{width}}  {'':>7}  {'':>7}  {'':>8}  {'':>13}  {'':>8}  {'':>5}  {'mean':>7} {'max':>7}  {'':>8}"
    )
    for row in sorted(table, key=lambda r: -r["elo"]):
        ci = f"{100 * row['ci_low']:.1f}-{100 * row['ci_high']:.1f}%"
        lines.append(
            f"{row['bot']:<{width}}  {row['matches']:>7}  {row['wins']:>7g}  {100 * row['win_rate']:>7.1f}%"
            f"  {ci:>13}  {row['mean_points']:>8.1f}  {row['elo']:>5.0f}  {row['ms_mean']:>7.2f} "
            f"{row['ms_max']:>7.1f}  {row['forfeits']:>8}"
        )
    if summary["head_to_head"]:
        lines.append("")
        lines.append("head to head:")
        for h in summary["head_to_head"]:
            paired = (
                f"; paired by deal ({h['deals']} deals) {100 * h['paired_low']:.1f}-{100 * h['paired_high']:.1f}%"
                if h["deals"] >= 2 and h["deals"] < h["games"]
                else ""
            )
            lines.append(
                f"  {h['a']} vs {h['b']}: {h['a_score']:g}-{h['b_score']:g} in {h['games']} "
                f"({100 * h['a_rate']:.1f}%, 95% CI {100 * h['ci_low']:.1f}-{100 * h['ci_high']:.1f}%"
                f"{paired})"
            )
    forfeits = summary["forfeits"]
    if forfeits:
        lines.append("")
        lines.append(f"forfeits ({len(forfeits)}):")
        for f in forfeits[:max_forfeits]:
            lines.append(f"  match {f['index']} (seed {f['seed']}): {f['message']}")
        if len(forfeits) > max_forfeits:
            lines.append(f"  ... and {len(forfeits) - max_forfeits} more")
    return "\n".join(lines)


def write_csv(summary: Summary, stream: TextIO) -> None:
    """The per-bot table as CSV (the columns of ``TABLE_COLUMNS``), floats rounded to six places."""
    import csv

    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    for row in summary["table"]:
        cells: Mapping[str, object] = row
        writer.writerow([round(x, 6) if isinstance(x, float) else x for x in (cells[c] for c in TABLE_COLUMNS)])


def plot_win_rates(summary: Summary, path: str) -> None:
    """Draw each bot's win rate with its 95% interval to a PNG (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = sorted(summary["table"], key=lambda r: r["win_rate"])
    fig = Figure(figsize=(7, 1.2 + 0.5 * len(rows)))
    ax = fig.add_subplot()
    y = list(range(len(rows)))
    rates = [100 * r["win_rate"] for r in rows]
    err = [
        [max(0.0, 100 * (r["win_rate"] - r["ci_low"])) for r in rows],
        [max(0.0, 100 * (r["ci_high"] - r["win_rate"])) for r in rows],
    ]
    ax.barh(y, rates, xerr=err, color="#4c78a8", ecolor="black", capsize=4)
    ax.axvline(50, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y, [r["bot"] for r in rows])
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate, % (95% Wilson interval)")
    title = "tournament"
    if "ruleset" in summary:
        title = (
            f"{summary['ruleset']}, {summary['players']} players, {summary['matches']} "
            f"{'hands' if summary['hands'] else 'matches'}"
        )
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
