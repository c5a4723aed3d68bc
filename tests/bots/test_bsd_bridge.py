"""The bridge to BSD cribbage(6) (``bench/bsd_cribbage.py``, issue #14 item 2): the outside player's hand and
scores equal the referee's.

A short game (BSD's "once around", to 61) is played through the bridge between kortbord's greedy bot and the
program: the bridge checks at every step that the hand the program shows, its cuts, its table, its counts and
both scores on its board are the referee's, and raises ``BridgeError`` otherwise.  Two games with a fault put in
on purpose show that those checks bite: a count typed one too high (the program then takes two points the
referee does not give), and a deal the shim does not control (the program then shows another hand).  The
shuffle arithmetic is checked on its own against the program's shuffle as its manual and its source describe it
(``k = (rand() >> 4) % j`` exchanges ``d[j - 1]`` and ``d[k]`` for ``j = 52 .. 1``).

Skipped when ``/usr/games/cribbage`` (apt ``bsdgames``, installed by ``.ci/run``) or gcc is missing.
"""

from __future__ import annotations

import random
import struct

import pytest
from bot_helpers import load_bench
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord import core
from kortbord.bots import registry
from kortbord.cards import Card

bridge = load_bench("bsd_cribbage")

needs_program = pytest.mark.skipif(not bridge.available(), reason="needs /usr/games/cribbage (bsdgames) and gcc")


def _program_shuffle(deck: list[int], ks: list[int]) -> list[int]:
    d = list(deck)
    for j, k in zip(range(len(d), 0, -1), ks, strict=True):
        assert 0 <= k < j
        d[j - 1], d[k] = d[k], d[j - 1]
    return d


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(52))), st.permutations(list(range(52))))
def test_exchanges_turn_the_programs_deck_into_the_referees(current: list[int], target: list[int]) -> None:
    ks = bridge.exchanges(current, target)
    assert len(ks) == 52
    assert _program_shuffle(current, ks) == target


def test_exchanges_refuse_different_cards() -> None:
    with pytest.raises(ValueError):
        bridge.exchanges(list(range(52)), [*range(51), 0])


def _cards(*pairs: tuple[int, int]) -> bytes:
    return b"".join(struct.pack("<ii", rank, suit) for rank, suit in pairs)


def test_the_crib_array_is_found_where_matches_overlap() -> None:
    """The program's memory in a game of seed 2026 (block 48): the person laid away the ace and the four of
    spades, and the same two cards stood 12 bytes earlier, so a search that skips overlapping matches found no
    crib.  Every position is tried: the crib is found, and only it."""
    mine = [Card.parse("AS"), Card.parse("4S")]
    theirs = [Card.parse(c) for c in ("2D", "5H", "7C", "9C", "TD", "KH")]
    data = _cards((5, 1), (5, 0)) + struct.pack("<i", 0) + _cards((0, 0), (3, 0), (0, 0), (3, 0), (1, 2), (6, 3))
    assert bridge.crib_candidates(data, mine, theirs) == {(Card.parse("2D"), Card.parse("7C"))}
    # Not the program's cards after the person's: no candidate; the person's cards in the other order: none.
    assert bridge.crib_candidates(_cards((0, 0), (3, 0), (1, 2), (1, 2)), mine, theirs) == set()
    assert bridge.crib_candidates(_cards((3, 0), (0, 0), (1, 2), (6, 3)), mine, theirs) == set()


def _short_game(seed: str, seat: int) -> object:
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": 61}, players=2, teams=False)
    plan = bridge.Plan.draw(rules, random.Random(seed))
    bot = registry.make_bot("cribbage", "greedy", rules)
    return bridge.play_game(bot, seat, rules, plan, random.Random(seed)), plan, rules


@needs_program
@pytest.mark.parametrize("seat", [0, 1])
def test_a_short_game_through_the_bridge(seat: int) -> None:
    result, plan, rules = _short_game("bridge-test", seat)
    # The game ended at the target with the referee's winner, and every check passed on the way: at least the
    # hand of each deal, the scores at each deal's start and each of the program's counts.
    assert max(result.scores) >= 61
    assert result.scores[result.winner] >= 61 > result.scores[1 - result.winner]
    deals = result.deals
    assert len(deals) >= 2
    assert result.checks >= 3 * len(deals)
    # The deals' points add up to the final scores, and the dealer alternates from the referee's cut.
    assert [sum(d["points"][s] for d in deals) for s in (0, 1)] == list(result.scores)
    assert all(d["complete"] for d in deals[:-1]) and not deals[-1]["complete"]
    spec = core.get("cribbage")
    state = spec.new_game(rules, players=2)
    for cut in plan.cuts:
        state = spec.apply(state, bridge.CutForDeal(cut))
    first = state.dealer
    assert [d["dealer"] for d in deals] == [first if n % 2 == 0 else 1 - first for n in range(len(deals))]


@needs_program
def test_a_wrong_count_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The person's count typed one too high: the program gives the points the hand has and two to itself
    ("It's really only N points; I get 2"), so its board differs from the referee's."""
    send = bridge.Program.send

    def overcount(self: object, text: str) -> None:
        if text.rstrip("\n").isdigit():
            text = f"{int(text) + 1}\n"
        send(self, text)

    monkeypatch.setattr(bridge.Program, "send", overcount)
    with pytest.raises(bridge.BridgeError, match="board"):
        _short_game("bridge-test", 0)


@needs_program
def test_a_deal_the_shim_does_not_control_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first deal's shuffle draws reversed: the program deals other hands than the referee's."""
    draws_for = bridge.draws_for

    def tampered(plan: object, rules: object, program_seat: int) -> list[int]:
        out = draws_for(plan, rules, program_seat)
        start = 52 + 2 * len(plan.cuts) + 52 * (len(plan.cuts) - 1)  # type: ignore[attr-defined]
        out[start : start + 52] = [((j - 1) << 4) for j in range(52, 0, -1)]  # leave the deck as it was
        return out

    monkeypatch.setattr(bridge, "draws_for", tampered)
    with pytest.raises(bridge.BridgeError, match="hand"):
        _short_game("bridge-test", 1)
