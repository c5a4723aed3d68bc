"""Mulle scoring, each rule in one place (rules spec §2.8 mulle value, §2.11 round score, SCO-02/SCO-03).

Card points (spec §2.11): each spade 1, but A♠ 2 and 2♠ 2 in total (``spade_points="additive"``: 3 each),
10♦ 2, each other ace 1 -- 40 points over the 104 cards (44 additive).  Mulle: the mulle value (§2.8).
Tabbe: 1 each.  ``scoring="surplus"`` (ET): card points count only above 20, doubled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from kortbord.cards import Card
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import HV, TV

__all__ = ["card_points", "mulle_points", "score_pile", "total_card_points"]

_AS: Final = int(Card.parse("AS"))
_2S: Final = int(Card.parse("2S"))
_TD: Final = int(Card.parse("TD"))


def _table(additive: bool) -> tuple[int, ...]:
    pts = []
    for i in range(52):
        if i in (_AS, _2S):
            p = 3 if additive else 2
        elif i == _TD:
            p = 2
        elif i % 4 == 0 or i // 4 == 0:  # any other spade, any other ace
            p = 1
        else:
            p = 0
        pts.append(p)
    return tuple(pts)


_POINTS: Final = {False: _table(False), True: _table(True)}

#: Per byte value (a card index) the item :func:`score_pile` counts it under: 3 A♠, 4 2♠ (lillan), 5 10♦ (storan),
#: 2 another ace, 1 another spade, 0 none -- for all 256 values as the loop of :func:`_score_items` reads them.
_ITEM: Final = bytes(
    3 if i == _AS else 4 if i == _2S else 5 if i == _TD else 2 if i // 4 == 0 else 1 if i % 4 == 0 else 0
    for i in range(256)
)


def card_points(card: int, rules: Rules) -> int:
    """Card points of one card (spec §2.11): spade 1, A♠ 2, 2♠ 2 (3/3 additive), 10♦ 2, other ace 1, else 0."""
    return _POINTS[rules.spade_points == "additive"][int(card)]


def total_card_points(cards: Iterable[int], rules: Rules) -> int:
    """Sum of :func:`card_points` over ``cards``."""
    table = _POINTS[rules.spade_points == "additive"]
    return sum(table[int(c)] for c in cards)


def mulle_points(card: int, rules: Rules, *, from_hand: bool = True) -> int:
    """Points of one mulle of ``card`` (spec §2.8, option ``mulle_value``).

    ``hand`` (default): the hand value (A 14, 2♠ 15, 10♦ 16, others their pips / J 11 Q 12 K 13);
    ``table``: the table value (A 1, 2♠ 2, 10♦ 10); ``by_capture``: the hand value when one twin was played
    from the hand (``from_hand``), the table value when both came from the table.
    """
    if rules.mulle_value == "hand" or (rules.mulle_value == "by_capture" and from_hand):
        return HV[int(card)]
    return TV[int(card)]


def score_pile(cards: Sequence[int], mulles: Sequence[tuple[int, int]], tabbar: int, rules: Rules) -> dict[str, Any]:
    """The round score of one side's pile, with its breakdown per item (spec §2.11).

    Args:
        cards: every captured card of the side (leftover sweep included).
        mulles: ``(card, points)`` per mulle, as recorded at capture time.
        tabbar: number of tabbes.
    Returns:
        ``{"cards": n, "spades": pts, "ace_of_spades": pts, "lillan": pts, "storan": pts, "other_aces": pts,
        "card_points": pts, "mulle": [{"card": "9H", "points": 9}, ...], "mulle_points": pts, "tabbe": n,
        "surplus_bonus": pts (surplus scoring only), "total": pts}``.  Every value is in points except ``cards``.
    """
    table = _POINTS[rules.spade_points == "additive"]
    try:
        items = bytes(cards).translate(_ITEM)  # one byte per card, its item (counted at C speed)
    except (TypeError, ValueError):  # not indices 0..255: card by card, as the bytes would be read
        spades, aces, ace_s, lillan, storan = _score_items(cards, table)
    else:
        spades, aces = items.count(1), items.count(2)
        ace_s, lillan, storan = items.count(3) * table[_AS], items.count(4) * table[_2S], items.count(5) * table[_TD]
    return pile_breakdown(len(cards), spades, aces, ace_s, lillan, storan, mulles, tabbar, rules.scoring == "surplus")


def pile_breakdown(
    n: int,
    spades: int,
    aces: int,
    ace_s: int,
    lillan: int,
    storan: int,
    mulles: Sequence[tuple[int, int]],
    tabbar: int,
    surplus: bool,
) -> dict[str, Any]:
    """:func:`score_pile`'s dict from a pile's counted items (spec §2.11): ``n`` cards; the card items in points
    (spades, other aces, A♠, lillan, storan); ``mulles`` ``(card, points)``; ``tabbar`` tabbes; ``surplus``: the
    surplus scoring option (card points over 20 count twice, the card points themselves not added).  The one
    place of the breakdown and the surplus rule, for the engine's count and the fast core's own card loop."""
    cp = spades + aces + ace_s + lillan + storan
    mp = sum(p for _, p in mulles)
    out: dict[str, Any] = {
        "cards": n,
        "spades": spades,
        "ace_of_spades": ace_s,
        "lillan": lillan,
        "storan": storan,
        "other_aces": aces,
        "card_points": cp,
        "mulle": [{"card": str(Card(int(c))), "points": p} for c, p in mulles],
        "mulle_points": mp,
        "tabbe": tabbar,
    }
    if surplus:
        bonus = 2 * max(0, cp - 20)
        out["surplus_bonus"] = bonus
        out["total"] = mp + tabbar + bonus
    else:
        out["total"] = cp + mp + tabbar
    return out


def _score_items(cards: Iterable[Any], table: Sequence[int]) -> tuple[int, int, int, int, int]:
    """:func:`score_pile`'s card items of ``cards`` one by one: (spades, other aces, A♠, lillan, storan) points."""
    spades = aces = ace_s = lillan = storan = 0
    for c in cards:
        i = int(c)
        if i == _AS:
            ace_s += table[i]
        elif i == _2S:
            lillan += table[i]
        elif i == _TD:
            storan += table[i]
        elif i // 4 == 0:
            aces += 1
        elif i % 4 == 0:
            spades += 1
    return spades, aces, ace_s, lillan, storan
