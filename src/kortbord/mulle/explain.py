"""Why a Mulle move is illegal, as a :class:`kortbord.contract.Reason` (a code plus data, no prose), and notation
resolved against a position (rules spec §2.6-§2.7, §5.2).

:func:`explain_illegal` asks the same predicates of :mod:`kortbord.mulle.checks` as the move generator, in the
order of the rules, and names the first rule the move breaks with its own code.  The words for each code are in
``kortbord/i18n/mulle.json`` (English and Swedish); the English one reproduces the message the engine gave
before it had codes (``"illegal move T AS: you can capture (C AS x {AS,KC}), so you may not trail"``).

Codes (data keys besides ``move``, the move in notation):

* nobody to move: ``shuffle_due``, ``game_over`` (no ``move``); shuffles: ``no_shuffle_due``, ``bad_shuffle``,
  ``shuffle_needs_dealer`` {last_seat}, ``dealer_fixed`` {dealer} (raised by :mod:`kortbord.mulle.transitions`)
* any move: ``no_cards``, ``not_in_hand`` {card}, ``not_on_table`` / ``not_on_table_twice`` {card},
  ``reserve`` {build, value} (the reserve rule: a build the mover owns would be left without a card of its value)
* capture (M1): ``no_such_build`` {build}, ``build_twice`` {build}, ``build_value`` {card, hand_value, value},
  ``no_card_for_build`` {value}, ``builds_only`` {card, hand_value}, ``pure_mulle`` {card, hand_value},
  ``capture_all_builds`` {builds}, ``cannot_split`` {loose, card, hand_value}, ``capture_empty``,
  ``must_take_all`` {group}, ``must_take_most``, ``no_capture`` {card} (``C <card>`` shorthand)
* trail (M7): ``own_build`` / ``team_build`` {build, value}, ``must_capture_card`` {card, capture},
  ``must_capture`` {capture}, ``must_play`` {example}
* building (M2-M6): ``scoring_card`` {card}, ``found_empty``, ``found_size`` {max}, ``build_sum`` {group, sum,
  value}, ``no_value`` {value}, ``build_reserve`` {value} (D5), ``pkg_not_pair`` {group}, ``pkg_value`` {group,
  value}, ``pkg_off``, ``pkg_forced``, ``package_instead`` {value, build, package}, ``one_build_per_value``
  {value, build}, ``build_down_off``, ``locked_build`` {build, verb}, ``change_value`` {verb, card, build, old,
  new, value}, ``own_build_change`` {build}, ``value_range`` {value}, ``locking_off``, ``not_owner``,
  ``package_needs_loose``, ``package_sum`` {group, sum, build, value}, ``package_size``, ``layon_value`` {card,
  tv, build, value}, ``lock_reserve`` {build, value}
* ``not_legal``: no rule found -- a defect (the tests check that it never occurs)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kortbord.cards import Card
from kortbord.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, NotYourTurnError
from kortbord.mulle.checks import (
    bound_by_build,
    builds_from_hand,
    builds_only,
    duty_forbids_trail,
    hand_value_counts,
    holds_reserve,
    may_change,
    may_lock,
    packaging_mode,
    reserve_lack,
    twin_only,
    value_in_range,
)
from kortbord.mulle.movegen import _captures, _legal_list, _legal_set, _mask_cards, _packings, _pair_sets, _without
from kortbord.mulle.moves import (
    Build,
    BuildDown,
    Capture,
    Package,
    PlayerMove,
    Raise,
    Shuffle,
    Trail,
    parse_move_text,
)
from kortbord.mulle.state import HV, TV, Reason, State
from kortbord.mulle.state import Build as TableBuild

__all__ = ["REASON_CODES", "explain_illegal", "is_specific", "parse_move"]

#: Every reason code the Mulle engine gives (each has an English and a Swedish template in ``i18n/mulle.json``).
REASON_CODES: Final = frozenset(
    {
        "shuffle_due",
        "game_over",
        "no_shuffle_due",
        "bad_shuffle",
        "shuffle_needs_dealer",
        "dealer_fixed",
        "no_cards",
        "not_in_hand",
        "not_on_table",
        "not_on_table_twice",
        "reserve",
        "no_such_build",
        "build_twice",
        "build_value",
        "no_card_for_build",
        "builds_only",
        "pure_mulle",
        "capture_all_builds",
        "cannot_split",
        "capture_empty",
        "must_take_all",
        "must_take_most",
        "no_capture",
        "own_build",
        "team_build",
        "must_capture_card",
        "must_capture",
        "must_play",
        "scoring_card",
        "found_empty",
        "found_size",
        "build_sum",
        "no_value",
        "build_reserve",
        "pkg_not_pair",
        "pkg_value",
        "pkg_off",
        "pkg_forced",
        "package_instead",
        "one_build_per_value",
        "build_down_off",
        "locked_build",
        "change_value",
        "own_build_change",
        "value_range",
        "locking_off",
        "not_owner",
        "package_needs_loose",
        "package_sum",
        "package_size",
        "layon_value",
        "lock_reserve",
        "not_legal",
    }
)


def parse_move(state: State, text: str) -> PlayerMove:
    """Notation resolved against the position's legal moves (spec §5.2).

    Also accepted: ``C <card>`` alone (the capture with that card, if it is the only one) and ``T``/``B``... in
    any card order and spacing.
    Raises:
        InvalidMoveError: malformed notation.  IllegalMoveError: well-formed but not legal (with the
            :class:`~kortbord.contract.Reason` of :func:`explain_illegal`).  AmbiguousMoveError: ``C <card>``
            matching several captures.  NotYourTurnError: nobody is to play (reason ``shuffle_due`` or ``game_over``).
    """
    if state.phase != "play":
        raise NotYourTurnError(Reason("game_over" if state.phase == "over" else "shuffle_due"))
    stripped = " ".join(text.split()) if isinstance(text, str) else text
    if isinstance(stripped, str) and stripped[:2].upper() == "C " and "{" not in stripped:
        try:  # "C 8C": the capture named by its card alone
            card = parse_move_text(f"T {stripped[2:]}").card  # type: ignore[union-attr]
        except InvalidMoveError:
            parse_move_text(text)  # the error names the move as written
            raise
        matches = [m for m in _legal_list(state) if isinstance(m, Capture) and m.card == card]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise IllegalMoveError(Reason("no_capture", {"move": text, "card": str(card)}))
        raise AmbiguousMoveError(f"{text!r} matches several captures: " + "; ".join(str(m) for m in matches))
    move = parse_move_text(text)
    if isinstance(move, Shuffle):
        raise InvalidMoveError("a shuffle is a chance step, not a player's move")
    if move not in _legal_set(state):
        raise IllegalMoveError(explain_illegal(state, move))
    return move


def _group_text(cards: Sequence[int]) -> str:
    """A combination in notation, ``4S+4H`` (cards sorted)."""
    return "+".join(str(Card(int(c))) for c in sorted(cards))


def _verb(move: Raise | BuildDown) -> str:
    return "raise" if isinstance(move, Raise) else "build_down"


def explain_illegal(state: State, move: PlayerMove) -> Reason:
    """Why ``move`` is not legal in ``state``: the first rule of spec §2.6-§2.7 it breaks, as a
    :class:`~kortbord.contract.Reason` with a specific code (listed in the module docstring) and data in notation
    (``{"move": "T 9H", "capture": "C 9C x {9H}"}``).  ``str(reason)`` is the English message.

    For a legal move the answer is meaningless (``not_legal`` or the reason it would break if it were played
    by a different rule set); callers ask only about illegal moves.  Reveals nothing hidden: the data names
    only the move, the mover's own cards, the table and other legal moves of the mover.
    """
    rules = state.rules
    if state.phase != "play" or state.to_move is None:
        return Reason("game_over" if state.phase == "over" else "shuffle_due")
    seat = state.to_move
    hand = state._hands[seat]
    x = move.card
    text = str(move)

    def why(code: str, **data: Any) -> Reason:
        return Reason(code, {"move": text, **data})

    if x not in hand:
        return why("not_in_hand", card=str(x)) if hand else why("no_cards")
    legal = _legal_list(state)  # canonical order, so the example move in a message is deterministic
    t, h = TV[x], HV[x]
    table_count = Counter(state.table)

    def missing(cards: Sequence[Card]) -> Reason | None:
        for c, k in Counter(cards).items():
            if table_count[c] < k:
                return why("not_on_table" if k == 1 else "not_on_table_twice", card=str(c))
        return None

    builds = {b.id: b for b in state.builds}
    owned = [b for b in state.builds if b.owner == seat]
    hvc = hand_value_counts(hand)
    rr = rules.reserve_rule

    def other_reserve(add: int | None, drop: str | None = None, taken: tuple[str, ...] = ()) -> Reason | None:
        lack = reserve_lack(hvc, h, owned, rr, add, drop, taken)
        if isinstance(lack, TableBuild):
            return why("reserve", build=lack.id, value=lack.value)
        return None

    def packed(pkg: tuple[tuple[Card, ...], ...], on: tuple[Card, ...], v: int) -> Reason | None:
        for p in pkg:
            if len(p) != 2:
                return why("pkg_not_pair", group=_group_text(p))
            if sum(TV[c] for c in p) != v:
                return why("pkg_value", group=_group_text(p), value=v)
        mode = packaging_mode(rules)
        if pkg and mode == "off":
            return why("pkg_off")
        if mode != "off" and pkg not in _pair_sets(_without(state.table, on), v, mode == "forced"):
            return why("pkg_forced") if mode == "forced" else None
        return None

    if isinstance(move, Capture):
        named: set[str] = set()
        for bid in move.builds:
            if bid not in builds:
                return why("no_such_build", build=bid)
            if bid in named:
                return why("build_twice", build=bid)
            named.add(bid)
        for bid in move.builds:
            b = builds[bid]
            if b.value != h and not (rules.builds_in_sums and b.value < h):
                if holds_reserve(hvc, h, b.value):
                    return why("build_value", card=str(x), hand_value=h, value=b.value)
                return why("no_card_for_build", value=b.value)
        miss = missing(move.loose)
        if miss:
            return miss
        addends = [builds[bid] for bid in move.builds if builds[bid].value != h]
        if builds_only(rules, h) and (move.loose or addends):
            return why("builds_only", card=str(x), hand_value=h)
        if twin_only(rules, x, state.table) and (tuple(move.loose) != (x,) or addends):
            return why("pure_mulle", card=str(x), hand_value=h)
        hb = [b.id for b in state.builds if b.value == h]
        left_builds = [bid for bid in hb if bid not in move.builds]
        if left_builds and rules.capture_all_builds:
            return why("capture_all_builds", builds=", ".join(f"[{b}]" for b in left_builds))
        values = tuple(TV[c] for c in move.loose) + tuple(b.value for b in addends)
        if values:
            _, _, every = _packings(values, h)
            if (1 << len(values)) - 1 not in every:
                return why("cannot_split", loose=",".join(str(c) for c in move.loose), card=str(x), hand_value=h)
        if not move.loose and not move.builds:
            return why("capture_empty")
        if move not in _captures(state, x):
            if rules.maximal != "free":
                rest = _without(state.table, move.loose)
                spare = (
                    [b for b in state.builds if b.value < h and b.id not in move.builds]
                    if rules.builds_in_sums and not builds_only(rules, h)
                    else []
                )
                items = [str(c) for c in rest] + [f"[{b.id}]" for b in spare]
                groups, _, _ = _packings(tuple(TV[c] for c in rest) + tuple(b.value for b in spare), h)
                if groups:
                    g = groups[0]
                    if not spare:
                        return why("must_take_all", group=_group_text(_mask_cards(g, rest)))
                    return why("must_take_all", group="+".join(items[i] for i in range(len(items)) if g >> i & 1))
            if rules.maximal == "maximum":
                return why("must_take_most")
            return why("not_legal")
        lack = other_reserve(None, None, move.builds)
        if lack:
            return lack
    elif isinstance(move, Trail):
        bound = [b for b in state.builds if bound_by_build(state, seat, b)]
        if bound:
            b = bound[0]
            code = "own_build" if b.owner == seat or seat in b.co_owners else "team_build"
            return why(code, build=b.id, value=b.value)
        caps = [m for m in legal if isinstance(m, Capture)]
        mine = [m for m in caps if m.card == x]
        duty = rules.capture_duty
        if duty_forbids_trail(duty, bool(mine), bool(caps), any(not isinstance(m, Trail) for m in legal)):
            if duty == "card":
                return why("must_capture_card", card=str(x), capture=str(mine[0]))
            if duty == "player":
                return why("must_capture", capture=str(caps[0]))
            return why("must_play", example=min(map(str, legal)))
        lack = other_reserve(None)
        if lack:
            return lack
    else:
        if not builds_from_hand(rules, x):
            return why("scoring_card", card=str(x))
        if isinstance(move, Build):
            miss = missing((*move.on, *(c for p in move.pkg for c in p)))
            if miss:
                return miss
            if not move.on:
                return why("found_empty")
            if len(move.on) > rules.max_table_cards_in_found:
                return why("found_size", max=rules.max_found_cards)
            v = t + sum(TV[c] for c in move.on)
            if v != move.value:
                return why("build_sum", group=_group_text((x, *move.on)), sum=v, value=move.value)
            if v > 16:
                return why("no_value", value=v)
            if reserve_lack(hvc, h, (), rr, v) is not None:
                return why("build_reserve", value=v)
            bad = packed(move.pkg, move.on, v)
            existing = next((b for b in state.builds if b.value == v), None)
            if existing is not None and rules.one_build_per_value:
                if bad and bad.code != "pkg_forced":
                    return bad
                if rules.locking:
                    package = f"P {_group_text((x, *move.on))} -> [{existing.id}]"
                    return why("package_instead", value=v, build=existing.id, package=package)
                return why("one_build_per_value", value=v, build=existing.id)
            if bad:
                return bad
            lack = other_reserve(v)
            if lack:
                return lack
        else:
            if move.build not in builds:
                return why("no_such_build", build=move.build)
            b = builds[move.build]
            if isinstance(move, Raise | BuildDown):
                verb = _verb(move)
                down = isinstance(move, BuildDown)
                if down and not rules.build_down:
                    return why("build_down_off")
                if b.locked:
                    return why("locked_build", build=b.id, verb=verb)
                v = b.value - t if down else b.value + t
                if v != move.value:
                    return why("change_value", verb=verb, card=str(x), build=b.id, old=b.value, new=v, value=move.value)
                if not may_change(rules, b, seat, down):
                    return why("own_build_change", build=b.id)
                if not value_in_range(v):
                    return why("value_range", value=v)
                if reserve_lack(hvc, h, (), rr, v) is not None:
                    return why("build_reserve", value=v)
                lack = other_reserve(v, b.id)
                if lack:
                    return lack
            else:
                if not rules.locking:
                    return why("locking_off")
                if not may_lock(state, b, seat):
                    return why("not_owner")
                if isinstance(move, Package):
                    miss = missing((*move.loose, *(c for p in move.pkg for c in p)))
                    if miss:
                        return miss
                    if not move.loose:
                        return why("package_needs_loose")
                    s = t + sum(TV[c] for c in move.loose)
                    if s != b.value:
                        return why("package_sum", group=_group_text((x, *move.loose)), sum=s, build=b.id, value=b.value)
                    if len(move.loose) > rules.max_table_cards_in_found:
                        return why("package_size")
                    bad = packed(move.pkg, move.loose, b.value)
                    if bad:
                        return bad
                elif t != b.value:
                    return why("layon_value", card=str(x), tv=t, build=b.id, value=b.value)
                if reserve_lack(hvc, h, (), rr, b.value) is not None:
                    return why("lock_reserve", build=b.id, value=b.value)
                lack = other_reserve(b.value)
                if lack:
                    return lack
    return why("not_legal")


def is_specific(reason: Reason) -> bool:
    """Whether ``reason`` names a rule (every code but the defect marker ``not_legal``)."""
    return reason.code in REASON_CODES and reason.code != "not_legal"
