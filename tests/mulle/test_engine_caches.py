"""The engine's fast paths must not change what it computes.

* ``apply`` accepts a move taken from ``legal_moves`` by identity and any other move by value: both give the
  same state.
* Positions that share a loose table share cached facts (capture lists, founding moves); the cache must keep rule
  sets apart.  The worked cases of the rules spec on the same table under different options are checked one
  after another, in both orders, in one process; the expected move sets are the cases' own.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mulle_helpers import case_position, load_cases

from kortbord.errors import IllegalMoveError
from kortbord.mulle import (
    Capture,
    Rules,
    Trail,
    apply,
    chance_outcome,
    is_chance,
    is_over,
    legal_moves,
    load_position,
    new_game,
    parse_move_text,
    step,
)

BY_ID = {c["id"]: c for c in load_cases()}
# Pairs of worked cases on the same table and hand whose rule options differ (spec §6).
SAME_TABLE = [("MUL-01", "MUL-02"), ("MUL-08", "MUL-08b"), ("BLD-02", "BLD-02b"), ("BLD-03", "BLD-03b")]


@pytest.mark.parametrize("pair", SAME_TABLE, ids=["+".join(p) for p in SAME_TABLE])
def test_cached_table_facts_keep_rule_sets_apart(pair: tuple[str, str]) -> None:
    for order in (pair, pair[::-1], pair):
        for cid in order:
            case = BY_ID[cid]
            state = load_position(case_position(case))
            assert set(legal_moves(state)) == {parse_move_text(m) for m in case["expected"]["legal_moves"]}, cid


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_apply_by_identity_and_by_value_agree(seed: int, players: int) -> None:
    rng = random.Random(seed)
    rules = Rules(game_length="single_round")
    s = new_game(rules, players=players, teams=players == 4)
    while not is_over(s):
        if is_chance(s):
            s = apply(s, chance_outcome(s, rng))
            continue
        legal = legal_moves(s)
        for m in legal:
            rebuilt = parse_move_text(str(m))
            assert rebuilt is not m
            assert apply(s, m) == apply(s, rebuilt)
            assert [str(e) for e in step(s, m)[1]] == [str(e) for e in step(s, rebuilt)[1]]
        s = apply(s, rng.choice(legal))


def test_a_move_legal_elsewhere_is_still_checked() -> None:
    # A move object taken from one position's legal list is not legal in another just because it is the same
    # object: apply checks it against the position it is given.
    rng = random.Random(11)
    s = new_game(Rules(game_length="single_round"))
    s = apply(s, chance_outcome(s, rng))
    seen: list[Capture | Trail] = []
    while not is_over(s) and not is_chance(s):
        legal = legal_moves(s)
        for old in seen:
            if old not in legal:
                with pytest.raises(IllegalMoveError):
                    apply(s, old)
        seen = [m for m in legal if isinstance(m, Capture | Trail)][:3]
        s = apply(s, rng.choice(legal))
