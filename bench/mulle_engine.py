"""Mulle engine benchmark: random 2-player 8+8 rounds per second and legal-move generations per second.

One core, pure Python.  There is no other Mulle engine to measure against, so the ratio printed is against the
project's target (2,000 random rounds per second).  Reproduce with:

    .venv/bin/python bench/mulle_engine.py [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time

from kortbord.mulle import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
from kortbord.mulle.engine import _legal
from kortbord.mulle.state import State

TARGET_ROUNDS_PER_S = 2000.0


def random_rounds(n: int, seed: int) -> tuple[float, int]:
    """Play ``n`` random 2-player 8+8 rounds (shuffle, deal, uniformly random legal moves, scoring)."""
    rules = Rules(game_length="single_round")
    rng = random.Random(seed)
    moves = 0
    t0 = time.perf_counter()
    for _ in range(n):
        s = new_game(rules, players=2, dealer=0)
        while not is_over(s):
            m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
            s = apply(s, m)
            moves += 1
    return time.perf_counter() - t0, moves


def sample_states(n: int, seed: int) -> list[State]:
    rules = Rules(game_length="single_round")
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        s = new_game(rules, players=2, dealer=0)
        while not is_over(s):
            m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
            s = apply(s, m)
            if s.phase == "play" and rng.random() < 0.1:
                out.append(dataclasses.replace(s, _cache={}))
    return out[:n]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    random_rounds(20, args.seed + 99)  # warm caches
    secs, moves = random_rounds(args.rounds, args.seed)
    rps = args.rounds / secs
    states = sample_states(2000, args.seed)
    t0 = time.perf_counter()
    reps = 3
    total = 0
    for _ in range(reps):
        for s in states:
            total += len(_legal(s))
    gen_secs = time.perf_counter() - t0
    gps = reps * len(states) / gen_secs
    print(f"python {sys.version.split()[0]}, one core, pure Python")
    print(f"random 2-player 8+8 rounds: {rps:,.0f} rounds/s ({moves / secs:,.0f} moves/s incl. legal-move lists)")
    print(f"  vs target {TARGET_ROUNDS_PER_S:,.0f} rounds/s: ratio {rps / TARGET_ROUNDS_PER_S:.2f}")
    print(
        f"legal-move generation (uncached, mid-round states): {gps:,.0f} positions/s, {total / reps / len(states):.1f} moves avg"
    )
    print("reproduce: .venv/bin/python bench/mulle_engine.py " + " ".join(argv or sys.argv[1:]))


if __name__ == "__main__":
    main()
