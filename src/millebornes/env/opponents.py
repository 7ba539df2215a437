"""The bots that play the seats a learner does not, in the single-agent and batched environments."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import ACTION_CODES
from ..bots import Bot, RandomBot, make_bot
from ..state import Game


def check_specs(opponents: str | Sequence[str], players: int) -> list[str]:
    """One bot spec per other seat, from one spec for all or a list (ValueError for a wrong count or bot)."""
    specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(specs) != players - 1:
        raise ValueError(f"give one opponent spec, or {players - 1} (one per other seat)")
    for spec in specs:
        make_bot(spec, 0)
    return specs


def seat_bots(specs: list[str], players: int, learner: int, seeds: list[int]) -> dict[int, Bot]:
    """The bots of the seats other than ``learner``, in seat order, each with its seed."""
    others = [s for s in range(players) if s != learner]
    return {s: make_bot(spec, seed) for s, spec, seed in zip(others, specs, seeds)}


def play_bots(game: Game, learner: int, bots: dict[int, Bot]) -> None:
    """Let the bots act until ``learner`` decides or the match ends.  A random bot draws among the codes as it
    would among the actions (the same choice, without the observation it ignores); the others see their seat's
    observation, as in any match."""
    while not game.is_over and game.to_act != learner:
        seat = game.to_act
        assert seat is not None  # someone acts while the match is on
        codes = game.legal_codes()
        bot = bots[seat]
        if len(codes) == 1:
            code = codes[0]
        elif isinstance(bot, RandomBot):
            code = codes[bot.rng.randrange(len(codes))]
        else:
            code = ACTION_CODES[bot.choose(game.observation(seat), game.legal_actions())]
        game.act_code(code)
