#!/usr/bin/env python3
"""Compute the two-player Cribbage win-probability table used by the strong bot (``bots/data/win_table.json``).

What it computes (rules spec ``../shared/rules/cribbage.md`` §2.4 the play, §2.6 the order of counting and the
game's end, §5 "First-dealer advantage" and "Distributed Cribbage Computation": win probabilities for all board
positions):

``dealer[a][b]`` = the probability that the player who deals next wins, when the dealer has ``a`` points and the
pone ``b`` (0 <= a, b < target), for targets 61 and 121.  The pone's chance at the same board is
``1 - dealer[b][a]`` (both players play alike).

Method.

1. **Points per deal.** ``--deals`` random two-player deals (seeded) played by the project's bots: both lay away
   with the strong bot's discard (:func:`kortbord.bots.cribbage_strong.discard_values`: exact hand average plus
   the crib table) and peg with the greedy bot.  Five distributions are recorded: the dealer's pegging (his heels
   included), the pone's pegging, the pone's hand, the dealer's hand plus crib, and the crib alone (the bot uses
   it for its end-game discards).
2. **Board values by value iteration.**  A deal is modelled in the order the rules count it (§2.6): first both
   players' pegging (the dealer's checked first when both would reach the target -- the dealer plays the last
   card), then the pone's hand, then the dealer's hand and crib; whoever reaches the target first wins, otherwise
   the deal passes and the roles swap.  The four amounts are taken as independent.  Every deal adds at least one
   point (the dealer always pegs the go or last card with two players), so iterating the recursion from
   ``dealer = 0.5`` everywhere converges; it stops when no value changes by more than 1e-9.

The outside checks (tests/bots/test_win_table.py): the first dealer's chance at 0-0 to 121 comes out near the
55-56% measured by Cribbage Pro over millions of games, and dealer 35 v pone 37 near the 51% of the "Distributed
Cribbage Computation" (both in spec §5).

Usage::

    .venv/bin/python scripts/make_win_table.py [--deals 40000] [--seed 2024] [--out src/kortbord/bots/data/win_table.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kortbord import cribbage
from kortbord.bots.cribbage_simple import GreedyBot
from kortbord.bots.cribbage_strong import discard_values
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import show_total

FloatArray = npt.NDArray[np.float64]
TARGETS = (61, 121)


def simulate(deals: int, seed: int) -> dict[str, Counter[int]]:
    """Points of ``deals`` two-player deals: {"dealer_peg", "pone_peg", "pone_show", "dealer_show" (hand + crib),
    "crib"} -> Counter of points."""
    rules = Rules(muggins=True)  # the play ends at the show (counted here from the kept cards)
    greedy = GreedyBot()
    out: dict[str, Counter[int]] = {
        k: Counter() for k in ("dealer_peg", "pone_peg", "pone_show", "dealer_show", "crib")
    }
    for i in range(deals):
        dealer = i % 2
        pone = 1 - dealer
        chance = random.Random(f"win-table:{seed}:deal:{i}")
        bot_rng = random.Random(f"win-table:{seed}:bots:{i}")
        state = cribbage.new_game(rules, dealer=dealer)
        state = cribbage.apply(state, cribbage.chance_outcome(state, chance))  # the deal
        while state.phase_name == "discard":
            seat = cribbage.to_act(state)
            assert seat is not None
            legal = cribbage.legal_moves(state)
            view = cribbage.view(state, seat)
            values = discard_values(view, legal)
            state = cribbage.apply(state, legal[max(range(len(legal)), key=values.__getitem__)])
        start = state
        while state.phase_name == "play":
            seat = cribbage.to_act(state)
            assert seat is not None
            legal = cribbage.legal_moves(state)
            move = legal[0] if len(legal) == 1 else greedy.choose(cribbage.view(state, seat), legal, bot_rng)
            state = cribbage.apply(state, move)
        kept = [start._hands[s] for s in range(2)]  # a full-information simulation
        starter = start.starter
        assert starter is not None
        out["dealer_peg"][state.scores[dealer]] += 1
        out["pone_peg"][state.scores[pone]] += 1
        out["pone_show"][show_total(kept[pone], starter)] += 1
        crib = show_total(start._crib, starter, True)
        out["dealer_show"][show_total(kept[dealer], starter) + crib] += 1
        out["crib"][crib] += 1
    return out


def _pmf(counter: Counter[int]) -> FloatArray:
    size = max(counter) + 1
    p = np.zeros(size)
    for k, v in counter.items():
        p[k] = v
    return p / p.sum()


def board_table(dists: dict[str, Counter[int]], target: int) -> tuple[FloatArray, int]:
    """Value iteration of the dealer's win probability (module docstring); returns (table[a, b], iterations)."""
    pd, pp, sp, sd = (_pmf(dists[k]) for k in ("dealer_peg", "pone_peg", "pone_show", "dealer_show"))
    t = target
    # scores are capped at t (a reached target); index t means "reached"
    w = np.full((t, t), 0.5)  # w[a, b]: dealer a, pone b, dealer's chance

    def after_pone_show(w: FloatArray) -> FloatArray:
        """g[a1, b1] after the pegging (both < t): the pone shows, then the dealer; else the roles swap."""
        # next deal: the current pone deals; current dealer's chance = 1 - w[b2, a2]
        nxt = np.ones((t + 1, t + 1))  # indexed [a2, b2] capped at t
        nxt[:t, :t] = 1.0 - w.T
        nxt[t, :] = 1.0  # the dealer reached the target (the pone did not: checked before)
        # the dealer's show: a2 = min(a1 + x, t)
        g_dealer = np.zeros((t, t + 1))  # [a1, b2]
        for x, px in enumerate(sd):
            if px:
                idx = np.minimum(np.arange(t) + x, t)
                g_dealer += px * nxt[idx, :]
        g_dealer[:, t] = 0.0  # the pone had reached the target first
        # the pone's show: b2 = min(b1 + y, t)
        g = np.zeros((t, t))
        for y, py in enumerate(sp):
            if py:
                idx = np.minimum(np.arange(t) + y, t)
                g += py * g_dealer[:, idx]
        return g

    for iteration in range(1, 10_000):
        g = np.ones((t + 1, t + 1))
        g[:t, :t] = after_pone_show(w)
        g[t, :] = 1.0  # the dealer pegs out (checked first: he plays the last card)
        g[:t, t] = 0.0  # the pone pegs out
        new = np.zeros((t, t))
        for x, px in enumerate(pd):
            if not px:
                continue
            ia = np.minimum(np.arange(t) + x, t)
            for y, py in enumerate(pp):
                if py:
                    ib = np.minimum(np.arange(t) + y, t)
                    new += px * py * g[np.ix_(ia, ib)]
        change = float(np.abs(new - w).max())
        w = new
        if change < 1e-9:
            return w, iteration
    raise RuntimeError("the value iteration did not converge")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "src/kortbord/bots/data/win_table.json"))
    args = ap.parse_args(argv)
    t0 = time.time()
    dists = simulate(args.deals, args.seed)
    means = {k: sum(p * c for p, c in v.items()) / sum(v.values()) for k, v in dists.items()}
    tables = {}
    iterations = {}
    for target in TARGETS:
        table, iterations[target] = board_table(dists, target)
        tables[str(target)] = [[round(float(x), 5) for x in row] for row in table]
    data = {
        "metadata": {
            "description": "P(the next dealer wins) by board: dealer[a][b], dealer a points, pone b; "
            "see scripts/make_win_table.py",
            "deals": args.deals,
            "seed": args.seed,
            "means": {k: round(v, 4) for k, v in means.items()},
            "distributions": {k: {str(p): c for p, c in sorted(v.items())} for k, v in dists.items()},
            "iterations": iterations,
            "first_dealer_121": tables["121"][0][0],
            "first_dealer_61": tables["61"][0][0],
            "date": dt.date.today().isoformat(),
            "command": "python scripts/make_win_table.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - t0, 1),
        },
        "dealer": tables,
    }
    Path(args.out).write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(json.dumps(data["metadata"]["means"]), data["metadata"]["first_dealer_121"], f"{time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
