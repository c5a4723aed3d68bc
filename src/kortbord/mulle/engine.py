"""The pure Mulle transition functions (engine API, ``docs/engine-api.md``; rules spec §2).

``new_game`` → chance node → ``chance_outcome``/``apply(Shuffle)`` deals → ``legal_moves``/``apply``/``step``
until ``is_over``.  No I/O and no global randomness: the only random draws are in :func:`chance_outcome`, from the
``random.Random`` passed in.

Where each rule lives:

* capture enumeration (M1, maximal partitions, pure mulle, builds of the value): :func:`_captures`,
  :func:`_loose_options`, :func:`_packings`
* build moves M2-M6, reserve rule (the ``ok`` check), ownership: :func:`_legal`; founding on one table card
  (M2, D7) with packed pairs (A11): :func:`_found_moves`, :func:`_pair_sets`
* trail (M7), capture duty, safety valve: end of :func:`_legal`
* mulle detection (§2.8) and tabbe (§2.9): :func:`_apply_play` (capture branch)
* dealing, short last deal, båt (§2.3), turn order (§2.4): :func:`_deal`, :func:`_advance`
* last-capture sweep and round scoring (§2.10, §2.11): :func:`_end_round`; game end and ties (§2.12)
* why a move is illegal, in plain words: :func:`explain_illegal`

Speed (``bench/mulle_engine.py``) comes from caches that hold no rule of their own: facts about a loose table
shared by every position with that table (:class:`_TableFacts`), capture lists per card and the loose cards it
could take (``_CAPTURES``), subset-sum packings per value list (``_PACK_CACHE``), shared immutable move values,
the legal-move list cached on the state (``apply`` recognises a move from that list by identity and checks any
other move by value), and State copies that skip ``__init__`` (:meth:`State._evolve`).
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kortbord.cards import Card, full_deck
from kortbord.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidRulesError,
    NotYourTurnError,
)
from kortbord.mulle.moves import (
    Build,
    BuildDown,
    Capture,
    LayOn,
    Move,
    Package,
    PlayerMove,
    Raise,
    Shuffle,
    Trail,
    build_sort_key,
    parse_move_text,
)
from kortbord.mulle.rules import STANDARD, Rules
from kortbord.mulle.scoring import mulle_points, score_pile
from kortbord.mulle.state import HV, SCORING, TV, PileInfo, State
from kortbord.mulle.state import Build as TableBuild

__all__ = [
    "Event",
    "Result",
    "apply",
    "chance_outcome",
    "deal_plan",
    "explain_illegal",
    "is_chance",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "result",
    "step",
    "to_act",
]

PACKS: Final = 2
DECK_SIZE: Final = 104
_FULL_COUNTS: Final = Counter(full_deck(PACKS))
_FULL_DECK: Final[tuple[Card, ...]] = tuple(full_deck(PACKS))


# ----------------------------------------------------------------------------------------------- events / result
@dataclass(frozen=True, slots=True)
class Event:
    """A public event caused by a step.  ``kind`` and ``data`` (JSON-ready, never a hidden card).

    Kinds: ``dealer`` {seat}; ``deal`` {deal_no, deals_total, cards: [per seat], table: [face-up cards],
    last}; ``baat`` {dealer}; ``play`` {seat, move}; ``capture`` {seat, side, cards}; ``mulle`` {seat, side,
    card, points}; ``tabbe`` {seat, side}; ``last_capture`` {seat, side, cards}; ``round_over`` {round,
    breakdown: [per side], scores: [per side]}; ``game_over`` {winners, scores}; ``safety_valve`` {seat}.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., **data}``."""
        return {"kind": self.kind, **self.data}

    def __str__(self) -> str:
        return self.kind + " " + " ".join(f"{k}={v}" for k, v in self.data.items())


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game (spec §2.12).

    Attributes:
        over: True once the game has ended.
        winners: winning sides (team 0/1 or seat); empty when the game is a draw.
        scores: game totals per side (points).
        rounds: per round, each side's breakdown (see :func:`kortbord.mulle.scoring.score_pile`).
        lowest_wins: True in Kryp-mulle.
    """

    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: tuple[tuple[dict[str, Any], ...], ...]
    lowest_wins: bool


