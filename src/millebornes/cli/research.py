"""The research commands: an edition's rules, random simulations, tournaments between bots, a bot served over
the protocol, self-play records. They speak English, as a research tool does (docs/i18n.md)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import typer

from ..rules import RULESETS
from ..rules import ruleset as get_ruleset
from ..state import new_game


def rules(
    edition: str | None = typer.Argument(None, help="classic, parker, dujardin or family"),
    explain: bool = typer.Option(False, "--explain", help="how to play the edition, told to a newcomer"),
    players: int = typer.Option(2, "--players", help="with --explain: the table's players (its target, its deck)"),
    lang: str | None = typer.Option(None, "--lang", help="with --explain: en or fr (default: LC_ALL/LANG, else en)"),
) -> None:
    """Print an edition's rule options in words (all editions without an argument), or with --explain how to play it."""
    from ..i18n import catalog

    if explain:
        explain_rules(edition, players, lang)
        return
    names = [edition] if edition else list(RULESETS)
    for i, name in enumerate(names):
        try:
            r = get_ruleset(name)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="EDITION") from None
        if i:
            typer.echo("")
        # the edition's summary as players read it (the catalog), not the engine's note on its sources
        typer.echo(f"{r.name}: {catalog('en').t(f'edition.{r.name}.summary')}")
        for option, words in r.describe():
            typer.echo(f"  {option:<19} {words}")


def explain_rules(edition: str | None, players: int, lang: str | None) -> None:
    """How to play, in the player's language, wrapped to the terminal's width."""
    import shutil
    import textwrap

    from ..i18n.howto import as_text, how_to_play
    from .words import Words, lang_option

    words = Words(lang_option(lang))
    if edition is None:
        words.fail("cli.explain_which", names=", ".join(RULESETS))
    if edition not in RULESETS:
        words.fail("cli.no_edition", name=edition, names=", ".join(RULESETS))
    rules = get_ruleset(edition)
    if not (rules.allows(players, False) or rules.allows(players, True)):
        none = words.t("tui.none")
        words.stop(
            words.n(
                "cli.bad_players",
                players,
                edition=words.edition(rules.name),
                solo=", ".join(map(str, rules.solo_players)) or none,
                teams=", ".join(map(str, rules.team_players)) or none,
            )
        )
    width = max(40, min(100, shutil.get_terminal_size().columns))
    for line in as_text(how_to_play(rules, words.lang, players)):
        indent = " " * (len(line) - len(line.lstrip()))
        more = indent + ("  " if indent else "")
        typer.echo(textwrap.fill(line, width, subsequent_indent=more) if line else "")


