"""Cribbage's registry entry ``kortbord.cribbage.SPEC`` against the engine contract (``kortbord.contract.GameSpec``):
random games through the generic interface only, the spectator's view, the sampler of unseen cards, records and
replay, and the one declaration of the rule options (rules spec ``cribbage.md`` §2, §2a).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.cards import Card
from kortbord.contract import GameSpec, Option, Reason
from kortbord.cribbage import RULES_VERSION, SPEC, Game, Rules, engine
from kortbord.cribbage.moves import Go, Play
from kortbord.cribbage.rules import OPTIONS, in_domain
from kortbord.cribbage.scoring import card_value
from kortbord.cribbage.state import State
from kortbord.cribbage.view import PublicView, View, go_rooms, view
from kortbord.errors import IllegalMoveError, InvalidRulesError, SeatError

CONFIGS = [
    {"players": 2},
    {"players": 2, "target": 61},
    {"players": 3},
    {"players": 4},
    {"players": 2, "muggins": True},
    {"players": 3, "muggins": True, "target": 61},
    {"players": 4, "muggins": True},
    {"players": 2, "lowball": True},
    {"players": 3, "lowball": True, "target": 61},
]
#: The keys of a seat's view that are its own (empty in the spectator's view).
OWN_KEYS = ("seat", "hand", "discards", "legal_moves")


def _ids(options: dict[str, Any]) -> str:
    return "-".join(f"{k}{v}" for k, v in options.items())


def _cards_of(state: State) -> list[Card]:
    """Every card of ``state``, wherever it is (hands, crib, played, starter, stock)."""
    cards = [c for h in state._hands for c in h] + list(state._crib) + list(state.played) + list(state._stock)
    if state.starter is not None:
        cards.append(state.starter)
    return cards


def _random_states(options: dict[str, Any], seed: int, limit: int = 10_000) -> list[State]:
    """The states of one random game played through SPEC only (at most ``limit`` steps)."""
    rules = SPEC.make_rules(options, players=options["players"])
    rng = random.Random(seed)
    state = SPEC.new_game(rules)
    out = [state]
    while not SPEC.is_over(state) and len(out) < limit:
        if SPEC.is_chance(state):
            assert SPEC.to_act(state) is None and SPEC.legal_moves(state) == []
            move = SPEC.chance_outcome(state, rng)
        else:
            moves = SPEC.legal_moves(state)
            assert moves and SPEC.to_act(state) is not None
            move = moves[rng.randrange(len(moves))]
        state, events = SPEC.step(state, move)
        assert all(isinstance(e.to_json(), dict) for e in events)
        out.append(state)
    return out


def _check_sample(state: State, seat: int | None, rng: random.Random) -> State:
    v = SPEC.view(state, seat)
    sampled = SPEC.sample(v, rng)
    assert sorted(_cards_of(sampled)) == [Card(i) for i in range(52)]  # each card in exactly one place
    assert SPEC.view(sampled, seat).to_json() == v.to_json()
    if seat is not None:
        again = SPEC.resample(state, seat, rng)
        assert sorted(_cards_of(again)) == [Card(i) for i in range(52)]
        assert SPEC.view(again, seat) == v
    # the state is one the engine plays on
    if SPEC.to_act(sampled) is not None:
        SPEC.apply(sampled, SPEC.legal_moves(sampled)[0])
    return sampled


# ---------------------------------------------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------------------------------------------


def test_spec_satisfies_the_protocol() -> None:
    assert isinstance(SPEC, GameSpec)
    assert SPEC.name == "cribbage" and SPEC.rules_version == RULES_VERSION
    assert pickle.loads(pickle.dumps(SPEC)) is SPEC and copy.deepcopy(SPEC) is SPEC
    assert SPEC.seat_name(3) == "P3"
    assert SPEC.profiles()[0] == "standard"


@pytest.mark.parametrize("options", CONFIGS, ids=_ids)
def test_random_games_through_the_spec(options: dict[str, Any]) -> None:
    for seed in range(2):
        states = _random_states({**options, "target": 61}, seed)
        end = states[-1]
        assert SPEC.is_over(end)
        rules = end.rules
        n = SPEC.players(end)
        assert n == options["players"]
        sides = SPEC.sides(end)
        assert sides == (2 if n == 4 else n)
        assert [SPEC.side_of(end, s) for s in range(n)] == ([0, 1, 0, 1] if n == 4 else list(range(n)))
        res = SPEC.result(end).to_json()
        assert res["winners"] and all(0 <= w < sides for w in res["winners"])
        assert len(res["scores"]) == sides
        assert res["winner_seats"] == [s for s in range(n) if SPEC.side_of(end, s) in res["winners"]]
        if not rules.lowball:
            assert max(res["scores"]) >= 61 and res["scores"][res["winners"][0]] >= 61
        with pytest.raises(IllegalMoveError):
            SPEC.result(states[0])


def test_make_rules_checks_the_table() -> None:
    assert SPEC.make_rules(None) == Rules()
    assert SPEC.make_rules({"profile": "muggins"}, players=3) == Rules(players=3, muggins=True)
    assert SPEC.make_rules({}, players=4).partnership  # four players are always partners (spec §2.2)
    assert SPEC.make_rules({}, players=4, teams=True).partnership
    with pytest.raises(InvalidRulesError, match="table"):
        SPEC.make_rules({"players": 3}, players=2)
    with pytest.raises(InvalidRulesError, match="partnership"):
        SPEC.make_rules({}, players=2, teams=True)
    rules = SPEC.make_rules({"target": 61, "muggins": True, "lowball": True}, players=3)
    assert rules.notices and not rules.muggins  # spec §2.9: Lowball is played without Muggins
    assert SPEC.make_rules(SPEC.rules_to_dict(rules)) == rules
    for name in SPEC.profiles():
        assert SPEC.make_rules({"profile": name}) == Rules.profile(name)


def test_new_game_with_a_dealer_and_players() -> None:
    state = SPEC.new_game(None, players=3, dealer=2)
    assert SPEC.players(state) == 3 and state.dealer == 2 and state.phase_name == "deal"
    assert SPEC.new_game(Rules(players=4), teams=True).rules.partnership
    with pytest.raises(InvalidRulesError):
        SPEC.new_game(Rules(), teams=True)


def test_parse_move_explain_illegal_and_move_json() -> None:
    state = engine.position(
        Rules(), phase="play", dealer=0, hands=["7H 2C TS 4H", "8D KC QC JC"], crib="AS AD 6C 6D", starter="3H"
    )
    assert SPEC.parse_move(state, "kc") == Play(Card.parse("KC"))
    reason = SPEC.explain_illegal(state, Play(Card.parse("7H")))  # P1 is to act and does not hold it
    assert isinstance(reason, Reason) and reason.code
    with pytest.raises(ValueError, match="legal"):
        SPEC.explain_illegal(state, Play(Card.parse("KC")))
    assert SPEC.move_json(Play(Card.parse("KC"))) == {"notation": "KC", "kind": "play", "card": "KC"}
    assert SPEC.move_json(Go()) == {"notation": "go", "kind": "go"}
    discard = SPEC.parse_move(engine.position(Rules(), phase="discard", hands=["5H 5D 5C JS KD 9C",
                                                                                "AS 2S 3S 4S 6S 7S"]), "2s 3s")  # fmt: skip
    assert SPEC.move_json(discard) == {"notation": "discard 2S 3S", "kind": "discard", "cards": ["2S", "3S"]}


# ---------------------------------------------------------------------------------------------------------------
# Views: the spectator's and the seats'
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS, ids=_ids)
def test_the_spectators_view_shows_nothing_a_seat_view_hides(options: dict[str, Any]) -> None:
    for state in _random_states({**options, "target": 61}, seed=5):
        public = SPEC.view(state, None)
        assert isinstance(public, PublicView) and not isinstance(public, View)
        pj = public.to_json()
        assert pj["seat"] is None and pj["hand"] == [] and pj["discards"] == [] and pj["legal_moves"] == []
        assert not public.my_turn
        for seat in range(SPEC.players(state)):
            sj = SPEC.view(state, seat).to_json()
            assert set(sj) == set(pj)
            assert {k: v for k, v in sj.items() if k not in OWN_KEYS} == {
                k: v for k, v in pj.items() if k not in OWN_KEYS
            }


def test_view_of_a_seat_that_does_not_exist() -> None:
    state = SPEC.new_game(Rules())
    for seat in (2, -1, "0", 0.0):
        with pytest.raises(SeatError):
            SPEC.view(state, seat)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------------
# The sampler of unseen cards
# ---------------------------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), cut=st.floats(0.0, 1.0))
def test_sample_leaves_the_view_unchanged_and_accounts_for_every_card(
    config: dict[str, Any], seed: int, cut: float
) -> None:
    states = _random_states({**config, "target": 61}, seed, limit=400)
    state = states[int(cut * (len(states) - 1))]
    rng = random.Random(seed)
    for seat in (None, *range(SPEC.players(state))):
        _check_sample(state, seat, rng)


def test_samples_honour_every_go() -> None:
    """Spec §2.4 step 2: a player who says go holds no card that fits; the sampler never deals one to him, in the
    current count or after it (the gos of earlier counts bind the cards still held)."""
    # P1 leads K, P0 10 (20), P1 Q -> 30: P0 holds 7H 4H 2C, none fits under 1 -> go; P1 too
    state = engine.position(
        Rules(), phase="play", dealer=0, hands=["7H 2C TS 4H", "KC QC 9D 9S"], crib="AS AD 6C 6D", starter="3H"
    )
    for text in ("KC", "TS", "QC"):
        state = engine.apply(state, engine.parse_move(state, text))
    assert engine.legal_moves(state) == [Go()]
    state = engine.apply(state, Go())  # P0 says go at 30
    rng = random.Random(0)
    v1 = view(state, 1)
    assert go_rooms(v1) == (1, -1)
    for _ in range(200):
        sampled = _check_sample(state, 1, rng)
        assert all(card_value(c) > 1 for c in sampled._hands[0])  # no ace: it would have fitted
    # later counts: the room of the go stays a fact about the cards still held
    while state.phase_name == "play" and engine.to_act(state) != 0:
        state = engine.apply(state, engine.legal_moves(state)[0])
    if state.phase_name == "play":
        assert go_rooms(view(state, 1))[0] >= 1
        for _ in range(50):
            assert all(card_value(c) > 1 for c in _check_sample(state, 1, rng)._hands[0])


def test_sample_mid_pegging_after_a_go_in_random_games() -> None:
    """Every play position of random games after a go: the samples keep the view and every go's room."""
    checked = 0
    for seed in range(30):
        for state in _random_states({"players": 2 + seed % 3, "target": 61}, seed):
            if state.phase_name != "play":
                continue
            for seat in range(SPEC.players(state)):
                rooms = go_rooms(view(state, seat))
                if not any(r >= 0 and state._hands[s] for s, r in enumerate(rooms) if s != seat):
                    continue
                truth = [r >= 0 and all(card_value(c) > r for c in state._hands[s]) for s, r in enumerate(rooms)]
                assert all(t for t, r in zip(truth, rooms, strict=True) if r >= 0)  # the rooms are facts
                sampled = _check_sample(state, seat, random.Random(seed))
                for s, r in enumerate(rooms):
                    if s != seat and r >= 0:
                        assert all(card_value(c) > r for c in sampled._hands[s])
                checked += 1
    assert checked > 50


