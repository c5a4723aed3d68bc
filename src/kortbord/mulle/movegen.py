"""Mulle move generation: every legal move of a position, in canonical order (rules spec §2.6, §2.13).

The generator works on compact **move codes** (plain tuples, no move objects) and builds the
:mod:`kortbord.mulle.moves` values only when asked (:func:`decode`):

| code                                   | move                    |
|----------------------------------------|-------------------------|
| ``(CAPTURE, x, loose, build_ids)``     | ``Capture(x, loose, build_ids)`` |
| ``(BUILD, x, on, value, pkg)``         | ``Build(x, on, value, pkg)``     |
| ``(RAISE, x, build_id, value)``        | ``Raise(x, build_id, value)``    |
| ``(DOWN, x, build_id, value)``         | ``BuildDown(x, build_id, value)``|
| ``(PACKAGE, x, loose, build_id, pkg)`` | ``Package(x, loose, build_id, pkg)`` |
| ``(LAYON, x, build_id)``               | ``LayOn(x, build_id)``           |
| ``(TRAIL, x)``                         | ``Trail(x)``                     |

Every part is already canonical (cards sorted, build ids by number), so ``decode(code)`` equals the move parsed
from its notation and :func:`encode` is its inverse.  :func:`legal_codes` is the list the random-play loop and the
bots' playouts use (with :func:`kortbord.mulle.transitions.apply_code`); :func:`legal_moves` decodes it.

Where each rule lives here (the rule checks themselves are the predicates of :mod:`kortbord.mulle.checks`):

* capture enumeration (M1, maximal partitions, pure mulle, builds of the value): :func:`_capture_codes`,
  :func:`_loose_options`, :func:`_packings` (subset-sum packings of the table values, cached per value list)
* building moves M2-M6 with the reserve rule (:func:`~kortbord.mulle.checks.reserve_lack`) and ownership:
  :func:`_codes`; founding on one table card (M2, D7) with packed pairs (A11): :func:`_found_pairs`,
  :func:`_pair_sets`
* trail (M7), the capture duty (:func:`~kortbord.mulle.checks.duty_forbids_trail`), the trail ban
  (:func:`~kortbord.mulle.checks.bound_by_build`) and the safety valve: end of :func:`_codes`

Speed (``bench/mulle_engine.py``) comes from integer card values and bit masks (the values a hand holds, the
values a table's loose cards take, the sums its subsets reach), from caches that hold no rule of their own --
facts per loose table (:class:`_TableFacts`: its cards by value, the sums its subsets reach, the loose parts of
its captures per hand value), packable pairs per value and the table cards below it (``_PAIRS``), subset-sum packings per value
list (``_PACK_CACHE``), the options a rules value implies (:class:`_RulesFacts`) -- and from the reserve rule
asked only when the played card is the last reserve of an own build.  The generator as it was before (issue #13)
is kept as :mod:`kortbord.mulle._reference_movegen`; ``tests/mulle/test_movegen_differential.py`` checks that
both give the same lists in the same order.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

from kortbord.cards import Card
from kortbord.errors import InvalidMoveError
from kortbord.mulle.checks import (
    bound_by_build,
    builds_only,
    duty_forbids_trail,
    hand_builders,
    hand_value_counts,
    may_change,
    may_lock,
    packaging_mode,
    reserve_lack,
    twin_only,
)
from kortbord.mulle.moves import (
    Build,
    BuildDown,
    Capture,
    LayOn,
    Package,
    PlayerMove,
    Raise,
    Trail,
    build_sort_key,
)
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import HV, SCORING, TV, State
from kortbord.mulle.state import Build as TableBuild

__all__ = [
    "BUILD",
    "CAPTURE",
    "DOWN",
    "LAYON",
    "PACKAGE",
    "RAISE",
    "TRAIL",
    "MoveCode",
    "decode",
    "encode",
    "legal_codes",
    "legal_moves",
]

#: The kinds of move code (the first item of a code), in the order of :mod:`kortbord.mulle.moves`.
CAPTURE: Final = 0
BUILD: Final = 1
RAISE: Final = 2
DOWN: Final = 3
PACKAGE: Final = 4
LAYON: Final = 5
TRAIL: Final = 6
#: A compact move: a tuple whose first item is its kind (see the module docstring).
MoveCode: TypeAlias = tuple[Any, ...]


# ----------------------------------------------------------------------------------------------- capture sets
_PACK_CACHE: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}


def _packings(values: tuple[int, ...], h: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """All ways to take disjoint groups worth ``h`` from items of the given ``values`` (spec §2.13).

    Returns (cached per ``(values, h)``):
        (groups, maximal, every): bit masks over item positions -- every group (subset summing to ``h``); the
        distinct unions of disjoint groups that leave no group behind (maximal); the distinct unions of any
        disjoint groups, the empty one included (for ``maximal="free"``).
    """
    key = (values, h)
    hit = _PACK_CACHE.get(key)
    if hit is not None:
        return hit
    n = len(values)
    if n <= 2:  # closed form: the groups are the items worth h and the pair worth h
        out = _small_packings(values, h)
        _PACK_CACHE[key] = out
        return out
    groups: list[int] = []
    ascending = all(values[i] <= values[i + 1] for i in range(n - 1))  # then larger items need not be tried

    def subsets(i: int, remaining: int, mask: int) -> None:
        for j in range(i, n):
            v = values[j]
            if v == remaining:
                groups.append(mask | (1 << j))
            elif v < remaining:
                subsets(j + 1, remaining - v, mask | (1 << j))
            elif ascending:
                break

    subsets(0, h, 0)
    if len(groups) <= 1:  # nothing to combine: the one group (if any) is the only maximal union
        out = (tuple(groups), tuple(groups) or (0,), (0, *groups))
        _PACK_CACHE[key] = out
        return out
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault((g & -g).bit_length() - 1, []).append(g)
    every: set[int] = set()
    involved = 0
    for g in groups:
        involved |= g
    positions = [i for i in range(n) if involved >> i & 1]

    def pack(k: int, used: int, union: int) -> None:
        while k < len(positions) and used >> positions[k] & 1:
            k += 1
        if k == len(positions):
            every.add(union)
            return
        p = positions[k]
        pack(k + 1, used | (1 << p), union)  # position p stays on the table
        for g in by_low.get(p, ()):
            if not g & used:
                pack(k + 1, used | g, union | g)

    pack(0, 0, 0)
    maximal = tuple(sorted(u for u in every if all(g & u for g in groups)))
    out = (tuple(groups), maximal, tuple(sorted(every)))
    if len(_PACK_CACHE) > 200_000:
        _PACK_CACHE.clear()
    _PACK_CACHE[key] = out
    return out


def _small_packings(values: tuple[int, ...], h: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """:func:`_packings` of at most two items, without the search: the same three tuples."""
    if not values:
        return ((), (0,), (0,))
    if len(values) == 1:
        return ((1,), (1,), (0, 1)) if values[0] == h else ((), (0,), (0,))
    a, b = values
    if a == h and b == h:  # two disjoint groups: both, or either alone, or none
        return ((1, 2), (3,), (0, 1, 2, 3))
    if a == h:
        return ((1,), (1,), (0, 1))
    if b == h:
        return ((2,), (2,), (0, 2))
    if a + b == h:
        return ((3,), (3,), (0, 3))
    return ((), (0,), (0,))


def _mask_cards(mask: int, items: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(items[i] for i in range(len(items)) if mask >> i & 1)


def _loose_options(state: State, x: Card) -> list[tuple[tuple[Card, ...], tuple[str, ...]]]:
    """The possible (loose cards, addend builds) parts of a capture with ``x`` (spec §2.6 M1.2-M1.5), deduplicated
    by card code; builds of value ``hv(x)`` are not included here."""
    rules = state.rules
    h = HV[x]
    if rules.special_capture_builds_only and builds_only(rules, h):  # the option first: no call when it is off
        return [((), ())]
    # Only loose cards worth at most h can be in a group worth h: in the sorted table, those below rank h + 1.
    table = state.table[: bisect_left(state.table, 4 * h)]
    if rules.pure_mulle and x in table and twin_only(rules, x, table):
        return [((x,), ())]
    addends = [b for b in state.builds if b.value < h] if rules.builds_in_sums else []
    values = tuple(map(TV.__getitem__, table))
    if addends:
        values += tuple(b.value for b in addends)
    return _loose_unions(table, values, h, rules.maximal, addends)


_BIT_INDEXES: dict[int, tuple[int, ...]] = {}


def _pick(items: tuple[Card, ...], mask: int) -> tuple[Card, ...]:
    """The items at the set bits of ``mask``, in order."""
    idx = _BIT_INDEXES.get(mask)
    if idx is None:
        if len(_BIT_INDEXES) > 100_000:
            _BIT_INDEXES.clear()
        idx = _BIT_INDEXES[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
    return tuple([items[i] for i in idx])


def _loose_unions(
    table: tuple[Card, ...], values: tuple[int, ...], h: int, mode: str, addends: list[TableBuild]
) -> list[tuple[tuple[Card, ...], tuple[str, ...]]]:
    _, maximal, every = _packings(values, h)
    unions = every if mode == "free" else maximal
    if len(unions) == 1 and not addends:
        return [(_pick(table, unions[0]), ())]
    nt = len(table)
    seen: set[tuple[tuple[Card, ...], tuple[str, ...]]] = set()
    out: list[tuple[tuple[Card, ...], tuple[str, ...]]] = []
    for u in unions:
        loose = _pick(table, u & ((1 << nt) - 1))
        bids = tuple(addends[i - nt].id for i in range(nt, len(values)) if u >> i & 1) if addends else ()
        key = (loose, bids)
        if key not in seen:
            seen.add(key)
            out.append(key)
    if mode == "maximum" and out:

        def size(o: tuple[tuple[Card, ...], tuple[str, ...]]) -> int:
            return len(o[0]) + sum(len(b.cards) for b in addends if b.id in o[1])

        best = max(size(o) for o in out)
        out = [o for o in out if size(o) == best]
    return out


def _loose_only(table: tuple[Card, ...], values: list[int], h: int, mode: str) -> list[tuple[Card, ...]]:
    """The loose parts of the captures worth ``h`` from ``table`` (spec §2.6 M1.2-M1.5: groups worth ``h``, maximal,
    most cards or free per ``mode``), for a card that is not bound by pure mulle or A4 and with builds never
    addends: :func:`_loose_options` for such a card (the empty part included when it is the only one)."""
    k = bisect_left(table, 4 * h)  # the loose cards of rank <= h (card order is rank first)
    below = table[:k]
    key = (below, h, mode)
    hit = _LOOSE.get(key)
    if hit is None:
        if len(_LOOSE) > 200_000:
            _LOOSE.clear()
        hit = _LOOSE[key] = [loose for loose, _ in _loose_unions(below, tuple(values[:k]), h, mode, [])]
    return hit


#: ``(loose cards of rank <= h, h, maximal mode)`` -> :func:`_loose_only` (the loose cards worth more than ``h``
#: are in no group worth ``h``: many tables share the part that matters).
_LOOSE: dict[tuple[object, ...], list[tuple[Card, ...]]] = {}


def _capture_codes(state: State, x: Card) -> list[MoveCode]:
    """Every capture with hand card ``x`` (spec §2.6 M1), before the reserve rule, as codes."""
    h = HV[x]
    hb = tuple(b.id for b in state.builds if b.value == h) if state.builds else ()
    out: list[MoveCode] = []
    if state.rules.capture_all_builds or not hb:
        build_sets: list[tuple[str, ...]] = [hb]
    else:
        build_sets = [c for k in range(len(hb) + 1) for c in itertools.combinations(hb, k)]
    for loose, addends in _loose_options(state, x):
        for bs in build_sets:
            if loose or addends or bs:
                ids = bs + addends
                out.append((CAPTURE, x, loose, tuple(sorted(ids, key=build_sort_key)) if addends else ids))
    return out


def _captures(state: State, x: Card) -> list[Capture]:
    """Every capture move with hand card ``x`` (spec §2.6 M1), before the reserve rule."""
    return [_decode(c) for c in _capture_codes(state, x)]  # type: ignore[misc]


# ----------------------------------------------------------------------------------------------- cached facts
class _TableFacts:
    """What move generation needs to know about one loose table (a sorted card tuple): computed once, shared by
    every position with that table (a cache, never a rule of its own).

    Attributes:
        by_tv: ``by_tv[v]`` = the distinct loose cards of table value ``v`` (0..16), sorted.
        tv_bits: bit ``v`` set when a loose card has table value ``v``.
        pair_bits: bit ``v`` set when two loose cards add up to ``v``.
        sums: bit ``h`` set when some loose cards add up to ``h`` (2..16): without a build of value ``h`` and
            with builds never addends, a card of hand value ``h`` has no capture unless that bit is set.
        values: the table values of the loose cards, ascending (the table is sorted).
        combos: ``(max table cards, budget)`` -> the sorted founding combinations worth at most ``budget``.
        cards: the loose cards as a set.
        loose: capture mode (``maximal`` option) -> per hand value ``h`` the loose parts of the captures worth
            ``h`` (:func:`_loose_only`; None until asked).
    """

    __slots__ = ("by_tv", "cards", "combos", "loose", "pair_bits", "sums", "tv_bits", "values")

    def __init__(self, table: tuple[Card, ...]) -> None:
        by_tv: list[tuple[Card, ...]] = [()] * 17
        tv_bits = 0
        sums = 1
        prev = None
        values: list[int] = []
        for y in table:  # sorted, so twins are adjacent
            v = TV[y]
            values.append(v)
            sums |= (sums << v) & 0x1FFFF
            if y != prev:
                by_tv[v] += (y,)
                tv_bits |= 1 << v
                prev = y
        pair_bits = 0  # exact: w + w needs two loose cards worth w
        for i in range(1, len(values)):
            v = values[i]
            pair_bits |= (tv_bits & ((1 << v) - 1)) << v
            if values[i - 1] == v:
                pair_bits |= 1 << (v + v)
        self.by_tv = by_tv
        self.tv_bits = tv_bits
        self.pair_bits = pair_bits
        self.sums = sums
        self.values = values
        self.combos: dict[tuple[int, int], list[tuple[Card, ...]]] = {}
        self.cards = frozenset(table)
        self.loose: dict[str, list[list[tuple[Card, ...]] | None]] = {}


_TABLE_FACTS: dict[tuple[Card, ...], _TableFacts] = {}


def _table_facts(table: tuple[Card, ...]) -> _TableFacts:
    facts = _TABLE_FACTS.get(table)
    if facts is None:
        if len(_TABLE_FACTS) > 50_000:
            _TABLE_FACTS.clear()
        facts = _TABLE_FACTS[table] = _TableFacts(table)
    return facts


class _RulesFacts:
    """The options one :class:`Rules` value implies for move generation, read once per rules value (a cache).

    Attributes mirror the checks they stand for: ``packaging`` (:func:`~kortbord.mulle.checks.packaging_mode`),
    ``from_hand`` (:func:`~kortbord.mulle.checks.hand_builders`), ``max_on``
    (:attr:`Rules.max_table_cards_in_found`), ``cacheable`` (builds are never addends, so a capture depends only
    on the card, the loose cards worth at most its value and the builds of its value) and the capture options.
    """

    __slots__ = (
        "build_down",
        "cacheable",
        "capture_all",
        "duty",
        "forced",
        "from_hand",
        "max_on",
        "mode",
        "one_per_value",
        "packaging",
        "pkg_on",
        "pure",
        "reserve_rule",
        "rules",
        "special",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.packaging = packaging_mode(rules)
        self.pkg_on = self.packaging != "off"
        self.forced = self.packaging == "forced"
        self.max_on = rules.max_table_cards_in_found
        self.from_hand = hand_builders(rules)
        self.cacheable = not rules.builds_in_sums
        self.capture_all = rules.capture_all_builds
        self.pure = rules.pure_mulle
        self.special = rules.special_capture_builds_only
        self.mode = rules.maximal
        self.reserve_rule = rules.reserve_rule
        self.one_per_value = rules.one_build_per_value
        self.duty = rules.capture_duty
        self.build_down = rules.build_down


_RULES_FACTS: dict[int, _RulesFacts] = {}


def _rules_facts(rules: Rules) -> _RulesFacts:
    """The :class:`_RulesFacts` of ``rules`` (by identity: hashing 32 options per position would cost more)."""
    rf = _RULES_FACTS.get(id(rules))
    if rf is None or rf.rules is not rules:
        if len(_RULES_FACTS) > 1_000:
            _RULES_FACTS.clear()
        rf = _RULES_FACTS[id(rules)] = _RulesFacts(rules)
    return rf


#: ``(loose cards of table value < v, founding cards, v, forced)`` -> :func:`_pair_sets` of those loose cards less
#: the founding ones: a pair worth ``v`` holds two cards worth less than ``v``, so nothing else matters.
_PAIRS: dict[tuple[object, ...], list[tuple[tuple[Card, Card], ...]]] = {}


def _found_pairs(
    table: tuple[Card, ...], combo: tuple[Card, ...], v: int, forced: bool
) -> list[tuple[tuple[Card, Card], ...]]:
    """The sets of loose pairs worth ``v`` that may be packed into a build of ``v`` founded on (or packaged with)
    the loose cards ``combo`` (A11; :func:`_pair_sets` of the rest of the table), cached in ``_PAIRS``."""
    below = table[: bisect_left(table, 4 * (v - 1))]  # the loose cards of rank < v (card order is rank first)
    key = (below, combo, v, forced)
    hit = _PAIRS.get(key)
    if hit is None:
        if len(_PAIRS) > 200_000:
            _PAIRS.clear()
        hit = _PAIRS[key] = _pair_sets(_without(below, combo), v, forced)
    return hit


def _pair_sets(loose: tuple[Card, ...], v: int, forced: bool) -> list[tuple[tuple[Card, Card], ...]]:
    """Sets of disjoint loose pairs worth ``v`` that may be packed into a build (M2 attachment, A11)."""
    n = len(loose)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if TV[loose[i]] + TV[loose[j]] == v]
    if not pairs:
        return _NO_PAIRS  # shared, never changed
    results: set[tuple[tuple[Card, Card], ...]] = set()

    def rec(k: int, used: int, chosen: list[tuple[Card, Card]]) -> None:
        if k == len(pairs):
            if forced and any(not (used >> i & 1 or used >> j & 1) for i, j in pairs):
                return
            results.add(tuple(sorted(chosen)))
            return
        rec(k + 1, used, chosen)
        i, j = pairs[k]
        if not (used >> i & 1 or used >> j & 1):
            chosen.append((loose[i], loose[j]))
            rec(k + 1, used | (1 << i) | (1 << j), chosen)
            chosen.pop()

    rec(0, 0, [])
    return sorted(results)


def _without(cards: tuple[Card, ...], remove: Sequence[Card]) -> tuple[Card, ...]:
    lst = list(cards)
    for c in remove:
        lst.remove(c)
    return tuple(lst)


_NO_PAIRS: Final[list[tuple[tuple[Card, Card], ...]]] = [()]
_NO_CODES: Final[list[MoveCode]] = []
_NO_BUILDS: Final[list[TableBuild]] = []
_NO_CARDS: Final[frozenset[int]] = frozenset()
#: The 52 trail codes, shared.
_TRAIL_CODES: Final[tuple[MoveCode, ...]] = tuple((TRAIL, Card(i)) for i in range(52))
#: ``1 << hv(card)`` per card index.
_HV_BIT: Final[tuple[int, ...]] = tuple(1 << v for v in HV)


# ----------------------------------------------------------------------------------------------- legal moves
#: ``(id(builds), seat, id(rules), teams)`` -> :func:`_builds_facts` (the entry holds the builds and the rules, so the ids
#: stay theirs while the entry lives; a hit is checked by identity).  Consecutive positions share the builds tuple
#: until a move changes a build.
_BUILDS_FACTS: dict[tuple[int, int, int, bool], tuple[Any, ...]] = {}


def _builds_facts(state: State, builds: tuple[TableBuild, ...], seat: int, rules: Rules) -> tuple[Any, ...]:
    """What the builds on the table mean for the mover ``seat`` (a cache entry of ``_BUILDS_FACTS``):
    ``(builds, rules, ids_by_value, build_values, capture_bits, changeable, lockable, owned)`` -- the build ids per
    value (in id order), bit v of ``build_values`` for a build of value v when one build per value (A14: a
    combination worth it is packaged into it, M5), bit v of ``capture_bits`` for a build of value v, the builds
    the mover may raise and whether also build down (``(id, value, down)``, :func:`~kortbord.mulle.checks.may_change`),
    those it may package into or lay on (``(id, value)``, :func:`~kortbord.mulle.checks.may_lock`) and those it owns.
    """
    ids_by_value: dict[int, tuple[str, ...]] = {}
    capture_bits = 0
    for b in builds:
        ids_by_value[b.value] = (*ids_by_value.get(b.value, ()), b.id)
        capture_bits |= 1 << b.value
    build_values = capture_bits if rules.one_build_per_value else 0
    changeable = [
        (b.id, b.value, may_change(rules, b, seat, True)) for b in builds if may_change(rules, b, seat, False)
    ]
    lockable = [(b.id, b.value) for b in builds if may_lock(state, b, seat)]
    owned = [b for b in builds if b.owner == seat]
    entry = (builds, rules, ids_by_value, build_values, capture_bits, changeable, lockable, owned)
    if len(_BUILDS_FACTS) > 20_000:
        _BUILDS_FACTS.clear()
    _BUILDS_FACTS[(id(builds), seat, id(rules), state.teams)] = entry
    return entry


def _codes(state: State) -> list[MoveCode]:
    """Every legal move (spec §2.13) as codes, in the canonical order of :func:`legal_moves`.

    Captures (M1) come from the table's facts (:func:`_loose_only`) or :func:`_capture_codes`; building moves
    M2-M6 and the reserve rule are below; trails (M7), the capture duty and the safety valve at the end.  Every
    rule is asked of :mod:`kortbord.mulle.checks` or stands in for one named next to it.  The reserve rule
    (:func:`~kortbord.mulle.checks.reserve_lack`) is asked only when the played card could leave an own build
    without a reserve (the played card is the last of that build's value, or a build already lacks one);
    otherwise it holds for every move, D5 being the ``keeps`` mask.
    """
    rules = state.rules
    rf = _RULES_FACTS.get(id(rules))
    if rf is None or rf.rules is not rules:
        rf = _rules_facts(rules)
    seat = state.to_move
    assert seat is not None
    hand = state._hands[seat]
    if not hand:
        return []
    table = state.table
    builds = state.builds
    facts = _TABLE_FACTS.get(table)
    if facts is None:
        facts = _table_facts(table)
    held = 0  # bit v: the mover holds a card of hand value v; held2: at least two such cards
    held2 = 0
    for c in hand:
        b = _HV_BIT[c]
        held2 |= held & b
        held |= b
    distinct = list(dict.fromkeys(hand)) if held2 or len(hand) > 13 else hand  # twins are one move
    max_on = rf.max_on
    tv_bits = facts.tv_bits
    capture_bits = facts.sums  # bit h: a card of hand value h may capture (loose cards add up to h or a build)
    if builds:
        bf = _BUILDS_FACTS.get((id(builds), seat, id(rules), state.teams))
        if bf is None or bf[0] is not builds or bf[1] is not rules:
            bf = _builds_facts(state, builds, seat, rules)
        _, _, ids_by_value, build_values, capture_add, changeable, lockable, owned = bf
        capture_bits |= capture_add
        # the reserve rule can only bite when some own build's value has at most one card of it in the hand
        bare = False  # an own build already lacks a reserve (a loaded position): check every move
        single = 0  # bit v: an own build of value v whose only reserve is one card of hand value v
        if owned and rf.reserve_rule:
            hvc = hand_value_counts(hand)
            for b in owned:
                k = hvc[b.value]
                if k == 0:
                    bare = True
                elif k == 1:
                    single |= 1 << b.value
        if not bare and not single and max_on == 1 and rf.cacheable and rf.capture_all:
            return _simple(
                state, rf, facts, distinct, held, held2, ids_by_value, build_values, bool(owned), changeable, lockable
            )
    else:
        if max_on == 1 and rf.cacheable:
            return _simple(state, rf, facts, distinct, held, held2, None, 0, False, (), ())
        owned = _NO_BUILDS
        build_values = 0
        ids_by_value = {}
        changeable = []
        lockable = []
        bare = False
        single = 0
    hvc = hand_value_counts(hand)
    captures: list[MoveCode] = []
    capturing: set[int] = set()  # the cards with a legal capture
    others: list[MoveCode] = []
    reserve_rule = rf.reserve_rule
    pkg_on = rf.pkg_on
    forced = rf.forced
    from_hand = rf.from_hand
    cacheable = rf.cacheable
    by_tv = facts.by_tv
    pair_bits = facts.pair_bits
    values = facts.values
    capture_all = rf.capture_all
    pure = rf.pure
    special = rf.special
    mode = rf.mode
    loose_by_h = facts.loose.get(mode)
    if loose_by_h is None:
        loose_by_h = facts.loose[mode] = [None] * 17
    table_set = facts.cards
    combos: list[tuple[Card, ...]] = []
    for x in distinct:
        hx = HV[x]
        check = bare or single >> hx & 1  # else checks.reserve_lack is None for every move of x (D5: keeps)
        # M1 capture
        if not cacheable:
            caps = _capture_codes(state, x)  # builds may be addends (A13)
        elif not capture_bits >> hx & 1:
            caps = _NO_CODES  # no build of the value and no loose cards adding up to it
        else:
            hb = ids_by_value.get(hx, ())
            if hb and not capture_all:
                caps = _capture_codes(state, x)  # a choice among the builds of the value (A27)
            elif pure and x in table_set and not SCORING[x]:
                caps = [(CAPTURE, x, (x,), hb)]  # pure mulle (A1, checks.twin_only): the twin only
            elif special and hx >= 14:
                caps = [(CAPTURE, x, (), hb)] if hb else _NO_CODES  # checks.builds_only (A4)
            else:
                opts = loose_by_h[hx]
                if opts is None:
                    opts = loose_by_h[hx] = _loose_only(table, values, hx, mode)
                if hb:
                    caps = [(CAPTURE, x, loose, hb) for loose in opts]
                else:
                    caps = [(CAPTURE, x, loose, hb) for loose in opts if loose]
        if caps:
            if check:
                for m in caps:
                    if reserve_lack(hvc, hx, owned, reserve_rule, None, None, m[3]) is None:
                        captures.append(m)
                        capturing.add(x)
            else:
                captures += caps
                capturing.add(x)
        if not from_hand[x]:
            continue  # D6: no scoring card builds from the hand (checks.builds_from_hand)
        t = TV[x]
        # bit v of keeps: besides x the mover holds a card of hand value v (D5: may build to v), i.e.
        # checks.holds_reserve(hvc, hx, v)
        keeps = (held & ~(1 << hx)) | (held2 & (1 << hx))
        # M2 create (founded on 1 .. max_on loose cards); equal value -> package (M5) when one build per value
        if max_on == 1:
            # one table card y (D7): the values v = t + tv(y) over the loose cards y for which the mover keeps
            # a card of v, in increasing v, hence in card order of y
            cand = (tv_bits << t) & keeps & ~build_values
            while cand:
                low = cand & -cand
                cand ^= low
                v = low.bit_length() - 1
                if check and reserve_lack(hvc, hx, owned, reserve_rule, v) is not None:
                    continue
                if pkg_on and pair_bits >> v & 1:
                    for y in by_tv[v - t]:
                        for pk in _found_pairs(table, (y,), v, forced):
                            others.append((BUILD, x, (y,), v, pk))
                else:
                    for y in by_tv[v - t]:
                        others.append((BUILD, x, (y,), v, ()))
        else:
            ckey2 = (max_on, 16 - t)
            combos = facts.combos.get(ckey2)  # type: ignore[assignment]
            if combos is None:
                cset: set[tuple[Card, ...]] = set()
                for k in range(1, min(max_on, len(table)) + 1):
                    for combo in itertools.combinations(table, k):
                        if t + sum(TV[c] for c in combo) <= 16:
                            cset.add(combo)
                combos = facts.combos[ckey2] = sorted(cset)
            for combo in combos:
                v = t + sum(TV[c] for c in combo)
                if hvc[v] - (hx == v) <= 0:
                    continue
                if build_values >> v & 1:
                    continue  # a combination worth an existing build's value is packaged into it (below)
                if check and reserve_lack(hvc, hx, owned, reserve_rule, v) is not None:
                    continue
                for pk in _found_pairs(table, combo, v, forced) if pkg_on and pair_bits >> v & 1 else _NO_PAIRS:
                    others.append((BUILD, x, combo, v, pk))
        if not builds:
            continue
        # M3 raise / M4 build down on open builds
        for bid, bv, down in changeable:
            v = bv + t  # checks.value_in_range: a raise only needs the upper bound, building down the lower
            if v <= 16 and keeps >> v & 1 and (not check or reserve_lack(hvc, hx, owned, reserve_rule, v, bid) is None):
                others.append((RAISE, x, bid, v))
            if down:
                v = bv - t
                if (
                    v >= 2
                    and keeps >> v & 1
                    and (not check or reserve_lack(hvc, hx, owned, reserve_rule, v, bid) is None)
                ):
                    others.append((DOWN, x, bid, v))
        # M5 package from the hand, M6 lay on
        for bid, bv in lockable:
            if not keeps >> bv & 1 or (check and reserve_lack(hvc, hx, owned, reserve_rule, bv) is not None):
                continue
            need = bv - t
            if need >= 1:
                if max_on == 1:
                    pcombos: Sequence[tuple[Card, ...]] = [(y,) for y in by_tv[need]] if need <= 13 else ()
                else:
                    pcombos = [c for c in combos if sum(TV[y] for y in c) == need]
                for combo in pcombos:
                    for pk in _found_pairs(table, combo, bv, forced) if pkg_on and pair_bits >> bv & 1 else _NO_PAIRS:
                        others.append((PACKAGE, x, combo, bid, pk))
            if t == bv:
                others.append((LAYON, x, bid))
    moves = captures + others if others else captures[:]
    # M7 trail: only without an own build, and per the capture duty (spec §2.6, option capture_duty)
    if not owned and (not builds or not any(bound_by_build(state, seat, b) for b in builds)):
        duty = rf.duty
        any_capture = bool(captures)
        any_move = bool(moves)
        # checks.duty_forbids_trail: asked once for a card without a capture and once for a capturing card
        if not duty_forbids_trail(duty, False, any_capture, any_move):
            skip = capturing if capturing and duty_forbids_trail(duty, True, any_capture, any_move) else _NO_CARDS
            for x in distinct:
                if x not in skip:
                    moves.append(_TRAIL_CODES[x])
    if not moves:  # safety valve (spec §2.6): trail any card
        moves = [_TRAIL_CODES[x] for x in distinct]
        state._cache["safety_valve"] = True
    return moves


def _simple(
    state: State,
    rf: _RulesFacts,
    facts: _TableFacts,
    distinct: Sequence[Card],
    held: int,
    held2: int,
    ids_by_value: dict[int, tuple[str, ...]] | None,
    build_values: int,
    owns: bool,
    changeable: Sequence[tuple[str, int, bool]],
    lockable: Sequence[tuple[str, int]],
) -> list[MoveCode]:
    """:func:`_codes` for the common case: the reserve rule cannot bite (every own build's value is held at least
    twice, or once in a card of another value than the played one: :func:`~kortbord.mulle.checks.reserve_lack`
    is None for every move, D5 being the ``keeps`` mask), builds are founded on one table card and never
    addends, and a capture takes every build of its value.  The same rules, in the same order, as
    :func:`_codes`; fewer questions.  ``owns``: the mover owns a build (then the trail ban binds it, D3);
    ``build_values``: bit v for a build of value v when one build per value (A14)."""
    table = state.table
    captures: list[MoveCode] = []
    capturing: set[int] = set()
    others: list[MoveCode] = []
    tv_bits = facts.tv_bits
    capture_bits = facts.sums
    if ids_by_value:
        for v in ids_by_value:
            capture_bits |= 1 << v
    by_tv = facts.by_tv
    pair_bits = facts.pair_bits if rf.pkg_on else 0
    forced = rf.forced
    from_hand = rf.from_hand
    pure = rf.pure
    special = rf.special
    mode = rf.mode
    loose_by_h = facts.loose.get(mode)
    if loose_by_h is None:
        loose_by_h = facts.loose[mode] = [None] * 17
    table_set = facts.cards
    # M1 capture (the loose parts per hand value are the table's facts), only for the cards whose value loose
    # cards add up to or a build has
    cap_hv = held & capture_bits
    if cap_hv:
        for x in distinct:
            hx = HV[x]
            if not cap_hv >> hx & 1:
                continue
            hb = ids_by_value.get(hx, ()) if ids_by_value else ()
            if pure and x in table_set and not SCORING[x]:
                caps: list[MoveCode] = [(CAPTURE, x, (x,), hb)]  # pure mulle (A1, checks.twin_only)
            elif special and hx >= 14:
                caps = [(CAPTURE, x, (), hb)] if hb else _NO_CODES  # checks.builds_only (A4)
            else:
                opts = loose_by_h[hx]
                if opts is None:
                    opts = loose_by_h[hx] = _loose_only(table, facts.values, hx, mode)
                if hb:
                    caps = [(CAPTURE, x, loose, hb) for loose in opts]
                else:
                    caps = [(CAPTURE, x, loose, hb) for loose in opts if loose]
            if caps:
                captures += caps
                capturing.add(x)
    # the table values t of hand cards that may found a build on one table card y: t + tv(y) is a held value
    found_t = 0
    w = tv_bits
    while w:
        low = w & -w
        w ^= low
        found_t |= held >> (low.bit_length() - 1)
    for x in distinct:
        t = TV[x]
        if not (changeable or lockable or found_t >> t & 1) or not from_hand[x]:
            continue  # nothing to build; D6: no scoring card builds from the hand (checks.builds_from_hand)
        hx = HV[x]
        keeps = (held & ~(1 << hx)) | (held2 & (1 << hx))  # D5, checks.holds_reserve(hvc, hx, v) for bit v
        # M2 on one table card y (D7), in increasing value v = t + tv(y), hence in card order of y
        cand = (tv_bits << t) & keeps & ~build_values
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            if pair_bits >> v & 1:
                for y in by_tv[v - t]:
                    for pk in _found_pairs(table, (y,), v, forced):
                        others.append((BUILD, x, (y,), v, pk))
            else:
                for y in by_tv[v - t]:
                    others.append((BUILD, x, (y,), v, ()))
        # M3 raise / M4 build down on open builds (checks.value_in_range)
        for bid, bv, down in changeable:
            v = bv + t
            if v <= 16 and keeps >> v & 1:
                others.append((RAISE, x, bid, v))
            if down:
                v = bv - t
                if v >= 2 and keeps >> v & 1:
                    others.append((DOWN, x, bid, v))
        # M5 package from the hand, M6 lay on
        for bid, bv in lockable:
            if not keeps >> bv & 1:
                continue
            need = bv - t
            if 1 <= need <= 13:
                for y in by_tv[need]:
                    for pk in _found_pairs(table, (y,), bv, forced) if pair_bits >> bv & 1 else _NO_PAIRS:
                        others.append((PACKAGE, x, (y,), bid, pk))
            if t == bv:
                others.append((LAYON, x, bid))
    moves = captures + others if others else captures
    builds = state.builds
    seat = state.to_move
    # M7 trail: only without an own build (as a co-owner or a partner too: checks.bound_by_build)
    if not owns and (not builds or not any(bound_by_build(state, seat, b) for b in builds)):  # type: ignore[arg-type]
        duty = rf.duty
        any_capture = bool(captures)
        any_move = bool(moves)
        if not duty_forbids_trail(duty, False, any_capture, any_move):
            skip = capturing if capturing and duty_forbids_trail(duty, True, any_capture, any_move) else _NO_CARDS
            if moves is captures:
                moves = captures[:]
            if skip:
                moves += [_TRAIL_CODES[x] for x in distinct if x not in skip]
            else:
                moves += map(_TRAIL_CODES.__getitem__, distinct)
    if not moves:  # safety valve (spec §2.6): trail any card
        moves = [_TRAIL_CODES[x] for x in distinct]
        state._cache["safety_valve"] = True
    return moves


# ----------------------------------------------------------------------------------------------- codes <-> moves
_set_attr = object.__setattr__
_new_object = object.__new__


def _make(code: MoveCode) -> PlayerMove:
    """The move value of a code whose parts are canonical (skips the constructors' normalisation)."""
    kind = code[0]
    cls = _CLASSES[kind]
    m: PlayerMove = _new_object(cls)
    for name, value in zip(_FIELDS[kind], code[1:], strict=True):
        _set_attr(m, name, value)
    return m


_CLASSES: Final[tuple[type, ...]] = (Capture, Build, Raise, BuildDown, Package, LayOn, Trail)
_FIELDS: Final[tuple[tuple[str, ...], ...]] = (
    ("card", "loose", "builds"),
    ("card", "on", "value", "pkg"),
    ("card", "build", "value"),
    ("card", "build", "value"),
    ("card", "loose", "build", "pkg"),
    ("card", "build"),
    ("card",),
)
_KIND: Final[dict[type, int]] = {cls: k for k, cls in enumerate(_CLASSES)}
#: The 52 trail moves, shared (moves are immutable values).
_TRAIL_MOVES: Final[tuple[Trail, ...]] = tuple(Trail(Card(i)) for i in range(52))
#: code -> move value: moves are immutable, so one value serves every position that has the move.
_DECODED: dict[MoveCode, PlayerMove] = {}


def _decode(code: MoveCode) -> PlayerMove:
    m = _DECODED.get(code)
    if m is None:
        if len(_DECODED) > 200_000:
            _DECODED.clear()
        m = _DECODED[code] = _make(code)
    return m


def decode(state: State, code: MoveCode) -> PlayerMove:
    """The move value (:mod:`kortbord.mulle.moves`) of a code from :func:`legal_codes` of ``state``.

    Returns:
        A move equal to ``parse_move_text(str(move))``; the same shared value for equal codes.
    Raises:
        InvalidMoveError: ``code`` is not a move code of this module.
    """
    try:
        if type(code) is tuple and 0 <= code[0] <= TRAIL and len(code) == len(_FIELDS[code[0]]) + 1:
            return _decode(code)
    except TypeError:
        pass
    raise InvalidMoveError(f"not a Mulle move code: {code!r}"[:160])


def encode(move: PlayerMove) -> MoveCode:
    """The code of a move value (the inverse of :func:`decode`): ``(kind, card, ...)`` with its canonical parts.

    Raises:
        InvalidMoveError: not a Mulle player move.
    """
    kind = _KIND.get(type(move))
    if kind is None:
        raise InvalidMoveError(f"not a Mulle move: {move!r}"[:160])
    return (kind, *(getattr(move, f) for f in _FIELDS[kind]))


def legal_codes(state: State) -> list[MoveCode]:
    """The legal moves of the seat to act as codes, in the canonical order of :func:`legal_moves` (``[]`` at a
    chance node and at game end).  The list is the state's cached one: read it, never change it.
    ``decode(state, code)`` gives the move value; :func:`kortbord.mulle.transitions.apply_code` plays a code."""
    cached = state._cache.get("codes")
    if cached is None:
        cached = state._cache["codes"] = _codes(state) if state.phase == "play" else []
    return cached  # type: ignore[return-value]


def _legal(state: State) -> list[PlayerMove]:
    """Every legal move (spec §2.13) as move values, in the order of :func:`legal_moves` (uncached)."""
    return [_decode(c) for c in _codes(state)]


def legal_moves(state: State) -> list[PlayerMove]:
    """Every legal move of the seat to act, deduplicated (identical twins are one move), in canonical order:
    captures, then per played card its builds, raises, builds down, packages and lay-ons, then trails (spec §2.13;
    each kind by played card).  ``[]`` at a chance node and at game end.  The list is a fresh copy; the state
    caches the computation."""
    if state.phase != "play":
        return []
    return list(_legal_list(state))


def _legal_list(state: State) -> list[PlayerMove]:
    """The state's cached legal-move list itself (not a copy: never hand it out)."""
    cached = state._cache.get("legal")
    if cached is None:
        get = _DECODED.get
        trails = _TRAIL_MOVES
        cached = state._cache["legal"] = [
            trails[c[1]] if c[0] == TRAIL else get(c) or _decode(c) for c in legal_codes(state)
        ]
    return cached  # type: ignore[return-value]


def _legal_set(state: State) -> frozenset[PlayerMove]:
    cached = state._cache.get("legal_set")
    if cached is None:
        cached = state._cache["legal_set"] = frozenset(_legal_list(state))
    return cached  # type: ignore[return-value]


def _is_legal(state: State, move: PlayerMove) -> bool:
    """Whether ``move`` is legal: first by identity against the cached list (a move taken from
    :func:`legal_moves` needs no hashing), then by value for moves built elsewhere."""
    for m in _legal_list(state):
        if m is move:
            return True
    return move in _legal_set(state)