def random_match(rules, players: int, teams: bool | None, seed: int) -> tuple:
    """Play one match with uniformly random legal actions; (game, decisions)."""
    game = new_game(rules, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not game.is_over:
        codes = game.legal_codes()
        game.act_code(codes[rng.randrange(len(codes))])
        decisions += 1
    return game, decisions


def simulate(
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
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
    wins: list[float] = []
    ties = 0
    for i in range(games):
        game, n = random_match(r, players, teams, seed + i)
        if not wins:
            wins = [0.0] * game.nsides
        hands += len(game.hand_results)
        decisions += n
        share = 1 / len(game.winners)
        ties += len(game.winners) > 1
        for side in game.winners:
            wins[side] += share
    elapsed = time.perf_counter() - start
    summary = {
        "ruleset": r.name,
        "players": players,
        "games": games,
        "hands": hands,
        "hands_per_game": hands / games,
        "decisions_per_hand": decisions / hands,
        "win_shares": [w / games for w in wins],
        "shared_wins": ties,
        "seconds": round(elapsed, 3),
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


def bot(
    name: str | None = typer.Argument(
        None,
        help="a bot spec: random, heuristic, ismcts, easy..expert, 'ismcts:ms=50'; online also cmd:COMMAND, any "
        "program that speaks the bot protocol",
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="the bot's seed until the host's hello brings one"),
    server: str | None = typer.Option(
        None,
        "--server",
        help="play online as a bot account of the server at this address; token from "
        "MILLEBORNES_BOT_TOKEN or --token-file",
    ),
    config: Path | None = typer.Option(None, "--config", help="online: a TOML file of every setting"),
    token_file: Path | None = typer.Option(None, "--token-file", help="online: a file holding the bot's token"),
    processes: str | None = typer.Option(None, "--processes", help="online: per-table (default) or shared"),
    log_dir: Path | None = typer.Option(None, "--log-dir", help="online: a folder for one log file per table"),
    tables: int | None = typer.Option(None, "--tables", help="online: tables played at once, 1 to 8 (default 8)"),
) -> None:
    """Serve a built-in bot over the JSON-lines bot protocol on stdin/stdout; with --server (or --config), play a
    bot program online as a bot account."""
    if server is not None or config is not None:
        raise typer.Exit(_online(name, server, config, token_file, processes, log_dir, tables))
    from ..bots import make_bot
    from ..protocol import serve_stdio

    if name is None:
        raise typer.BadParameter("name a bot: random, heuristic, ismcts, easy..expert", param_hint="NAME")
    if name.startswith("cmd:"):
        raise typer.BadParameter("a cmd: program plays online only, with --server URL", param_hint="NAME")
    try:
        make_bot(name, seed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="NAME") from None
    raise typer.Exit(serve_stdio(name, seed))


def _online(
    name: str | None,
    server: str | None,
    config: Path | None,
    token_file: Path | None,
    processes: str | None,
    log_dir: Path | None,
    tables: int | None,
) -> int:
    """The online bridge (millebornes.online): the settings checked, then played until a signal or a close that
    means stop."""
    from ..online import ConfigError, build, read_file, read_token, run

    try:
        settings = build(
            read_file(config) if config is not None else {},
            server=server,
            program=name,
            token_file=token_file,
            processes=processes,
            log_dir=log_dir,
            tables=tables,
        )
        token = read_token(settings, token_file)
    except ConfigError as exc:
        typer.echo(f"millebornes bot: {exc}", err=True)
        return 2
    return run(settings, token)


def tournament(
    bots: list[str] = typer.Option(
        ...,
        "--bots",
        "-b",
        help="bot specs, comma-separated or the option repeated; "
        "a value starting with cmd: is one external bot command",
    ),
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    games: int = typer.Option(
        100, "--games", "-n", min=1, help="matches per pairing (rounded up to whole deals x rotations)"
    ),
    seed: int = typer.Option(0, "--seed", "-s"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    hands: bool = typer.Option(False, "--hands", help="play single hands instead of full matches"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to connect to (default: start one)"),
    as_json: bool = typer.Option(False, "--json", help="print everything as one JSON object"),
    csv_path: str | None = typer.Option(None, "--csv", help="write the per-bot table as CSV (- for stdout)"),
    plot: str | None = typer.Option(None, "--plot", help="draw win rates with their intervals to this PNG"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Play a seat-balanced, paired tournament between bots and print wins, win rates, points and Elo."""
    import sys

    from .. import tournament as T
    from ..bots import make_bot
    from ..executors import make_executor

    specs = T.parse_bot_options(bots)
    if len(specs) < 2:
        raise typer.BadParameter("give at least two bots", param_hint="--bots")
    if backend not in ("local", "ray"):
        raise typer.BadParameter("choose local or ray", param_hint="--backend")
    if as_json and csv_path == "-":
        raise typer.BadParameter("--json and --csv - both want stdout", param_hint="--csv")
    try:
        r = get_ruleset(ruleset)
        new_game(r, players=players, teams=teams, seed=0)
        for spec in specs:
            if not T.is_external(spec):
                make_bot(spec, 0)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None

    start = time.perf_counter()

    def show_progress(done: int, total: int) -> None:
        filled = 30 * done // max(total, 1)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} "
            f"{'hands' if hands else 'matches'}  {time.perf_counter() - start:.1f} s"
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    progress = show_progress if not quiet and sys.stderr.isatty() else None
    try:
        executor = make_executor(backend, workers, address)
    except RuntimeError as exc:
        raise typer.BadParameter(str(exc), param_hint="--backend") from None
    with executor:
        summary = T.run_tournament(
            specs,
            r,
            players=players,
            teams=teams,
            games=games,
            seed=seed,
            hands=hands,
            executor=executor,
            progress=progress,
        )
    if csv_path and csv_path != "-":
        with open(csv_path, "w", encoding="utf-8", newline="") as f:
            T.write_csv(summary, f)
    if plot:
        T.plot_win_rates(summary, plot)
    if as_json:
        typer.echo(json.dumps(summary))
    elif csv_path == "-":
        T.write_csv(summary, sys.stdout)
    else:
        typer.echo(T.format_table(summary))


def selfplay(
    games: int = typer.Option(100, "--games", "-n", min=1, help="matches to play"),
    bots: list[str] = typer.Option(
        ["greedy"], "--bots", "-b", help="bot specs, comma-separated or repeated; they take the sides in turn"
    ),
    ruleset: str = typer.Option("classic", "--ruleset", "-r", help="edition name"),
    players: int = typer.Option(2, "--players", "-p"),
    teams: bool | None = typer.Option(None, "--teams/--no-teams", help="default: the edition's default"),
    seed: int = typer.Option(0, "--seed", "-s"),
    workers: int | None = typer.Option(None, "--workers", "-w", min=1, help="processes (default: all cores)"),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to connect to (default: start one)"),
    hands: bool = typer.Option(False, "--hands", help="play single hands instead of full matches"),
    out: str = typer.Option("-", "--out", "-o", help="JSON-lines file to write (- for stdout)"),
) -> None:
    """Play bots against each other and write one JSON line per match: its record and result."""
    import sys

    from .. import selfplay as S
    from ..executors import make_executor
    from ..tournament import parse_bot_options

    specs = parse_bot_options(bots)
    if backend not in ("local", "ray"):
        raise typer.BadParameter("choose local or ray", param_hint="--backend")
    try:
        new_game(get_ruleset(ruleset), players=players, teams=teams, seed=0)
        for spec in specs:
            if not spec.startswith("cmd:"):
                S.make_player(spec, 0)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    try:
        executor = make_executor(backend, workers, address)
    except RuntimeError as exc:
        raise typer.BadParameter(str(exc), param_hint="--backend") from None
    start = time.perf_counter()
    stream = sys.stdout if out == "-" else open(out, "w", encoding="utf-8")
    try:
        with executor:
            n = S.write_selfplay(
                stream,
                games,
                specs,
                ruleset=ruleset,
                players=players,
                teams=teams,
                seed=seed,
                hands=hands,
                executor=executor,
            )
    finally:
        if stream is not sys.stdout:
            stream.close()
    if out != "-":
        typer.echo(f"{n} {'hands' if hands else 'matches'} written to {out} in {time.perf_counter() - start:.1f} s")


def puzzles(
    out: str = typer.Argument(
        ..., help="where to write the puzzle set (JSON); the shipped one is src/millebornes/puzzles.json"
    ),
    matches: int = typer.Option(24, "--matches", min=1, max=2000, help="self-play matches reviewed"),
    worlds: int = typer.Option(200, "--worlds", min=2, max=5000, help="worlds per decision"),
    per_theme: int = typer.Option(6, "--per-theme", min=1, max=100, help="puzzles kept per theme"),
    seed: int = typer.Option(0, "--seed"),
    workers: int = typer.Option(2, "--workers", min=1, max=64, help="processes the reviews run on"),
    reasons: bool = typer.Option(
        False, "--reasons", help="give the set already in OUT its puzzles' reasons, reviewing nothing again"
    ),
) -> None:
    """Build a puzzle set from reviewed self-play: classic matches of each level against medium, their
    inaccuracies and worse, the positions where the choice changed the chance of the hand the most."""
    import json
    from concurrent.futures import ProcessPoolExecutor

    from ..bots import make_bot
    from ..puzzles import build, with_reasons

    if reasons:
        with open(out, encoding="utf-8") as f:
            given = with_reasons(json.load(f))
        with open(out, "w", encoding="utf-8") as f:
            json.dump(given, f, indent=1, sort_keys=True)
            f.write("\n")
        typer.echo(f"{len(given['puzzles'])} puzzles of {out} given their reasons")
        return

    levels = ["random", "easy", "medium"]

    def match(k: int) -> dict:
        level = levels[k % len(levels)]
        g = new_game("classic", players=2, seed=seed + k)
        bots = [make_bot(level, seed=seed + k), make_bot("medium", seed=seed + k + 1)]
        if k % 2:
            bots.reverse()
        while (seat := g.to_act) is not None:
            g.act(bots[seat].choose(g.observation(seat), g.legal_actions()))
        return dict(g.record())

    with ProcessPoolExecutor(workers) as pool:
        made = build((match(k) for k in range(matches)), worlds=worlds, seed=seed, per_theme=per_theme, executor=pool)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(made, f, indent=1, sort_keys=True)
        f.write("\n")
    counts: dict[str, int] = {}
    for p in made["puzzles"]:
        counts[p["theme"]] = counts.get(p["theme"], 0) + 1
    typer.echo(f"{len(made['puzzles'])} puzzles written to {out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
