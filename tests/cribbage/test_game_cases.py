"""Every ``game`` case of ``cribbage_cases.json`` through the engine (spec §2.2, §2.3, §2.6, §2.7, §2a), plus
Lowball (spec §2.8, §2a), which the cases describe only in words."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import CutForDeal, Play, Shuffle
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import CUT, DEAL, DISCARD, PLAY, State

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_helpers import case, cases, filler, seat

GAME = cases("game")


def test_the_cases_file_has_the_game_cases() -> None:
    assert len(GAME) == 11


def heels_win(scores: list[int], *, target: int = 121, lowball: bool = False, players: int = 2) -> State:
    """Dealer P0 turns a jack starter: his heels (2) with ``scores`` before (spec §2.3)."""
    starter = Card.parse("JD")
    rules = Rules(players=players, target=target, lowball=lowball)
    k = rules.cards_dealt
    pool = filler([starter], k * players)
    hands = [pool[i * k : (i + 1) * k] for i in range(players)]
    state = engine.position(rules, phase="discard", dealer=0, hands=hands, starter=starter, scores=scores)
    while state.phase == DISCARD:
        state = engine.apply(state, engine.legal_moves(state)[0])
    return state


def test_game_his_heels() -> None:
    c = case("game-his-heels")
    inp, exp = c["input"], c["expected"]
    before = [inp["scores_before"]["P0_dealer"], inp["scores_before"]["P1"]]
    state = heels_win(before)
    assert state.starter == Card.parse(inp["starter"])
    assert state.scores[0] - before[0] == exp["P0_dealer_points"]
    assert engine.is_over(state) is exp["game_over"]
    assert engine.result(state).winners == (seat(exp["winner"]),)


def test_heels_below_the_target_goes_on_to_the_play() -> None:
    state, events = engine.step(*_last_discard(heels_setup := [10, 20]))
    assert heels_setup == [10, 20]
    assert state.phase == PLAY and state.scores == (12, 20)
    pegs = [(e["seat"], e["points"], e["reason"]) for e in events if e.kind == "peg"]
    assert pegs == [(0, 2, "his_heels")]
    starter = next(e["card"] for e in events if e.kind == "starter")
    assert [e["cards"] for e in events if e.kind == "peg"] == [[starter]]


def _last_discard(scores: list[int]) -> tuple[State, Any]:
    starter = Card.parse("JC")
    hands = [filler([starter], 6), filler([starter], 12)[6:]]
    state = engine.position(Rules(), phase="discard", dealer=0, hands=hands, starter=starter, scores=scores)
    state = engine.apply(state, engine.legal_moves(state)[0])
    return state, engine.legal_moves(state)[0]


@pytest.mark.parametrize("cid", ["game-2p-deal", "game-3p-deal", "game-4p-deal"])
def test_deal_sizes(cid: str) -> None:
    c = case(cid)
    inp, exp = c["input"], c["expected"]
    rules = Rules(players=inp["players"])
    if inp.get("partnership"):
        assert rules.partnership
        assert rules.side_of(0) == rules.side_of(2) != rules.side_of(1) == rules.side_of(3)  # partners opposite
        assert exp["partners_sit_opposite"]
    state = engine.new_game(rules, dealer=0)
    assert state.phase == DEAL
    state = engine.apply(state, engine.chance_outcome(state, random.Random(7)))
    assert all(len(h) == exp["cards_per_player"] for h in state._hands)
    assert len(state._crib) == exp.get("cards_dealt_to_crib_from_pack", 0)
    assert all(len(m.cards) == exp["discard_per_player"] for m in engine.legal_moves(state))  # type: ignore[union-attr]
    while state.phase == DISCARD:
        state = engine.apply(state, engine.legal_moves(state)[0])
    assert len(state._crib) == exp["crib_size"]
    assert state.starter is not None
    assert len(state._stock) + 1 == exp["cards_left_in_stock_before_cut"]  # the starter was cut from the stock


def test_deal_is_one_card_at_a_time_from_the_dealers_left() -> None:
    """Spec §2.2: the first card to the dealer's left; with 3 players the 16th card to the crib."""
    deck = tuple(map(Card, range(52)))
    state = engine.apply(engine.new_game(Rules(players=3), dealer=2), Shuffle(deck))
    assert state._hands[0] == (deck[0], deck[3], deck[6], deck[9], deck[12])  # seat 0 is left of dealer 2
    assert state._hands[2] == (deck[2], deck[5], deck[8], deck[11], deck[14])
    assert state._crib == (deck[15],)
    assert engine.to_act(state) == 0  # discards start at the dealer's left


