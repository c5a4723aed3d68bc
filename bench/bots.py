"""Computer-player benchmark: the issue's official strength and speed targets, measured with ``kortbord arena``.

Targets (each measured by :func:`kortbord.arena.run_arena`, seats swapped fairly, deals shared by each pair):

1. Mulle: strong beats greedy in >= 75% of two-player games to 100, over >= 400 games.
2. Mulle: greedy beats random in >= 95% of two-player games to 100 (same number of games).
3. Cribbage: strong beats greedy in >= 60% of games to 121, over >= 1,000 games.
4. Cribbage: in strong-v-strong self-play the dealer averages >= 16.2 points per deal and the pone >= 10.1
   (complete deals: pegging, hands, crib and his heels; see :mod:`kortbord.arena`).
5. Strong decisions at the default time budget: p95 under 250 ms (Mulle from run 1, Cribbage from run 3).
6. Cribbage strong discard decisions: p95 under 100 ms (the max is printed too).
7. The levels for people (run 5): in each game ``beginner`` scores fewer points than ``casual`` and ``casual``
   fewer than ``greedy``, per round (Mulle) and per deal (Cribbage), by the duplicate margin against greedy.
8. Mulle: expert beats greedy in >= 85% of two-player games to 100, over >= 400 games (run 6; issue #14 item 3).
9. Cribbage: expert beats greedy in >= 62% of games to 121, over >= 1,000 games (run 7; issue #14 item 2; its
   other goal, against an outside player, is ``bench/cribbage_hoyleish.py --bots expert``).

Runs 1 and 3 (and 5) also print the duplicate margin against greedy: points per round (Mulle) or per deal
(Cribbage) more than greedy with the same cards, with its cluster-robust 95% interval (see :mod:`kortbord.arena`).
Decision times per level at the web table's settings, on one core: ``bench/decision_times.py``.

A win rate counts a draw as half a win; its interval is the Wilson 95% score interval over games.  A target is
``PASS`` when the measured value meets it (and ``PASS*`` when the 95% interval lies wholly on the right side of
it too); ``MISS`` otherwise; a run with fewer games than the official count is marked ``short run``.  Decision
times are wall-clock times of ``choose`` (``time.perf_counter``), so a busy machine makes them longer: the number
of processes is printed with them; ``--jobs 1`` measures them without sibling workers.

Usage (from the repository root, after ``make test`` or ``make run`` has set up ``.venv``)::

    .venv/bin/python bench/bots.py                        # the official sizes: hours on 2 cores
    .venv/bin/python bench/bots.py --quick                # a few minutes: 40/40/100 games, 200 deals
    .venv/bin/python bench/bots.py --mulle-games 100 --cribbage-games 300 --selfplay-deals 200
    .venv/bin/python bench/bots.py --only 3,4 --json bench-bots.json
    .venv/bin/python bench/bots.py --only 5 --mulle-games 200 --cribbage-games 400   # the levels for people
    .venv/bin/python bench/bots.py --only 6                # the Mulle expert against greedy (12 min on 2 cores)
    .venv/bin/python bench/bots.py --only 7                # the Cribbage expert against greedy (25 min on 2 cores)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from kortbord.arena import ArenaConfig, BotSpec, run_arena

OFFICIAL = {"mulle": 400, "cribbage": 1_000}
#: Deals per Cribbage game to 121 between strong players, about (to size the self-play run).
DEALS_PER_GAME = 8.5


@dataclass
class Row:
    target: str
    measured: str
    ci: str
    n: str
    verdict: str
    command: str


def _verdict(value: float | None, lo: float | None, hi: float | None, goal: float, *, at_least: bool) -> str:
    if value is None:
        return "MISS (no data)"
    ok = value >= goal if at_least else value < goal
    if not ok:
        return "MISS"
    sure = (lo is not None and lo >= goal) if at_least else (hi is not None and hi < goal)
    return "PASS*" if sure else "PASS"


def _command(game: str, bots: str, games: int, seed: int, jobs: int, budget: float | None, extra: str = "") -> str:
    cmd = f"kortbord arena {game} --bots {bots} --games {games} --seed {seed} --jobs {jobs}"
    if budget is not None:
        cmd += f" --time-budget-ms {budget:g}"
    return cmd + extra


def _run(console: Console, config: ArenaConfig, jobs: int) -> dict[str, Any]:
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task(f"{config.game}: {' v '.join(config.labels)}", total=config.games)
        return run_arena(config, jobs=jobs, progress=lambda k: bar.advance(task, k))


def _win_row(
    summary: dict[str, Any], label: str, goal: float, official: int, text: str, command: str
) -> tuple[Row, dict[str, Any]]:
    r = summary["results"][label]
    lo, hi = r["win_rate_ci95"]
    verdict = _verdict(r["win_rate"], lo, hi, goal, at_least=True)
    if r["games"] < official:
        verdict += f" (short run: {r['games']} < {official} games)"
    if summary["errors"]:
        verdict += f" ({len(summary['errors'])} bot errors)"
    row = Row(
        text,
        f"{100 * r['win_rate']:.1f}% ({r['wins']}-{r['losses']}-{r['draws']})",
        f"{100 * lo:.1f}-{100 * hi:.1f}%",
        str(r["games"]),
        verdict,
        command,
    )
    return row, {"target": text, "value": r["win_rate"], "ci95": [lo, hi], "games": r["games"], "verdict": verdict}


def _time_row(stats: dict[str, Any], goal_ms: float, text: str, command: str, jobs: int) -> tuple[Row, dict[str, Any]]:
    if not stats or not stats.get("n"):
        return Row(text, "—", "", "0", "MISS (no data)", command), {"target": text, "verdict": "MISS (no data)"}
    verdict = _verdict(stats["p95"], None, None, goal_ms, at_least=False)
    row = Row(
        text,
        f"p95 {stats['p95']:.1f} ms",
        f"p50 {stats['p50']:.1f}, max {stats['max']:.1f} ms",
        f"{stats['n']} decisions, {jobs} proc",
        verdict,
        command,
    )
    return row, {"target": text, "value": stats["p95"], "stats": stats, "verdict": verdict}


def _dup_row(summary: dict[str, Any], text: str, command: str) -> tuple[Row, dict[str, Any]]:
    """The duplicate margin of bot A over bot B (an information row, no target)."""
    dup = summary.get("duplicate") or {}
    m = dup.get("margin") or {}
    if m.get("mean") is None:
        return Row(text, "—", "", "0 pairs", "info", command), {"target": text, "verdict": "info"}
    lo, hi = m["ci95"] or (None, None)
    row = Row(
        text,
        f"{m['mean']:+.2f} {dup['unit']}",
        "" if lo is None else f"{lo:+.2f} to {hi:+.2f}",
        f"{dup['pairs']} pairs in {dup['blocks']} blocks",
        "info",
        command,
    )
    return row, {"target": text, "value": m["mean"], "ci95": m["ci95"], "duplicate": dup, "verdict": "info"}


def main(argv: list[str] | None = None) -> int:
    """Run the selected targets and print one row per target; returns 0 (the verdicts are in the output)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mulle-games", type=int, default=OFFICIAL["mulle"], help="games of runs 1 and 2 (400)")
    ap.add_argument("--cribbage-games", type=int, default=OFFICIAL["cribbage"], help="games of run 3 (1000)")
    ap.add_argument("--selfplay-deals", type=int, default=1_000, help="complete deals wanted in run 4 (about)")
    ap.add_argument("--quick", action="store_true", help="small runs: 40, 40, 100 games and 200 deals")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--time-budget-ms", type=float, default=None, help="strong bots' budget (default: theirs)")
    ap.add_argument(
        "--only",
        default="1,2,3,4,6,7",
        help="runs to do, e.g. 1,3 (targets 5-6 come with runs 1 and 3; 5: people levels; 6: Mulle expert; "
        "7: Cribbage expert)",
    )
    ap.add_argument("--json", default=None, help="write the rows and the arena summaries to this file")
    args = ap.parse_args(argv)
    if args.quick:
        args.mulle_games, args.cribbage_games, args.selfplay_deals = 40, 100, 200
    runs = {int(x) for x in args.only.split(",") if x.strip()}
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    console.print(
        f"[bold]bench/bots.py[/] — Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"{args.jobs} worker processes, seed {args.seed}, load average {os.getloadavg()[0]:.1f}"
    )
    budget = args.time_budget_ms
    rows: list[Row] = []
    report: dict[str, Any] = {"args": vars(args), "targets": [], "summaries": {}}
    t0 = time.perf_counter()

    def strong(spec: str = "strong") -> BotSpec:
        return BotSpec.parse(spec).with_defaults(time_budget_ms=budget)

    def emit(pair: tuple[Row, dict[str, Any]]) -> None:
        rows.append(pair[0])
        report["targets"].append(pair[1])

    def search_v_greedy(game: str, level: str, goal: float, target: int) -> None:
        """Runs 1 (Mulle strong), 6 (Mulle expert) and 7 (Cribbage expert): ``level`` against greedy in games to
        100 (Mulle) or 121 (Cribbage), its win-rate target (``target``: the target's number), its decision p95
        (wall clock) and its duplicate margin."""
        n = args.mulle_games if game == "mulle" else args.cribbage_games
        s = _run(console, ArenaConfig(game, (strong(level), BotSpec("greedy")), games=n, seed=args.seed), args.jobs)
        report["summaries"][f"{game} {level} v greedy"] = s
        cmd = _command(game, f"{level},greedy", n, args.seed, args.jobs, budget)
        to = 100 if game == "mulle" else 121
        text = f"{target}. {game.capitalize()} {level} beats greedy >= {100 * goal:.0f}% (to {to})"
        emit(_win_row(s, f"A:{level}", goal, OFFICIAL[game], text, cmd))
        times = s["results"][f"A:{level}"]["decision_ms"]["all"]
        emit(_time_row(times, 250, f"5. {game.capitalize()} {level} p95 < 250 ms (wall clock)", cmd, args.jobs))
        unit = "rounds" if game == "mulle" else "deals"
        emit(_dup_row(s, f"{game.capitalize()} {level} minus greedy, duplicate {unit}", cmd))

    if 1 in runs:
        search_v_greedy("mulle", "strong", 0.75, 1)
    if 6 in runs:
        search_v_greedy("mulle", "expert", 0.85, 8)
    if 2 in runs:
        n = args.mulle_games
        s = _run(
            console, ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), games=n, seed=args.seed), args.jobs
        )
        report["summaries"]["mulle greedy v random"] = s
        cmd = _command("mulle", "greedy,random", n, args.seed, args.jobs, None)
        emit(_win_row(s, "A:greedy", 0.95, OFFICIAL["mulle"], "2. Mulle greedy beats random >= 95% (to 100)", cmd))
    if 3 in runs:
        n = args.cribbage_games
        s = _run(console, ArenaConfig("cribbage", (strong(), BotSpec("greedy")), games=n, seed=args.seed), args.jobs)
        report["summaries"]["cribbage strong v greedy"] = s
        cmd = _command("cribbage", "strong,greedy", n, args.seed, args.jobs, budget)
        emit(
            _win_row(s, "A:strong", 0.60, OFFICIAL["cribbage"], "3. Cribbage strong beats greedy >= 60% (to 121)", cmd)
        )
        times = s["results"]["A:strong"]["decision_ms"]
        emit(_time_row(times["all"], 250, "5. Cribbage strong p95 < 250 ms", cmd, args.jobs))
        emit(_time_row(times.get("discard", {}), 100, "6. Cribbage strong discard p95 < 100 ms", cmd, args.jobs))
        emit(_dup_row(s, "Cribbage strong minus greedy, duplicate deals", cmd))
    if 7 in runs:
        search_v_greedy("cribbage", "expert", 0.62, 9)
    if 4 in runs:
        n = max(2, 2 * math.ceil(args.selfplay_deals / DEALS_PER_GAME / 2))
        s = _run(console, ArenaConfig("cribbage", (strong(), strong()), games=n, seed=args.seed + 1), args.jobs)
        report["summaries"]["cribbage strong self-play"] = s
        cmd = _command("cribbage", "strong,strong", n, args.seed + 1, args.jobs, budget)
        deals = s["deals"]
        for who, goal in (("dealer", 16.2), ("pone", 10.1)):
            d = deals[who]
            lo, hi = d["ci95"] or (None, None)
            verdict = _verdict(d["mean"], lo, hi, goal, at_least=True)
            text = f"4. Cribbage self-play: {who} >= {goal} points per deal"
            rows.append(
                Row(
                    text,
                    f"{d['mean']:.2f}",
                    "" if lo is None else f"{lo:.2f}-{hi:.2f}",
                    f"{d['n']} deals ({deals['cut_short']} cut short, left out), {n} games",
                    verdict,
                    cmd,
                )
            )
            report["targets"].append(
                {"target": text, "value": d["mean"], "ci95": d["ci95"], "deals": d["n"], "verdict": verdict}
            )
    if 5 in runs:
        for game, n in (("mulle", args.mulle_games), ("cribbage", args.cribbage_games)):
            margins = []
            for level in ("beginner", "casual"):
                config = ArenaConfig(game, (BotSpec(level), BotSpec("greedy")), games=n, seed=args.seed)
                s = _run(console, config, args.jobs)
                report["summaries"][f"{game} {level} v greedy"] = s
                cmd = _command(game, f"{level},greedy", n, args.seed, args.jobs, None)
                emit(_dup_row(s, f"{game.capitalize()} {level} minus greedy, duplicate", cmd))
                r = s["results"][f"A:{level}"]
                lo, hi = r["win_rate_ci95"]
                rows[-1].measured += f"; wins {100 * r['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                margins.append((s["duplicate"]["margin"]["mean"], s["duplicate"]["margin"]["ci95"]))
            (b, bci), (c, cci) = margins
            ordered = b is not None and c is not None and b < c < 0
            sure = ordered and bci is not None and cci is not None and cci[1] < 0
            verdict = ("PASS*" if sure else "PASS") if ordered else "MISS"
            text = f"7. {game.capitalize()}: beginner < casual < greedy (duplicate margin)"
            rows.append(Row(text, f"{b:+.2f} < {c:+.2f} < 0", "", f"{n} games each", verdict, ""))
            report["targets"].append({"target": text, "value": [b, c], "verdict": verdict})
    table = Table(header_style="bold", title=f"Targets ({time.perf_counter() - t0:.0f} s)", title_justify="left")
    for col in ("Target", "Measured", "95% CI / spread", "Sample", "Result", "Command"):
        table.add_column(col, overflow="fold")
    for r in rows:
        style = "green" if r.verdict.startswith("PASS") else "red"
        table.add_row(r.target, r.measured, r.ci, r.n, f"[{style}]{r.verdict}[/]", r.command)
    console.print(table)
    console.print("PASS*: the 95% interval also clears the target.  Decision times are wall-clock on this machine.")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)
        console.print(f"Written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
