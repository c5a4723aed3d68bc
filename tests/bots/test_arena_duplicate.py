"""Duplicate deals in the arena: both plays of a pair get the same cards, and the pair statistics are right.

The expected intervals are worked out by hand in the comments (the cluster-robust variance of a mean, Liang and
Zeger 1986, with the small-sample factor G / (G - 1)) or computed with NumPy, never copied from the code's output.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from kortbord.arena import ArenaConfig, BotSpec, GameRecord, cluster_mean_ci, duplicate, play_game, run_arena

Z = 1.959963984540054


# ------------------------------------------------------------------------------------------------ the statistics
def test_cluster_interval_by_hand() -> None:
    # clusters [1, 3], [2], [6, 0, 3]: n = 6, mean = 15 / 6 = 2.5; S_g - mean * n_g = 4 - 5, 2 - 2.5, 9 - 7.5
    # = -1, -0.5, 1.5; sum of squares 3.5; times G / (G - 1) = 3 / 2: 5.25; se = sqrt(5.25) / 6
    got = cluster_mean_ci([[1, 3], [2], [6, 0, 3]])
    se = math.sqrt(5.25) / 6
    assert got["n"] == 6 and got["clusters"] == 3 and got["mean"] == pytest.approx(2.5)
    assert got["ci95"] == pytest.approx([2.5 - Z * se, 2.5 + Z * se])
    assert cluster_mean_ci([]) == {"n": 0, "clusters": 0, "mean": None, "ci95": None}
    assert cluster_mean_ci([[4.0, 2.0], []])["ci95"] is None  # one cluster with values: no interval


def test_one_value_per_cluster_is_the_usual_interval() -> None:
    rng = random.Random(9)
    xs = [rng.gauss(0.5, 3.0) for _ in range(57)]
    got = cluster_mean_ci([[x] for x in xs])
    se = float(np.std(xs, ddof=1)) / math.sqrt(len(xs))
    mean = float(np.mean(xs))
    assert got["ci95"] == pytest.approx([mean - Z * se, mean + Z * se])


def _deal(dealer: int, points: Sequence[int], complete: bool = True) -> dict[str, Any]:
    return {"dealer": dealer, "points": list(points), "complete": complete}


def test_cribbage_pairs_by_hand() -> None:
    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("random")), games=4)
    # game 0 (A in seat 0, side 0) and game 1 (B in seat 0) play the same deals with the seats swapped
    records = [
        GameRecord(0, (0, 1), sides=(0, 1), deals=[_deal(0, [10, 8]), _deal(1, [5, 12]), _deal(0, [3, 1], False)]),
        GameRecord(1, (1, 0), sides=(1, 0), deals=[_deal(0, [9, 6]), _deal(1, [4, 14]), _deal(0, [2, 2], False)]),
        GameRecord(2, (0, 1), sides=(0, 1), deals=[_deal(1, [7, 15]), _deal(0, [11, 4]), _deal(1, [0, 3], False)]),
        GameRecord(3, (1, 0), sides=(1, 0), deals=[_deal(1, [9, 13]), _deal(0, [1, 1], False)]),
    ]
    got = duplicate(config, records)
    assert got is not None and got["unit"] == "points per deal"
    # block 0, deal 0 (seat 0 deals): A as dealer 10, B as dealer 9: +1; A as pone 6, B as pone 8: -2
    #          deal 1 (seat 1 deals): A as dealer 14, B 12: +2; A as pone 5, B 4: +1
    # block 1, deal 0 (seat 1 deals): A as dealer 13, B 15: -2; A as pone 7, B 9: -2; deal 1: cut short in game 3
    assert got["pairs"] == 3 and got["blocks"] == 2
    dealer, pone, margin = got["by_seat"]["as_dealer"], got["by_seat"]["as_pone"], got["margin"]
    # dealer: [[1, 2], [-2]]: mean 1/3; S - mean n: 7/3, -7/3; 2 * 98/9 = 196/9; se = (14/3) / 3
    assert dealer["mean"] == pytest.approx(1 / 3)
    assert dealer["ci95"] == pytest.approx([1 / 3 - Z * 14 / 9, 1 / 3 + Z * 14 / 9])
    # pone: [[-2, 1], [-2]]: mean -1; S - mean n: 1, -1; 2 * 2 = 4; se = 2 / 3
    assert pone["mean"] == pytest.approx(-1.0)
    assert pone["ci95"] == pytest.approx([-1 - Z * 2 / 3, -1 + Z * 2 / 3])
    # margin, the seats' mean per pair: [[-0.5, 1.5], [-2]]: mean -1/3; S - mean n: 5/3, -5/3; 2 * 50/9; se = 10/9
    assert margin["mean"] == pytest.approx(-1 / 3)
    assert margin["ci95"] == pytest.approx([-1 / 3 - Z * 10 / 9, -1 / 3 + Z * 10 / 9])


def test_a_block_with_a_failed_game_is_left_out_and_the_next_keeps_its_own_games() -> None:
    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("random")), games=4)
    failed = GameRecord(0, (0, 1), sides=(0, 1), deals=[_deal(0, [10, 8])])
    failed.error = {"seat": 0, "kind": "raised", "move": None, "message": "a bot raised"}
    records = [
        failed,
        GameRecord(1, (1, 0), sides=(1, 0), deals=[_deal(0, [9, 6])]),
        GameRecord(2, (0, 1), sides=(0, 1), deals=[_deal(1, [7, 15])]),
        GameRecord(3, (1, 0), sides=(1, 0), deals=[_deal(1, [9, 13])]),
    ]
    got = duplicate(config, records)
    # only block 1 (games 2 and 3), seat 1 deals: A as dealer 13 (game 3), B 15 (game 2): -2; A as pone 7, B 9: -2
    assert got is not None and got["blocks"] == 1 and got["pairs"] == 1
    assert got["by_seat"]["as_dealer"]["mean"] == pytest.approx(-2.0)
    assert got["by_seat"]["as_pone"]["mean"] == pytest.approx(-2.0)
    # and a run whose records are one later block alone is that block's figures, not a failure
    alone = duplicate(config, records[2:])
    assert alone is not None and alone["margin"]["mean"] == pytest.approx(-2.0) and alone["pairs"] == 1


def test_mulle_pairs_by_hand_and_no_pairs_without_two_bots() -> None:
    config = ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), games=4)
    records = [
        GameRecord(0, (0, 1), sides=(0, 1), rounds=[[20, 30]]),
        GameRecord(1, (1, 0), sides=(1, 0), rounds=[[25, 15]]),
        GameRecord(2, (0, 1), sides=(0, 1), rounds=[[10, 5], [1, 1]]),
        GameRecord(3, (1, 0), sides=(1, 0), rounds=[[4, 8]]),
    ]
    got = duplicate(config, records)
    assert got is not None and got["unit"] == "points per round" and got["pairs"] == 2
    # seat 0: A 20 - B 25 = -5; A 10 - B 4 = 6.  seat 1: A 15 - B 30 = -15; A 8 - B 5 = 3
    # seat 0 [[-5], [6]]: mean 0.5, s^2 = 60.5, se = sqrt(60.5 / 2) = 5.5
    seat0 = got["by_seat"]["seat 0"]
    assert seat0["mean"] == pytest.approx(0.5) and seat0["ci95"] == pytest.approx([0.5 - Z * 5.5, 0.5 + Z * 5.5])
    assert got["by_seat"]["seat 1"]["mean"] == pytest.approx(-6.0)
    assert got["margin"]["mean"] == pytest.approx((-10 + 4.5) / 2)
    three = ArenaConfig("mulle", (BotSpec("greedy"),) * 3, games=3, players=3)
    assert duplicate(three, []) is None


# ------------------------------------------------------------------------------------------------ the dealing
def _cards_dealt(config: ArenaConfig, index: int) -> dict[tuple[int, int], Any]:
    """What each seat was dealt at every deal (Cribbage: its six cards and the starter) or round (Mulle: its first
    hand of each deal of a round, the table at its first deal, the dealer) of game ``index``."""
    dealt: dict[tuple[int, int], Any] = {}

    def watch(state: Any, seat: int, view: Any, legal: Sequence[Any]) -> None:
        data = view.to_json()
        if config.game == "cribbage":
            key = (data["deal_number"], seat)
            if view.phase == "discard":
                dealt.setdefault(key, {})["hand"] = tuple(view.hand)
            elif view.phase == "play":
                dealt.setdefault(key, {}).setdefault("starter", view.starter)
        else:
            deal = 100 * data["round"] + data["deal_no"]  # every deal of every round
            dealt.setdefault((deal, seat), (tuple(view.hand), data["dealer"]))
            if data["deal_no"] == 1:  # the table as dealt: at the round's first decision
                dealt.setdefault((deal, -1), tuple(view.table))

    record = play_game(config, index, watch=watch)
    assert record.error is None
    return dealt


@pytest.mark.parametrize(
    ("game", "bots", "rules"),
    [
        ("cribbage", ("casual", "greedy"), (("target", 121),)),
        ("mulle", ("beginner", "greedy"), (("target", 200),)),
    ],
)
def test_both_plays_of_a_pair_get_the_same_cards(game: str, bots: tuple[str, str], rules: Any) -> None:
    config = ArenaConfig(game, tuple(BotSpec(b) for b in bots), games=4, seed=2, rules=rules)
    for block in range(2):
        one, two = _cards_dealt(config, 2 * block), _cards_dealt(config, 2 * block + 1)
        shared = set(one) & set(two)
        deals = {k for k, _ in shared}
        assert len(deals) >= 2  # several deals (rounds) reached by both games
        for key in shared:
            if game == "cribbage" and ("starter" not in one[key] or "starter" not in two[key]):
                one[key].pop("starter", None)
                two[key].pop("starter", None)
            assert one[key] == two[key], key  # the same seat got the same cards (the seats' bots are swapped)
    other = _cards_dealt(config, 2)
    assert _cards_dealt(config, 0) != other  # another block, other deals


def test_duplicate_figures_are_the_same_whatever_the_processes() -> None:
    config = ArenaConfig("cribbage", (BotSpec("beginner"), BotSpec("greedy")), games=6, seed=4, rules=(("target", 61),))
    one, two = run_arena(config, jobs=1), run_arena(config, jobs=2, chunk=1)
    assert one["duplicate"] == two["duplicate"]
    assert one["duplicate"]["pairs"] > 0 and one["duplicate"]["blocks"] == 3
