"""Cribbage scoring benchmark: every show at once, and single calls against the named peer.

Reproduce (from the repository root, after ``make test`` or ``make run`` has set up ``.venv``)::

    .venv/bin/python bench/cribbage_scoring.py                 # a few seconds
    .venv/bin/python bench/cribbage_scoring.py --full-python   # also every pair through show_total, one by one

What it prints:

* the time to score all 12,994,800 (hand, starter) pairs of spec cribbage.md §3 with
  :func:`kortbord.cribbage.scoring.show_totals_all` (NumPy), cold (tables built from the rules first) and warm,
  hand and crib rule; target < 10 s. With ``--full-python`` also the same enumeration through
  :func:`~kortbord.cribbage.scoring.show_total`, one call per pair;
* calls per second of ``score_show`` (full breakdown), ``show_total`` (fast path) and ``score_play``, each with the
  ratio against the peer measured in the same run: the third-party ``cribbage_scorer`` package
  (``show_calc_score``, ``play_score_ongoing``), the only installed Python scorer of single hands and counts.

``time_all_shows()`` is importable (``bench/cribbage_engine.py`` reuses it).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from kortbord.cards import Card
from kortbord.cribbage.scoring import (
    SHOW_PAIRS,
    card_value,
    score_play,
    score_show,
    show_distribution,
    show_total,
    show_totals_all,
)

COMMAND = ".venv/bin/python bench/cribbage_scoring.py"


def time_all_shows(crib: bool = False) -> float:
    """Seconds (wall clock) to score all 12,994,800 (hand, starter) pairs once with ``show_totals_all``.

    The first call in a process includes building the rank and flush tables from the rules; later calls reuse them.
    """
    start = time.perf_counter()
    totals = show_totals_all(crib)
    elapsed = time.perf_counter() - start
    assert totals.size == SHOW_PAIRS
    return elapsed


def time_all_shows_python() -> float:
    """Seconds to score all 12,994,800 pairs through ``show_total``, one call each (pure Python)."""
    cards = [Card(i) for i in range(52)]
    start = time.perf_counter()
    points = 0
    for a, b, c, d, e in combinations(cards, 5):
        points += (
            show_total((b, c, d, e), a)
            + show_total((a, c, d, e), b)
            + show_total((a, b, d, e), c)
            + show_total((a, b, c, e), d)
            + show_total((a, b, c, d), e)
        )
    elapsed = time.perf_counter() - start
    assert points == 61_974_180, points
    return elapsed


def _rate(function: Callable[[Any], object], inputs: Sequence[Any], repeats: int = 3) -> float:
    """Calls per second: the best of ``repeats`` passes over ``inputs``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in inputs:
            function(item)
        best = min(best, time.perf_counter() - start)
    return len(inputs) / best


def _deals(n: int, rng: random.Random) -> list[tuple[tuple[Card, ...], Card]]:
    out = []
    for _ in range(n):
        five = [Card(x) for x in rng.sample(range(52), 5)]
        out.append((tuple(five[:4]), five[4]))
    return out


def _counts(n: int, rng: random.Random) -> list[list[Card]]:
    """Random single counts (1-8 cards, count <= 31), the new card last."""
    out = []
    while len(out) < n:
        cards: list[Card] = []
        for x in rng.sample(range(52), rng.randint(1, 8)):
            if sum(map(card_value, cards)) + card_value(Card(x)) > 31:
                break
            cards.append(Card(x))
        if cards:
            out.append(cards)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full-python", action="store_true", help="also score every pair through show_total")
    parser.add_argument("--samples", type=int, default=20_000, help="random hands/counts per single-call rate")
    args = parser.parse_args(argv)

    print("kortbord cribbage scoring benchmark")
    print(f"command: {COMMAND}{' --full-python' if args.full_python else ''}")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} cores, {platform.system()}"
    )
    print()
    print(f"All {SHOW_PAIRS:,} (hand, starter) pairs = C(52,5) x 5 = {comb(52, 5) * 5:,} (spec §3), target < 10 s")
    cold = time_all_shows()
    warm = statistics.median(time_all_shows() for _ in range(3))
    crib = statistics.median(time_all_shows(crib=True) for _ in range(3))
    points = sum(s * n for s, n in show_distribution().items())
    print(f"  show_totals_all (NumPy), hand rule, cold (tables built from the rules): {cold:6.2f} s")
    print(f"  show_totals_all (NumPy), hand rule, warm (median of 3):                 {warm:6.2f} s")
    print(f"  show_totals_all (NumPy), crib rule, warm (median of 3):                 {crib:6.2f} s")
    print(f"  total hand points {points:,} (spec §3: 61,974,180)")
    if args.full_python:
        python_all = time_all_shows_python()
        print(f"  show_total one call per pair (pure Python):                             {python_all:6.2f} s")
    print()

    rng = random.Random(2024)
    deals = _deals(args.samples, rng)
    counts = _counts(args.samples, rng)
    try:
        from cribbage_scorer import cribbage_scorer as peer
    except ImportError:  # pragma: no cover - the peer is in the "reference" extra
        peer = None

    rows: list[tuple[str, float, str, float | None]] = []
    show_rate = _rate(lambda hs: score_show(hs[0], hs[1]), deals)
    total_rate = _rate(lambda hs: show_total(hs[0], hs[1]), deals)
    play_rate = _rate(score_play, counts)
    peer_show = peer_play = None
    if peer is not None:
        peer_deals = [([(c.rank, c.suit) for c in h], (s.rank, s.suit)) for h, s in deals]
        peer_counts = [[(c.rank, c.suit) for c in cards] for cards in counts]
        peer_show = _rate(lambda hs: peer.show_calc_score(hs[1], hs[0]), peer_deals, repeats=1)
        peer_play = _rate(lambda cs: peer.play_score_ongoing(cs), peer_counts, repeats=1)
    rows.append(("score_show (breakdown and groups)", show_rate, "cribbage_scorer.show_calc_score", peer_show))
    rows.append(("show_total (fast path)", total_rate, "cribbage_scorer.show_calc_score", peer_show))
    rows.append(("score_play (last card of a count)", play_rate, "cribbage_scorer.play_score_ongoing", peer_play))
    print(f"Single calls ({args.samples:,} random hands / counts, best of 3; peer measured in this run)")
    for name, rate, peer_name, peer_rate in rows:
        ratio = f"{rate / peer_rate:7.1f}x {peer_name} ({peer_rate:,.0f}/s)" if peer_rate else "(peer not installed)"
        print(f"  {name:36s} {rate:12,.0f} calls/s   {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
