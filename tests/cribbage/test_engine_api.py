"""The Cribbage engine API (docs/engine-api.md): rules options, move notation, bad input, positions, views."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kortbord.cards import Card, format_cards
from kortbord.cribbage import Game, engine
from kortbord.cribbage.moves import (
    Accept,
    Announce,
    CutForDeal,
    Discard,
    Go,
    MugginsCall,
    Overcount,
    Play,
    Shuffle,
    parse_move,
)
from kortbord.cribbage.rules import PROFILES, RULES_VERSION, Rules
from kortbord.cribbage.state import DISCARD, PLAY
from kortbord.cribbage.view import view
from kortbord.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    NotYourTurnError,
    SeatError,
)

cards = st.integers(min_value=0, max_value=51).map(Card)


# -- rules ----------------------------------------------------------------------------------------------------------
def test_rules_defaults_and_round_trip() -> None:
    rules = Rules()
    assert (rules.players, rules.target, rules.partnership, rules.muggins, rules.lowball) == (
        2,
        121,
        False,
        False,
        False,
    )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert json.loads(json.dumps(rules.to_dict())) == rules.to_dict()
    assert Rules(players=4).partnership and Rules(players=4).sides == 2
    assert Rules.from_dict({"profile": "partnership", "target": 61}) == Rules(players=4, target=61)
    assert set(PROFILES) >= {"standard", "muggins", "lowball"}
    assert RULES_VERSION


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"target": 100}, "target"),
        ({"players": 3, "partnership": True}, "partnership"),
        ({"players": 4, "partnership": False}, "partnerships"),
        ({"muggins": "yes"}, "muggins"),
        ({"skunk_games": 0}, "skunk_games"),
        ({"colour": "red"}, "unknown"),
        ({"profile": "nope"}, "profile"),
    ],
)
def test_bad_rules_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_dict(options)


def test_muggins_with_lowball_notice_survives_the_round_trip() -> None:
    rules = Rules.from_dict({"muggins": True, "lowball": True})
    assert not rules.muggins and rules.lowball and rules.notices
    assert Rules.from_dict(rules.to_dict()) == rules


# -- notation -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("9H", Play(Card.parse("9H"))),
        ("play 10h", Play(Card.parse("TH"))),
        ("go", Go()),
        ("discard 5H 5D", Discard((Card.parse("5D"), Card.parse("5H")))),
        ("d 5h,5d", Discard((Card.parse("5D"), Card.parse("5H")))),
        ("5H 5D", Discard((Card.parse("5H"), Card.parse("5D")))),
        ("count 12", Announce(12)),
        ("count 0", Announce(0)),
        ("accept", Accept()),
        ("muggins 3", MugginsCall(3)),
        ("overcount", Overcount()),
        ("cut AS KD", CutForDeal((Card.parse("AS"), Card.parse("KD")))),
    ],
)
def test_notation(text: str, move: object) -> None:
    assert parse_move(text) == move
    assert parse_move(str(move)) == move


@pytest.mark.parametrize(
    "text", ["", "9X", "count", "count x", "count 30", "muggins 0", "muggins 30", "go now", "5H 5H", "1H 2H 3H"]
)
def test_malformed_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(text)


@given(st.lists(cards, min_size=1, max_size=2, unique=True))
def test_discard_notation_round_trips(cs: list[Card]) -> None:
    move = Discard(tuple(cs))
    assert parse_move(str(move)) == move
    assert str(move) == "discard " + " ".join(str(c) for c in sorted(cs))


@given(cards)
def test_play_notation_round_trips(card: Card) -> None:
    assert parse_move(str(Play(card))) == Play(card) == Play.of(card)


@given(st.integers(0, 29))
def test_count_notation_round_trips(n: int) -> None:
    assert parse_move(str(Announce(n))) == Announce(n)
    if n:
        assert parse_move(str(MugginsCall(n))) == MugginsCall(n)


def test_shuffle_must_be_a_permutation() -> None:
    with pytest.raises(InvalidMoveError):
        Shuffle(tuple(map(Card, range(51))))
    with pytest.raises(InvalidMoveError):
        Shuffle((Card(0), *map(Card, range(51))))


# -- bad input at the table --------------------------------------------------------------------------------------------
def discard_state() -> engine.State:
    hands = [["5H", "5D", "JS", "QS", "KS", "AC"], ["2C", "3C", "4C", "6H", "7H", "8H"]]
    return engine.position(Rules(), phase="discard", dealer=0, hands=hands)


def test_discards_that_are_not_legal() -> None:
    state = discard_state()
    before = tuple(state)
    assert engine.to_act(state) == 1
    assert len(engine.legal_moves(state)) == 15  # C(6, 2)
    with pytest.raises(IllegalMoveError, match="does not hold 5H"):
        engine.apply(state, Discard((Card.parse("5H"), Card.parse("2C"))))
    with pytest.raises(IllegalMoveError, match="lays away 2 cards"):
        engine.apply(state, Discard((Card.parse("2C"),)))
    with pytest.raises(InvalidMoveError, match="same card twice"):
        engine.parse_move(state, "discard 2C 2C")
    with pytest.raises(NotYourTurnError):
        engine.apply(state, Discard((Card.parse("5H"), Card.parse("5D"))), seat=0)
    with pytest.raises(IllegalMoveError, match="not a move in the discard phase"):
        engine.apply(state, Go())
    assert tuple(state) == before


def test_discard_is_private_and_turn_passes_to_the_dealer() -> None:
    state, events = engine.step(discard_state(), engine.parse_move(discard_state(), "discard 2C 3C"))
    assert state.phase == DISCARD and engine.to_act(state) == 0
    assert [e.to_json() for e in events] == [{"kind": "discard", "seat": 1, "count": 2}]  # which cards: hidden
    assert view(state, 1).discards == (Card.parse("2C"), Card.parse("3C"))
    assert view(state, 0).discards == () and view(state, 0).crib is None and view(state, 0).crib_size == 2


def test_chance_steps_are_refused_at_decisions_and_vice_versa() -> None:
    state = engine.new_game(Rules())
    with pytest.raises(IllegalMoveError, match="cut for deal"):
        engine.apply(state, Go())
    with pytest.raises(NotYourTurnError, match="chance"):
        engine.apply(state, Go(), seat=0)
    with pytest.raises(IllegalMoveError, match="no chance step"):
        engine.chance_outcome(discard_state(), random.Random(1))


def test_position_rejects_inconsistent_input() -> None:
    with pytest.raises(InvalidPositionError, match="twice"):
        engine.position(Rules(), phase="play", hands=[["5H"] * 4, ["2C"] * 4], crib=["AS"] * 4, starter="KD")
    with pytest.raises(InvalidPositionError, match="4 cards"):
        engine.position(Rules(), phase="play", hands=[["5H"], ["2C"]], crib=[], starter="KD")
    with pytest.raises(InvalidPositionError, match="target"):
        engine.position(Rules(), phase="discard", hands=discard_state()._hands, scores=[121, 0])
    with pytest.raises(InvalidPositionError, match="Muggins"):
        engine.position(
            Rules(), phase="show", hands=[["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
            crib=["AD", "2D", "3D", "4D"], starter="KC",
        )  # fmt: skip


def test_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(SeatError):
        view(discard_state(), 2)


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    state = discard_state()
    mine, theirs = view(state, 1), view(state, 0)
    assert mine.hand == state._hands[1] and theirs.hand == state._hands[0]
    assert mine.hand_sizes == (6, 6) and mine.stock_size == 40
    assert mine.legal_moves and not theirs.legal_moves
    assert not set(map(str, state._hands[0])) & set(json.dumps(mine.to_json()).replace('"', " ").split())


def test_state_is_an_immutable_value() -> None:
    state = discard_state()
    assert pickle.loads(pickle.dumps(state)) == state
    assert hash(state) == hash(engine.position(Rules(), phase="discard", dealer=0, hands=state._hands))
    with pytest.raises(AttributeError):
        state.phase = PLAY  # type: ignore[misc]


def test_game_rejects_bad_records_and_moves() -> None:
    game = Game(Rules(), seed=4)
    before = game.state
    with pytest.raises(InvalidMoveError):
        game.play("discard XX")
    with pytest.raises(IllegalMoveError):
        game.play("go")
    assert game.state is before and game.moves == []
    record = game.to_record()
    with pytest.raises(InvalidPositionError, match="not a cribbage"):
        Game.from_record({**record, "game": "mulle"})
    with pytest.raises(InvalidPositionError, match="rules version"):
        Game.from_record({**record, "rules_version": "cribbage-0"})
    with pytest.raises(InvalidPositionError, match="move 1"):
        Game.from_record({**record, "moves": ["go"]})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_face_up_crib_does_not_tell_who_laid_away_which_card(players: int) -> None:
    # DEVELOPERS.md: no player learns hidden information the rules do not reveal. Turning the crib up (Muggins,
    # spec §2.10 M10) shows its cards, not which opponent laid away which card: the view and the events list
    # them in card order, whatever order they were laid away in.
    rng = random.Random(players)
    state = engine.new_game(Rules(players=players, muggins=True, target=121))
    seen_crib = 0
    while not engine.is_over(state) and seen_crib < 3:
        if engine.is_chance(state):
            state = engine.apply(state, engine.chance_outcome(state, rng))
            continue
        state, events = engine.step(state, rng.choice(engine.legal_moves(state)))
        v = view(state, 0)
        if v.crib is not None:
            assert list(v.crib) == sorted(v.crib)
            seen_crib += 1
        for e in events:
            cards = [Card.parse(c) for c in e.get("cards", ())] if e.kind in ("show", "reveal", "announce") else []
            if len(cards) == 4 and set(cards) == set(v.crib or ()):
                assert cards == sorted(cards)
    assert seen_crib > 0


@pytest.mark.parametrize("muggins", [False, True])
def test_crib_events_are_marked_as_the_crib(muggins: bool) -> None:
    # Spec §2.6 / §2.10 M10: the crib is counted last, for the dealer. Clients must not guess it from the text.
    rng = random.Random(5)
    state = engine.new_game(Rules(players=2, muggins=muggins, target=121))
    deals = 0
    while not engine.is_over(state) and deals < 4:
        if engine.is_chance(state):
            state = engine.apply(state, engine.chance_outcome(state, rng))
            continue
        dealer = state.dealer
        state, events = engine.step(state, rng.choice(engine.legal_moves(state)))
        counted = [e for e in events if e.kind in ("show", "reveal")]
        for e in counted:
            assert type(e["crib"]) is bool and e.to_json()["crib"] is e["crib"]
        if counted and counted[-1]["crib"]:
            deals += 1
            assert counted[-1]["seat"] == dealer
            assert all(not e["crib"] for e in counted[:-1])
    assert deals > 0


def test_repr_of_a_state_names_no_hidden_card() -> None:
    # DEVELOPERS.md: a state that ends up in a log or an error must not tell a hidden card.
    rng = random.Random(11)
    state = engine.new_game(Rules(players=3))
    while engine.is_chance(state):
        state = engine.apply(state, engine.chance_outcome(state, rng))
    text = repr(state)
    hidden = {c for h in state._hands for c in h} | set(state._stock) | set(state._crib)
    assert hidden and not any(str(c) in text.replace(f"cuts=[{format_cards(state.cuts)}]", "") for c in hidden)


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_seat_must_be_a_plain_int(seat: object) -> None:
    rng = random.Random(2)
    state = engine.new_game(Rules(players=2), dealer=0)
    while engine.is_chance(state):
        state = engine.apply(state, engine.chance_outcome(state, rng))
    assert engine.to_act(state) == 1
    move = engine.legal_moves(state)[0]
    with pytest.raises(NotYourTurnError):
        engine.apply(state, move, seat=seat)  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError):
        engine.step(state, move, seat=seat)  # type: ignore[arg-type]
