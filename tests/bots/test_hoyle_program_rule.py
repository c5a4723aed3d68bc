"""CribbageSim's play rule as the belief search's opponent model (``bench/cribbage_belief.py``'s ``hoyle_model``, issue
#14 item 2's ceiling against the second outside player): hand-worked cases from the strategy text of CribbageSim
1.0.2's ``HoyleishCribbagePlayStrategy`` (leads rated "a card of a pair (not 5s) ... an 8 with a 6 ... a 5 last"; a
follow that scores most at once, a 31 rated 2 when it makes nothing else, else the highest card), and the program's
own choice on random positions (an outside reference: the program itself).  Skipped without CribbageSim."""

from __future__ import annotations

import random

import pytest
from bot_helpers import load_bench

belief = load_bench("cribbage_belief")
hoyle = load_bench("cribbage_hoyleish")

pytestmark = pytest.mark.skipif(hoyle.SimCard is None, reason="needs CribbageSim (make setup installs it)")

_PIPS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_NO_SEEN = (0,) * 14


def _laid(hand: tuple[int, ...], seq: tuple[int, ...] = (), others: int = 1) -> set[int | None]:
    count = sum(belief.VAL[r] for r in seq)
    return {r for r, p in belief.hoyle_model(tuple(sorted(hand)), seq, count, _NO_SEEN, others, False) if p > 0}


@pytest.mark.parametrize(
    ("hand", "led"),
    [
        ((5, 5, 4, 9), {4}),  # a pair of 5s rated 0 as a pair: the 4 (9) leads
        ((3, 3, 13, 1), {3}),  # a card of a pair of 3s (24)
        ((6, 8, 12, 2), {8}),  # an 8 with a 6 (16)
        ((7, 9, 13, 13), {13}),  # a pair of kings (21) over a 7 with a 9 (15)
        ((5, 11, 6, 6), {6}),  # the pair of 6s (17) over a jack with a 5 (14)
        ((5, 11, 7, 8), {11}),  # a jack with a 5 (14) over 8 with 7 (12)
        ((1, 2, 3, 4), {4}),  # 4 > 3 > 2 > A
        ((10, 12, 9, 6), {9}),  # a 9 with a 6 (13)
        ((10, 12, 7, 6), {10, 12}),  # singletons: a ten-card (5) over 7 (2) and 6 (1); the ten-cards tie
    ],
)
def test_leads_by_the_strategy_text(hand: tuple[int, ...], led: set[int]) -> None:
    assert _laid(hand) == led


@pytest.mark.parametrize(
    ("hand", "seq", "laid"),
    [
        ((10, 4, 7), (5,), {10}),  # the ten makes 15 (2)
        ((3, 9, 13), (6, 6), {3}),  # 6 6 3: 15 (2) against nothing else scoring
        ((6, 9, 13), (6, 6), {6}),  # a third 6: a pair royal (6)
        ((2, 9), (10, 10, 9), {2}),  # 31 with nothing else: 2, over the 9 (pair, but 38 does not fit)
        ((1, 13), (10, 12), {13}),  # count 20: the ace (21) and the king (30) score nothing: the highest
        ((8, 2, 13), (1, 3), {2}),  # count 4: the 2 makes a run A-3-2 (3); the 8 (12) and the king (14) nothing
        ((9, 2), (10, 10), {9}),  # count 20: the 9 makes 29 (nothing), the 2 22 (nothing): the highest
        ((4, 1), (9, 9, 9), {4}),  # count 27: the 4 makes 31 (rated 2), the ace nothing
    ],
)
def test_follows_by_the_strategy_text(hand: tuple[int, ...], seq: tuple[int, ...], laid: set[int]) -> None:
    assert _laid(hand, seq) == laid


def test_a_new_count_against_an_empty_hand_plays_the_highest() -> None:
    # the go rule (the follow rating on an empty pile): the highest card, not the lead's 4
    assert _laid((4, 9, 13), (), others=0) == {13}
    assert _laid((4, 9, 13), (), others=1) == {4}


def _programs_follow(
    strategy: object, hand: list[tuple[int, str]], pile: list[tuple[int, str]], count: int
) -> tuple[bool, int | None]:
    """The program's own follow (``HoyleishCribbagePlayStrategy.follow``): (it said go, the rank it laid)."""
    held = [hoyle.SimCard(s, _PIPS[r]) for r, s in hand]
    played = [hoyle.SimCard(s, _PIPS[r]) for r, s in pile]
    chosen: list[object] = []
    _, said_go = strategy.follow(count, lambda i: chosen.append(held.pop(i)), lambda: held, lambda: played)  # type: ignore[attr-defined]
    return said_go, (_PIPS.index(chosen[0].pips) if chosen else None)  # type: ignore[attr-defined]


def test_the_model_holds_the_programs_own_choice_on_random_positions() -> None:
    strategy = hoyle.HoyleishDealerCribbagePlayStrategy()
    rng = random.Random(11)
    deck = [(r, s) for r in range(1, 14) for s in "SHDC"]
    checked = 0
    for _ in range(3000):
        cards = rng.sample(deck, 9)
        hand = cards[: rng.randint(1, 4)]
        pile: list[tuple[int, str]] = []
        count = 0
        for c in cards[4:]:
            if rng.random() < 0.25:
                break
            if count + belief.VAL[c[0]] < 31:
                pile.append(c)
                count += belief.VAL[c[0]]
        said_go, card = _programs_follow(strategy, hand, pile, count)
        laid = _laid(tuple(r for r, _ in hand), tuple(r for r, _ in pile))
        if said_go:
            assert laid == {None}
        else:
            assert card in laid
            checked += 1
    assert checked > 1000
