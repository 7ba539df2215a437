"""Mille Bornes as an OpenSpiel game (the ``openspiel`` extra: ``pip install 'millebornes[openspiel]'``).

Importing this module registers Python games with ``pyspiel``: ``python_millebornes`` (the edition is its
``ruleset`` parameter, ``classic`` by default) and one per edition, ``python_millebornes_classic``,
``python_millebornes_parker``, ``python_millebornes_dujardin`` and ``python_millebornes_family``. Parameters:
``players`` (2), ``teams`` (false), ``reward`` (``match`` or ``hand``, as the PettingZoo environment pays them),
``match_target`` (-1: the edition's; 0: one race is the match) and ``max_hands`` (the most hands a match lasts:
OpenSpiel needs a bound on a game's length).

pyspiel fills in a parameter's default before the game sees its parameters, so a game cannot tell ``teams``
left out from ``teams=false``; and a parameter keeps its default's type, so it cannot default to "unset".
``teams=false`` therefore means "the edition's way" where the edition seats that many players in teams only
(classic and parker with 4 or 6, dujardin with 6 or 8: ``python_millebornes(players=4)`` is two teams of two),
and "alone" where the edition allows both (dujardin with 4 plays alone unless ``teams=true``). ``teams=true`` asks
for teams, and a table the edition does not have (``players=3,teams=true``, or 5 in classic) is refused with the
engine's message. The game's parameters then name the table it plays (``teams=True`` for four in classic).

``millebornes.env.openspiel_evaluator.EngineRolloutEvaluator`` is the leaf evaluation for OpenSpiel's MCTS
and ISMCTS that plays its rollouts in the compiled engine.

The true game tree: every card of a deal and every draw from the stock is a chance node whose outcomes are
the card kinds (0-18, ``cards.CARD_IDS``) still in the stock, each with its share of it. The engine decides
everything else: the player actions are its codes (206 distinct, ``legal_codes()`` sorted) and a coup-fourré
question goes to the seat holding the safety, as the engine asks it. Observations come from
``Game.observation(seat)`` only.

>>> import pyspiel
>>> game = pyspiel.load_game("python_millebornes_family", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 19)
>>> while state.is_chance_node():  # deal the highest kinds left: the safeties first
...     state.apply_action(state.chance_outcomes()[-1][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:3]
(0, ['play right-of-way', 'play extra-tank', 'play puncture-proof'])
>>> state.information_state_string(0)[:58]
'seat 0: hand 0, +driving-ace, +puncture-proof, +extra-tank'
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..actions import ACTION_CODES, ACTION_NAMES
from ..bots import make_bot
from ..bots.encode import StateEncoder
from ..bots.features import NUM_ACTIONS, STATE_SIZE
from ..cards import CARD_IDS, KIND_OF, NUM_KINDS
from ..determinize import Determinizer
from ..observation import Observation
from ..rules import RULESETS, Ruleset, ruleset
from ..state import HAND_SIZE, Game, new_game
from .rewards import REWARDS, side_rewards

MAX_HANDS = 100
"""The default bound on a match's hands; a match still going after it ends, won by the highest total."""
SHORT_NAME = "python_millebornes"
"""The registered name of the game whose edition is a parameter; each edition's name adds ``_<edition>``."""

_TABLE_PARAMS: dict[str, Any] = {"players": 2, "teams": False, "reward": "match", "match_target": -1}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


@dataclass(frozen=True)
class _Setup:
    """What every state of one game shares: the table and the reward rules."""

    rules: Ruleset
    players: int
    teams: bool
    nsides: int
    seat_sides: tuple[int, ...]
    deck: tuple[int, ...]
    reward: str
    max_hands: int
    hands_bound: int


def _lists(counts: list[list[int]]) -> list[list[int]]:
    return [[k for k, n in enumerate(row) for _ in range(n)] for row in counts]


