"""The reference Mulle move generator: the generator of kortbord before issue #13, kept verbatim as the oracle
of the fast one (:mod:`kortbord.mulle.movegen`).

Only ``tests/mulle/test_movegen_differential.py`` imports it: it compares the legal-move lists (the same moves,
the same canonical order, the same safety-valve flag) of this module and of the fast generator over many thousands
of random positions of every format, player count and rules profile.  Do not optimise this module; change it only
together with a rules change, so that the two stay two independent readings of spec §2.6 / §2.13.

Original module notes:

Mulle move generation: every legal move of a position, in canonical order (rules spec §2.6, §2.13).

Where each rule lives here (the rule checks themselves are the predicates of :mod:`kortbord.mulle.checks`):

* capture enumeration (M1, maximal partitions, pure mulle, builds of the value): :func:`_captures`,
  :func:`_loose_options`, :func:`_packings`
* building moves M2-M6 with the reserve rule (:func:`~kortbord.mulle.checks.reserve_lack`) and ownership:
  :func:`_legal`; founding on one table card (M2, D7) with packed pairs (A11): :func:`_found_moves`,
  :func:`_pair_sets`
* trail (M7), the capture duty (:func:`~kortbord.mulle.checks.duty_forbids_trail`), the trail ban
  (:func:`~kortbord.mulle.checks.bound_by_build`) and the safety valve: end of :func:`_legal`

Speed (``bench/mulle_engine.py``) comes from caches that hold no rule of their own: facts about a loose table
shared by every position with that table (:class:`_TableFacts`), capture lists per card and the loose cards it
could take (``_CAPTURES``), subset-sum packings per value list (``_PACK_CACHE``), shared immutable move values, and
the legal-move list cached on the state (``apply`` recognises a move from that list by identity and checks any
other move by value).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Final

from kortbord.cards import Card
from kortbord.mulle.checks import (
    bound_by_build,
    builds_only,
    duty_forbids_trail,
    hand_builders,
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
from kortbord.mulle.state import HV, TV, State
from kortbord.mulle.state import Build as TableBuild

__all__ = ["legal_moves"]


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
        loose = tuple(table[i] for i in range(nt) if u >> i & 1)
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


def _captures(state: State, x: Card) -> list[Capture]:
    """Every capture move with hand card ``x`` (spec §2.6 M1), before the reserve rule."""
    h = HV[x]
    hb = tuple(b.id for b in state.builds if b.value == h) if state.builds else ()
    out: list[Capture] = []
    if state.rules.capture_all_builds or not hb:
        build_sets: list[tuple[str, ...]] = [hb]
    else:
        build_sets = [c for k in range(len(hb) + 1) for c in itertools.combinations(hb, k)]
    for loose, addends in _loose_options(state, x):
        for bs in build_sets:
            if loose or addends or bs:
                ids = bs + addends
                out.append(_fast_capture(x, loose, tuple(sorted(ids, key=build_sort_key)) if addends else ids))
    return out


# ----------------------------------------------------------------------------------------------- table facts
class _TableFacts:
    """What move generation needs to know about one loose table (a sorted card tuple) under one set of capture
    options: computed once, shared by every position with that table (a cache, never a rule of its own).

    Attributes:
        distinct: the distinct loose cards, sorted.
        by_tv: ``by_tv[v]`` = the distinct loose cards of table value ``v`` (0..16), sorted.
        tv_bits: bit ``v`` set when a loose card has table value ``v``.
        pair_sums: bit ``v`` set when two loose cards add up to ``v`` (else no table pair can be packed into a
            build of ``v``).
        sums: bit ``h`` set when some loose cards add up to ``h`` (2..16): without a build of value ``h`` and
            with builds never addends, a card of hand value ``h`` has no capture unless that bit is set.
        values: the table values of the loose cards, ascending (the table is sorted).
        rules_key: the capture options the facts were computed for (part of every cache key).
        pairs: ``(founding cards, value, forced)`` -> :func:`_pair_sets` of the rest of the table.
        founds: ``(x, v, table_packaging)`` -> :func:`_found_moves`.
    """

    __slots__ = ("by_tv", "founds", "pair_sums", "pairs", "rules_key", "sums", "tv_bits", "values")

    def __init__(self, table: tuple[Card, ...], rules_key: tuple[object, ...]) -> None:
        by_tv: list[tuple[Card, ...]] = [()] * 17
        tv_bits = 0
        sums = 1
        pair_sums = 0
        prev = None
        values: list[int] = []
        for y in table:  # sorted, so twins are adjacent
            v = TV[y]
            for w in values:
                pair_sums |= 1 << (v + w)
            values.append(v)
            sums |= (sums << v) & 0x1FFFF
            if y != prev:
                by_tv[v] += (y,)
                tv_bits |= 1 << v
                prev = y
        self.by_tv: list[tuple[Card, ...]] = by_tv
        self.tv_bits = tv_bits
        self.sums = sums
        self.pair_sums = pair_sums
        self.values = values
        self.rules_key = rules_key
        self.pairs: dict[tuple[tuple[Card, ...], int, bool], list[tuple[tuple[Card, Card], ...]]] = {}
        self.founds: dict[tuple[Card, int, str], list[Build]] = {}


_TABLE_FACTS: dict[tuple[object, ...], _TableFacts] = {}


def _table_facts(table: tuple[Card, ...], rules: Rules) -> _TableFacts:
    rules_key = (rules.maximal, rules.pure_mulle, rules.special_capture_builds_only, rules.capture_all_builds)
    key = (table, rules_key)
    facts = _TABLE_FACTS.get(key)
    if facts is None:
        if len(_TABLE_FACTS) > 50_000:
            _TABLE_FACTS.clear()
        facts = _TABLE_FACTS[key] = _TableFacts(table, rules_key)
    return facts


#: ``(x, loose cards of table value <= hv(x), ids of the builds of value hv(x), capture options)`` ->
#: :func:`_captures`.  Only used when builds are never addends: then a capture with ``x`` depends on nothing else
#: (a loose card worth more than ``hv(x)`` is in no group worth ``hv(x)``, and ``x``'s twin is worth less).
_CAPTURES: dict[tuple[object, ...], list[Capture]] = {}


def _pair_sets_cached(
    facts: _TableFacts, table: tuple[Card, ...], combo: tuple[Card, ...], v: int, forced: bool
) -> list[tuple[tuple[Card, Card], ...]]:
    if not facts.pair_sums >> v & 1:
        return _NO_PAIRS
    key = (combo, v, forced)
    hit = facts.pairs.get(key)
    if hit is None:
        hit = facts.pairs[key] = _pair_sets(_without(table, combo), v, forced)
    return hit


def _found_moves(facts: _TableFacts, table: tuple[Card, ...], x: Card, v: int, packaging: str) -> list[Build]:
    """The M2 moves founding a build of value ``v`` with ``x`` on one loose card (D7: worth ``v - tv(x)``),
    each with every allowed set of packed table pairs (A11); cached in ``facts.founds``."""
    out: list[Build] = []
    for y in facts.by_tv[v - TV[x]]:
        combo: tuple[Card, ...] = (y,)
        pair_sets = (
            _NO_PAIRS if packaging == "off" else _pair_sets_cached(facts, table, combo, v, packaging == "forced")
        )
        if pair_sets is _NO_PAIRS:
            plain = _PLAIN_BUILDS.get((x, y))
            if plain is None:
                plain = _PLAIN_BUILDS[(x, y)] = _fast_build(x, combo, v, ())
            out.append(plain)
        else:
            for pk in pair_sets:
                out.append(_fast_build(x, combo, v, pk))
    facts.founds[(x, v, packaging)] = out
    return out


#: ``B x on y`` without packed pairs, by ``(x, y)`` (at most 52 x 52 shared values).
_PLAIN_BUILDS: dict[tuple[Card, Card], Build] = {}


# ----------------------------------------------------------------------------------------------- legal moves
_set_attr = object.__setattr__
_new_object = object.__new__


def _fast_capture(card: Card, loose: tuple[Card, ...], builds: tuple[str, ...]) -> Capture:
    """A Capture from already-canonical parts (sorted loose cards, builds by number), skipping normalisation."""
    m = _new_object(Capture)
    _set_attr(m, "card", card)
    _set_attr(m, "loose", loose)
    _set_attr(m, "builds", builds)
    return m


def _fast_build(card: Card, on: tuple[Card, ...], value: int, pkg: tuple[tuple[Card, Card], ...]) -> Build:
    """A Build move from canonical parts (``on`` sorted, ``pkg`` from :func:`_pair_sets`)."""
    m = _new_object(Build)
    _set_attr(m, "card", card)
    _set_attr(m, "on", on)
    _set_attr(m, "value", value)
    _set_attr(m, "pkg", pkg)
    return m


def _fast_change(cls: type[Raise] | type[BuildDown], card: Card, build: str, value: int) -> Raise | BuildDown:
    m = _new_object(cls)
    _set_attr(m, "card", card)
    _set_attr(m, "build", build)
    _set_attr(m, "value", value)
    return m


_CHANGES: dict[tuple[type, Card, str, int], Raise | BuildDown] = {}


def _change_move(cls: type[Raise] | type[BuildDown], card: Card, build: str, value: int) -> Raise | BuildDown:
    """The Raise / BuildDown value (shared instances: moves are immutable)."""
    key = (cls, card, build, value)
    m = _CHANGES.get(key)
    if m is None:
        if len(_CHANGES) > 100_000:
            _CHANGES.clear()
        m = _CHANGES[key] = _fast_change(cls, card, build, value)
    return m


def _fast_package(card: Card, loose: tuple[Card, ...], build: str, pkg: tuple[tuple[Card, Card], ...]) -> Package:
    m = _new_object(Package)
    _set_attr(m, "card", card)
    _set_attr(m, "loose", loose)
    _set_attr(m, "build", build)
    _set_attr(m, "pkg", pkg)
    return m


def _fast_layon(card: Card, build: str) -> LayOn:
    m = _new_object(LayOn)
    _set_attr(m, "card", card)
    _set_attr(m, "build", build)
    return m


#: The 52 trail moves, shared (moves are immutable values).
_TRAILS: Final[tuple[Trail, ...]] = tuple(Trail(Card(i)) for i in range(52))


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
_NO_CAPTURES: Final[list[Capture]] = []
_NO_BUILDS: Final[list[TableBuild]] = []
_NO_CARDS: Final[frozenset[int]] = frozenset()


def _legal(state: State) -> list[PlayerMove]:
    """Every legal move (spec §2.13), in the order of :func:`legal_moves`.

    Captures (M1) come from :func:`_captures`; building moves M2-M6 and the reserve rule are below; trails
    (M7), the capture duty and the safety valve at the end.  Every rule is asked of :mod:`kortbord.mulle.checks`.  Positions that share a loose table share its
    :class:`_TableFacts` (capture lists, cards by value, packable pairs).
    """
    rules = state.rules
    seat = state.to_move
    assert seat is not None
    hand = state._hands[seat]
    if not hand:
        return []
    table = state.table
    builds = state.builds
    facts = _table_facts(table, rules)
    hvc = [0] * 17
    held = 0  # bit v: the mover holds a card of hand value v; held2: at least two such cards
    held2 = 0
    distinct: list[Card] = []
    prev = None
    for c in hand:
        v = HV[c]
        if hvc[v]:
            held2 |= 1 << v
        else:
            held |= 1 << v
        hvc[v] += 1
        if c != prev:
            distinct.append(c)
            prev = c
    # The reserve (D5 and the reserve rule, spec §2.6) is checks.reserve_lack; its D5 part, a reserve for the
    # value a move builds to, is precomputed per card as the bit mask ``keeps`` below (checks.holds_reserve).
    reserve_rule = rules.reserve_rule
    owned = [b for b in builds if b.owner == seat] if builds else _NO_BUILDS

    captures: list[PlayerMove] = []
    capturing: set[int] = set()  # the cards with a legal capture
    others: list[PlayerMove] = []
    packaging = packaging_mode(rules)
    forced = packaging == "forced"
    max_on = rules.max_table_cards_in_found
    by_value: dict[int, TableBuild] = {}
    ids_by_value: dict[int, tuple[str, ...]] = {}
    build_values = 0  # with one build per value, a combination worth a build's value is packaged into it (M5)
    if builds:
        for b in builds:
            by_value.setdefault(b.value, b)
            ids_by_value[b.value] = (*ids_by_value.get(b.value, ()), b.id)
        if rules.one_build_per_value:
            for v in by_value:
                build_values |= 1 << v
    # builds the mover may raise, and whether also build down (checks.may_change), and may package into / lay on
    # (checks.may_lock)
    changeable: list[tuple[str, int, bool]] = []
    lockable: list[tuple[str, int]] = []
    if builds:
        changeable = [
            (b.id, b.value, may_change(rules, b, seat, True)) for b in builds if may_change(rules, b, seat, False)
        ]
        lockable = [(b.id, b.value) for b in builds if may_lock(state, b, seat)]
    from_hand = hand_builders(rules)
    cacheable = not rules.builds_in_sums  # then a capture depends only on x, the table and builds of hv(x)
    by_tv = facts.by_tv
    sums = facts.sums
    tv_bits = facts.tv_bits
    values = facts.values
    rules_key = facts.rules_key
    facts_founds = facts.founds
    for x in distinct:
        hx = HV[x]
        # M1 capture
        if cacheable:
            hb = ids_by_value.get(hx) if builds else None
            if hb is None and not sums >> hx & 1:
                caps = _NO_CAPTURES  # no build of the value and no loose cards adding up to it
            else:
                ckey = (x, table[: bisect_right(values, hx)], hb, rules_key)
                hit = _CAPTURES.get(ckey)
                if hit is None:
                    if len(_CAPTURES) > 200_000:
                        _CAPTURES.clear()
                    hit = _CAPTURES[ckey] = _captures(state, x)
                caps = hit
        else:
            caps = _captures(state, x)
        for m in caps:
            if not owned or reserve_lack(hvc, hx, owned, reserve_rule, None, None, m.builds) is None:
                captures.append(m)
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
                if owned and reserve_lack(hvc, hx, owned, reserve_rule, v) is not None:
                    continue
                found = facts_founds.get((x, v, packaging))
                if found is None:
                    found = _found_moves(facts, table, x, v, packaging)
                others += found
        else:
            cset: set[tuple[Card, ...]] = set()
            for k in range(1, min(max_on, len(table)) + 1):
                for combo in itertools.combinations(table, k):
                    if t + sum(TV[c] for c in combo) <= 16:
                        cset.add(combo)
            combos = sorted(cset)
            for combo in combos:
                v = t + sum(TV[c] for c in combo)
                if hvc[v] - (hx == v) <= 0:
                    continue
                if rules.one_build_per_value and v in by_value:
                    continue  # a combination worth an existing build's value is packaged into it (below)
                if reserve_lack(hvc, hx, owned, reserve_rule, v) is not None:
                    continue
                for pk in _pair_sets_cached(facts, table, combo, v, forced) if packaging != "off" else _NO_PAIRS:
                    others.append(_fast_build(x, combo, v, pk))
        if not builds:
            continue
        # M3 raise / M4 build down on open builds
        for bid, bv, down in changeable:
            v = bv + t  # checks.value_in_range: a raise only needs the upper bound, building down the lower
            if v <= 16 and keeps >> v & 1 and (not owned or reserve_lack(hvc, hx, owned, reserve_rule, v, bid) is None):
                others.append(_change_move(Raise, x, bid, v))
            if down:
                v = bv - t
                if (
                    v >= 2
                    and keeps >> v & 1
                    and (not owned or reserve_lack(hvc, hx, owned, reserve_rule, v, bid) is None)
                ):
                    others.append(_change_move(BuildDown, x, bid, v))
        # M5 package from the hand, M6 lay on
        for bid, bv in lockable:
            if not keeps >> bv & 1 or (owned and reserve_lack(hvc, hx, owned, reserve_rule, bv) is not None):
                continue
            need = bv - t
            if need >= 1:
                if max_on == 1:
                    pcombos: Sequence[tuple[Card, ...]] = [(y,) for y in by_tv[need]] if need <= 13 else ()
                else:
                    pcombos = [c for c in combos if sum(TV[y] for y in c) == need]
                for combo in pcombos:
                    for pk in _pair_sets_cached(facts, table, combo, bv, forced) if packaging != "off" else _NO_PAIRS:
                        others.append(_fast_package(x, combo, bid, pk))
            if t == bv:
                others.append(_fast_layon(x, bid))
    moves: list[PlayerMove] = captures + others
    # M7 trail: only without an own build, and per the capture duty (spec §2.6, option capture_duty)
    if not builds or not any(bound_by_build(state, seat, b) for b in builds):
        duty = rules.capture_duty
        any_capture = bool(captures)
        any_move = bool(moves)
        # checks.duty_forbids_trail: asked once for a card without a capture and once for a capturing card
        if not duty_forbids_trail(duty, False, any_capture, any_move):
            skip = capturing if capturing and duty_forbids_trail(duty, True, any_capture, any_move) else _NO_CARDS
            for x in distinct:
                if x in skip:
                    continue
                if not owned or reserve_lack(hvc, HV[x], owned, reserve_rule) is None:
                    moves.append(_TRAILS[x])
    if not moves:  # safety valve (spec §2.6): trail any card
        moves = [_TRAILS[x] for x in distinct]
        state._cache["safety_valve"] = True
    return moves


def legal_moves(state: State) -> list[PlayerMove]:
    """Every legal move of the seat to act, deduplicated (identical twins are one move), in canonical order:
    captures, builds, raises, builds down, packages, lay-ons, trails (spec §2.13; each kind by played card).
    ``[]`` at a chance node and at game end.  The list is a fresh copy; the state caches the computation."""
    if state.phase != "play":
        return []
    cached = state._cache.get("legal")
    if cached is None:
        cached = state._cache["legal"] = _legal(state)
    return list(cached)  # type: ignore[call-overload, no-any-return]


def _legal_list(state: State) -> list[PlayerMove]:
    """The state's cached legal-move list itself (not a copy: never hand it out)."""
    cached = state._cache.get("legal")
    if cached is None:
        cached = state._cache["legal"] = _legal(state)
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


