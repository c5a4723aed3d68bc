"""Bad input through the engine contract gets a clear kortbord error and changes nothing (found by trying to break
it): wrong seats, options that are not options, notation that is not text, a profile for another table size."""

from __future__ import annotations

import random

import pytest

from kortbord.core import GAMES, get
from kortbord.errors import InvalidMoveError, InvalidRulesError, SeatError


def _in_play(game: str) -> object:
    spec = get(game)
    state = spec.new_game(spec.make_rules({}), players=2)
    rng = random.Random(3)
    while spec.is_chance(state):
        state = spec.apply(state, spec.chance_outcome(state, rng))
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seat", [-1, 2, 99, True, None, "0", 1.0])
def test_a_seat_that_is_not_one_is_a_seat_error(game: str, seat: object) -> None:
    spec, state = get(game), _in_play(game)
    before = [spec.view(state, s).to_json() for s in range(2)]
    with pytest.raises(SeatError):
        spec.side_of(state, seat)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        spec.resample(state, seat, random.Random(1))  # type: ignore[arg-type]
    if seat is not None:  # view(state, None) is the spectator's view
        with pytest.raises(SeatError):
            spec.view(state, seat)  # type: ignore[arg-type]
    assert [spec.view(state, s).to_json() for s in range(2)] == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seat_names_are_for_seats(game: str) -> None:
    spec = get(game)
    assert [spec.seat_name(s) for s in range(4)] == ["P0", "P1", "P2", "P3"]
    for bad in (-1, 4, True):
        with pytest.raises(SeatError):
            spec.seat_name(bad)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("options", ["standard", [("profile", "standard")], {1: 1}, 7])
def test_options_must_be_an_object_with_named_options(game: str, options: object) -> None:
    with pytest.raises(InvalidRulesError):
        get(game).make_rules(options)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("text", [None, 5, b"go", ["go"]])
def test_notation_must_be_text(game: str, text: object) -> None:
    spec, state = get(game), _in_play(game)
    with pytest.raises(InvalidMoveError):
        spec.parse_move(state, text)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        spec.explain_illegal(state, text)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_legal_move_has_nothing_to_explain(game: str) -> None:
    spec, state = get(game), _in_play(game)
    with pytest.raises(ValueError, match="legal here"):
        spec.explain_illegal(state, spec.legal_moves(state)[0])


def test_a_cribbage_profile_for_another_table_size_is_refused() -> None:
    """The three-hand profile is for 3 players and the partnership profile for 4 (spec §2.2): at a table of
    another size it is refused, not silently played with the table's count."""
    crib = get("cribbage")
    with pytest.raises(InvalidRulesError, match="three-hand profile is for 3 players"):
        crib.make_rules({"profile": "three-hand"}, players=2)
    with pytest.raises(InvalidRulesError, match="partnership profile is for 4 players"):
        crib.make_rules({"profile": "partnership"}, players=3)
    assert crib.make_rules({"profile": "three-hand"}, players=3).players == 3


def test_one_spelling_per_mulle_target_and_bounded_skunk_games() -> None:
    with pytest.raises(InvalidRulesError):
        get("mulle").make_rules({"game_length": "target:0100"})
    assert get("mulle").make_rules({"game_length": "target:100"}).game_length == "target:100"
    for key in ("skunk_games", "double_skunk_games"):
        with pytest.raises(InvalidRulesError):
            get("cribbage").make_rules({key: 10**300})
