"""Cribbage engine benchmark: kortbord's random full games per second against OpenSpiel's, in one process and run.

Measured in the same process, one after the other, for 2, 3 and 4 players:

* **kortbord, scalar**: ``new_game(Rules(players=n))`` (first dealer by the cut for deal), then until ``is_over``:
  at a chance node ``apply(state, chance_outcome(state, rng))``, otherwise ``apply(state, rng.choice(legal_moves(
  state)))``; games to 121 with automatic counting (the standard game);
* **kortbord, batched**: :func:`kortbord.cribbage.batch.play_random` -- ``--batch`` games at once on NumPy arrays,
  the same rules, uniformly random legal actions, the deals of ``Game(rules, seed)`` for fresh seeds (seeding the
  generators, shuffling and every step timed);
* **OpenSpiel, Python loop**: ``bench/openspiel_cribbage.py``'s :func:`openspiel_python_loop` (uniform chance
  outcome or legal action, ``apply_action``, until terminal; OpenSpiel's target is fixed at 121, spec §7);
* **OpenSpiel, C++ loop**: its :func:`openspiel_cpp_loop` (``pyspiel.evaluate_bots`` with uniform random bots).

Each figure is the median of 3 runs (after a warm-up of each loop), in games per **CPU** second of this process
(``time.process_time``: every loop is single-threaded, and CPU time keeps other load on the machine from skewing
the ratios).  Goal (issue #13, item 2): the batched engine >= 2x OpenSpiel's C++ loop in the same run.  Like for
like: both play the standard game to 121 with the same player counts (4 = partnerships); OpenSpiel takes more
steps per game (a chance action per card dealt).  Then the time to score all 12,994,800 (hand, starter) pairs
(``show_totals_all``): cold in a fresh process (tables built first), warm in this one; goal (item 3) < 1 s / < 0.3 s
CPU.

Usage (from the repository root, after ``make test`` or ``make run`` has set up ``.venv``)::

    .venv/bin/python bench/cribbage_engine.py            # about a minute
    .venv/bin/python bench/cribbage_engine.py --quick    # a few seconds: fewer games, one run
    .venv/bin/python bench/cribbage_engine.py --curve --players 2 --quick   # games/s against the batch size
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from kortbord.cribbage import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
from kortbord.cribbage.batch import play_random

HERE = Path(__file__).resolve().parent
GAMES, CPP_GAMES, RUNS = 1_000, 5_000, 3
QUICK_GAMES, QUICK_CPP_GAMES, QUICK_RUNS = 150, 1_000, 1
WARMUP_GAMES, QUICK_WARMUP_GAMES = 300, 100  # kortbord's scoring caches fill during the first games
BATCH, QUICK_BATCH = 8_192, 4_096  # games per batched run (8,192: the best N on the 2-core dev machine; --curve)
CURVE = (512, 1_024, 2_048, 4_096, 8_192, 16_384)  # batch sizes of --curve
GOAL_BATCH_VS_CPP = 2.0
GOAL_SHOWS_COLD, GOAL_SHOWS_WARM = 1.0, 0.3  # CPU seconds


def _load(name: str) -> ModuleType:
    """Import ``bench/<name>.py`` by path (``bench`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kortbord_games(players: int, games: int, seed: int) -> None:
    """Play ``games`` uniformly random kortbord Cribbage games through the public engine API.

    Args:
        players: 2, 3 or 4 (4 = partnerships).
        games: complete games to 121, >= 1.
        seed: seeds the one ``random.Random`` that draws every chance move and decision.
    """
    rules = Rules(players=players)
    rng = random.Random(seed)
    choice = rng.choice
    for _ in range(games):
        state = new_game(rules)
        while not is_over(state):
            if is_chance(state):
                state = apply(state, chance_outcome(state, rng))
            else:
                state = apply(state, choice(legal_moves(state)))


def batch_games(players: int, games: int, seed: int) -> None:
    """Play ``games`` uniformly random Cribbage games to 121 at once with the batched engine.

    Args:
        players: 2, 3 or 4 (4 = partnerships).
        games: games in the batch, >= 1; their chance seeds are ``games`` numbers drawn from ``seed``.
        seed: seeds the chance seeds and the decisions.
    """
    seeds = random.Random(seed).sample(range(2**32), games)
    play_random(Rules(players=players), seeds, rng=seed)


def shows_cold_warm(runs: int) -> tuple[float, float]:
    """CPU seconds of ``show_totals_all()``: the first call in a fresh process (cold: the tables built first;
    importing NumPy and kortbord not counted) and the median of ``runs`` later calls (warm)."""
    code = (
        "import time; from kortbord.cribbage.scoring import show_totals_all\n"
        "t = time.process_time(); show_totals_all(); cold = time.process_time() - t\n"
        f"warm = []\nfor _ in range({runs}):\n"
        "    t = time.process_time(); show_totals_all(); warm.append(time.process_time() - t)\n"
        "print(cold, sorted(warm)[len(warm) // 2])"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def per_cpu_second(loop: Callable[[int, int, int], object], players: int, games: int, seed: int) -> float:
    """Games per CPU second of ``loop(players, games, seed)`` (``time.process_time``)."""
    start = time.process_time()
    loop(players, games, seed)
    return games / (time.process_time() - start)


def measure(
    players: int, games: int, cpp_games: int, batch: int, runs: int, warmup: int, seed: int, python_loops: bool = True
) -> dict[str, float]:
    """Median games per CPU second of each loop for ``players`` (keys ``scalar``, ``batch``, ``python``, ``cpp``;
    the Python loops only with ``python_loops``) and the median per-run ratio ``batch_vs_cpp``."""
    peer = _load("openspiel_cribbage")
    batch_games(players, min(batch, 256), seed + 10_000)
    if python_loops:
        kortbord_games(players, warmup, seed + 10_000)
        peer.openspiel_python_loop(players, warmup, seed + 10_000)
    peer.openspiel_cpp_loop(players, 200, seed + 10_000)
    res: dict[str, list[float]] = {"scalar": [], "batch": [], "python": [], "cpp": [], "batch_vs_cpp": []}
    for r in range(runs):
        if python_loops:
            res["scalar"].append(per_cpu_second(kortbord_games, players, games, seed + r))
            res["python"].append(per_cpu_second(peer.openspiel_python_loop, players, games, seed + r))
        b = per_cpu_second(batch_games, players, batch, seed + r)
        c = per_cpu_second(peer.openspiel_cpp_loop, players, cpp_games, seed + r * cpp_games)
        res["batch"].append(b)
        res["cpp"].append(c)
        res["batch_vs_cpp"].append(b / c)
    return {k: statistics.median(v) for k, v in res.items() if v}


def batch_curve(
    players: int, sizes: tuple[int, ...], cpp_games: int, runs: int, seed: int
) -> list[tuple[int, float, float]]:
    """Batched games per CPU second against the batch size: ``(N, games/s, ratio to the C++ loop)`` per size,
    medians of ``runs`` runs, each batched run next to a run of OpenSpiel's C++ loop (``cpp_games`` games)."""
    peer = _load("openspiel_cribbage")
    batch_games(players, 256, seed + 10_000)
    peer.openspiel_cpp_loop(players, 200, seed + 10_000)
    out = []
    for size in sizes:
        rates, ratios = [], []
        for r in range(runs):
            b = per_cpu_second(batch_games, players, size, seed + r)
            c = per_cpu_second(peer.openspiel_cpp_loop, players, cpp_games, seed + r * cpp_games)
            rates.append(b)
            ratios.append(b / c)
        out.append((size, statistics.median(rates), statistics.median(ratios)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games ({QUICK_CPP_GAMES} C++), one run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=None, help=f"games per batched run (default {BATCH:,})")
    parser.add_argument("--no-shows", action="store_true", help="skip the all-shows timing")
    parser.add_argument("--curve", action="store_true", help="only the batched engine's games/s against the batch size")
    args = parser.parse_args(argv)
    games, cpp_games, runs = (QUICK_GAMES, QUICK_CPP_GAMES, QUICK_RUNS) if args.quick else (GAMES, CPP_GAMES, RUNS)
    warmup = QUICK_WARMUP_GAMES if args.quick else WARMUP_GAMES
    batch = args.batch or (QUICK_BATCH if args.quick else BATCH)
    command = " ".join([".venv/bin/python", "bench/cribbage_engine.py", *(sys.argv[1:] if argv is None else argv)])

    peer = _load("openspiel_cribbage")
    if args.curve:
        print("kortbord.cribbage.batch: random games to 121 per CPU second against the batch size N")
        print(f"reproduce: {command}")
        print(f"{'players':>7} | {'N':>6} | {'games/s':>8} | {'v C++ loop':>10}")
        for players in args.players:
            for size, rate, ratio in batch_curve(players, CURVE, cpp_games, runs, args.seed):
                print(f"{players:>7} | {size:>6,} | {rate:>8,.0f} | {ratio:>9.2f}x")
        return 0
    print("kortbord Cribbage engines v OpenSpiel cribbage: uniformly random full games to 121, games per second")
    print(f"reproduce: {command}")
    print(
        f"CPython {platform.python_version()}, open_spiel {peer._openspiel_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores; one process, games per CPU second, median of {runs} run(s); {games:,} games per "
        f"Python-loop run, {batch:,} per batched run, {cpp_games:,} per C++ run"
    )
    print()
    head = (
        f"{'players':>7} | {'scalar':>7} | {'batched':>8} | {'OpenSpiel Python':>16} | {'OpenSpiel C++':>13} | "
        f"{'scalar/Py':>9} | {'batched/C++':>11}"
    )
    print(head)
    print("-" * len(head))
    ratios = []
    for players in args.players:
        m = measure(players, games, cpp_games, batch, runs, warmup, args.seed)
        ratios.append(m["batch_vs_cpp"])
        print(
            f"{players:>7} | {m['scalar']:>7,.0f} | {m['batch']:>8,.0f} | {m['python']:>16,.0f} | {m['cpp']:>13,.0f} | "
            f"{m['scalar'] / m['python']:>8.2f}x | {m['batch_vs_cpp']:>10.2f}x"
        )
    met = min(ratios) >= GOAL_BATCH_VS_CPP
    print(
        f"goal (issue #13): batched >= {GOAL_BATCH_VS_CPP:.2f}x OpenSpiel's C++ loop -- {'met' if met else 'NOT met'}"
    )

    if not args.no_shows:
        cold, warm = shows_cold_warm(max(runs, 3))
        print()
        print("All 12,994,800 (hand, starter) shows scored (show_totals_all, NumPy), CPU seconds:")
        print(f"  cold (a fresh process, tables built first): {cold:6.3f} s   goal < {GOAL_SHOWS_COLD} s")
        print(f"  warm (median of {max(runs, 3)}):                      {warm:6.3f} s   goal < {GOAL_SHOWS_WARM} s")
        ok = cold < GOAL_SHOWS_COLD and warm < GOAL_SHOWS_WARM
        print(
            f"goal (issue #13): cold < {GOAL_SHOWS_COLD} s, warm < {GOAL_SHOWS_WARM} s -- {'met' if ok else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