# ----------------------------------------------------------------------------------------------- new game / chance
def new_game(rules: Rules | None = None, *, players: int = 2, teams: bool = False, dealer: int | None = None) -> State:
    """A game before its first shuffle (a chance node).

    Args:
        rules: the options (default the ``standard`` profile).
        players: 2, 3 or 4 (spec §2.2).
        teams: with 4 players, P1+P3 against P2+P4 (seats 0+2 against 1+3).
        dealer: the first dealer's seat (0-based), or None to let the first chance step draw it at random.
    Raises:
        InvalidRulesError: bad player count, teams without 4 players, a deal format that does not fit 104 cards.
    """
    rules = STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a mulle.Rules value, got {type(rules).__name__}")
    if type(players) is not int or players not in (2, 3, 4):
        raise InvalidRulesError(f"Mulle is played by 2, 3 or 4 players (a whole number), not {players!r}")
    if type(teams) is not bool:
        raise InvalidRulesError(f"teams must be true or false, got {teams!r}")
    if teams and players != 4:
        raise InvalidRulesError("teams need 4 players (P1+P3 against P2+P4)")
    if rules.table_size + players * rules.hand_size > DECK_SIZE:
        raise InvalidRulesError(
            f"{rules.hand_size}+{rules.table_size} with {players} players needs more than {DECK_SIZE} cards"
        )
    if dealer is not None and not (type(dealer) is int and 0 <= dealer < players):
        raise InvalidRulesError(f"dealer must be a seat 0..{players - 1}, got {dealer!r}")
    sides = 2 if teams else players
    return State(
        rules=rules,
        players=players,
        teams=teams,
        phase="deal",
        dealer=dealer,
        round_no=0,
        to_move=None,
        table=(),
        builds=(),
        piles=tuple(PileInfo() for _ in range(sides)),
        scores=(0,) * sides,
        last_capturer=None,
        deal_no=0,
        deals_total=0,
        is_last_deal=False,
        next_build=1,
        _hands=((),) * players,
        _stock=(),
    )


def to_act(state: State) -> int | None:
    """The seat (0-based) whose decision it is; None at a chance node or when the game is over."""
    return state.to_move if state.phase == "play" else None


def is_chance(state: State) -> bool:
    """True when the next step is the chance move (a Shuffle that starts a round)."""
    return state.phase == "deal"


def is_over(state: State) -> bool:
    """True when the game has ended (spec §2.12)."""
    return state.phase == "over"


def chance_outcome(state: State, rng: random.Random) -> Shuffle:
    """Sample the chance move from ``rng``: the first dealer (``rng.randrange(players)``, only when not fixed)
    then ``rng.shuffle(full_deck(2))``.  The same seed gives the same game in every client.

    Raises:
        IllegalMoveError: the state is not a chance node.
    """
    if state.phase != "deal":
        raise IllegalMoveError("no shuffle is due: the round is under way or the game is over")
    dealer = rng.randrange(state.players) if state.dealer is None else None
    deck = list(_FULL_DECK)  # == full_deck(PACKS)
    rng.shuffle(deck)
    return Shuffle(tuple(deck), dealer)


def deal_plan(rules: Rules, players: int) -> list[tuple[int, ...]]:
    """Cards per seat (from the dealer's left) in every deal of a round (spec §2.3, DEAL-01).

    Returns:
        One tuple per deal; the last may be short (the rest dealt one at a time from the dealer's left).
    """
    stock = DECK_SIZE - rules.table_size - players * rules.hand_size
    plan = [(rules.hand_size,) * players]
    per = players * rules.hand_size
    while stock > 0:
        if stock >= per:
            plan.append((rules.hand_size,) * players)
            stock -= per
        else:
            q, r = divmod(stock, players)
            plan.append(tuple(q + (1 if i < r else 0) for i in range(players)))
            stock = 0
    return plan


def _deal(
    rules: Rules, players: int, dealer: int, stock: tuple[Card, ...], first: bool
) -> tuple[list[list[Card]], list[Card], tuple[Card, ...]]:
    """Deal one deal from the front of ``stock`` (spec §2.3): packets of ``deal_packet`` to each seat from the
    dealer's left, then (first deal only) to the table, repeated; a short last deal goes one card at a time.

    Returns:
        (hands indexed by seat, table cards, remaining stock).
    """
    hand_need = rules.hand_size
    pos = 0
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    order = [(dealer + 1 + i) % players for i in range(players)]
    full = len(stock) >= players * hand_need + (rules.table_size if first else 0)
    if full:
        need = {seat: hand_need for seat in order}
        table_need = rules.table_size if first else 0
        packet = rules.deal_packet
        while any(need.values()) or table_need:
            for seat in order:
                k = min(packet, need[seat])
                hands[seat].extend(stock[pos : pos + k])
                pos += k
                need[seat] -= k
            k = min(packet, table_need)
            table.extend(stock[pos : pos + k])
            pos += k
            table_need -= k
    else:  # short last deal: one at a time from the dealer's left until the stock is empty
        i = 0
        while pos < len(stock):
            hands[order[i % players]].append(stock[pos])
            pos += 1
            i += 1
    return hands, table, stock[pos:]


