"""Strength defined by work, not by time (issue #14 item 1): the strong levels search a fixed amount per decision,
so the same seed gives the same decisions on a busy and an idle machine; a time limit is only a reported cap."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from kortbord.bots import cribbage_strong, mulle_strong, registry


def _mulle_positions(count: int, seed: int = 3) -> list[tuple[Any, list[Any]]]:
    """``count`` decisions (view, legal moves) with a choice, from one greedy Mulle game."""
    from kortbord.mulle import Game, Rules

    rules = Rules()
    greedy = registry.make_bot("mulle", "greedy", rules)
    game = Game(rules, players=2, seed=seed)
    out = []
    rng = random.Random(seed)
    while not game.is_over() and len(out) < count:
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_moves()
        if len(set(legal)) > 1 and rng.random() < 0.5:
            out.append((game.view(seat), legal))
        game.play(greedy.choose(game.view(seat), legal, rng))
    return out


def _cribbage_positions(count: int, seed: int = 3) -> list[tuple[Any, list[Any]]]:
    """``count`` pegging decisions with a choice (early and late in the play), from greedy Cribbage games."""
    from kortbord.cribbage import Game, Rules

    greedy = registry.make_bot("cribbage", "greedy")
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        game = Game(Rules(), seed=seed)
        seed += 1
        while not game.is_over() and len(out) < count:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_moves()
            v = game.view(seat)
            if v.phase == "play" and len(legal) > 1 and rng.random() < 0.3:
                out.append((v, legal))
            game.play(greedy.choose(v, legal, rng), seat=seat)
    return out


POSITIONS = {"mulle": _mulle_positions, "cribbage": _cribbage_positions}


def _decisions(bot: Any, positions: list[tuple[Any, list[Any]]], seed: int) -> list[str]:
    return [str(bot.choose(v, legal, random.Random(seed + i))) for i, (v, legal) in enumerate(positions)]


@contextmanager
def _cpu_hogs() -> Iterator[None]:
    """Keep every core busy (one spinning subprocess a core, two at least) while the block runs."""
    import os

    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(max(2, os.cpu_count() or 1))]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()


@pytest.mark.parametrize(
    ("game", "level"), [("mulle", "strong"), ("mulle", "expert"), ("cribbage", "strong"), ("cribbage", "expert")]
)
def test_the_same_seed_gives_the_same_decisions_on_a_busy_and_an_idle_machine(game: str, level: str) -> None:
    positions = POSITIONS[game](4)
    assert len(positions) == 4
    idle = _decisions(registry.make_bot(game, level), positions, seed=7)
    with _cpu_hogs():
        busy_bot = registry.make_bot(game, level)
        busy = _decisions(busy_bot, positions, seed=7)
    assert busy == idle
    assert busy_bot.capped == 0 and busy_bot.decisions == len(positions)  # type: ignore[attr-defined]
    again = _decisions(registry.make_bot(game, level), positions, seed=7)
    assert again == idle


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_the_same_seed_twice_gives_the_same_decisions_and_the_same_work(game: str) -> None:
    positions = POSITIONS[game](6, seed=11)
    runs = []
    for _ in range(2):
        bot = registry.make_bot(game, "strong", iterations=4)
        stats = []
        for i, (v, legal) in enumerate(positions):
            bot.choose(v, legal, random.Random(i))
            stats.append(dict(bot.last_stats))  # type: ignore[attr-defined]
        runs.append((_decisions(bot, positions, seed=0), stats))
    assert runs[0] == runs[1]


def test_the_levels_are_defined_by_work_in_the_registry_and_the_bots_default_to_them() -> None:
    assert registry.level_work("mulle", "strong") == {"iterations": mulle_strong.ITERATIONS}
    assert registry.level_work("cribbage", "strong") == {
        "iterations": cribbage_strong.ITERATIONS,
        "nodes": cribbage_strong.NODES,
    }
    assert registry.level_work("mulle", "greedy") == {}
    m: Any = registry.make_bot("mulle", "strong")
    assert (m.iterations, m.time_budget_ms) == (mulle_strong.ITERATIONS, None)
    c: Any = registry.make_bot("cribbage", "strong")
    assert (c.iterations, c.nodes, c.time_budget_ms) == (cribbage_strong.ITERATIONS, cribbage_strong.NODES, None)
    default: Any = cribbage_strong.StrongBot()
    assert (default.iterations, default.nodes) == (c.iterations, c.nodes)
    assert mulle_strong.StrongBot(None).iterations == m.iterations
    # a caller's work option replaces the level's work as a whole: iterations alone is exactly that many deals
    fixed: Any = registry.make_bot("cribbage", "strong", iterations=3)
    assert (fixed.iterations, fixed.nodes) == (3, None)
    with pytest.raises(ValueError, match="nodes"):
        registry.make_bot("cribbage", "strong", nodes=0)
    assert "nodes" in registry.level_options("cribbage", "strong")


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_a_time_cap_that_bites_is_reported(game: str) -> None:
    (v, legal), *_ = POSITIONS[game](1)
    bot: Any = registry.make_bot(game, "strong", time_budget_ms=0.001)
    move = bot.choose(v, legal, random.Random(0))
    assert move in legal
    assert bot.last_stats["capped"] is True and bot.capped == 1 and bot.decisions == 1
    roomy: Any = registry.make_bot(game, "strong", iterations=2, time_budget_ms=60_000)
    roomy.choose(v, legal, random.Random(0))
    assert roomy.last_stats["capped"] is False and roomy.capped == 0


def test_the_cribbage_node_budget_bounds_the_work_of_a_decision() -> None:
    positions = _cribbage_positions(6, seed=5)
    for i, (v, legal) in enumerate(positions):
        deals = []
        for budget in (1, 400, 4000):
            bot = cribbage_strong.StrongBot(nodes=budget)
            bot.choose(v, legal, random.Random(i))
            assert 1 <= bot.last_stats["deals"] <= bot.iterations
            deals.append(bot.last_stats["deals"])
        assert deals[0] == 1  # at least one deal, and no second one past the budget
        assert deals[0] <= deals[1] <= deals[2]
