"""Mulle engine benchmark: fresh random 2-player 8+8 rounds per CPU second, against the goal of issue #13.

Three loops play the same rounds: the fast core (``kortbord.mulle.fast.random_round``: plain ints, moves drawn in
the engine's canonical order, applied in place -- the loop the goal is measured on, as OpenSpiel's C++ loop is its
engine's own), and for reference the engine on move codes (``movegen.legal_codes``, ``transitions.apply_code``: no
move values, no events) and the public API on move values (``legal_moves``, ``apply``); all three play the same
games from the same seeds (``tests/mulle/test_fast_core.py``).  Every run
plays ``--rounds`` rounds per loop in a **fresh process** (the engine's caches cold), each round with its own seed
(``base + i``, ``base`` drawn from the operating system for every run and printed), so no run replays a seed with
warm caches.  The time is the CPU time of the rounds in that process (``time.process_time``: shuffle, deal,
uniformly random legal moves, scoring).  There is no other Mulle engine: issue #13 compares Mulle's rounds per
second with OpenSpiel's C++ random-game loop for its cribbage (``bench/openspiel_cribbage.py``'s
:func:`openspiel_cpp_loop`, 2 players, games per CPU second), measured in this run between the Mulle runs.

The fast core is measured as the source run by the interpreter (``KORTBORD_PURE=1`` in its processes) and, when
the optional compiled build is there (``make compiled``: mypyc, issue #13 item 5), also compiled, on the same seeds.

Goal (issue #13, item 1): >= 2,000 rounds/s on one core in CPython, >= 0.19x OpenSpiel's C++ loop in the same run.
The figure printed is the median over the runs, and the ratio the median of the per-run ratios.  Reproduce with:

    .venv/bin/python bench/mulle_engine.py [--rounds N] [--runs R] [--seed S]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
GOAL_ROUNDS_PER_S = 2_000.0
GOAL_RATIO_CPP = 0.19
ROUNDS, RUNS, CPP_GAMES = 300, 3, 1_500


def _load(name: str) -> ModuleType:
    """Import ``bench/<name>.py`` by path (``bench`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_rounds(n: int, base_seed: int, api: str = "codes") -> tuple[float, int]:
    """Play ``n`` random 2-player 8+8 rounds in this process, round ``i`` from ``random.Random(base_seed + i)``.

    ``api``: ``"fast"`` -- the fast core, ``kortbord.mulle.fast.random_round`` (the variant this process imports:
    see :func:`fresh_rounds_per_second`); ``"codes"`` -- the engine on move
    codes, ``movegen.legal_codes`` and ``transitions.apply_code`` (no move values, no events); ``"moves"`` -- the
    public ``legal_moves`` and ``apply`` on move values.  All play the same games from the same seeds (the same
    moves in the same order).  Returns (CPU seconds, moves played including the shuffles)."""
    from kortbord.mulle import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
    from kortbord.mulle.fast import random_round
    from kortbord.mulle.movegen import legal_codes
    from kortbord.mulle.transitions import apply_code

    rules = Rules(game_length="single_round")
    moves = 0
    t0 = time.process_time()
    if api == "fast":
        for i in range(n):
            moves += random_round(rules, random.Random(base_seed + i), players=2, dealer=0).moves + 1
    elif api == "codes":
        for i in range(n):
            rng = random.Random(base_seed + i)
            s = new_game(rules, players=2, dealer=0)
            while s.phase != "over":
                s = apply(s, chance_outcome(s, rng)) if s.phase == "deal" else apply_code(s, rng.choice(legal_codes(s)))
                moves += 1
    else:
        for i in range(n):
            rng = random.Random(base_seed + i)
            s = new_game(rules, players=2, dealer=0)
            while not is_over(s):
                m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
                s = apply(s, m)
                moves += 1
    return time.process_time() - t0, moves


def compiled_available() -> bool:
    """Whether the optional compiled fast core is built (``make compiled``) and not turned off here
    (``KORTBORD_PURE=1``), as a fresh process would import it."""
    out = subprocess.run(
        [sys.executable, "-c", "from kortbord.mulle import fast; print(fast.COMPILED)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return out == "True"


def fresh_rounds_per_second(rounds: int, base_seed: int, api: str = "fast") -> tuple[float, float]:
    """Rounds and moves per CPU second of ``rounds`` fresh rounds played in a new process (cold caches).

    ``api``: as :func:`random_rounds`, and ``"fast"`` is the fast core's source (the process runs with
    ``KORTBORD_PURE=1``), ``"compiled"`` its compiled build (the process checks that it has it)."""
    env = dict(os.environ)
    if api == "compiled":
        env.pop("KORTBORD_PURE", None)
    elif api == "fast":
        env["KORTBORD_PURE"] = "1"
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            "--rounds",
            str(rounds),
            "--seed",
            str(base_seed),
            "--api",
            api,
        ],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.split()
    secs, moves = float(out[0]), int(out[1])
    return rounds / secs, moves / secs


def measure(rounds: int, runs: int, cpp_games: int, seed: int | None) -> dict[str, float | None]:
    """Mulle rounds/s (median of ``runs`` fresh processes per loop) and OpenSpiel's C++ loop (2 players) in between.

    Returns ``{"rounds_per_s", "moves_per_s", "ratio"}`` for the fast core's source, ``{"compiled_rounds_per_s",
    "compiled_ratio"}`` for its compiled build (None when it is not built), ``{"codes_rounds_per_s",
    "codes_ratio"}`` for the engine on move codes and ``{"api_rounds_per_s", "api_ratio"}`` for the public
    move-value API (the same seeds), and ``"cpp_games_per_s"`` (ratios: medians of the per-run ratios of Mulle
    rounds/s to C++ games/s); the seeds used are printed.
    """
    peer = _load("openspiel_cribbage")
    system = random.SystemRandom()
    rps, mps, codes_rps, api_rps, cpp, ratios, codes_ratios, api_ratios = [], [], [], [], [], [], [], []
    comp_rps: list[float] = []
    comp_ratios: list[float] = []
    compiled = compiled_available()
    for r in range(runs):
        base = system.randrange(2**40) if seed is None else seed + r * rounds
        print(f"  mulle run {r + 1}: {rounds} rounds, seeds {base}..{base + rounds - 1}", file=sys.stderr)
        k, m = fresh_rounds_per_second(rounds, base, "fast")
        start = time.process_time()
        peer.openspiel_cpp_loop(2, cpp_games, system.randrange(2**20))
        c = cpp_games / (time.process_time() - start)
        if compiled:
            kc, _ = fresh_rounds_per_second(rounds, base, "compiled")
            comp_rps.append(kc)
            comp_ratios.append(kc / c)
        e, _ = fresh_rounds_per_second(rounds, base, "codes")
        a, _ = fresh_rounds_per_second(rounds, base, "moves")
        rps.append(k)
        mps.append(m)
        codes_rps.append(e)
        api_rps.append(a)
        cpp.append(c)
        ratios.append(k / c)
        codes_ratios.append(e / c)
        api_ratios.append(a / c)
    return {
        "rounds_per_s": statistics.median(rps),
        "compiled_rounds_per_s": statistics.median(comp_rps) if compiled else None,
        "compiled_ratio": statistics.median(comp_ratios) if compiled else None,
        "moves_per_s": statistics.median(mps),
        "codes_rounds_per_s": statistics.median(codes_rps),
        "api_rounds_per_s": statistics.median(api_rps),
        "cpp_games_per_s": statistics.median(cpp),
        "ratio": statistics.median(ratios),
        "codes_ratio": statistics.median(codes_ratios),
        "api_ratio": statistics.median(api_ratios),
    }


def verdict(rounds_per_s: float, ratio: float) -> str:
    """``"met"`` or ``"NOT met"`` against the goal, with each half (2,000 rounds/s; 0.19x the C++ loop)."""
    met_abs = rounds_per_s >= GOAL_ROUNDS_PER_S
    met_ratio = ratio >= GOAL_RATIO_CPP
    return (
        f"{'met' if met_abs and met_ratio else 'NOT met'} (2,000: {'yes' if met_abs else 'no'}, "
        f"{GOAL_RATIO_CPP}x: {'yes' if met_ratio else 'no'})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="rounds per run (each a fresh process)")
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--cpp-games", type=int, default=CPP_GAMES, help="OpenSpiel C++ games after each run")
    ap.add_argument("--seed", type=int, default=None, help="base seed (default: a fresh one per run)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--api", choices=("fast", "compiled", "codes", "moves"), default="fast", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child and args.api == "compiled":
        from kortbord.mulle import fast

        if not fast.COMPILED:
            raise SystemExit("the compiled fast core is not built (make compiled)")
        args.api = "fast"
    if args.child:
        secs, moves = random_rounds(args.rounds, args.seed, args.api)
        print(secs, moves)
        return 0
    res: dict[str, Any] = measure(args.rounds, args.runs, args.cpp_games, args.seed)
    print(f"python {sys.version.split()[0]}, one core; CPU time; median of {args.runs} fresh processes")
    print(
        f"Mulle random 2-player 8+8 rounds, fast core (mulle.fast.random_round), pure Python: "
        f"{res['rounds_per_s']:,.0f} rounds/s ({res['moves_per_s']:,.0f} moves/s incl. shuffles); OpenSpiel C++ loop "
        f"(cribbage, 2 players) {res['cpp_games_per_s']:,.0f} games/s; ratio {res['ratio']:.3f}x -- {verdict(res['rounds_per_s'], res['ratio'])}"
    )
    if res["compiled_rounds_per_s"] is None:
        print("the same rounds on the compiled fast core: not built (make compiled)")
    else:
        print(
            f"the same rounds on the compiled fast core (mypyc, make compiled): {res['compiled_rounds_per_s']:,.0f} "
            f"rounds/s; ratio {res['compiled_ratio']:.3f}x -- {verdict(res['compiled_rounds_per_s'], res['compiled_ratio'])}"
        )
    print(
        f"the same rounds on the engine's move codes (legal_codes/apply_code): {res['codes_rounds_per_s']:,.0f} "
        f"rounds/s; ratio {res['codes_ratio']:.3f}x"
    )
    print(
        f"the same rounds on move values (legal_moves/apply): {res['api_rounds_per_s']:,.0f} rounds/s; "
        f"ratio {res['api_ratio']:.3f}x"
    )
    print(f"goal: >= {GOAL_ROUNDS_PER_S:,.0f} rounds/s and >= {GOAL_RATIO_CPP}x the C++ loop in the same run")
    print("reproduce: .venv/bin/python bench/mulle_engine.py " + " ".join(argv if argv is not None else sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
