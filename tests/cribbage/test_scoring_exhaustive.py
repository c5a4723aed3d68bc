"""The exhaustive check (spec cribbage.md §3, §6 item 1): every one of the 12,994,800 (hand, starter) pairs is
scored and the distribution must equal the published table count for count -- python-chess's perft, for the show.

The reference table is read from the spec itself (§3, "Hand: count" and Lumetta's published column)."""

from __future__ import annotations

import os
import random
import re
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np
import pytest

from kortbord.cards import Card
from kortbord.cribbage.scoring import (
    SHOW_PAIRS,
    all_five_card_sets,
    score_show,
    show_distribution,
    show_total,
    show_totals_all,
)

RULES = Path(os.environ["KORTBORD_RULES_DIR"])
ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*([\d,]+)\s*\|\s*([\d.]+)\s*\|\s*([\d,]+)\s*\|\s*$")


def _published_table() -> dict[int, tuple[int, int]]:
    """Spec §3: score -> (hand count, Lumetta's published count)."""
    text = (RULES / "cribbage.md").read_text(encoding="utf-8")
    section = text[text.index("## 3. Reference numbers") : text.index("## 3a.")]
    rows = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            rows[int(match[1])] = (int(match[2].replace(",", "")), int(match[4].replace(",", "")))
    return rows


def test_the_published_table_is_read() -> None:
    table = _published_table()
    assert sorted(table) == list(range(30))
    assert sum(hand for hand, _ in table.values()) == SHOW_PAIRS == comb(52, 4) * 48 == comb(52, 5) * 5


@pytest.mark.slow
def test_every_hand_matches_the_published_distribution() -> None:
    distribution = show_distribution()
    table = _published_table()
    assert distribution == {score: hand for score, (hand, _) in table.items()}
    assert distribution == {score: lumetta for score, (_, lumetta) in table.items()}
    points = sum(score * n for score, n in distribution.items())
    assert points == 61_974_180  # spec §3 summary, §6 item 1
    assert round(points / SHOW_PAIRS, 6) == 4.769152
    variance = sum(n * (score - points / SHOW_PAIRS) ** 2 for score, n in distribution.items()) / SHOW_PAIRS
    assert round(variance**0.5, 4) == 3.1254  # spec §3: SD 3.1254
    assert round(100 * distribution[0] / SHOW_PAIRS, 2) == 7.76


@pytest.mark.slow
def test_every_crib() -> None:
    distribution = show_distribution(crib=True)
    assert sum(distribution.values()) == SHOW_PAIRS
    points = sum(score * n for score, n in distribution.items())
    assert points == 61_528_020  # spec §6 item 1
    # The crib rule only drops the four-card flush with an off-suit starter (spec §2.5): 4 suits x C(13, 4)
    # suited hands x 39 off-suit starters, 4 points each.
    assert sum(score * n for score, n in show_distribution().items()) - points == 4 * 4 * comb(13, 4) * 39
    assert all(distribution[s] == 0 for s in (19, 25, 26, 27))


@pytest.mark.slow
def test_all_pairs_agree_with_the_per_hand_scorer() -> None:
    # The NumPy path (every pair at once) and show_total / score_show must agree; a seeded sample of 5-card sets
    # with each of the five cards as the starter, hand and crib.
    sets = all_five_card_sets()
    assert sets.shape == (comb(52, 5), 5)
    assert bool(np.all(np.diff(sets.astype(np.int16), axis=1) > 0))
    hands, cribs = show_totals_all(), show_totals_all(crib=True)
    rng = random.Random(20240611)
    rows = [rng.randrange(len(sets)) for _ in range(3000)] + [0, len(sets) - 1]
    for row in rows:
        cards = [Card(int(c)) for c in sets[row]]
        for k in range(5):
            hand, starter = cards[:k] + cards[k + 1 :], cards[k]
            assert hands[row, k] == show_total(hand, starter)
            assert cribs[row, k] == show_total(hand, starter, crib=True)
        assert hands[row, 0] == score_show(cards[1:], cards[0]).total


@pytest.mark.slow
def test_the_nine_24_point_layouts() -> None:
    # Spec §2.5 maxima / §3: the rank part alone reaches 24 for exactly these nine 5-rank layouts.
    layouts = {"A7777", "33339", "36666", "44447", "44556", "44566", "45566", "67788", "77889"}
    found = set()
    for ranks in combinations_with_replacement("A23456789TJQK", 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        seen: dict[str, int] = {}
        cards = []
        for r in ranks:  # any suits: only the rank part is looked at
            cards.append(Card.parse(r + "SHDC"[seen.get(r, 0)]))
            seen[r] = seen.get(r, 0) + 1
        show = score_show(cards[:4], cards[4])
        if show.fifteens + show.pairs + show.runs == 24:
            found.add("".join(ranks))
    assert found == layouts
