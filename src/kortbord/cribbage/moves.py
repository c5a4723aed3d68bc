"""Cribbage moves: small frozen values with a canonical notation, and the context-free parser.

Notation (``str(move)``; :func:`parse_move` reads it back, ``parse_move(str(m)) == m``):

=================  ==========================  ==========================================================
move               canonical notation          also accepted by the parser
=================  ==========================  ==========================================================
Discard            ``discard 5D 5H``           ``d 5H 5D``, ``discard 5H,5D``, ``throw 5H 5D``
                   (cards in canonical order)  (the engine's ``parse_move`` also takes bare ``5H 5D``)
Play               ``9H``                      ``play 9H``, ``p 9H``, ``9♥``, ``10H``
Go                 ``go``                      ``pass``
Announce           ``count 12``                ``announce 12``  (0..29, spec §2.10 M2)
Accept             ``accept``                  ``ok``
MugginsCall        ``muggins 3``               ``m 3``  (1..29, spec §2a)
Overcount          ``overcount``               ``over``
CutForDeal (ch.)   ``cut 4C KD``               one card per seat, seat 0 first (spec §2.2)
Shuffle (chance)   ``shuffle AS 2H ...``       the 52 cards, top of the pack first
=================  ==========================  ==========================================================

Moves carry no seat: the engine applies a move for ``to_act(state)``.  Identical moves compare equal and hash
alike; the engine hands out shared instances (``Play.of(card)``) to keep ``legal_moves`` cheap.

Errors: malformed text and out-of-range numbers raise :class:`~kortbord.errors.InvalidMoveError`; a malformed
card raises :class:`~kortbord.errors.InvalidCardError` wrapped as ``InvalidMoveError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kortbord.cards import Card, format_cards
from kortbord.errors import InvalidCardError, InvalidMoveError

__all__ = [
    "MAX_ANNOUNCE",
    "Accept",
    "Announce",
    "CutForDeal",
    "Discard",
    "Go",
    "Move",
    "MugginsCall",
    "Overcount",
    "Play",
    "Shuffle",
    "parse_move",
]

#: Highest count a player may announce or name in a muggins call (a 29 hand is the maximum; spec §2.10 M2, §2a).
MAX_ANNOUNCE: Final = 29


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay ``cards`` away to the crib (2 cards with 2 players, 1 with 3 or 4; spec §2.2).

    ``cards`` is kept in canonical card order, so ``Discard((5H, 5D)) == Discard((5D, 5H))``.

    Raises:
        InvalidMoveError: no cards, more than two, or the same card twice.
    """

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = tuple(sorted(Card.parse(c) if isinstance(c, str) else Card(c) for c in self.cards))
        if not 1 <= len(cards) <= 2:
            raise InvalidMoveError(f"a discard lays away 1 or 2 cards, got {len(cards)}")
        if len(set(cards)) != len(cards):
            raise InvalidMoveError(f"a discard names the same card twice: {format_cards(cards)}")
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return "discard " + format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``card`` in the play (pegging; spec §2.4). Notation: the card, ``9H``."""

    card: Card

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            object.__setattr__(self, "card", Card.parse(self.card) if isinstance(self.card, str) else Card(self.card))

    @staticmethod
    def of(card: Card) -> Play:
        """The shared ``Play`` instance for ``card`` (a fast, allocation-free constructor)."""
        return _PLAYS[card]

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Go:
    """Say go: the player holds cards but none fits under 31 (spec §2.4 item 2)."""

    def __str__(self) -> str:
        return "go"


@dataclass(frozen=True, slots=True)
class Announce:
    """Muggins: the counter announces ``points`` (0..29) for his hand or crib; pegged at once (spec §2.10 M2).

    Raises:
        InvalidMoveError: ``points`` outside 0..29.
    """

    points: int

    def __post_init__(self) -> None:
        if type(self.points) is not int or not 0 <= self.points <= MAX_ANNOUNCE:
            raise InvalidMoveError(
                f"an announced count is a whole number from 0 to {MAX_ANNOUNCE} (spec §2.10 M2), got {self.points!r}"
            )

    @staticmethod
    def of(points: int) -> Announce:
        """The shared instance for ``points`` (0..29)."""
        return _ANNOUNCES[points]

    def __str__(self) -> str:
        return f"count {self.points}"


@dataclass(frozen=True, slots=True)
class Accept:
    """Muggins response: accept the announced count (spec §2.10 M3)."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class MugginsCall:
    """Muggins response: claim the counter missed ``points`` (1..29; spec §2.10 M3, M5, M6, §2a).

    Raises:
        InvalidMoveError: ``points`` outside 1..29.
    """

    points: int

    def __post_init__(self) -> None:
        if type(self.points) is not int or not 1 <= self.points <= MAX_ANNOUNCE:
            raise InvalidMoveError(
                f"a muggins call names a whole number of missed points from 1 to {MAX_ANNOUNCE} (spec §2a), "
                f"got {self.points!r}"
            )

    @staticmethod
    def of(points: int) -> MugginsCall:
        """The shared instance for ``points`` (1..29)."""
        return _CALLS[points - 1]

    def __str__(self) -> str:
        return f"muggins {self.points}"


