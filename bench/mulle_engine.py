"""Mulle engine benchmark: random 2-player 8+8 rounds per second and legal-move generations per second.

One core, pure Python.  There is no other Mulle engine to measure against, so the ratio printed is against the
project's target (2,000 random rounds per second).  Times are CPU seconds of this process (``time.process_time``,
best of ``--repeat`` runs), so other work on a shared machine does not count against the engine.  Reproduce with:

    .venv/bin/python bench/mulle_engine.py [--rounds N] [--seed S] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from kortbord.mulle import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
from kortbord.mulle.engine import _apply_play, _legal
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.state import State

TARGET_ROUNDS_PER_S = 2000.0


def random_rounds(n: int, seed: int) -> tuple[float, int]:
    """Play ``n`` random 2-player 8+8 rounds (shuffle, deal, uniformly random legal moves, scoring).

    Returns (CPU seconds, moves played including the shuffles)."""
    rules = Rules(game_length="single_round")
    rng = random.Random(seed)
    moves = 0
    t0 = time.process_time()
    for _ in range(n):
        s = new_game(rules, players=2, dealer=0)
        while not is_over(s):
            m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
            s = apply(s, m)
            moves += 1
    return time.process_time() - t0, moves


def sample_positions(n: int, seed: int) -> list[tuple[State, PlayerMove]]:
    """About ``n`` mid-round positions of random rounds, each with the random move played there."""
    rules = Rules(game_length="single_round")
    rng = random.Random(seed)
    out: list[tuple[State, PlayerMove]] = []
    while len(out) < n:
        s = new_game(rules, players=2, dealer=0)
        while not is_over(s):
            if is_chance(s):
                s = apply(s, chance_outcome(s, rng))
                continue
            m = rng.choice(legal_moves(s))
            if rng.random() < 0.1:
                out.append((s, m))
            s = apply(s, m)
    return out[:n]


def best_of(repeat: int, fn: object) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        best = min(best, time.process_time() - t0)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    random_rounds(20, args.seed + 99)  # warm caches
    runs = [random_rounds(args.rounds, args.seed) for _ in range(args.repeat)]
    secs, moves = min(runs)
    rps = args.rounds / secs

    positions = sample_positions(2000, args.seed)
    total = sum(len(_legal(s)) for s, _ in positions)  # also warms the per-table caches

    def generate() -> None:
        for s, _ in positions:
            _legal(s)

    def play() -> None:
        for s, m in positions:
            _apply_play(s, m, False)

    gen_secs = best_of(args.repeat, generate)
    apply_secs = best_of(args.repeat, play)
    n = len(positions)
    print(f"python {sys.version.split()[0]}, one core, pure Python, CPU time best of {args.repeat}")
    print(
        f"random 2-player 8+8 rounds: {rps:,.0f} rounds/s ({moves / secs:,.0f} moves/s incl. shuffles, "
        f"legal-move lists and random choice; {secs / moves * 1e6:.1f} us per move)"
    )
    print(f"  vs target {TARGET_ROUNDS_PER_S:,.0f} rounds/s: ratio {rps / TARGET_ROUNDS_PER_S:.2f}")
    print(
        f"legal-move generation (mid-round positions, fresh per-state cache, per-table caches warm): "
        f"{n / gen_secs:,.0f} positions/s ({gen_secs / n * 1e6:.1f} us), {total / n:.1f} moves avg"
    )
    print(f"applying a legal move (no events, no legality check): {apply_secs / n * 1e6:.1f} us")
    print("reproduce: .venv/bin/python bench/mulle_engine.py " + " ".join(argv or sys.argv[1:]))


if __name__ == "__main__":
    main()
