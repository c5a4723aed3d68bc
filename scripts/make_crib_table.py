#!/usr/bin/env python3
"""Compute the Cribbage crib-value table used by the strong bot (``src/kortbord/bots/data/crib_values.json``).

What it computes (rules spec ``../shared/rules/cribbage.md`` §2.5 for the show, §5 "Discard tables"):

* **Two players** -- for every 2-card discard, keyed by ranks and, for two different ranks, whether the two cards
  share a suit (``"55"``, ``"TK"``, ``"56s"``, ``"56o"``; 13 + 78 x 2 = 169 keys), the expected points of the crib
  it goes to:

  - ``own``: the thrower is the dealer; the other two crib cards are the **pone's** discard, chosen by the pone's
    policy (keep the best hand, balk the dealer's crib: hand average - ``opp`` table);
  - ``opp``: the thrower is the pone; the other two are the **dealer's** discard, chosen by the dealer's policy
    (hand average + ``own`` table: the dealer salts his crib).

  Hessel-style iteration (spec §5): round 0 lets both players discard for the best average hand alone (no crib
  term); each next round recomputes both tables with the policies using the previous round's tables.  The
  thrower's other four cards are random (the table is a property of the two cards thrown), the opponent's six
  cards are a uniformly random deal from the other 46 cards (rejection sampling from a pool of policy discards,
  which gives exactly that distribution), the starter is uniform over the 40 cards left.  Crib flushes (all five
  of one suit, §2.5) and nobs are counted.

* **Three and four players** -- ``one_card``: for every rank, the expected crib value given one card of that rank
  in it, the other three crib cards and the starter uniformly random (a first approximation: with one card each
  the other players' choices matter less).

Method: Monte Carlo with NumPy; the show's rank part (fifteens, pairs, runs) of each 5-rank multiset comes from
:func:`kortbord.cribbage.scoring.score_show` (the one place the rules live).  Standard errors are written to the
metadata.

Usage::

    .venv/bin/python scripts/make_crib_table.py [--samples 200000] [--pool 60000] [--rounds 3] [--seed 2024]
        [--out src/kortbord/bots/data/crib_values.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import numpy as np
import numpy.typing as npt

from kortbord.cards import Card
from kortbord.cribbage.scoring import score_show

RANKS = "A23456789TJQK"
JACK = 10  # 0-based rank of the jack
IntArray = npt.NDArray[np.int64]


# ---------------------------------------------------------------------------------------------------------------
# The show, vectorised: rank part from score_show, flush and nobs here (spec §2.5)
# ---------------------------------------------------------------------------------------------------------------


def rank_part_table() -> tuple[IntArray, IntArray]:
    """Every 5-rank multiset's fifteens + pairs + runs, as (sorted keys sum 5**rank, points)."""
    keys, points = [], []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for r in ranks:
            cards.append(Card(r * 4 + seen[r]))
            seen[r] += 1
        show = score_show(cards[:4], cards[4])
        keys.append(sum(5**r for r in ranks))
        points.append(show.fifteens + show.pairs + show.runs)
    order = np.argsort(keys)
    return np.asarray(keys, dtype=np.int64)[order], np.asarray(points, dtype=np.int64)[order]


RANK_KEYS, RANK_POINTS = rank_part_table()
POW5 = 5 ** np.arange(13, dtype=np.int64)


def show_points(four: IntArray, starter: IntArray, crib: bool) -> IntArray:
    """Show totals of hands ``four`` (..., 4) card indices with ``starter`` (...) (spec §2.5)."""
    ranks = four >> 2
    suits = four & 3
    s_rank, s_suit = starter >> 2, starter & 3
    key = POW5[ranks].sum(axis=-1) + POW5[s_rank]
    # five of a rank (a starter equal to a held card) is masked by the caller: clip its index
    total = RANK_POINTS[np.minimum(np.searchsorted(RANK_KEYS, key), len(RANK_KEYS) - 1)]
    four_suited = (suits == suits[..., :1]).all(axis=-1)
    five_suited = four_suited & (s_suit == suits[..., 0])
    flush = 5 * five_suited if crib else 4 * four_suited + five_suited
    total = total + flush
    nobs = ((ranks == JACK) & (suits == s_suit[..., None])).any(axis=-1)
    result: IntArray = total + nobs
    return result


# ---------------------------------------------------------------------------------------------------------------
# Discard keys and the policies
# ---------------------------------------------------------------------------------------------------------------


