"""Write the golden records: whole matches of every edition, each with the public events of every step and the
final scores, so a change in the engine shows as a diff of data (tests/engine/test_golden.py replays them).

From the repository's root::

    python -m tests.golden.make            # the events and scores again, from the actions already recorded
    python -m tests.golden.make --fresh    # every match played anew by its bots (after a rule made one illegal)

The first form is the one to run after an intended change of the rules: the recorded actions stay, and
``git diff tests/golden`` shows exactly the events and scores that changed.  A case missing its file (a new one
in ``CASES``) is played by its bots either way.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import millebornes as mb
from millebornes.bots import make_bot

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    """One recorded match: the table and the bots that play it, seat by seat (the list repeats around the table;
    each bot's seed is its seat)."""

    name: str
    ruleset: str
    players: int
    teams: bool | None = None
    options: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ("heuristic", "random")
    seed: int = 1

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.json"

    def table(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "options": self.options,
            "players": self.players,
            "teams": self.teams,
            "seed": self.seed,
        }


BOTH_HEURISTIC = ("heuristic", "heuristic:noise=0.2")

CASES = [
    Case("classic-2p", "classic", 2),
    Case("classic-2p-heuristics", "classic", 2, bots=BOTH_HEURISTIC, seed=2),
    Case("classic-3p", "classic", 3, seed=3),
    Case("classic-4p-teams", "classic", 4, teams=True, seed=4),
    Case("classic-2p-no-extension", "classic", 2, options={"extension": False}, bots=BOTH_HEURISTIC, seed=5),
    Case("parker-2p", "parker", 2, bots=BOTH_HEURISTIC, seed=6),
    Case("parker-3p", "parker", 3, seed=7),
    Case("parker-4p-teams", "parker", 4, teams=True, seed=8),
    Case("dujardin-2p", "dujardin", 2, bots=BOTH_HEURISTIC, seed=9),
    Case("dujardin-3p", "dujardin", 3, seed=10),
    Case("dujardin-4p", "dujardin", 4, seed=11),
    Case("dujardin-4p-teams", "dujardin", 4, teams=True, bots=BOTH_HEURISTIC, seed=12),
    Case("dujardin-2p-play-out", "dujardin", 2, options={"exhaustion": "play-out"}, bots=BOTH_HEURISTIC, seed=13),
    Case("family-2p", "family", 2, bots=BOTH_HEURISTIC, seed=14),
    Case("family-3p", "family", 3, seed=15),
    Case("family-4p", "family", 4, seed=16),
    Case("family-5p", "family", 5, seed=17),
]
"""Every golden record: each edition at 2 and 3 players and at 4 (in teams where the edition has teams), and
options that change play."""


def new(case: Case) -> mb.Game:
    """The case's game at its first decision, dealt as its table says."""
    rules = mb.ruleset(case.ruleset, **case.options)
    return mb.new_game(rules, players=case.players, teams=case.teams, seed=case.seed)


def played(case: Case) -> list[str]:
    """The actions of the whole match as the case's bots play it, each seeing only its seat's observation."""
    game = new(case)
    bots = [make_bot(case.bots[seat % len(case.bots)], seed=seat) for seat in range(case.players)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.act(bots[seat].choose(game.observation(seat), game.legal_actions()))
    return game.history


def golden(case: Case, actions: list[str]) -> dict[str, Any]:
    """The case's file: its table and bots, the record, every step's action and events, the final result."""
    game = new(case)
    steps = [{"action": action, "events": game.act(action)} for action in actions]
    assert game.is_over, f"{case.name}: the actions end before the match"
    return {
        "about": f"{case.ruleset}, {case.players} players{' in teams' if game.teams else ''}"
        + "".join(f", {key}={value!r}" for key, value in case.options.items())
        + ": "
        + ", ".join(f"seat {seat} {case.bots[seat % len(case.bots)]}" for seat in range(case.players)),
        "table": case.table(),
        "bots": list(case.bots),
        "record": game.record(),
        "steps": steps,
        "scores": game.match_scores,
        "winners": game.winners,
    }


def dumps(value: Any, indent: str = "") -> str:
    """JSON with one step, one event list or one list of numbers a line, so a diff names the step that changed."""
    inner = indent + "  "
    if isinstance(value, dict) and value:
        members = [f"{inner}{json.dumps(key)}: {dumps(item, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        return "[\n" + ",\n".join(inner + json.dumps(item, ensure_ascii=False) for item in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str]) -> int:
    fresh = "--fresh" in argv
    for case in CASES:
        actions = None
        if case.path.exists() and not fresh:
            actions = json.loads(case.path.read_text(encoding="utf-8"))["record"]["actions"]
        try:
            data = golden(case, actions if actions is not None else played(case))
        except (mb.IllegalAction, AssertionError) as exc:
            print(f"{case.name}: its recorded actions no longer play ({exc}); run with --fresh", file=sys.stderr)
            return 1
        case.path.write_text(dumps(data) + "\n", encoding="utf-8")
    known = {case.path for case in CASES}
    for path in sorted(HERE.glob("*.json")):
        if path not in known:
            print(f"{path.name} is no case of CASES: remove it", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
