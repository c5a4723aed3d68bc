"""The fast move generator against the reference generator (issue #13 item 1): the same legal moves, in the same
canonical order, with the same safety-valve flag, over many thousands of random positions of every deal format,
player count, seating and rules profile (random values of every option of :data:`kortbord.mulle.rules.OPTIONS`).

The reference is :mod:`kortbord.mulle._reference_movegen` (the generator as it was before the fast one); the fast
generator is :mod:`kortbord.mulle.movegen` (what ``legal_moves`` answers), together with its compact move codes
(:func:`kortbord.mulle.movegen.legal_codes`, decoded with :func:`kortbord.mulle.movegen.decode`).  Positions come
from random play (uniformly random legal moves from a seeded ``random.Random``), so every position is one the engine
reaches; the Hypothesis test draws the options, the seating and the seed, the seeded sweep walks a fixed grid.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.mulle import _reference_movegen as reference
from kortbord.mulle import movegen
from kortbord.mulle.rules import OPTIONS, PROFILES, Rules
from kortbord.mulle.state import State
from kortbord.mulle.transitions import _apply_play, _start_round, apply_code, chance_outcome, new_game

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
FORMATS = [(8, 8), (5, 5), (4, 8), (6, 0), (3, 4), (10, 6), (1, 2)]
#: Options the random rules never vary: the game's length and the profile name do not touch move generation, and
#: the deal format is drawn with the seating (it must fit 104 cards).
_FIXED = {"game_length", "profile", "hand_size", "table_size", "jokers", "deal_packet"}
#: Founding builds on up to this many cards keeps the reference generator's combination search small enough for a
#: unit test ("unlimited" is also drawn, with small tables).
_FOUND_CHOICES: tuple[int | str, ...] = (2, 3, 4, "unlimited")


def _random_rules(rng: random.Random, players: int) -> Rules:
    """Rules with every move-generation option drawn at random (rules.OPTIONS) and a deal format that fits."""
    base = PROFILES[rng.choice(sorted(PROFILES))]
    changes: dict[str, Any] = {}
    for opt in OPTIONS:
        if opt.key in _FIXED or rng.random() < 0.4:  # keep some of the profile's values
            continue
        if opt.key == "max_found_cards":
            changes[opt.key] = rng.choice(_FOUND_CHOICES)
        elif opt.type == "bool":
            changes[opt.key] = rng.random() < 0.5
        elif opt.type == "choice":
            changes[opt.key] = rng.choice(opt.choices)
    fmts = [f for f in FORMATS if f[1] + players * f[0] <= 104]
    if changes.get("max_found_cards", base.max_found_cards) == "unlimited":
        fmts = [f for f in fmts if f[1] <= 5] or [(1, 2)]
    hand, table = rng.choice(fmts)
    return base.with_options(
        **changes,
        hand_size=hand,
        table_size=table,
        deal_packet=rng.choice((1, 2, 4, 8)),
        game_length="single_round",
    )


def _fields(state: State) -> dict[str, Any]:
    """Every field of a state but its cache."""
    return {k: v for k, v in state.__dict__.items() if k != "_cache"}


def _fresh(state: State) -> State:
    """The same position with an empty cache (no generator sees another's cached list)."""
    return state._evolve({})


def _compare(state: State) -> list[Any]:
    """Assert that both generators give the same list, order and safety-valve flag; return the list."""
    ref_state = _fresh(state)
    expected = reference._legal(ref_state)
    fast_state = _fresh(state)
    got = movegen._legal(fast_state)
    assert got == expected, f"{state!r}: fast {list(map(str, got))} != reference {list(map(str, expected))}"
    assert [type(m) for m in got] == [type(m) for m in expected]
    assert fast_state._cache.get("safety_valve", False) == ref_state._cache.get("safety_valve", False)
    code_state = _fresh(state)
    codes = movegen.legal_codes(code_state)
    assert [movegen.decode(code_state, c) for c in codes] == expected
    assert code_state._cache.get("safety_valve", False) == ref_state._cache.get("safety_valve", False)
    return expected


def _play_and_compare(rules: Rules, players: int, teams: bool, seed: int, max_positions: int = 400) -> int:
    """Play one random round under ``rules`` from ``seed``, comparing the generators at every decision; also
    applies each chosen move by value and by its code (the fast apply) and checks that both give the state and the
    events of the reference apply (``transitions._apply_play`` as it was).  Returns
    the number of positions compared."""
    rng = random.Random(seed)
    state = new_game(rules, players=players, teams=teams, dealer=rng.randrange(players))
    state, _ = _start_round(state, chance_outcome(state, rng))
    n = 0
    while state.phase == "play" and n < max_positions:
        moves = _compare(state)
        n += 1
        i = rng.randrange(len(moves))
        new, events = reference.reference_apply_play(_fresh(state), moves[i], True)
        fast, fast_events = _apply_play(state, moves[i], True)
        by_code = apply_code(state, movegen.legal_codes(state)[i])
        for got in (fast, by_code):
            assert _fields(got) == _fields(new)
        assert fast_events == events
        state = by_code
    return n


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_seeded_sweep_profiles(profile: str, players: int, teams: bool) -> None:
    """Every profile and seating over several deal formats and seeds: thousands of positions in all."""
    total = 0
    for k, (hand, table) in enumerate(f for f in FORMATS if f[1] + players * f[0] <= 104):
        rules = Rules.from_dict(
            {"profile": profile, "hand_size": hand, "table_size": table, "game_length": "single_round"}
        )
        for seed in range(3):
            total += _play_and_compare(rules, players, teams, 7919 * k + seed)
    assert total >= 300


def test_seeded_sweep_random_options() -> None:
    """Random values of every option (seeded), every seating: at least 10,000 positions."""
    total = 0
    seed = 0
    while total < 10_000:
        rng = random.Random(10_007 * seed + 1)
        players, teams = SEATINGS[seed % len(SEATINGS)]
        rules = _random_rules(rng, players)
        total += _play_and_compare(rules, players, teams, rng.randrange(2**32), 150)
        seed += 1
    assert seed > 60  # many option sets, not one long game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seating=st.sampled_from(SEATINGS), options_seed=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
def test_hypothesis_random_options(seating: tuple[int, bool], options_seed: int, seed: int) -> None:
    players, teams = seating
    rules = _random_rules(random.Random(options_seed), players)
    assert _play_and_compare(rules, players, teams, seed, 120) > 0


def test_small_packings_equal_the_search() -> None:
    """The closed form for tables of at most two relevant items gives the subset-sum search's groups, maximal
    unions and unions (every value pair 1..16, in either order, every capture value 2..16)."""
    import itertools

    for h in range(2, 17):
        for n in range(3):
            for values in itertools.product(range(1, 17), repeat=n):
                reference._PACK_CACHE.clear()
                assert movegen._small_packings(values, h) == reference._packings(values, h), (values, h)
