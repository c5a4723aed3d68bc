"""Decision time at every computer level, on one core, at the web table's settings (issue #14 item 6).

Goal: p95 under 250 ms a decision at each level.  The web table makes its bots with
``kortbord.bots.registry.make_bot(game, level, rules)`` -- the level's own work, no time cap, the game's default
rules, two players -- and so does this bench.  Each level plays fresh seeded games against itself (every seat that
level, so the positions are the ones it reaches), in this one process; the CPU time of each ``choose`` with more
than one legal move is measured (``time.process_time``, so another program on the machine does not lengthen it;
the wall-clock time is printed beside it) until ``--decisions`` decisions are timed.  For each level it prints the
decisions, CPU p50 / p95 / max in milliseconds, the wall-clock p95, the ratio of the p95 to the goal and PASS or
MISS; Cribbage also per kind of decision (discard, pegging, show).  Levels that land in the registry later (an
``expert``) are measured too; a level that learns from the table (:func:`kortbord.bots.registry.observes`) is told
every public event, as the web table tells it (the telling is not timed).

Usage (from the repository root; about a minute with the defaults on an idle core)::

    nice -n 10 .venv/bin/python bench/decision_times.py
    .venv/bin/python bench/decision_times.py --game cribbage --levels strong --decisions 200 --json times.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from kortbord import core
from kortbord.arena import percentile
from kortbord.bots import registry
from kortbord.bots.base import Observer

GOAL_MS = 250.0
#: The standard names of a decision kind where they differ from the view's phase.
_KINDS = {("cribbage", "play"): "pegging"}


def measure(game: str, level: str, decisions: int, seed: int) -> dict[str, Any]:
    """Time ``decisions`` decisions (with a choice) of ``level`` playing ``game`` against itself.

    Returns:
        ``{"game", "level", "n", "cpu_ms": {"p50", "p95", "max"}, "wall_p95_ms", "by_kind": {kind: {...}}}``.
    """
    spec = core.get(game)
    rules = registry.resolve_rules(game)
    cpu: list[float] = []
    wall: list[float] = []
    kinds: dict[str, list[float]] = {}
    g = 0
    while len(cpu) < decisions:
        state = spec.new_game(rules, players=2)
        bots = [registry.make_bot(game, level, rules) for _ in range(2)]
        chance = random.Random(f"decision-times:{seed}:{game}:{g}:deals")
        rngs = [random.Random(f"decision-times:{seed}:{game}:{g}:seat:{s}") for s in range(2)]
        g += 1
        watching = [b for b in bots if isinstance(b, Observer)]

        def tell(state: Any, events: Any, watching: list[Observer] = watching) -> Any:
            for bot in watching:  # a level that learns from the table is told its public events, as at the table
                bot.observe(list(events))
            return state

        while not spec.is_over(state) and len(cpu) < decisions:
            if spec.is_chance(state):
                state = tell(*spec.step(state, spec.chance_outcome(state, chance)))
                continue
            seat = spec.to_act(state)
            assert seat is not None
            legal = spec.legal_moves(state)
            view = spec.view(state, seat)
            c0, w0 = time.process_time(), time.perf_counter()
            move = bots[seat].choose(view, list(legal), rngs[seat])
            c1, w1 = time.process_time(), time.perf_counter()
            if len(legal) > 1:
                ms = (c1 - c0) * 1000.0
                cpu.append(ms)
                wall.append((w1 - w0) * 1000.0)
                kind = str(view.phase)
                kinds.setdefault(_KINDS.get((game, kind), kind), []).append(ms)
            state = tell(*spec.step(state, move))

    def stats(xs: list[float]) -> dict[str, float]:
        return {"n": len(xs), "p50": percentile(xs, 50), "p95": percentile(xs, 95), "max": max(xs)}

    return {
        "game": game,
        "level": level,
        "n": len(cpu),
        "games": g,
        "cpu_ms": stats(cpu),
        "wall_p95_ms": percentile(wall, 95),
        "by_kind": {k: stats(v) for k, v in sorted(kinds.items())} if game == "cribbage" else {},
    }


def _commit() -> str | None:
    """The checkout's commit (with ``+changes`` when files differ from it), or None outside a git checkout: a result
    file says which code made it."""
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent  # the checkout: git reads the paths below from there
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, check=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "bench"], cwd=here, capture_output=True, text=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def main(argv: list[str] | None = None) -> int:
    """Run the bench; exit status 0 when every level meets the goal, 1 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=registry.GAMES, action="append", help="a game (default: both)")
    parser.add_argument("--levels", help="comma-separated levels (default: every level of the registry)")
    parser.add_argument(
        "--decisions",
        type=int,
        default=0,
        help="decisions per level (default: 60 for search levels, 400 for the others)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    commit = _commit()  # the code that runs: read before the run, not after it
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    games = args.game or list(registry.GAMES)
    rows: list[dict[str, Any]] = []
    for game in games:
        levels = args.levels.split(",") if args.levels else list(registry.available_levels(game))
        for level in levels:
            n = args.decisions or (60 if registry.level_work(game, level) else 400)
            rows.append(measure(game, level, n, args.seed))
    table = Table(
        title=f"Decision time per level, CPU ms on one core ({platform.python_implementation()} "
        f"{platform.python_version()}), goal p95 < {GOAL_MS:g} ms",
        title_justify="left",
        header_style="bold",
    )
    for col in (
        "game",
        "level",
        "decisions",
        "p50",
        "p95",
        "max",
        "wall p95",
        "p95 / goal",
        "verdict",
        "by kind (p95)",
    ):
        table.add_column(col, justify="left" if col in ("game", "level", "verdict", "by kind (p95)") else "right")
    ok = True
    for r in rows:
        c = r["cpu_ms"]
        passed = c["p95"] < GOAL_MS
        ok &= passed
        kinds = ", ".join(f"{k} {v['p95']:.1f}" for k, v in r["by_kind"].items())
        table.add_row(
            r["game"],
            r["level"],
            str(r["n"]),
            f"{c['p50']:.1f}",
            f"{c['p95']:.1f}",
            f"{c['max']:.1f}",
            f"{r['wall_p95_ms']:.1f}",
            f"{c['p95'] / GOAL_MS:.2f}",
            "PASS" if passed else "MISS",
            kinds,
        )
    console.print(table)
    console.print(
        f"[dim]command: {' '.join(['bench/decision_times.py', *(argv if argv is not None else sys.argv[1:])])}[/]"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            command = ["bench/decision_times.py", *(argv if argv is not None else sys.argv[1:])]
            made = {"command": command, "commit": commit, "machine": platform.machine(), "date": time.strftime("%F")}
            json.dump({"goal_ms": GOAL_MS, "seed": args.seed, **made, "levels": rows}, fh, indent=1)
            fh.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
