"""The fast core (:mod:`kortbord.mulle.fast`, issue #13 item 1) against the engine: the same legal moves in the
same canonical order, the same position after every move, and the same round from the same seed.

The engine is :func:`kortbord.mulle.movegen.legal_codes` with :func:`kortbord.mulle.transitions.apply_code` (what
``legal_moves``/``apply`` answer, itself checked against the reference generator by
``test_movegen_differential.py``).  Rounds come from random play with a seeded ``random.Random``: the engine loop
``apply(s, chance_outcome(s, rng))`` then ``apply_code(s, rng.choice(legal_codes(s)))`` and
:func:`kortbord.mulle.fast.random_round` draw the same numbers, so equal results mean the same game.
"""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_movegen_differential import _random_rules

from kortbord.mulle import fast
from kortbord.mulle.movegen import legal_codes
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import score_pile, total_card_points
from kortbord.mulle.state import State
from kortbord.mulle.transitions import apply, apply_code, chance_outcome, new_game

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
FORMATS = [(8, 8), (5, 5), (4, 8)]
PROFILES = ["standard", "cardgames.zone", "kryp"]


def _engine_round(rules: Rules, seed: int, players: int, teams: bool, dealer: int) -> State:
    """The engine's random round from ``seed``: the state after its last move."""
    rng = random.Random(seed)
    s = new_game(rules, players=players, teams=teams, dealer=dealer)
    s = apply(s, chance_outcome(s, rng))
    while s.phase == "play":
        s = apply_code(s, rng.choice(legal_codes(s)))
    return s


def _same_round(rules: Rules, seed: int, players: int, teams: bool) -> fast.RoundResult:
    """Assert that :func:`fast.random_round` plays the engine's round from ``seed``; return it."""
    dealer = seed % players
    got = fast.random_round(rules, random.Random(seed), players=players, teams=teams, dealer=dealer)
    want = _engine_round(rules, seed, players, teams, dealer)
    assert got.piles == want.piles
    assert got.breakdown == want.round_log[-1]
    assert got.last_capturer == want.last_capturer
    return got


