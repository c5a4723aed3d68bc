"""The Cribbage show scored straight from the rules text (``spec/rules/cribbage.md`` §2.5), by brute force over
every subset: the outside reference the discard advisor's averages are checked against (server and page tests)."""

from __future__ import annotations

import itertools

#: Ranks in order, ace low.
RANKS = "A23456789TJQK"


def card_value(card: str) -> int:
    return min(10, RANKS.index(card[0]) + 1)


def show_by_the_rules(hand: list[str], starter: str, crib: bool = False) -> int:
    """The show value by the rules text (§2.5): fifteens 2 each, pairs 2 each, runs of 3+ (maximal, multiplied),
    a flush of four hand cards (4, 5 with the starter; the crib only 5), nobs (the jack of the starter's suit)."""
    cards = [*hand, starter]
    pts = 0
    for k in range(2, 6):
        for combo in itertools.combinations(cards, k):
            if sum(card_value(c) for c in combo) == 15:
                pts += 2
    for a, b in itertools.combinations(cards, 2):
        if a[0] == b[0]:
            pts += 2
    ranks = sorted(RANKS.index(c[0]) for c in cards)
    for length in (5, 4, 3):
        runs = 0
        for combo in itertools.combinations(ranks, length):
            if all(combo[i + 1] == combo[i] + 1 for i in range(length - 1)):
                runs += 1
        if runs:
            pts += runs * length
            break
    suits = {c[1] for c in hand}
    if len(suits) == 1:
        if starter[1] in suits:
            pts += 5
        elif not crib:
            pts += 4
    if any(c[0] == "J" and c[1] == starter[1] for c in hand):
        pts += 1
    return pts


def average_show(kept: list[str], seen: list[str]) -> float:
    """The exact mean show value of ``kept`` over every starter not in ``seen`` (46 for a six-card hand)."""
    starters = [r + s for r in RANKS for s in "SHDC" if r + s not in seen]
    return sum(show_by_the_rules(kept, s) for s in starters) / len(starters)
