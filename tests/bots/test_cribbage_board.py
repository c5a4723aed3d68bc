"""Playing to the board (``kortbord.bots.cribbage_board`` and the strong bot's end game).

Expected values come from the rules spec ``../shared/rules/cribbage.md``: §5 "First-dealer advantage" (the first
dealer wins 55.5% overall and 55-56% between equal players, Cribbage Pro over millions of games), the "Distributed
Cribbage Computation" example (dealer at 35 against pone at 37, the deal to come: the dealer about 51%), the expert
averages per deal of §5 (dealer play 3.5, pone play 2.0-2.1, pone hand 8.1, dealer hand 8.0 + crib 4.7) and the
counting order of §2.6 (the pone counts first).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord.bots import cribbage_board as board
from kortbord.bots.cribbage_strong import StrongBot
from kortbord.cards import Card, full_deck
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Discard
from kortbord.cribbage.scoring import show_total
from kortbord.cribbage.view import view

DECK = tuple(full_deck())


def test_first_dealer_advantage_matches_cribbage_pro() -> None:
    # spec §5: the first dealer wins 55.5% overall, 55-56% between equal players (121 games)
    assert 0.545 <= board.dealer_chance(121, 0, 0) <= 0.57


def test_distributed_cribbage_computation_example() -> None:
    # spec §5: dealer at 35 against pone at 37 with the deal to come gives the dealer about 51%
    assert board.dealer_chance(121, 35, 37) == pytest.approx(0.51, abs=0.02)


def test_points_per_deal_match_the_expert_averages() -> None:
    d = board.distributions()

    def mean(p: np.ndarray) -> float:
        return float(p @ np.arange(len(p)))

    assert mean(d["dealer_peg"]) == pytest.approx(3.5, abs=0.3)
    assert mean(d["pone_peg"]) == pytest.approx(2.05, abs=0.3)
    assert mean(d["pone_show"]) == pytest.approx(8.1, abs=0.3)
    assert mean(d["dealer_show"]) == pytest.approx(8.0 + 4.7, abs=0.4)
    assert mean(d["crib"]) == pytest.approx(4.7, abs=0.3)  # near the random crib's 4.73 (§3, §5)


def test_reached_target_decides() -> None:
    assert board.dealer_chance(121, 121, 50) == 1.0
    assert board.dealer_chance(121, 50, 121) == 0.0
    assert board.dealer_chance(121, 130, 125) == 0.0  # both past: the pone counted first (§2.6)
    assert board.after_deal_chance(61, 61, 10, False) == 1.0
    with pytest.raises(ValueError, match="no win table"):
        board.dealer_chance(100, 0, 0)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from((61, 121)), st.data())
def test_more_points_never_hurt(target: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, target - 2))
    b = data.draw(st.integers(0, target - 2))
    here = board.dealer_chance(target, a, b)
    assert 0.0 <= here <= 1.0
    assert board.dealer_chance(target, a + 1, b) >= here - 1e-4
    assert board.dealer_chance(target, a, b + 1) <= here + 1e-4


def test_pone_needing_points_prefers_the_sure_hand() -> None:
    # pone needs 9: a hand certain to make 12 wins on the count (§2.6: the pone counts first; the dealer cannot
    # peg 21 from 100); a hand of 8 needs one pegging point (the pone usually pegs one); 2-or-14 needs the 14
    sure, eight, gamble = board.discard_chances(121, 112, 100, False, [[12] * 46, [8] * 46, [2] * 20 + [14] * 26],
                                                [0.0] * 3)  # fmt: skip
    assert sure > eight > gamble
    assert sure > 0.99
    assert gamble < 26 / 46 + 0.2  # the 14 (26 starters in 46) or, with 2, seven pegging points


def _board_position(hand: str, scores: tuple[int, int]) -> tuple[object, list[Discard]]:
    cards = [Card.parse(c) for c in hand.split()]
    rest = [c for c in DECK if c not in cards]
    state = engine.position(Rules(), phase="discard", dealer=0, hands=[rest[:6], cards], starter=rest[6], scores=scores)
    moves = [m for m in engine.legal_moves(state) if isinstance(m, Discard)]
    return view(state, 1), moves


def _floor(hand: tuple[Card, ...], move: Discard) -> int:
    kept = [c for c in hand if c not in move.cards]
    return min(show_total(kept, s) for s in DECK if s not in hand)


def test_strong_pone_keeps_the_hand_that_counts_out() -> None:
    # pone at 117 needs 4 and counts first; the dealer at 100 cannot peg 21.  The most points on average
    # (board=False) can fall short of 4; to the board the bot keeps four cards that make 4 with every starter.
    v, moves = _board_position("2D 3D 6D 9S TS KC", (100, 117))
    assert v.seat == 1
    by_points = StrongBot(iterations=1, board=False).choose(v, moves, random.Random(0))
    to_board = StrongBot(iterations=1).choose(v, moves, random.Random(0))
    assert isinstance(by_points, Discard) and isinstance(to_board, Discard)
    assert _floor(v.hand, by_points) < 4  # the test is not vacuous
    assert _floor(v.hand, to_board) >= 4


def test_far_from_the_end_the_board_changes_nothing() -> None:
    v, moves = _board_position("2D 3D 6D 9S TS KC", (10, 12))
    a = StrongBot(iterations=1, board=False).choose(v, moves, random.Random(0))
    b = StrongBot(iterations=1).choose(v, moves, random.Random(0))
    assert a == b


def test_board_option_through_the_registry_and_the_arena() -> None:
    from kortbord.arena import BotSpec
    from kortbord.bots import registry

    assert "board" in registry.level_options("cribbage", "strong")
    bot = BotSpec.parse("strong:board=false").make("cribbage", None)
    assert isinstance(bot, StrongBot) and bot.board is False
    assert registry.make_bot("cribbage", "strong").board is True  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="board must be true or false"):
        registry.make_bot("cribbage", "strong", board="sometimes")  # type: ignore[arg-type]


def test_a_four_that_pegs_more_wins_more_when_the_play_decides() -> None:
    # the dealer at 118 needs 3; the pone at 119 counts first (§2.6) and nearly any hand takes him out: the dealer
    # wins only by pegging out first, so a four that pegs more wins more; without a shift the table's pegging
    hands, cribs = [[8] * 46] * 3, [0.0] * 3
    up, level, down = board.discard_chances(121, 118, 119, True, hands, cribs, [2.0, 0.0, -2.0])
    assert up > level > down
    assert board.discard_chances(121, 118, 119, True, hands, cribs) == [level] * 3
    # the other way round: the pone at 118, the dealer at 119 -- the pone's pegging matters as much
    up, level, down = board.discard_chances(121, 119, 118, False, hands, cribs, [2.0, 0.0, -2.0])
    assert up > level > down


def _dealer_position(hand: str, scores: tuple[int, int]) -> tuple[object, list[Discard]]:
    cards = [Card.parse(c) for c in hand.split()]
    rest = [c for c in DECK if c not in cards]
    state = engine.position(Rules(), phase="discard", dealer=0, hands=[cards, rest[:6]], starter=rest[6], scores=scores)
    return view(state, 0), [Discard(pair) for pair in itertools.combinations(cards, 2)]


def test_board_peg_keeps_the_four_that_pegs_when_only_the_play_can_win() -> None:
    # the dealer at 118 needs 3 in the play: the pone at 120 counts out first with any hand that scores (§2.6).
    # Strong's table pegging is the same for every four, so it keeps the most points (5 T J Q: 9 in hand);
    # with board_peg the four the pegging table rates higher for the dealer
    from kortbord.bots.cribbage_strong import peg_value

    v, moves = _dealer_position("5H TH JS QD 2C 2S", (118, 120))
    assert v.seat == 0 and v.dealer == 0
    strong = StrongBot(iterations=1).choose(v, moves, random.Random(0))
    pegging = StrongBot(iterations=1, board_peg=1.0).choose(v, moves, random.Random(0))
    assert isinstance(strong, Discard) and isinstance(pegging, Discard)

    def kept(move: Discard) -> list[Card]:
        return [c for c in v.hand if c not in move.cards]

    assert sorted(c.rank for c in kept(strong)) == [5, 10, 11, 12]
    assert pegging != strong
    assert peg_value(kept(pegging), True) > peg_value(kept(strong), True)
    for bad in (3.0, -1.0, float("nan"), None, "1", True):
        with pytest.raises(ValueError, match="board_peg"):
            StrongBot(board_peg=bad)  # type: ignore[arg-type]
    for shifts in ([float("nan")], [1e5], [float("inf")]):
        with pytest.raises(ValueError, match="a shift must be a number of points"):
            board.discard_chances(121, 118, 119, True, [[8] * 46], [0.0], shifts)
