"""``bench/cribbage_model_features.py`` (issue #14 item 2): what a soft-max over each feature set of the expert's
opponent model can hold of greedy's pegging -- the risk feature (``cribbage_expert.count_risk``, the experiment
``LearntModel(risk=True)``) is greedy's judgement of the points a card offers (a pair 2, a fifteen or 31 2, a run 3,
each times the hypergeometric chance that the next player holds the answer; ``judge_plays``' docstring) from the
hand and the count's cards alone."""

from __future__ import annotations

from math import comb

import pytest
from bot_helpers import load_bench

from kortbord.bots.cribbage_expert import count_risk

bench = load_bench("cribbage_model_features")


def test_a_five_led_offers_a_pair_and_a_fifteen() -> None:
    """Leading a 5 from 5-T-T-K (count 0 to 5) offers a pair of 5s (three unseen) and a fifteen by any ten-card
    (16 less the three held: 13 unseen), 2 points each; 48 cards unseen by the player (52 less its four: the
    starter's rank is not known to the function) of which the next player holds 4; 31 is out of reach."""
    hand = (5, 10, 10, 13)
    p = lambda k: 1 - comb(48 - k, 4) / comb(48, 4)
    assert count_risk(hand, (), 0, 5, 4) == pytest.approx(2 * p(3) + 2 * p(13))


def test_a_card_next_to_the_last_offers_a_run_and_a_card_making_31_offers_nothing() -> None:
    """A 7 on a 6 (count 6 to 13) offers a pair of 7s, a fifteen by a 2 and a run by a 5 or an 8 (3 points); with the
    next player holding 1 card.  A card that makes 31 offers nothing (the count starts again)."""
    hand = (7, 9)
    u = 52 - 2 - 1  # less the hand and the count's card
    p = lambda k: 1 - comb(u - k, 1) / comb(u, 1)
    assert count_risk(hand, (6,), 6, 7, 1) == pytest.approx(2 * p(3) + 2 * p(4) + 3 * p(8))
    assert count_risk((1, 9), (10, 10, 2), 22, 9, 3) == 0.0
    assert count_risk(hand, (6,), 6, 7, 0) == 0.0  # no next player to answer


def test_greedys_own_judgement_predicts_greedy_better_than_the_levels_features() -> None:
    """Fitted on greedy's decisions in 6 games and scored on 6 others, the feature set with greedy's own judgement
    gives the card greedy laid a higher mean log chance than the level's features alone (greedy lays the card of its
    best judgement, ties aside)."""
    import numpy as np

    games = [bench.game_rows(g) for g in range(12)]
    train = [r for g in games[:6] for r in g]
    test = [r for g in games[6:] for r in g]
    k = len(bench.FEATURES)
    level, judge = list(range(k)), [*range(k), k + 1]
    ll_level = np.mean(bench.log_chances(test, level, bench.fit(train, level)))
    ll_judge = np.mean(bench.log_chances(test, judge, bench.fit(train, judge)))
    assert ll_judge > ll_level
    assert ll_judge > np.log(0.8)  # the card laid gets over 80% on average (the geometric mean)