def test_sample_during_a_muggins_show() -> None:
    checked = 0
    for seed in range(6):
        for state in _random_states({"players": 2 + seed % 3, "muggins": True, "target": 61}, seed):
            if state.phase_name != "show":
                continue
            for seat in (None, *range(SPEC.players(state))):
                sampled = _check_sample(state, seat, random.Random(seed))
                assert sampled._kept == state._kept  # every kept hand was laid in the play: known
                if state.crib_shown:
                    assert sampled._crib == state._crib
                checked += 1
    assert checked > 20


def test_sample_between_deals_is_the_state() -> None:
    state = SPEC.new_game(Rules(players=3))
    for seat in (None, 0, 1, 2):
        assert SPEC.sample(SPEC.view(state, seat), random.Random(1)) == state


# ---------------------------------------------------------------------------------------------------------------
# Records and replay
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", CONFIGS[:7], ids=_ids)
def test_replay_of_a_record_is_the_game(options: dict[str, Any]) -> None:
    rules = Rules(**{**options, "target": 61})
    game = Game(rules, seed=7)
    rng = random.Random(3)
    while not game.is_over():
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    record = SPEC.record(rules, players=rules.players, teams=bool(rules.partnership), seed=7, moves=game.moves)
    assert record == game.to_record()
    steps = list(SPEC.replay(record))
    assert steps[-1][0] == game.state
    assert [e.to_json() for _, _, _, events in steps for e in events] == [e.to_json() for e in game.events]
    decisions = [(seat, move) for _, seat, move, _ in steps if seat is not None]
    assert [m for _, m in decisions] == game.moves
    with_dealer = SPEC.record(rules, players=rules.players, teams=False, seed=7, moves=[], dealer=1)
    first = next(iter(SPEC.replay(with_dealer)))
    assert first[0].dealer == 1 and first[1] is None


