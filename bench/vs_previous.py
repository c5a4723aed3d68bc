"""The engines against a previous version of themselves: random-play speed side by side in one run.

Issue #10 (the engine contract) asks that the engines are not slower: >= 0.95x the previous engine's random-play
speed.  This benchmark exports the engines of a git revision (default: ``92f39fa``, the last commit before the
contract) into a temporary folder with ``git archive`` and plays the same fresh random games with both, in
alternating fresh processes (cold caches each time), several times.  Each pair of measurements uses a new seed
drawn from the operating system, so no run replays one seed with warm caches.  Times are CPU seconds of the worker
process, so other work on a shared machine counts less; the ratio is the median over the pairs.

On a busy machine CPU time still varies by 10-20% from run to run.  ``--instructions`` counts the instructions
the interpreter executes instead (valgrind's callgrind, Debian package ``valgrind``): the same games with each engine,
minus the count of a run that plays no game (start-up and imports), so the ratio is the engines' work alone and is
repeatable whatever else the machine is doing.

Reproduce with:

    .venv/bin/python bench/vs_previous.py [--ref REV] [--pairs N] [--mulle-rounds R] [--cribbage-games G]
    .venv/bin/python bench/vs_previous.py --instructions [--mulle-rounds 30 --cribbage-games 40]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.95
DEFAULT_REF = "92f39fa"

#: The worker: plays random games through each engine's public functions (present in every version) and prints
#: games per CPU second.  Argument: game, players, count, seed.
WORKER = r"""
import random, sys, time
game, players, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
if game == "mulle":
    from kortbord.mulle import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
    rules = Rules(game_length="single_round")
    start = lambda: new_game(rules, players=players, dealer=0)
else:
    from kortbord.cribbage import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
    rules = Rules(players=players)
    start = lambda: new_game(rules)
t0 = time.process_time()
for _ in range(count):
    s = start()
    while not is_over(s):
        s = apply(s, chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s)))
print(count / (time.process_time() - t0))
"""


def export(ref: str, into: Path) -> Path:
    """The ``src`` tree of git revision ``ref`` unpacked under ``into``; returns the ``src`` folder.

    Raises:
        subprocess.CalledProcessError: ``ref`` is not a revision of this repository.
    """
    archive = into / "src.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), ref, "src"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def rate(src: Path, game: str, players: int, count: int, seed: int) -> float:
    """Games (Mulle: rounds) per CPU second of ``count`` random games with the engine in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", WORKER, game, str(players), str(count), str(seed)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip())


def instructions(src: Path, game: str, players: int, count: int, seed: int) -> int:
    """Instructions callgrind counts for ``count`` random games with the engine in ``src``, less a run of none.

    Raises:
        RuntimeError: valgrind is missing or printed no count.
    """
    env = {**os.environ, "PYTHONPATH": str(src)}
    totals = []
    for n in (0, count):
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", WORKER,
             game, str(players), str(n), str(seed)],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        found = re.search(r"Collected : (\d+)", out.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {out.stderr[-300:]}")
        totals.append(int(found.group(1)))
    return totals[1] - totals[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--ref", default=DEFAULT_REF, help=f"the previous version (git revision; default {DEFAULT_REF})")
    ap.add_argument("--pairs", type=int, default=5, help="measurements per engine and figure (default 5)")
    ap.add_argument("--mulle-rounds", type=int, default=150)
    ap.add_argument("--cribbage-games", type=int, default=300)
    ap.add_argument("--instructions", action="store_true", help="count instructions under callgrind, not CPU time")
    args = ap.parse_args(argv)
    if args.instructions:
        args.mulle_rounds = min(args.mulle_rounds, 30)
        args.cribbage_games = min(args.cribbage_games, 40)
    figures = [("mulle", 2, args.mulle_rounds, "Mulle random 2p 8+8 rounds/s")]
    figures += [("cribbage", p, args.cribbage_games, f"Cribbage random {p}p games/s") for p in (2, 3, 4)]
    sysrng = random.SystemRandom()
    with tempfile.TemporaryDirectory() as tmp:
        old = export(args.ref, Path(tmp))
        new = ROOT / "src"
        if args.instructions:
            return _by_instructions(args, figures, old, new, sysrng.randrange(2**31))
        print(f"previous engine: {args.ref}; {args.pairs} pairs per figure, fresh seeds, alternating order")
        print(f"{'figure':<32} {'now':>9} {'previous':>9} {'ratio':>7}  goal    met")
        all_met = True
        for game, players, count, label in figures:
            now: list[float] = []
            before: list[float] = []
            ratios: list[float] = []
            for i in range(args.pairs):
                seed = sysrng.randrange(2**31)
                pair = [(new, now), (old, before)]
                if i % 2:
                    pair.reverse()
                for src, into in pair:
                    into.append(rate(src, game, players, count, seed))
                ratios.append(now[-1] / before[-1])
            ratio = statistics.median(ratios)
            met = ratio >= GOAL
            all_met &= met
            print(
                f"{label:<32} {statistics.median(now):>9.0f} {statistics.median(before):>9.0f} {ratio:>6.2f}x"
                f"  >={GOAL:.2f}x {'met' if met else 'MISSED'}"
                f"   (pairs: {', '.join(f'{r:.2f}' for r in ratios)})"
            )
    return 0 if all_met else 1


def _by_instructions(
    args: argparse.Namespace, figures: list[tuple[str, int, int, str]], old: Path, new: Path, seed: int
) -> int:
    print(f"previous engine: {args.ref}; instructions counted by callgrind, seed {seed}, the same games for both")
    print(f"{'figure':<32} {'now (M instr)':>14} {'previous':>9} {'speed ratio':>12}  goal    met")
    all_met = True
    for game, players, count, label in figures:
        now = instructions(new, game, players, count, seed)
        before = instructions(old, game, players, count, seed)
        ratio = before / now  # fewer instructions for the same games: faster
        met = ratio >= GOAL
        all_met &= met
        print(
            f"{label:<32} {now / 1e6:>14.1f} {before / 1e6:>9.1f} {ratio:>11.3f}x  >={GOAL:.2f}x"
            f" {'met' if met else 'MISSED'}"
        )
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
