"""The Mulle rule checks: each rule that can forbid a move is one named predicate here (rules spec §2.6-§2.7).

Move generation (:mod:`kortbord.mulle.movegen`), the explanation of illegal moves (:mod:`kortbord.mulle.explain`)
and the bots (:mod:`kortbord.bots.mulle_strong`) all ask these predicates, so an explanation can never disagree
with the move generator.  Move generation keeps a few of them in precomputed form for speed (bit masks of the
values the mover holds); each such place names the predicate it stands for.

Hand values are counted in ``hvc``: a list of 17 ints, ``hvc[v]`` = the number of cards of hand value ``v`` in the
mover's hand *before* the move, the played card included (:func:`hand_value_counts`).  ``hx`` is the hand value
of the played card, ``0`` when no card is played (no build is worth 0).

| rule (spec)                                             | predicate                    |
|---------------------------------------------------------|------------------------------|
| reserve: D5 (build only to a value you hold) and the    | :func:`reserve_lack`,        |
|   reserve rule (§2.6: keep a card for every own build)  | :func:`holds_reserve`        |
| trail ban (D3, A25 ``team_build_duty``)                 | :func:`bound_by_build`       |
| capture duty (D1, option ``capture_duty``)              | :func:`duty_forbids_trail`   |
| scoring cards never build from the hand (D6)            | :func:`builds_from_hand`,    |
|                                                         | :func:`hand_builders`        |
| changing an open build (M3/M4, D8, A12-A13)             | :func:`may_change`           |
| package / lay on (M5/M6, A10 ``ligger_any``)            | :func:`may_lock`             |
| same side (teams)                                       | :func:`same_side`            |
| pure mulle (A6)                                         | :func:`twin_only`            |
| special cards take builds only (A22)                    | :func:`builds_only`          |
| table pairs packed into a build (A11)                   | :func:`packaging_mode`       |
| a build's value (§2.5: 2..16)                           | :func:`value_in_range`       |
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from kortbord.cards import Card
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import HV, SCORING, State
from kortbord.mulle.state import Build as TableBuild

__all__ = [
    "MAX_VALUE",
    "MIN_VALUE",
    "bound_by_build",
    "builds_from_hand",
    "builds_only",
    "duty_forbids_trail",
    "hand_builders",
    "hand_value_counts",
    "holds_reserve",
    "may_change",
    "may_lock",
    "packaging_mode",
    "reserve_lack",
    "same_side",
    "twin_only",
    "value_in_range",
]

#: The values a build can have (no card has hand value 1 or more than 16; spec §2.1, §2.5).
MIN_VALUE: Final = 2
MAX_VALUE: Final = 16


def hand_value_counts(hand: Iterable[int]) -> list[int]:
    """``hvc``: per hand value 0..16, how many cards of ``hand`` have it (spec §2.1 hand values)."""
    hvc = [0] * 17
    for c in hand:
        hvc[HV[c]] += 1
    return hvc


# ----------------------------------------------------------------------------------------------- the reserve
def holds_reserve(hvc: Sequence[int], hx: int, value: int) -> bool:
    """Whether the mover still holds a card of hand value ``value`` after playing a card of hand value ``hx``
    (``hx=0``: nothing played, i.e. whether the hand holds one now): a *reserve* for ``value`` (spec §2.6)."""
    return hvc[value] - (hx == value) > 0


#: The cards of each hand value 0..16 (spec §2.1): what a hand holding "a card of value v" holds one of.
_BY_HV: Final[tuple[frozenset[Card], ...]] = tuple(
    frozenset(Card(c) for c in range(52) if HV[c] == v) for v in range(17)
)


def reserve_proves(builds: Iterable[TableBuild], reserve_rule: bool) -> dict[int, list[frozenset[Card]]]:
    """What the reserve rule proves about hands nobody else sees (spec §2.6 A28: the owner of a build keeps a
    card of its value): per owner seat, for each value it owns a build of, the cards of that hand value (the owner
    holds at least one of them).  Empty when ``reserve_rule`` is off.  The samplers of unseen cards use it."""
    out: dict[int, list[frozenset[Card]]] = {}
    if reserve_rule:
        for b in builds:
            need = _BY_HV[b.value]
            sets = out.setdefault(b.owner, [])
            if need not in sets:
                sets.append(need)
    return out


def reserve_lack(
    hvc: Sequence[int],
    hx: int,
    owned: Sequence[TableBuild],
    reserve_rule: bool,
    add: int | None = None,
    drop: str | None = None,
    taken: tuple[str, ...] = (),
) -> int | TableBuild | None:
    """The reserve rule, D5 and spec §2.6: what a move would leave the mover without a reserve for.

    Args:
        hvc: the mover's hand values before the move (:func:`hand_value_counts`).
        hx: the hand value of the played card.
        owned: the builds the mover owns (``build.owner == seat``).
        reserve_rule: the option ``reserve_rule`` (keep a card for every owned build after any move, A28).
        add: the value of the build the move creates, changes or locks (D5: building only to a value one still
            holds, whatever ``reserve_rule`` says), or None.
        drop: the id of a build whose old value no longer needs a reserve (a raise or build down changes it).
        taken: the ids of builds the move captures (they leave the table and need no reserve).
    Returns:
        None when the move keeps the rule; else ``add`` (the new value lacks a reserve) or the first owned build
        left without one.
    """
    if add is not None and hvc[add] - (hx == add) <= 0:
        return add
    if reserve_rule:
        for b in owned:
            v = b.value
            if v != add and hvc[v] - (hx == v) <= 0 and b.id != drop and b.id not in taken:
                return b
    return None


# ----------------------------------------------------------------------------------------------- trails
def bound_by_build(state: State, seat: int, b: TableBuild) -> bool:
    """Whether ``seat`` is bound by build ``b`` for the trail ban (D3: whoever owns a build may not trail; a
    co-owner with ``ownership="co"``; the whole team with ``team_build_duty="team"``, A25)."""
    if b.owner == seat or seat in b.co_owners:
        return True
    return state.rules.team_build_duty == "team" and state.teams and b.owner % 2 == seat % 2


def duty_forbids_trail(duty: str, card_captures: bool, any_capture: bool, any_move: bool) -> bool:
    """The capture duty (D1, option ``capture_duty``): whether it forbids trailing a card.

    Args:
        duty: ``"none"``, ``"card"`` (a card that can capture may not be trailed), ``"player"`` (no trail while
            any capture exists) or ``"strict"`` (no trail while any capture or building move exists).
        card_captures: the card to trail has a legal capture.
        any_capture: the mover has any legal capture.  any_move: the mover has any legal non-trail move.
    """
    if duty == "player":
        return any_capture
    if duty == "card":
        return card_captures
    if duty == "strict":
        return any_move
    return False


# ----------------------------------------------------------------------------------------------- building
def builds_from_hand(rules: Rules, x: int) -> bool:
    """D6: a scoring card (an ace, 2♠ lillan, 10♦ storan) builds from the hand only with
    ``scoring_build_from_hand``."""
    return not SCORING[x] or rules.scoring_build_from_hand


_BUILDERS: dict[bool, tuple[bool, ...]] = {}


def hand_builders(rules: Rules) -> tuple[bool, ...]:
    """:func:`builds_from_hand` of every card index 0..51 under ``rules`` (a table move generation reads once)."""
    key = rules.scoring_build_from_hand
    hit = _BUILDERS.get(key)
    if hit is None:
        hit = _BUILDERS[key] = tuple(builds_from_hand(rules, x) for x in range(52))
    return hit


def value_in_range(v: int) -> bool:
    """A build is worth 2..16 (spec §2.5: no card has hand value 1 or more than 16)."""
    return MIN_VALUE <= v <= MAX_VALUE


def may_change(rules: Rules, b: TableBuild, seat: int, down: bool) -> bool:
    """Whether ``seat`` may raise (M3) or, with ``down``, build down (M4) build ``b``: it is open (D8: packaging,
    ligger and merges lock a build), building down is on, and one's own build is changed again only with
    ``raise_own`` and without ``no_consecutive_raise`` (and built down only without ``build_down_only_on_others``).
    """
    if b.locked or (down and not rules.build_down):
        return False
    if b.owner == seat:
        if not rules.raise_own or rules.no_consecutive_raise:
            return False
        if down and rules.build_down_only_on_others:
            return False
    return True


def same_side(state: State, a: int, b: int) -> bool:
    """Seats ``a`` and ``b`` are one side: the same seat, or partners with teams."""
    return a == b or (state.teams and a % 2 == b % 2)


def may_lock(state: State, b: TableBuild, seat: int) -> bool:
    """Whether ``seat`` may package into (M5) or lay on (M6, ligger) build ``b``: locking is on and, without
    ``ligger_any``, the build is the own side's (A10)."""
    rules = state.rules
    return rules.locking and (rules.ligger_any or same_side(state, b.owner, seat))


def packaging_mode(rules: Rules) -> str:
    """How loose table pairs worth a build's value are packed into it (A11): ``"off"``, ``"on"`` (may) or
    ``"forced"`` (must); always ``"off"`` without locking, since packing locks the build."""
    return rules.table_packaging if rules.locking else "off"


# ----------------------------------------------------------------------------------------------- capturing
def twin_only(rules: Rules, x: Card, table: Sequence[Card]) -> bool:
    """Pure mulle (A6): a non-scoring card whose twin lies loose takes only that twin (and builds of its value)."""
    return rules.pure_mulle and not SCORING[x] and x in table


def builds_only(rules: Rules, h: int) -> bool:
    """A22 ``special_capture_builds_only``: a card of hand value 14..16 (ace, lillan, storan) captures builds of
    that value only, no loose cards."""
    return rules.special_capture_builds_only and h >= 14
