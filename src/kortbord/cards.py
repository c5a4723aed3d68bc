"""Playing cards and packs: the one card type shared by every kortbord game.

A :class:`Card` is an immutable value (an ``int`` subclass, so it hashes, sorts and pickles fast) identifying
rank and suit.  The two physical copies of a card in Mulle's two packs are the *same* value: identical cards are
"written the same" (rules spec ``spec/rules/mulle.md`` §5.1), and every engine counts copies itself.

Notation (DEVELOPERS.md, mulle.md §5.1, cribbage.md §4): rank ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by suit
``S H D C`` -- ``9H``, ``TD``, ``2S``.  :func:`Card.parse` also accepts ``10`` for ten, lower case, and the suit
symbols ``♠ ♥ ♦ ♣`` (``10♦`` is ``TD``).  ``str(card)`` is the canonical notation, ``repr(card)`` the
constructor call.

Ordering: ``int(card) == (rank - 1) * 4 + suit_index`` with suits in the order S, H, D, C, so sorting cards gives
the canonical order of the Mulle notation (rank A..K, then suit S, H, D, C).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

from kortbord.errors import InvalidCardError

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "format_cards",
    "full_deck",
    "parse_cards",
    "shuffled_deck",
]

#: Rank characters, index 0 is the ace (rank 1) and index 12 the king (rank 13).
RANKS: Final = "A23456789TJQK"
#: Suit characters in canonical order: spades, hearts, diamonds, clubs.
SUITS: Final = "SHDC"

_SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
_RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)


class Card(int):
    """One playing card: a rank 1..13 (ace low, king 13) and a suit 0..3 (S, H, D, C).

    Construct with :meth:`Card.parse` (``Card.parse("TD")``), :meth:`Card.of` (``Card.of(10, "D")``) or from
    its index 0..51 (``Card(38)``); every way returns one of 52 shared instances.

    Raises:
        InvalidCardError: on an index outside 0..51 or malformed notation.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        try:
            return _CARDS[index] if 0 <= index < 52 else _bad_index(index)
        except (TypeError, NameError):  # NameError: while the 52 instances are being created
            if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 52:
                return int.__new__(cls, index)
            raise InvalidCardError(f"not a card index (0..51): {index!r}") from None

    # -- construction -------------------------------------------------------------------------------------
    @classmethod
    def of(cls, rank: int, suit: str | int) -> Card:
        """The card of ``rank`` (1 = ace … 13 = king) and ``suit`` (``"S"``/``"H"``/``"D"``/``"C"`` or 0..3).

        Raises:
            InvalidCardError: if rank or suit is out of range.
        """
        if isinstance(suit, str):
            s = SUITS.find(_SUIT_SYMBOLS.get(suit, suit.upper())) if len(suit) == 1 else -1
        else:
            s = suit
        if not (isinstance(rank, int) and 1 <= rank <= 13) or not (0 <= s <= 3):
            raise InvalidCardError(f"no card has rank {rank!r} and suit {suit!r}")
        return _CARDS[(rank - 1) * 4 + s]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse card notation: ``"9H"``, ``"TD"``, ``"10D"``, ``"10♦"``, ``"a♠"`` (case-insensitive).

        Returns:
            The card.
        Raises:
            InvalidCardError: with the offending text and the expected form.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(f"a card must be written as text such as '9H', got {text!r}")
        card = _PARSE_CACHE.get(text)
        if card is not None:
            return card
        t = text.strip()
        if len(t) >= 2:
            rank_part, suit_part = t[:-1].upper(), _SUIT_SYMBOLS.get(t[-1], t[-1].upper())
            if rank_part == "10":
                rank_part = "T"
            if len(rank_part) == 1 and rank_part in RANKS and suit_part in SUITS:
                return _CARDS[RANKS.index(rank_part) * 4 + SUITS.index(suit_part)]
        raise InvalidCardError(
            f"malformed card {text!r}: write rank A 2-9 T J Q K (or 10) then suit S H D C (or ♠♥♦♣), e.g. '9H', 'TD'"
        )

    # -- properties ---------------------------------------------------------------------------------------
    @property
    def rank(self) -> int:
        """Rank 1 (ace) .. 13 (king)."""
        return int(self) // 4 + 1

    @property
    def suit(self) -> str:
        """Suit letter ``S``, ``H``, ``D`` or ``C``."""
        return SUITS[int(self) % 4]

    @property
    def suit_index(self) -> int:
        """Suit as 0..3 in the order S, H, D, C."""
        return int(self) % 4

    @property
    def name(self) -> str:
        """English name, e.g. ``"ten of diamonds"``."""
        return f"{_RANK_NAMES[self.rank - 1]} of {_SUIT_NAMES[self.suit_index]}"

    @property
    def symbol(self) -> str:
        """Notation with a suit symbol, e.g. ``"T♦"``."""
        return RANKS[self.rank - 1] + "♠♥♦♣"[self.suit_index]

    def __str__(self) -> str:
        return _NOTATION[int(self)]

    def __repr__(self) -> str:
        return f"Card.parse({_NOTATION[int(self)]!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _bad_index(index: object) -> Card:
    raise InvalidCardError(f"not a card index (0..51): {index!r}")


_NOTATION: Final = tuple(r + s for r in RANKS for s in SUITS)
_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
_PARSE_CACHE: Final[dict[str, Card]] = {n: c for n, c in zip(_NOTATION, _CARDS, strict=True)}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: ``"9H TD 2S"``, ``"9H,TD,2S"`` or an iterable of card strings.

    Returns:
        The cards in the given order (duplicates kept: the caller decides whether they are allowed).
    Raises:
        InvalidCardError: on the first malformed card.
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Canonical notation of ``cards`` joined by ``sep`` (order kept)."""
    return sep.join(_NOTATION[int(c)] for c in cards)


def full_deck(packs: int = 1) -> list[Card]:
    """``packs`` standard 52-card packs without jokers, in canonical order (``52 * packs`` cards).

    Raises:
        ValueError: if ``packs`` is not a positive integer.
    """
    if not isinstance(packs, int) or packs < 1:
        raise ValueError(f"packs must be a positive integer, got {packs!r}")
    return [c for c in _CARDS for _ in range(packs)]


def shuffled_deck(rng: random.Random, packs: int = 1) -> list[Card]:
    """A uniformly shuffled deck of ``packs`` packs, drawn from the injected generator ``rng`` only.

    Engines stay pure by never touching global randomness: the same ``rng`` state gives the same order.
    """
    deck = full_deck(packs)
    rng.shuffle(deck)
    return deck