def pair_key(a: int, b: int) -> str:
    """Table key of two card indices: ranks low-high, plus ``s``/``o`` for suited/offsuit different ranks."""
    ra, rb = sorted((a >> 2, b >> 2))
    if ra == rb:
        return RANKS[ra] * 2
    return RANKS[ra] + RANKS[rb] + ("s" if (a & 3) == (b & 3) else "o")


KEYS = [RANKS[r] * 2 for r in range(13)] + [
    RANKS[a] + RANKS[b] + s for a, b in combinations(range(13), 2) for s in ("s", "o")
]
KEY_INDEX = {k: i for i, k in enumerate(KEYS)}
# key index of every (card a, card b)
PAIR_INDEX = np.zeros((52, 52), dtype=np.int64)
for _a in range(52):
    for _b in range(52):
        if _a != _b:
            PAIR_INDEX[_a, _b] = KEY_INDEX[pair_key(_a, _b)]
DISCARDS = list(combinations(range(6), 2))
KEPT = [tuple(i for i in range(6) if i not in d) for d in DISCARDS]


def hand_averages(hands: IntArray) -> npt.NDArray[np.float64]:
    """Mean hand value of the kept four over the 46 starters, per hand (M, 6) and discard: (M, 15)."""
    m = len(hands)
    out = np.empty((m, 15))
    starters = np.arange(52, dtype=np.int64)
    for j, kept in enumerate(KEPT):
        four = hands[:, kept]  # (M, 4)
        pts = show_points(np.broadcast_to(four[:, None, :], (m, 52, 4)), np.broadcast_to(starters, (m, 52)), crib=False)
        in_hand = (hands[:, :, None] == starters[None, None, :]).any(axis=1)  # (M, 52)
        out[:, j] = np.where(in_hand, 0, pts).sum(axis=1) / 46.0
    return out


def policy_discards(hands: IntArray, table: npt.NDArray[np.float64], sign: float) -> IntArray:
    """Each hand's chosen discard (M, 2) maximising hand average + sign * table[key] (sign 0: hand only)."""
    chosen = np.empty((len(hands), 2), dtype=np.int64)
    for lo in range(0, len(hands), 4000):
        h = hands[lo : lo + 4000]
        value = hand_averages(h)
        if sign:
            for j, (a, b) in enumerate(DISCARDS):
                value[:, j] += sign * table[PAIR_INDEX[h[:, a], h[:, b]]]
        best = value.argmax(axis=1)
        idx = np.asarray(DISCARDS)[best]
        chosen[lo : lo + 4000] = np.take_along_axis(h, idx, axis=1)
    return chosen


def deal(rng: np.random.Generator, rows: int, k: int, exclude: IntArray | None = None) -> IntArray:
    """``rows`` random sets of ``k`` distinct cards avoiding each row's ``exclude`` cards."""
    keys = rng.random((rows, 52))
    if exclude is not None:
        np.put_along_axis(keys, exclude, 2.0, axis=1)
    return np.argsort(keys, axis=1)[:, :k].astype(np.int64)


def masks(cards: IntArray) -> npt.NDArray[np.uint64]:
    """Each row's cards as a 52-bit mask."""
    bits: npt.NDArray[np.uint64] = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
    return bits


def key_cards(rng: np.random.Generator, key: str, n: int) -> IntArray:
    """``n`` random concrete card pairs (n, 2) matching a table key."""
    ra, rb = RANKS.index(key[0]), RANKS.index(key[1])
    if ra == rb:
        suits = np.argsort(rng.random((n, 4)), axis=1)[:, :2]
        return np.stack([ra * 4 + suits[:, 0], rb * 4 + suits[:, 1]], axis=1).astype(np.int64)
    sa = rng.integers(0, 4, n)
    sb = sa if key[2] == "s" else (sa + rng.integers(1, 4, n)) % 4
    return np.stack([ra * 4 + sa, rb * 4 + sb], axis=1).astype(np.int64)


