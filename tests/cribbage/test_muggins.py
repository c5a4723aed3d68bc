"""Muggins through the engine: every ``mug-*`` case of ``cribbage_cases.json`` and the decisions of spec §2a.

Rules: spec §2.10 M1-M15 (the Swedish seed ``001_*.txt`` restated) and §2a.  A hand with the case's true count is
found with the scoring module (the rule for a hand's value lives there); every expected number comes from the case
or the rules text.
"""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Accept, Announce, MugginsCall, Overcount, Play, parse_move
from kortbord.cribbage.muggins import responders, settle
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import show_total
from kortbord.cribbage.state import OVER, SHOW, State
from kortbord.cribbage.view import view
from kortbord.errors import IllegalMoveError, InvalidMoveError, NotYourTurnError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_helpers import case, cases, filler, seat

MUGGINS = cases("muggins")
COUNT_CASES = [c for c in MUGGINS if "counter" in c["input"]]
STARTER = Card.parse("2D")


def hand_worth(total: int, used: set[Card], *, crib: bool = False) -> tuple[Card, ...]:
    """The first 4 unused cards (card order) worth ``total`` with :data:`STARTER`."""
    pool = [c for c in map(Card, range(52)) if c not in used and c != STARTER]
    for hand in combinations(pool, 4):
        if show_total(hand, STARTER, crib) == total:
            return hand
    raise AssertionError(f"no hand worth {total}")


def show_position(
    players: int,
    counter: int,
    true_count: int,
    *,
    crib: bool = False,
    scores: list[int] | None = None,
    target: int = 121,
) -> State:
    """A Muggins show with dealer P0 where ``counter``'s hand (or the crib) is worth ``true_count``."""
    used: set[Card] = {STARTER}
    counted = hand_worth(true_count, used, crib=crib)
    used |= set(counted)
    hands: list[tuple[Card, ...]] = []
    for s in range(players):
        if s == counter and not crib:
            hands.append(counted)
        else:
            hand = tuple(filler(used, 4))
            used |= set(hand)
            hands.append(hand)
    crib_cards = counted if crib else tuple(filler(used, 4))
    return engine.position(
        Rules(players=players, muggins=True, target=target),
        phase="show",
        dealer=0,
        hands=hands,
        crib=crib_cards,
        starter=STARTER,
        scores=scores,
        show="crib" if crib else counter,
    )


def response(r: dict[str, Any]) -> Any:
    return {"accept": Accept(), "overcount": Overcount()}.get(r["call"]) or MugginsCall(r["number"])


def test_the_cases_file_has_the_muggins_cases() -> None:
    assert len(MUGGINS) == 16


@pytest.mark.parametrize("c", COUNT_CASES, ids=[c["id"] for c in COUNT_CASES])
def test_muggins_count_case(c: dict[str, Any]) -> None:
    inp, exp = c["input"], c["expected"]
    players = inp["players"]
    counter = seat(inp["counter"])
    crib = "crib" in inp.get("what", "")
    before_named = inp.get("scores_before")
    before = [before_named.get(f"P{s}", 0) for s in range(players)] if before_named else None
    state = show_position(players, counter, inp["true_count"], crib=crib, scores=before, target=inp.get("target", 121))
    start = state.scores
    assert engine.to_act(state) == counter and state.phase == SHOW
    if crib:
        assert view(state, 1).crib is not None  # M10: the crib is face up while counted
    state, events = engine.step(state, Announce(inp["announced"]), seat=counter)
    decided = False
    start_index = state.show_index
    for r in inp["responses"]:
        who = seat(r["player"])
        if decided:  # M4: the first call decided; later responders never answer this count
            assert state.phase != SHOW or state.show_index != start_index
            continue
        assert engine.to_act(state) == who, f"{r['player']} should answer now (M3)"
        state, ev = engine.step(state, response(r), seat=who)
        events += ev
        decided = r["call"] != "accept"
    if "peg_movements" in exp:
        moves = {f"P{s}": state.scores[s] - start[s] for s in range(players)}
        assert moves == {f"P{s}": exp["peg_movements"].get(f"P{s}", 0) for s in range(players)}
        pegged = {
            f"P{s}": sum(e["points"] for e in events if e.kind == "peg" and e["seat"] == s) for s in range(players)
        }
        assert pegged == moves
        reveals = [e for e in events if e.kind == "reveal"]
        assert [e["points"] for e in reveals] == [inp["true_count"]]  # M9: the true count, once settled
    if "game_over" in exp:
        assert engine.is_over(state) is exp["game_over"]
        assert engine.result(state).winners == (seat(exp["winner"]),)
        assert {f"P{s}": state.scores[s] for s in range(players)} == exp["final_scores"]
    if exp.get("responses_allowed") is False:
        assert engine.to_act(state) is None and engine.legal_moves(state) == []


