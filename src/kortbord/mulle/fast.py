"""Mulle's fast core: random play on plain integers, the same game as the engine (issue #13 item 1).

The engine (:mod:`kortbord.mulle.movegen`, :mod:`kortbord.mulle.transitions`) works on immutable
:class:`~kortbord.mulle.state.State` values; this core plays the same rules on one mutable :class:`FastState` of
plain ints and lists -- cards as indices 0..51 (:class:`~kortbord.cards.Card` order), hands and the loose table as
sorted lists, the loose table also as one int of 2-bit card counts (``tkey``), builds as small lists -- with no move
objects, no events and no copies.  State values are converted only at the edges (:func:`from_state`,
:meth:`FastState.to_state`).

* :func:`legal` lists the legal moves as *fast codes* (below) in the engine's canonical order
  (:func:`kortbord.mulle.movegen.legal_codes`): the same set, the same order, so that index ``k`` is the same move;
  :func:`engine_code` turns one into the engine's move code.
* :func:`play` applies a fast code in place, as ``transitions.apply_code`` does to a State (spec §2.6-§2.11: the
  capture with its mulles and tabbe, builds, raises, merges, packaging, ligger, the next turn, the next deal, the
  last-capture sweep and the round's scoring).
* :func:`random_round` plays one round from its shuffle with uniformly random legal moves, drawing from the
  ``random.Random`` exactly what the engine loop ``apply(s, chance_outcome(s, rng))`` then
  ``apply_code(s, rng.choice(legal_codes(s)))`` draws, so a seed gives the engine's game (checked by
  ``tests/mulle/test_fast_core.py``).

Fast codes (``x`` the played card; builds by their index in ``FastState.builds``, which is id order):

| code                            | engine code                                   |
|---------------------------------|-----------------------------------------------|
| ``(0, x, loose, build_indexes)``| ``(CAPTURE, x, loose, build_ids)``            |
| ``(1, x, (y,), v, pkg)``        | ``(BUILD, x, (y,), v, pkg)``                  |
| ``(2, x, i, v)``/``(3, x, i, v)``| ``(RAISE/DOWN, x, build_id, v)``             |
| ``(4, x, (y,), i, pkg)``        | ``(PACKAGE, x, (y,), build_id, pkg)``         |
| ``(5, x, i)``                   | ``(LAYON, x, build_id)``                      |
| ``(6, x)``                      | ``(TRAIL, x)``                                |

Supported rules (:func:`supports`): every option of every profile (``standard``, ``cardgames.zone``, ``kryp``)
and every deal format and seating the engine plays (2-4 players, teams, any ``hand_size``/``table_size``/
``deal_packet``), except four local build rules, for which the functions here fall back to the engine:
``max_found_cards`` other than 2, ``builds_in_sums``, ``capture_all_builds=false`` and ``ownership="co"``.
Partial positions (``State.partial``) are not converted either.
"""

from __future__ import annotations

import bisect
import gc
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from kortbord.cards import Card
from kortbord.errors import InvalidRulesError
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import card_points, mulle_points, pile_breakdown, score_pile
from kortbord.mulle.state import HV, SCORING, PileInfo, State
from kortbord.mulle.state import Build as TableBuild

__all__ = [
    "COMPILED",
    "FastState",
    "RoundResult",
    "engine_code",
    "from_state",
    "legal",
    "play",
    "random_round",
    "supports",
]

