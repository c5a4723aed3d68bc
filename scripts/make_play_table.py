#!/usr/bin/env python3
"""Tabulate the value of the play of each kept four for the Cribbage expert's discard (``bench/data/
cribbage_play_values.json``; the bench's ``belief:ptable=w`` reads it: an experiment).

For every rank multiset of four cards a player may keep, and each role (pone, who leads; dealer), the whole play's
value -- this player's pegging points minus the opponent's (spec §2.4), the expert's own belief search
(``bench/cribbage_belief.py``'s :func:`play_value`: an expectimax in which this player's choices see only the play)
-- against the opponent's four drawn from the expert's keep prior (spec §5's keep of six random cards at the
level's temperature, :func:`kortbord.bots.cribbage_expert.keep_table`) playing by the expert's prior of how a player
pegs (:func:`kortbord.bots.cribbage_expert.play_prior`).  One sample of opponents' fours per role serves every kept
four (common random numbers: the differences between keeps, which the discard reads, are far less noisy than the
values), each sampled four weighted by the ways the cards left after the kept four give it over the ways a full pack
does (the kept four's removal).  The starter is left out (unknown at the discard).

Usage::

    .venv/bin/python scripts/make_play_table.py [--samples 400] [--seed 1] [--jobs 2] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from kortbord.bots.cribbage_expert import _ALL4, LEVEL_KT, LearntModel, keep_table, play_prior  # noqa: E402

OUT = ROOT / "bench" / "data" / "cribbage_play_values.json"
_RANKS = "A23456789TJQK"
#: a full pack's cards of each rank (index 1-13)
_FULL = (0,) + (4,) * 13


def _ways(m: tuple[int, ...], avail: Sequence[int]) -> int:
    """The ways to take the rank multiset ``m`` from ``avail[r]`` cards of each rank r (1-13)."""
    return math.prod(math.comb(avail[r], k) for r, k in Counter(m).items())


def opponent_sample(opp_deals: bool, n: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """``n`` opponents' fours drawn from the keep prior over a full pack (``opp_deals``: the crib is the
    opponent's), as (four, times drawn)."""
    table = keep_table(opp_deals, LEVEL_KT)
    weights = [_ways(m, _FULL) * table[m] for m in _ALL4]
    drawn = Counter(random.Random(f"play-table:{seed}:{opp_deals}").choices(_ALL4, weights, k=n))
    return sorted(drawn.items())


def _value(job: tuple[tuple[int, ...], bool, list[tuple[tuple[int, ...], int]]]) -> tuple[tuple[int, ...], bool, float]:
    """``(kept four, this player leads, the opponents' sample)`` -> the same with the play's value (points, own
    pegging less the opponent's): :func:`play_value` over the sample, each four weighted by the ways the cards the
    kept four leave give it over the ways a full pack does (none when the kept four hold every card it needs)."""
    import cribbage_belief

    kept, we_lead, sample = job
    avail = list(_FULL)
    for r in kept:
        avail[r] -= 1
    cands = []
    for h, n in sample:
        ways = _ways(h, avail)
        if ways:
            cands.append((h, n * ways / _ways(h, _FULL)))
    model = LearntModel(prior=play_prior())
    return kept, we_lead, cribbage_belief.play_value(kept, cands, we_lead, [model])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="only the first N fours (a trial)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if args.limit and args.out == OUT:
        ap.error("--limit makes a partial table: give --out (not the bench's table)")
    t0 = time.perf_counter()
    fours = _ALL4[: args.limit] if args.limit else _ALL4
    jobs = []
    for we_lead in (True, False):  # the pone leads; the opponent deals when this player leads
        sample = opponent_sample(we_lead, args.samples, args.seed)
        jobs += [(m, we_lead, sample) for m in fours]
    out: dict[str, dict[str, float]] = {"pone": {}, "dealer": {}}
    with ProcessPoolExecutor(args.jobs) as pool:
        for kept, we_lead, v in pool.map(_value, jobs, chunksize=8):
            out["pone" if we_lead else "dealer"]["".join(_RANKS[r - 1] for r in kept)] = round(v, 4)
    doc = {
        "metadata": {
            "description": "the play's value (own pegging points minus the opponent's) of a kept four against the "
            "expert's keep prior and play prior, by the expert's belief search; see scripts/make_play_table.py",
            "samples": args.samples,
            "seed": args.seed,
            "keep_temperature": LEVEL_KT,
            "date": dt.date.today().isoformat(),
            "command": f"python scripts/make_play_table.py --samples {args.samples} --seed {args.seed}",
            "seconds": round(time.perf_counter() - t0, 1),
        },
        **out,
    }
    args.out.write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")
    print(f"{len(jobs)} values in {doc['metadata']['seconds']} s, written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
