"""Cribbage engine benchmark: kortbord's random full games per second against OpenSpiel's, in one process and run.

Measured in the same process, one after the other, for 2, 3 and 4 players:

* **kortbord**: ``new_game(Rules(players=n))`` (first dealer by the cut for deal), then until ``is_over``: at a
  chance node ``apply(state, chance_outcome(state, rng))``, otherwise ``apply(state, rng.choice(legal_moves(state)))``;
  games to 121 with automatic counting (the standard game);
* **OpenSpiel, Python loop**: ``bench/openspiel_cribbage.py``'s :func:`openspiel_python_loop` (uniform chance
  outcome or legal action, ``apply_action``, until terminal; OpenSpiel's target is fixed at 121, spec §7);
* **OpenSpiel, C++ loop**: its :func:`openspiel_cpp_loop` (``pyspiel.evaluate_bots`` with uniform random bots).

Each figure is the median of 3 runs (after a warm-up of each loop: 300 games, 100 with ``--quick``; kortbord's
show memo is filled for all 6,175 rank multisets at the first show, about 0.26 s once per process, and the
play-points memo fills during the first games), in games per **CPU** second of this
process (``time.process_time``: every loop is single-threaded, and CPU time keeps other load on the machine from
skewing the ratios; the peer functions' own wall-clock figures are not used); the ratios are kortbord over
OpenSpiel (target: >= 1.0x the Python loop).  Like for like: both play the standard game to 121 with the same
player counts (4 = partnerships) and about the same number of deals per game (2 players: 12.5 kortbord, OpenSpiel's
round counter ends at 12.3); a kortbord game ends the moment a side reaches 121 (spec §2.4 item 8), and OpenSpiel
takes more steps per game (about 333 actions a 2-player game, a chance action per card dealt, against kortbord's
156 moves, a shuffle per deal), so it pays the loop's per-step calls more often.  Then the time to score all
12,994,800 (hand, starter) pairs (``bench/cribbage_scoring.py``'s :func:`time_all_shows`, cold and warm; target < 10 s).

Usage (from the repository root, after ``make test`` or ``make run`` has set up ``.venv``)::

    .venv/bin/python bench/cribbage_engine.py            # about a minute
    .venv/bin/python bench/cribbage_engine.py --quick    # a few seconds: fewer games, one run
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from kortbord.cribbage import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game

HERE = Path(__file__).resolve().parent
GAMES, CPP_GAMES, RUNS = 1_000, 5_000, 3
QUICK_GAMES, QUICK_CPP_GAMES, QUICK_RUNS = 150, 1_000, 1
WARMUP_GAMES, QUICK_WARMUP_GAMES = 300, 100  # kortbord's scoring caches fill during the first games


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


def per_cpu_second(loop: Callable[[int, int, int], object], players: int, games: int, seed: int) -> float:
    """Games per CPU second of ``loop(players, games, seed)`` (``time.process_time``)."""
    start = time.process_time()
    loop(players, games, seed)
    return games / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games ({QUICK_CPP_GAMES} C++), one run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-shows", action="store_true", help="skip the all-shows timing")
    args = parser.parse_args(argv)
    games, cpp_games, runs = (QUICK_GAMES, QUICK_CPP_GAMES, QUICK_RUNS) if args.quick else (GAMES, CPP_GAMES, RUNS)
    warmup = QUICK_WARMUP_GAMES if args.quick else WARMUP_GAMES
    command = " ".join([".venv/bin/python", "bench/cribbage_engine.py", *(sys.argv[1:] if argv is None else argv)])

    peer = _load("openspiel_cribbage")
    print("kortbord Cribbage engine v OpenSpiel cribbage: uniformly random full games to 121, games per second")
    print(f"reproduce: {command}")
    print(
        f"CPython {platform.python_version()}, open_spiel {peer._openspiel_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores; one process, games per CPU second, median of {runs} run(s); {games:,} games per "
        f"Python-loop run, {cpp_games:,} per C++ run, after {warmup} warm-up games"
    )
    print()
    head = (
        f"{'players':>7} | {'kortbord':>9} | {'OpenSpiel Python loop':>21} | {'ratio':>6} | "
        f"{'OpenSpiel C++ loop':>18} | {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    ratios = []
    for players in args.players:
        kortbord_games(players, warmup, args.seed + 10_000)
        peer.openspiel_python_loop(players, warmup, args.seed + 10_000)
        ours, py, cpp = [], [], []
        for r in range(runs):
            ours.append(per_cpu_second(kortbord_games, players, games, args.seed + r))
            py.append(per_cpu_second(peer.openspiel_python_loop, players, games, args.seed + r))
            cpp.append(per_cpu_second(peer.openspiel_cpp_loop, players, cpp_games, args.seed + r * cpp_games))
        k, p, c = statistics.median(ours), statistics.median(py), statistics.median(cpp)
        ratios.append(k / p)
        print(f"{players:>7} | {k:>9,.0f} | {p:>21,.0f} | {k / p:>5.2f}x | {c:>18,.0f} | {k / c:>5.2f}x")
    print(f"target: >= 1.00x OpenSpiel's Python loop -- {'met' if min(ratios) >= 1.0 else 'NOT met'}")

    if not args.no_shows:
        scoring = _load("cribbage_scoring")

        def shows() -> tuple[float, float]:
            start = time.process_time()
            wall = scoring.time_all_shows()
            return wall, time.process_time() - start

        cold = shows()
        warm = sorted(shows() for _ in range(runs))[runs // 2]
        print()
        print("All 12,994,800 (hand, starter) shows scored (show_totals_all, NumPy; target < 10 s):")
        print(f"  cold (tables built from the rules first): {cold[0]:6.2f} s wall, {cold[1]:6.2f} s CPU")
        print(f"  warm (median of {runs}):                    {warm[0]:6.2f} s wall, {warm[1]:6.2f} s CPU")
        print(f"target: < 10 s -- {'met' if max(cold) < 10 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
