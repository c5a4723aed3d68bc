"""``bench/cribbage_belief_times.py``: a belief bot's decision times in whole games -- every searched play counted
once, the end game's among them (a player within 45 of 121: two games to 121 always reach it), a level refused."""

from __future__ import annotations

import pytest
from bot_helpers import load_bench

times = load_bench("cribbage_belief_times")


def test_the_searched_plays_and_the_end_games_among_them_are_timed() -> None:
    out = times.measure("belief:kt=0.5:hands=4:budget=2000:endgame=1", 2, seed=3)
    plays, end = out["plays"], out["end_game"]
    assert plays["n"] > 0 and 0 < end["n"] < plays["n"]
    assert 0 < plays["p50"] <= plays["p95"] <= plays["max"]
    assert out["discards"]["n"] == 0  # strong's discard: nothing searched


def test_a_level_is_refused() -> None:
    with pytest.raises(ValueError, match="a belief bench bot"):
        times.measure("strong", 1, seed=3)


def test_percentiles_are_numpys_in_milliseconds() -> None:
    import numpy as np

    xs = [i / 1000 for i in range(1, 101)]  # 1 .. 100 ms
    got = times.percentiles(xs)
    assert got["n"] == 100 and got["max"] == pytest.approx(100.0)
    assert got["p50"] == pytest.approx(1000 * np.percentile(xs, 50))
    assert got["p95"] == pytest.approx(1000 * np.percentile(xs, 95))
