"""Racing (``StrongBot(race=z)``, the Mulle ``expert`` level's candidate schedule, issue #14 item 3): a candidate is
dropped once the leader's paired per-world advantage over it exceeds ``z`` standard errors, and the search stops
when one candidate is left.  The values here follow from that definition, not from the code's output."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kortbord.bots import registry
from kortbord.bots.mulle_expert import LEVEL_EPSILON, LEVEL_ITERATIONS, LEVEL_RACE, ExpertBot
from kortbord.bots.mulle_strong import StrongBot
from kortbord.mulle import Game, Rules


def _sums(per_world: dict[int, list[float]]) -> tuple[list[float], list[float], list[list[float]]]:
    """The running sums ``_race`` reads (total, sum of squares, pairwise products ``cross[min][max]``)."""
    n = max(per_world) + 1
    total = [sum(per_world.get(i, [])) for i in range(n)]
    square = [sum(v * v for v in per_world.get(i, [])) for i in range(n)]
    cross = [[0.0] * n for _ in range(n)]
    for i in per_world:
        for j in per_world:
            if i < j:
                cross[i][j] = sum(a * b for a, b in zip(per_world[i], per_world[j], strict=True))
    return total, square, cross


def test_race_drops_a_candidate_shown_worse_and_keeps_one_within_the_noise() -> None:
    per_world = {
        0: [3.0, 3.0, 3.0, 3.0],  # the leader, mean 3
        1: [1.0, 1.0, 1.0, 1.0],  # 2 worse in every world: the difference has no spread, so it is shown worse
        2: [4.0, 2.0, 3.0, 2.0],  # mean 2.75: differences -1, 1, 0, 1 -> mean 0.25, sd 0.957, se 0.479
        3: [0.0, 6.0, 0.0, 6.0],  # mean 3 as well, a tie with the leader on the mean: never shown worse
    }
    total, square, cross = _sums(per_world)
    prior = [1.0, 0.0, 0.0, 0.0]  # the greedy value breaks the tie of 0 and 3 for 0
    # 0.25 <= 2 * 0.479: candidate 2 stays; at z = 0.5 (0.24) it goes
    assert StrongBot._race([0, 1, 2, 3], total, square, cross, 4, prior, 2.0) == [0, 2, 3]
    assert StrongBot._race([0, 1, 2, 3], total, square, cross, 4, prior, 0.5) == [0, 3]
    # the order of the survivors is the order given (the greedy ranking), whatever the indices
    assert StrongBot._race([2, 3, 1, 0], total, square, cross, 4, prior, 2.0) == [2, 3, 0]


def _positions(count: int, seed: int) -> list[tuple[Any, list[Any]]]:
    """Decisions with at least three distinct legal moves from one greedy two-player round."""
    rules = Rules.from_dict({"game_length": "single_round"})
    game = Game(rules, players=2, seed=seed)
    greedy = registry.make_bot("mulle", "greedy", rules)
    rng = random.Random(seed)
    out = []
    while not game.is_over() and len(out) < count:
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_moves()
        if len(set(legal)) > 2:
            out.append((game.view(seat), legal))
        game.play(greedy.choose(game.view(seat), legal, rng))
    return out


def test_racing_that_never_drops_is_the_search_without_cuts_and_a_hair_trigger_stops_at_the_minimum() -> None:
    rules = Rules.from_dict({"game_length": "single_round"})
    positions = _positions(6, seed=5)
    assert len(positions) == 6
    stopped_early = 0
    for k, (view, legal) in enumerate(positions):
        # z huge: only a candidate behind by the same margin in every world (no spread: certain) is dropped, and
        # it could never have been chosen, so the choice is strong's without its cuts over all 12 worlds
        never = ExpertBot(rules, iterations=12, infer=False, race=1e12)
        uncut = ExpertBot(rules, iterations=12, infer=False, batch=10_000)
        assert never.choose(view, legal, random.Random(k)) == uncut.choose(view, legal, random.Random(k))
        assert never.last_stats["worlds"] == uncut.last_stats["worlds"] == 12
        assert never.last_stats["playouts"] <= uncut.last_stats["playouts"]
        # z tiny: at RACE_MIN worlds every candidate behind the leader by any margin goes; the choice is the
        # leader after RACE_MIN worlds, which is the uncut search's choice with that many worlds
        hair = ExpertBot(rules, iterations=12, infer=False, race=1e-12)
        short = ExpertBot(rules, iterations=StrongBot.RACE_MIN, infer=False, batch=10_000)
        choice = hair.choose(view, legal, random.Random(k))
        assert choice == short.choose(view, legal, random.Random(k))
        assert hair.last_stats["worlds"] in (StrongBot.RACE_MIN, 12)
        stopped_early += hair.last_stats["worlds"] == StrongBot.RACE_MIN
    assert stopped_early >= 4  # ties of the mean to the last digit are rare: it stopped at the minimum


def test_the_expert_level_races_over_its_worlds_and_is_reproducible() -> None:
    bot: Any = registry.make_bot("mulle", "expert")
    assert isinstance(bot, ExpertBot)
    assert (bot.iterations, bot.race, bot.infer, bot.time_budget_ms) == (LEVEL_ITERATIONS, LEVEL_RACE, False, None)
    assert bot.EPSILON == LEVEL_EPSILON == 0.2 and StrongBot.EPSILON == 0.1  # the expert's playouts only
    assert registry.level_work("mulle", "expert") == {"iterations": LEVEL_ITERATIONS}
    assert "expert" in registry.player_levels("mulle")
    view, legal = _positions(1, seed=9)[0]
    first = bot.choose(view, legal, random.Random(3))
    stats = dict(bot.last_stats)
    again: Any = registry.make_bot("mulle", "expert")
    assert again.choose(view, legal, random.Random(3)) == first and again.last_stats == stats
    assert 1 <= stats["worlds"] <= LEVEL_ITERATIONS
    assert stats["playouts"] <= LEVEL_ITERATIONS * min(len(set(legal)), StrongBot.MAX_CANDIDATES)


@pytest.mark.parametrize("race", [0, -1.0, float("nan"), float("inf"), True, "2"])
def test_a_race_threshold_must_be_a_positive_finite_number(race: Any) -> None:
    # an infinite threshold would compare 0 <= inf * 0 (nan) and drop a candidate that ties the leader
    with pytest.raises(ValueError, match="race must be a positive finite number"):
        StrongBot(None, race=race)
    with pytest.raises(ValueError, match="race must be a positive finite number"):
        ExpertBot(None, race=race)
