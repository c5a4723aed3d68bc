"""The show tables (issue #13 item 3): the shipped rank table is the rules' own, every fast path agrees."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np

from kortbord.cards import Card
from kortbord.cribbage._show_ranks import RANK_POINTS
from kortbord.cribbage.batch import _show_points
from kortbord.cribbage.scoring import _combinations, _rank_multisets, _rank_points, _rank_table, show_total


def test_the_shipped_rank_table_is_the_rules() -> None:
    multisets = _rank_multisets()
    assert len(multisets) == len(RANK_POINTS) == 6175
    assert [ord(c) - 48 for c in RANK_POINTS] == [_rank_points(r) for r in multisets]
    table = _rank_table()
    assert (table >= 0).sum() == 6175 and table.max() == 28


def test_combinations_in_lexicographic_order() -> None:
    for n, k in ((5, 1), (6, 6), (10, 3), (13, 5), (52, 2)):
        assert _combinations(n, k).tolist() == [list(c) for c in combinations(range(n), k)]


def test_batched_show_points_are_show_total() -> None:
    rng = random.Random(13)
    fives = [rng.sample(range(52), 5) for _ in range(5000)]
    fives += [[16, 17, 18, 43, 19], [4, 8, 12, 16, 20], [40, 1, 5, 9, 13], [41, 45, 49, 37, 33]]  # 29, flushes
    cards = np.array([f[:4] for f in fives], dtype=np.int8)
    starter = np.array([f[4] for f in fives], dtype=np.int8)
    for crib in (False, True):
        got = _show_points(cards, starter, crib).tolist()
        want = [show_total([Card(c) for c in f[:4]], Card(f[4]), crib) for f in fives]
        assert got == want