def crib_table(
    rng: np.random.Generator, pool_hands: IntArray, pool_throws: IntArray, samples: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Mean crib value and its standard error per key, the other two cards thrown from ``pool``."""
    pool_masks = masks(pool_hands)
    means, errors = np.empty(len(KEYS)), np.empty(len(KEYS))
    for i, key in enumerate(KEYS):
        mine = key_cards(rng, key, samples)
        rest = deal(rng, samples, 4, exclude=mine)
        my_mask = masks(np.concatenate([mine, rest], axis=1))
        pick = rng.integers(0, len(pool_hands), samples)
        bad = (pool_masks[pick] & my_mask) != 0
        while bad.any():
            pick[bad] = rng.integers(0, len(pool_hands), int(bad.sum()))
            bad = (pool_masks[pick] & my_mask) != 0
        used = my_mask | pool_masks[pick]
        starter = rng.integers(0, 52, samples)
        bad = (used >> starter.astype(np.uint64)) & np.uint64(1) != 0
        while bad.any():
            starter[bad] = rng.integers(0, 52, int(bad.sum()))
            bad = (used >> starter.astype(np.uint64)) & np.uint64(1) != 0
        crib = np.concatenate([mine, pool_throws[pick]], axis=1)
        pts = show_points(crib, starter, crib=True)
        means[i] = pts.mean()
        errors[i] = pts.std() / np.sqrt(samples)
    return means, errors


def one_card_table(rng: np.random.Generator, samples: int) -> dict[str, float]:
    """3-4 players: expected crib value with one card of each rank, the rest uniformly random."""
    out = {}
    for r in range(13):
        mine = (r * 4 + rng.integers(0, 4, samples))[:, None].astype(np.int64)
        others = deal(rng, samples, 4, exclude=mine)  # three crib cards and the starter
        crib = np.concatenate([mine, others[:, :3]], axis=1)
        out[RANKS[r]] = round(float(show_points(crib, others[:, 3], crib=True).mean()), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200_000, help="crib samples per key and table")
    parser.add_argument("--pool", type=int, default=60_000, help="opponent hands in each policy pool")
    parser.add_argument("--rounds", type=int, default=3, help="policy iterations after round 0")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "src/kortbord/bots/data/crib_values.json"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    own = np.zeros(len(KEYS))
    opp = np.zeros(len(KEYS))
    own_err = opp_err = np.zeros(len(KEYS))
    history = []
    for round_no in range(args.rounds + 1):
        dealer_hands = deal(rng, args.pool, 6)
        pone_hands = deal(rng, args.pool, 6)
        first = round_no == 0
        dealer_throws = policy_discards(dealer_hands, own, 0.0 if first else 1.0)  # salts his own crib
        pone_throws = policy_discards(pone_hands, opp, 0.0 if first else -1.0)  # balks the dealer's crib
        new_own, own_err = crib_table(rng, pone_hands, pone_throws, args.samples)  # I deal: pone throws the rest
        new_opp, opp_err = crib_table(rng, dealer_hands, dealer_throws, args.samples)  # I am pone: dealer throws
        change = float(max(np.abs(new_own - own).max(), np.abs(new_opp - opp).max()))
        own, opp = new_own, new_opp
        note = {
            "round": round_no,
            "own_55": round(float(own[KEY_INDEX["55"]]), 3),
            "opp_55": round(float(opp[KEY_INDEX["55"]]), 3),
            "max_change": round(change, 3),
            "seconds": round(time.time() - t0, 1),
        }
        history.append(note)
        print(json.dumps(note), file=sys.stderr, flush=True)
    one_card = one_card_table(rng, args.samples)
    data = {
        "metadata": {
            "description": "Expected crib value (points) of the cards thrown, see scripts/make_crib_table.py",
            "method": (
                "Monte Carlo, Hessel-style iteration: round 0 both players discard for the best average hand; "
                "each later round the dealer maximises hand + own table and the pone hand - opp table from the "
                "previous round. Thrower's other 4 cards random; opponent's 6 cards uniform from the other 46; "
                "starter uniform from the 40 left; crib flush (5 cards) and nobs counted. one_card (3-4 players): "
                "the other crib cards uniformly random."
            ),
            "keys": "ranks low-high (A23456789TJQK); two different ranks end in s (same suit) or o (offsuit)",
            "samples_per_key": args.samples,
            "pool": args.pool,
            "rounds": args.rounds,
            "seed": args.seed,
            "max_standard_error": round(float(max(own_err.max(), opp_err.max())), 4),
            "iterations": history,
            "date": dt.date.today().isoformat(),
            "command": "python scripts/make_crib_table.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - t0, 1),
        },
        "two_player": {
            "own": {k: round(float(v), 3) for k, v in zip(KEYS, own, strict=True)},
            "opp": {k: round(float(v), 3) for k, v in zip(KEYS, opp, strict=True)},
        },
        "one_card": one_card,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
