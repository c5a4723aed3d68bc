"""Every illegal move gets a specific reason code (``kortbord.contract.Reason``), and changes nothing.

Random positions of every phase (the cut for deal, the deal, the discard, the play, the Muggins show, the end)
for 2, 3 and 4 players: each legal move is mutated into illegal ones (a card not held, a card past 31, go while a
card fits, the wrong number of cards, a move of another phase, a Muggins move out of turn, the wrong seat), and
each must raise ``IllegalMoveError`` with the code of the rule it breaks -- the same reason
``engine.explain_illegal`` gives -- and leave the state exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import (
    Accept,
    Announce,
    CutForDeal,
    Discard,
    Go,
    Move,
    MugginsCall,
    Overcount,
    Play,
)
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import card_value
from kortbord.cribbage.state import CUT, DEAL, DISCARD, OVER, PLAY, SHOW, State
from kortbord.errors import IllegalMoveError, NotYourTurnError
from kortbord.i18n import LANGS, catalogue

ALL = tuple(Card(i) for i in range(52))
MUGGINS_MOVES: tuple[Move, ...] = (Announce(3), Accept(), MugginsCall(2), Overcount())


def positions(rules: Rules, seed: int) -> Iterator[State]:
    """Every state of one random game (chance steps included), ending with the game over."""
    rng = random.Random(seed)
    state = engine.new_game(rules)
    while True:
        yield state
        if engine.is_over(state):
            return
        move = engine.chance_outcome(state, rng) if engine.is_chance(state) else rng.choice(engine.legal_moves(state))
        state = engine.apply(state, move)


def mutations(state: State, rng: random.Random) -> Iterator[tuple[Move, set[str]]]:
    """Illegal moves made from the legal ones of ``state``, each with the codes that may explain it."""
    phase, n = state.phase, state.rules.players
    shuffle = engine.chance_outcome(engine.new_game(state.rules, dealer=0), rng)
    cut = CutForDeal(ALL[:n])
    if phase == OVER:
        for move in (Play(ALL[0]), Go(), shuffle, cut, Announce(1)):
            yield move, {"game_over"}
        return
    if phase in (CUT, DEAL):
        yield Play(rng.choice(ALL)), {"wrong_phase"}
        yield Go(), {"wrong_phase"}
        yield Discard((ALL[0], ALL[1])), {"wrong_phase"}
        yield rng.choice(MUGGINS_MOVES), {"muggins_outside_show"}
        if phase == CUT:
            yield shuffle, {"wrong_phase"}
            for k in range(2, 5):  # a CutForDeal holds 2 to 4 cards (malformed otherwise)
                if k != n:
                    yield CutForDeal(ALL[:k]), {"cut_count"}
        else:
            yield cut, {"wrong_phase"}
        return
    seat = state.turn
    hand = state._hands[seat] if phase != SHOW else ()
    others = [c for c in ALL if c not in hand]
    legal = engine.legal_moves(state)
    if phase == SHOW:  # M2: the counter announces first; M3: then only a response is a move (spec §2.10)
        foreign = (Play(rng.choice(ALL)), Go(), Discard((ALL[0],)), shuffle, cut)
        if state.announced < 0:
            for move in (*foreign, Accept(), MugginsCall(rng.randint(1, 29)), Overcount()):
                yield move, {"announce_first"}
        else:
            yield Announce(rng.randint(0, 29)), {"already_announced"}
            for move in foreign:
                yield move, {"not_a_response"}
        return
    yield shuffle, {"wrong_phase"}
    yield cut, {"wrong_phase"}
    if phase == DISCARD:
        need = state.rules.discards
        for move in legal:
            assert isinstance(move, Discard)
            cards = list(move.cards)
            cards[rng.randrange(len(cards))] = rng.choice(others)  # a card the seat does not hold
            yield Discard(tuple(cards)), {"not_in_hand"}
            wrong = (*move.cards, rng.choice([c for c in hand if c not in move.cards])) if need == 1 else move.cards[:1]
            yield Discard(wrong), {"discard_count"}
        yield Go(), {"wrong_phase"}
        if need == 2:
            yield Play(hand[0]), {"wrong_phase"}  # one card is no 2-player discard
        else:
            yield Play(rng.choice(others)), {"not_in_hand"}  # a bare card is a 1-card discard
        yield rng.choice(MUGGINS_MOVES), {"muggins_outside_show"}
    elif phase == PLAY:
        room = 31 - state.count
        for move in legal:
            if isinstance(move, Play):
                yield Play(rng.choice(others)), {"not_in_hand"}
                yield Go(), {"must_play"}  # go while this card fits
        for c in hand:
            if card_value(c) > room:
                yield Play(c), {"past_31"}
        yield Discard((hand[0],)), {"wrong_phase"}
        yield rng.choice(MUGGINS_MOVES), {"muggins_outside_show"}


RULES = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=2, muggins=True),
    Rules(players=3, muggins=True, target=61),
    Rules(players=4, muggins=True),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p{'-muggins' if r.muggins else ''}")
def test_every_mutated_move_gets_a_specific_reason_and_changes_nothing(rules: Rules) -> None:
    rng = random.Random(rules.players * 7 + rules.muggins)
    codes_seen: set[str] = set()
    phases_seen: set[int] = set()
    for seed in range(2):
        for state in positions(rules, seed):
            if rng.random() > 0.35 and state.phase not in (CUT, DEAL, OVER, SHOW):
                continue  # a sample of the positions keeps the test quick
            phases_seen.add(state.phase)
            before = tuple(state)
            for move, expected in mutations(state, rng):
                with pytest.raises(IllegalMoveError) as info:
                    engine.apply(state, move)
                reason = info.value.reason
                assert reason is not None, f"{move} in {state.phase_name}: an error without a reason"
                assert reason.code in expected, f"{move} in {state.phase_name}: {reason} (wanted {expected})"
                assert engine.explain_illegal(state, move) == reason
                with pytest.raises(IllegalMoveError):
                    engine.step(state, move)
                assert tuple(state) == before, "an illegal move changed the state"
                codes_seen.add(reason.code)
            # the right move from the wrong seat
            turn = engine.to_act(state)
            legal = engine.legal_moves(state)
            for seat in range(rules.players):
                if seat == turn:
                    continue
                move = legal[0] if legal else Go()
                with pytest.raises(NotYourTurnError) as info:
                    engine.apply(state, move, seat=seat)
                want = (
                    "not_your_turn" if turn is not None else "seat_at_end" if state.phase == OVER else "seat_at_chance"
                )
                assert info.value.reason is not None and info.value.reason.code == want
                assert engine.explain_illegal(state, move, seat=seat) == info.value.reason
            with pytest.raises(NotYourTurnError) as info:
                engine.apply(state, Go(), seat=rules.players)
            assert info.value.reason is not None and info.value.reason.code == "no_such_seat"
            assert tuple(state) == before
    want_phases = {CUT, DEAL, DISCARD, PLAY, OVER} | ({SHOW} if rules.muggins else set())
    assert phases_seen == want_phases
    assert {"wrong_phase", "not_in_hand", "discard_count", "must_play", "game_over", "cut_count"} <= codes_seen
    if rules.muggins:
        assert {"announce_first", "already_announced", "not_a_response"} <= codes_seen


def test_a_legal_move_has_nothing_to_explain() -> None:
    state = engine.new_game(Rules(), dealer=0)
    state = engine.apply(state, engine.chance_outcome(state, random.Random(1)))
    with pytest.raises(ValueError, match="legal"):
        engine.explain_illegal(state, engine.legal_moves(state)[0])


def test_every_reason_code_has_english_and_swedish_templates() -> None:
    """Each code the mutation test and the engine raise has a template per language (the catalogue's check)."""
    codes = {
        "not_your_turn", "no_such_seat", "seat_at_chance", "seat_at_end", "game_over", "not_chance", "not_over",
        "nothing_to_undo", "not_in_hand", "past_31", "must_play", "sequence_past_31", "discard_count", "cut_count",
        "wrong_phase", "muggins_outside_show", "announce_first", "already_announced", "not_a_response",
    }  # fmt: skip
    entries = catalogue("cribbage")
    for code in codes:
        for lang in LANGS:
            assert entries[f"reason.{code}"][lang], (code, lang)


def test_reasons_are_json_ready() -> None:
    state = engine.new_game(Rules(players=3), dealer=2)
    state = engine.apply(state, engine.chance_outcome(state, random.Random(4)))
    reason = engine.explain_illegal(state, Discard((Card.parse("AS"), Card.parse("2S"))))
    assert reason.code == "discard_count"
    assert reason.to_json() == {"code": "discard_count", "players": 3, "need": 1, "got": 2}
    assert str(reason) == "with 3 players each player lays away 1 card to the crib (spec §2.2), got 2"
