#!/usr/bin/env python3
"""Quick strength and speed check of the strong Cribbage bot (the official arena run is separate).

* ``--mode greedy``: strong v greedy, games to the target, seats swapped every game (the first dealer is cut for
  at random each game); prints strong's win rate with a 95% interval.
* ``--mode self``: strong v strong; prints the points per complete deal of the dealer and the pone (the deal that
  ends the game is left out), to compare with the expert averages of the spec §5 (dealer 16.2, pone 10.1).

Both print the strong bot's decision times (discard, and play decisions with more than one legal move).

Usage::

    .venv/bin/python scripts/cribbage_strong_match.py --mode greedy --games 200 [--iterations 30 | --budget-ms 150]
        [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kortbord.bots.cribbage_simple import make_bot
from kortbord.bots.cribbage_strong import StrongBot
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.view import view as make_view


def play_one(args: tuple[int, str, float, int | None, int]) -> dict[str, Any]:
    game_no, mode, budget, iterations, target = args
    rules = Rules(target=target)
    strong_seat = game_no % 2
    bots: list[Any] = []
    for who in range(2):
        if mode == "self" or who == strong_seat:
            bots.append(StrongBot(time_budget_ms=budget, iterations=iterations))
        else:
            bots.append(make_bot("greedy"))
    rng = random.Random(10_000 + game_no)
    bot_rngs = [random.Random(game_no * 31 + s) for s in range(2)]
    state = engine.new_game(rules)
    times: dict[str, list[float]] = {"discard": [], "play": []}
    deals: list[tuple[int, int, bool]] = []  # (dealer points, pone points, strong deals) of complete deals
    start_scores: tuple[int, ...] | None = None
    dealer = -1
    while not engine.is_over(state):
        if engine.is_chance(state):
            if start_scores is not None and state.phase_name == "deal":
                gained = [a - b for a, b in zip(state.scores, start_scores, strict=True)]
                deals.append((gained[dealer], gained[1 - dealer], dealer == strong_seat))
            state = engine.apply(state, engine.chance_outcome(state, rng))
            if state.phase_name == "discard":
                start_scores, dealer = state.scores, int(state.dealer)
            continue
        seat = engine.to_act(state)
        assert seat is not None
        view = make_view(state, seat)
        legal = engine.legal_moves(state)
        t0 = time.perf_counter()
        move = bots[seat].choose(view, legal, bot_rngs[seat])
        dt = (time.perf_counter() - t0) * 1000
        if isinstance(bots[seat], StrongBot) and len(legal) > 1 and view.phase in times:
            times[view.phase].append(dt)
        state = engine.apply(state, move)
    res = engine.result(state)
    return {
        "strong_won": strong_seat in res.winners,
        "deals": deals,
        "times": times,
    }


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("greedy", "self"), default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget-ms", type=float, default=150.0)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--target", type=int, default=121)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="offset of the game numbers")
    args = parser.parse_args()
    jobs = [(args.seed + g, args.mode, args.budget_ms, args.iterations, args.target) for g in range(args.games)]
    t0 = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play_one, jobs))
    n = len(results)
    print(
        f"{n} games, mode {args.mode}, iterations {args.iterations}, budget {args.budget_ms} ms, "
        f"{time.time() - t0:.0f} s wall"
    )
    if args.mode == "greedy":
        wins = sum(r["strong_won"] for r in results)
        p = wins / n
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        print(f"strong wins {wins}/{n} = {p:.1%} (95% interval {p - half:.1%} .. {p + half:.1%})")
    deals = [d for r in results for d in r["deals"]]
    if deals and args.mode == "self":
        dealer = statistics.mean(d for d, _, _ in deals)
        pone = statistics.mean(p for _, p, _ in deals)
        print(f"complete deals {len(deals)}: dealer {dealer:.2f} points per deal, pone {pone:.2f}")
    elif deals:
        sd = [d for d, _, s in deals if s]
        sp = [p for _, p, s in deals if not s]
        gd = [d for d, _, s in deals if not s]
        gp = [p for _, p, s in deals if s]
        print(
            f"complete deals {len(deals)}: strong as dealer {statistics.mean(sd):.2f}, as pone "
            f"{statistics.mean(sp):.2f}; greedy as dealer {statistics.mean(gd):.2f}, as pone {statistics.mean(gp):.2f}"
        )
    for phase in ("discard", "play"):
        ts = [t for r in results for t in r["times"][phase]]
        if ts:
            print(
                f"{phase}: {len(ts)} decisions, median {statistics.median(ts):.1f} ms, p95 {pct(ts, 0.95):.1f} ms, "
                f"max {max(ts):.1f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