# ---------------------------------------------------------------------------------------------------------------
# The rule options, declared once
# ---------------------------------------------------------------------------------------------------------------


# Other options a value needs to be valid (the combination rules of Rules: partnership with 4 players, §2.2;
#: the skunk lines below the target and the double below the single, §2.7).
def _context(key: str, value: Any) -> dict[str, Any]:
    if not in_domain(next(o for o in OPTIONS if o.key == key), value):
        return {}
    if key == "partnership":
        return {"players": 4} if value else {}
    if key == "skunk_line" and isinstance(value, int):
        return {"double_skunk_line": value - 1}
    if key == "double_skunk_line" and isinstance(value, int):
        return {"skunk_line": value + 1}
    return {}


def test_option_schema_covers_every_rules_field_with_its_default() -> None:
    schema = SPEC.option_schema()
    assert schema is OPTIONS and all(isinstance(o, Option) for o in schema)
    fields = {f.name: f for f in dataclasses.fields(Rules) if f.name != "notices"}
    assert [o.key for o in schema] == list(fields)
    std = Rules()
    for o in schema:
        assert o.default == fields[o.key].default, o.key
        assert o.section.startswith("cribbage.md §"), o.key
        if o.default is not None:  # None: derived (partnership from the players, the lines from the target)
            assert getattr(std, o.key) == o.default
        assert in_domain(o, o.default)
    assert set(Rules().to_dict()) == {o.key for o in schema}