def _same_steps(rules: Rules, seed: int, players: int, teams: bool) -> int:
    """Walk a random round on both: at every position the fast list, turned into engine codes, is the engine's
    list (same moves, same order) and after every move the fast position is the engine's State.  Returns the
    number of positions compared."""
    rng = random.Random(seed)
    s = new_game(rules, players=players, teams=teams, dealer=seed % players)
    s = apply(s, chance_outcome(s, rng))
    f = fast.from_state(s)
    positions = 0
    while s.phase == "play":
        want = legal_codes(s)
        got = fast.legal(f)
        assert [fast.engine_code(f, c) for c in got] == want
        k = rng.randrange(len(want))
        s = apply_code(s, want[k])
        fast.play(f, got[k])
        assert f.to_state(s) == s
        # the loose table's keys are its cards (2 bits of count each) and its table values (4 bits each)
        assert f.tkey == sum(1 << (2 * int(c)) for c in s.table)
        assert f.vkey == sum(1 << (4 * (int(c) // 4)) for c in s.table)
        positions += 1
    assert fast.legal(f) == []
    return positions


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("profile", PROFILES)
def test_same_moves_and_positions_every_profile_format_and_seating(
    profile: str, fmt: tuple[int, int], players: int, teams: bool
) -> None:
    rules = Rules.from_dict(
        {"profile": profile, "game_length": "single_round", "hand_size": fmt[0], "table_size": fmt[1]}
    )
    positions = sum(_same_steps(rules, seed, players, teams) for seed in range(4))
    assert positions >= 4 * (104 - fmt[1]) // 2  # every card of the round is played (104 minus the table)
    for seed in range(100, 112):
        _same_round(rules, seed, players, teams)


def test_two_thousand_standard_rounds_as_the_engine() -> None:
    """The goal's configuration, 2 players 8+8 with the standard rules: 2,000 seeded rounds, each the engine's."""
    rules = Rules(game_length="single_round")
    for seed in range(2_000):
        got = _same_round(rules, 7_000_000 + seed, 2, False)
        assert got.moves == 96  # 104 cards less the 8 dealt to the table, one move each


def test_cardgames_zone_rounds_as_the_engine() -> None:
    rules = Rules.from_dict({"profile": "cardgames.zone", "game_length": "single_round"})
    for seed in range(600):
        _same_round(rules, 9_000_000 + seed, 2, False)


#: The options the fast core leaves to the engine (fast.supports), with the values it plays itself.
_SUPPORTED = {"max_found_cards": 2, "builds_in_sums": False, "capture_all_builds": True, "ownership": "last"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seating=st.sampled_from(SEATINGS),
    options_seed=st.integers(0, 2**32 - 1),
    seed=st.integers(0, 2**32 - 1),
    supported=st.booleans(),
)
def test_hypothesis_random_options(seating: tuple[int, bool], options_seed: int, seed: int, supported: bool) -> None:
    """Every option drawn at random (the differential test's rules; with ``supported`` the four options the core
    leaves to the engine set to values it plays): a supported rules value plays the engine's moves and positions;
    an unsupported one falls back to the engine, with the same round either way."""
    players, teams = seating
    rules = _random_rules(random.Random(options_seed), players)
    if supported:
        rules = rules.with_options(**_SUPPORTED)
        assert fast.supports(rules)
    if fast.supports(rules):
        _same_steps(rules, seed, players, teams)
    _same_round(rules, seed, players, teams)


@settings(max_examples=40, deadline=None)
@given(
    seating=st.sampled_from(SEATINGS),
    profile=st.sampled_from(PROFILES),
    additive=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_round_invariants(seating: tuple[int, bool], profile: str, additive: bool, seed: int) -> None:
    """Spec §2.10-§2.11 (SCO-02): after a round every one of the 104 cards is in a capture pile (the last capturer
    sweeps the rest) and the card points add up to 40 (44 with additive spade points); each side's total is its
    card points, mulle points and tabbar."""
    players, teams = seating
    rules = Rules.from_dict(
        {
            "profile": profile,
            "game_length": "single_round",
            "spade_points": "additive" if additive else "total",
        }
    )
    res = fast.random_round(rules, random.Random(seed), players=players, teams=teams, dealer=seed % players)
    cards = [c for p in res.piles for c in p.cards]
    assert sorted(cards) == sorted(c for c in range(52) for _ in range(2))
    assert sum(total_card_points(p.cards, rules) for p in res.piles) == (44 if additive else 40)
    for p, b in zip(res.piles, res.breakdown, strict=True):
        assert b["total"] == total_card_points(p.cards, rules) + sum(pts for _, pts in p.mulles) + p.tabbar
    assert res.moves == 104 - 8


def test_unsupported_rules_fall_back_to_the_engine() -> None:
    for changes in ({"builds_in_sums": True}, {"max_found_cards": 3}, {"capture_all_builds": False}):
        rules = Rules(game_length="single_round").with_options(**changes)
        assert not fast.supports(rules)
        for seed in range(3):
            _same_round(rules, seed, 2, False)


def test_draws_are_the_generators() -> None:
    """The written-out shuffle and choice draw what ``random.Random`` draws (the core checks it at import)."""
    assert fast._DRAWS_OK
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        d1, d2 = list(range(104)), list(range(104))
        a.shuffle(d1)
        fast._shuffle(b.getrandbits, d2)
        assert d1 == d2
        assert a.getstate() == b.getstate()


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
def test_a_round_leaves_the_generator_where_the_engine_leaves_it(players: int, teams: bool) -> None:
    """The fast core takes from the generator exactly the outputs the engine loop takes (it fetches them in
    blocks): after the same round from the same seed both generators are in the same state, also after a round
    with the dealer drawn and in the short formats."""
    for k, (hand, table) in enumerate(FORMATS):
        rules = Rules(game_length="single_round", hand_size=hand, table_size=table)
        for seed in range(6):
            dealer = None if seed == 5 else seed % players
            a, b = random.Random(1000 * k + seed), random.Random(1000 * k + seed)
            fast.random_round(rules, a, players=players, teams=teams, dealer=dealer)
            s = new_game(rules, players=players, teams=teams, dealer=dealer)
            while s.phase != "play":
                s = apply(s, chance_outcome(s, b))
            while s.phase == "play":
                s = apply_code(s, b.choice(legal_codes(s)))
            assert a.getstate() == b.getstate()


def test_a_random_subclass_draws_through_its_own_methods() -> None:
    """A generator that is not exactly ``random.Random`` is asked through ``shuffle``/``choice`` (its own
    overrides), as the engine asks it."""

    class Counting(random.Random):
        calls = 0

        def choice(self, seq: Any) -> Any:
            Counting.calls += 1
            return super().choice(seq)

    rules = Rules(game_length="single_round")
    got = fast.random_round(rules, Counting(5))
    assert Counting.calls == got.moves
    want = _engine_round(rules, 5, 2, False, 0)
    assert got.piles == want.piles


def test_conversion_refuses_what_it_does_not_cover() -> None:
    s = new_game(Rules(game_length="single_round"))
    with pytest.raises(ValueError, match="fast core"):
        fast.from_state(s)  # a chance node
    rules = Rules(game_length="single_round", builds_in_sums=True)
    s = new_game(rules, dealer=0)
    s = apply(s, chance_outcome(s, random.Random(1)))
    with pytest.raises(ValueError, match="fast core"):
        fast.from_state(s)
    with pytest.raises(Exception, match="2, 3 or 4 players"):
        fast.random_round(Rules(), random.Random(1), players=5)


@pytest.mark.parametrize("game_length", ["target:100", "each_deals_once"])
def test_positions_in_longer_games(game_length: str) -> None:
    """A round of a longer game (a later round, scores and round log carried): the fast position converts back
    to the engine's State after every move, the round's end included (the next round's chance node)."""
    rules = Rules(game_length=game_length)
    rng = random.Random(3)
    s = new_game(rules, players=2, dealer=1)
    for _round in range(2):
        s = apply(s, chance_outcome(s, rng))
        f = fast.from_state(s)
        while s.phase == "play":
            want = legal_codes(s)
            got = fast.legal(f)
            assert [fast.engine_code(f, c) for c in got] == want
            k = rng.randrange(len(want))
            s = apply_code(s, want[k])
            fast.play(f, got[k])
            assert f.to_state(s) == s
        assert s.round_no == _round + 1
        assert s.phase == ("over" if game_length == "each_deals_once" and _round == 1 else "deal")


def test_a_drawn_dealer_is_the_engines() -> None:
    """``dealer=None``: the first chance step draws the dealer before the shuffle, in the fast core as in the
    engine (``chance_outcome``)."""
    rules = Rules(game_length="single_round")
    for seed in range(6):
        got = fast.random_round(rules, random.Random(seed), players=3, dealer=None)
        rng = random.Random(seed)
        s = new_game(rules, players=3)
        s = apply(s, chance_outcome(s, rng))
        while s.phase == "play":
            s = apply_code(s, rng.choice(legal_codes(s)))
        assert got.piles == s.piles
        assert got.breakdown == s.round_log[-1]


def test_rounds_make_no_reference_cycles_and_leave_the_collector_as_it_was() -> None:
    """``random_round`` pauses the cyclic collector for a round, which is sound only if a round leaves no garbage
    that reference counting cannot free: after rounds of every profile and seating (the caches filling), a
    collection finds nothing.  The collector is on again afterwards (off if it was off), also when the generator
    raises in the middle of a round."""

    class Failing(random.Random):
        def choice(self, seq: Any) -> Any:
            raise RuntimeError("generator failed")

    gc.collect()
    assert gc.isenabled()
    for profile in PROFILES:
        rules = Rules.from_dict({"profile": profile, "game_length": "single_round"})
        for players, teams in SEATINGS:
            for seed in range(5):
                fast.random_round(rules, random.Random(seed), players=players, teams=teams, dealer=seed % players)
                assert gc.isenabled()
    assert gc.collect() == 0
    with pytest.raises(RuntimeError, match="generator failed"):
        fast.random_round(Rules(game_length="single_round"), Failing(1))
    assert gc.isenabled()
    gc.disable()
    try:
        fast.random_round(Rules(game_length="single_round"), random.Random(2))
        assert not gc.isenabled()
    finally:
        gc.enable()


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.integers(0, 51), max_size=14))
def test_table_facts_locate_each_value(cards: list[int]) -> None:
    """The table facts' ``start`` cuts the sorted loose table into its values: ``table[start[v]:start[v + 1]]``
    holds exactly the cards of table value v (rank index // 4 + 1), and the count per value agrees."""
    table = sorted(cards)
    facts = fast._table_facts(table)
    cnt, start = facts[2], facts[6]
    assert start[0] == start[1] == 0 and start[17] == len(table)
    for v in range(1, 17):
        assert table[start[v] : start[v + 1]] == [c for c in table if c // 4 + 1 == v]
        assert cnt[v] == start[v + 1] - start[v]


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=16), pick=st.integers(0, 15), new=st.integers(0, 51))
def test_sorted_list_edits_are_the_list_methods(cards: list[int], pick: int, new: int) -> None:
    """The compiled build's edits of the sorted hands and loose table (``_take``, ``_drop``, ``_put``, ``_has``;
    run by either build here) do what ``list.index`` with ``del``, ``bisect.insort`` and ``in`` do."""
    a = sorted(cards)
    x = a[pick % len(a)]
    want = list(a)
    i = want.index(x)
    del want[i]
    got = list(a)
    assert fast._take(got, x) == i
    assert got == want
    for y in range(52):
        assert fast._has(a, y) == (y in a)
    put = list(a)
    fast._put(put, new)
    assert put == sorted([*a, new])
    dropped = list(a)
    fast._drop(dropped, pick % len(a))
    assert dropped == a[: pick % len(a)] + a[pick % len(a) + 1 :]


def test_shared_codes_are_the_codes_they_stand_for() -> None:
    """The precomputed fast codes (a build on one loose card without pairs, the capture of one loose card without
    builds) are the tuples :func:`fast.legal` would otherwise build: value ``t(x) + t(y)`` (table values, A 1)."""
    for x in range(52):
        for y in range(52):
            assert fast._BUILD1[52 * x + y] == (1, x, (y,), x // 4 + 1 + y // 4 + 1, ())
            assert fast._CAPTURE1[52 * x + y] == (0, x, (y,), ())


def test_table_cache_keys_are_one_per_table_of_values() -> None:
    """The table facts' cache key (``vkey ^ vkey >> 20 ^ vkey >> 40``) never joins two tables of different values:
    every multiset of up to 5 loose values (with up to 3 of each) has its own key."""
    from itertools import combinations_with_replacement

    keys: dict[int, int] = {}
    for n in range(6):
        for values in combinations_with_replacement(range(13), n):
            if any(values.count(v) > 3 for v in values):
                continue
            vkey = sum(1 << (4 * v) for v in values)
            key = vkey ^ (vkey >> 20) ^ (vkey >> 40)
            assert keys.setdefault(key, vkey) == vkey


@pytest.mark.parametrize(
    "options",
    [{}, {"scoring": "surplus"}, {"spade_points": "additive"}, {"scoring": "surplus", "spade_points": "additive"}],
)
def test_score_is_score_pile(options: dict[str, Any]) -> None:
    """The compiled build scores a round's piles with fast._score: the same dict as scoring.score_pile, key for
    key and in the same key order, over thousands of random piles (any cards, twins, mulles and tabbar)."""
    rules = Rules(**options)
    r = fast._rules_of(rules)
    rng = random.Random(4242)
    for _ in range(3000):
        cards = [rng.randrange(52) for _ in range(rng.randrange(0, 70))]
        mulles = [(rng.randrange(52), rng.randrange(1, 17)) for _ in range(rng.randrange(0, 5))]
        tabbar = rng.randrange(5)
        want = score_pile(cards, mulles, tabbar, rules)
        got = fast._score(cards, mulles, tabbar, r)
        assert got == want
        assert list(got) == list(want)