def _stock_list(stock: list[int]) -> list[int]:
    """The engine's stock for these counts, in one fixed order: which card a draw takes is a chance outcome."""
    return [k for k, n in enumerate(stock) for _ in range(n)]


class _Table:
    """The mutable part of a state, copied by ``game.clone()`` rather than ``deepcopy`` (OpenSpiel deep-copies a
    Python state's attributes to clone it).

    At a decision or the end, ``game`` is the engine's match and its stock holds exactly ``stock`` in the order
    of :func:`_stock_list`. After an action that draws, ``base`` is the engine as the action left it with the
    drawn cards taken back, and ``draws`` lists the seats still to receive a card, in order: each chance outcome
    gives one, and the last one makes ``game`` again. ``base`` is never shown to anyone, so it never caches
    legal actions of a hand that is not the real one."""

    __slots__ = ("setup", "game", "base", "hands", "stock", "draws", "log", "rewards", "returns", "over", "winners")

    def __init__(self, setup: _Setup, game: Game):
        self.setup = setup
        self.game = game
        self.base: Game | None = None
        self.hands = [[0] * NUM_KINDS for _ in range(setup.players)]
        self.stock = list(setup.deck)
        self.draws: list[int] = []
        self.log: list[tuple[int, str]] = []
        """What happened, as (seat, text): seat -1 for what everyone sees, else the one seat that sees it."""
        self.rewards = [0.0] * setup.players
        self.returns = [0.0] * setup.players
        self.over = False
        self.winners: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        t = _Table.__new__(_Table)
        t.setup = self.setup
        t.game = self.game.clone()
        t.base = self.base.clone() if self.base is not None else None
        t.hands = [row[:] for row in self.hands]
        t.stock = self.stock[:]
        t.draws = self.draws[:]
        t.log = self.log[:]
        t.rewards = self.rewards[:]
        t.returns = self.returns[:]
        t.over = self.over
        t.winners = self.winners[:]
        return t

    def view(self) -> Game:
        """The engine as the table stands now (during a deal, with the cards dealt so far)."""
        if self.base is None:
            return self.game
        return self.base.redealt(_lists(self.hands), _stock_list(self.stock), 0)

    def world(self, rng: random.Random) -> Game:
        """The engine's game to play on from here: any cards still to deal dealt at random from the stock, the
        stock shuffled and a fresh seed for the hands to come. It holds every hidden card: for search only."""
        hands = [row[:] for row in self.hands]
        stock = self.stock[:]
        for seat in self.draws:
            pick = int(rng.random() * sum(stock))
            kind = 0
            while pick >= stock[kind]:
                pick -= stock[kind]
                kind += 1
            hands[seat][kind] += 1
            stock[kind] -= 1
        order = _stock_list(stock)
        rng.shuffle(order)
        base = self.base if self.base is not None else self.game
        return base.redealt(_lists(hands), order, rng.getrandbits(31))

    def deal(self, game: Game) -> None:
        """The engine just dealt a hand: take every card back and deal it again as chance outcomes."""
        setup = self.setup
        self.hands = [[0] * NUM_KINDS for _ in range(setup.players)]
        self.stock = list(setup.deck)
        first_draws = [s for s in range(setup.players) for _ in range(game.hand_size(s) - HAND_SIZE)]
        self.draws = [s for s in range(setup.players) for _ in range(HAND_SIZE)] + first_draws
        self.base = game.redealt(_lists(self.hands), _stock_list(self.stock), 0)
        self.log.append((-1, f"hand {game.hand_number}"))

    def act(self, seat: int, code: int) -> None:
        """A player's action, then the chance nodes for the cards the engine drew after it."""
        setup = self.setup
        game = self.game
        order = _stock_list(self.stock)
        name = ACTION_NAMES.get(code, f"code {code}")  # the engine refuses an unknown code as it does a bad action
        events = game.act(name)
        self.log.append((-1, f"{seat}: {name}"))
        self.rewards = [0.0] * setup.players
        dealt = False
        drawn: list[tuple[int, int]] = []
        for event in events:
            if event["type"] == "draw":
                drawn.append((event["seat"], order.pop()))
            elif event["type"] == "hand-over" and setup.reward == "hand":
                self.pay(list(event["winners"]))
            elif event["type"] == "deal":  # the next hand: its cards, and its first draw, are dealt afresh
                dealt = True
                break
        capped = dealt and game.hand_number >= setup.max_hands
        if dealt and not capped:
            self.deal(game)
            return
        self.hands = [row[:] for row in game.hand_counts]
        if game.is_over:
            self.end(game.winners)
        elif capped:
            scores = game.match_scores
            self.end([s for s in range(setup.nsides) if scores[s] == max(scores)])
        elif drawn:
            for s, k in drawn:
                self.hands[s][k] -= 1
            self.draws = [s for s, _ in drawn]
            self.base = game.redealt(_lists(self.hands), _stock_list(self.stock), 0)

    def give(self, kind: int) -> None:
        """A chance outcome: the next seat waiting for a card gets one of this kind from the stock."""
        seat = self.draws.pop(0)
        self.hands[seat][kind] += 1
        self.stock[kind] -= 1
        self.log.append((seat, f"+{CARD_IDS[kind]}"))
        if not self.draws:
            assert self.base is not None
            self.game = self.base.redealt(_lists(self.hands), _stock_list(self.stock), 0)
            self.base = None

    def pay(self, winners: list[int]) -> None:
        per_side = side_rewards(winners, self.setup.nsides)
        for seat, side in enumerate(self.setup.seat_sides):
            self.rewards[seat] += per_side[side]
            self.returns[seat] += per_side[side]

    def end(self, winners: list[int]) -> None:
        self.over = True
        self.winners = winners
        if self.setup.reward == "match":
            self.pay(winners)