_CARD_TYPE: Final = {Card}


def _shuffle_deck(deck: Any) -> tuple[Card, ...]:
    """A shuffle's deck as Card values (cards, their notation or their ints).

    Raises:
        InvalidMoveError: the deck is not a sequence of cards.
    """
    if isinstance(deck, str) or not isinstance(deck, tuple | list):
        raise InvalidMoveError(f"a shuffle's deck is a sequence of {DECK_SIZE} cards, got {type(deck).__name__}")
    out = []
    for c in deck:
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, str):
            out.append(Card.parse(c))
        elif type(c) is int:
            out.append(Card(c))
        else:
            raise InvalidMoveError(f"a shuffle's deck holds cards, not {type(c).__name__} {c!r}"[:120])
    return tuple(out)


def _start_round(state: State, move: Shuffle) -> tuple[State, list[Event]]:
    deck = move.deck
    # fast check for a deck of Card values (every chance_outcome deck); anything else is converted first
    if not (type(deck) is tuple and set(map(type, deck)) == _CARD_TYPE and sorted(deck) == list(_FULL_DECK)):
        deck = _shuffle_deck(move.deck)
        if len(deck) != DECK_SIZE or Counter(deck) != _FULL_COUNTS:
            raise IllegalMoveError("a shuffle must hold the 104 cards of two packs, every card exactly twice")
    events: list[Event] = []
    dealer = state.dealer
    if dealer is None:
        if move.dealer is None or not (type(move.dealer) is int and 0 <= move.dealer < state.players):
            raise IllegalMoveError(f"the first shuffle must choose a dealer seat 0..{state.players - 1}")
        dealer = move.dealer
        events.append(Event("dealer", {"seat": dealer}))
    elif move.dealer is not None and (type(move.dealer) is not int or move.dealer != dealer):
        raise IllegalMoveError(f"the dealer is already seat {dealer}; a shuffle cannot change it")
    rules = state.rules
    hands, table, stock = _deal(rules, state.players, dealer, deck, True)
    plan = deal_plan(rules, state.players)
    last = not stock
    events.append(
        Event(
            "deal",
            {
                "deal_no": 1,
                "deals_total": len(plan),
                "cards": [len(h) for h in hands],
                "table": [str(c) for c in sorted(table)],
                "last": last,
            },
        )
    )
    if last:
        events.append(Event("baat", {"dealer": dealer}))
    new = state._evolve(
        {
            "phase": "play",
            "dealer": dealer,
            "round_no": state.round_no + 1,
            "to_move": (dealer + 1) % state.players,
            "table": tuple(sorted(table)),
            "builds": (),
            "piles": tuple(PileInfo() for _ in range(state.sides)),
            "last_capturer": None,
            "deal_no": 1,
            "deals_total": len(plan),
            "is_last_deal": last,
            "next_build": 1,
            "_hands": tuple(tuple(sorted(h)) for h in hands),
            "_stock": stock,
        }
    )
    return new, events


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
    if rules.special_capture_builds_only and h >= 14:
        return [((), ())]
    # Only loose cards worth at most h can be in a group worth h: in the sorted table, those below rank h + 1.
    table = state.table[: bisect_left(state.table, 4 * h)]
    if rules.pure_mulle and not SCORING[x] and x in table:
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


def _owns(state: State, seat: int, b: TableBuild) -> bool:
    """Whether ``seat`` is bound by ``b`` for the trail ban (spec §2.6 ownership, A25 team_build_duty)."""
    if b.owner == seat or seat in b.co_owners:
        return True
    return state.rules.team_build_duty == "team" and state.teams and b.owner % 2 == seat % 2


def _same_team(state: State, a: int, b: int) -> bool:
    return a == b or (state.teams and a % 2 == b % 2)


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


