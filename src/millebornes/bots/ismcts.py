"""Information-set Monte Carlo tree search (single observer) over determinizations.

Each iteration deals a possible world from the bot's observation (:class:`Determinizer`), walks
the one shared tree with UCB using only the actions legal in that world (counting, for each child,
how often it was available), adds one node, plays the hand out with the fast greedy policy, and
backs up one reward per side.  The tree keys are action codes; the actor of each step is read from
the world, so the same tree serves every seat's decisions.

With ``widen=0`` the search is *flat*: no tree below the root actions, each one is played out to
the end of the hand by the greedy policy on the same sampled worlds (the ``hard`` and ``expert``
levels, with the neural network's move as the baseline).  With ``challenger="heuristic"`` the bot
searches only where the baseline move (greedy's, or ``baseline=neural``'s) and the challengers'
(``heuristic``, ``greedy``, ``neural``, joined by ``+``) differ, and then only those moves: a
*duel* on shared worlds, keeping the baseline move unless another does better by ``confidence``
standard errors.  Against the heuristic, in paired classic hands at 40 ms: the duel of greedy and
heuristic moves 54.5%, every legal action from greedy's move 56.1%, from the network's 57.9%
(1,600 hands each); at 30 ms, with the network's score lead as a prior the rival must also beat
(``prior``, the levels), 58.1% of 3,200 hands against 56.6% without; more playouts add nothing (docs/strength.md).
Playouts stop at the end of the hand (search worlds are ``clone(halt=True)``): the next deal is
never looked at.

The search is deterministic for a fixed seed and an iteration budget; a millisecond budget stops
earlier on a slow machine, so it is a cap, not a promise of the same game.
"""

from __future__ import annotations

import gc
import math
import random
import time
from typing import Any

from ..actions import ACTION_CODES, ACTION_NAMES, parse
from ..cards import BATTLE_HAZARDS, CARD_IDS, KIND_OF, REMEDY_OF, SAFETIES, SAFETY_OF, STOP
from ..determinize import Determinizer
from ..observation import Observation
from ..state import Game
from .base import Bot
from .match import chance_per_point, match_outcome
from .rollout import greedy_code, hand_win_share, play_first, play_out, side_reward


