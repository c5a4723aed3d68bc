"""Card notation (DEVELOPERS.md; mulle.md §5.1): rank A 2-9 T J Q K, suit S H D C; 10 and ♠♥♦♣ accepted."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kortbord.cards import Card, format_cards, full_deck, parse_cards, shuffled_deck
from kortbord.errors import InvalidCardError

cards = st.integers(min_value=0, max_value=51).map(Card)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("9H", 9, "H"),
        ("TD", 10, "D"),
        ("2S", 2, "S"),
        ("AS", 1, "S"),
        ("KC", 13, "C"),
        ("QD", 12, "D"),
        ("JH", 11, "H"),
        ("10D", 10, "D"),
        ("10♦", 10, "D"),
        ("A♠", 1, "S"),
        ("7♣", 7, "C"),
        ("Q♥", 12, "H"),
        ("td", 10, "D"),
        (" 9h ", 9, "H"),
    ],
)
def test_parse_accepts_the_documented_forms(text: str, rank: int, suit: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1H", "11H", "9X", "H9", "99H", "T", "♦", "10", "AA", "0S", "ZZ", "9HH"])
def test_malformed_cards_raise_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidCardError, match="card"):
        Card.parse(text)


def test_invalid_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("1H")
    with pytest.raises(InvalidCardError):
        Card(52)
    with pytest.raises(InvalidCardError):
        Card.of(14, "S")


def test_storan_and_lillan_notation() -> None:
    assert str(Card.of(10, "D")) == "TD"
    assert str(Card.of(2, "S")) == "2S"
    assert Card.parse("TD").name == "ten of diamonds"
    assert Card.parse("TD").symbol == "T♦"


@given(cards)
def test_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.symbol) is card
    assert eval(repr(card)) is card
    assert pickle.loads(pickle.dumps(card)) is card


@given(cards, cards)
def test_order_is_rank_then_suit_shdc(a: Card, b: Card) -> None:
    key = lambda c: (c.rank, "SHDC".index(c.suit))
    assert (a < b) == (key(a) < key(b))


def test_full_deck_has_every_card_packs_times() -> None:
    assert len(full_deck()) == 52 and len(set(full_deck())) == 52
    two = full_deck(2)
    assert len(two) == 104 and all(two.count(c) == 2 for c in set(two))
    with pytest.raises(ValueError):
        full_deck(0)


def test_shuffle_uses_only_the_injected_generator() -> None:
    a = shuffled_deck(random.Random(7), packs=2)
    b = shuffled_deck(random.Random(7), packs=2)
    c = shuffled_deck(random.Random(8), packs=2)
    assert a == b and a != c and sorted(a) == full_deck(2)


def test_parse_and_format_several() -> None:
    assert format_cards(parse_cards("9H, 10D ♠A".replace("♠A", "A♠"))) == "9H TD AS"
    with pytest.raises(InvalidCardError):
        parse_cards("9H 1X")
