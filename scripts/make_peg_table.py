#!/usr/bin/env python3
"""Compute the Cribbage pegging table used by the strong bot's discard option ``peg_weight``
(``src/kortbord/bots/data/peg_values.json``).

What it computes (rules spec ``spec/rules/cribbage.md`` §2.4 the play; two players): for every multiset of four
ranks a player may keep (C(16, 4) = 1,820 keys, e.g. ``"A55T"``; the play scores no suits, so the ranks are all
that matter) and each role (``dealer``, ``pone``), the mean pegging differential -- the points the keeper pegs
in the play minus the points the opponent pegs, go and last card included -- when that four is pegged against
the opponent's kept four.

* The opponent's hand: six cards dealt uniformly from the cards not in the keeper's four (rejection sampling from
  a pool of dealt hands, as ``scripts/make_crib_table.py`` does), kept the way the strong bot keeps: the exact
  mean show over the 46 starters, plus its crib table (``bots/data/crib_values.json``) when it deals, minus it as
  pone, plus the strong discard's small pegging term (0.15 a kept pair, 0.05 a kept card worth 4 or less).  The
  keeper's four get random suits (two cards of one rank never share a suit).
* The play: both players follow a fixed, fast one-step policy modelled on the greedy bot's pegging
  (``kortbord.bots.cribbage_simple.GreedyBot.play_value``): the points the card scores at once minus the points
  it offers the next player (a pair, a 15 or 31, a run of three), each weighted by the hypergeometric chance
  that the opponent holds the answer among the cards the player has not seen (the pack minus its own four and
  the cards played), plus 0.02 x the card's value; ties go to the first card in rank order.  The pone leads.
  Neither player sees the other's hand.  The starter is not dealt (the play does not score it).

Each key and role draws ``--samples`` opponents; the standard errors are written to the metadata.

Usage::

    .venv/bin/python scripts/make_peg_table.py [--samples 1000] [--pool 20000] [--seed 2026]
        [--out src/kortbord/bots/data/peg_values.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
import time
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_crib_table as mct

RANKS = "A23456789TJQK"
IntArray = npt.NDArray[np.int64]
PEG_PAIR, PEG_LOW = 0.15, 0.05  # the strong discard's pegging term (kortbord.bots.cribbage_strong)


def value(rank: int) -> int:
    """The count value of a rank 1..13 (spec §2.1: face cards count 10)."""
    return rank if rank < 10 else 10


# ---------------------------------------------------------------------------------------------------------------
# The play on ranks (spec §2.4)
# ---------------------------------------------------------------------------------------------------------------


def last_card_points(seq: list[int], count: int) -> int:
    """Points of the last rank of ``seq`` (the ranks laid since the reset, ``count`` their total): 15 and 31 -> 2,
    the last 2/3/4 of one rank -> 2/6/12, the longest run of the last L >= 3 distinct consecutive ranks -> L
    (spec §2.4 step 3; go and last card excluded)."""
    points = 2 if count in (15, 31) else 0
    last = seq[-1]
    k = 1
    while k < len(seq) and seq[-1 - k] == last:
        k += 1
    points += (0, 0, 2, 6, 12)[k]
    for length in range(len(seq), 2, -1):
        tail = seq[-length:]
        if len(set(tail)) == length and max(tail) - min(tail) == length - 1:
            points += length
            break
    return points


def _p_holds(k: int, u: int, n: int) -> float:
    """Chance that ``n`` cards drawn from ``u`` unseen hold at least one of ``k`` (hypergeometric)."""
    if k <= 0 or n <= 0 or u <= 0:
        return 0.0
    return 1.0 - comb(u - k, n) / comb(u, n)


def choose(hand: list[int], unseen: list[int], seq: list[int], count: int, opp_cards: int) -> int:
    """The index in ``hand`` of the card the fast greedy policy lays (one that fits: the caller checked)."""
    u = sum(unseen)
    best, pick = -1e9, -1
    for i, r in enumerate(hand):
        v = value(r)
        if count + v > 31:
            continue
        new_count = count + v
        s = [*seq, r]
        score = float(last_card_points(s, new_count)) + 0.02 * v
        if new_count != 31 and opp_cards:
            risk = 2.0 * _p_holds(unseen[r], u, opp_cards)
            for total in (15, 31):
                need = total - new_count
                if 1 <= need <= 9:
                    risk += 2.0 * _p_holds(unseen[need], u, opp_cards)
                elif need == 10:
                    risk += 2.0 * _p_holds(unseen[10] + unseen[11] + unseen[12] + unseen[13], u, opp_cards)
            if seq:
                lo, hi = sorted((seq[-1], r))
                ends = {lo - 1, hi + 1} if hi - lo == 1 else {lo + 1} if hi - lo == 2 else set()
                k = sum(unseen[e] for e in ends if 1 <= e <= 13 and new_count + value(e) <= 31)
                risk += 3.0 * _p_holds(k, u, opp_cards)
            score -= risk
        if score > best:
            best, pick = score, i
    return pick


def play_out(dealer: list[int], pone: list[int], trace: list[tuple[int, int]] | None = None) -> tuple[int, int]:
    """Both players' pegging points (dealer, pone) with the fast policy (spec §2.4: the pone leads; a go or the
    last card 1 to the last player to lay; 31 ends the count with 2 in all).  ``trace``, when given, receives
    each card laid as ``(player, rank)``, player 0 the dealer."""
    hands = [sorted(dealer), sorted(pone)]
    unseen = []
    for h in hands:
        u = [0] + [4] * 13
        for r in h:
            u[r] -= 1
        unseen.append(u)
    points = [0, 0]
    turn = 1  # the pone leads
    seq: list[int] = []
    count = 0
    passed = [False, False]
    last = -1
    while hands[0] or hands[1]:
        hand = hands[turn]
        other = 1 - turn
        if hand and not passed[turn] and any(count + value(r) <= 31 for r in hand):
            i = choose(hand, unseen[turn], seq, count, 0 if passed[other] else len(hands[other]))
            r = hand.pop(i)
            if trace is not None:
                trace.append((turn, r))
            unseen[other][r] -= 1
            count += value(r)
            seq.append(r)
            points[turn] += last_card_points(seq, count)
            last = turn
            if count == 31:
                seq, count, passed = [], 0, [False, False]
                turn = other if hands[other] else turn
                continue
        else:
            passed[turn] = True
        if (passed[0] or not hands[0]) and (passed[1] or not hands[1]):
            points[last] += 1  # go, or last card
            seq, count, passed = [], 0, [False, False]
            turn = 1 - last if hands[1 - last] else last
            continue
        if hands[other] and not passed[other]:
            turn = other
    return points[0], points[1]


# ---------------------------------------------------------------------------------------------------------------
# The opponent pool: dealt six, kept as the strong bot keeps
# ---------------------------------------------------------------------------------------------------------------


def strong_keeps(hands: IntArray, crib: npt.NDArray[np.float64], sign: float) -> IntArray:
    """Each 6-card hand's kept four (M, 4) maximising hand average + sign * crib[key] + the pegging term."""
    kept_idx = np.asarray(mct.KEPT)
    out = np.empty((len(hands), 4), dtype=np.int64)
    for lo in range(0, len(hands), 4000):
        h = hands[lo : lo + 4000]
        val = mct.hand_averages(h)
        for j, (a, b) in enumerate(mct.DISCARDS):
            val[:, j] += sign * crib[mct.PAIR_INDEX[h[:, a], h[:, b]]]
            four = h[:, list(mct.KEPT[j])] >> 2
            pairs = sum((four[:, x] == four[:, y]).astype(float) for x in range(4) for y in range(x + 1, 4))
            low = (np.minimum(four + 1, 10) <= 4).sum(axis=1)
            val[:, j] += PEG_PAIR * pairs + PEG_LOW * low
        best = val.argmax(axis=1)
        out[lo : lo + 4000] = np.take_along_axis(h, kept_idx[best], axis=1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000, help="opponents per key and role")
    parser.add_argument("--pool", type=int, default=20_000, help="opponent hands in each role's pool")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "src/kortbord/bots/data/peg_values.json"
    )
    args = parser.parse_args(argv)
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    prng = random.Random(args.seed)
    crib_json = json.loads(
        (Path(__file__).resolve().parents[1] / "src/kortbord/bots/data/crib_values.json").read_text(encoding="utf-8")
    )
    own = np.asarray([crib_json["two_player"]["own"][k] for k in mct.KEYS])
    opp = np.asarray([crib_json["two_player"]["opp"][k] for k in mct.KEYS])
    pools = {}
    for role, table, sign in (("dealer", own, 1.0), ("pone", opp, -1.0)):
        hands = mct.deal(rng, args.pool, 6)
        kept = strong_keeps(hands, table, sign)
        masks = [int(m) for m in mct.masks(hands)]
        ranks = [[int(c >> 2) + 1 for c in row] for row in kept]
        pools[role] = (masks, ranks)
    print(json.dumps({"pools": round(time.time() - t0, 1)}), file=sys.stderr, flush=True)
    keys = list(combinations_with_replacement(range(1, 14), 4))
    table: dict[str, dict[str, float]] = {"dealer": {}, "pone": {}}
    worst = 0.0
    for n, key in enumerate(keys):
        name = "".join(RANKS[r - 1] for r in key)
        for role in ("dealer", "pone"):
            masks, ranks = pools["pone" if role == "dealer" else "dealer"]
            total = total2 = 0.0
            for _ in range(args.samples):
                suits: dict[int, list[int]] = {}
                mine = 0
                for r in key:
                    free = [s for s in range(4) if s not in suits.setdefault(r, [])]
                    s = prng.choice(free)
                    suits[r].append(s)
                    mine |= 1 << ((r - 1) * 4 + s)
                while True:
                    j = prng.randrange(len(masks))
                    if not masks[j] & mine:
                        break
                if role == "dealer":
                    me, them = play_out(list(key), ranks[j])
                else:
                    them, me = play_out(ranks[j], list(key))
                d = me - them
                total += d
                total2 += d * d
            mean = total / args.samples
            err = ((total2 / args.samples - mean * mean) / args.samples) ** 0.5
            worst = max(worst, err)
            table[role][name] = round(mean, 3)
        if n % 200 == 0:
            print(json.dumps({"keys": n, "seconds": round(time.time() - t0, 1)}), file=sys.stderr, flush=True)
    data = {
        "metadata": {
            "description": "Mean pegging differential (own minus opponent's points in the play) of a kept four, by "
            "role, two players; see scripts/make_peg_table.py",
            "method": (
                "Monte Carlo: opponent's six dealt uniformly from the cards outside the keeper's four and kept as "
                "the strong bot keeps (hand average + crib table + its small pegging term); both play a fast "
                "one-step greedy-like policy (points now minus points offered, hypergeometric over unseen cards); "
                "pone leads; go and last card counted."
            ),
            "keys": "four ranks low-high (A23456789TJQK)",
            "samples_per_key": args.samples,
            "pool": args.pool,
            "seed": args.seed,
            "max_standard_error": round(worst, 4),
            "date": dt.date.today().isoformat(),
            "command": "python scripts/make_peg_table.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - t0, 1),
        },
        **table,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
