"""Mulle moves: small frozen values whose ``str()`` is the canonical notation of the rules spec §5.2.

| move            | class       | notation                                   |
|-----------------|-------------|--------------------------------------------|
| capture         | Capture     | ``C 8C x {2D,2H,4S,8S}``, ``C 8H x {8S,[B1]}`` |
| trail           | Trail       | ``T 5C``                                   |
| create a build  | Build       | ``B 3C on 5H =8 +pkg{2D+6S}``              |
| raise           | Raise       | ``R 2D -> [B1] =10``                       |
| build down      | BuildDown   | ``D 3D -> [B1] =6``                        |
| package         | Package     | ``P 6D+2H -> [B1]``                        |
| lay on (ligger) | LayOn       | ``L 9D -> [B1]``                           |
| chance: shuffle | Shuffle     | ``shuffle dealer=P? <104 cards>`` (never in records)      |

Canonical form (§5.2): cards in braces in card order (rank A..K, then suit S, H, D, C), loose cards before
builds, builds by number; ``+pkg`` pairs likewise.  The constructors normalise, so two moves that differ only in
the order of their cards are equal, and ``parse_move_text(str(m)) == m``.  :func:`parse_move_text` accepts any
order and spacing, ``10D`` and suit symbols.  Resolving notation against a position is
:func:`kortbord.mulle.engine.parse_move`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, TypeAlias

from kortbord.cards import Card
from kortbord.errors import InvalidCardError, InvalidMoveError

__all__ = [
    "Build",
    "BuildDown",
    "Capture",
    "LayOn",
    "Move",
    "Package",
    "PlayerMove",
    "Raise",
    "Shuffle",
    "Trail",
    "build_sort_key",
    "parse_move_text",
]


def build_sort_key(build_id: str) -> tuple[int, str]:
    """Sort key of a build id: ``B2`` before ``B10``."""
    digits = build_id[1:]
    return (int(digits), build_id) if digits.isdigit() else (1 << 30, build_id)


def _cards(cards: Iterable[int]) -> tuple[Card, ...]:
    return tuple(Card(c) for c in sorted(cards))


def _pairs(pairs: Iterable[Iterable[int]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(sorted(_cards(p) for p in pairs))


def _fmt(cards: Iterable[int]) -> str:
    return ",".join(str(Card(c)) for c in cards)


def _pkg(pairs: tuple[tuple[Card, ...], ...]) -> str:
    if not pairs:
        return ""
    return " +pkg{" + ",".join("+".join(str(c) for c in p) for p in pairs) + "}"


@dataclass(frozen=True, slots=True)
class Capture:
    """M1 capture (spec §2.6): ``card`` from the hand takes ``loose`` table cards and the builds ``builds``.

    ``loose`` is sorted canonically, ``builds`` holds build ids (``"B1"``) sorted by number.
    """

    card: Card
    loose: tuple[Card, ...] = ()
    builds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))
        object.__setattr__(self, "loose", _cards(self.loose))
        object.__setattr__(self, "builds", tuple(sorted(self.builds, key=build_sort_key)))

    def __str__(self) -> str:
        parts = [str(c) for c in self.loose] + [f"[{b}]" for b in self.builds]
        return f"C {self.card} x {{{','.join(parts)}}}"


@dataclass(frozen=True, slots=True)
class Trail:
    """M7 trail (spec §2.6): ``card`` is laid face up as a loose table card."""

    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))

    def __str__(self) -> str:
        return f"T {self.card}"


@dataclass(frozen=True, slots=True)
class Build:
    """M2 create a build (spec §2.6): ``card`` on the loose cards ``on``, announcing ``value`` (2..16).

    ``pkg`` lists loose table pairs (each worth ``value``) packed into the new build, which locks it.
    """

    card: Card
    on: tuple[Card, ...]
    value: int
    pkg: tuple[tuple[Card, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))
        object.__setattr__(self, "on", _cards(self.on))
        object.__setattr__(self, "pkg", _pairs(self.pkg))

    def __str__(self) -> str:
        on = "+".join(str(c) for c in self.on)
        return f"B {self.card} on {on} ={self.value}{_pkg(self.pkg)}"


@dataclass(frozen=True, slots=True)
class Raise:
    """M3 raise (spec §2.6): ``card`` added to the open build ``build``; its new value is ``value``."""

    card: Card
    build: str
    value: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))

    def __str__(self) -> str:
        return f"R {self.card} -> [{self.build}] ={self.value}"


@dataclass(frozen=True, slots=True)
class BuildDown:
    """M4 build down (spec §2.6): ``card`` added to the open build ``build``, lowering it to ``value``."""

    card: Card
    build: str
    value: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))

    def __str__(self) -> str:
        return f"D {self.card} -> [{self.build}] ={self.value}"


@dataclass(frozen=True, slots=True)
class Package:
    """M5 package (spec §2.6): ``card`` plus the loose cards ``loose`` (together worth the build's value) are
    added to ``build``, which locks it; ``pkg`` are further loose pairs packed in."""

    card: Card
    loose: tuple[Card, ...]
    build: str
    pkg: tuple[tuple[Card, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))
        object.__setattr__(self, "loose", _cards(self.loose))
        object.__setattr__(self, "pkg", _pairs(self.pkg))

    def __str__(self) -> str:
        return f"P {'+'.join(str(c) for c in (self.card, *self.loose))} -> [{self.build}]{_pkg(self.pkg)}"


@dataclass(frozen=True, slots=True)
class LayOn:
    """M6 lay on, *ligger* (spec §2.6): ``card``, worth the build's value, is laid on ``build`` and locks it."""

    card: Card
    build: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", Card(self.card))

    def __str__(self) -> str:
        return f"L {self.card} -> [{self.build}]"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The chance move that starts a round: the stock order ``deck`` (104 cards, dealt from the front) and,
    for the first round of a game whose dealer was not fixed, the chosen ``dealer`` seat (0-based)."""

    deck: tuple[Card, ...]
    dealer: int | None = None

    def __str__(self) -> str:
        d = "" if self.dealer is None else f" dealer={self.dealer}"
        return f"shuffle{d} {' '.join(str(c) for c in self.deck)}"

    def __repr__(self) -> str:  # never print 104 cards by accident in a log line
        return f"Shuffle(<{len(self.deck)} cards>, dealer={self.dealer!r})"


PlayerMove: TypeAlias = Capture | Trail | Build | Raise | BuildDown | Package | LayOn
Move: TypeAlias = PlayerMove | Shuffle

_CARD: Final = r"(?:10|[A2-9TJQK])[SHDC♠♥♦♣♤♡♢♧]"
#: Numbers in move notation are ASCII digits, a few of them: a build id B1..B9999, a value of at most 3 digits.
_ID: Final = r"\[\s*(B[0-9]{1,4})\s*\]"
_VALUE: Final = r"(?P<value>[0-9]{1,3})"
_PKG: Final = r"(?:\s*\+\s*pkg\s*\{(?P<pkg>[^}]*)\})?"
_RE_CAPTURE: Final = re.compile(rf"^C\s+(?P<card>{_CARD})\s*x\s*\{{(?P<items>[^}}]*)\}}$", re.I)
_RE_TRAIL: Final = re.compile(rf"^T\s+(?P<card>{_CARD})$", re.I)
_RE_BUILD: Final = re.compile(
    rf"^B\s+(?P<card>{_CARD})\s+on\s+(?P<on>{_CARD}(?:\s*\+\s*{_CARD})*)\s*=\s*{_VALUE}{_PKG}$", re.I
)
_RE_RAISE: Final = re.compile(rf"^(?P<kind>[RD])\s+(?P<card>{_CARD})\s*->\s*{_ID}\s*=\s*{_VALUE}$", re.I)
_RE_PACKAGE: Final = re.compile(rf"^P\s+(?P<cards>{_CARD}(?:\s*\+\s*{_CARD})+)\s*->\s*{_ID}{_PKG}$", re.I)
_RE_LAYON: Final = re.compile(rf"^L\s+(?P<card>{_CARD})\s*->\s*{_ID}$", re.I)
_RE_SHUFFLE: Final = re.compile(r"^shuffle(?:\s+dealer=(?P<dealer>[0-9]{1,2}))?(?P<deck>(?:\s+\S+)*)$", re.I)


def _short(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: a 5000-character input does not flood the error message."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def _split_cards(text: str, sep: str) -> list[Card]:
    return [Card.parse(t) for t in re.split(sep, text.strip()) if t.strip()]


def _parse_pkg(text: str | None) -> tuple[tuple[Card, ...], ...]:
    if text is None:
        return ()
    pairs = []
    for chunk in text.split(","):
        if chunk.strip():
            pair = _split_cards(chunk, r"\s*\+\s*")
            if len(pair) < 2:
                raise InvalidMoveError(f"a packed table combination is written a+b, got {chunk.strip()!r}")
            pairs.append(tuple(pair))
    if not pairs:
        raise InvalidMoveError("'+pkg{}' must list at least one pair such as +pkg{2D+6S}")
    return _pairs(pairs)


def parse_move_text(text: str) -> Move:
    """Parse move notation without a position (spec §5.2); any order and spacing of the listed cards.

    Returns:
        The move value (cards sorted canonically).
    Raises:
        InvalidMoveError: the text is not move notation (the message shows the accepted forms).
        InvalidCardError is reported as InvalidMoveError naming the bad card.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text such as 'T 5C', got {_short(text)}")
    t = " ".join(text.split())
    try:
        if m := _RE_CAPTURE.match(t):
            loose: list[Card] = []
            builds: list[str] = []
            for item in re.split(r"[,\s]+", m["items"].strip()):
                if not item:
                    continue
                if item.startswith("["):
                    bid = item.strip("[]").upper()
                    if not re.fullmatch(r"B[0-9]{1,4}", bid):
                        raise InvalidMoveError(f"malformed build reference {_short(item)}: write [B1]")
                    builds.append(bid)
                else:
                    loose.append(Card.parse(item))
            if not loose and not builds:
                raise InvalidMoveError("a capture must name what it takes, e.g. 'C 8C x {8S}'")
            return Capture(Card.parse(m["card"]), tuple(loose), tuple(builds))
        if m := _RE_TRAIL.match(t):
            return Trail(Card.parse(m["card"]))
        if m := _RE_BUILD.match(t):
            on = _split_cards(m["on"], r"\s*\+\s*")
            return Build(Card.parse(m["card"]), tuple(on), int(m["value"]), _parse_pkg(m["pkg"]))
        if m := _RE_RAISE.match(t):
            cls = Raise if m["kind"].upper() == "R" else BuildDown
            return cls(Card.parse(m["card"]), m[3].upper(), int(m["value"]))
        if m := _RE_PACKAGE.match(t):
            cards = _split_cards(m["cards"], r"\s*\+\s*")
            return Package(cards[0], tuple(cards[1:]), m[2].upper(), _parse_pkg(m["pkg"]))
        if m := _RE_LAYON.match(t):
            return LayOn(Card.parse(m["card"]), m[2].upper())
        if m := _RE_SHUFFLE.match(t):
            deck = tuple(Card.parse(c) for c in m["deck"].split())
            return Shuffle(deck, None if m["dealer"] is None else int(m["dealer"]))
    except InvalidCardError as exc:
        raise InvalidMoveError(f"malformed move {_short(text)}: {exc}") from None
    raise InvalidMoveError(
        f"malformed move {_short(text)}: write one of 'C 8C x {{2D,6S,[B1]}}', 'T 5C', 'B 3C on 5H =8', "
        "'R 2D -> [B1] =10', 'D 3D -> [B1] =6', 'P 6D+2H -> [B1]', 'L 9D -> [B1]'"
    )