def table_teams(rules: Ruleset, players: int, teams: bool) -> bool:
    """The ``teams`` parameter as the table plays it. pyspiel fills in a parameter's default before the game
    sees it, so ``false`` also stands for "not given": where the edition seats this many players in teams only
    (classic or parker with 4 or 6, dujardin with 6 or 8), ``false`` is the edition's way and means teams.
    Where the edition allows both (dujardin with 4), ``false`` keeps the players alone; ``true`` asks for teams
    and the engine refuses it where the edition has none for that count."""
    if not teams and not rules.allows(players, False) and rules.allows(players, True):
        return True
    return teams


def _setup(rules: Ruleset, params: dict[str, Any]) -> _Setup:
    reward = params["reward"]
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
    target = params["match_target"]
    if target >= 0:
        rules = ruleset(rules, match_target=target or None)
    max_hands = params["max_hands"]
    if max_hands < 1:
        raise ValueError(f"max_hands must be at least 1, not {max_hands}")
    probe = new_game(
        rules, players=params["players"], teams=table_teams(rules, params["players"], params["teams"]), seed=0
    )
    return _Setup(
        rules=rules,
        players=probe.players,
        teams=probe.teams,
        nsides=probe.nsides,
        seat_sides=probe.seat_sides,
        deck=rules.deck_counts(probe.players),
        reward=reward,
        max_hands=max_hands,
        hands_bound=1 if rules.match_target is None else max_hands,
    )