def test_mug_3p_first_call_decides_order_of_responders() -> None:
    """mug-3p-first-call-decides: left of P1 is P2, then P0 (M3, M13)."""
    c = case("mug-3p-first-call-decides")
    assert responders(Rules(players=3, muggins=True), seat(c["input"]["counter"])) == (2, 0)
    assert responders(Rules(players=3, muggins=True), 0) == (1, 2)  # mug-3p-dealer-counts note


def test_partnership_only_the_other_side_responds() -> None:
    """M14: the counter's partner is skipped; points won by a caller go to the caller's side."""
    rules = Rules(players=4, muggins=True)
    assert responders(rules, 1) == (2, 0)
    assert responders(rules, 0) == (1, 3)
    state = show_position(4, 1, 8)
    state = engine.apply(state, Announce(6))
    assert engine.to_act(state) == 2
    with pytest.raises(NotYourTurnError):
        engine.apply(state, Accept(), seat=3)  # P3 is P1's partner
    state = engine.apply(state, Accept())
    assert engine.to_act(state) == 0
    state = engine.apply(state, MugginsCall(5))  # 2 missed: P0 pegs min(2, 5) = 2 for side P0+P2
    assert state.scores == (2, 6, 0, 0)
    assert engine.side_scores(state) == (2, 6)


def test_mug_pegging_unaffected() -> None:
    """M11 / mug-pegging-unaffected: with Muggins on, a fifteen in the play is pegged 2 at once, automatically."""
    c = case("mug-pegging-unaffected")
    hands = [["TH", "8S", "2D", "7C"], ["5S", "KD", "9C", "4D"]]
    extra = filler([c for h in hands for c in h], 5)
    state = engine.position(
        Rules(**c["input"]["options"]), phase="play", dealer=0, hands=hands, crib=extra[:4], starter=extra[4]
    )
    state = engine.apply(state, Play(Card.parse("5S")))
    state, events = engine.step(state, Play(Card.parse("TH")))
    pegs = [e for e in events if e.kind == "peg"]
    assert [(p["seat"], p["points"]) for p in pegs] == [(0, c["expected"]["points_pegged_automatically"])]
    assert state.scores == (2, 0)
    assert not [e for e in events if e.kind in ("announce", "response", "settle")]


def test_mug_announce_range() -> None:
    """mug-announce-range: an announcement is 0..29; 30 is refused as malformed and nothing changes."""
    c = case("mug-announce-range")
    low, high = c["expected"]["allowed_range"]
    with pytest.raises(InvalidMoveError, match="0 to 29"):
        Announce(c["input"]["announced"])
    with pytest.raises(InvalidMoveError):
        parse_move("count 30")
    state = show_position(2, 1, 8)
    before = tuple(state)
    with pytest.raises(InvalidMoveError):
        engine.parse_move(state, "count 30")
    assert tuple(state) == before
    assert engine.legal_moves(state) == [Announce(n) for n in range(low, high + 1)]


def test_muggins_call_range_is_1_to_29() -> None:
    """Spec §2a: a muggins call names 1..29; 0 is malformed."""
    with pytest.raises(InvalidMoveError, match="1 to 29"):
        MugginsCall(0)
    with pytest.raises(InvalidMoveError):
        parse_move("muggins 0")
    with pytest.raises(InvalidMoveError):
        MugginsCall(30)
    state = engine.apply(show_position(2, 1, 8), Announce(8))
    assert engine.legal_moves(state) == [Accept(), *(MugginsCall(n) for n in range(1, 30)), Overcount()]


def test_out_of_turn_muggins_moves_are_refused() -> None:
    state = show_position(2, 1, 8)
    with pytest.raises(IllegalMoveError, match="first announces"):
        engine.apply(state, Accept())
    with pytest.raises(NotYourTurnError):
        engine.apply(state, Announce(8), seat=0)
    state = engine.apply(state, Announce(8))
    with pytest.raises(IllegalMoveError, match="announced 8 already"):
        engine.apply(state, Announce(9))