class _Node:
    __slots__ = ("children", "visits", "avail", "reward")

    def __init__(self, nsides: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = [0.0] * nsides


def hand_rewards(world: Game, hand: int, scale: float = 700.0) -> list[float]:
    """One reward in [0, 1] per side for the hand just played (:func:`side_reward`)."""
    return [side_reward(world, hand, s, scale) for s in range(world.nsides)]


def needed_remedies(observation: Observation) -> set[str]:
    """The remedies the observing seat's side must play before it runs again at full speed: the one
    for the hazard showing on its battle pile and the Roll that must follow it (or start the car),
    and End of Limit under a speed limit with more than 50 km to go (25s and 50s reach it)."""
    t = observation["tableaux"][observation["side"]]
    safeties = set(t["safeties"])
    right_of_way = "right-of-way" in safeties
    need: set[str] = set()
    if not t["moving"]:
        top = KIND_OF[t["battle"][-1]] if t["battle"] else -1
        if top in BATTLE_HAZARDS and CARD_IDS[SAFETY_OF[top]] not in safeties:
            need.add(CARD_IDS[REMEDY_OF[top]])
            if top != STOP and observation["options"]["roll_after_remedy"] and not right_of_way:
                need.add("roll")
        else:
            need.add("roll")
    if (
        not right_of_way
        and t["speed"]
        and t["speed"][-1] == "speed-limit"
        and observation["target"] - t["distance"] > 50
    ):
        need.add("end-of-limit")
    return need


def risky_discards(observation: Observation, codes: list[int]) -> tuple[dict[int, int], set[int]]:
    """Which of ``codes`` the search must not take on noise.

    First, each discard of a safety mapped to laying it: laying is never worse (100 points, the
    hazard cured now and barred for the rest of the hand, an extra turn in which the same discard is
    still open), so the discard is never a candidate.  Second, the discards of the last copy in hand
    of a needed remedy (:func:`needed_remedies`), which a careful player almost never makes: a rival
    that makes one must win its duel by ``guard`` standard errors (3: one chance in 700 between
    equal moves), not ``confidence`` (0.5: one in three), so that noise alone cannot carry it."""
    names = {ACTION_NAMES[code]: code for code in codes}
    lays = {
        names[f"discard {CARD_IDS[k]}"]: names[f"play {CARD_IDS[k]}"]
        for k in SAFETIES
        if f"discard {CARD_IDS[k]}" in names and f"play {CARD_IDS[k]}" in names
    }
    hand = observation["hand"]
    guarded = {
        names[f"discard {card}"]
        for card in needed_remedies(observation)
        if f"discard {card}" in names and hand.count(card) == 1
    }
    return lays, guarded


class Search:
    """One search from one observation; ``run`` spends a budget, ``choice`` and ``stats`` read it.

    The root is searched by sequential halving over *paired* samples: in each round every
    surviving action is played on the same sampled worlds, so actions are compared on equal cards
    (most of the luck of the deal cancels out), and the worse half is dropped.  Below each root
    action an ISMCTS tree grows: UCB with availability counts, widened progressively from the
    greedy policy's move, so a small budget is spent on likely lines.  A baseline action (the
    heuristic's, when given) is kept to the end and only abandoned for an action that beats it
    clearly on the same worlds: search adds to the heuristic instead of replacing it with noise.
    A safety is never discarded and the last copy of a needed remedy only for a rival that wins by
    ``guard`` standard errors (:func:`risky_discards`).
    """

    def __init__(
        self,
        observation: Observation,
        seed: int = 0,
        playout: str = "greedy",
        c: float = 0.7,
        baseline: str | None = None,
        widen: int = 8,
        confidence: float = 1.0,
        scale: float = 700.0,
        candidates: list[str] | None = None,
        prior: dict[str, float] | None = None,
        prior_weight: float = 0.0,
        guard: float = 3.0,
        match: bool = False,
        match_chances: bool = False,
        race: bool = False,
    ):
        self.scale = scale
        self.prior = {ACTION_CODES[a]: v for a, v in (prior or {}).items()}
        self.prior_weight = prior_weight
        self.det = Determinizer(observation)
        self.rng = random.Random(seed)
        self.playout = playout
        self.c = c
        self.widen = widen
        self.confidence = confidence
        self.guard = guard
        self.nsides = self.det.game.nsides
        to_act = self.det.game.to_act
        if to_act is None:
            raise ValueError("the match is over: there is no decision to search")
        self.side = self.det.game.side_of(to_act)
        self.root = _Node(self.nsides)
        self.match_to = target = self.det.game.ruleset.match_target
        """The points the edition plays the match to, or None where it plays one race."""
        self.match_target = target if match and target else None
        """With a match to play: a playout is scored by each side's chance of the match from the totals the hand
        leaves (bots/match.py), not by the hand's margin."""
        self.race = race and target is None
        """In an edition played as one race: a playout is scored by the side's share of the race's win alone, not
        also by its distance."""
        self.prior_scale = 1.0
        if self.match_target:  # the network's lead, in points, weighs what a point of lead is worth here
            self.prior_scale = chance_per_point(list(self.det.game.match_scores), self.side, self.match_target) / (
                0.5 / scale
            )
        self.actions = list(self.det.sample(random.Random(seed)).legal_codes())
        self.lays, self.guarded = risky_discards(observation, self.actions)
        if candidates:
            only = [ACTION_CODES[a] for a in candidates if ACTION_CODES.get(a) in self.actions]
            if only:
                self.actions = list(dict.fromkeys(only + [self.lays[c] for c in only if c in self.lays]))
        base = ACTION_CODES.get(baseline) if baseline else None
        if base is not None:
            base = self.lays.get(base, base)
        self.baseline: int | None = base if base in self.actions else None
        for code in self.actions:
            self.root.children[code] = _Node(self.nsides)
        self.samples: dict[int, dict[int, float]] = {code: {} for code in self.actions}
        self.wins: dict[int, float] = {code: 0.0 for code in self.actions}
        self.match_wins: dict[int, float] | None = (
            {code: 0.0 for code in self.actions} if target and (match or match_chances) else None
        )
        """With a match to play and ``match`` or ``match_chances``: the summed chance of the match after each
        action, whatever the reward (the hints show it)."""
        self.worlds = 0
        self.iterations = 0
        self.best: int | None = None
        self.rival: int | None = None  # the action that dueled the baseline, if any
        self.round_start = 0

    def run(self, iterations: int = 0, ms: float = 0, spend_all: bool = False) -> None:
        """Halve the root actions on two thirds of the budget; then, if the survivor is not the
        baseline, test the two on fresh worlds with the rest and keep the baseline unless beaten."""
        if not iterations and not ms:
            raise ValueError("give the search a budget: iterations or ms")
        start = time.perf_counter()
        deadline = start + ms / 1000 if ms else None
        survivors = [code for code in self.actions if code not in self.lays]
        if len(survivors) == 1:
            self.best = survivors[0]
            return
        budget = iterations
        if not budget:  # calibrate on one shared world, then spend what the clock allows
            assert deadline is not None  # no iterations: the budget is the clock's
            self._round(survivors, 1, deadline)
            rate = self.iterations / max(time.perf_counter() - start, 1e-6)
            budget = self.iterations + int(rate * (deadline - time.perf_counter()))
        baseline = self.baseline
        if len(survivors) == 2 and baseline is not None and baseline in survivors:
            # a duel: both actions on the same worlds with the whole budget; the baseline is kept
            # unless the other beats it clearly
            other = survivors[0] if survivors[1] == baseline else survivors[1]
            self._duel(survivors, other, baseline, budget, deadline)
            return
        halving = budget if self.baseline is None else budget * 2 // 3
        rounds = max(1, math.ceil(math.log2(len(survivors))))
        for r in range(rounds):
            left = halving - self.iterations
            if left <= 0 or len(survivors) == 1:
                break
            self._round(survivors, max(1, left // ((rounds - r) * len(survivors))), deadline)
            survivors.sort(key=lambda code: -self.mean(code))
            survivors = survivors[: max(1, math.ceil(len(survivors) / 2))]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(survivors, key=self.mean)
        base = self.baseline
        if base is None or best == base:
            self.best = best
            while spend_all and self.iterations < budget and (deadline is None or time.perf_counter() < deadline):
                self._round(self.actions, 1, deadline)
            return
        self.round_start = self.worlds
        self._duel([best, base], best, base, budget, deadline)

    def _duel(self, pair: list[int], best: int, base: int, budget: int, deadline: float | None) -> None:
        """Play both on the same worlds until the budget is spent; keep ``base`` unless beaten."""
        self.rival = best
        while self.iterations < budget and (deadline is None or time.perf_counter() < deadline):
            self._round(pair, 1, deadline)
        self.best = self._decide(best, base)

    def _decide(self, best: int, base: int) -> int:
        """``best`` if it beat ``base`` on the duel's worlds by ``confidence`` standard errors (``guard``
        for a guarded discard) plus the prior's margin (``prior_weight`` times the baseline's lead in
        ``prior``), else ``base``."""
        a, b = self.samples[best], self.samples[base]
        diffs = [a[w] - b[w] for w in a if w >= self.round_start and w in b]
        if len(diffs) < 2:
            return base
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        margin = (self.guard if best in self.guarded else self.confidence) * math.sqrt(var / len(diffs))
        if self.prior_weight and best in self.prior and base in self.prior:
            margin += self.prior_weight * self.prior_scale * max(0.0, self.prior[base] - self.prior[best])
        return best if mean > margin else base

    def mean(self, code: int) -> float:
        """The mean reward of a root action for the searching side so far (-1 before any playout)."""
        child = self.root.children[code]
        return child.reward[self.side] / child.visits if child.visits else -1.0

    def _round(self, survivors: list[int], worlds: int, deadline: float | None = None) -> None:
        side, rng, children, samples = self.side, self.rng, self.root.children, self.samples
        for _ in range(worlds):
            world = self.det.sample(rng)
            w = self.worlds
            self.worlds += 1
            for code in survivors:
                if self.widen:
                    samples[code][w] = self.iterate(world.clone(halt=True), code)[side]
                else:  # flat: the whole iteration in compiled code, only the root child to update
                    played = world.clone(halt=True)
                    reward, win = play_first(played, code, side, self.scale, rng, self.playout)
                    if self.match_wins is not None:
                        assert self.match_to is not None  # match_wins is kept only where a match is played
                        chance = match_outcome(played, self.match_to)[side]
                        self.match_wins[code] += chance
                        if self.match_target:
                            reward = chance
                    if self.race:
                        reward = win
                    samples[code][w] = reward
                    self.wins[code] += win
                    child = children[code]
                    child.visits += 1
                    child.reward[side] += reward
                    self.iterations += 1
                if deadline is not None and time.perf_counter() >= deadline:
                    return

    def iterate(self, world: Game, first: int) -> list[float]:
        """Play ``first`` in ``world``, walk and grow the tree below it (unless flat), play out to
        the end of the hand; back up rewards."""
        rng = self.rng
        hand = world.hand_number
        node = self.root.children[first]
        world.apply_legal(first)
        path = [self.root, node]
        c = self.c
        while self.widen and node.visits and not world.is_over and world.hand_number == hand:
            legal = world.legal_codes()
            if len(legal) == 1:
                world.apply_legal(legal[0])
                continue
            to_act = world.to_act
            assert to_act is not None  # the hand goes on: a seat acts
            side = world.side_of(to_act)
            children = node.children
            greedy = greedy_code(world, legal)
            if greedy not in children or len(children) < 1 + node.visits // self.widen:
                untried = [code for code in legal if code not in children]
                if untried:
                    code = greedy if greedy in untried else untried[int(rng.random() * len(untried))]
                    node = children[code] = _Node(self.nsides)
                    world.apply_legal(code)
                    path.append(node)
                    break
            best, best_value = greedy, -1.0
            for code in legal:
                child = children.get(code)
                if child is None:
                    continue
                child.avail += 1
                value = child.reward[side] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best_value, best = value, code
            node = children[best]
            world.apply_legal(best)
            path.append(node)
        if not world.is_over and world.hand_number == hand:
            play_out(world, rng, self.playout)
        if self.match_target:
            rewards = match_outcome(world, self.match_target)
        elif self.race:
            rewards = [hand_win_share(world, hand, s) for s in range(self.nsides)]
        else:
            rewards = hand_rewards(world, hand, self.scale)
        self.wins[first] += hand_win_share(world, hand, self.side)
        if self.match_wins is not None:
            assert self.match_to is not None  # match_wins is kept only where a match is played
            self.match_wins[first] += (
                rewards[self.side] if self.match_target else match_outcome(world, self.match_to)[self.side]
            )
        for node in path:
            node.visits += 1
            r = node.reward
            for s in range(self.nsides):
                r[s] += rewards[s]
        self.iterations += 1
        return rewards

    def stats(self) -> list[tuple[str, int, float]]:
        """(action, visits, mean reward for the side to act) for each root action, the choice first."""
        out = [
            (ACTION_NAMES[code], ch.visits, ch.reward[self.side] / ch.visits if ch.visits else 0.0)
            for code, ch in self.root.children.items()
        ]
        return sorted(out, key=lambda x: (ACTION_CODES[x[0]] != self.best, -x[1], -x[2], x[0]))


_POLICIES = ("greedy", "heuristic", "neural")


def _policy(name: str, seed: int) -> Bot:
    """A baseline or challenger policy; the network (NumPy) is loaded only when named."""
    if name == "neural":
        from .neural import NeuralBot

        return NeuralBot(seed=seed)
    if name == "heuristic":
        from .heuristic import HeuristicBot

        return HeuristicBot(seed=seed)
    from .rollout import GreedyBot

    return GreedyBot(seed=seed)


LEVEL = 0.05
"""Network scores this close are a tie (well under what its advice changes them by)."""


def level_attack(best: str, scores: dict[str, float], rng: random.Random) -> str:
    """The network's best move, or, where it is a hazard and the same hazard on another side scores as well (two
    sides level), any of those, so that a tie never goes to the lowest side number (a person's seat, on the web)."""
    move = parse(best)
    if move.verb != "attack":
        return best
    top = scores[best]
    level = [
        a for a, v in scores.items() if v >= top - LEVEL and (m := parse(a)).verb == "attack" and m.kind == move.kind
    ]
    return level[rng.randrange(len(level))] if len(level) > 1 else best


class IsmctsBot:
    """ISMCTS with a budget in iterations and/or milliseconds (whichever ends first).

    ``scale``: the points margin of the reward's tanh (700: points; 150: nearly the hand's
    result); ``widen``: how slowly the tree below a root action widens (0: no tree, flat
    playouts); ``baseline``: the policy whose move is kept unless beaten (``greedy``,
    ``heuristic``, ``neural``, ``none``); ``challenger``: policies joined by ``+`` whose moves
    alone are searched against the baseline's, and only where they differ; ``prior`` (with
    ``baseline=neural``): the network's score lead of its move over the rival, times ``prior``, is
    added to what the rival must win by (the network is seldom unsure, and then leads by little);
    ``guard``: the standard errors a rival that discards the last copy of a needed remedy must win
    by (:func:`risky_discards`); ``match=1``: score playouts by the side's chance of the match, in
    editions that play one (no clear gain over ``hard`` in 1,000 matches: docs/strength.md); ``race=1``: score
    playouts by the race's win alone, in editions played as one race."""

    name = "ismcts"
    """The bot's spec name."""

    def __init__(
        self,
        seed: int = 0,
        ms: float = 0,
        iterations: int = 0,
        playout: str = "greedy",
        c: float = 0.7,
        baseline: str = "greedy",
        confidence: float = 1.0,
        widen: int = 8,
        horizon: int = 1000,
        scale: float = 700.0,
        challenger: str = "none",
        prior: float = 0.0,
        guard: float = 3.0,
        match: int = 0,
        race: int = 0,
    ):
        if not ms and not iterations:
            ms = 50
        if playout not in ("greedy", "random"):
            raise ValueError(f"playout must be 'greedy' or 'random', not {playout!r}")
        if baseline not in _POLICIES and baseline != "none":
            raise ValueError(f"baseline must be one of {', '.join(_POLICIES)} or 'none', not {baseline!r}")
        if prior < 0 or (prior and baseline != "neural"):
            raise ValueError(f"prior must be 0 or more, and needs baseline=neural (its scores), not {prior!r}")
        self.seed, self.ms, self.iterations, self.playout, self.c = seed, ms, iterations, playout, c
        self.confidence, self.widen, self.horizon, self.scale = confidence, widen, horizon, scale
        self.prior, self.guard, self.match, self.race = prior, guard, bool(match), bool(race)
        names = [] if challenger == "none" else challenger.split("+")
        if not all(name in _POLICIES for name in names):
            raise ValueError(
                f"challenger must be 'none' or policies joined by '+' among {', '.join(_POLICIES)}, not {challenger!r}"
            )
        self.decisions = 0
        self.last: Search | None = None
        self.guide: Bot | None = None if baseline == "none" else _policy(baseline, seed)
        self.challengers = [_policy(name, seed) for name in names]

    def choose(self, observation: Observation, legal: list[str]) -> str:
        """The baseline's move unless the search finds a clearly better one within the budget."""
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        collecting = gc.isenabled()
        gc.disable()  # the tree holds no cycles; a full collection mid-decision would blow the time budget
        try:
            return self._choose(observation, legal, start)
        finally:
            if collecting:
                gc.enable()

    def _choose(self, observation: Observation, legal: list[str], start: float) -> str:
        from .neural import NeuralBot

        prior = None
        base: str | None
        if self.prior:
            guide = self.guide
            assert isinstance(guide, NeuralBot)  # a prior needs baseline=neural (__init__)
            values = guide.scores(observation, legal)
            prior = {a: float(v) for a, v in zip(legal, values)}
            base = level_attack(
                max(legal, key=prior.__getitem__), prior, random.Random(self.seed * 1_000_003 + self.decisions)
            )
        else:
            base = self.guide.choose(observation, legal) if self.guide is not None else None
        if base is not None and observation["stock_size"] > self.horizon and observation["decision"] == "play":
            return base  # early in the hand playouts are mostly luck: trust the heuristic
        candidates = None
        if self.challengers and base is not None:
            others = [bot.choose(observation, legal) for bot in self.challengers]
            candidates = list(dict.fromkeys([base] + others))
            self.last = None
            if len(candidates) == 1:
                return base  # the policies agree: nothing to search
        search = Search(
            observation,
            seed=self.seed * 1_000_003 + self.decisions,
            playout=self.playout,
            c=self.c,
            baseline=base,
            widen=self.widen,
            confidence=self.confidence,
            scale=self.scale,
            candidates=candidates,
            prior=prior,
            prior_weight=self.prior,
            guard=self.guard,
            match=self.match,
            race=self.race,
        )
        # the clock budget covers the whole decision: the advisors and the search's set-up too
        ms = max(1.0, self.ms - 1000 * (time.perf_counter() - start)) if self.ms else 0
        search.run(self.iterations, ms)
        self.last = search
        assert search.best is not None  # a run always chooses
        action = ACTION_NAMES[search.best]
        return action if action in legal else (base or legal[0])


def analyse(
    game: Game | Observation, seat: int | None = None, iterations: int = 2000, ms: float = 0, seed: int = 0
) -> list[dict[str, Any]]:
    """Each legal action of the seat to act, the search's choice first, with ``win_chance`` (the
    share of sampled hands the seat's side won after it), ``match_chance`` (in an edition played to a
    match target, the side's mean chance of the match from the totals those hands left, bots/match.py;
    else None), ``value`` (the search's reward, which also weighs the points margin) and ``visits``.

    The search sees that seat's observation only: the engine's (``game`` a game), or the one given
    (``game`` an observation of the seat to act), for an app that shows its players less than the
    engine does (the web's coup-fourré windows: docs/web-api.md)."""
    if isinstance(game, dict):
        obs = game
        if seat is not None and seat != obs["seat"]:
            raise ValueError(f"this is seat {obs['seat']}'s observation, not seat {seat}'s")
        seat = obs["seat"]
        if obs["is_over"] or obs["to_act"] != seat:
            raise ValueError(f"seat {seat} has no decision to analyse")
    else:
        if seat is None:
            seat = game.to_act
        if game.is_over or seat is None or seat != game.to_act:
            raise ValueError(f"seat {seat} has no decision to analyse")
        obs = game.observation(seat)
    legal = obs["legal_actions"]
    from .heuristic import HeuristicBot

    search = Search(obs, seed=seed, baseline=HeuristicBot(seed=seed).choose(obs, legal), match_chances=True)
    search.run(iterations, ms, spend_all=True)
    out: list[dict[str, Any]] = []
    for action in legal:
        code = ACTION_CODES[action]
        visits = search.root.children[code].visits
        out.append(
            {
                "action": action,
                "visits": visits,
                "win_chance": round(search.wins[code] / visits, 4) if visits else None,
                "match_chance": (
                    round(search.match_wins[code] / visits, 4) if visits and search.match_wins is not None else None
                ),
                "value": round(search.mean(code), 4) if visits else None,
            }
        )
    assert search.best is not None  # a run always chooses
    best = ACTION_NAMES[search.best]
    return sorted(out, key=lambda x: (x["action"] != best, -x["visits"], -(x["value"] or 0)))


__all__ = ["IsmctsBot", "Search", "analyse", "hand_rewards"]
