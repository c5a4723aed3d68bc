"""The fast core's capture parts (``fast._loose``) against the engine's (``movegen._loose_only``), issue #13 item 1.

``fast._loose`` keys its cache by the table's values and twins and keeps the first union of each set of cards by a
mask in which a twin taken alone stands at the first of the two (``fast._loose_masks``); the engine builds each
part's card tuple.  Both must give the same parts, in the same order, for every table, value and ``maximal`` mode
(spec §2.6 M1.2-M1.5, option A5) -- twins (two packs: a card at most twice) included, which random rounds meet
too seldom to be sure of every case.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord.cards import Card
from kortbord.mulle import fast, movegen

# a table as counts per card: 0, 1 or 2 copies (two packs), the cards chosen from a few ranks so that groups,
# overlaps and twins are common
_RANKS = st.lists(st.integers(0, 9), min_size=1, max_size=4, unique=True)


@st.composite
def _tables(draw: st.DrawFn) -> list[int]:
    ranks = draw(_RANKS)
    cards = [4 * r + s for r in ranks for s in range(4)]
    table: list[int] = []
    for c in draw(st.lists(st.sampled_from(cards), min_size=1, max_size=10)):
        if table.count(c) < 2:
            table.append(c)
    return sorted(table)


@settings(max_examples=3000, deadline=None)
@given(table=_tables(), h=st.integers(1, 16), mode=st.sampled_from(["maximal", "maximum", "free"]))
def test_loose_parts_are_the_engines(table: list[int], h: int, mode: str) -> None:
    start = fast._table_facts(table)[6]
    got = fast._loose(table, start[h + 1], h, mode)
    cards = tuple(Card(c) for c in table)
    want = movegen._loose_only(cards, [c // 4 + 1 for c in table], h, mode)
    assert got == tuple(tuple(int(c) for c in part) for part in want), (table, h, mode)


def test_twins_taken_alone_are_one_part() -> None:
    # 5♠ 5♠ 5♥ with h = 10: the groups are the three pairs; 5♠+5♠ and 5♠+5♥ (either copy of 5♠) are two sets of
    # cards, each a maximal part (it meets every group), so the engine lists two parts, not three
    table = sorted([int(Card.parse("5S")), int(Card.parse("5S")), int(Card.parse("5H"))])
    start = fast._table_facts(table)[6]
    parts = fast._loose(table, start[11], 10, "maximal")
    assert sorted(parts) == sorted(
        [
            (int(Card.parse("5S")), int(Card.parse("5S"))),
            (int(Card.parse("5S")), int(Card.parse("5H"))),
        ]
    )