def _values_in(o: Option) -> list[Any]:
    values: list[Any] = list(o.choices)
    if o.type == "bool":
        values = [False, True]
    if o.type in ("int", "choice_or_int"):
        assert o.minimum is not None
        values += [o.minimum, o.minimum + 1]
        if o.maximum is not None:
            values += [o.maximum - 1, o.maximum]
    return values


def _values_out(o: Option) -> list[Any]:
    values: list[Any] = ["yes", 1.5, [], {}]
    if o.type != "bool":
        values += [True, False]
    if o.type == "bool":
        values += [0, 1, None]
    if o.type == "choice":
        values += [c + 1 for c in o.choices if type(c) is int] + [float(c) for c in o.choices if type(c) is int]
    if o.type in ("int", "choice_or_int"):
        assert o.minimum is not None
        values += [o.minimum - 1, float(o.minimum)]
        if o.maximum is not None:
            values.append(o.maximum + 1)
    return [v for v in values if not in_domain(o, v)]


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.key)
def test_domains_are_accepted_and_refused_as_the_schema_says(option: Option) -> None:
    for value in _values_in(option):
        assert in_domain(option, value)
        rules = Rules.from_dict({**_context(option.key, value), option.key: value})
        if value is not None:
            assert getattr(rules, option.key) == value
    for value in _values_out(option):
        with pytest.raises(InvalidRulesError, match=option.key):
            Rules.from_dict({**_context(option.key, value), option.key: value})
