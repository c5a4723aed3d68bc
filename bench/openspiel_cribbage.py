"""OpenSpiel's cribbage as the speed peer: random playouts per second (rules spec §7, "Random playout speed").

Two measurements, exactly as the spec describes them:

(a) Python loop: ``game.new_initial_state()``, then until terminal: a uniform chance outcome at chance nodes or a
    uniform legal action otherwise, then ``apply_action``. 1,000 games per run.
(b) C++ loop: ``pyspiel.evaluate_bots(state, [make_uniform_random_bot(p, seed) ...], seed)``, one call per game.
    10,000 games per run.

Each figure printed is the median of 3 runs, in games per second, for 2, 3 and 4 players. ``--quick`` runs
100 / 1,000 games once. ``bench/cribbage_engine.py`` imports :func:`openspiel_python_loop` and
:func:`openspiel_cpp_loop` from this file by path, so nothing runs at import time.

Usage: ``.venv/bin/python bench/openspiel_cribbage.py [--quick] [--players 2 3 4] [--seed N]``
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

import pyspiel

PYTHON_GAMES = 1_000
CPP_GAMES = 10_000
QUICK_PYTHON_GAMES = 100
QUICK_CPP_GAMES = 1_000
RUNS = 3


def openspiel_python_loop(players: int, games: int, seed: int) -> float:
    """Play ``games`` uniformly random OpenSpiel cribbage games from Python; return games per second.

    Args:
        players: 2, 3 or 4.
        games: number of complete games (to 121) to play, >= 1.
        seed: seeds the ``random.Random`` that draws every chance outcome and action.
    Returns:
        Games per second (wall clock, ``time.perf_counter``), including ``new_initial_state()``.
    """
    game = pyspiel.load_game("cribbage", {"players": players})
    rng = random.Random(seed)
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def openspiel_cpp_loop(players: int, games: int, seed: int) -> float:
    """Play ``games`` OpenSpiel cribbage games with ``pyspiel.evaluate_bots`` and uniform random bots.

    Each game is one ``evaluate_bots`` call (the whole game runs in C++); game ``i`` uses chance seed ``seed + i``
    and the bots (one ``make_uniform_random_bot(p, seed + p)`` per player, created once) keep their own generators.

    Args:
        players: 2, 3 or 4.
        games: number of complete games, >= 1.
        seed: base seed.
    Returns:
        Games per second (wall clock).
    """
    game = pyspiel.load_game("cribbage", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
    start = time.perf_counter()
    for i in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return games / (time.perf_counter() - start)


def actions_per_game(players: int, games: int, seed: int) -> float:
    """Mean number of OpenSpiel actions (chance outcomes included) in uniformly random games."""
    game = pyspiel.load_game("cribbage", {"players": players})
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            total += 1
    return total / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 Python / 1,000 C++ games, one run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    py_games, cpp_games, runs = (
        (QUICK_PYTHON_GAMES, QUICK_CPP_GAMES, 1) if args.quick else (PYTHON_GAMES, CPP_GAMES, RUNS)
    )
    command = " ".join([".venv/bin/python", "bench/openspiel_cribbage.py", *(sys.argv[1:] if argv is None else argv)])
    print(
        f"OpenSpiel cribbage random playouts: open_spiel {_openspiel_version()}, "
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        f"median of {runs} run(s), games per second"
    )
    print(f"reproduce: {command}")
    head_py, head_cpp = f"Python loop ({py_games:,} games)", f"C++ evaluate_bots ({cpp_games:,} games)"
    print(f"players | {head_py} | {head_cpp} | actions/game")
    for players in args.players:
        py = statistics.median(openspiel_python_loop(players, py_games, args.seed + r) for r in range(runs))
        cpp = statistics.median(openspiel_cpp_loop(players, cpp_games, args.seed + r * cpp_games) for r in range(runs))
        apg = actions_per_game(players, min(py_games, 200), args.seed)
        print(f"{players:>7} | {py:>{len(head_py)},.0f} | {cpp:>{len(head_cpp)},.0f} | {apg:>12,.0f}")
    return 0


def _openspiel_version() -> str:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # pragma: no cover - metadata missing in odd installs
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
