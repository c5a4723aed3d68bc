"""``make bench``: one table of the engine figures of issue #13 against the peer measured in the same run.

Columns: figure, kortbord, the peer measured in this run, the ratio, the issue's goal, met or not.  Rows:

* Cribbage random games per CPU second, 2, 3 and 4 players, to 121: the batched engine
  (:func:`kortbord.cribbage.batch.play_random`) and, for reference, the scalar engine, each against OpenSpiel
  2.0.2's C++ random-game loop (``bench/openspiel_cribbage.py``, ``pyspiel.evaluate_bots``); goal >= 2x the C++
  loop (item 2), measured by ``bench/cribbage_engine.py``'s functions;
* Mulle random 2-player 8+8 rounds per CPU second, a fresh seed each round, each run a fresh process (cold
  caches), on the fast core (``kortbord.mulle.fast``) and, for reference, on the engine's move codes and on move
  values (the public API), against OpenSpiel's C++ cribbage loop for 2 players (there is no Mulle peer; the issue compares the
  two); goal >= 2,000 rounds/s and >= 0.19x the C++ loop (item 1), measured by ``bench/mulle_engine.py``;
* all 12,994,800 (hand, starter) show totals, CPU seconds, cold (a fresh process) and warm; goal < 1 s / < 0.3 s
  (item 3).

Ratios are medians of per-run ratios (each kortbord run next to a peer run), so load on a shared machine moves
both sides alike.  The detailed scripts (``bench/cribbage_engine.py``, ``bench/mulle_engine.py``,
``bench/cribbage_scoring.py``, ``bench/table_load.py``, ``bench/vs_previous.py``) print more.  Reproduce::

    .venv/bin/python bench/engines.py [--quick] [--write bench/results/engines-YYYY-MM-DD.md]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def _load(name: str) -> ModuleType:
    """Import ``bench/<name>.py`` by path (``bench`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller runs (a few seconds each)")
    ap.add_argument("--runs", type=int, default=None, help="runs per figure (default 3, 1 with --quick)")
    ap.add_argument("--write", type=Path, default=None, help="also write the table (markdown) to this file")
    args = ap.parse_args(argv)
    crib = _load("cribbage_engine")
    mulle = _load("mulle_engine")
    peer = _load("openspiel_cribbage")
    runs = args.runs or (1 if args.quick else 3)
    batch = crib.QUICK_BATCH if args.quick else crib.BATCH
    games, cpp_games = (150, 1_000) if args.quick else (400, 2_000)
    rounds = 100 if args.quick else 300

    rows: list[tuple[str, str, str, str, str, str]] = []

    def row(figure: str, ours: str, peer_text: str, ratio: str, goal: str, met: bool | None) -> None:
        rows.append((figure, ours, peer_text, ratio, goal, "—" if met is None else "met" if met else "NOT met"))
        print(f"  {figure}: {ours} | {peer_text} | {ratio} | {met}", file=sys.stderr)

    for players in (2, 3, 4):
        m = crib.measure(players, games, cpp_games, batch, runs, 100, 0)
        cpp = f"OpenSpiel C++ loop {m['cpp']:,.0f}"
        goal = f">= {crib.GOAL_BATCH_VS_CPP:.0f}x the C++ loop"
        row(f"Cribbage random {players}p games/s, batched ({batch:,} at once)", f"{m['batch']:,.0f}", cpp,
            f"{m['batch_vs_cpp']:.2f}x", goal, m["batch_vs_cpp"] >= crib.GOAL_BATCH_VS_CPP)  # fmt: skip
        row(f"Cribbage random {players}p games/s, scalar engine", f"{m['scalar']:,.0f}", cpp,
            f"{m['scalar'] / m['cpp']:.2f}x", "(reference: the batched engine carries the goal)", None)  # fmt: skip
    res = mulle.measure(rounds, runs, cpp_games, None)
    mulle_goal = f">= {mulle.GOAL_ROUNDS_PER_S:,.0f} (>= {mulle.GOAL_RATIO_CPP}x the C++ loop)"

    def mulle_met(rps: float, ratio: float) -> bool:
        return rps >= mulle.GOAL_ROUNDS_PER_S and ratio >= mulle.GOAL_RATIO_CPP

    row("Mulle random 2p 8+8 rounds/s, one core, a fresh seed each round (fast core, pure Python)",
        f"{res['rounds_per_s']:,.0f}", f"OpenSpiel C++ loop {res['cpp_games_per_s']:,.0f}", f"{res['ratio']:.3f}x",
        mulle_goal, mulle_met(res["rounds_per_s"], res["ratio"]))  # fmt: skip
    if res["compiled_rounds_per_s"] is None:
        row("Mulle random 2p 8+8 rounds/s, the same rounds on the compiled fast core (mypyc)",
            "not built (make compiled)", "—", "—", mulle_goal, None)  # fmt: skip
    else:
        row("Mulle random 2p 8+8 rounds/s, the same rounds on the compiled fast core (mypyc, make compiled)",
            f"{res['compiled_rounds_per_s']:,.0f}", f"OpenSpiel C++ loop {res['cpp_games_per_s']:,.0f}",
            f"{res['compiled_ratio']:.3f}x", mulle_goal,
            mulle_met(res["compiled_rounds_per_s"], res["compiled_ratio"]))  # fmt: skip
    row("Mulle random 2p 8+8 rounds/s, the same rounds on the engine's move codes (legal_codes/apply_code)",
        f"{res['codes_rounds_per_s']:,.0f}", f"OpenSpiel C++ loop {res['cpp_games_per_s']:,.0f}",
        f"{res['codes_ratio']:.3f}x", "(reference: the fast core carries the goal)", None)  # fmt: skip
    row("Mulle random 2p 8+8 rounds/s, the same rounds on move values (legal_moves/apply)",
        f"{res['api_rounds_per_s']:,.0f}", f"OpenSpiel C++ loop {res['cpp_games_per_s']:,.0f}",
        f"{res['api_ratio']:.3f}x", "(reference: the fast core carries the goal)", None)  # fmt: skip
    cold, warm = crib.shows_cold_warm(3)
    row("all 12,994,800 shows, cold (CPU)", f"{cold:.2f} s", "—", "—", f"< {crib.GOAL_SHOWS_COLD:.0f} s",
        cold < crib.GOAL_SHOWS_COLD)  # fmt: skip
    row("all 12,994,800 shows, warm (CPU)", f"{warm:.2f} s", "—", "—", f"< {crib.GOAL_SHOWS_WARM} s",
        warm < crib.GOAL_SHOWS_WARM)  # fmt: skip

    command = " ".join([".venv/bin/python", "bench/engines.py", *(sys.argv[1:] if argv is None else argv)])
    lines = [
        f"Engine figures of issue #13, {datetime.date.today().isoformat()}: CPython {platform.python_version()}, "
        f"open_spiel {peer._openspiel_version()}, {platform.machine()}, {os.cpu_count()} cores (shared); per CPU "
        f"second of one process, median of {runs} run(s), each kortbord run next to its peer run.",
        f"Reproduce: `{command}`",
        "",
        "| figure | kortbord | peer in the same run | ratio | goal | met |",
        "|---|---|---|---|---|---|",
        *(f"| {' | '.join(r)} |" for r in rows),
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.write is not None:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