@dataclass(frozen=True, slots=True)
class Overcount:
    """Muggins response: claim the counter announced too much (spec §2.10 M3, M7, M8)."""

    def __str__(self) -> str:
        return "overcount"


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """Chance move: the cards cut for first deal, one per seat, seat 0 first (spec §2.2). Public.

    Raises:
        InvalidMoveError: fewer than 2 or more than 4 cards, or a card twice.
    """

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = tuple(Card.parse(c) if isinstance(c, str) else Card(c) for c in self.cards)
        if not 2 <= len(cards) <= 4 or len(set(cards)) != len(cards):
            raise InvalidMoveError(f"a cut for deal is 2 to 4 different cards, one per seat, got {cards!r}")
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return "cut " + format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance move: the order of the 52-card pack for one deal, top card first (spec §2.2).

    The deal takes cards from the top, one at a time from the dealer's left; the starter is the top card of the
    stock left after the deal (an unbiased stand-in for the pone's cut, spec §2.3).

    Raises:
        InvalidMoveError: not a permutation of the 52 cards.
    """

    deck: tuple[Card, ...]

    def __post_init__(self) -> None:
        deck = self.deck
        if type(deck) is not tuple or any(type(c) is not Card for c in deck):
            deck = tuple(Card.parse(c) if isinstance(c, str) else Card(c) for c in deck)
            object.__setattr__(self, "deck", deck)
        if len(deck) != 52 or len(set(deck)) != 52:
            raise InvalidMoveError("a shuffle must order all 52 cards of the pack exactly once")

    def __str__(self) -> str:
        return "shuffle " + format_cards(self.deck)


#: Any cribbage move (decision or chance).
Move = Discard | Play | Go | Announce | Accept | MugginsCall | Overcount | CutForDeal | Shuffle

GO: Final = Go()
ACCEPT: Final = Accept()
OVERCOUNT: Final = Overcount()
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(Card(i)) for i in range(52))
_ANNOUNCES: Final[tuple[Announce, ...]] = tuple(Announce(n) for n in range(MAX_ANNOUNCE + 1))
_CALLS: Final[tuple[MugginsCall, ...]] = tuple(MugginsCall(n) for n in range(1, MAX_ANNOUNCE + 1))

_WORDS: Final = {
    "discard": "discard",
    "d": "discard",
    "throw": "discard",
    "play": "play",
    "p": "play",
    "go": "go",
    "pass": "go",
    "count": "count",
    "announce": "count",
    "accept": "accept",
    "ok": "accept",
    "muggins": "muggins",
    "m": "muggins",
    "overcount": "overcount",
    "over": "overcount",
    "cut": "cut",
    "shuffle": "shuffle",
}


#: A number in move notation: ASCII digits, a minus sign allowed (then refused by the move's own range check with
#: its rule) -- not what Python's ``int`` takes besides (``1_2``, ``+12``, ``١٢``, full-width digits).
_NUMBER: Final = re.compile(r"-?[0-9]+")


def _number(word: str, text: str) -> int:
    if _NUMBER.fullmatch(word) is None:
        raise InvalidMoveError(f"expected a whole number in {text!r}, got {word!r}")
    return int(word)


def _cards(words: list[str], text: str) -> list[Card]:
    try:
        return [Card.parse(w) for w in words]
    except InvalidCardError as error:
        raise InvalidMoveError(f"in move {text!r}: {error}") from None


def parse_move(text: str) -> Move:
    """Parse move notation without a position (see the module table for the forms).

    Bare cards are read as a :class:`Play` (one card) or a :class:`Discard` (two cards); resolving a bare card
    to a one-card discard needs the position: use ``kortbord.cribbage.engine.parse_move(state, text)``.

    Returns:
        The move.
    Raises:
        InvalidMoveError: empty or malformed text, a bad card, a number out of range, a wrong number of words.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text such as '9H', 'go' or 'discard 5H 5D', got {text!r}")
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidMoveError("empty move: write e.g. '9H', 'go', 'discard 5H 5D', 'count 12', 'muggins 3'")
    head = _WORDS.get(words[0].lower())
    rest = words[1:]
    if head is None:
        cards = _cards(words, text)
        if len(cards) == 1:
            return Play.of(cards[0])
        if len(cards) == 2:
            return Discard(tuple(cards))
        raise InvalidMoveError(f"cannot read {text!r} as a move: one card is a play, two cards a discard")
    if head in ("go", "accept", "overcount"):
        if rest:
            raise InvalidMoveError(f"{head!r} takes no argument, got {text!r}")
        return GO if head == "go" else ACCEPT if head == "accept" else OVERCOUNT
    if head in ("count", "muggins"):
        if len(rest) != 1:
            raise InvalidMoveError(f"{head!r} takes one number, e.g. '{head} 12', got {text!r}")
        n = _number(rest[0], text)
        return Announce(n) if head == "count" else MugginsCall(n)
    cards = _cards(rest, text)
    if head == "play":
        if len(cards) != 1:
            raise InvalidMoveError(f"a play names one card, e.g. 'play 9H', got {text!r}")
        return Play.of(cards[0])
    if head == "discard":
        return Discard(tuple(cards))
    if head == "cut":
        return CutForDeal(tuple(cards))
    return Shuffle(tuple(cards))
