"""``bench/cribbage_play_model.py`` (issue #14 item 2): how well the expert's opponent model predicts a player's
pegging -- each decision scored by the soft-max's chance of the card laid (spec §2.4's points for the points-first
prior), each deal predicted only from the deals before it, the intervals over games."""

from __future__ import annotations

import math

import pytest
from bot_helpers import load_bench

model = load_bench("cribbage_play_model")


def test_a_decision_is_scored_by_the_soft_max_of_the_points_a_card_scores() -> None:
    """The points-first prior (weight 1 on the points a card scores now) never refitted: on a count of 5 a ten-card
    makes fifteen for 2 points (spec §2.4) and a 3 none, so the ten's chance is e^2 / (e^2 + 1) -- the 3 as the
    card laid scores the log of the rest.  A decision with one legal rank is no evidence and is skipped."""
    fifteen = ((3, 10), (5,), 5, 10, True)  # (hand, the count's ranks, count, rank laid, the other holds a card)
    three = ((3, 10), (5,), 5, 3, True)
    forced = ((10, 10), (5,), 5, 10, True)
    total, n = model.game_scores([[fifteen, three, forced]], 3.0, None, False)
    assert n == 2
    assert total == pytest.approx(math.log(math.e**2 / (math.e**2 + 1)) + math.log(1 / (math.e**2 + 1)))


def test_each_deal_is_predicted_from_the_deals_before_it_only() -> None:
    """Refitting changes nothing for the first deal (the prior alone predicts it) and changes the second deal's
    score once the first deal's decisions are learnt."""
    deal = [((3, 10), (5,), 5, 3, True)] * 6  # a player who lays the 3 where the ten makes fifteen, six times
    alone, _ = model.game_scores([deal], 3.0, None, True)
    fixed, _ = model.game_scores([deal], 3.0, None, False)
    assert alone == pytest.approx(fixed)
    learnt, n = model.game_scores([deal, deal], 3.0, None, True)
    still, _ = model.game_scores([deal, deal], 3.0, None, False)
    assert n == 12 and learnt > still  # the second deal is predicted better by the refit


def test_the_interval_is_over_games() -> None:
    """The ratio mean of the games' sums over their decisions, with the cluster-robust interval: equal per-decision
    differences in every game give a zero-width interval; one game gives none."""
    mean, lo, hi = model._ci([1.0, 2.0, 3.0], [10, 20, 30])
    assert (mean, lo, hi) == pytest.approx((0.1, 0.1, 0.1))
    mean, lo, hi = model._ci([1.0], [10])
    assert mean == 0.1 and math.isnan(lo) and math.isnan(hi)
