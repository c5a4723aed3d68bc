"""Mulle's registry entry ``kortbord.mulle.SPEC`` (the ``kortbord.contract.GameSpec`` protocol): random games
through the spec only, the spectator's view, the one sampler of unseen cards, records and replay, and the option
schema (declared once in ``mulle/rules.OPTIONS``: ``Rules`` validation accepts exactly its domains).

Rules behind the checks: players and teams §2.2, the reserve rule §2.6 (A28), game end §2.12, options §3/§4.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.cards import Card, full_deck
from kortbord.contract import GameSpec, Option
from kortbord.errors import IllegalMoveError, InvalidPositionError, InvalidRulesError, SeatError
from kortbord.mulle import SPEC, Game, Rules, load_position, view
from kortbord.mulle.state import HV, State

FULL = Counter(full_deck(2))
SEATINGS = [(2, False), (3, False), (4, False), (4, True)]
PRIVATE = ("seat", "hand", "legal_moves")


def _rules(profile: str, **extra: Any) -> Rules:
    return SPEC.make_rules({"profile": profile, "game_length": "single_round", **extra})


def _play(
    rules: Rules, players: int, teams: bool, seed: int, plies: int | None = None
) -> tuple[list[tuple[State, int | None, Any, tuple[Any, ...]]], list[Any]]:
    """A random game through SPEC only: chance steps drawn from ``Random(seed)`` (as a record's replay draws
    them), decisions from another generator.  Returns every step ``(state after, seat or None, move, events)``
    (the first entry is the new game) and the decisions."""
    chance = random.Random(seed)
    choose = random.Random(seed + 1)
    state = SPEC.new_game(rules, players=players, teams=teams)
    steps: list[tuple[State, int | None, Any, tuple[Any, ...]]] = [(state, None, None, ())]
    decisions: list[Any] = []
    while not SPEC.is_over(state) and (plies is None or len(decisions) < plies):
        if SPEC.is_chance(state):
            assert SPEC.to_act(state) is None and SPEC.legal_moves(state) == []
            move = SPEC.chance_outcome(state, chance)
            seat = None
        else:
            seat = SPEC.to_act(state)
            assert seat is not None
            moves = SPEC.legal_moves(state)
            assert moves, "the seat to act always has a legal move"
            move = choose.choice(moves)
            assert SPEC.parse_move(state, str(move)) == move
            decisions.append(move)
        after = SPEC.apply(state, move)
        state, events = SPEC.step(state, move)
        assert after == state
        steps.append((state, seat, move, events))
    return steps, decisions


def _mid_game_states(seed: int, players: int, teams: bool, profile: str = "standard") -> list[State]:
    steps, _ = _play(_rules(profile), players, teams, seed, plies=60)
    return [s for s, *_ in steps if s.phase == "play"]


# -- the protocol ----------------------------------------------------------------------------------------------
def test_spec_implements_the_game_spec_protocol() -> None:
    assert isinstance(SPEC, GameSpec)
    assert SPEC.name == "mulle" and SPEC.rules_version == "mulle-1.0"
    assert SPEC.profiles() == ("standard", "cardgames.zone", "kryp")
    assert pickle.loads(pickle.dumps(SPEC)) is SPEC
    assert [SPEC.seat_name(s) for s in range(4)] == ["P0", "P1", "P2", "P3"]


@pytest.mark.parametrize("profile", ["standard", "cardgames.zone", "kryp"])
@pytest.mark.parametrize(("players", "teams"), SEATINGS)
def test_random_games_through_the_spec_only(profile: str, players: int, teams: bool) -> None:
    rules = _rules(profile)
    for seed in range(2):
        steps, _ = _play(rules, players, teams, seed=seed * 100 + players)
        state = steps[-1][0]
        assert SPEC.is_over(state) and SPEC.to_act(state) is None and SPEC.legal_moves(state) == []
        assert SPEC.players(state) == players
        assert SPEC.sides(state) == (2 if teams else players)
        assert [SPEC.side_of(state, s) for s in range(players)] == [s % 2 if teams else s for s in range(players)]
        result = SPEC.result(state).to_json()
        assert set(result) == {"winners", "scores", "rounds", "lowest_wins", "draw"}
        assert result["lowest_wins"] == (profile == "kryp") and len(result["rounds"]) == 1
        assert result["draw"] == (result["winners"] == [])
        assert all(0 <= w < SPEC.sides(state) for w in result["winners"])
        best = (min if profile == "kryp" else max)(result["scores"])
        assert all(result["scores"][w] == best for w in result["winners"])


def test_make_rules_checks_the_table_as_the_server_does() -> None:
    assert SPEC.make_rules() == Rules()
    assert SPEC.make_rules({"profile": "kryp"}, players=3).kryp
    for options, players, teams in (
        ({}, 5, False),
        ({}, 3, True),
        ({"hand_size": 30}, 4, False),  # 4 hands of 30 and a table of 8 need more than 104 cards
        ({"no_such_rule": True}, 2, False),
        ({"profile": "poker"}, 2, False),
    ):
        with pytest.raises(InvalidRulesError):
            SPEC.make_rules(options, players=players, teams=teams)
    rules = SPEC.make_rules({"profile": "cardgames.zone", "target": 200})
    assert SPEC.make_rules(SPEC.rules_to_dict(rules)) == rules


def test_move_json_gives_the_notation_kind_and_cards() -> None:
    state = _mid_game_states(3, 2, False)[5]
    for move in SPEC.legal_moves(state):
        out = SPEC.move_json(move)
        assert out["notation"] == str(move) and out["kind"] == type(move).__name__.lower()
        assert out["card"] == str(move.card)
        for f in dataclasses.fields(move):
            assert f.name in out


def test_result_before_the_end_and_views_of_no_seat_are_refused() -> None:
    state = _mid_game_states(1, 2, False)[0]
    with pytest.raises(IllegalMoveError):
        SPEC.result(state)
    for seat in (2, -1, True):
        with pytest.raises(SeatError):
            SPEC.view(state, seat)
    with pytest.raises(ValueError, match="one seat's View"):
        SPEC.sample(SPEC.view(state, None), random.Random(0))  # type: ignore[arg-type]


# -- the spectator's view -------------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), k=st.integers(0, 59), seating=st.sampled_from(SEATINGS))
def test_the_spectator_sees_only_what_every_seat_sees(seed: int, k: int, seating: tuple[int, bool]) -> None:
    players, teams = seating
    states = _mid_game_states(seed, players, teams)
    state = states[min(k, len(states) - 1)]
    public = SPEC.view(state, None).to_json()
    assert public["seat"] is None and public["hand"] == [] and public["legal_moves"] == []
    for seat in range(players):
        own = SPEC.view(state, seat).to_json()
        assert set(own) == set(public)
        # everything but the seat's own hand and moves is the same for every seat and for the spectator
        assert {k: v for k, v in own.items() if k not in PRIVATE} == {
            k: v for k, v in public.items() if k not in PRIVATE
        }
        # no hidden card reaches the spectator: redealing what the seat cannot see leaves the public view alone
        other = SPEC.resample(state, seat, random.Random(seed))
        assert SPEC.view(other, None).to_json() == public


def test_the_spectator_view_at_a_chance_node_and_at_the_end() -> None:
    steps, _ = _play(_rules("standard"), 3, False, seed=4)
    for state in (steps[0][0], steps[-1][0]):
        public = SPEC.view(state, None).to_json()
        assert public["hand"] == [] and public["to_move"] is None and public["hand_sizes"] == [0, 0, 0]


# -- the sampler -----------------------------------------------------------------------------------------------
def _hidden_ok(world: State, v: Any) -> None:
    """``world`` is a full state that ``v``'s seat cannot tell from the one ``v`` was made of."""
    assert view(world, v.seat).to_json() == v.to_json()
    assert view(world, v.seat) == v
    if world.phase == "play" and not world.partial:
        everything: Counter[Card] = Counter(world.table) + Counter(world._stock)
        for h in world._hands:
            everything.update(h)
        for b in world.builds:
            everything.update(b.cards)
        for p in world.piles:
            everything.update(p.cards)
        assert everything == FULL  # every card accounted for: 104, each twice
        assert sum(everything.values()) == 104
        if world.rules.reserve_rule:  # a build's owner holds a card of its value (spec §2.6)
            for b in world.builds:
                assert any(HV[c] == b.value for c in world._hands[b.owner])
        moves = SPEC.legal_moves(world)
        assert moves and set(moves) == set(SPEC.legal_moves(world))
        SPEC.apply(world, moves[0])  # the sampled world plays on


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    k=st.integers(0, 59),
    seating=st.sampled_from(SEATINGS),
    profile=st.sampled_from(["standard", "cardgames.zone", "kryp"]),
)
def test_sample_and_resample_keep_the_seats_view_and_every_card(
    seed: int, k: int, seating: tuple[int, bool], profile: str
) -> None:
    players, teams = seating
    states = _mid_game_states(seed, players, teams, profile)
    state = states[min(k, len(states) - 1)]
    rng = random.Random(seed)
    for seat in range(players):
        v = SPEC.view(state, seat)
        _hidden_ok(SPEC.sample(v, rng), v)
        _hidden_ok(SPEC.resample(state, seat, rng), v)
        assert SPEC.sample(v, random.Random(1)) == SPEC.sample(v, random.Random(1))  # only rng decides