FastCode = tuple[Any, ...]
_DECK: Final[tuple[int, ...]] = tuple(i for i in range(52) for _ in range(2))  # == full_deck(2) as ints
_HVB: Final[tuple[int, ...]] = tuple(1 << v for v in HV)  # 1 << hv(card)
_TWO: Final[tuple[int, ...]] = tuple(1 << (2 * c) for c in range(52))  # one card in a tkey
_VONE: Final[tuple[int, ...]] = tuple(1 << (4 * (c // 4)) for c in range(52))  # one card in a vkey
#: ``_LOW[h]``: the tkey bits of the cards of table value <= h (indices < 4h).
_LOW: Final[tuple[int, ...]] = tuple((1 << (8 * min(h, 13))) - 1 for h in range(17))
_TRAILS: Final[tuple[FastCode, ...]] = tuple((6, c) for c in range(52))
_HV: Final[tuple[int, ...]] = HV  # hand values, as state.HV (a Final of this module: static in the compiled build)
_SCORING: Final[tuple[bool, ...]] = SCORING
_ONE: Final[tuple[tuple[int], ...]] = tuple((c,) for c in range(52))
_ONES: Final[tuple[tuple[tuple[int]], ...]] = tuple((o,) for o in _ONE)  # the one loose part (c,) of a capture
#: ``_BUILD1[52 * x + y]``: the fast code of the build of x on the loose card y with no packed pairs (the most
#: common move after the trail; shared, as every fast code is immutable)
_BUILD1: Final[tuple[FastCode, ...]] = tuple(
    (1, x, _ONE[y], x // 4 + y // 4 + 2, ()) for x in range(52) for y in range(52)
)
#: ``_CAPTURE1[52 * x + y]``: the fast code of the capture of the one loose card y with x, no builds taken
_CAPTURE1: Final[tuple[FastCode, ...]] = tuple((0, x, _ONE[y], ()) for x in range(52) for y in range(52))
_FIRST: Final[tuple[int]] = (0,)
#: zeros to copy lists of counts from (a slice of it is cheaper in the compiled build than ``[0] * n``)
_ZEROS: Final[list[int]] = [0] * 18
_insort: Final = bisect.insort


def _probe() -> None:
    """A function to ask whether this module is compiled (:data:`_NATIVE`)."""


#: Whether this module runs compiled (``make compiled``; :data:`COMPILED` says the same, for users).  The few
#: sorted-list edits of :func:`_play` then run as loops on machine ints (:func:`_take`, :func:`_put`): a call into
#: the C API's list methods costs the compiled build more than the whole loop; the source calls them.
_NATIVE: Final[bool] = not hasattr(_probe, "__code__")


def _take(a: list[int], x: int) -> int:
    """Remove the first ``x`` from the sorted list ``a`` (which holds it); return its index (the compiled
    build's ``i = a.index(x); del a[i]``)."""
    i = 0
    while a[i] != x:
        i += 1
    _drop(a, i)
    return i


def _drop(a: list[Any], i: int) -> None:
    """``del a[i]`` (the compiled build's)."""
    for k in range(i, len(a) - 1):
        a[k] = a[k + 1]
    a.pop()


def _has(a: list[int], x: int) -> bool:
    """``x in a`` for the sorted list ``a`` (the compiled build's)."""
    for c in a:
        if c >= x:
            return c == x
    return False


def _put(a: list[int], x: int) -> None:
    """Insert ``x`` into the sorted list ``a`` after its equals (the compiled build's ``bisect.insort(a, x)``)."""
    a.append(x)
    k = len(a) - 1
    while k and a[k - 1] > x:
        a[k] = a[k - 1]
        k -= 1
    a[k] = x


_NO_CODES: Final[list[int]] = []  # no builds to change or lock (shared, never changed)
_BUILDS_ONLY: Final[tuple[tuple[()]]] = ((),)  # the one loose part of a capture of builds only


def supports(rules: object) -> bool:
    """Whether the fast core plays ``rules`` itself (else its functions fall back to the engine): every option
    except ``max_found_cards`` other than 2, ``builds_in_sums``, ``capture_all_builds=false`` and
    ``ownership="co"`` (see the module docstring).

    Raises:
        InvalidRulesError: ``rules`` is not a :class:`~kortbord.mulle.rules.Rules` value."""
    rules = _rules_arg(rules)
    return (
        rules.max_found_cards == 2
        and not rules.builds_in_sums
        and rules.capture_all_builds
        and rules.ownership == "last"
    )


def _rules_arg(rules: object) -> Rules:
    """``rules`` if it is a Rules value, else InvalidRulesError (``new_game``'s message)."""
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a mulle.Rules value, got {type(rules).__name__}")
    return rules


# The public functions take ``object`` and check their arguments themselves, so that the compiled build (whose
# typed arguments mypyc checks with its own TypeError) and this source raise the same errors on bad input.
def _state_arg(f: object, name: str) -> FastState:
    """``f`` if it is a FastState, else TypeError."""
    if not isinstance(f, FastState):
        raise TypeError(f"{name}: expected a FastState, got {type(f).__name__}")
    return f


def _code_arg(code: object, name: str) -> FastCode:
    """``code`` if it is a tuple (a fast code), else TypeError."""
    if not isinstance(code, tuple):
        raise TypeError(f"{name}: expected a fast code (a tuple), got {type(code).__name__}")
    return code


# ----------------------------------------------------------------------------------------------- state
class FastState:
    """One Mulle round in play, mutable, on plain ints (see the module docstring).

    Attributes:
        rules, players, teams, dealer.
        hands: per seat a sorted list of card indices; hfs: per seat its :func:`_hand_facts`.  table: the loose
            cards, sorted.  tkey: the loose table as an int, 2 bits of count per card (bits ``2c``, ``2c+1``);
            vkey: its table values as an int, 4 bits of count per value (bits ``4(v-1)`` to ``4v-1``).  tf: the
            :func:`_table_facts` of the loose table when its vkey was ``tfk`` (the last :func:`_gen`'s).
        builds: per build in id order ``[number, value, owner, locked, cards]`` (``cards`` a sorted list; the id
            is ``"B<number>"``); bver: a number changed whenever the builds change.  next_build: the number of
            the next build.
        stock: the undealt cards in dealing order (a list), ``pos`` the index of the next one.
        to_move: the seat to play, or None once the round is over.  left: cards in all hands.
        piles: per side ``[cards, mulles, tabbar]`` (lists, capture order; mulles ``(card, points)``).
        last_capturer: the seat of the last capture, or None.
        deal_no, deals_total, is_last_deal: as on State.  round_no, scores, round_log: copied from the State.
        breakdown: after the round, each side's score (:func:`kortbord.mulle.scoring.score_pile`), else None.
    """

    __slots__ = (
        "breakdown",
        "builds",
        "bver",
        "deal_no",
        "dealer",
        "deals_total",
        "hands",
        "hfs",
        "is_last_deal",
        "last_capturer",
        "left",
        "next_build",
        "piles",
        "players",
        "pos",
        "round_log",
        "round_no",
        "rules",
        "scores",
        "stock",
        "table",
        "teams",
        "tf",
        "tfk",
        "tkey",
        "to_move",
        "vkey",
    )

    rules: Rules
    players: int
    teams: bool
    dealer: int
    hands: list[list[int]]
    hfs: list[_Hand]
    table: list[int]
    tkey: int
    tfk: int
    tf: _TableFacts
    vkey: int
    builds: list[list[Any]]
    bver: int
    next_build: int
    stock: list[int]
    pos: int
    to_move: int | None
    left: int
    piles: list[list[Any]]
    last_capturer: int | None
    deal_no: int
    deals_total: int
    is_last_deal: bool
    round_no: int
    scores: tuple[int, ...]
    round_log: tuple[Any, ...]
    breakdown: tuple[dict[str, Any], ...] | None

    def to_state(self, template: object) -> State:
        """The public :class:`State` of this position; ``template`` gives what the fast core does not keep
        (the game's earlier rounds).  A finished round becomes the state the engine reaches after it (the next
        round's chance node or the game's end).

        Raises:
            TypeError: ``template`` is not a State."""
        from kortbord.mulle.transitions import _winners

        if not isinstance(template, State):
            raise TypeError(f"to_state: expected a State, got {type(template).__name__}")

        changes: dict[str, Any] = {
            "phase": "play",
            "dealer": self.dealer,
            "round_no": self.round_no,
            "to_move": self.to_move,
            "table": tuple(Card(c) for c in self.table),
            "builds": tuple(
                TableBuild(f"B{n}", tuple(Card(c) for c in cards), v, o, lk) for n, v, o, lk, cards in self.builds
            ),
            "piles": self._piles(),
            "scores": self.scores,
            "last_capturer": self.last_capturer,
            "deal_no": self.deal_no,
            "deals_total": self.deals_total,
            "is_last_deal": self.is_last_deal,
            "next_build": self.next_build,
            "_hands": tuple(tuple(Card(c) for c in h) for h in self.hands),
            "_stock": tuple(Card(c) for c in self.stock[self.pos :]),
            "round_log": self.round_log,
            "last_play_flag": False,
        }
        if self.breakdown is not None:  # the round is over (transitions._end_round)
            scores = tuple(s + int(b["total"]) for s, b in zip(self.scores, self.breakdown, strict=True))
            changes.update(scores=scores, round_log=(*self.round_log, self.breakdown), is_last_deal=False)
            winners = _winners(self.rules, scores, self.round_no, self.players)
            if winners is not None:
                changes.update(phase="over", winners=winners)
            else:
                changes.update(phase="deal", dealer=(self.dealer + 1) % self.players)
        return template._evolve(changes)

    def _piles(self) -> tuple[PileInfo, ...]:
        return tuple(
            PileInfo(tuple(Card(c) for c in cards), tuple((Card(c), p) for c, p in mulles), tabbar)
            for cards, mulles, tabbar in self.piles
        )


def from_state(state: object) -> FastState:
    """A :class:`FastState` of ``state`` in play (phase ``"play"``, not partial, rules :func:`supports`).

    Raises:
        TypeError: ``state`` is not a State.
        ValueError: the state is not in play, is partial, or its rules are not supported."""
    if not isinstance(state, State):
        raise TypeError(f"from_state: expected a State, got {type(state).__name__}")
    if state.phase != "play" or state.partial or not supports(state.rules):
        raise ValueError("the fast core converts only a full position in play under supported rules")
    assert state.dealer is not None
    f = FastState()
    f.rules = state.rules
    f.players = state.players
    f.teams = state.teams
    f.dealer = state.dealer
    f.hands = [sorted(map(int, h)) for h in state._hands]
    f.hfs = [_hand_facts(h) for h in f.hands]
    f.table = sorted(map(int, state.table))
    tkey = 0
    vkey = 0
    for c in f.table:
        tkey += _TWO[c]
        vkey += _VONE[c]
    f.tkey = tkey
    f.vkey = vkey
    f.builds = [[int(b.id[1:]), b.value, b.owner, b.locked, sorted(map(int, b.cards))] for b in state.builds]
    f.bver = 0
    f.tfk = -1  # no table facts kept yet (tf: the facts of the table of vkey tfk, for _gen)
    f.tf = _NO_TABLE
    f.next_build = state.next_build
    f.stock = list(map(int, state._stock))
    f.pos = 0
    f.to_move = state.to_move
    f.left = sum(map(len, f.hands))
    f.piles = [[list(map(int, p.cards)), [(int(c), pt) for c, pt in p.mulles], p.tabbar] for p in state.piles]
    f.last_capturer = state.last_capturer
    f.deal_no = state.deal_no
    f.deals_total = state.deals_total
    f.is_last_deal = state.is_last_deal
    f.round_no = state.round_no
    f.scores = state.scores
    f.round_log = state.round_log
    f.breakdown = None
    return f


# ----------------------------------------------------------------------------------------------- rules facts
class _Rules:
    """The options of one supported :class:`Rules` value as the core reads them (a cache per rules value)."""

    __slots__ = (
        "build_down",
        "checked",
        "deals",
        "down_others",
        "duty",
        "forced",
        "from_hand",
        "ligger_any",
        "locking",
        "mode",
        "no_consec",
        "no_tabbe_last_deal",
        "one_per_value",
        "pair_any",
        "pkg_on",
        "points",
        "pure",
        "raise_own",
        "reserve",
        "rules",
        "special",
        "supported",
        "surplus",
        "team_duty",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.supported = supports(rules)
        self.pure = rules.pure_mulle
        self.special = rules.special_capture_builds_only
        self.mode = rules.maximal
        self.duty = rules.capture_duty
        self.build_down = rules.build_down
        self.down_others = rules.build_down_only_on_others
        self.raise_own = rules.raise_own
        self.no_consec = rules.no_consecutive_raise
        self.ligger_any = rules.ligger_any
        self.locking = rules.locking
        packaging = rules.table_packaging if rules.locking else "off"  # checks.packaging_mode
        self.pkg_on = packaging != "off"
        self.forced = packaging == "forced"
        self.from_hand = tuple(not _SCORING[x] or rules.scoring_build_from_hand for x in range(52))
        self.one_per_value = rules.one_build_per_value
        self.no_tabbe_last_deal = rules.no_tabbe_in_last_deal
        self.pair_any = rules.mulle_pair_scope == "any"
        self.reserve = rules.reserve_rule
        self.team_duty = rules.team_build_duty == "team"
        #: per card its card points (``scoring.card_points``) and whether the round is scored by surplus (spec §2.11)
        self.points: tuple[int, ...] = tuple(card_points(c, rules) for c in range(52))
        self.surplus = rules.scoring == "surplus"
        #: ``(players, teams, dealer or -1)`` that ``new_game`` has accepted with these rules (:func:`random_round`)
        self.checked: set[tuple[int, bool, int]] = set()
        #: per player count the number of deals in a round (``len(transitions.deal_plan)``)
        self.deals: dict[int, int] = {}


_RULES: Final[dict[int, _Rules]] = {}


def _rules_of(rules: Rules) -> _Rules:
    r = _RULES.get(id(rules))
    if r is None or r.rules is not rules:
        if len(_RULES) > 1000:
            _RULES.clear()
        r = _RULES[id(rules)] = _Rules(rules)
    return r


# ----------------------------------------------------------------------------------------------- table facts
_Parts = tuple[tuple[int, ...], ...]  # loose parts of captures (cards)
_Pairs = tuple[tuple[tuple[int, int], ...], ...]  # sets of loose pairs packed into a build


#: Facts of the table values of one loose table (:func:`_table_facts`; no rule of its own), a tuple of ints and
#: tuples of ints so that the cache of them is no work for the cyclic GC (CPython untracks such tuples the first
#: time it sees them; a class instance it would walk in every full collection):
#: ``(tv_bits, tvs, cnt, sums, prefix, pair_bits, start)``.
_TableFacts = tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, tuple[int, ...]]


def _table_facts(table: Sequence[int]) -> _TableFacts:
    """The facts of the table values of the sorted loose ``table`` (they depend on its values only, not on the
    suits): ``tv_bits`` (bit v: a loose card of table value v), ``tvs`` (those values, ascending), ``cnt`` (per
    value the number of loose cards), ``sums`` (bit h: some loose cards add up to h), ``prefix[k]`` (the same for
    the first ``k`` cards), ``pair_bits`` (bit v: two loose cards add up to v) and ``start`` (``start[v]`` for
    v = 0..17: the number of loose cards worth less than v, so the sorted table's cards of value v are
    ``table[start[v]:start[v + 1]]``)."""
    cnt = _ZEROS[:17]
    tvs: list[int] = []
    tv_bits = 0
    sums = 1
    pair_bits = 0
    prefix = [1]
    for y in table:
        v = y // 4 + 1
        pair_bits |= tv_bits << v  # the sorted table: every earlier card is worth at most v
        sums |= (sums << v) & 0x1FFFF
        prefix.append(sums)
        cnt[v] += 1
        if not tv_bits >> v & 1:
            tv_bits |= 1 << v
            tvs.append(v)
    start = _ZEROS[:18]
    k = 0
    for v in range(17):
        k += cnt[v]
        start[v + 1] = k
    return (tv_bits, tuple(tvs), tuple(cnt), sums, tuple(prefix), pair_bits, tuple(start))


def _of_value(table: list[int], start: tuple[int, ...], w: int) -> list[int]:
    """The distinct loose cards of table value ``w`` (1..13) in the sorted ``table``, ascending (``start`` as
    :func:`_table_facts`)."""
    out: list[int] = []
    prev = -1
    for j in range(start[w], start[w + 1]):
        y = table[j]
        if y != prev:
            out.append(y)
            prev = y
    return out


#: :func:`_table_facts` per table of values (tables of the same values share them; in random rounds from fresh
#: seeds about 1 table in 11 has values not seen before, 1 in 3 cards not seen before), keyed by
#: ``vkey ^ (vkey >> 20) ^ (vkey >> 40)`` of the table's ``FastState.vkey``: one key per vkey (the map is
#: invertible), with the counts of the high values folded into the low bits, which a dict's hash of an int reads
#: first (the vkey itself has the few counts of aces, twos and threes there: long probe chains)
_TABLES: Final[dict[int, _TableFacts]] = {}
_NO_TABLE: Final[_TableFacts] = (0, (), (), 0, (), 0, ())  # FastState.tf before any (never read: tfk is -1)


def _table(table: Sequence[int], key: int) -> _TableFacts:
    """The :func:`_table_facts` of ``table`` (cache key ``key``, as :data:`_TABLES`), from the cache when it is
    there."""
    t = _TABLES.get(key)
    if t is None:
        t = _table_facts(table)
        if len(_TABLES) > 100_000:
            _TABLES.clear()
        _TABLES[key] = t
    return t


# ----------------------------------------------------------------------------------------------- capture sets
#: the values, twins, ``h`` and mode of :func:`_loose`'s table (one int, see there) -> the position masks of its
#: parts: which positions a part takes depends only on the values and on which neighbours are identical cards
#: (twins), not on the suits.
_VLOOSE: Final[dict[int, tuple[int, ...]]] = {}
_MODE_I: Final[dict[str, int]] = {"free": 0, "maximum": 1, "maximal": 2}  # other modes: 3 (all are one key)
_IDX: Final[dict[int, tuple[int, ...]]] = {}


def _loose(table: list[int], n: int, h: int, mode: str) -> _Parts:
    """The loose parts of the captures worth ``h`` from ``table`` (spec §2.6 M1.2-M1.3 and option ``maximal``),
    deduplicated by card, in the engine's order (``movegen._loose_only``); the empty part included when it is one
    (no group, or ``maximal="free"``); ``n``: the number of loose cards worth at most ``h`` (the first ``n`` of the
    sorted ``table``).  (Cached by the values only: in random rounds from fresh seeds 4 in 5 of these tables are
    new by cards, 1 in 2 by values.)"""
    below = table[:n]
    # the key, one int (cheaper to build and hash than a tuple of tuples): per card a 5-bit digit, its value
    # (1..13) and a bit for a twin of the card before it (never 0, so the number of cards is read off too); then
    # h and the mode
    vk = 0
    prev = -1
    for c in below:
        vk = (vk << 5) | ((c // 4 + 1) << 1) | (1 if c == prev else 0)
        prev = c
    vkey = (((vk << 5) | h) << 2) | _MODE_I.get(mode, 3)
    masks = _VLOOSE.get(vkey)
    if masks is None:
        masks = tuple(_loose_masks(below, [c // 4 + 1 for c in below], h, mode))
        if len(_VLOOSE) > 200_000:
            _VLOOSE.clear()
        _VLOOSE[vkey] = masks
    out = []
    for m in masks:
        idx = _IDX.get(m)
        if idx is None:
            idx = _IDX[m] = tuple(i for i in range(m.bit_length()) if m >> i & 1)
        out.append(tuple([below[i] for i in idx]))
    return tuple(out)


def _groups(values: list[int], i: int, remaining: int, mask: int, groups: list[int]) -> None:
    """Append to ``groups`` the position masks (over ``values``, ascending) of the sets of positions from ``i``
    on worth ``remaining``, each with ``mask`` added.  (A module function, not a closure: closures cost more and
    make reference cycles, in both builds.)"""
    for j in range(i, len(values)):
        v = values[j]
        if v == remaining:
            groups.append(mask | (1 << j))
        elif v < remaining:
            _groups(values, j + 1, remaining - v, mask | (1 << j), groups)
        else:
            break  # values ascending


def _loose_masks(below: list[int], values: list[int], h: int, mode: str) -> list[int]:
    """:func:`_loose`'s parts as position masks over ``below`` (the loose cards worth at most ``h``, sorted;
    ``values`` their table values): the engine's maximal unions of disjoint groups worth ``h`` (or every union,
    or those with the most cards, per ``mode``), sorted by mask, the first of each set of identical cards kept."""
    n = len(below)
    groups: list[int] = []  # the groups worth h (spec §2.13), bit masks over the positions
    _groups(values, 0, h, 0, groups)
    if mode != "free":
        # when the groups are pairwise disjoint the one maximal part is their union
        union = 0
        for g in groups:
            if union & g:
                break
            union |= g
        else:
            return [union]
    # every union of pairwise disjoint groups (the empty one included), as the engine's ``_packings`` finds them
    every = {0}
    for g in groups:
        every |= {u | g for u in every if not u & g}
    # bit i of twins: the card at position i is the same card as the one before it (two packs: at most two); a
    # union's cards are read off its mask with each twin taken alone moved to the first of the two, so that the
    # first union of each set of cards is kept without building the cards' tuple
    twins = 0
    for i in range(1, n):
        if below[i] == below[i - 1]:
            twins |= 1 << i
    free = mode == "free"
    out: list[int] = []
    seen: set[int] = set()
    for u in sorted(every):
        if not free:  # maximal: the unions that leave no group behind (each group meets them)
            meets = True
            for g in groups:
                if not g & u:
                    meets = False
                    break
            if not meets:
                continue
        moved = u & twins & ~(u << 1)
        cards = (u ^ moved) | (moved >> 1)
        if cards not in seen:
            seen.add(cards)
            out.append(u)
    if mode == "maximum" and out:
        best = 0
        for u in out:
            best = max(best, u.bit_count())
        out = [u for u in out if u.bit_count() == best]
    return out


#: :func:`_found_pairs`'s sets of more than one pair, by one int (cheaper to build and hash than a tuple): the
#: loose cards worth less than ``v - 1`` less one copy of ``y`` (their tkey bits), then ``y``, ``v`` and ``forced``
_PAIRS: Final[dict[int, _Pairs]] = {}
_NO_PAIRS: Final[_Pairs] = ((),)


def _found_pairs(
    tvs: tuple[int, ...], cnt: tuple[int, ...], table: list[int], tkey: int, y: int, v: int, forced: bool
) -> _Pairs:
    """The sets of disjoint loose pairs worth ``v`` that may be packed into a build of ``v`` founded on (or
    packaged with) the loose card ``y`` (A11; ``movegen._found_pairs``), sorted, ``()`` first unless forced;
    ``tvs``, ``cnt`` the table's values and counts per value (:func:`_table_facts`)."""
    # how many pairs of loose cards (by position, one copy of y left out) are worth v: none or one are common
    ty = y // 4 + 1
    npairs = 0
    pair_w = 0
    for w in tvs:
        u = v - w
        if u < w:
            break
        cw = cnt[w] - (w == ty)
        if u == w:
            k = cw * (cw - 1) // 2
        elif u <= 13:
            k = cw * (cnt[u] - (u == ty))
        else:
            k = 0
        if k:
            npairs += k
            pair_w = w
            if npairs > 1:
                break
    if not npairs:
        return _NO_PAIRS
    if npairs == 1:
        rest = [c for c in table if (c // 4 + 1 == pair_w or c // 4 + 1 == v - pair_w)]
        if y in rest:
            rest.remove(y)
        pair = ((rest[0], rest[1]),)
        return (pair,) if forced else ((), pair)
    sub = (tkey - _TWO[y]) & _LOW[v - 1]
    key = (((((sub << 6) | y) << 5) | v) << 1) | forced
    hit = _PAIRS.get(key)
    if hit is not None:
        return hit
    loose = [c for c in table if c < 4 * (v - 1)]
    loose.remove(y)
    n = len(loose)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if loose[i] // 4 + loose[j] // 4 + 2 == v]
    if not pairs:
        out = _NO_PAIRS
    else:
        results: set[tuple[tuple[int, int], ...]] = set()
        _packings(pairs, loose, forced, 0, 0, [], results)
        out = tuple(sorted(results))
    if len(_PAIRS) > 200_000:
        _PAIRS.clear()
    _PAIRS[key] = out
    return out


def _packings(
    pairs: list[tuple[int, int]],
    loose: list[int],
    forced: bool,
    k: int,
    used: int,
    chosen: list[tuple[int, int]],
    results: set[tuple[tuple[int, int], ...]],
) -> None:
    """Add to ``results`` every set of pairwise disjoint pairs (positions in ``loose``) from ``pairs[k:]``, as sorted
    card pairs, besides ``chosen`` (positions ``used``); with ``forced`` only the sets that leave no pair free."""
    if k == len(pairs):
        if forced and any(not (used >> i & 1 or used >> j & 1) for i, j in pairs):
            return
        results.add(tuple(sorted(chosen)))
        return
    _packings(pairs, loose, forced, k + 1, used, chosen, results)
    i, j = pairs[k]
    if not (used >> i & 1 or used >> j & 1):
        chosen.append((loose[i], loose[j]))
        _packings(pairs, loose, forced, k + 1, used | (1 << i) | (1 << j), chosen, results)
        chosen.pop()


# ----------------------------------------------------------------------------------------------- legal moves
def legal(f: object) -> list[FastCode]:
    """The legal moves of the seat to play as fast codes, in the engine's canonical order (spec §2.13; the order
    of :func:`kortbord.mulle.movegen.legal_codes`): captures per played card, then per played card its builds,
    raises, builds down, packages and lay-ons, then trails (the capture duty and the trail ban permitting), or
    every trail when nothing is legal (the safety valve).  ``[]`` once the round is over.

    Raises:
        TypeError: ``f`` is not a FastState."""
    f = _state_arg(f, "legal")
    seat = f.to_move
    if seat is None or f.breakdown is not None:
        return []
    return list(_gen(_rules_of(f.rules), f))


class _Hand:
    """Facts of one hand (:func:`_hand_facts`), changed in place as its cards are played."""

    __slots__ = ("held", "held2", "hvc", "trails")

    def __init__(self, held: int, held2: int, hvc: list[int], trails: list[FastCode]) -> None:
        self.held = held
        self.held2 = held2
        self.hvc = hvc
        self.trails = trails


def _hand_facts(hand: list[int]) -> _Hand:
    """The :class:`_Hand` of a sorted hand: bit v of ``held``/``held2`` when it holds at least one/two cards of
    hand value v, ``hvc[v]`` the number of cards of hand value v (``checks.hand_value_counts``) and the ``trails``
    codes of its distinct cards (identical twins are one move), ascending -- ``trails[k][1]`` is the k-th distinct
    card.  ``trails`` may be the list :func:`_gen` returned: :func:`_play` changes it in place once the move has
    been taken from it (which :func:`_gen`'s callers allow)."""
    held = 0
    held2 = 0
    hvc = _ZEROS[:17]
    trails: list[FastCode] = []
    prev = -1
    for c in hand:
        b = _HVB[c]
        held2 |= held & b
        held |= b
        h = _HV[c]
        hvc[h] = hvc[h] + 1
        if c != prev:
            trails.append(_TRAILS[c])
            prev = c
    return _Hand(held, held2, hvc, trails)


def _gen(r: _Rules, f: FastState) -> list[FastCode]:
    """:func:`legal` of ``f`` (the engine's ``movegen._codes`` for supported rules) with the rules' facts ``r``.
    The returned list may be shared (with the hand's facts): never change it, and take the move from it before the
    next :func:`_play`, which may change it."""
    seat = f.to_move
    assert seat is not None
    hf = f.hfs[seat]
    table = f.table
    tkey = f.tkey
    builds = f.builds
    teams = f.teams
    held = hf.held
    held2 = hf.held2
    hvc = hf.hvc
    trails = hf.trails
    if not trails:
        return []
    vkey = f.vkey
    if vkey == f.tfk:  # the table's values as at the last call (a raise, a lay-on, a new turn after a deal)
        t_ = f.tf
    else:
        tk = vkey ^ (vkey >> 20) ^ (vkey >> 40)  # the cache's key (see _table)
        hit = _TABLES.get(tk)
        t_ = _table(table, tk) if hit is None else hit
        f.tfk = vkey
        f.tf = t_
    tv_bits, tvs, cnt, capture_bits, prefix, pair_bits, start = t_
    # bit t: a hand card of table value t may found a build on one loose card (t + tv(y) is a held value)
    found = 0
    for w in tvs:
        found |= held >> w
    if not builds:
        if not (held & capture_bits or found):
            return trails  # nothing to capture or build: every card may be trailed (any capture duty)
        owned = 0
        capture_add = 0
        build_values = 0
        changeable = _NO_CODES
        lockable = _NO_CODES
        chg_found = 0
        lock_found = 0
        bound = False
        check_bits = 0
        bare = False
    else:
        # What the builds mean for the mover, as bit masks over the build indexes (no lists, no tuples: this is
        # worked out afresh for every position with builds, which change nearly every move): ``capture_add`` bit
        # v for a build of value v (to capture, and in ``build_values`` with one build per value, A14); ``owned``
        # the mover's builds; ``bound`` whether the trail ban binds the mover (D3, A25); ``changeable`` the
        # builds it may raise, as ints ``64 i + 32 down + v`` (index i, value v, down: it may also build down;
        # ``checks.may_change``); ``lockable`` those it may package into or lay on, as ``32 i + v``
        # (``checks.may_lock``).
        capture_add = 0
        owned = 0
        changeable = []
        lockable = []
        bound = False
        team_bound = r.team_duty and teams
        change_own = r.raise_own and not r.no_consec
        down_own = r.build_down and not r.down_others
        down_other = r.build_down
        locking = r.locking
        lock_any = r.ligger_any
        for i, b in enumerate(builds):
            v: int = b[1]
            owner: int = b[2]
            capture_add |= 1 << v
            mine = owner == seat
            if mine:
                owned |= 1 << i
                bound = True
            elif team_bound and owner % 2 == seat % 2:
                bound = True
            # checks.may_change (M3/M4, D8)
            if not b[3]:
                if mine:
                    if change_own:
                        changeable.append((i << 6) | (32 if down_own else 0) | v)
                else:
                    changeable.append((i << 6) | (32 if down_other else 0) | v)
            # checks.may_lock (M5/M6, A10)
            if locking and (lock_any or mine or (teams and owner % 2 == seat % 2)):
                lockable.append((i << 5) | v)
        build_values = capture_add if r.one_per_value else 0
        capture_bits |= capture_add
        check_bits = 0  # bit v: the reserve rule may bite for a played card of hand value v
        bare = False
        # bit t of chg_found, lock_found: a hand card of table value t may change, lock a build (D5: the mover
        # holds the new value) -- only to skip the cards and builds that cannot
        chg_found = 0
        for c in changeable:
            bv = c & 31
            chg_found |= held >> bv  # raise to bv + t
            if c & 32:
                u = held & ((1 << bv) - 1) & ~3  # build down to u = bv - t, 2 <= u < bv
                while u:
                    ulow = u & -u
                    u ^= ulow
                    chg_found |= 1 << (bv + 1 - ulow.bit_length())
        lock_found = 0
        for c in lockable:
            bv = c & 31
            if held >> bv & 1:
                lock_found |= 1 << bv  # lay on
                for w in tvs:
                    if w < bv:
                        lock_found |= 1 << (bv - w)  # package with a loose card worth bv - t
        found |= chg_found | lock_found
        if owned and r.reserve:
            m = owned
            while m:
                low = m & -m
                m ^= low
                ov: int = builds[low.bit_length() - 1][1]
                k = hvc[ov]
                if k == 0:
                    bare = True
                elif k == 1:
                    check_bits |= 1 << ov
    if not r.pkg_on:
        pair_bits = 0
    forced = r.forced
    mode = r.mode
    last_h = -1
    opts: _Parts = ()
    captures: list[FastCode] = []
    others: list[FastCode] = []
    capturing = 0  # bit x: the card x captures (a machine int: card indices < 52)
    pure = r.pure
    special = r.special
    from_hand = r.from_hand
    cap_hv = held & capture_bits
    for tc in trails:  # the distinct cards of the hand, ascending
        x: int = tc[1]
        hx = _HV[x]
        t = x // 4 + 1
        if not (cap_hv >> hx | found >> t) & 1:
            continue  # no capture, no build, no change of a build
        check = (bare or check_bits >> hx & 1) if owned else False
        # M1 capture
        if cap_hv >> hx & 1:
            # the builds of the value, all taken with the capture (capture_all_builds)
            hb: tuple[int, ...]
            if not capture_add >> hx & 1:
                hb = ()
            elif len(builds) == 1:
                hb = _FIRST  # the one build is of the value
            else:
                hb = tuple([i for i, b in enumerate(builds) if b[1] == hx])
            los: _Parts  # the loose parts of the captures
            if pure and not _SCORING[x] and (_has(table, x) if _NATIVE else x in table):
                los = (_ONE[x],)  # pure mulle (checks.twin_only)
            elif special and hx >= 14:
                los = _BUILDS_ONLY  # checks.builds_only
            else:
                if hx != last_h:  # the parts of the last capture value asked (twins and same ranks are neighbours)
                    last_h = hx
                    k = start[hx]  # the loose cards worth less than hx
                    if not prefix[k] >> hx & 1 and mode != "free":
                        # no group of two or more cards: the one maximal part is every card worth hx
                        opts = _ONES[table[k]] if cnt[hx] == 1 else (tuple(table[k : start[hx + 1]]),)
                    else:
                        opts = _loose(table, start[hx + 1], hx, mode)
                los = opts
            # the reserve (D5) is the same for every part: the same card played, the same builds taken
            if not (check and _lack(hvc, hx, builds, owned, -1, -1, hx)):
                n0 = len(captures)
                for lo in los:
                    if hb:
                        captures.append((0, x, lo, hb))
                    elif len(lo) == 1:
                        captures.append(_CAPTURE1[52 * x + lo[0]])
                    elif lo:  # without a build of the value, a capture takes some loose cards
                        captures.append((0, x, lo, hb))
                if len(captures) > n0:
                    capturing |= 1 << x
        if not from_hand[x]:
            continue  # D6
        keeps = (held & ~(1 << hx)) | (held2 & (1 << hx))  # D5: a reserve for bit v besides x
        # M2 on one loose card y, in increasing v = t + tv(y)
        cand = (tv_bits << t) & keeps & ~build_values
        while cand:
            low = cand & -cand
            cand ^= low
            v = low.bit_length() - 1
            if check and _lack(hvc, hx, builds, owned, v, -1, -1):
                continue
            w = v - t
            # the distinct loose cards of value w (most often one: no search)
            ys: tuple[int, ...] = _ONE[table[start[w]]] if cnt[w] == 1 else tuple(_of_value(table, start, w))
            if pair_bits >> v & 1:
                for y in ys:
                    for pk in _found_pairs(tvs, cnt, table, tkey, y, v, forced):
                        others.append((1, x, _ONE[y], v, pk) if pk else _BUILD1[52 * x + y])
            else:
                for y in ys:
                    others.append(_BUILD1[52 * x + y])
        if chg_found >> t & 1:
            for c in changeable:
                i = c >> 6
                bv = c & 31
                v = bv + t
                if v <= 16 and keeps >> v & 1 and not (check and _lack(hvc, hx, builds, owned, v, i, -1)):
                    others.append((2, x, i, v))
                if c & 32:
                    v = bv - t
                    if v >= 2 and keeps >> v & 1 and not (check and _lack(hvc, hx, builds, owned, v, i, -1)):
                        others.append((3, x, i, v))
        if lock_found >> t & 1:
            for c in lockable:
                i = c >> 5
                bv = c & 31
                if not keeps >> bv & 1 or (check and _lack(hvc, hx, builds, owned, bv, -1, -1)):
                    continue
                need = bv - t
                if 1 <= need <= 13 and tv_bits >> need & 1:
                    for y in _of_value(table, start, need):
                        for pk in (
                            _found_pairs(tvs, cnt, table, tkey, y, bv, forced) if pair_bits >> bv & 1 else _NO_PAIRS
                        ):
                            others.append((4, x, _ONE[y], i, pk))
                if t == bv:
                    others.append((5, x, i))
    ncap = len(captures)
    if others:
        captures += others  # a list of this call's own: extended in place
    moves = captures
    if not bound:
        duty = r.duty
        # checks.duty_forbids_trail
        if duty == "player":
            allowed, skip = not ncap, False
        elif duty == "card":
            allowed, skip = True, True
        elif duty == "strict":
            allowed, skip = not moves, False
        else:
            allowed, skip = True, False
        if allowed:
            if not moves:
                return trails
            if skip and capturing:
                moves += [tc for tc in trails if not capturing >> tc[1] & 1]
            else:
                moves += trails
    if not moves:  # safety valve (spec §2.6)
        return trails
    return moves


def _lack(hvc: list[int], hx: int, builds: list[list[Any]], owned: int, add: int, drop: int, taken: int) -> bool:
    """:func:`kortbord.mulle.checks.reserve_lack` is not None: the move (playing a card of hand value ``hx``,
    creating or changing a build to ``add`` (or -1), changing build ``drop`` (an index, or -1), taking the builds
    of value ``taken`` (or -1)) leaves the mover without a reserve for ``add`` or for an owned build (D5 and the
    reserve rule, spec §2.6).  ``owned``: the mover's builds, a bit mask over the indexes of ``builds``."""
    if add >= 0 and hvc[add] - (hx == add) <= 0:
        return True
    m = owned
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        v: int = builds[i][1]
        if v != add and hvc[v] - (hx == v) <= 0 and i != drop and v != taken:
            return True
    return False


def engine_code(f: object, code: object) -> tuple[Any, ...]:
    """The engine's move code (:mod:`kortbord.mulle.movegen`) of fast code ``code`` in position ``f``, with
    :class:`~kortbord.cards.Card` values.

    Raises:
        TypeError: ``f`` is not a FastState or ``code`` not a tuple."""
    f = _state_arg(f, "engine_code")
    code = _code_arg(code, "engine_code")
    kind = code[0]
    x = Card(code[1])
    ids = [f"B{b[0]}" for b in f.builds]

    def pk(p: tuple[tuple[int, int], ...]) -> tuple[tuple[Card, Card], ...]:
        return tuple((Card(a), Card(b)) for a, b in p)

    if kind == 0:
        return (0, x, tuple(map(Card, code[2])), tuple(ids[i] for i in code[3]))
    if kind == 1:
        return (1, x, tuple(map(Card, code[2])), code[3], pk(code[4]))
    if kind in (2, 3):
        return (kind, x, ids[code[2]], code[3])
    if kind == 4:
        return (4, x, tuple(map(Card, code[2])), ids[code[3]], pk(code[4]))
    if kind == 5:
        return (5, x, ids[code[2]])
    return (6, x)


# ----------------------------------------------------------------------------------------------- applying
def play(f: object, code: object) -> None:
    """Apply the legal move ``code`` (from :func:`legal` of ``f``) to ``f`` in place, as
    ``transitions.apply_code`` does (spec §2.6-§2.11): the move, then the next turn, the next deal or the end of
    the round (the last-capture sweep and the round's score in ``f.breakdown``).  The code is trusted beyond its
    type: a tuple that is not one of :func:`legal`'s codes gives no defined result.

    Raises:
        TypeError: ``f`` is not a FastState or ``code`` not a tuple."""
    f = _state_arg(f, "play")
    _play(f, _rules_of(f.rules), _code_arg(code, "play"))


def _play(f: FastState, r: _Rules, code: FastCode) -> None:
    """:func:`play` with the rules' facts ``r``."""
    seat = f.to_move
    assert seat is not None
    x: int = code[1]
    kind: int = code[0]
    hand = f.hands[seat]
    if _NATIVE:
        j = _take(hand, x)
    else:
        j = hand.index(x)  # the sorted hand's first x
        del hand[j]
    hf = f.hfs[seat]
    hvc = hf.hvc
    hx = _HV[x]
    k = hvc[hx] - 1
    hvc[hx] = k
    if k == 1:
        hf.held2 &= ~(1 << hx)
    elif k == 0:
        hf.held &= ~(1 << hx)
    if j == len(hand) or hand[j] != x:  # no twin of x left (it would be the next card)
        # (trails may be the list _gen returned for this position: changed after the move was taken from it, which
        # _gen's callers allow)
        trails = hf.trails
        if _NATIVE:
            tx = _TRAILS[x]  # the hand's trail code of x (the shared one)
            j = 0
            while trails[j] is not tx:
                j += 1
            _drop(trails, j)
        else:
            trails.remove(_TRAILS[x])
    last_play = f.left == 1 and f.pos == len(f.stock)  # the round's last card: no tabbe (spec §2.9)
    f.left -= 1
    table = f.table
    builds = f.builds
    if kind == 6:
        if _NATIVE:
            _put(table, x)
        else:
            _insort(table, x)
        f.tkey += _TWO[x]
        f.vkey += _VONE[x]
    elif kind == 0:
        side = seat % 2 if f.teams else seat
        lo: tuple[int, ...] = code[2]
        taken: tuple[int, ...] = code[3]
        got = [x, *lo]
        tkey = f.tkey
        vkey = f.vkey
        for c in lo:
            if _NATIVE:
                _take(table, c)
            else:
                table.remove(c)
            tkey -= _TWO[c]
            vkey -= _VONE[c]
        f.tkey = tkey
        f.vkey = vkey
        if taken:
            for i in taken:
                got += builds[i][4]
            for k in range(len(taken) - 1, -1, -1):
                builds.pop(taken[k])
            f.bver += 1
        pile = f.piles[side]
        pile[0] += got
        if len(got) == 2:
            twins = got[0] == got[1]
        else:  # some card twice (a 52-bit mask of the cards seen: a machine int in the compiled build)
            twins = False
            seen = 0
            for c in got:
                if seen >> c & 1:
                    twins = True
                    break
                seen |= 1 << c
        if twins:  # mulles
            rules = f.rules
            for c in sorted(set(got)):
                pairs = got.count(c) // 2
                if pairs and (r.pair_any or c // 4 == x // 4):
                    pile[1] += [(c, mulle_points(c, rules, from_hand=c == x))] * pairs
        if not table and not builds and not last_play and not (r.no_tabbe_last_deal and f.is_last_deal):
            pile[2] += 1
        f.last_capturer = seat
    elif kind == 1:
        y: int = code[2][0]
        cards = [x, y]
        pk: tuple[tuple[int, int], ...] = code[4]
        _take_loose(table, y, pk)
        tkey = f.tkey - _TWO[y]
        vkey = f.vkey - _VONE[y]
        for a, c in pk:
            tkey -= _TWO[a] + _TWO[c]
            vkey -= _VONE[a] + _VONE[c]
            cards += (a, c)
        f.tkey = tkey
        f.vkey = vkey
        cards.sort()
        v: int = code[3]
        builds.append([f.next_build, v, seat, bool(pk) and r.locking, cards])
        f.next_build += 1
        f.bver += 1
    elif kind == 2 or kind == 3:
        i = code[2]
        b = builds[i]
        v = code[3]
        if _NATIVE:
            _put(b[4], x)
        else:
            _insort(b[4], x)
        b[1] = v
        b[2] = seat
        b[3] = False
        if r.one_per_value:
            for j, o in enumerate(builds):
                if o[1] == v and j != i:
                    o[4] = sorted(o[4] + b[4])
                    o[2] = seat
                    o[3] = r.locking
                    builds.pop(i)
                    break
    elif kind == 4:
        i = code[3]
        b = builds[i]
        y = code[2][0]
        pk = code[4]
        _take_loose(table, y, pk)
        tkey = f.tkey - _TWO[y]
        vkey = f.vkey - _VONE[y]
        cards = b[4]
        cards += (x, y)
        for a, c in pk:
            tkey -= _TWO[a] + _TWO[c]
            vkey -= _VONE[a] + _VONE[c]
            cards += (a, c)
        f.tkey = tkey
        f.vkey = vkey
        cards.sort()
        b[2] = seat
        b[3] = r.locking
    else:  # 5: lay on
        b = builds[code[2]]
        if _NATIVE:
            _put(b[4], x)
        else:
            _insort(b[4], x)
        b[2] = seat
        b[3] = True
    if 0 < kind < 6:  # a build was made or changed
        f.bver += 1
    if f.left:  # the next seat with cards (spec §2.4), most often the next seat
        s = seat + 1
        if s == f.players:
            s = 0
        if f.hands[s]:
            f.to_move = s
            return
    _advance(f, seat, r)


def _take_loose(table: list[int], y: int, pk: tuple[tuple[int, int], ...]) -> None:
    """Take the loose card ``y`` and the packed pairs ``pk`` from the sorted loose ``table``."""
    if _NATIVE:
        _take(table, y)
        for a, c in pk:
            _take(table, a)
            _take(table, c)
    else:
        table.remove(y)
        for a, c in pk:
            table.remove(a)
            table.remove(c)


def _advance(f: FastState, seat: int, r: _Rules) -> None:
    """The next seat with cards; else the next deal; else the round's end (spec §2.3, §2.10, §2.11)."""
    n = f.players
    hands = f.hands
    if f.left:
        for i in range(1, n + 1):
            s = (seat + i) % n
            if hands[s]:
                f.to_move = s
                return
    if f.pos < len(f.stock):
        _deal(f, False)
        f.deal_no += 1
        f.to_move = (f.dealer + 1) % n
        return
    # the round's end: the last capturer takes what is left (never a tabbe), then the score
    leftover = list(f.table)
    for b in f.builds:
        leftover += b[4]
    if f.last_capturer is not None and leftover:
        side = f.last_capturer % 2 if f.teams else f.last_capturer
        f.piles[side][0] += leftover
    f.table = []
    f.tkey = 0
    f.vkey = 0
    f.builds = []
    f.to_move = None
    if _NATIVE:
        f.breakdown = tuple([_score(p[0], p[1], p[2], r) for p in f.piles])
    else:
        rules = f.rules
        f.breakdown = tuple(score_pile(p[0], p[1], p[2], rules) for p in f.piles)


#: the cards A♠, 2♠ (lillan) and 10♦ (storan)
_AS: Final[int] = int(Card.parse("AS"))
_2S: Final[int] = int(Card.parse("2S"))
_TD: Final[int] = int(Card.parse("TD"))


def _score(cards: list[int], mulles: list[tuple[int, int]], tabbar: int, r: _Rules) -> dict[str, Any]:
    """:func:`kortbord.mulle.scoring.score_pile` of one side's pile (spec §2.11), the same dict in the same key
    order: the card loop written out for the compiled build (machine ints there, where the source's ``score_pile``
    counts at C speed with ``bytes.translate``), the breakdown and the surplus rule from
    :func:`kortbord.mulle.scoring.pile_breakdown`."""
    spades = aces = n_as = n_2s = n_td = 0
    for c in cards:
        if c == _AS:
            n_as += 1
        elif c == _2S:  # lillan
            n_2s += 1
        elif c == _TD:  # storan
            n_td += 1
        elif c < 4:  # another ace (Card order: rank-major, spades first)
            aces += 1
        elif c % 4 == 0:  # another spade
            spades += 1
    pts = r.points
    return pile_breakdown(
        len(cards), spades, aces, n_as * pts[_AS], n_2s * pts[_2S], n_td * pts[_TD], mulles, tabbar, r.surplus
    )


def _deal(f: FastState, first: bool) -> None:
    """Deal one deal from the stock (``transitions._deal``, spec §2.3): packets of ``deal_packet`` to each seat
    from the dealer's left, then (first deal only) to the table, repeated; a short last deal one card at a time."""
    rules = f.rules
    n = f.players
    stock = f.stock
    pos = f.pos
    hand_need = rules.hand_size
    table_need = rules.table_size if first else 0
    order = [(f.dealer + 1 + i) % n for i in range(n)]
    hands: list[list[int]] = [[] for _ in range(n)]
    table: list[int] = []
    if len(stock) - pos >= n * hand_need + table_need:
        packet = rules.deal_packet
        need = hand_need
        while need or table_need:
            k = min(packet, need)
            for s in order:
                hands[s] += stock[pos : pos + k]
                pos += k
            need -= k
            k = min(packet, table_need)
            table += stock[pos : pos + k]
            pos += k
            table_need -= k
    else:
        i = 0
        while pos < len(stock):
            hands[order[i % n]].append(stock[pos])
            pos += 1
            i += 1
    for h in hands:
        h.sort()
    f.hands = hands
    f.hfs = [_hand_facts(h) for h in hands]
    f.left = pos - f.pos - len(table)
    f.is_last_deal = pos == len(stock)
    f.pos = pos
    if first:
        table.sort()
        f.table = table
        tkey = 0
        vkey = 0
        for c in table:
            tkey += _TWO[c]
            vkey += _VONE[c]
        f.tkey = tkey
        f.vkey = vkey


# ----------------------------------------------------------------------------------------------- random rounds
@dataclass(frozen=True, slots=True)
class RoundResult:
    """One finished round of :func:`random_round`.

    Attributes:
        piles: per side the capture pile (:class:`~kortbord.mulle.state.PileInfo`: cards in capture order,
            the last-capture sweep last; mulles; tabbar).
        breakdown: per side the round's score (:func:`kortbord.mulle.scoring.score_pile`).
        last_capturer: the seat of the round's last capture, or None.
        moves: player moves played.
    """

    piles: tuple[PileInfo, ...]
    breakdown: tuple[dict[str, Any], ...]
    last_capturer: int | None
    moves: int


def new_round(rules: object, players: object, teams: object, dealer: object, deck: object) -> FastState:
    """The FastState after dealing the first deal of a round from ``deck`` (104 card indices 0..51, each twice,
    in dealing order) under ``rules`` (:func:`supports`) with ``players`` seats, ``teams`` and ``dealer``.

    Raises:
        InvalidRulesError: as ``new_game`` (rules not a Rules value, bad player count, teams, dealer or format).
        ValueError: ``deck`` is not the two packs, or the rules are not supported."""
    from kortbord.mulle.transitions import new_game

    new_game(_rules_arg(rules), players=cast(Any, players), teams=cast(Any, teams), dealer=cast(Any, dealer))
    if type(dealer) is not int:  # new_game lets None through (a dealer to draw): here one is needed
        raise InvalidRulesError(f"dealer must be a seat 0..{cast(int, players) - 1}, got {dealer!r}")
    if not isinstance(deck, Sequence) or sorted(deck) != sorted(_DECK):
        raise ValueError("the deck must be a sequence of the 104 card indices of two packs (0..51, each twice)")
    if not supports(rules):
        raise ValueError("the fast core plays only the rules supports() accepts")
    return _new_round(cast(Rules, rules), cast(int, players), cast(bool, teams), dealer, deck)


def _new_round(rules: Rules, players: int, teams: bool, dealer: int, deck: Sequence[int]) -> FastState:
    """:func:`new_round` with trusted arguments."""
    f = FastState()
    f.rules = rules
    f.players = players
    f.teams = teams
    f.dealer = dealer
    f.stock = list(deck)
    f.pos = 0
    f.builds = []
    f.bver = 0
    f.tfk = -1  # no table facts kept yet (tf: the facts of the table of vkey tfk, for _gen)
    f.tf = _NO_TABLE
    f.next_build = 1
    f.piles = [[[], [], 0] for _ in range(2 if teams else players)]
    f.last_capturer = None
    f.deal_no = 1
    r = _rules_of(rules)
    deals = r.deals.get(players)
    if deals is None:
        from kortbord.mulle.transitions import deal_plan

        deals = r.deals[players] = len(deal_plan(rules, players))
    f.deals_total = deals
    f.round_no = 1
    f.scores = (0,) * (2 if teams else players)
    f.round_log = ()
    f.breakdown = None
    _deal(f, True)
    f.to_move = (dealer + 1) % players
    return f


def random_round(
    rules: object, rng: random.Random, *, players: object = 2, teams: object = False, dealer: object = 0
) -> RoundResult:
    """Play one round of ``new_game(rules, players=players, teams=teams, dealer=dealer)`` from its shuffle with
    uniformly random legal moves, drawing from ``rng`` what the engine loop draws (``chance_outcome``: the
    shuffle of the two packs; then ``rng.choice`` over the legal moves in canonical order), so the same seed
    gives the same game, pile for pile (``dealer=None``: drawn first, ``rng.randrange(players)``, as the engine's
    first chance step does).  Unsupported rules (:func:`supports`) are played by the engine.

    Raises:
        InvalidRulesError: as ``new_game`` (rules not a Rules value, bad player count, teams without 4 players,
            a bad dealer, a format too big)."""
    # the engine's checks of the arguments, on the arguments as given (``object``, cast to ``Any``: no check of
    # mypyc's of its own before them), so that the compiled build raises the same errors
    rules = _rules_arg(rules)
    r = _rules_of(rules)
    if not (
        type(players) is int
        and type(teams) is bool
        and (dealer is None or type(dealer) is int)
        and (players, teams, -1 if dealer is None else dealer) in r.checked
    ):
        from kortbord.mulle.transitions import new_game

        new_game(rules, players=cast(Any, players), teams=cast(Any, teams), dealer=cast(Any, dealer))
        # accepted: exactly an int, a bool and None or an int (new_game checks the types), so the key is exact
        r.checked.add((cast(int, players), cast(bool, teams), -1 if dealer is None else cast(int, dealer)))
    players = cast(int, players)
    teams = cast(bool, teams)
    dealer = cast("int | None", dealer)
    if not r.supported:
        return _engine_round(rules, rng, players, teams, dealer)
    # A round makes no reference cycles (the FastState and the caches hold lists and tuples of ints; checked by
    # tests/mulle/test_fast_core.py): reference counting frees all it leaves behind, and the cyclic collector --
    # which the round's many short-lived lists and tuples would wake every few moves -- has nothing to find in it.
    # It is paused for the round if it was on, and on again afterwards whatever happens.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _fast_round(rules, r, rng, players, teams, dealer)
    finally:
        if paused:
            gc.enable()


def _fast_round(
    rules: Rules, r: _Rules, rng: random.Random, players: int, teams: bool, dealer: int | None
) -> RoundResult:
    """:func:`random_round` on the fast core, with checked arguments and the rules' facts ``r``."""
    if dealer is None:
        dealer = rng.randrange(players)
    deck = list(_DECK)
    if type(rng) is random.Random and _DRAWS_OK:
        getrandbits = rng.getrandbits
        _shuffle(getrandbits, deck)
    else:
        rng.shuffle(deck)
    f = _new_round(rules, players, teams, dealer, deck)
    moves = 0
    if type(rng) is random.Random and _DRAWS_OK:
        # rng.choice(ms) is rng._randbelow(len(ms)): getrandbits(k) (k = len(ms).bit_length(), one 32-bit output
        # of the generator, its top k bits) until below len(ms) -- here from the outputs fetched in blocks
        # (_words), never more than the round still takes: each card left in a hand or the stock is one move
        # more, with one draw at least (checked by _draws_ok)
        words = b""
        w = 0  # the next output of words
        while f.breakdown is None:
            seat = f.to_move
            assert seat is not None
            ms = _gen(r, f)
            n = len(ms)
            k = n.bit_length()
            if _NATIVE:
                while True:
                    if 4 * w < len(words):
                        i = words[4 * w + 3] >> (8 - k) if k <= 8 else _top(words, w, k)  # (_top, inlined)
                        w += 1
                    else:
                        left = f.left + len(f.stock) - f.pos
                        if left >= _BLOCK:
                            words = _words(getrandbits, left)
                            w = 0
                            continue
                        i = getrandbits(k)
                    if i < n:
                        break
            else:
                i = getrandbits(k)
                while i >= n:
                    i = getrandbits(k)
            _play(f, r, ms[i])
            moves += 1
    else:
        choice = rng.choice
        while f.breakdown is None:
            seat = f.to_move
            assert seat is not None
            _play(f, r, choice(_gen(r, f)))
            moves += 1
    assert f.breakdown is not None
    return RoundResult(
        tuple(PileInfo(tuple(p[0]), tuple(p[1]), p[2]) for p in f.piles), f.breakdown, f.last_capturer, moves
    )


def _words(getrandbits: Any, m: int) -> bytes:
    """The generator's next ``m`` 32-bit outputs, in order, as 4 little-endian bytes each, in one call:
    ``getrandbits(32 * m)`` takes ``m`` outputs and puts the first in the lowest 32 bits (CPython's ``_random``;
    checked by :func:`_draws_ok`)."""
    words: bytes = getrandbits(32 * m).to_bytes(4 * m, "little")
    return words


#: the fewest outputs fetched as a block (:func:`_words`); fewer are drawn one by one (a block costs two calls).
#: Only the compiled build fetches blocks: in the source, the call of :func:`_top` per draw costs more than the
#: ``getrandbits`` call it saves.
_BLOCK: Final = 4


def _top(words: bytes, w: int, k: int) -> int:
    """The top ``k`` bits (1..32) of output ``w`` of ``words`` (:func:`_words`): ``getrandbits(k)`` drawn from it
    (``genrand_uint32() >> (32 - k)``); for k <= 8 its last byte alone."""
    t = 4 * w + 3
    if k <= 8:
        return words[t] >> (8 - k)
    return ((words[t] << 24) | (words[t - 1] << 16) | (words[t - 2] << 8) | words[t - 3]) >> (32 - k)


def _shuffle(getrandbits: Any, x: list[Any]) -> None:
    """``random.Random.shuffle(x)`` with its draws (``_randbelow(i + 1)`` by rejection from ``getrandbits``)
    written out: the same permutation from the same generator state (checked by :func:`_draws_ok`).  A draw
    ``getrandbits(k)`` (k <= 32) is the top k bits of one 32-bit output: the outputs are fetched in blocks
    (:func:`_words`), never more than the shuffle still takes (at position i, i draws at least).  (``x`` is a
    list of Any: the compiled build swaps its items as they are, with no conversion to machine ints and back.)"""
    words = b""
    w = 0  # the next output of words
    j: int  # (an int, not Any: the compiled build's list items and comparisons on machine ints)
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        if not _NATIVE:
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
        else:
            while True:
                if 4 * w < len(words):
                    j = words[4 * w + 3] >> (8 - k) if k <= 8 else _top(words, w, k)  # (_top, inlined)
                    w += 1
                elif i >= _BLOCK:
                    words = _words(getrandbits, i)
                    w = 0
                    continue
                else:
                    j = getrandbits(k)
                if j < n:
                    break
        x[i], x[j] = x[j], x[i]


def _draws_ok() -> bool:
    """Whether this Python's ``random.Random`` shuffles and chooses as :func:`_shuffle` and the inline draw of
    :func:`random_round` do (CPython's ``_randbelow_with_getrandbits``); else the core calls ``rng.shuffle`` and
    ``rng.choice`` themselves."""
    a = random.Random(2026)
    b = random.Random(2026)
    d1 = list(range(104))
    d2 = list(range(104))
    a.shuffle(d1)
    _shuffle(b.getrandbits, d2)
    if d1 != d2 or a.getstate() != b.getstate():
        return False
    ns = (1, 2, 3, 5, 8, 13, 64, 100, 1000, 2**31 + 1)
    words = _words(b.getrandbits, 3 * len(ns))  # enough for these draws (check below): as random_round draws
    w = 0
    for n in ns:
        i = n
        while i >= n:
            if 4 * w == len(words):
                return False  # not expected: fewer than 3 draws each
            i = _top(words, w, n.bit_length())
            w += 1
        if a.choice(range(n)) != i:
            return False
    for _ in range(w, len(words) // 4):  # the outputs fetched and not used above
        a.getrandbits(32)
    return a.getstate() == b.getstate() and a.random() == b.random()


_DRAWS_OK: Final = _draws_ok()

#: Whether this module is the optional compiled build (mypyc, ``make compiled``) rather than this source run by
#: the interpreter: a compiled function has no ``__code__``.  ``KORTBORD_PURE=1`` forces the source.
COMPILED: Final[bool] = not hasattr(_draws_ok, "__code__")


def _engine_round(rules: Rules, rng: random.Random, players: int, teams: bool, dealer: int | None) -> RoundResult:
    """:func:`random_round` played by the engine (``chance_outcome``, ``legal_codes``, ``apply_code``)."""
    from kortbord.mulle.movegen import legal_codes
    from kortbord.mulle.transitions import apply, apply_code, chance_outcome, new_game

    s = new_game(rules, players=players, teams=teams, dealer=dealer)
    s = apply(s, chance_outcome(s, rng))
    moves = 0
    while s.phase == "play":
        s = apply_code(s, rng.choice(legal_codes(s)))
        moves += 1
    return RoundResult(s.piles, s.round_log[-1], s.last_capturer, moves)
