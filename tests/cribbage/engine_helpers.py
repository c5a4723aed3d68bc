"""Helpers shared by the Cribbage engine tests (imported by path: this directory has no ``__init__``).

* :func:`cases` loads the worked cases of ``../shared/rules/cribbage_cases.json`` (CI places ``shared/`` beside
  the clone) by kind;
* :func:`seat` maps ``"P1"`` to 1;
* :func:`filler` picks cards not yet used (for cribs and starters the cases leave open);
* :func:`random_game` plays a game with uniformly random moves, checking a callback after every step.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import Event, State

CASES_PATH = Path(os.environ["KORTBORD_RULES_DIR"]) / "cribbage_cases.json"


@cache
def _all_cases() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(CASES_PATH.read_text(encoding="utf-8")))


def cases(kind: str, predicate: Callable[[dict[str, Any]], bool] = lambda c: True) -> list[dict[str, Any]]:
    """The worked cases of ``kind`` (``pegging``, ``muggins``, ``game`` ...) that satisfy ``predicate``."""
    return [c for c in _all_cases() if c["kind"] == kind and predicate(c)]


def case(case_id: str) -> dict[str, Any]:
    """The worked case with this id."""
    (found,) = [c for c in _all_cases() if c["id"] == case_id]
    return found


def seat(name: str) -> int:
    """``"P1"`` -> 1 (spec §4 seat names; ``P0`` is the dealer in the worked cases)."""
    assert name[0] == "P"
    return int(name[1:])


def filler(used: Iterable[Card | str], k: int, *, avoid_jacks: bool = True) -> list[Card]:
    """``k`` cards not in ``used`` (in card order), jacks left out by default (no heels, no nobs surprises)."""
    taken = {Card.parse(c) if isinstance(c, str) else c for c in used}
    out = [c for c in map(Card, range(52)) if c not in taken and not (avoid_jacks and c.rank == 11)]
    return out[:k]


def random_game(
    rules: Rules,
    seed: int,
    check: Callable[[State, State, Any, tuple[Event, ...]], None] | None = None,
    *,
    max_steps: int = 20_000,
) -> tuple[State, list[Any]]:
    """Play a whole game with uniformly random chance and decisions via ``engine.step``.

    Returns the final state and the list of moves applied (chance moves included). ``check(before, after, move,
    events)`` is called after every step.
    """
    rng = random.Random(seed)
    state = engine.new_game(rules)
    moves: list[Any] = []
    for _ in range(max_steps):
        if engine.is_over(state):
            return state, moves
        if engine.is_chance(state):
            move = engine.chance_outcome(state, rng)
        else:
            legal = engine.legal_moves(state)
            assert legal, f"no legal move for the seat to act in {state!r}"
            move = rng.choice(legal)
        new_state, events = engine.step(state, move)
        if check is not None:
            check(state, new_state, move, events)
        moves.append(move)
        state = new_state
    raise AssertionError("game did not end")
