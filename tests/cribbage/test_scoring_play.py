"""The play (spec cribbage.md §2.1 values, §2.4 step 3 points for the card just laid): worked single-count cases,
the spec's examples, properties, and a cross-check against the third-party ``cribbage_scorer`` package."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord.cards import Card
from kortbord.cribbage.scoring import card_value, play_points_per_card, score_play
from kortbord.errors import IllegalMoveError, InvalidCardError, InvalidPositionError

RULES = Path(os.environ["KORTBORD_RULES_DIR"])
SUITS = "SHDC"


def _count_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((RULES / "cribbage_cases.json").read_text(encoding="utf-8"))
    return [c for c in cases if c["kind"] == "pegging" and "sequence_ranks" in c["input"]]


COUNT_CASES = _count_cases()


def with_suits(ranks: list[str]) -> list[Card]:
    """Cards for ranks given without suits: each repeat of a rank takes the next suit (suits never score here)."""
    used: dict[str, int] = {}
    cards = []
    for rank in ranks:
        cards.append(Card.parse(rank + SUITS[used.get(rank, 0)]))
        used[rank] = used.get(rank, 0) + 1
    return cards


def test_the_worked_cases_are_there() -> None:
    assert len(COUNT_CASES) >= 11


@pytest.mark.parametrize("case", COUNT_CASES, ids=[c["id"] for c in COUNT_CASES])
def test_worked_case(case: dict[str, Any]) -> None:
    cards = with_suits(case["input"]["sequence_ranks"])
    expected = case["expected"]["points_per_card"]
    assert play_points_per_card(cards) == expected
    assert [score_play(cards[: i + 1]).points for i in range(len(cards))] == expected


@pytest.mark.parametrize(
    ("ranks", "last_card_points"),
    [
        (["5", "3", "4"], 3),  # §2.4 examples: 5-3-4 scores 3
        (["7", "9", "6", "8"], 4),  # 7-9-6-8 scores 4
        (["6", "7", "8", "6"], 3),  # 6-7-8 then 6: the last three, 7-8-6, form a run
        (["7", "6", "8", "6"], 0),  # 7-6-8 then 6 scores nothing
        (["3", "4", "4", "5"], 0),  # a repeated rank in the last L cards rules that L out
        (["6", "5", "6", "5"], 0),  # pairs must be consecutive plays: 6-5-6-5 scores nothing
        (["K", "Q", "J"], 3),  # a run of face cards (count 30)
        (["K", "K", "Q"], 0),  # 10-count cards of different rank are no pair
        (["T", "J"], 0),
        (["T", "T", "J"], 0),
    ],
)
def test_spec_examples(ranks: list[str], last_card_points: int) -> None:
    assert score_play(with_suits(ranks)).points == last_card_points


def test_thirty_one_is_two() -> None:
    # §2.4 step 3: count exactly 31 scores 2 (the go point is the engine's, and 31 gets none).
    played = score_play(with_suits(["K", "Q", "J", "A"]))
    assert (played.points, played.thirty_one, played.fifteen) == (2, 2, 0)
    assert played.reasons == ("thirty_one",)


def test_thirty_one_with_a_pair() -> None:
    # 7-8-8-8 reaches 31 with a pair royal: 2 + 6.
    played = score_play(with_suits(["7", "8", "8", "8"]))
    assert (played.points, played.thirty_one, played.pairs) == (8, 2, 6)


def test_the_biggest_single_card() -> None:
    # §2.4 step 9: a double pair royal (12) at a count of 15 (2) is the most one card scores before the go point.
    played = score_play(with_suits(["5", "6", "A", "A", "A", "A"]))
    assert (played.points, played.fifteen, played.pairs, played.run) == (14, 2, 12, 0)
    assert played.reasons == ("fifteen", "double_pair_royal")


@pytest.mark.parametrize(
    ("card", "value"),
    [("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("TS", 10), ("JH", 10), ("QD", 10), ("KC", 10)],
)
def test_card_value(card: str, value: int) -> None:
    assert card_value(Card.parse(card)) == value  # §2.1


def test_past_31_is_illegal() -> None:
    # §3a: a sequence whose count passes 31 is an error; §2.4 step 9: such a card is never legal.
    with pytest.raises(IllegalMoveError, match="past 31"):
        score_play(with_suits(["K", "Q", "J", "2"]))
    with pytest.raises(IllegalMoveError, match=r"card 4 \(2S\)"):
        play_points_per_card(with_suits(["K", "Q", "J", "2"]))


@pytest.mark.parametrize(
    ("cards", "error", "says"),
    [
        ([], InvalidPositionError, "at least one card"),
        (["5H", "5H"], InvalidCardError, "duplicate card"),
        (["5H", "ZZ"], InvalidCardError, "malformed card"),
        ("5H", InvalidCardError, "sequence"),
    ],
)
def test_bad_input(cards: Any, error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        score_play(cards)
    with pytest.raises(error, match=says):
        play_points_per_card(cards)


# -- properties -------------------------------------------------------------------------------------------------


def _one_count(indices: list[int]) -> list[Card]:
    """The longest prefix whose count stays within 31 (at least one card: a card alone is at most 10)."""
    cards: list[Card] = []
    for card in map(Card, indices):
        if sum(map(card_value, cards)) + card_value(card) > 31:
            break
        cards.append(card)
    return cards


# Low cards half the time, so that long runs, pairs royal and 31s come up often.
counts = st.lists(st.integers(0, 51) | st.integers(0, 27), min_size=1, max_size=13, unique=True).map(_one_count)


@given(counts)
def test_parts_add_up(cards: list[Card]) -> None:
    played = score_play(cards)
    assert played.points == played.fifteen + played.thirty_one + played.pairs + played.run
    assert len(played.reasons) == sum(1 for p in (played.fifteen, played.thirty_one, played.pairs, played.run) if p)
    total = sum(card_value(c) for c in cards)
    assert played.fifteen == (2 if total == 15 else 0)
    assert played.thirty_one == (2 if total == 31 else 0)
    assert played.pairs in (0, 2, 6, 12)
    assert played.run == 0 or 3 <= played.run <= 7  # the longest run is 7 (A-7 counts 28)
    assert not (played.pairs and played.run)  # a pair on the last card rules every run out
    assert played.points <= 14


@given(counts)
def test_per_card_agrees_with_score_play(cards: list[Card]) -> None:
    played = score_play(cards)
    assert play_points_per_card(cards)[-1] == played.points


# -- outside reference: phoughton/cribbage_scorer ---------------------------------------------------------------


@settings(max_examples=400)
@given(counts)
def test_agrees_with_cribbage_scorer(cards: list[Card]) -> None:
    cs = pytest.importorskip("cribbage_scorer.cribbage_scorer")
    reference = []
    for i in range(len(cards)):
        _, points, _ = cs.play_score_ongoing([(c.rank, c.suit) for c in cards[: i + 1]], last_card=False)
        reference.append(points)
    assert play_points_per_card(cards) == reference


@given(counts)
def test_run_is_the_longest_consecutive_tail(cards: list[Card]) -> None:
    # Spec §2.4 step 3, restated directly: the largest L >= 3 whose last L cards are L distinct consecutive ranks.
    expected = 0
    for size in range(3, len(cards) + 1):
        ranks = {c.rank for c in cards[-size:]}
        if len(ranks) == size and max(ranks) - min(ranks) == size - 1:
            expected = size
    assert score_play(cards).run == expected