# ----------------------------------------------------------------------------------------------- reference apply
# What a player move did before issue #13 (``transitions._apply_play`` as it was), the oracle of the fast apply
# (``transitions.apply_code``); the helpers it shares with the engine (_advance, _co, _merge, _set) are unchanged.
from collections import Counter  # noqa: E402

from kortbord.contract import Event  # noqa: E402
from kortbord.mulle.scoring import mulle_points  # noqa: E402
from kortbord.mulle.state import PileInfo  # noqa: E402
from kortbord.mulle.transitions import _advance, _co, _is_last_play, _merge, _set  # noqa: E402


def _old_build(builds: tuple[TableBuild, ...], move: Raise | BuildDown | Package | LayOn) -> TableBuild:
    return next(b for b in builds if b.id == move.build)


def reference_apply_play(state: State, move: PlayerMove, want_events: bool = True) -> tuple[State, tuple[Event, ...]]:
    rules = state.rules
    seat = state.to_move
    assert seat is not None
    x = move.card
    hands = list(state._hands)
    hand = list(hands[seat])
    hand.remove(x)
    hands[seat] = tuple(hand)
    table = state.table
    builds = state.builds
    piles = state.piles
    last_capturer = state.last_capturer
    next_build = state.next_build
    events: list[Event] = [Event("play", {"seat": seat, "move": str(move)})] if want_events else []
    last_play = _is_last_play(state)
    if isinstance(move, Capture):
        side = state.side(seat)
        taken = move.builds
        got = [x, *move.loose]
        if taken:
            for b in builds:
                if b.id in taken:
                    got.extend(b.cards)
            builds = tuple(b for b in builds if b.id not in taken)
        table = _without(table, move.loose)
        # mulle (spec §2.8): every identical pair among the played card and the cards it took, in this play
        mulles: list[tuple[Card, int]] = []
        if len(set(got)) < len(got):
            counts = Counter(got)
            for c in sorted(counts):
                pairs = counts[c] // 2
                if pairs and (rules.mulle_pair_scope == "any" or TV[c] == TV[x]):
                    pts = mulle_points(c, rules, from_hand=c == x)
                    mulles.extend([(c, pts)] * pairs)
        tabbe = not table and not builds and not last_play and not (rules.no_tabbe_in_last_deal and state.is_last_deal)
        pile = piles[side]
        new_pile = _new_object(PileInfo)  # PileInfo(cards, mulles, tabbar) without re-validating
        _set_attr(new_pile, "cards", pile.cards + tuple(got))
        _set_attr(new_pile, "mulles", pile.mulles + tuple(mulles) if mulles else pile.mulles)
        _set_attr(new_pile, "tabbar", pile.tabbar + 1 if tabbe else pile.tabbar)
        piles = _set(piles, side, new_pile)
        last_capturer = seat
        if want_events:
            events.append(Event("capture", {"seat": seat, "side": side, "cards": [str(c) for c in got]}))
            for c, pts in mulles:
                events.append(Event("mulle", {"seat": seat, "side": side, "card": str(c), "points": pts}))
            if tabbe:
                events.append(Event("tabbe", {"seat": seat, "side": side}))
    elif isinstance(move, Trail):
        table = tuple(sorted((*table, x)))
    elif isinstance(move, Build):
        pk = [c for p in move.pkg for c in p]
        table = _without(table, (*move.on, *pk))
        cards = tuple(sorted((x, *move.on, *pk)))
        builds = (*builds, TableBuild(f"B{next_build}", cards, move.value, seat, bool(pk) and rules.locking))
        next_build += 1
    elif isinstance(move, Raise | BuildDown):
        b = _old_build(builds, move)
        changed = TableBuild(b.id, tuple(sorted((*b.cards, x))), move.value, seat, False, _co(state, b, seat))
        builds = _merge(state, tuple(changed if o.id == b.id else o for o in builds), changed)
    elif isinstance(move, Package):
        b = _old_build(builds, move)
        pk = [c for p in move.pkg for c in p]
        table = _without(table, (*move.loose, *pk))
        changed = TableBuild(
            b.id, tuple(sorted((*b.cards, x, *move.loose, *pk))), b.value, seat, rules.locking, _co(state, b, seat)
        )
        builds = tuple(changed if o.id == b.id else o for o in builds)
    else:  # LayOn
        b = _old_build(builds, move)
        changed = TableBuild(b.id, tuple(sorted((*b.cards, x))), b.value, seat, True, _co(state, b, seat))
        builds = tuple(changed if o.id == b.id else o for o in builds)
    if want_events and state._cache.get("safety_valve"):
        events.insert(0, Event("safety_valve", {"seat": seat}))
    n = state.players
    nxt = None
    if state.partial and not last_play:
        nxt = (seat + 1) % n
    else:
        for i in range(1, n + 1):
            if hands[(seat + i) % n]:
                nxt = (seat + i) % n
                break
    new = state._evolve(
        {
            "table": table,
            "builds": builds,
            "piles": piles,
            "last_capturer": last_capturer,
            "next_build": next_build,
            "_hands": tuple(hands),
            "last_play_flag": False,
            "to_move": nxt if nxt is not None else state.to_move,
        }
    )
    if nxt is not None:
        return new, tuple(events)
    return _advance(new, seat, last_play, events, want_events)
