"""Illegal Mulle moves get a specific reason code, never a catch-all (issue #10, rules spec §2.6-§2.7).

Illegal moves are made by mutating legal ones in random positions of random games under many rule sets: another
card (held or not), another value, another build id, a changed capture set (a loose card or a build added or
removed), a trail of every card.  Each mutated move that is not legal must be explained by a code that names a
rule (not ``not_legal``), ``apply`` must raise :class:`IllegalMoveError` carrying that same reason, and the state
must be unchanged.  Every code the engine can give has an English and a Swedish template.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from kortbord import i18n
from kortbord.cards import Card
from kortbord.contract import Reason
from kortbord.errors import IllegalMoveError, NotYourTurnError
from kortbord.mulle import (
    Build,
    BuildDown,
    Capture,
    LayOn,
    Package,
    PlayerMove,
    Raise,
    Rules,
    Shuffle,
    State,
    Trail,
    apply,
    chance_outcome,
    explain_illegal,
    is_chance,
    is_over,
    legal_moves,
    load_position,
    new_game,
    parse_move,
    step,
)
from kortbord.mulle.engine import REASON_CODES
from kortbord.mulle.position import dump_position

C = Card.parse

#: Rule sets that exercise every option that can forbid a move (spec §3).
RULE_SETS: list[dict[str, Any]] = [
    {},
    {"profile": "cardgames.zone"},
    {"profile": "kryp"},
    {"capture_duty": "card", "maximal": "maximum", "builds_in_sums": True},
    {"capture_duty": "strict", "maximal": "free", "special_capture_builds_only": True, "pure_mulle": False},
    {
        "capture_duty": "none",
        "capture_all_builds": False,
        "one_build_per_value": False,
        "scoring_build_from_hand": True,
    },
    {"table_packaging": "forced", "ownership": "co", "raise_own": False, "ligger_any": False},
    {"table_packaging": "off", "build_down": False, "no_consecutive_raise": True, "reserve_rule": False},
    {"max_found_cards": 3, "build_down_only_on_others": True, "locking": False},
    {"max_found_cards": "unlimited", "builds_in_sums": True, "capture_all_builds": False},
]


def _positions(rules: Rules, players: int, seed: int, every: int) -> Iterator[State]:
    """Every ``every``-th position of a random game (one round), from a seed."""
    rng = random.Random(seed)
    s = new_game(rules, players=players, teams=players == 4)
    k = 0
    while not is_over(s):
        if is_chance(s):
            s = apply(s, chance_outcome(s, rng))
            continue
        k += 1
        if k % every == 0:
            yield s
        s = apply(s, rng.choice(legal_moves(s)))


def _cards(n: int, rng: random.Random) -> list[Card]:
    return [Card(rng.randrange(52)) for _ in range(n)]


def _mutations(state: State, move: PlayerMove, rng: random.Random) -> list[PlayerMove]:
    """Moves made from ``move`` by one change each (most are illegal)."""
    hand = list(state._hands[state.to_move or 0])
    ids = [b.id for b in state.builds] + ["B99"]
    table = list(state.table)
    other_cards = [*hand, *table, *_cards(2, rng)]
    out: list[PlayerMove] = []

    def add(make: Any) -> None:
        with contextlib.suppress(ValueError, TypeError):  # a constructor that refuses the changed fields
            out.append(make())

    for x in rng.sample(other_cards, min(4, len(other_cards))):
        add(lambda x=x: dataclasses.replace(move, card=x))
    out.append(Trail(move.card))
    if isinstance(move, Capture):
        for c in rng.sample(table, min(3, len(table))):
            add(lambda c=c: Capture(move.card, (*move.loose, c), move.builds))
        for i in range(len(move.loose)):
            add(lambda i=i: Capture(move.card, move.loose[:i] + move.loose[i + 1 :], move.builds))
        for bid in ids:
            add(lambda bid=bid: Capture(move.card, move.loose, (*move.builds, bid)))
        for i in range(len(move.builds)):
            add(lambda i=i: Capture(move.card, move.loose, move.builds[:i] + move.builds[i + 1 :]))
        add(lambda: Capture(move.card, (), ()))
        add(lambda: Capture(move.card, tuple(_cards(1, rng)), move.builds))
    if isinstance(move, Build | Raise | BuildDown):
        for dv in (-2, -1, 1, 3):
            add(lambda dv=dv: dataclasses.replace(move, value=move.value + dv))
    if isinstance(move, Build):
        for c in rng.sample(table, min(2, len(table))):
            add(lambda c=c: Build(move.card, (*move.on, c), move.value + TV(c), move.pkg))
            add(lambda c=c: Build(move.card, (c,), move.value, move.pkg))
        add(lambda: Build(move.card, move.on, move.value, ()))
        if len(table) >= 2:
            add(lambda: Build(move.card, move.on, move.value, (*move.pkg, (table[0], table[-1]))))
    if isinstance(move, Raise | BuildDown | Package | LayOn):
        for bid in ids:
            add(lambda bid=bid: dataclasses.replace(move, build=bid))
    if isinstance(move, Raise):
        add(lambda: BuildDown(move.card, move.build, move.value))
    if isinstance(move, BuildDown):
        add(lambda: Raise(move.card, move.build, move.value))
    if isinstance(move, Package):
        add(lambda: LayOn(move.card, move.build))
        for c in rng.sample(table, min(2, len(table))):
            add(lambda c=c: Package(move.card, (*move.loose, c), move.build, move.pkg))
        add(lambda: Package(move.card, move.loose, move.build, ()))
    if isinstance(move, LayOn):
        for c in rng.sample(table, min(2, len(table))):
            add(lambda c=c: Package(move.card, (c,), move.build))
    if isinstance(move, Trail):
        for bid in ids:
            add(lambda bid=bid: LayOn(move.card, bid))
            for dv in (1, 5):
                add(lambda bid=bid, dv=dv: Raise(move.card, bid, dv + 1))
        for c in rng.sample(table, min(2, len(table))):
            add(lambda c=c: Capture(move.card, (c,)))
            add(lambda c=c: Build(move.card, (c,), TV(move.card) + TV(c)))
    return out


def TV(c: Card) -> int:
    from kortbord.mulle.state import TV as table_values

    return table_values[int(c)]


def _snapshot(state: State) -> str:
    return json.dumps(dump_position(state), sort_keys=True) + repr(state) + repr(state._hands) + repr(state._stock)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", RULE_SETS, ids=[json.dumps(o, sort_keys=True) for o in RULE_SETS])
def test_mutated_legal_moves_get_a_specific_reason(options: dict[str, Any], players: int) -> None:
    rules = Rules.from_dict({"game_length": "single_round", **options})
    seen: Counter[str] = Counter()
    for seed in range(2):
        rng = random.Random(seed * 7919 + players)
        for state in _positions(rules, players, seed + 100 * players, every=3):
            legal = set(legal_moves(state))
            before = _snapshot(state)
            candidates = [
                m for lm in rng.sample(sorted(legal, key=str), min(4, len(legal))) for m in _mutations(state, lm, rng)
            ]
            candidates += [Trail(c) for c in state._hands[state.to_move or 0]]
            for m in candidates:
                if m in legal:
                    continue
                reason = explain_illegal(state, m)
                assert isinstance(reason, Reason)
                assert reason.code in REASON_CODES and reason.code != "not_legal", (
                    str(m),
                    reason,
                    dump_position(state),
                )
                assert reason.data.get("move") == str(m)
                json.dumps(reason.to_json())  # JSON-ready
                with pytest.raises(IllegalMoveError) as info:
                    apply(state, m)
                assert info.value.reason == reason
                assert str(info.value) == str(reason)
                seen[reason.code] += 1
            assert _snapshot(state) == before
    assert seen, "no illegal move was tried"


def test_mutations_reach_many_rules() -> None:
    """Across the rule sets the mutations meet most of the rules (a guard that the sweep above is not vacuous)."""
    seen: set[str] = set()
    for options in RULE_SETS:
        rules = Rules.from_dict({"game_length": "single_round", **options})
        rng = random.Random(5)
        for state in _positions(rules, 2, 11, every=2):
            legal = set(legal_moves(state))
            for lm in legal:
                for m in _mutations(state, lm, rng):
                    if m not in legal:
                        seen.add(explain_illegal(state, m).code)
    wanted = {
        "not_in_hand",
        "not_on_table",
        "no_such_build",
        "must_capture",
        "build_sum",
        "change_value",
        "must_take_all",
        "cannot_split",
        "scoring_card",
    }
    assert wanted <= seen, sorted(wanted - seen)
    assert "not_legal" not in seen


def test_every_code_and_event_kind_has_english_and_swedish_words() -> None:
    cat = i18n.catalogue("mulle")
    for code in REASON_CODES:
        for lang in i18n.LANGS:
            assert "reason." + code in cat and lang in cat["reason." + code], code
    kinds = {"dealer", "deal", "baat", "play", "capture", "mulle", "tabbe", "last_capture", "round_over", "game_over"}
    kinds.add("safety_valve")
    for kind in kinds:
        for lang in i18n.LANGS:
            assert lang in cat["event." + kind], kind


def test_every_event_is_json_ready_seat_safe_and_has_words() -> None:
    """Events of random games: JSON-ready data, seats as ints, no card hidden from any seat, words in en and sv."""
    for players in (2, 3, 4):
        rng = random.Random(players)
        s = new_game(Rules(game_length="single_round"), players=players, teams=players == 4)
        while not is_over(s):
            move = chance_outcome(s, rng) if is_chance(s) else rng.choice(legal_moves(s))
            s2, events = step(s, move)
            for e in events:
                data = e.to_json()
                assert json.loads(json.dumps(data)) == data
                for key in ("seat", "dealer"):
                    if key in data:
                        assert type(data[key]) is int and 0 <= data[key] < players
                if e.kind == "deal":
                    assert set(data["table"]) <= {str(c) for c in s2.table}  # only the face-up table is named
                if e.kind in ("capture", "mulle"):
                    # the played card and face-up cards only (twins share a name, so names are compared as a multiset)
                    assert not isinstance(move, Shuffle)
                    named = Counter(data["cards"]) if e.kind == "capture" else Counter([data["card"]] * 2)
                    shown = Counter([str(move.card)] + [str(c) for c in s.table])
                    shown.update(str(c) for b in s.builds for c in b.cards)
                    assert not named - shown
                for lang in i18n.LANGS:
                    assert i18n.event_text(data, lang, game="mulle")
            s = s2


def test_english_words_are_the_engines_messages() -> None:
    """The English template reproduces the message the engine gave before it had codes."""
    state = load_position({"table": ["AS", "KC"], "hands": {"P1": ["AS", "3H"]}, "to_move": "P1"})
    with pytest.raises(IllegalMoveError) as info:
        parse_move(state, "T 3H")
    assert info.value.reason is not None and info.value.reason.code == "must_capture"
    assert info.value.reason.data == {"move": "T 3H", "capture": "C AS x {AS,KC}"}
    assert str(info.value) == "illegal move T 3H: you can capture (C AS x {AS,KC}), so you may not trail"
    assert info.value.reason.text("sv") == (
        "otillåtet drag T 3H: du kan ta in (C AS x {AS,KC}), så du får inte lägga ut ett kort"
    )
    state = load_position({"builds": [{"id": "B1", "cards": ["5H", "3C"], "value": 8, "owner": "P2"}],
                           "hands": {"P1": ["7C", "2D", "JD"]}, "to_move": "P1"})  # fmt: skip
    reason = explain_illegal(state, Raise(C("3H"), "B1", 11))
    assert reason.code == "not_in_hand" and str(reason) == "illegal move R 3H -> [B1] =11: you hold no 3H"
    reason = explain_illegal(state, Capture(C("JD"), (), ("B1",)))
    assert reason.code == "no_card_for_build" and reason.data["value"] == 8
    assert str(reason) == "illegal move C JD x {[B1]}: you hold no 8 to take a build of 8"
    reason = explain_illegal(state, Raise(C("7C"), "B1", 15))
    assert reason.code == "build_reserve"
    assert str(reason) == "illegal move R 7C -> [B1] =15: you hold no 2S (15) to take a build of 15"
    assert (
        reason.text("sv") == "otillåtet drag R 7C -> [B1] =15: du har ingen lillan (15) att ta in ett bygge på 15 med"
    )


def test_nobody_to_move_and_shuffles_carry_reasons() -> None:
    s0 = new_game(Rules())
    with pytest.raises(NotYourTurnError) as turn:
        apply(s0, Trail(C("5C")))
    assert turn.value.reason == Reason("shuffle_due")
    with pytest.raises(NotYourTurnError) as turn:
        parse_move(s0, "T 5C")
    assert turn.value.reason == Reason("shuffle_due")
    deck = chance_outcome(s0, random.Random(1)).deck
    with pytest.raises(IllegalMoveError) as bad:
        apply(s0, Shuffle(tuple(C("AS") for _ in range(104)), 0))
    assert bad.value.reason == Reason("bad_shuffle")
    with pytest.raises(IllegalMoveError) as bad:
        apply(s0, Shuffle(deck, None))
    assert bad.value.reason == Reason("shuffle_needs_dealer", {"last_seat": 1})
    assert str(bad.value) == "the first shuffle must choose a dealer seat 0..1"
    s1 = apply(s0, Shuffle(deck, 0))
    with pytest.raises(IllegalMoveError) as bad:
        apply(s1, Shuffle(deck, 0))
    assert bad.value.reason == Reason("no_shuffle_due")
    with pytest.raises(IllegalMoveError) as bad:
        chance_outcome(s1, random.Random(1))
    assert bad.value.reason == Reason("no_shuffle_due")
    fixed = new_game(Rules(), dealer=1)
    with pytest.raises(IllegalMoveError) as bad:
        apply(fixed, Shuffle(deck, 0))
    assert bad.value.reason == Reason("dealer_fixed", {"dealer": 1})
    assert str(bad.value) == "the dealer is already P1; a shuffle cannot change it"  # seats by name (P<seat>)