def _legal(state: State) -> list[PlayerMove]:
    """Every legal move (spec §2.13), in the order of :func:`legal_moves`.

    Captures (M1) come from :func:`_captures`; building moves M2-M6 and the reserve rule are below; trails
    (M7), the capture duty and the safety valve at the end.  Positions that share a loose table share its
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
    reserve_rule = rules.reserve_rule
    owned = [b for b in builds if b.owner == seat] if builds else _NO_BUILDS

    def ok(x: int, drop: str | None, add: int | None) -> bool:
        # Reserve rule (spec §2.6): after the move the mover still holds a card for every build it owns; ``add``
        # is the new value of the build the move makes or changes (D5), ``drop`` a build whose value it changes.
        hx = HV[x]
        if add is not None and hvc[add] - (hx == add) <= 0:
            return False
        if reserve_rule:
            for b in owned:
                if b.id != drop and b.value != add and hvc[b.value] - (hx == b.value) <= 0:
                    return False
        return True

    captures: list[PlayerMove] = []
    capturing: set[int] = set()
    others: list[PlayerMove] = []
    locking = rules.locking
    packaging = rules.table_packaging if locking else "off"
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
    # builds the mover may raise / build down (open; one's own only with raise_own and no_consecutive_raise off)
    # and may package into / lay on (locking on; any build with ligger_any, else only the own side's)
    changeable: list[tuple[str, int, bool]] = []
    lockable: list[tuple[str, int]] = []
    if builds:
        no_own_change = not rules.raise_own or rules.no_consecutive_raise
        changeable = [
            (b.id, b.value, b.owner == seat) for b in builds if not b.locked and not (b.owner == seat and no_own_change)
        ]
        if locking:
            lockable = [(b.id, b.value) for b in builds if rules.ligger_any or _same_team(state, b.owner, seat)]
    down = rules.build_down
    down_own_off = rules.build_down_only_on_others
    cacheable = not rules.builds_in_sums  # then a capture depends only on x, the table and builds of hv(x)
    scoring_builds = rules.scoring_build_from_hand
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
            if not owned or _capture_keeps_reserve(m, owned, hvc, x, reserve_rule):
                captures.append(m)
                capturing.add(x)
        if SCORING[x] and not scoring_builds:
            continue  # D6: no scoring card builds from the hand
        t = TV[x]
        # bit v of keeps: besides x the mover holds a card of hand value v (D5: may build to v)
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
                if owned and not ok(x, None, v):
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
                if not ok(x, None, v):
                    continue
                for pk in _pair_sets_cached(facts, table, combo, v, forced) if packaging != "off" else _NO_PAIRS:
                    others.append(_fast_build(x, combo, v, pk))
        if not builds:
            continue
        # M3 raise / M4 build down on open builds
        for bid, bv, own in changeable:
            v = bv + t
            if v <= 16 and keeps >> v & 1 and (not owned or ok(x, bid, v)):
                others.append(_change_move(Raise, x, bid, v))
            if down and not (own and down_own_off):
                v = bv - t
                if v >= 2 and keeps >> v & 1 and (not owned or ok(x, bid, v)):
                    others.append(_change_move(BuildDown, x, bid, v))
        # M5 package from the hand, M6 lay on
        for bid, bv in lockable:
            if not keeps >> bv & 1 or (owned and not ok(x, None, bv)):
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
    if not builds or not any(_owns(state, seat, b) for b in builds):
        duty = rules.capture_duty
        for x in distinct:
            if duty == "player" and captures:
                break
            if duty == "strict" and moves:
                break
            if duty == "card" and x in capturing:
                continue
            if not owned or ok(x, None, None):
                moves.append(_TRAILS[x])
    if not moves:  # safety valve (spec §2.6): trail any card
        moves = [_TRAILS[x] for x in distinct]
        state._cache["safety_valve"] = True
    return moves


def _capture_keeps_reserve(m: Capture, owned: list[TableBuild], hvc: list[int], x: int, reserve_rule: bool) -> bool:
    """A capture that takes the mover's own builds needs no reserve for them (they leave the table)."""
    if not reserve_rule:
        return True
    hx = HV[x]
    taken = m.builds
    return all(b.id in taken or hvc[b.value] - (hx == b.value) > 0 for b in owned)


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


# ----------------------------------------------------------------------------------------------- applying moves
def apply(state: State, move: Move) -> State:
    """The next state after ``move`` (a player move of the seat to act, or the Shuffle at a chance node).

    Raises:
        IllegalMoveError: the move is not legal here; the message says which rule forbids it.
        NotYourTurnError: a player move at a chance node or after the game.
        InvalidMoveError: not a Mulle move.
    The given state is never changed.
    """
    return _step(state, move, False)[0]