def test_resampling_changes_the_hidden_cards() -> None:
    state = _mid_game_states(7, 2, False)[0]
    worlds = {SPEC.resample(state, 0, random.Random(i))._hands[1] for i in range(20)}
    assert len(worlds) > 1


def test_sample_outside_play_and_of_a_partial_position() -> None:
    steps, _ = _play(_rules("standard"), 2, False, seed=2)
    for state in (steps[0][0], steps[-1][0]):  # before the first deal, after the end: nothing hidden
        _hidden_ok(SPEC.resample(state, 1, random.Random(0)), SPEC.view(state, 1))
    partial = load_position({"table": ["9H", "4C"], "hands": {"P1": ["9H", "5S"]}, "to_move": "P1"})
    assert partial.partial
    for seat in range(2):
        world = SPEC.resample(partial, seat, random.Random(3))
        _hidden_ok(world, SPEC.view(partial, seat))
        assert world.partial


def test_a_view_that_shows_a_card_three_times_cannot_be_sampled() -> None:
    state = _mid_game_states(5, 2, False)[0]
    v = SPEC.view(state, 0)
    bad = dataclasses.replace(v, table=v.table + (Card.parse("9H"),) * 3)
    with pytest.raises(ValueError):
        SPEC.sample(bad, random.Random(0))


