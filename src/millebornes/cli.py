"""The ``millebornes`` command: thin, it delegates to the modules below it."""

from __future__ import annotations

import json
import random
import time
from typing import Optional

import typer

from .rules import RULESETS, ruleset as get_ruleset
from .state import new_game

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="The open Mille Bornes system: rules for every edition, simulation and play.")


@app.command()
def rules(edition: Optional[str] = typer.Argument(None, help="classic, parker, dujardin or family")) -> None:
    """Print an edition's rule options in words (all editions without an argument)."""
    names = [edition] if edition else list(RULESETS)
    for i, name in enumerate(names):
        try:
            r = get_ruleset(name)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="EDITION") from None
        if i:
            typer.echo("")
        typer.echo(f"{r.name}: {r.title}")
        for option, words in r.describe():
            typer.echo(f"  {option:<19} {words}")


def random_match(rules, players: int, teams: Optional[bool], seed: int) -> tuple:
    """Play one match with uniformly random legal actions; (game, decisions)."""
    game = new_game(rules, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not game.is_over:
        codes = game.legal_codes()
        game.act_code(codes[rng.randrange(len(codes))])
        decisions += 1
    return game, decisions


@app.command()
def simulate(
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: Optional[bool] = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    games: int = typer.Option(100, "--games", "-n", min=1),
    seed: int = typer.Option(0, "--seed", "-s", help="game i uses seed + i"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON"),
) -> None:
    """Play random games and print a summary: hands, decisions per hand, win shares."""
    try:
        r = get_ruleset(ruleset)
        new_game(r, players=players, teams=teams, seed=seed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    start = time.perf_counter()
    hands = decisions = 0
    wins = None
    ties = 0
    for i in range(games):
        game, n = random_match(r, players, teams, seed + i)
        if wins is None:
            wins = [0.0] * game.nsides
        hands += len(game.hand_results)
        decisions += n
        share = 1 / len(game.winners)
        ties += len(game.winners) > 1
        for side in game.winners:
            wins[side] += share
    elapsed = time.perf_counter() - start
    summary = {
        "ruleset": r.name, "players": players, "games": games, "hands": hands,
        "hands_per_game": hands / games, "decisions_per_hand": decisions / hands,
        "win_shares": [w / games for w in wins], "shared_wins": ties, "seconds": round(elapsed, 3),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    typer.echo(f"{r.name}, {players} players, {games} games with random play (seeds {seed}..{seed + games - 1})")
    typer.echo(f"  hands played        {hands} ({hands / games:.2f} per game)")
    typer.echo(f"  decisions per hand  {decisions / hands:.1f}")
    typer.echo(f"  games won shared    {ties}")
    for side, w in enumerate(wins):
        typer.echo(f"  side {side} win share   {w / games:.1%}")
    typer.echo(f"  time                {elapsed:.2f} s ({hands / elapsed:.0f} hands/s)")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
