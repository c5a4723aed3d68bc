"""Helpers shared by the Cribbage bot tests: positions built from the rules spec's worked Muggins cases, and the
bench modules (``bench/*.py``, not a package) loaded by name."""

from __future__ import annotations

import importlib.util
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

from kortbord.cards import Card, parse_cards
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import show_total
from kortbord.cribbage.view import View, view

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(name: str) -> Any:
    """The module ``bench/<name>.py``, loaded once under ``name`` (the bench dir put on ``sys.path`` first, so
    that the bench modules it imports load from there too)."""
    if name in sys.modules:
        return sys.modules[name]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def seat(name: str) -> int:
    """``"P1"`` -> 1 (seat names of cribbage_cases.json)."""
    return int(name[1:])


def muggins_position(case: dict[str, Any]) -> tuple[Any, int, int, int]:
    """The show position of a ``mug-*`` case: dealer P0, the counter's hand (or the crib) worth the case's true
    count, the case's scores; returns (state, counter, announced, true)."""
    inp = case["input"]
    players = inp.get("players", 2)
    counter = seat(inp["counter"])
    true = inp["true_count"]
    is_crib = "crib" in inp.get("what", "")
    rules = Rules(players=players, target=inp.get("target", 121), muggins=True)
    starter = Card.parse("2D")
    pool = [Card(i) for i in range(52) if Card(i) != starter]
    counted = next(h for h in combinations(pool, 4) if show_total(h, starter, is_crib) == true)
    rest = [c for c in pool if c not in counted]
    hands: list[list[Card]] = []
    for s in range(players):
        if s == counter and not is_crib:
            hands.append(list(counted))
        else:
            hands.append(rest[:4])
            rest = rest[4:]
    crib = list(counted) if is_crib else rest[:4]
    scores = [0] * players
    for name, points in inp.get("scores_before", {}).items():
        scores[seat(name)] = points
    state = engine.position(
        rules,
        phase="show",
        dealer=0,
        hands=hands,
        crib=crib,
        starter=starter,
        scores=scores,
        show="crib" if is_crib else counter,
    )
    return state, counter, inp["announced"], true


def pone_view_after(rules: Rules, plays: list[str]) -> View:
    """Seat 1 (the pone, who leads) views a two-player play after ``plays`` (cards in play order, seats
    alternating): the dealer holds 4H 2C 3D 7S, the pone 5S 8C 9D AH, the crib QH QD 6C 6D, the starter JC."""
    state = engine.position(
        rules,
        phase="play",
        dealer=0,
        hands=["4H 2C 3D 7S", "5S 8C 9D AH"],
        crib="QH QD 6C 6D",
        starter="JC",
    )
    for text in plays:
        (card,) = parse_cards(text)
        state = engine.apply(state, Play(card))
    return view(state, 1)