# -- records and replay ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "teams"), SEATINGS)
def test_replay_of_a_record_is_the_same_game(players: int, teams: bool) -> None:
    rules = _rules("standard")
    steps, decisions = _play(rules, players, teams, seed=players * 31)
    record = SPEC.record(rules, players=players, teams=teams, seed=players * 31, moves=decisions)
    assert record["seats"] == [f"P{s}" for s in range(players)] and record["game"] == "mulle"
    again = list(SPEC.replay(record))
    assert len(again) == len(steps) - 1
    for (state, seat, move, events), (state2, seat2, move2, events2) in zip(steps[1:], again, strict=True):
        assert state2 == state and seat2 == seat and move2 == move
        assert [e.to_json() for e in events2] == [e.to_json() for e in events]
    # a Game's record replays to the Game's state, and the spec's record is the Game's record
    game = Game(rules, players=players, teams=teams, seed=5, seats=[f"P{s}" for s in range(players)])
    rng = random.Random(5)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    assert list(SPEC.replay(game.to_record()))[-1][0] == game.state
    assert SPEC.record(rules, players=players, teams=teams, seed=5, moves=game.moves) == game.to_record()


def test_bad_records_are_refused() -> None:
    rules = _rules("standard")
    good = SPEC.record(rules, players=2, teams=False, seed=1, moves=[])
    for bad in (
        {**good, "game": "cribbage"},
        {**good, "rules_version": "mulle-0.1"},
        {**good, "seed": "1"},
        {**good, "players": 5},
        {**good, "moves": ["T 9H 9H"]},
        {**good, "moves": [7]},
    ):
        with pytest.raises(InvalidPositionError):
            list(SPEC.replay(bad))
    with pytest.raises(InvalidPositionError):
        SPEC.record(rules, players=2, teams=False, seed=1, moves=[], seats=["only one"])