def _game_type(short_name: str, reward: str, spec: dict[str, Any]) -> Any:
    model = pyspiel.GameType.RewardModel.REWARDS if reward == "hand" else pyspiel.GameType.RewardModel.TERMINAL
    edition = short_name[len(SHORT_NAME) + 1 :]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Mille Bornes{f' ({edition})' if edition else ''}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=model,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class MilleBornesGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """One OpenSpiel game: an edition, a table and a reward mode (see the module docstring)."""

    def __init__(self, params: dict[str, Any], short_name: str = SHORT_NAME):
        spec = _spec(short_name)
        params = {**spec, **params}
        edition = params.get("ruleset", short_name[len(SHORT_NAME) + 1 :])
        self.setup = _setup(ruleset(edition), params)
        """The table and the reward rules every state of this game shares."""
        setup = self.setup
        params["teams"] = setup.teams  # the game's parameters name the table it plays (see table_teams)
        worst = -1.0 / (setup.nsides - 1)
        hands = setup.hands_bound if setup.reward == "hand" else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_KINDS,
            num_players=setup.players,
            min_utility=worst * hands,
            max_utility=1.0 * hands,
            utility_sum=0.0,
            # a hand's decisions: plays and discards (each takes a card from a hand: the deck, and the discards
            # taken back, at most one per stock draw), as many draw decisions and coup-fourre questions, 1 extension
            max_game_length=setup.hands_bound * (6 * sum(setup.deck) + 1),
        )
        super().__init__(_game_type(short_name, setup.reward, spec), info, params)
        first = new_game(setup.rules, players=setup.players, teams=setup.teams, seed=0)
        self._initial = _Table(setup, first)
        self._initial.deal(first)

    def new_initial_state(self) -> MilleBornesState:
        """A match about to be dealt: the first chance node gives seat 0 its first card."""
        return MilleBornesState(self, copy.deepcopy(self._initial))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> MilleBornesObserver:
        """The observer OpenSpiel asks for: perfect recall gives the information state, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own view is supported (private_info=SINGLE_PLAYER)")
        return MilleBornesObserver(perfect_recall=iig_obs_type is not None and iig_obs_type.perfect_recall)


class MilleBornesState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A position of the game tree: a decision of a seat, a chance node (a card dealt or drawn), or the end."""

    def __init__(self, game: MilleBornesGame, table: _Table | None = None):
        super().__init__(game)
        self._t = table if table is not None else copy.deepcopy(game._initial)

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while cards are dealt or drawn, ``PlayerId.TERMINAL`` at the end."""
        t = self._t
        if t.over:
            return _TERMINAL
        if t.draws:
            return _CHANCE
        seat = t.game.to_act
        assert seat is not None  # the engine has someone to act until the match is over
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._t.game.legal_codes())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card kind left in the stock, with its share of the stock."""
        stock = self._t.stock
        total = sum(stock)
        return [(k, n / total) for k, n in enumerate(stock) if n]

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.draws:
            if not (0 <= action < NUM_KINDS and t.stock[action]):
                raise ValueError(f"chance outcome {action} is not a card kind left in the stock")
            t.give(action)
        else:
            seat = t.game.to_act
            assert seat is not None
            t.act(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"card {CARD_IDS[action]}" if 0 <= action < NUM_KINDS else f"no card {action}"
        return ACTION_NAMES.get(action, f"unused code {action}")

    def is_terminal(self) -> bool:
        """Whether the match is over (or reached ``max_hands``)."""
        return self._t.over

    def returns(self) -> list[float]:
        """Each seat's rewards so far: its side's match result, or the sum of its side's hand results."""
        return self._t.returns[:]

    def rewards(self) -> list[float]:
        """What the last player action paid, with the chance nodes after it."""
        return self._t.rewards[:]

    def engine_observation(self, seat: int) -> Observation:
        """``Game.observation(seat)`` of the table now: what the seat may see, the engine's door for it."""
        return self._t.view().observation(seat)

    def engine_view(self) -> Game:
        """The engine's game as the table stands now, for writers that read a seat's part of it (the state
        vector); the other seats' hands in it are not for players."""
        return self._t.view()

    @property
    def setup(self) -> _Setup:
        """The table and the reward rules of the game this state belongs to."""
        return self._t.setup

    def playout_world(self, rng: random.Random) -> Game:
        """An engine game to play this state on to its end at compiled speed: the cards of a chance node dealt at
        random, the stock shuffled (see ``EngineRolloutEvaluator``). It holds every hand: for search only."""
        return self._t.world(rng)

    def information_string(self, seat: int) -> str:
        """The seat's information state: every action at the table and every card it received, in order."""
        return f"seat {seat}: " + ", ".join(text for who, text in self._t.log if who == -1 or who == seat)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MilleBornesState:
        """A state the seat cannot tell from this one: the cards it has not seen dealt again at random by the
        engine's determinizer. The others' received cards become unknown and their resampled hands are noted
        in their information states (a possible world's current hands, not a whole resampled history)."""
        t = self._t
        if t.over:
            return self.clone()  # type: ignore[no-any-return]
        if t.draws:
            raise ValueError("a chance node cannot be resampled: deal its cards first")
        obs = t.game.observation(player_id)
        det = Determinizer(obs)
        world = det.sample(random.Random(int(probability_sampler() * 2**52)))
        table = copy.deepcopy(t)
        table.hands = [row[:] for row in world.hand_counts]
        on_table = _table_counts(obs)
        table.stock = [t.setup.deck[k] - on_table[k] - sum(row[k] for row in table.hands) for k in range(NUM_KINDS)]
        table.game = det.game.redealt(_lists(table.hands), _stock_list(table.stock), 0)
        table.log = [(who, text if who in (-1, player_id) else "+?") for who, text in t.log]
        for seat, row in enumerate(table.hands):
            if seat != player_id:
                table.log.append((seat, "holds " + " ".join(CARD_IDS[k] for k in _lists([row])[0])))
        state = self.clone()
        state._t = table
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        t = self._t
        view = t.view()
        lines = [repr(view), describe(view.observation(0))]
        lines += [f"seat {s} holds {' '.join(CARD_IDS[k] for k in cards)}" for s, cards in enumerate(_lists(t.hands))]
        lines.append("stock " + " ".join(f"{CARD_IDS[k]}x{n}" for k, n in enumerate(t.stock) if n))
        if t.draws:
            lines.append(f"cards to deal to seats {t.draws}")
        lines.append(f"returns {t.returns}")
        return "\n".join(lines)


def _table_counts(obs: Observation) -> list[int]:
    """Per card kind, the copies face up: the discard pile and every tableau."""
    counts = [0] * NUM_KINDS
    for card in obs["discard_pile"]:
        counts[KIND_OF[card]] += 1
    for t in obs["tableaux"]:
        for pile in (t["battle"], t["speed"], t["safeties"], t["distance_cards"]):
            for card in pile:
                counts[KIND_OF[card]] += 1
    return counts


def describe(obs: Observation) -> str:
    """An observation as one line of text: the seat's hand and the public table, nothing hidden.

    >>> import millebornes as mb
    >>> describe(mb.new_game("family", players=2, seed=1).observation(1))[:60]
    'seat 1 (side 1); hand 0 to 1000; seat 0 to play; holds 25 75'
    """
    parts = [
        f"seat {obs['seat']} (side {obs['side']})",
        f"hand {obs['hand_number']} to {obs['target']}",
        "over" if obs["is_over"] else f"seat {obs['to_act']} to {obs['decision']}",
        "holds " + " ".join(obs["hand"]),
        f"hand sizes {obs['hand_sizes']}",
        f"stock {obs['stock_size']}",
        "discards " + " ".join(obs["discard_pile"]),
    ]
    pending = obs["pending_attack"]
    if pending is not None:
        parts.append(f"{pending['hazard']} on side {pending['side']} by seat {pending['attacker']}")
    if obs["pickup_available"]:
        parts.append("the top discard may be taken")
    if obs["took_discard"]:
        parts.append("took the discard")
    if obs["extension_open"]:
        parts.append("extension open")
    if obs["extender"] is not None:
        parts.append(f"extended by side {obs['extender']}")
    for side, t in enumerate(obs["tableaux"]):
        parts.append(
            f"side {side} {t['distance']} miles{' moving' if t['moving'] else ''}, battle {' '.join(t['battle'])}, "
            f"speed {' '.join(t['speed'])}, safeties {' '.join(t['safeties'])}, coups fourres "
            f"{' '.join(t['coups_fourres'])}, 200s {t['two_hundreds']}, distance {' '.join(t['distance_cards'])}"
        )
    for seat, known in enumerate(obs["known_cards"]):
        if known:
            parts.append(f"seat {seat} known to hold {' '.join(known)}")
    parts.append(f"scores {obs['match_scores']}")
    if obs["is_over"]:
        parts.append(f"winners {obs['winners']}")
    return "; ".join(parts)


class MilleBornesObserver:
    """What OpenSpiel reads of a state for one seat: the feature vector of ``millebornes.bots.features`` (the
    same for the information state and the observation) and a string, the seat's whole history for the
    information state, :func:`describe` of its observation otherwise."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        """Whether the strings are information states (the seat's history) rather than observations."""
        self.tensor: npt.NDArray[np.float32] = np.zeros(STATE_SIZE, np.float32)
        """The features of the last state and seat written."""
        self.dict = {"features": self.tensor}
        """The tensor by name, as OpenSpiel reads it."""
        self._encoder: StateEncoder | None = None  # made from the first state written: an observer serves one game

    def set_from(self, state: MilleBornesState, player: int) -> None:
        """Write the seat's features (zeros for a pseudo-player, as OpenSpiel asks to learn the shape)."""
        if player < 0:
            self.tensor.fill(0.0)
        else:
            view = state.engine_view()
            if self._encoder is None:
                self._encoder = StateEncoder(view)
            self.tensor[:] = np.frombuffer(self._encoder.encode(view, player), "<f4")

    def string_from(self, state: MilleBornesState, player: int) -> str:
        """The seat's information state or observation as text."""
        if self.perfect_recall:
            return state.information_string(player)
        return describe(state.engine_observation(player))


class EngineBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no types
    """One of the package's bots (a ``make_bot`` spec) as an OpenSpiel bot: it decides from the observation of
    the seat to act, like at any other table."""

    def __init__(self, spec: str = "heuristic", seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(spec, seed)
        """The package's bot that chooses."""

    def step(self, state: MilleBornesState) -> int:
        """The code of the action the bot chooses for the seat to act."""
        obs = state.engine_observation(state.current_player())
        return ACTION_CODES[self.bot.choose(obs, obs["legal_actions"])]

    def restart_at(self, state: MilleBornesState) -> None:
        """Nothing to do: the bot reads each position afresh."""

    def inform_action(self, state: MilleBornesState, player_id: int, action: int) -> None:
        """Nothing to do: the bot reads each position afresh."""


def _spec(short_name: str) -> dict[str, Any]:
    spec = {**_TABLE_PARAMS, "max_hands": MAX_HANDS}
    if short_name == SHORT_NAME:
        spec["ruleset"] = "classic"
    return spec


def _edition_game(edition: str) -> type[MilleBornesGame]:
    """The class OpenSpiel creates one edition's games with (a class: OpenSpiel keeps its creators to the end)."""

    class EditionGame(MilleBornesGame):
        def __init__(self, params: dict[str, Any]):
            super().__init__(params, f"{SHORT_NAME}_{edition}")

    EditionGame.__name__ = EditionGame.__qualname__ = f"MilleBornes{edition.title()}Game"
    EditionGame.__doc__ = f"Mille Bornes, the {edition} edition, as an OpenSpiel game."
    return EditionGame


def _register() -> None:
    known = set(pyspiel.registered_names())
    if SHORT_NAME not in known:
        pyspiel.register_game(_game_type(SHORT_NAME, "match", _spec(SHORT_NAME)), MilleBornesGame)
    for edition in RULESETS:
        name = f"{SHORT_NAME}_{edition}"
        if name not in known:
            pyspiel.register_game(_game_type(name, "match", _spec(name)), _edition_game(edition))


_register()