def test_mug_response_before_next_count() -> None:
    """mug-response-before-next-count: pone's hand, dealer's hand, then the crib, each settled (responses, then the
    true breakdown) before the next count starts; the crib face up only while it is counted (M1, M9, M10)."""
    c = case("mug-response-before-next-count")
    state = show_position(2, 1, 8)
    assert view(state, 1).crib is None and view(state, 0).crib is None  # not yet: only at the crib's count
    script = [(1, Announce(8)), (0, Accept()), (0, Announce(0)), (1, Accept()), (0, Announce(0)), (1, Accept())]
    kinds = []
    for step_no, (who, move) in enumerate(script):
        assert engine.to_act(state) == who
        if step_no == 4:
            assert state.crib_shown and view(state, 1).crib is not None and view(state, 1).counting_crib
        state, events = engine.step(state, move)
        kinds += [e.kind for e in events if e.kind in ("announce", "response", "reveal")]
    assert kinds == ["announce", "response", "reveal"] * 3
    assert len(c["input"]["sequence"]) == len(script)
    assert state.phase != SHOW  # the next deal


def test_true_count_not_visible_before_settlement() -> None:
    """M9: nothing public gives the true value before the count is settled."""
    state = show_position(2, 1, 12)
    state, events = engine.step(state, Announce(8))
    assert not [e for e in events if e.kind == "reveal"]
    assert "12" not in str(view(state, 0).to_json()["announced"])
    state, events = engine.step(state, Accept())
    assert [e["points"] for e in events if e.kind == "reveal"] == [12]


def test_settlement_rules_m5_to_m8() -> None:
    """The seed's examples: announced 8, true 12: a call of 6 earns 4, a call of 2 earns 2 (M5)."""
    assert (settle(8, 12, MugginsCall(6)).caller_points, settle(8, 12, MugginsCall(6)).counter_points) == (4, 0)
    assert settle(8, 12, MugginsCall(2)).caller_points == 2
    assert (settle(12, 12, MugginsCall(4)).counter_points, settle(12, 12, MugginsCall(4)).caller_points) == (4, 0)
    assert settle(14, 10, MugginsCall(3)).counter_points == 3  # M6 inference: an overcount mugged is a false call
    assert (settle(14, 10, Overcount()).counter_points, settle(14, 10, Overcount()).caller_points) == (-4, 4)
    assert (settle(8, 12, Overcount()).counter_points, settle(8, 12, Overcount()).caller_points) == (0, 0)  # M8
    assert not settle(8, 12, Accept()).decided


def test_too_high_count_reaching_target_is_corrected_and_play_goes_on() -> None:
    """M12: a too-high count reaching the target waits for responses; corrected below the target, no win."""
    state = show_position(2, 1, 5, scores=[100, 115])
    state = engine.apply(state, Announce(8))  # 123, but the hand is worth 5
    assert not engine.is_over(state) and engine.to_act(state) == 0
    state = engine.apply(state, Overcount())  # 3 moved to P0: P1 120, P0 103
    assert state.scores == (103, 120) and not engine.is_over(state)


def test_decision_caller_reaching_target_wins_at_once() -> None:
    """Spec §2a: a muggins award that takes the caller to the target wins at once."""
    state = show_position(2, 1, 12, scores=[117, 50])
    state = engine.apply(state, Announce(8))
    state = engine.apply(state, MugginsCall(4))
    assert engine.is_over(state) and state.scores == (121, 58)
    assert engine.result(state).winners == (0,)


def test_decision_counter_reaching_target_by_false_muggins_wins_at_once() -> None:
    """Spec §2a: a false-muggins award that takes the counter to the target wins at once."""
    state = show_position(2, 1, 8, scores=[50, 110])
    state = engine.apply(state, Announce(8))  # 118
    state = engine.apply(state, MugginsCall(3))  # false: the counter pegs 3 -> 121
    assert engine.is_over(state) and state.scores == (50, 121)
    assert engine.result(state).winners == (1,)


def test_muggins_with_lowball_plays_lowball_without_muggins() -> None:
    """M15 / §2.9 / §2a: Lowball wins, and the rules say so."""
    rules = Rules(muggins=True, lowball=True)
    assert rules.lowball and not rules.muggins
    assert any("Lowball" in n and "Muggins" in n for n in rules.notices)
    state, _ = _random_game(rules, 5)
    assert state.phase == OVER


def _random_game(rules: Rules, seed: int) -> tuple[State, list[Any]]:
    from engine_helpers import random_game

    def no_muggins(before: State, after: State, move: Any, events: Any) -> None:
        assert after.phase != SHOW

    return random_game(rules, seed, no_muggins)
