"""The fast core's two builds (issue #13 item 5): the source and the optional compiled one (``make compiled``).

The tests of ``tests/mulle`` run on whichever :mod:`kortbord.mulle.fast` imports: the compiled extension when it
has been built, the source otherwise or with ``KORTBORD_PURE=1`` (``.ci/run`` runs them on both).  Here: the
variant in use is the one asked for, and bad input gets the same errors (type and message) from both -- the
public functions check their arguments themselves rather than leaving it to mypyc's typed signatures.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kortbord.errors import InvalidRulesError
from kortbord.mulle import fast
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import State
from kortbord.mulle.transitions import apply, chance_outcome, new_game

RULES = Rules(game_length="single_round")


def test_the_variant_in_use_is_the_one_asked_for() -> None:
    """``KORTBORD_PURE=1`` gives the source; ``KORTBORD_EXPECT_COMPILED=1`` (set by ``.ci/run`` after building)
    insists on the extension, so a failed build cannot pass as a compiled run; ``COMPILED`` tells the truth."""
    is_source = Path(fast.__file__).name == "fast.py"
    assert fast.COMPILED is not is_source
    if os.environ.get("KORTBORD_PURE") == "1":
        assert not fast.COMPILED
    if os.environ.get("KORTBORD_EXPECT_COMPILED") == "1":
        assert fast.COMPILED


def _position() -> tuple[State, fast.FastState]:
    s = new_game(RULES, players=2, dealer=0)
    s = apply(s, chance_outcome(s, random.Random(1)))
    return s, fast.from_state(s)


S, F = _position()
DECK = [c for c in range(52) for _ in range(2)]
BAD: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("supports(None)", lambda: fast.supports(None), InvalidRulesError, "rules must be a mulle.Rules value, got NoneType"),
    ("from_state(None)", lambda: fast.from_state(None), TypeError, "from_state: expected a State, got NoneType"),
    ("from_state(F)", lambda: fast.from_state(F), TypeError, "from_state: expected a State, got FastState"),
    ("legal(None)", lambda: fast.legal(None), TypeError, "legal: expected a FastState, got NoneType"),
    ("legal(S)", lambda: fast.legal(S), TypeError, "legal: expected a FastState, got State"),
    ("play(None, c)", lambda: fast.play(None, (6, 0)), TypeError, "play: expected a FastState, got NoneType"),
    ("play(F, None)", lambda: fast.play(F, None), TypeError, "play: expected a fast code (a tuple), got NoneType"),
    ("play(F, list)", lambda: fast.play(F, [6, 0]), TypeError, "play: expected a fast code (a tuple), got list"),
    ("play(F, (6,))", lambda: fast.play(F, (6,)), IndexError, "tuple index out of range"),
    ("engine_code(S, c)", lambda: fast.engine_code(S, (6, 0)), TypeError, "engine_code: expected a FastState, got State"),
    ("engine_code(F, 6)", lambda: fast.engine_code(F, 6), TypeError, "engine_code: expected a fast code (a tuple), got int"),
    ("to_state(None)", lambda: F.to_state(None), TypeError, "to_state: expected a State, got NoneType"),
    ("random_round(None)", lambda: fast.random_round(None, random.Random(1)), InvalidRulesError, "rules must be a mulle.Rules value, got NoneType"),
    ("random_round(rng=None)", lambda: fast.random_round(RULES, None), AttributeError, "'NoneType' object has no attribute 'shuffle'"),  # type: ignore[arg-type]
    ("players=1", lambda: fast.random_round(RULES, random.Random(1), players=1), InvalidRulesError, "Mulle is played by 2, 3 or 4 players (a whole number), not 1"),
    ("players='2'", lambda: fast.random_round(RULES, random.Random(1), players="2"), InvalidRulesError, "Mulle is played by 2, 3 or 4 players (a whole number), not '2'"),
    ("players=2.0", lambda: fast.random_round(RULES, random.Random(1), players=2.0), InvalidRulesError, "Mulle is played by 2, 3 or 4 players (a whole number), not 2.0"),
    ("teams=1", lambda: fast.random_round(RULES, random.Random(1), teams=1), InvalidRulesError, "teams must be true or false, got 1"),
    ("teams, 2 players", lambda: fast.random_round(RULES, random.Random(1), teams=True), InvalidRulesError, "teams need 4 players (P1+P3 against P2+P4)"),
    ("dealer=5", lambda: fast.random_round(RULES, random.Random(1), dealer=5), InvalidRulesError, "dealer must be a seat 0..1, got 5"),
    ("dealer=True", lambda: fast.random_round(RULES, random.Random(1), dealer=True), InvalidRulesError, "dealer must be a seat 0..1, got True"),
    ("new_round dealer None", lambda: fast.new_round(RULES, 2, False, None, DECK), InvalidRulesError, "dealer must be a seat 0..1, got None"),
    ("new_round players", lambda: fast.new_round(RULES, "2", False, 0, DECK), InvalidRulesError, "Mulle is played by 2, 3 or 4 players (a whole number), not '2'"),
    ("new_round short deck", lambda: fast.new_round(RULES, 2, False, 0, DECK[1:]), ValueError, "the deck must be a sequence of the 104 card indices of two packs (0..51, each twice)"),
    ("new_round deck None", lambda: fast.new_round(RULES, 2, False, 0, None), ValueError, "the deck must be a sequence of the 104 card indices of two packs (0..51, each twice)"),
    ("new_round co", lambda: fast.new_round(Rules(ownership="co"), 2, False, 0, DECK), ValueError, "the fast core plays only the rules supports() accepts"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "call", "error", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_gets_the_same_clear_error_in_both_builds(
    name: str, call: Callable[[], Any], error: type[Exception], message: str
) -> None:
    """The error type and message are fixed here, so that the run on each build checks the same ones."""
    with pytest.raises(error) as info:
        call()
    assert type(info.value) is error
    assert str(info.value) == message


def test_bad_input_changes_nothing() -> None:
    """A refused move leaves the position as it was."""
    s, f = _position()
    before = f.to_state(s)
    for code in (None, [6, 0], "6"):
        with pytest.raises(TypeError):
            fast.play(f, code)
    assert f.to_state(s) == before


def test_new_round_deals_as_the_engine() -> None:
    """``new_round`` from the engine's shuffle of the two packs is the engine's position after its first deal
    (spec §2.3), 3 players, dealer 1."""
    s = new_game(RULES, players=3, dealer=1)
    s = apply(s, chance_outcome(s, random.Random(5)))
    deck = list(DECK)
    random.Random(5).shuffle(deck)
    f = fast.new_round(RULES, 3, False, 1, deck)
    assert f.to_state(s) == s


def test_checked_arguments_are_remembered_exactly() -> None:
    """``random_round`` remembers the argument sets ``new_game`` accepted; an equal but wrongly typed one (``True``
    for seat 1, ``1.0``) is still refused after the right one has been played."""
    assert fast.random_round(RULES, random.Random(3), dealer=1).moves > 0
    for dealer in (True, 1.0):
        with pytest.raises(InvalidRulesError, match=r"dealer must be a seat 0\.\.1"):
            fast.random_round(RULES, random.Random(3), dealer=dealer)
    assert fast.random_round(RULES, random.Random(3), players=3, dealer=None).moves > 0
    with pytest.raises(InvalidRulesError, match="2, 3 or 4 players"):
        fast.random_round(RULES, random.Random(3), players=3.0, dealer=None)
