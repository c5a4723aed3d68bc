"""Cribbage scoring: the show (a hand or the crib with the starter) and the play (pegging). The one place these
rules live.

Rules source: ``../shared/rules/cribbage.md`` -- §2.1 (card values, rank order, pairs by rank), §2.3 (nobs and
the jack starter), §2.4 step 3 (points for the card just laid), §2.5 (the show), §3 (the reference distribution
of every hand), §6 item 1 (keep the play and the show pure and separate; check against §3).

Each rule is written once, at card level, in the private helpers below:

* :func:`_is_fifteen`, :func:`_same_rank`, :func:`_is_run` -- fifteen, pair and run (spec §2.1, §2.5);
* :func:`_fifteen_groups`, :func:`_pair_groups`, :func:`_run_groups` -- the rank part of the show;
* :func:`_flush_points` and :func:`_nobs_jack` -- the suit part of the show.
* :func:`_score_last` and :func:`_run_length` -- the card just laid in the play (spec §2.4 step 3).

The fast paths only *cache* those rules: :func:`show_total` memoises the rank part per 5-rank multiset, and
:func:`show_totals_all` (NumPy, every one of the 12,994,800 hand/starter pairs at once) looks the rank part up
in a table over sorted rank tuples and the flush in a table over suit patterns, both filled by calling the
helpers. The exhaustive test (spec §3) and the property tests check that every path agrees.

Points are cribbage points (holes on the board). Cards are :class:`kortbord.cards.Card` values; the functions
also accept card notation (``"5H"``, ``"TD"``, ``"10♦"``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, Final

from kortbord.cards import Card
from kortbord.cribbage.state import Reason
from kortbord.errors import IllegalMoveError, InvalidCardError, InvalidPositionError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HAND_SIZE",
    "IMPOSSIBLE_SHOW_SCORES",
    "MAX_COUNT",
    "MAX_SHOW_SCORE",
    "PAIR_CODES",
    "SHOW_PAIRS",
    "PlayScore",
    "ScoringGroup",
    "ShowScore",
    "all_five_card_sets",
    "card_value",
    "play_points_per_card",
    "score_play",
    "score_show",
    "show_distribution",
    "show_total",
    "show_totals_all",
]

#: Cards in a hand or crib at the show (spec §2.2 table, §2.5).
HAND_SIZE: Final = 4
#: The running count of the play may never pass 31 (spec §2.4 step 2, step 9).
MAX_COUNT: Final = 31
#: Highest show score: 5-5-5-J with the fourth 5 turned up in the jack's suit (spec §2.5 "Maxima").
MAX_SHOW_SCORE: Final = 29
#: Show scores no hand or crib can make (spec §3 "Impossible scores").
IMPOSSIBLE_SHOW_SCORES: Final = frozenset({19, 25, 26, 27})
#: Number of (hand, starter) pairs: C(52, 4) hands x 48 starters = C(52, 5) x 5 (spec §3).
SHOW_PAIRS: Final = 12_994_800

_FIFTEEN: Final = 15
_JACK: Final = 11
#: Counting value by card index: A = 1, 2-9 face value, 10/J/Q/K = 10 (spec §2.1).
_VALUE: Final[tuple[int, ...]] = tuple(min(i // 4 + 1, 10) for i in range(52))
#: Rank 0..12 (ace .. king) by card index.
_RANK: Final[tuple[int, ...]] = tuple(i // 4 for i in range(52))
#: Points for the last k cards of one rank laid in a row, or k cards of one rank in a show (spec §2.4, §2.5).
_PAIR_POINTS: Final = (0, 0, 2, 6, 12)
#: Base-5 digit of each card's rank: the sum over five cards identifies their rank multiset.
_RANK_KEY: Final[tuple[int, ...]] = tuple(5 ** (i // 4) for i in range(52))


# ---------------------------------------------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoringGroup:
    """One scoring combination of the show.

    Attributes:
        kind: ``"fifteen"``, ``"pair"``, ``"run"``, ``"flush"`` or ``"nobs"``.
        cards: the cards that make it, in card order (rank, then suit S H D C).
        points: what it scores (2 per fifteen or pair, the length per run, 4 or 5 per flush, 1 for nobs).
    """

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.cards))} for {self.points}"

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "cards" (notation, card order), "points"}``."""
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The score of a hand or crib with the starter (spec §2.5), with every scoring group.

    Attributes:
        total: points, the sum of the five parts (and of ``groups``' points).
        fifteens: 2 per distinct subset of the five cards worth 15.
        pairs: 2 per pair of equal rank (three of a kind 6, four 12).
        runs: the longest run length times the number of distinct runs of that length.
        flush: 0, 4 or 5 (a crib scores only 5).
        nobs: 1 for the jack of the starter's suit in the hand, else 0.
        groups: the scoring groups in counting order: fifteens, pairs, runs, flush, nobs.
    """

    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    groups: tuple[ScoringGroup, ...]

    def breakdown(self) -> dict[str, int]:
        """The points of each part: ``{"fifteens", "pairs", "runs", "flush", "nobs"}`` -> points (spec §3a)."""
        return {
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
        }

    def groups_json(self) -> list[dict[str, Any]]:
        """The scoring groups in counting order as JSON (:meth:`ScoringGroup.to_json`): what a ``show`` event
        carries, and what :func:`kortbord.i18n.cribbage.callout` says as the spoken count."""
        return [g.to_json() for g in self.groups]


@dataclass(frozen=True, slots=True)
class PlayScore:
    """The points earned by the card just laid in the play (spec §2.4 step 3), go/last card excluded.

    Attributes:
        points: the sum of the four parts.
        fifteen: 2 if the count is now exactly 15, else 0.
        thirty_one: 2 if the count is now exactly 31, else 0.
        pairs: 2, 6 or 12 if the last 2, 3 or 4 cards laid share a rank, else 0.
        run: L for the longest L >= 3 such that the last L cards are L distinct consecutive ranks, else 0.
        reasons: the code of each scoring part, in this order: ``"fifteen"``, ``"thirty_one"``, one of ``"pair"``,
            ``"pair_royal"``, ``"double_pair_royal"``, and ``"run"`` (e.g. ``("fifteen", "run")``); the words
            for people are in :mod:`kortbord.i18n` (``peg.<code>``).
    """

    points: int
    fifteen: int
    thirty_one: int
    pairs: int
    run: int
    reasons: tuple[str, ...]


# ---------------------------------------------------------------------------------------------------------------
# The rules, once (spec §2.1, §2.3, §2.4, §2.5)
# ---------------------------------------------------------------------------------------------------------------


def card_value(card: Card | str) -> int:
    """The counting value of ``card`` (points toward 15 and 31): A = 1, 2-9 face value, 10/J/Q/K = 10 (spec §2.1).

    Raises:
        InvalidCardError: if ``card`` is not a card (or malformed notation).
    """
    return _VALUE[_as_card(card)]


def _is_fifteen(cards: Sequence[int]) -> bool:
    """Cards whose values total exactly 15 (spec §2.4 step 3, §2.5 "Fifteens")."""
    return sum(map(_VALUE.__getitem__, cards)) == _FIFTEEN


def _same_rank(a: int, b: int) -> bool:
    """Equal rank (not equal value: 10-J is no pair; spec §2.1)."""
    return a // 4 == b // 4


def _is_run(cards: Sequence[int]) -> bool:
    """Distinct ranks forming one consecutive block, any order, ace low, no wrap-around (spec §2.1, §2.4, §2.5)."""
    ranks = set(map(_RANK.__getitem__, cards))
    return len(ranks) == len(cards) and max(ranks) - min(ranks) == len(cards) - 1


def _fifteen_groups(cards: Sequence[Card]) -> list[ScoringGroup]:
    """Every distinct subset (2-5 cards) worth 15 scores 2 (spec §2.5)."""
    return [
        ScoringGroup("fifteen", combo, 2)
        for size in range(2, len(cards) + 1)
        for combo in combinations(cards, size)
        if _is_fifteen(combo)
    ]


def _pair_groups(cards: Sequence[Card]) -> list[ScoringGroup]:
    """Every pair of equal rank scores 2; three of a kind is three pairs, four of a kind six (spec §2.5)."""
    return [ScoringGroup("pair", (a, b), 2) for a, b in combinations(cards, 2) if _same_rank(a, b)]


def _run_groups(cards: Sequence[Card]) -> list[ScoringGroup]:
    """Runs: the longest length L (5, 4 or 3) with a run, L points for each distinct L-card run (spec §2.5)."""
    for size in range(len(cards), 2, -1):
        runs = [ScoringGroup("run", combo, size) for combo in combinations(cards, size) if _is_run(combo)]
        if runs:
            return runs
    return []


def _flush_points(s0: int, s1: int, s2: int, s3: int, starter_suit: int, crib: bool) -> int:
    """Flush points from the four hand suits and the starter's suit (spec §2.5 "Flush").

    A hand scores 4 for four cards of one suit, 5 if the starter matches too; a crib only 5, for all five. Three
    hand cards and the starter of one suit score nothing.
    """
    if not s0 == s1 == s2 == s3:
        return 0
    if starter_suit == s0:
        return 5
    return 0 if crib else 4


def _nobs_jack(starter: int) -> int:
    """The card that scores nobs with ``starter``: the jack of its suit (spec §2.5 "Nobs").

    When the starter is itself a jack this is the starter, which is never in the hand: a jack starter gives no
    nobs (spec §2.3).
    """
    return (_JACK - 1) * 4 + starter % 4


#: Suit index (S H D C = 0..3) and the nobs jack (:func:`_nobs_jack`) by card index, for the fast paths.
_SUIT: Final[tuple[int, ...]] = tuple(i % 4 for i in range(52))
_NOBS_JACK: Final[tuple[int, ...]] = tuple(_nobs_jack(i) for i in range(52))


# ---------------------------------------------------------------------------------------------------------------
# The show
# ---------------------------------------------------------------------------------------------------------------


def _as_card(card: object) -> Card:
    if type(card) is Card:
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise InvalidCardError(f"not a card: {card!r} (give a Card or notation such as '9H')")


def _check_show(hand: Sequence[Card | str], starter: Card | str) -> tuple[Card, Card, Card, Card, Card]:
    """Validate a show: exactly 4 distinct hand cards and a starter not among them. Returns them as cards."""
    if isinstance(hand, str) or len(hand) != HAND_SIZE:
        got = hand if isinstance(hand, str) else f"{len(hand)}: {' '.join(map(str, hand))}"
        raise InvalidPositionError(f"a hand or crib at the show has exactly {HAND_SIZE} cards, got {got}")
    a, b, c, d = (_as_card(x) for x in hand)
    s = _as_card(starter)
    if len({a, b, c, d, s}) != HAND_SIZE + 1:
        if len({a, b, c, d}) != HAND_SIZE:
            twice = sorted(card for card, n in Counter((a, b, c, d)).items() if n > 1)
            raise InvalidCardError(f"duplicate card in the hand: {' '.join(map(str, twice))} (one pack, spec §2.1)")
        raise InvalidCardError(f"the starter {s} is also in the hand (one pack, spec §2.1)")
    return a, b, c, d, s


def score_show(hand: Sequence[Card | str], starter: Card | str, *, crib: bool = False) -> ShowScore:
    """Score a hand or the crib with the starter, with every scoring group (spec §2.5).

    Args:
        hand: exactly 4 distinct cards (order does not matter).
        starter: the starter (cut card), not one of ``hand``.
        crib: score as the crib: only a five-card flush counts (spec §2.5 "Flush, in the crib").

    Returns:
        The :class:`ShowScore`: total points, the five parts and the scoring groups. The result does not depend on
        the order of ``hand``.
    Raises:
        InvalidPositionError: if ``hand`` does not hold exactly 4 cards.
        InvalidCardError: on a malformed card, a duplicate card, or a starter that is also in the hand.
    """
    a, b, c, d, s = _check_show(hand, starter)
    five = sorted((a, b, c, d, s))
    pattern, (fifteens, pairs, runs) = _rank_pattern(tuple(card // 4 for card in five))
    groups = [ScoringGroup(kind, tuple(five[i] for i in where), points) for kind, where, points in pattern]
    flush = _flush_points(_SUIT[a], _SUIT[b], _SUIT[c], _SUIT[d], _SUIT[s], crib)
    if flush:
        groups.append(ScoringGroup("flush", tuple(five) if flush == 5 else tuple(sorted((a, b, c, d))), flush))
    jack = _NOBS_JACK[s]
    nobs = 1 if jack in (a, b, c, d) else 0
    if nobs:
        groups.append(ScoringGroup("nobs", (Card(jack),), 1))
    return ShowScore(
        total=fifteens + pairs + runs + flush + nobs,
        fifteens=fifteens,
        pairs=pairs,
        runs=runs,
        flush=flush,
        nobs=nobs,
        groups=tuple(groups),
    )


_Pattern = tuple[tuple[tuple[str, tuple[int, ...], int], ...], tuple[int, int, int]]


@cache
def _rank_pattern(ranks: tuple[int, ...]) -> _Pattern:
    """The rank part of the show for five cards in card order whose 0-based ranks are ``ranks`` (sorted).

    Fifteens, pairs and runs depend only on the ranks (spec §3 method), so for the 6,175 rank multisets this
    memoises the groups the rules find -- as (kind, positions in the sorted five, points) -- and the fifteens,
    pairs and runs points. Cards of equal rank are interchangeable, so positions fit any five with these ranks.
    """
    seen: Counter[int] = Counter()
    cards = []
    for rank in ranks:  # a representative card per rank occurrence: suits S, H, D, C in turn
        cards.append(Card(rank * 4 + seen[rank]))
        seen[rank] += 1
    position = {card: i for i, card in enumerate(cards)}
    parts = (_fifteen_groups(cards), _pair_groups(cards), _run_groups(cards))
    pattern = tuple((g.kind, tuple(position[c] for c in g.cards), g.points) for part in parts for g in part)
    fifteens, pairs, runs = (sum(g.points for g in part) for part in parts)
    return pattern, (fifteens, pairs, runs)


def _rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens + pairs + runs (points) of five cards with these sorted 0-based ranks."""
    return sum(_rank_pattern(ranks)[1])


_RANK_TOTAL: Final[dict[int, int]] = {}


def show_total(hand: Sequence[Card | str], starter: Card | str, crib: bool = False) -> int:
    """The show total only (points), as :func:`score_show` ``.total`` but fast: the path for bots and checks.

    The rank part (fifteens, pairs, runs) is memoised per 5-rank multiset (6,175 of them); flush and nobs are
    applied per call (spec §3 method).

    Args:
        hand: exactly 4 distinct cards.
        starter: the starter, not one of ``hand``.
        crib: score as the crib (only a five-card flush counts).
    Raises:
        InvalidPositionError, InvalidCardError: as :func:`score_show`.
    """
    if len(hand) == HAND_SIZE and type(starter) is Card:
        a, b, c, d = hand
        if (
            type(a) is Card
            and type(b) is Card
            and type(c) is Card
            and type(d) is Card
            and len({a, b, c, d, starter}) == HAND_SIZE + 1
        ):
            s = starter
        else:
            a, b, c, d, s = _check_show(hand, starter)
    else:
        a, b, c, d, s = _check_show(hand, starter)
    return _show_points(a, b, c, d, s, crib)


def _fill_rank_totals() -> None:
    """Memoise the rank part (:func:`_rank_points`) of every one of the 6,175 five-rank multisets in one pass.

    Done once, on the first miss, from the shipped table :data:`kortbord.cribbage._show_ranks.RANK_POINTS` (made
    by :func:`_rank_points`; a test checks every entry against it): computing the memo from the rules costs about
    40 us a multiset, which every process would pay at its first show.
    """
    from kortbord.cribbage._show_ranks import RANK_POINTS

    for ranks, code in zip(_rank_multisets(), RANK_POINTS, strict=True):
        _RANK_TOTAL[sum(5**r for r in ranks)] = ord(code) - 48  # the key of _RANK_KEY: 5 ** rank per card


def _show_points(a: int, b: int, c: int, d: int, s: int, crib: bool) -> int:
    """:func:`show_total` of the hand ``a b c d`` and starter ``s`` (card indices), without checking them.

    For callers that hold five distinct cards by construction (the engine's automatic show).
    """
    key = _RANK_KEY[a] + _RANK_KEY[b] + _RANK_KEY[c] + _RANK_KEY[d] + _RANK_KEY[s]
    total = _RANK_TOTAL.get(key)
    if total is None:
        _fill_rank_totals()
        total = _RANK_TOTAL[key]
    suit = _SUIT[a]
    if suit == _SUIT[b] == _SUIT[c] == _SUIT[d]:  # no flush without four hand cards of one suit
        total += _flush_points(suit, suit, suit, suit, _SUIT[s], crib)
    jack = _NOBS_JACK[s]
    if a == jack or b == jack or c == jack or d == jack:
        total += 1
    return total


# ---------------------------------------------------------------------------------------------------------------
# Every hand at once (NumPy): the exhaustive check of spec §3 and the scoring benchmark
# ---------------------------------------------------------------------------------------------------------------


def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of ``range(n)`` as rows of increasing numbers, in lexicographic order (1 <= k <= n).

    Built from the (k-1)-subsets of ``range(n - 1)``: the k-subsets starting with ``a`` are ``a`` followed by the
    (k-1)-subsets of ``range(n - 1)`` whose least element is at least ``a`` -- a final block of that lexicographic
    list -- each element plus one.
    """
    import numpy as np

    if k == 1:
        return np.arange(n, dtype=np.uint8)[:, None]
    tails = _combinations(n - 1, k - 1)
    first = tails[:, 0]
    out = np.empty((comb(n, k), k), dtype=np.uint8)
    row = 0
    for a in range(n - k + 1):
        block = tails[int(np.searchsorted(first, a)) :]
        out[row : row + len(block), 0] = a
        np.add(block, 1, out=out[row : row + len(block), 1:])
        row += len(block)
    return out


@cache
def all_five_card_sets() -> npt.NDArray[np.uint8]:
    """Every 5-card set of one pack: shape ``(2_598_960, 5)``, card indices increasing along each row, rows in
    lexicographic order. Read-only, computed once."""
    sets = _combinations(52, 5)
    sets.setflags(write=False)
    return sets


@cache
def _rank_table() -> npt.NDArray[np.int8]:
    """Rank part (fifteens + pairs + runs) indexed by sorted 0-based ranks r0 <= ... <= r4 as a base-13 number.

    Filled from the shipped :data:`kortbord.cribbage._show_ranks.RANK_POINTS` (the rules' :func:`_rank_points` of
    each multiset, checked by a test); -1 for the rank tuples a pack cannot hold (a rank five times).
    """
    import numpy as np

    from kortbord.cribbage._show_ranks import RANK_POINTS

    ranks = np.array(_rank_multisets(), dtype=np.int32)
    index = ranks[:, 0]
    for j in range(1, 5):
        index = index * 13 + ranks[:, j]
    table = np.full(13**5, -1, dtype=np.int8)
    table[index] = np.frombuffer(RANK_POINTS.encode("ascii"), dtype=np.uint8).astype(np.int8) - 48
    return table


def _rank_multisets() -> list[tuple[int, ...]]:
    """Every sorted 5-rank multiset (0-based ranks) a single pack allows: 6,175 (no rank more than 4 times)."""
    from itertools import combinations_with_replacement

    return [r for r in combinations_with_replacement(range(13), 5) if max(Counter(r).values()) <= 4]


@cache
def _flush_table(crib: bool) -> npt.NDArray[np.int8]:
    """Flush points indexed by the suits (s0, s1, s2, s3 of the hand, then the starter's) as a base-4 number."""
    import numpy as np

    table = np.zeros(4**5, dtype=np.int8)
    for i in range(4**5):
        s = [(i >> (2 * (4 - j))) & 3 for j in range(5)]
        table[i] = _flush_points(s[0], s[1], s[2], s[3], s[4], crib)
    return table


@cache
def _suit_table(crib: bool) -> npt.NDArray[np.int8]:
    """Flush + nobs points of five cards for each choice of starter, from their suits and which are jacks.

    Row ``suits << 5 | jacks`` -- ``suits`` the five suits as a base-4 number (first card most significant),
    ``jacks`` bit ``p`` set when card ``p`` is a jack -- column ``k``: the points :func:`_flush_points` and
    :func:`_nobs_jack` give when card ``k`` is the starter and the other four the hand (spec §2.5).  Shape
    ``(32_768, 5)``.
    """
    import numpy as np

    flush = _flush_table(crib)
    suits = np.array([[(i >> (2 * (4 - j))) & 3 for j in range(5)] for i in range(4**5)], dtype=np.int8)
    jacks = (np.arange(32)[:, None] >> np.arange(5)) & 1  # (32, 5): card p is a jack
    table = np.empty((4**5, 32, 5), dtype=np.int8)
    for k in range(5):
        held = [j for j in range(5) if j != k]
        key = np.zeros(4**5, dtype=np.int64)
        for j in held:
            key = key * 4 + suits[:, j]
        key = key * 4 + suits[:, k]
        # nobs: a held jack of the starter's suit (a jack starter is not in the hand: spec §2.3)
        same_suit = suits[:, held] == suits[:, k : k + 1]  # (1024, 4)
        nobs = (same_suit[:, None, :] & (jacks[None, :, held] == 1)).any(axis=2)  # (1024, 32)
        table[:, :, k] = flush[key][:, None] + nobs
    return table.reshape(4**5 * 32, 5)


def show_totals_all(crib: bool = False) -> npt.NDArray[np.int8]:
    """The show total of every (hand, starter) pair of one pack: the 12,994,800 pairs of spec §3.

    Args:
        crib: score every hand as a crib (only a five-card flush counts).
    Returns:
        An ``int8`` array of shape ``(2_598_960, 5)``: row ``i``, column ``k`` is the total (points) of the hand
        made of the other four cards of :func:`all_five_card_sets` row ``i`` with card ``k`` as the starter.
    """
    import numpy as np

    sets = all_five_card_sets()
    ranks = sets >> 2
    index = ranks[:, 0].astype(np.int32)
    for j in range(1, 5):
        index *= 13
        index += ranks[:, j]
    suit_key = np.zeros(len(sets), dtype=np.int32)
    for j in range(5):  # suits, first card most significant, then the jack bits
        suit_key <<= 2
        suit_key |= sets[:, j] & 3
    suit_key <<= 5
    for j in range(5):
        suit_key |= (ranks[:, j] == _JACK - 1).view(np.uint8) << np.uint8(j)
    out = _suit_table(crib)[suit_key]
    out += _rank_table()[index][:, None]
    return out


def show_distribution(crib: bool = False) -> dict[int, int]:
    """How many of the 12,994,800 (hand, starter) pairs score each total (spec §3).

    Returns:
        ``{score: count}`` for every score 0..29 (impossible scores map to 0); the counts sum to
        :data:`SHOW_PAIRS`.
    """
    import numpy as np

    counts = np.bincount(show_totals_all(crib).ravel(), minlength=MAX_SHOW_SCORE + 1)
    return {score: int(n) for score, n in enumerate(counts)}


# ---------------------------------------------------------------------------------------------------------------
# The play (pegging)
# ---------------------------------------------------------------------------------------------------------------


def _check_play(sequence: Sequence[Card | str]) -> tuple[list[Card], int]:
    """Validate one count: at least one card, no card twice, count never above 31. Returns (cards, count)."""
    if isinstance(sequence, str):
        raise InvalidCardError(f"give the cards of the count as a sequence, not one string: {sequence!r}")
    cards = [_as_card(x) for x in sequence]
    if not cards:
        raise InvalidPositionError("a count needs at least one card laid")
    if len(set(cards)) != len(cards):
        twice = sorted(card for card, n in Counter(cards).items() if n > 1)
        raise InvalidCardError(f"duplicate card in the count: {' '.join(map(str, twice))} (one pack, spec §2.1)")
    count = sum(_VALUE[c] for c in cards)
    if count > MAX_COUNT:
        running = 0
        for i, card in enumerate(cards):
            running += _VALUE[card]
            if running > MAX_COUNT:
                raise IllegalMoveError(
                    Reason(
                        "sequence_past_31",
                        {"index": i + 1, "card": str(card), "count": running - _VALUE[card], "new_count": running},
                    )
                )
    return cards, count


_NOTHING: Final = PlayScore(points=0, fifteen=0, thirty_one=0, pairs=0, run=0, reasons=())
#: The reason code of the last k cards of one rank laid in a row (spec §2.4 step 3 "Pairs").
PAIR_CODES: Final = ("", "", "pair", "pair_royal", "double_pair_royal")


def _run_length(cards: Sequence[Card]) -> int:
    """The run the last card completes in the play: the largest L >= 3 such that the last L cards are L distinct
    ranks forming one consecutive block, in any order (spec §2.4 step 3 "Runs"); 0 if none.

    One pass backwards from the last card: a repeated rank rules out that L and every longer one; L distinct
    ranks are consecutive exactly when highest - lowest = L - 1 (the :func:`_is_run` test, kept incrementally).
    """
    n = len(cards)
    low = high = cards[-1] // 4
    seen = 1 << low
    run = 0
    for size in range(2, n + 1):
        rank = cards[n - size] // 4
        bit = 1 << rank
        if seen & bit:
            break
        seen |= bit
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        if size >= 3 and high - low == size - 1:
            run = size
    return run


def _score_last(cards: Sequence[Card], count: int) -> PlayScore:
    """Points for the last of ``cards`` (one count, validated), the count including it (spec §2.4 step 3)."""
    fifteen = 2 if count == _FIFTEEN else 0
    thirty_one = 2 if count == MAX_COUNT else 0
    n = len(cards)
    last = cards[-1]
    k = 1
    while k < n and k < 4 and _same_rank(cards[n - 1 - k], last):
        k += 1
    pairs = _PAIR_POINTS[k]
    run = _run_length(cards) if k == 1 else 0  # the last two of one rank rule out every run
    if not (fifteen or thirty_one or pairs or run):
        return _NOTHING
    reasons = []
    if fifteen:
        reasons.append("fifteen")
    if thirty_one:
        reasons.append("thirty_one")
    if pairs:
        reasons.append(PAIR_CODES[k])
    if run:
        reasons.append("run")
    return PlayScore(
        points=fifteen + thirty_one + pairs + run,
        fifteen=fifteen,
        thirty_one=thirty_one,
        pairs=pairs,
        run=run,
        reasons=tuple(reasons),
    )


def score_play(sequence: Sequence[Card | str]) -> PlayScore:
    """The points earned by the last card of ``sequence`` in the play (spec §2.4 step 3).

    Args:
        sequence: the cards laid since the last reset (after 31 or a go), in play order, the new card last.
    Returns:
        The :class:`PlayScore`: 15 -> 2, 31 -> 2, the last 2/3/4 cards of one rank -> 2/6/12, the longest run of
        the last L >= 3 cards (distinct consecutive ranks, any order) -> L. The go / last-card point is not
        included: the engine awards it (spec §2.4 step 4).
    Raises:
        InvalidPositionError: if ``sequence`` is empty.
        InvalidCardError: on a malformed or duplicate card.
        IllegalMoveError: if the count passes 31.
    """
    cards, count = _check_play(sequence)
    return _score_last(cards, count)


def play_points_per_card(cards: Sequence[Card | str]) -> list[int]:
    """The points each card of one count earned when laid, in order (spec §2.4 step 3, §3a ``play-score``).

    Args:
        cards: the cards of one count in play order.
    Returns:
        One number of points per card (go / last card excluded).
    Raises:
        As :func:`score_play`.
    """
    seq, _ = _check_play(cards)
    points = []
    count = 0
    for i, card in enumerate(seq):
        count += _VALUE[card]
        points.append(_score_last(seq[: i + 1], count).points)
    return points