def step(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """As :func:`apply`, plus the public events the move caused, in order (see :class:`Event`)."""
    return _step(state, move, True)


_PLAYER_MOVES: Final = (Capture, Trail, Build, Raise, BuildDown, Package, LayOn)


def _step(state: State, move: Move, want_events: bool) -> tuple[State, tuple[Event, ...]]:
    if isinstance(move, Shuffle):
        if state.phase != "deal":
            raise IllegalMoveError("no shuffle is due: the round is under way or the game is over")
        new, events = _start_round(state, move)
        return new, tuple(events)
    if not isinstance(move, _PLAYER_MOVES):
        raise InvalidMoveError(f"not a Mulle move: {move!r}")
    if state.phase == "deal":
        raise NotYourTurnError("it is nobody's turn: the cards must be shuffled and dealt first")
    if state.phase == "over":
        raise NotYourTurnError("the game is over")
    if not _is_legal(state, move):
        raise IllegalMoveError(f"illegal move {move}: {explain_illegal(state, move)}")
    return _apply_play(state, move, want_events)


def _apply_play(state: State, move: PlayerMove, want_events: bool = True) -> tuple[State, tuple[Event, ...]]:
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
        b = _build(builds, move.build)
        changed = TableBuild(b.id, tuple(sorted((*b.cards, x))), move.value, seat, False, _co(state, b, seat))
        builds = _merge(state, tuple(changed if o.id == b.id else o for o in builds), changed)
    elif isinstance(move, Package):
        b = _build(builds, move.build)
        pk = [c for p in move.pkg for c in p]
        table = _without(table, (*move.loose, *pk))
        changed = TableBuild(
            b.id, tuple(sorted((*b.cards, x, *move.loose, *pk))), b.value, seat, rules.locking, _co(state, b, seat)
        )
        builds = tuple(changed if o.id == b.id else o for o in builds)
    else:  # LayOn
        b = _build(builds, move.build)
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


def _set(t: tuple[PileInfo, ...], i: int, v: PileInfo) -> tuple[PileInfo, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _build(builds: tuple[TableBuild, ...], bid: str) -> TableBuild:
    for b in builds:
        if b.id == bid:
            return b
    raise IllegalMoveError(f"there is no build [{bid}] on the table")


def _co(state: State, b: TableBuild, seat: int) -> tuple[int, ...]:
    if state.rules.ownership != "co":
        return ()
    return tuple(sorted({*b.co_owners, b.owner} - {seat}))


def _merge(state: State, builds: tuple[TableBuild, ...], changed: TableBuild) -> tuple[TableBuild, ...]:
    """One build per value (A14): a build whose new value equals another's merges into that one (it keeps the
    older build's id) and the result is locked (with locking on)."""
    if not state.rules.one_build_per_value:
        return builds
    other = next((b for b in builds if b.value == changed.value and b.id != changed.id), None)
    if other is None:
        return builds
    merged = TableBuild(
        other.id,
        tuple(sorted((*other.cards, *changed.cards))),
        changed.value,
        changed.owner,
        state.rules.locking,
        tuple(sorted(set(changed.co_owners) | ({other.owner} - {changed.owner})))
        if state.rules.ownership == "co"
        else (),
    )
    return tuple(merged if b.id == other.id else b for b in builds if b.id != changed.id)


def _is_last_play(state: State) -> bool:
    """Whether the card about to be played is the last card of the round (spec §2.9)."""
    if state.partial:
        return state.last_play_flag
    return not state._stock and sum(len(h) for h in state._hands) == 1


def _advance(
    state: State, seat: int, was_last: bool, events: list[Event], want_events: bool = True
) -> tuple[State, tuple[Event, ...]]:
    n = state.players
    hands = state._hands
    if state.partial and not was_last:
        return state._evolve({"to_move": (seat + 1) % n}), tuple(events)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if hands[s]:
            return state._evolve({"to_move": s}), tuple(events)
    if state._stock and not state.partial:
        assert state.dealer is not None
        dealt, _, stock = _deal(state.rules, n, state.dealer, state._stock, False)
        last = not stock
        deal_no = state.deal_no + 1
        if want_events:
            events.append(
                Event(
                    "deal",
                    {
                        "deal_no": deal_no,
                        "deals_total": state.deals_total,
                        "cards": [len(h) for h in dealt],
                        "table": [],
                        "last": last,
                    },
                )
            )
            if last:
                events.append(Event("baat", {"dealer": state.dealer}))
        new = state._evolve(
            {
                "_hands": tuple(tuple(sorted(h)) for h in dealt),
                "_stock": stock,
                "deal_no": deal_no,
                "is_last_deal": last,
                "to_move": (state.dealer + 1) % n,
            }
        )
        return new, tuple(events)
    return _end_round(state, events, want_events)


def _end_round(state: State, events: list[Event], want_events: bool = True) -> tuple[State, tuple[Event, ...]]:
    """Last-capture sweep (§2.10, never a tabbe), round scoring (§2.11), game end and ties (§2.12)."""
    rules = state.rules
    piles = state.piles
    leftover = list(state.table)
    for b in state.builds:
        leftover.extend(b.cards)
    if state.last_capturer is not None and leftover:
        side = state.side(state.last_capturer)
        p = piles[side]
        piles = _set(piles, side, PileInfo(p.cards + tuple(leftover), p.mulles, p.tabbar))
        if want_events:
            events.append(
                Event(
                    "last_capture",
                    {"seat": state.last_capturer, "side": side, "cards": [str(c) for c in sorted(leftover)]},
                )
            )
    breakdown = tuple(score_pile(p.cards, p.mulles, p.tabbar, rules) for p in piles)
    scores = tuple(s + int(b["total"]) for s, b in zip(state.scores, breakdown, strict=True))
    if want_events:
        events.append(
            Event("round_over", {"round": state.round_no, "breakdown": list(breakdown), "scores": list(scores)})
        )
    changes: dict[str, Any] = {
        "table": (),
        "builds": (),
        "piles": piles,
        "scores": scores,
        "round_log": (*state.round_log, breakdown),
        "to_move": None,
        "is_last_deal": False,
    }
    if state.partial:
        changes.update(phase="over", winners=None)
        return state._evolve(changes), tuple(events)
    winners = _winners(rules, scores, state.round_no, state.players)
    if winners is not None:
        if want_events:
            events.append(Event("game_over", {"winners": list(winners), "scores": list(scores)}))
        changes.update(phase="over", winners=winners)
        return state._evolve(changes), tuple(events)
    assert state.dealer is not None
    changes.update(phase="deal", dealer=(state.dealer + 1) % state.players)
    return state._evolve(changes), tuple(events)


def _winners(rules: Rules, scores: tuple[int, ...], rounds: int, players: int) -> tuple[int, ...] | None:
    """The winning sides if the game ends after this round, ``()`` for a draw, None to play on (spec §2.12)."""
    best = min(scores) if rules.kryp else max(scores)
    leaders = tuple(i for i, s in enumerate(scores) if s == best)
    target = rules.target
    if target is not None:
        if max(scores) < target:
            return None
        fixed = False
    else:
        needed = 1 if rules.game_length == "single_round" else players
        if rounds < needed:
            return None
        fixed = True
    if len(leaders) == 1:
        return leaders
    tie = rules.tie_rule
    if tie == "draw" or (tie == "standard" and fixed):
        return ()
    return None


# ----------------------------------------------------------------------------------------------- results, parsing
def result(state: State) -> Result:
    """Game end, winners (sides), final scores and the per-round breakdowns."""
    return Result(
        over=state.phase == "over",
        winners=state.winners or (),
        scores=state.scores,
        rounds=state.round_log,
        lowest_wins=state.rules.kryp,
    )


def parse_move(state: State, text: str) -> PlayerMove:
    """Notation resolved against the position's legal moves (spec §5.2).

    Also accepted: ``C <card>`` alone (the capture with that card, if it is the only one) and ``T``/``B``... in
    any card order and spacing.
    Raises:
        InvalidMoveError: malformed notation.  IllegalMoveError: well-formed but not legal (with the reason).
        AmbiguousMoveError: ``C <card>`` matching several captures.  NotYourTurnError: nobody is to play.
    """
    if state.phase != "play":
        raise NotYourTurnError("no player is to move" + (": the game is over" if state.phase == "over" else ""))
    stripped = " ".join(text.split()) if isinstance(text, str) else text
    if isinstance(stripped, str) and stripped[:2].upper() == "C " and "{" not in stripped:
        card = parse_move_text(f"T {stripped[2:]}").card  # type: ignore[union-attr]
        matches = [m for m in legal_moves(state) if isinstance(m, Capture) and m.card == card]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise IllegalMoveError(f"illegal move {text!r}: {card} has no legal capture here")
        raise AmbiguousMoveError(f"{text!r} matches several captures: " + "; ".join(str(m) for m in matches))
    move = parse_move_text(text)
    if isinstance(move, Shuffle):
        raise InvalidMoveError("a shuffle is a chance step, not a player's move")
    if move not in _legal_set(state):
        raise IllegalMoveError(f"illegal move {move}: {explain_illegal(state, move)}")
    return move


def _group_text(cards: Sequence[int]) -> str:
    return "+".join(str(Card(int(c))) for c in sorted(cards))


def explain_illegal(state: State, move: PlayerMove) -> str:
    """Why ``move`` is not legal in ``state``, in plain words (which rule of spec §2.6-§2.7 forbids it)."""
    rules = state.rules
    if state.phase != "play" or state.to_move is None:
        return "no player is to move"
    seat = state.to_move
    hand = state._hands[seat]
    x = move.card
    if x not in hand:
        return f"you hold no {x}" if hand else "you hold no cards"
    legal = _legal_list(state)  # canonical order, so the example move in a message is deterministic
    t, h = TV[x], HV[x]
    table_count = Counter(state.table)

    def missing(cards: Sequence[Card]) -> str | None:
        need = Counter(cards)
        for c, k in need.items():
            if table_count[c] < k:
                return f"{c} is not {'a loose card ' if k == 1 else 'loose twice '}on the table"
        return None

    builds = {b.id: b for b in state.builds}
    own_builds = [b for b in state.builds if b.owner == seat]
    hvc = Counter(HV[c] for c in hand)
    hvc[h] -= 1

    def reserve_msg(v: int) -> str:
        return f"you hold no {_value_name(v)} to take a build of {v}"

    def other_reserve(drop: str | None, add: int | None) -> str | None:
        if not rules.reserve_rule:
            return None
        for b in own_builds:
            if b.id != drop and b.value != add and hvc[b.value] <= 0:
                return (
                    f"you own the build [{b.id}] of {b.value} and must keep a card worth {b.value} to take it "
                    f"(reserve rule)"
                )
        return None

    if isinstance(move, Capture):
        for bid in move.builds:
            if bid not in builds:
                return f"there is no build [{bid}] on the table"
        for bid in move.builds:
            b = builds[bid]
            if b.value != h and not (rules.builds_in_sums and b.value < h):
                if hvc[b.value] > 0 or h == b.value:
                    return f"{x} counts {h} from the hand; a build of {b.value} is taken only by a card worth {b.value}"
                return f"you hold no {_value_name(b.value)} to take a build of {b.value}"
        miss = missing(move.loose)
        if miss:
            return miss
        if rules.special_capture_builds_only and h >= 14 and move.loose:
            return f"{x} counts {h} from the hand and may capture only builds of {h} (special_capture_builds_only)"
        if rules.pure_mulle and not SCORING[x] and x in state.table and tuple(move.loose) != (x,):
            return f"pure mulle: {x}'s twin lies loose on the table, so {x} takes only its twin (and builds of {h})"
        hb = [b.id for b in state.builds if b.value == h]
        left_builds = [bid for bid in hb if bid not in move.builds]
        if left_builds and rules.capture_all_builds:
            return "a capture takes every build of its value: also " + ", ".join(f"[{b}]" for b in left_builds)
        values = tuple(TV[c] for c in move.loose) + tuple(builds[b].value for b in move.builds if builds[b].value != h)
        if values:
            _, _, every = _packings(values, h)
            if (1 << len(values)) - 1 not in every:
                return (
                    f"the cards {{{','.join(str(c) for c in move.loose)}}} cannot be split into groups worth {h} "
                    f"({x} counts {h} from the hand)"
                )
        if not move.loose and not move.builds:
            return "a capture must take something"
        rest = _without(state.table, move.loose)
        groups, _, _ = _packings(tuple(TV[c] for c in rest), h)
        if groups and rules.maximal != "free":
            g = groups[0]
            return f"a capture must take every card it can: also {_group_text(_mask_cards(g, rest))}"
        if rules.maximal == "maximum":
            return "a capture must take the largest possible number of cards (maximal=maximum)"
        msg = other_reserve(None, None)
        if msg:
            return msg
    elif isinstance(move, Trail):
        owned = [b for b in state.builds if _owns(state, seat, b)]
        if owned:
            b = owned[0]
            whose = "you own" if b.owner == seat or seat in b.co_owners else "your team owns"
            return f"{whose} a build ([{b.id}] of {b.value}), so you may not trail"
        caps = [m for m in legal if isinstance(m, Capture)]
        if rules.capture_duty == "card" and any(m.card == x for m in caps):
            return f"{x} can capture ({next(m for m in caps if m.card == x)}), so it may not be trailed"
        if rules.capture_duty in ("player", "card") and caps:
            return f"you can capture ({caps[0]}), so you may not trail"
        if rules.capture_duty == "strict" and legal:
            return f"you can capture or build ({next(iter(sorted(map(str, legal))))}), so you may not trail"
        msg = other_reserve(None, None)
        if msg:
            return msg
    else:
        if SCORING[x] and not rules.scoring_build_from_hand:
            return f"{x} is a scoring card (ace, 2S or TD) and may not be used to build from the hand"
        if isinstance(move, Build):
            miss = missing((*move.on, *(c for p in move.pkg for c in p)))
            if miss:
                return miss
            if len(move.on) > rules.max_table_cards_in_found:
                return (
                    f"a build is founded from {rules.max_found_cards} cards at most "
                    "(one from the hand on one from the table)"
                )
            v = t + sum(TV[c] for c in move.on)
            if v != move.value:
                return f"{_group_text((x, *move.on))} makes {v}, not {move.value}"
            if v > 16:
                return f"no card is worth {v}"
            if hvc[v] <= 0:
                return reserve_msg(v)
            for p in move.pkg:
                if sum(TV[c] for c in p) != v:
                    return f"the packed pair {_group_text(p)} is not worth {v}"
            if move.pkg and (not rules.locking or rules.table_packaging == "off"):
                return "packing loose table pairs into a build is off in these rules"
            existing = next((b for b in state.builds if b.value == v), None)
            if existing is not None and rules.one_build_per_value:
                if rules.locking:
                    return (
                        f"a build of {v} already exists ([{existing.id}]): package into it with "
                        f"P {_group_text((x, *move.on))} -> [{existing.id}]"
                    )
                return f"a build of {v} already exists ([{existing.id}]) and there may be only one per value"
            if rules.table_packaging == "forced":
                return "every loose pair worth the build's value must be packed in (table_packaging=forced)"
            msg = other_reserve(None, v)
            if msg:
                return msg
        else:
            if move.build not in builds:
                return f"there is no build [{move.build}] on the table"
            b = builds[move.build]
            if isinstance(move, Raise | BuildDown):
                word = "raised" if isinstance(move, Raise) else "built down"
                if isinstance(move, BuildDown) and not rules.build_down:
                    return "building down is off in these rules"
                if b.locked:
                    return f"[{b.id}] is locked (packaged, laid on or merged), so it cannot be {word}"
                v = b.value + t if isinstance(move, Raise) else b.value - t
                if v != move.value:
                    return f"{word.split()[0]} with {x}, [{b.id}] of {b.value} becomes {v}, not {move.value}"
                if b.owner == seat and (
                    not rules.raise_own
                    or rules.no_consecutive_raise
                    or (isinstance(move, BuildDown) and rules.build_down_only_on_others)
                ):
                    return f"you may not change your own build [{b.id}] again in these rules"
                if v < 2 or v > 16:
                    return f"a build must be worth 2..16, not {v}"
                if hvc[v] <= 0:
                    return reserve_msg(v)
                msg = other_reserve(b.id, v)
                if msg:
                    return msg
            else:
                if not rules.locking:
                    return "packaging and lay-on (ligger) are off in these rules (locking=off)"
                if not rules.ligger_any and not _same_team(state, b.owner, seat):
                    return "you may package or lay on only your own or your partner's build (ligger_any=false)"
                if isinstance(move, Package):
                    miss = missing((*move.loose, *(c for p in move.pkg for c in p)))
                    if miss:
                        return miss
                    s = t + sum(TV[c] for c in move.loose)
                    if s != b.value:
                        return f"{_group_text((x, *move.loose))} makes {s}, but [{b.id}] is worth {b.value}"
                    if len(move.loose) > rules.max_table_cards_in_found:
                        return "a packaged combination holds two cards: one from the hand, one from the table"
                    for p in move.pkg:
                        if sum(TV[c] for c in p) != b.value:
                            return f"the packed pair {_group_text(p)} is not worth {b.value}"
                else:
                    if t != b.value:
                        return f"{x} counts {t}; only a card worth {b.value} may be laid on [{b.id}]"
                if hvc[b.value] <= 0:
                    return f"you must keep another card worth {b.value} to take [{b.id}] later (reserve rule)"
                msg = other_reserve(None, b.value)
                if msg:
                    return msg
    return "not a legal move in this position"


def _value_name(v: int) -> str:
    return {11: "jack (11)", 12: "queen (12)", 13: "king (13)", 14: "ace (14)", 15: "2S (15)", 16: "TD (16)"}.get(
        v, str(v)
    )
