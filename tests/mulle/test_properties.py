"""Invariants over random games (Hypothesis and seeded playouts): cards accounted for, 40 card points a round,
legal moves apply, replay, notation round trip, no hidden card in a view."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mulle_helpers import all_cards, random_game

from kortbord.cards import full_deck
from kortbord.mulle import (
    Game,
    Rules,
    apply,
    chance_outcome,
    is_chance,
    legal_moves,
    new_game,
    parse_move,
    parse_move_text,
    step,
    view,
)
from kortbord.mulle.state import State

FULL = Counter(full_deck(2))
FORMATS = [(8, 8), (5, 5), (4, 8)]
SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
PROFILES = ["standard", "cardgames.zone", "kryp"]


def _checker(rules: Rules) -> Any:
    total = 44 if rules.spade_points == "additive" else 40

    def check(state: State, move: Any, new: State, events: Any) -> None:
        if new.phase == "play" or (new.phase == "deal" and new.round_no):
            assert all_cards(new) == FULL or new.phase == "deal"
        if new.phase == "play":
            assert all_cards(new) == FULL
            seat = new.to_move
            assert seat is not None and new._hands[seat], "the seat to play holds cards"
            assert legal_moves(new), "a player holding cards always has a legal move"
        for e in events:
            if e.kind == "round_over":
                assert sum(b["card_points"] for b in e.data["breakdown"]) == total
                assert sum(b["cards"] for b in e.data["breakdown"]) == 104 or new.last_capturer is None
            if e.kind == "deal":
                assert set(e.data) == {"deal_no", "deals_total", "cards", "table", "last"}

    return check


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(("hand", "table"), FORMATS)
@pytest.mark.parametrize(("players", "teams"), SEATINGS)
def test_random_rounds_every_format(profile: str, hand: int, table: int, players: int, teams: bool) -> None:
    rules = Rules.from_dict({"profile": profile, "hand_size": hand, "table_size": table, "game_length": "single_round"})
    for seed in range(2):
        state = random_game(rules, players, teams, seed, _checker(rules))
        assert state.phase == "over"
        assert len(state.round_log) >= 1
        # 104 cards, every deal of the plan, båt on the last deal
        assert all_cards(state) == FULL


@pytest.mark.parametrize(
    "overrides",
    [
        {"spade_points": "additive", "maximal": "maximum"},
        {"maximal": "free", "capture_duty": "none", "pure_mulle": False},
        {"capture_duty": "card", "table_packaging": "forced", "mulle_value": "by_capture"},
        {"max_found_cards": "unlimited", "builds_in_sums": True, "one_build_per_value": False},
        {"special_capture_builds_only": True, "scoring_build_from_hand": True, "ownership": "co"},
        {"raise_own": False, "build_down_only_on_others": True, "ligger_any": False, "no_tabbe_in_last_deal": True},
        {"capture_all_builds": False, "reserve_rule": False, "mulle_pair_scope": "rank_only", "scoring": "surplus"},
        {"team_build_duty": "team", "no_consecutive_raise": True, "deal_packet": 3, "locking": False},
    ],
)
def test_random_rounds_option_mixes(overrides: dict[str, Any]) -> None:
    rules = Rules.from_dict({**overrides, "game_length": "single_round"})
    for players, teams in ((2, False), (4, True)):
        random_game(rules, players, teams, 11, _checker(rules))


def test_game_to_target_ends_with_a_winner_over_target() -> None:
    state = random_game(Rules(), 2, False, 5)
    assert state.phase == "over"
    assert state.winners is not None and len(state.winners) == 1
    w = state.winners[0]
    assert state.scores[w] >= 100 and state.scores[w] == max(state.scores)


def test_kryp_lowest_wins() -> None:
    state = random_game(Rules.from_dict({"profile": "kryp"}), 3, False, 2)
    assert state.winners is not None and len(state.winners) == 1
    assert state.scores[state.winners[0]] == min(state.scores) and max(state.scores) >= 100


def test_each_deals_once_plays_one_round_per_player() -> None:
    state = random_game(Rules(game_length="each_deals_once", tie_rule="draw"), 3, False, 4)
    assert len(state.round_log) == 3


def _mid_round_states(seed: int, players: int = 2, teams: bool = False, n: int = 40) -> list[State]:
    rng = random.Random(seed)
    s = new_game(Rules(game_length="single_round"), players=players, teams=teams)
    out = []
    while s.phase != "over" and len(out) < n:
        m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
        s = apply(s, m)
        if s.phase == "play":
            out.append(s)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), k=st.integers(0, 39))
def test_every_legal_move_applies_and_round_trips(seed: int, k: int) -> None:
    states = _mid_round_states(seed)
    state = states[min(k, len(states) - 1)]
    before = dataclasses.replace(state)
    for m in legal_moves(state):
        assert parse_move_text(str(m)) == m
        assert parse_move(state, str(m)) == m
        apply(state, m)
    assert state == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(0, 30), players=st.sampled_from([2, 3, 4]))
def test_views_never_reveal_hidden_cards(seed: int, k: int, players: int) -> None:
    states = _mid_round_states(seed, players, players == 4)
    state = states[min(k, len(states) - 1)]
    rng = random.Random(seed)
    for seat in range(players):
        # Re-deal every other hand and the stock at random (same sizes): the view must not change.
        hidden = [c for s in range(players) if s != seat for c in state._hands[s]] + list(state._stock)
        rng.shuffle(hidden)
        hands = list(state._hands)
        pos = 0
        for s in range(players):
            if s != seat:
                hands[s] = tuple(sorted(hidden[pos : pos + len(hands[s])]))
                pos += len(hands[s])
        other = dataclasses.replace(state, _hands=tuple(hands), _stock=tuple(hidden[pos:]), _cache={})
        assert view(state, seat).to_json() == view(other, seat).to_json()
        v = view(state, seat)
        assert v.hand == state._hands[seat]
        assert v.hand_sizes == tuple(len(h) for h in state._hands)
        assert v.stock_size == len(state._stock)
        assert (len(v.legal_moves) > 0) == (state.to_move == seat)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_replaying_a_record_gives_the_same_game(seed: int, players: int) -> None:
    game = Game(Rules(game_length="single_round"), players=players, teams=players == 4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    record = game.to_record()
    again = Game.from_record(record)
    assert again.state == game.state
    assert again.to_record() == record
    assert [str(e) for e in again.events] == [str(e) for e in game.events]


def test_undo_restores_state_and_chance() -> None:
    game = Game(Rules(game_length="single_round"), seed=9)
    rng = random.Random(1)
    snapshots = []
    for _ in range(20):
        snapshots.append(game.state)
        game.play(rng.choice(game.legal_moves()))
    for snap in reversed(snapshots):
        game.undo()
        assert game.state == snap


def test_events_carry_no_hidden_cards() -> None:
    rng = random.Random(3)
    s = new_game(Rules(game_length="single_round"))
    while s.phase != "over":
        m = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
        new, events = step(s, m)
        for e in events:
            if e.kind == "deal":
                assert e.data["table"] == [str(c) for c in new.table] or e.data["deal_no"] > 1
                assert e.data["table"] == [] or e.data["deal_no"] == 1
            assert "deck" not in e.data and "hand" not in e.data
        s = new


@settings(max_examples=300, deadline=None)
@given(
    picks=st.lists(st.integers(0, 103), unique=True, max_size=104),
    additive=st.booleans(),
    as_cards=st.booleans(),
)
def test_pile_score_counts_every_card_once(picks: list[int], additive: bool, as_cards: bool) -> None:
    """``score_pile`` counts each card of a pile under its item (spec §2.11): spades 1 (A♠ 2 and 2♠ 2, additive
    3 and 3), 10♦ 2, other aces 1 -- checked card by card against the rules text's values, for piles of plain
    indices and of Card values."""
    from kortbord.cards import Card
    from kortbord.mulle.scoring import score_pile

    deck = full_deck(2)
    cards: list[Any] = [deck[i] if as_cards else int(deck[i]) for i in picks]
    rules = Rules(spade_points="additive" if additive else "total")
    want = {"spades": 0, "ace_of_spades": 0, "lillan": 0, "storan": 0, "other_aces": 0}
    for c in cards:
        name = str(Card(int(c)))
        if name == "AS":
            want["ace_of_spades"] += 3 if additive else 2
        elif name == "2S":
            want["lillan"] += 3 if additive else 2
        elif name == "TD":
            want["storan"] += 2
        elif name[0] == "A":
            want["other_aces"] += 1
        elif name[1] == "S":
            want["spades"] += 1
    got = score_pile(cards, [], 0, rules)
    assert {k: got[k] for k in want} == want
    assert got["card_points"] == got["total"] == sum(want.values())
    assert got["cards"] == len(cards)
