"""Computer opponents: every bot chooses from an observation and the legal actions only.

``make_bot(spec, seed)`` builds one from a spec string: a bot name (``random``, ``greedy``,
``heuristic``, ``ismcts``, ``neural``), a level for people (``easy``, ``medium``, ``hard``, ``expert``), or a name with
parameters, ``"ismcts:ms=50"``, ``"ismcts:iterations=400,playout=random"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .base import Bot, RandomBot

if TYPE_CHECKING:
    from ..observation import Observation
    from ..state import Game

# hard: every legal action played out on the same sampled worlds (flat greedy playouts, reward the
# hand's points margin), halved round by round for 30 ms; the neural network's move is kept unless
# another does better by half a standard error and by 0.0003 reward per point of the network's score
# lead (about 0.005 where it is sure); a safety is laid rather than discarded, and the last copy of a needed
# remedy is discarded only for a rival that wins by 3 standard errors (ismcts.risky_discards).
# expert: the same for 0.9 s (bench/bot_strength.sh measures both)
LEVELS: dict[str, str] = {
    "easy": "heuristic:noise=0.35",
    "medium": "heuristic",
    "hard": "ismcts:ms=30,baseline=neural,scale=1500,widen=0,confidence=0.5,prior=0.0003",
    "expert": "ismcts:ms=900,baseline=neural,scale=1500,widen=0,confidence=0.5,prior=0.0003",
}
"""The levels offered to people, weakest first, and the bot spec each plays."""
SEARCHING_LEVELS: tuple[str, ...] = tuple(level for level, spec in LEVELS.items() if spec.partition(":")[0] == "ismcts")
"""The levels whose bot searches sampled worlds for its time budget, rather than answering at once."""


def fixed_budget(spec: str, playouts: int) -> str:
    """A bot spec (or a level) that searches ``playouts`` playouts a decision instead of its time budget, so that
    the machine's load cannot change its play: how the levels are measured (``bench/ladder.py --playouts``).  A
    bot that does not search is returned as it is."""
    if playouts < 1:
        raise ValueError(f"playouts must be 1 or more, not {playouts!r}")
    spec = LEVELS.get(spec, spec)
    name, _, params = spec.partition(":")
    if name.strip() != "ismcts":
        return spec
    kept = [p for p in params.split(",") if p.strip() and not p.strip().startswith(("ms=", "iterations="))]
    return f"{name}:" + ",".join([f"iterations={playouts}", *kept])


def _registry() -> dict[str, Callable[..., Bot]]:
    from .heuristic import HeuristicBot
    from .ismcts import IsmctsBot
    from .neural import NeuralBot
    from .rollout import GreedyBot

    return {
        "random": RandomBot,
        "greedy": GreedyBot,
        "heuristic": HeuristicBot,
        "ismcts": IsmctsBot,
        "neural": NeuralBot,
    }


def bot_names() -> list[str]:
    """Every name a spec may start with: the bots, then the levels."""
    return list(_registry()) + list(LEVELS)


def parse_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    """Split ``"name:key=value,key=value"`` into the name and typed parameters."""
    spec = LEVELS.get(spec, spec)
    name, _, rest = spec.partition(":")
    params: dict[str, int | float | str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq:
            raise ValueError(f"bad bot parameter {item!r} in {spec!r}: write key=value")
        value: int | float | str = text
        for cast in (int, float):
            try:
                value = cast(text)
                break
            except ValueError:
                continue
        params[key.strip()] = value
    return name.strip(), params


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec; ValueError names an unknown bot or parameter."""
    name, params = parse_spec(spec)
    registry = _registry()
    if name not in registry:
        raise ValueError(f"no bot {name!r}; bots are: {', '.join(bot_names())}")
    try:
        return registry[name](seed=seed, **params)
    except TypeError as exc:
        raise ValueError(f"bad parameters for bot {name!r}: {exc}") from None


def analyse(
    game: Game | Observation, seat: int | None = None, iterations: int = 2000, ms: float = 0, seed: int = 0
) -> list[dict[str, Any]]:
    """Hints: each legal action of the seat to act with its estimated win chance, from a game or from the
    seat's observation itself (see ismcts.analyse)."""
    from .ismcts import analyse as _analyse

    return _analyse(game, seat, iterations=iterations, ms=ms, seed=seed)


__all__ = [
    "analyse",
    "Bot",
    "LEVELS",
    "SEARCHING_LEVELS",
    "RandomBot",
    "bot_names",
    "fixed_budget",
    "make_bot",
    "parse_spec",
]
