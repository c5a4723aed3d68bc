"""``kortbord arena GAME --bots A,B``: computer players against each other (:mod:`kortbord.arena`).

Examples::

    kortbord arena mulle --bots strong,greedy --games 400
    kortbord arena cribbage --bots strong,greedy --games 1000 --jobs 2 --json result.json
    kortbord arena cribbage --bots strong:iterations=300,strong:iterations=300 --games 40 --seed 7
    kortbord arena mulle --bots greedy,random --option target=200 --option profile=cardgames.zone

Prints, per bot: games, wins, losses, draws, the win rate (draws count half) with its Wilson 95% interval, the
mean final score, Mulle points per round or Cribbage points per deal as dealer and as pone (with 95% intervals),
and decision times p50/p95/max in milliseconds (Cribbage: also discard and pegging separately); for Cribbage
also the mean points per complete deal of the dealer and of the pone over all deals.  ``--json FILE`` writes the
same figures (and every game's outcome).  Exit status: 0, 1 if a bot failed (an illegal move or an exception:
reported, never corrected), 2 for bad options.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from kortbord.arena import ArenaConfig, BotSpec, Terminated, option_text, parse_option_value, run_arena
from kortbord.bots import registry
from kortbord.cli._choices import choices, comma_list_completion
from kortbord.cli._io import plain
from kortbord.errors import KortbordError

__all__ = ["arena", "render"]


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _mean(stat: dict[str, Any]) -> str:
    if not stat or stat.get("mean") is None:
        return "—"
    ci = stat.get("ci95")
    if ci is None:
        return f"{stat['mean']:.2f}"
    return f"{stat['mean']:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def _ms(stat: dict[str, Any] | None) -> str:
    if not stat or not stat.get("n"):
        return "—"
    return f"{stat['p50']:.1f} / {stat['p95']:.1f} / {stat['max']:.1f}"


def render(summary: dict[str, Any], console: Console) -> None:
    """Print the arena's figures (:func:`kortbord.arena.summarize`'s dict) as tables."""
    game = summary["game"]
    rules = summary["rules"]
    goal = rules.get("game_length") if game == "mulle" else f"target {rules.get('target')}"
    extra = plain(", ".join(f"{k}={option_text(v)}" for k, v in summary["options"].items()))
    console.print(
        f"[bold]kortbord arena[/] — {game}, {summary['players']} players, {goal}"
        + (f" ({extra})" if extra else "")
        + f", {summary['games']} games, seed {summary['seed']}, {summary['jobs']} process(es), "
        f"{summary['elapsed_s']:.1f} s"
    )
    console.print(f"[dim]Seating: {summary['seating']}. Win rate: {summary['win_rate']}.[/]")
    table = Table(
        header_style="bold",
        title="Results (mean score: the mean final score of the bot's side; points intervals clustered by game)",
        title_justify="left",
    )
    for col, justify in (
        ("Bot", "left"),
        ("Games", "right"),
        ("W", "right"),
        ("L", "right"),
        ("D", "right"),
        ("Win rate [95% CI]", "right"),
        ("Mean score", "right"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    if game == "mulle":
        table.add_column("Points/round [95% CI]", justify="right")
    else:
        table.add_column("Points/deal as dealer [95% CI]", justify="right")
        table.add_column("as pone [95% CI]", justify="right")
    for label, r in summary["results"].items():
        lo, hi = r["win_rate_ci95"]
        row = [
            plain(label),
            str(r["games"]),
            str(r["wins"]),
            str(r["losses"]),
            str(r["draws"]),
            f"{_pct(r['win_rate'])} [{100 * lo:.1f}, {100 * hi:.1f}]",
            "—" if r["mean_score"] is None else f"{r['mean_score']:.1f}",
        ]
        if game == "mulle":
            row.append(_mean(r["points_per_round"]))
        else:
            row += [_mean(r["points_per_deal"]["as_dealer"]), _mean(r["points_per_deal"]["as_pone"])]
        table.add_row(*row)
    console.print(table)
    times = Table(
        header_style="bold",
        title="Decision time (wall clock: it grows with the machine's load), ms: p50 / p95 / max",
        title_justify="left",
    )
    kinds = ["all"] + (["discard", "pegging", "show"] if game == "cribbage" else [])
    kinds = [k for k in kinds if k == "all" or any(k in r["decision_ms"] for r in summary["results"].values())]
    times.add_column("Bot")
    times.add_column("Decisions", justify="right")
    for k in kinds:
        times.add_column(k, justify="right")
    for label, r in summary["results"].items():
        times.add_row(plain(label), str(r["moves"]), *[_ms(r["decision_ms"].get(k)) for k in kinds])
    console.print(times)
    for label, r in summary["results"].items():
        if r.get("capped"):
            console.print(
                f"[yellow]{plain(label)}: the time cap cut {r['capped']} of {r['moves']} decisions short "
                "(those depend on the machine's load; without a cap a level's decisions do not)[/]",
                soft_wrap=True,
            )
    dup = summary.get("duplicate")
    if dup is not None:
        unit = "deal" if dup["unit"] == "points per deal" else "round"
        dtable = Table(
            header_style="bold",
            title=f"Duplicate {unit}s: {plain(dup['bot'])} minus {plain(dup['against'])}, points per {unit} with "
            f"the same cards [95% CI, clustered by block]",
            title_justify="left",
        )
        dtable.add_column("Pairs", justify="right")
        dtable.add_column("Blocks", justify="right")
        dtable.add_column("Margin", justify="right")
        for name in dup["by_seat"]:
            dtable.add_column(name.replace("_", " "), justify="right")
        dtable.add_row(
            str(dup["pairs"]),
            str(dup["blocks"]),
            _mean(dup["margin"]),
            *[_mean(v) for v in dup["by_seat"].values()],
        )
        console.print(dtable)
        if summary["games"] % 2:
            console.print(
                f"[yellow]The last of the {summary['games']} games (an odd number) has no partner with the seats "
                "swapped: it is left out of the duplicate figures.[/]",
                soft_wrap=True,
            )
        if dup["blocks"] < FEW_BLOCKS:
            rough = "there is no interval below 2 blocks" if dup["blocks"] < 2 else "the interval is rough"
            console.print(
                f"[yellow]Only {dup['blocks']} block(s) of duplicate {unit}s: {rough} (below {FEW_BLOCKS} blocks; "
                f"--games {FEW_BLOCKS * 2} or more with two bots).[/]",
                soft_wrap=True,
            )
    if game == "cribbage":
        d = summary["deals"]
        console.print(
            f"All complete deals ({d['complete']}; {d['cut_short']} cut short by the game's end, left out): "
            f"dealer {_mean(d['dealer'])} points per deal, pone {_mean(d['pone'])}"
        )
    for e in summary["errors"]:
        console.print(
            f"[bold red]bot error[/] in game {e['game']}: {plain(e['bot'])} (seat {e['seat']}) — {e['kind']}"
            + (f" {plain(e['move'])}" if e["move"] else "")
            + f": {plain(e['message'])}",
            soft_wrap=True,
        )


def _check_writable(path: Path) -> None:
    """Refuse (ValueError) a ``--json`` path that cannot be written, before any game is played."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ValueError(f"--json {path}: is a directory")
    if not parent.is_dir():
        raise ValueError(f"--json {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"--json {path}: not writable")


def _parse_options(items: list[str]) -> tuple[tuple[str, Any], ...]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: write key=value, e.g. --option target=61")
        out[key.strip()] = parse_option_value(value.strip())
    return tuple(out.items())


#: Below this many blocks the duplicate interval (clustered by block) is rough: the arena says so.
FEW_BLOCKS = 20


def _check_spec_options(game: str, specs: Sequence[BotSpec]) -> None:
    """Refuse an option written after a bot's level that this game's bot at that level does not use (it would
    be ignored, yet shown in the bot's label).  Raises ValueError."""
    if game not in registry.LEVELS:
        return  # ArenaConfig names the unknown game
    for spec in specs:
        if spec.level not in registry.LEVELS[game]:
            continue  # make_bot names the unknown level
        takes = registry.level_options(game, spec.level)
        for name, _ in spec.options:
            if name not in takes:
                uses = ", ".join(takes) or "no options"
                raise ValueError(f"the {game} {spec.level} bot does not use the option {name!r} (it takes: {uses})")


def _with_flags(game: str, specs: Sequence[BotSpec], **flags: Any) -> tuple[BotSpec, ...]:
    """The specs with the command's ``--time-budget-ms`` and ``--iterations`` given to the bots whose level takes
    them (a bot's own option wins); a flag that no bot takes, or that every bot taking it sets itself, is refused (it
    would change nothing).  Raises ValueError."""
    given = {k: v for k, v in flags.items() if v is not None}
    if game not in registry.LEVELS or not given or any(spec.level not in registry.LEVELS[game] for spec in specs):
        return tuple(spec.with_defaults(**given) for spec in specs)  # ArenaConfig and make_bot name what is unknown
    out = []
    used: set[str] = set()
    for spec in specs:
        takes = registry.level_options(game, spec.level)
        own = {k for k, _ in spec.options}
        mine = {k: v for k, v in given.items() if k in takes}
        used.update(k for k in mine if k not in own)  # a bot's own option wins: the flag changes nothing there
        out.append(spec.with_defaults(**mine))
    for key in given:
        if key not in used:
            flag = "--" + key.replace("_", "-")
            levels = ", ".join(dict.fromkeys(spec.level for spec in specs))
            raise ValueError(
                f"{flag} changes nothing here: no {game} bot of these levels ({levels}) takes it without setting its own"
            )
    return tuple(out)


def arena(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", autocompletion=choices(registry.GAMES)["autocompletion"], help="mulle or cribbage."
        ),
    ],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            autocompletion=comma_list_completion(sorted({lv for lvs in registry.LEVELS.values() for lv in lvs})),
            help="Bot levels, A first, comma-separated: random, beginner, casual, greedy, strong, expert; options after "
            "colons, e.g. "
            "strong:iterations=300,greedy.",
        ),
    ] = "strong,greedy",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed of the deals and the bots.")] = 0,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: every core).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A rules option key=value (repeatable): Mulle target=200, profile=cardgames.zone, teams=true; "
            "Cribbage target=61, muggins=true, lowball=true.",
        ),
    ] = None,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="Seats at the table.")] = 2,
    json_path: Annotated[Path | None, typer.Option("--json", help="Also write the figures to this JSON file.")] = None,
    time_budget_ms: Annotated[
        float | None,
        typer.Option(
            "--time-budget-ms",
            help="An optional cap on a decision's thinking time, ms, for the bots whose level searches (strong, "
            "expert; default: none -- a level is a fixed amount of search; capped decisions are counted).",
        ),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            min=1,
            help="Fixed search iterations per decision, for the bots whose level takes them (strong; "
            "Mulle expert; the Cribbage expert only where it plays as strong: 3-4 players, Lowball).",
        ),
    ] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")] = True,
) -> None:
    """Play computer players against each other and print win rates, points and decision times."""
    err = Console(stderr=True, highlight=False)
    try:
        raw = tuple(BotSpec.parse(text) for text in bots.split(",") if text.strip())
        _check_spec_options(game.lower(), raw)
        specs = _with_flags(game.lower(), raw, time_budget_ms=time_budget_ms, iterations=iterations)
        config = ArenaConfig(
            game=game.lower(),
            bots=specs,
            games=games,
            seed=seed,
            players=players,
            rules=_parse_options(option or []),
        )
        for spec in config.bots:
            spec.make(config.game, config.make_rules())
        if json_path is not None:
            _check_writable(json_path)
    except (ValueError, KortbordError) as exc:
        err.print(f"[bold red]error:[/] {plain(exc)}", soft_wrap=True)
        raise typer.Exit(2) from None
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    n_jobs = jobs or os.cpu_count() or 1
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not progress,
        transient=True,
    )
    try:
        with bar:
            task = bar.add_task(f"{config.game}: {' v '.join(config.labels)}", total=config.games)
            summary = run_arena(config, jobs=n_jobs, progress=lambda k: bar.advance(task, k))
    except KeyboardInterrupt:
        err.print("[bold red]interrupted[/]: the arena was stopped, no figures")
        raise typer.Exit(130) from None
    except Terminated:
        err.print("[bold red]terminated[/]: the arena was stopped, no figures")
        raise typer.Exit(143) from None
    render(summary, console)
    if json_path is not None:
        json_path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        console.print(f"Figures written to {json_path}")
    if summary["errors"]:
        raise typer.Exit(1)
