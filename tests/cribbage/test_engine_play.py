"""The play (pegging) through the engine: every whole-play and legality ``pegging`` case of
``cribbage_cases.json`` (spec §2.4, §4), plus the rules of §2.4 the cases do not cover."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Go, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import PLAY, State
from kortbord.errors import IllegalMoveError, NotYourTurnError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_helpers import cases, filler, seat

WHOLE_PLAY = cases("pegging", lambda c: "events" in c["input"])
LEGALITY = cases("pegging", lambda c: "attempt" in c["input"])


def play_position(players: int, hands: dict[str, list[str]], *, scores: list[int] | None = None) -> State:
    """A play-phase state with ``hands`` (by seat name), dealer P0, a crib and starter of unused non-jacks."""
    kept = [hands[f"P{i}"] for i in range(players)]
    used = [c for h in kept for c in h]
    extra = filler(used, 5)
    return engine.position(
        Rules(players=players), phase="play", dealer=0, hands=kept, crib=extra[:4], starter=extra[4], scores=scores
    )


#: The cases' names (``why``) of the peg reason codes of the play (spec §2.4 steps 3-4); a run is "run of L".
SPEC_WHY = {"fifteen": "fifteen", "thirty_one": "thirty-one", "pair": "pair", "pair_royal": "pair royal",
            "double_pair_royal": "double pair royal", "go": "go", "last_card": "last card"}  # fmt: skip


def awards_of(events: tuple[Any, ...], index: int) -> list[dict[str, Any]]:
    """The awards of one step as the cases write them: the parts a card laid scores (one ``peg`` each) are one
    award with every reason; the go or last-card point is an award of its own."""
    awards: list[dict[str, Any]] = []
    card_award: dict[str, Any] | None = None
    for event in events:
        if event.kind == "show":
            break
        if event.kind != "peg":
            continue
        code, points = event["reason"], event["points"]
        why = f"run of {points}" if code == "run" else SPEC_WHY[code]
        if code in ("go", "last_card"):
            awards.append({"after_event": index, "player": f"P{event['seat']}", "points": points, "why": [why]})
        elif card_award is not None and card_award["player"] == f"P{event['seat']}":
            card_award["points"] += points
            card_award["why"] = sorted([*card_award["why"], why])
        else:
            card_award = {"after_event": index, "player": f"P{event['seat']}", "points": points, "why": [why]}
            awards.append(card_award)
    return awards


def test_the_cases_file_has_the_play_cases() -> None:
    assert len(WHOLE_PLAY) == 3
    assert len(LEGALITY) == 2


@pytest.mark.parametrize("c", WHOLE_PLAY, ids=[c["id"] for c in WHOLE_PLAY])
def test_whole_play_case(c: dict[str, Any]) -> None:
    """Drive the engine through the case's events; the pegs of the play must be the case's awards."""
    inp, exp = c["input"], c["expected"]
    n = inp["players"]
    state = play_position(n, inp["hands"])
    assert engine.to_act(state) == seat(inp["leader"])
    awards: list[dict[str, Any]] = []
    for index, (who, what) in enumerate(inp["events"]):
        assert state.phase == PLAY
        assert engine.to_act(state) == seat(who), f"event {index}: expected {who} to act"
        move = engine.parse_move(state, what)
        assert move == (Go() if what == "go" else Play(Card.parse(what)))
        state, events = engine.step(state, move, seat=seat(who))
        awards += awards_of(events, index)
    want = [{**a, "why": sorted(a["why"])} for a in exp["awards"]]
    assert awards == want
    assert state.phase != PLAY  # the play is over after the last event
    totals = {p: sum(a["points"] for a in awards if a["player"] == p) for p in exp["totals"]}
    assert totals == exp["totals"]
    if "team_totals" in exp:
        assert totals["P0"] + totals["P2"] == exp["team_totals"]["dealer_side_P0_P2"]
        assert totals["P1"] + totals["P3"] == exp["team_totals"]["pone_side_P1_P3"]


def state_at_count(count_before: int, hand: list[str]) -> State:
    """P1 to act at ``count_before`` holding exactly ``hand`` (2 cards), reached by a legal two-player play."""
    assert count_before == 25 and len(hand) == 2  # the legality cases' shape
    lead = ["TH", "8D"]  # P1 leads TH, P0 2C, P1 8D, P0 5S: 10, 12, 20, 25 -- none of it scores
    p0 = ["2C", "5S", *map(str, filler([*lead, *hand, "2C", "5S"], 2))]
    state = play_position(2, {"P1": [*lead, *hand], "P0": p0})
    for text in ("TH", "2C", "8D", "5S"):
        state = engine.apply(state, engine.parse_move(state, text))
    assert state.count == count_before and engine.to_act(state) == 1
    return state


@pytest.mark.parametrize("c", LEGALITY, ids=[c["id"] for c in LEGALITY])
def test_legality_case(c: dict[str, Any]) -> None:
    inp, exp = c["input"], c["expected"]
    state = state_at_count(inp["count_before"], inp["hand"])
    legal = engine.legal_moves(state)
    attempt = Go() if inp["attempt"] == "go" else Play(Card.parse(inp["attempt"]))
    assert (attempt in legal) is exp["legal"]
    if "legal_plays" in exp:
        assert sorted(str(m) for m in legal) == sorted(exp["legal_plays"])
    if exp["legal"]:
        engine.apply(state, attempt)
    else:
        with pytest.raises(IllegalMoveError, match="past 31"):
            engine.apply(state, attempt)


def test_saying_go_while_able_to_play_is_illegal_and_changes_nothing() -> None:
    state = state_at_count(25, ["KS", "6D"])
    before = tuple(state)
    with pytest.raises(IllegalMoveError, match="cannot say go holding 6D"):
        engine.apply(state, Go())
    with pytest.raises(IllegalMoveError, match="past 31"):
        engine.parse_move(state, "KS")
    assert tuple(state) == before


def test_a_card_not_held_and_the_wrong_seat_are_refused() -> None:
    state = play_position(2, {"P1": ["KS", "KD", "9C", "4D"], "P0": ["KH", "8S", "2D", "7C"]})
    with pytest.raises(IllegalMoveError, match="does not hold KH"):
        engine.apply(state, Play(Card.parse("KH")))
    with pytest.raises(NotYourTurnError, match="P1's turn, not P0's"):
        engine.apply(state, Play(Card.parse("KS")), seat=0)
    with pytest.raises(NotYourTurnError, match="no seat"):
        engine.apply(state, Play(Card.parse("KS")), seat=7)
    with pytest.raises(IllegalMoveError, match="not a move in the play phase"):
        engine.parse_move(state, "count 12")


def test_last_card_point_can_win_before_the_show() -> None:
    """Spec §2.6: the last-card point comes before the show and can win; no hand is counted after it."""
    # The play of case peg2-go-after-pair-royal: P0 pegs a pair (2) and the last card (1), P1 6 + 1.
    state = play_position(2, {"P1": ["KS", "KD", "9C", "4D"], "P0": ["KH", "8S", "2D", "7C"]}, scores=[118, 113])
    events = []
    for text in ("KS", "KH", "KD", "go", "go", "8S", "9C", "2D", "4D", "7C"):
        state, ev = engine.step(state, engine.parse_move(state, text))
        events += ev
    assert state.scores == (121, 120)
    assert engine.is_over(state) and engine.result(state).winners == (0,)
    assert not [e for e in events if e.kind == "show"]


def test_a_pegging_point_ends_the_game_at_once() -> None:
    """Spec §2.4 item 8: the moment a side reaches the target the game ends; the next seat never moves."""
    state = play_position(2, {"P1": ["5S", "KD", "9C", "4D"], "P0": ["TH", "8S", "2D", "7C"]}, scores=[119, 0])
    state = engine.apply(state, engine.parse_move(state, "5S"))
    state, events = engine.step(state, engine.parse_move(state, "TH"))  # fifteen for 2: 121
    assert engine.is_over(state) and engine.to_act(state) is None and engine.legal_moves(state) == []
    assert [e.kind for e in events][-1] == "game_over"
    assert engine.result(state).winners == (0,)
    with pytest.raises(IllegalMoveError, match="over"):
        engine.apply(state, Play(Card.parse("8S")))


def test_three_player_play_skips_passed_and_empty_seats_and_leads_left_of_last() -> None:
    """Spec §2.4 steps 2, 4-6 with three players (P0 deals, P1 leads); expected points worked out by hand."""
    hands = {"P1": ["KS", "QS", "AC", "2C"], "P2": ["KH", "QH", "9D", "3H"], "P0": ["KD", "AH", "5C", "6C"]}
    state = play_position(3, hands)

    def lay(*texts: str) -> None:
        nonlocal state
        for text in texts:
            state = engine.apply(state, engine.parse_move(state, text))

    lay("KS", "KH", "KD")  # 10, 20 (P2 pair 2), 30 (P0 pair royal 6)
    assert engine.to_act(state) == 1
    assert [str(m) for m in engine.legal_moves(state)] == ["AC"]  # must play the card that fits
    lay("AC")  # 31: 2 to P1, no go point; reset, led by P2 (left of P1)
    assert state.scores == (6, 2, 2) and state.count == 0 and engine.to_act(state) == 2
    lay("QH", "6C", "QS", "3H", "AH")  # 10, 16, 26, 29, 30: nothing scores
    assert state.count == 30 and engine.legal_moves(state) == [Go()]
    lay("go")  # P1 (2C) passes
    assert engine.to_act(state) == 2
    lay("go")  # P2 (9D) passes
    assert engine.to_act(state) == 0
    lay("go")  # P0 (5C) passes: nobody can lay, P0 laid last -> go for 1; P1 (left of P0, holds 2C) leads
    assert state.scores == (7, 2, 2) and state.count == 0 and engine.to_act(state) == 1
    lay("2C", "9D")  # 2, 11
    assert engine.to_act(state) == 0  # P1 has no cards left: skipped
    state, events = engine.step(state, engine.parse_move(state, "5C"))  # 16; every hand empty: last card P0
    pegs = [(e["seat"], e["points"], e["reason"]) for e in events if e.kind == "peg"]
    assert pegs[0] == (0, 1, "last_card")
