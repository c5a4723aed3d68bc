"""``bench/cribbage_play_regret.py`` (issue #14 items 1, 2): the in-model regret of the belief bot's work bound away
from the end game -- the exact bound has none, the bot's own bound is charged exactly what it played, and a bot
without the belief search or no games are refused."""

from __future__ import annotations

import pytest
from bot_helpers import load_bench

regret = load_bench("cribbage_play_regret")


def test_the_exact_search_has_no_regret_and_the_bots_own_bound_is_its_play() -> None:
    """A bound of every hand and no budget (``0:0``) chooses as the exact search does: no regret; the bot's own
    bound (``8:4000``), probed on a copy of its rng, is charged exactly what the cards it played are -- the probes
    neither change its choices nor miss them; every probed decision is one the belief search made."""
    bot = "belief:learn=game:kt=0.5:hands=8:budget=4000:endgame=1"
    got = regret.play_regret(bot, 1, seed=3, draws=[(0, 0), (8, 4000)])
    assert got["games"] == 1 and got["deals"] > 0 and got["decisions"] > 0
    exact = got["draws"]["0:0"]
    assert exact["wrong"] == 0 and exact["points"] == 0.0 and exact["per_deal"] == 0.0
    assert exact["per_deal_ci95"] is None  # one game, one cluster: no interval
    assert got["draws"]["8:4000"] == got["played"]
    assert len(got["exact_s"]) == got["decisions"]


def test_the_regret_a_deal_is_each_games_sum_over_all_deals() -> None:
    """Two games: a bound's regret a deal, summed game by game, is its charges over all decisions divided by both
    games' deals (each decision in exactly one game's share), with an interval over the two games that holds it."""
    bot = "belief:learn=game:kt=0.5:hands=4:budget=2000"
    got = regret.play_regret(bot, 2, seed=4, draws=[(4, 2000)])
    r = got["draws"]["4:2000"]
    assert r == got["played"] and r["wrong"] > 0  # four draws miss the exact best somewhere in two games
    assert r["per_deal"] == pytest.approx(r["points"] / got["deals"])
    lo, hi = r["per_deal_ci95"]
    assert lo <= r["per_deal"] <= hi


@pytest.mark.parametrize("bot", ["greedy", "strong"])
def test_a_bot_without_the_belief_search_is_refused(bot: str) -> None:
    with pytest.raises(ValueError, match="play regret needs a belief bot"):
        regret.play_regret(bot, 1, seed=3, draws=[(0, 0)])


def test_no_games_are_refused() -> None:
    with pytest.raises(ValueError, match="games must be 1 or more"):
        regret.play_regret("belief:kt=0.5:hands=8", 0, seed=3, draws=[(0, 0)])


def test_bad_draws_are_refused_with_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        regret.main(["--bot", "belief:kt=0.5:hands=8", "--games", "1", "--draws", "32-12000"])
    assert "hands:budget pairs of whole numbers" in capsys.readouterr().err