# -- the option schema -----------------------------------------------------------------------------------------
def test_the_schema_declares_every_rules_field_once_with_its_default() -> None:
    schema = SPEC.option_schema()
    assert all(isinstance(o, Option) for o in schema)
    assert [o.key for o in schema] == [f.name for f in dataclasses.fields(Rules)]
    std = Rules()
    for o in schema:
        assert o.default == getattr(std, o.key) and type(o.default) is type(getattr(std, o.key))
        assert o.section.startswith("mulle.md §"), o.key
        assert o.type in ("bool", "int", "choice", "choice_or_int")
        assert (o.minimum is not None) == (o.type in ("int", "choice_or_int"))
        assert o.to_json()["key"] == o.key
        Rules.from_dict({o.key: o.default})


def _accepts(key: str, value: Any) -> bool:
    try:
        Rules.from_dict({key: value})
    except InvalidRulesError:
        return False
    return True


def _in_domain(o: Option, value: Any) -> bool:
    """What the schema says of ``value`` (types compared exactly: ``0`` is not ``False``)."""
    if any(type(value) is type(c) and value == c for c in o.choices):
        return True
    if o.type == "bool":
        return type(value) is bool
    if o.type in ("int", "choice_or_int"):
        assert o.minimum is not None and o.maximum is not None
        if o.prefix:
            if not isinstance(value, str) or not value.startswith(o.prefix):
                return False
            digits = value[len(o.prefix) :]
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 5) or digits != str(int(digits)):
                return False  # the number in its one decimal spelling (no leading zero)
            value = int(digits)
        return type(value) is int and o.minimum <= value <= o.maximum
    return False


#: Spellings ``Rules.from_dict`` also takes (its docstring, spec §3/§4): not values of the schema's domain.
ALIASES = [("locking", "on"), ("locking", "off"), ("table_packaging", True), ("table_packaging", False)]


def _alias(key: str, value: Any) -> bool:
    return any(k == key and type(v) is type(value) and v == value for k, v in ALIASES)


def _candidates(o: Option) -> list[Any]:
    out: list[Any] = [True, False, 0, 1, -1, None, "", "nonsense", [], {}, 2.0, *o.choices]
    if o.minimum is not None and o.maximum is not None:
        for n in (o.minimum - 1, o.minimum, o.minimum + 1, o.maximum - 1, o.maximum, o.maximum + 1, 10**6):
            out.append(f"{o.prefix}{n}" if o.prefix else n)
            out.append(n)
        if o.prefix:
            out += [f"{o.prefix}", f"{o.prefix}x", f"{o.prefix}-5", f"{o.prefix}007", f"{o.prefix}١"]
    return out


@pytest.mark.parametrize("option", SPEC.option_schema(), ids=lambda o: o.key)
def test_rules_accept_exactly_the_schemas_domain(option: Option) -> None:
    for value in _candidates(option):
        if _alias(option.key, value):
            continue
        assert _accepts(option.key, value) == _in_domain(option, value), (option.key, value)


@settings(max_examples=200, deadline=None)
@given(
    option=st.sampled_from([o for o in SPEC.option_schema() if o.minimum is not None]),
    n=st.integers(-(10**5), 10**5),
)
def test_int_domains_match_the_schema(option: Option, n: int) -> None:
    value: Any = f"{option.prefix}{n}" if option.prefix else n
    assert _accepts(option.key, value) == _in_domain(option, value)