def test_game_3p_count_order() -> None:
    c = case("game-3p-count-order")
    dealer = seat(c["input"]["dealer"])
    hands = [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"], ["9D", "TD", "QD", "KD"]]
    state = engine.position(
        Rules(players=3), phase="play", dealer=dealer, hands=hands, crib=["AC", "2C", "3C", "4C"], starter="5C"
    )
    shows: list[str] = []
    while state.phase == PLAY:
        state, events = engine.step(state, engine.legal_moves(state)[0])
        shows += [f"P{e['seat']} {'crib' if e['crib'] else 'hand'}" for e in events if e.kind == "show"]
    assert shows == c["expected"]["show_order"]
    assert engine.show_order(Rules(players=3), dealer) == (1, 2, 0)


@pytest.mark.parametrize("cid", ["game-skunk", "game-double-skunk", "game-no-skunk-91"])
def test_skunks(cid: str) -> None:
    c = case(cid)
    inp, exp = c["input"], c["expected"]
    final = inp["final_scores"]
    state = heels_win([final["winner"] - 2, final["loser"]], target=inp["target"])
    res = engine.result(state)
    assert res.scores == (final["winner"], final["loser"])
    assert res.skunk is exp["skunk"]
    if "double_skunk" in exp:
        assert res.double_skunk is exp["double_skunk"]
    if "acc_game_points_to_winner" in exp:
        assert res.game_points == exp["acc_game_points_to_winner"]


def test_skunk_lines_in_a_61_game_are_half() -> None:
    """Spec §2a: half of the 121 lines in a 61 game -- 45 or less skunked, 30 or less double-skunked."""
    assert engine.result(heels_win([59, 45], target=61)).skunk
    assert not engine.result(heels_win([59, 46], target=61)).skunk
    assert engine.result(heels_win([59, 30], target=61)).double_skunk
    assert not engine.result(heels_win([59, 31], target=61)).double_skunk


def test_the_double_skunk_line_is_below_the_skunk_line() -> None:
    """Spec §2.7: a double skunk is a deeper loss than a skunk, so its line is the lower one (ACC 60 < 90)."""
    from kortbord.errors import InvalidRulesError

    assert Rules(skunk_line=80, double_skunk_line=50).double_skunk_threshold == 50
    for lines in ({"skunk_line": 90, "double_skunk_line": 100}, {"skunk_line": 60, "double_skunk_line": 60},
                  {"skunk_line": 50}, {"target": 61, "double_skunk_line": 45}):  # fmt: skip
        with pytest.raises(InvalidRulesError, match="below the skunk line"):
            Rules(**lines)  # type: ignore[arg-type]


@pytest.mark.parametrize("cid", ["game-cut-for-deal", "game-cut-for-deal-2"])
def test_cut_for_deal(cid: str) -> None:
    c = case(cid)
    cuts = c["input"]["cuts"]
    move = CutForDeal(tuple(Card.parse(cuts[f"P{s}"]) for s in range(len(cuts))))
    state, events = engine.step(engine.new_game(Rules()), move)
    if c["expected"].get("result") == "tie: cut again":
        assert state.phase == CUT and state.dealer == -1 and engine.is_chance(state)
        assert [e.kind for e in events] == ["cut", "cut_again"]
        assert state.cuts == move.cards  # the cut is public
    else:
        assert state.phase == DEAL and state.dealer == seat(c["expected"]["dealer"])


def test_dealer_rotation() -> None:
    """Spec §2.2: the deal passes to the left after every deal."""
    rng = random.Random(3)
    state = engine.new_game(Rules(players=3), dealer=1)
    dealers = []
    while len(dealers) < 4 and not engine.is_over(state):
        if engine.is_chance(state):
            dealers.append(state.dealer)
            state = engine.apply(state, engine.chance_outcome(state, rng))
        else:
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
    assert dealers == [1, 2, 0, 1]


def test_game_bot_takes_fifteen_immediate_points() -> None:
    """game-bot-takes-fifteen: after an 8 is led, each answer's immediate points as the engine pegs them."""
    c = case("game-bot-takes-fifteen")
    inp, exp = c["input"], c["expected"]
    bot = inp["bot_hand"]
    lead = Card.parse("8D")
    assert [lead.rank] == [int(r) for r in inp["sequence_ranks"]] and inp["count_before"] == 8
    other = [lead, *filler([lead, *bot], 3)]
    rest = filler([*other, *bot], 5)
    state = engine.position(Rules(), phase="play", dealer=1, hands=[other, bot], crib=rest[:4], starter=rest[4])
    state = engine.apply(state, Play(lead))  # P0 (dealer's left) leads the 8; the bot (dealer P1) answers
    points = {}
    for text in bot:
        _, events = engine.step(state, Play(Card.parse(text)))
        points[text] = sum(e["points"] for e in events if e.kind == "peg")
    assert points == exp["immediate_points"]
    assert max(points, key=points.__getitem__) == exp["best_immediate"]


def test_lowball_reaching_the_target_loses() -> None:
    """Spec §2.8 / §2a: in Lowball the side that reaches the target first loses."""
    res = engine.result(heels_win([119, 100], lowball=True))
    assert res.lowball and res.reached == 0
    assert res.winners == (1,) and res.losers == (0,)
    assert not res.skunk  # no skunks in Lowball


def test_lowball_three_players_ranks_the_others_by_lower_score() -> None:
    """Spec §2a: three-player Lowball -- the others ranked by lower score, the lowest wins."""
    res = engine.result(heels_win([119, 80, 60], lowball=True, players=3))
    assert res.losers == (0, 1) and res.winners == (2,)
    assert res.ranking == ((2,), (1,), (0,))
    tied = engine.result(heels_win([119, 70, 70], lowball=True, players=3))
    assert tied.winners == (1, 2) and tied.ranking == ((1, 2), (0,))
