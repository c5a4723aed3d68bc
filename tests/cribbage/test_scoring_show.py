"""The show (spec cribbage.md §2.3, §2.5): worked cases, the spec's examples, properties, and a cross-check
against the third-party ``cribbage_scorer`` package."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord.cards import Card
from kortbord.cribbage.scoring import (
    IMPOSSIBLE_SHOW_SCORES,
    MAX_SHOW_SCORE,
    ScoringGroup,
    score_show,
    show_total,
)
from kortbord.errors import InvalidCardError, InvalidPositionError, KortbordError

RULES = Path(os.environ["KORTBORD_RULES_DIR"])


def _cases(*kinds: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((RULES / "cribbage_cases.json").read_text(encoding="utf-8"))
    return [c for c in cases if c["kind"] in kinds and "hand" in c["input"]]


SHOW_CASES = _cases("hand", "crib")


def test_the_worked_cases_are_there() -> None:
    assert {c["kind"] for c in SHOW_CASES} == {"hand", "crib"}
    assert len(SHOW_CASES) >= 16


@pytest.mark.parametrize("case", SHOW_CASES, ids=[c["id"] for c in SHOW_CASES])
def test_worked_case(case: dict[str, Any]) -> None:
    crib = case["kind"] == "crib"
    hand, starter = case["input"]["hand"], case["input"]["starter"]
    show = score_show(hand, starter, crib=crib)
    assert show.total == case["expected"]["total"]
    assert show.breakdown() == case["expected"]["breakdown"]
    assert show_total([Card.parse(c) for c in hand], Card.parse(starter), crib) == case["expected"]["total"]


# -- spec §2.5 examples, each with the points the spec gives --------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "runs", "pairs"),
    [
        (["3S", "4S", "4H", "5D"], "KC", 6, 2),  # double run of 3: 6 for the runs plus 2 for the pair
        (["3S", "4S", "4H", "4D"], "5C", 9, 6),  # triple run: 9 plus 6 for the pair royal
        (["3S", "3H", "4S", "4H"], "5C", 12, 4),  # double-double run: 12 plus 4 for the two pairs
        (["5S", "6H", "7D", "8C"], "8H", 8, 2),  # double run of 4: 8 plus 2 for the pair
        (["2S", "3H", "9D", "QC"], "KH", 0, 0),  # a two-card sequence is worth nothing
        (["QS", "KH", "AD", "6C"], "8H", 0, 0),  # no wrap-around: Q-K-A is not a run (§2.1)
    ],
)
def test_runs_and_pairs(hand: list[str], starter: str, runs: int, pairs: int) -> None:
    show = score_show(hand, starter)
    assert (show.runs, show.pairs) == (runs, pairs)


def test_ten_and_jack_are_no_pair() -> None:
    # §2.1: pairs need equal rank; 10 and J both count 10 but are no pair.
    assert score_show(["TS", "JH", "2D", "3C"], "8H").pairs == 0


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "flush"),
    [
        (["2H", "6H", "8H", "TH"], "QS", False, 4),  # hand: four of a suit = 4
        (["2H", "6H", "8H", "TH"], "QH", False, 5),  # hand: with the starter = 5
        (["2H", "6H", "8H", "TS"], "QH", False, 0),  # three hand cards plus a matching starter: nothing
        (["2H", "6H", "8H", "TH"], "QS", True, 0),  # crib: four suited with an off-suit starter: 0
        (["2H", "6H", "8H", "TH"], "QH", True, 5),  # crib: all five = 5
    ],
)
def test_flush(hand: list[str], starter: str, crib: bool, flush: int) -> None:
    assert score_show(hand, starter, crib=crib).flush == flush


def test_nobs_needs_the_jack_in_the_hand() -> None:
    # §2.3 / §2.5: the jack of the starter's suit in the hand (or crib) scores 1; a jack starter never gives nobs.
    assert score_show(["JS", "2H", "4D", "8C"], "9S").nobs == 1
    assert score_show(["JS", "2H", "4D", "8C"], "9S", crib=True).nobs == 1
    assert score_show(["JH", "2H", "4D", "8C"], "9S").nobs == 0
    assert score_show(["JS", "2H", "4D", "8C"], "JH").nobs == 0


@pytest.mark.parametrize(
    ("hand", "starter", "total"),
    [
        (["5S", "5H", "5D", "JC"], "5C", 29),  # §2.5 maxima: 29
        (["5S", "5H", "5D", "5C"], "TH", 28),  # all four 5s plus a ten-card
        (["5S", "5H", "5D", "QC"], "5C", 28),
        (["2S", "5H", "5D", "5C"], "5S", 20),  # §3 discrepancy 3: 2-5-5-5-5 scores 20
        (["2S", "2H", "2D", "2C"], "9S", 20),  # 2-2-2-2-9: 20
    ],
)
def test_maxima(hand: list[str], starter: str, total: int) -> None:
    assert score_show(hand, starter).total == total


def test_groups_name_their_cards() -> None:
    show = score_show(["5S", "5H", "5D", "JC"], "5C")
    assert ScoringGroup("nobs", (Card.parse("JC"),), 1) in show.groups
    assert sum(1 for g in show.groups if g.kind == "fifteen") == 8
    assert sum(1 for g in show.groups if g.kind == "pair") == 6


# -- bad input --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "error", "says"),
    [
        (["2C", "4D", "6S"], "8H", InvalidPositionError, "exactly 4 cards"),
        (["2C", "4D", "6S", "8H", "9H"], "TH", InvalidPositionError, "exactly 4 cards"),
        (["2C", "4D", "6S", "6S"], "8H", InvalidCardError, "duplicate card"),
        (["2C", "4D", "6S", "8H"], "8H", InvalidCardError, "starter 8H is also in the hand"),
        (["2C", "4D", "6S", "1X"], "8H", InvalidCardError, "malformed card"),
        (["2C", "4D", "6S", 7], "8H", InvalidCardError, "not a card"),
    ],
)
def test_bad_input(hand: list[Any], starter: str, error: type[KortbordError], says: str) -> None:
    with pytest.raises(error, match=says):
        score_show(hand, starter)
    with pytest.raises(error, match=says):
        show_total(hand, starter)


# -- properties -------------------------------------------------------------------------------------------------

deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True).map(lambda xs: [Card(x) for x in xs])


@given(deals, st.booleans())
def test_groups_and_parts_add_up(cards: list[Card], crib: bool) -> None:
    show = score_show(cards[:4], cards[4], crib=crib)
    assert sum(g.points for g in show.groups) == show.total == sum(show.breakdown().values())
    for kind, part in (("fifteen", "fifteens"), ("pair", "pairs"), ("run", "runs"), ("flush", "flush")):
        assert sum(g.points for g in show.groups if g.kind == kind) == show.breakdown()[part]


@given(deals, st.booleans())
def test_never_an_impossible_score(cards: list[Card], crib: bool) -> None:
    total = score_show(cards[:4], cards[4], crib=crib).total
    assert 0 <= total <= MAX_SHOW_SCORE
    assert total not in IMPOSSIBLE_SHOW_SCORES


@given(deals, st.booleans())
def test_fast_path_agrees(cards: list[Card], crib: bool) -> None:
    assert show_total(cards[:4], cards[4], crib) == score_show(cards[:4], cards[4], crib=crib).total


@given(deals, st.permutations(range(4)), st.booleans())
def test_hand_order_does_not_matter(cards: list[Card], order: list[int], crib: bool) -> None:
    shuffled = [cards[i] for i in order]
    assert score_show(shuffled, cards[4], crib=crib) == score_show(cards[:4], cards[4], crib=crib)
    assert show_total(shuffled, cards[4], crib) == show_total(cards[:4], cards[4], crib)


@given(deals)
def test_crib_differs_only_by_the_four_card_flush(cards: list[Card]) -> None:
    hand, crib = score_show(cards[:4], cards[4]), score_show(cards[:4], cards[4], crib=True)
    assert hand.total - crib.total == (4 if hand.flush == 4 else 0)


# -- outside reference: phoughton/cribbage_scorer ---------------------------------------------------------------


def _reference_total(hand: list[Card], starter: Card, crib: bool) -> int:
    cs = pytest.importorskip("cribbage_scorer.cribbage_scorer")
    total, _ = cs.show_calc_score((starter.rank, starter.suit), [(c.rank, c.suit) for c in hand], crib)
    return int(total)


@settings(max_examples=400)
@given(deals, st.booleans())
def test_agrees_with_cribbage_scorer(cards: list[Card], crib: bool) -> None:
    assert score_show(cards[:4], cards[4], crib=crib).total == _reference_total(cards[:4], cards[4], crib)


@pytest.mark.parametrize("case", SHOW_CASES, ids=[c["id"] for c in SHOW_CASES])
def test_worked_cases_agree_with_cribbage_scorer(case: dict[str, Any]) -> None:
    hand = [Card.parse(c) for c in case["input"]["hand"]]
    assert (
        _reference_total(hand, Card.parse(case["input"]["starter"]), case["kind"] == "crib")
        == (case["expected"]["total"])
    )
