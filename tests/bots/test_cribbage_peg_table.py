"""The pegging table of the strong Cribbage discard option ``peg_weight`` (``scripts/make_peg_table.py``).

The table builder's fast play on ranks is checked against the rules: worked examples of spec §2.4 (pairs, runs,
15, 31, go and last card) and the engine (``kortbord.cribbage.engine``, the one place the rules live) replaying
the same cards on random deals.  The table itself: its shape and that its lookup is used only when asked for.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kortbord.bots.cribbage_strong import StrongBot, discard_values, peg_value, peg_values
from kortbord.cards import Card
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Discard, Play
from kortbord.cribbage.view import view

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_peg_table.py"


def _script() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("make_peg_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def mpt() -> ModuleType:
    return _script()


@pytest.mark.parametrize(
    ("seq", "points"),
    [
        ([5, 10], 2),  # 15
        ([10, 10], 2),  # a pair
        ([7, 7, 7], 6),  # pair royal
        ([3, 3, 3, 3], 12),  # double pair royal
        ([5, 3, 4], 3),  # spec §2.4: 5-3-4 scores 3
        ([7, 9, 6, 8], 4),  # 7-9-6-8 scores 4
        ([6, 7, 8, 6], 3),  # 6-7-8 then 6: the last three form a run
        ([7, 6, 8, 8], 2),  # a repeated rank rules the run out: only the pair
        ([3, 4, 4, 5], 0),  # 3-4-4-5: the 4 scored the pair; the 5 scores no run over the repeated 4
        ([10, 10, 11], 0),
        ([10, 11, 10, 1], 2),  # 31
    ],
)
def test_last_card_points_follow_the_rules(mpt: ModuleType, seq: list[int], points: int) -> None:
    count = sum(min(r, 10) for r in seq)
    assert mpt.last_card_points(seq, count) == points


def test_play_out_worked_example(mpt: ModuleType) -> None:
    # dealer four tens, pone four fives: 5 T(15: 2) 5 T, both go (dealer 1); 5 T(15: 2) 5 T, last card (dealer 1)
    assert mpt.play_out([10, 10, 10, 10], [5, 5, 5, 5]) == (6, 0)


def test_play_out_agrees_with_the_engine(mpt: ModuleType) -> None:
    rng = random.Random(7)
    deck = [Card(i) for i in range(52)]
    rules = Rules.from_dict({"players": 2, "target": 121, "muggins": True})  # the play stops at the show
    for _ in range(300):
        cards = rng.sample(deck, 8 + 4 + 1)
        dealer_cards, pone_cards = cards[:4], cards[4:8]
        starter = cards[12]
        if starter.rank == 11:  # heels would score in the deal, not in the play
            continue
        trace: list[tuple[int, int]] = []
        expected = mpt.play_out([c.rank for c in dealer_cards], [c.rank for c in pone_cards], trace)
        state = engine.position(
            rules, phase="play", dealer=0, hands=[dealer_cards, pone_cards], crib=cards[8:12], starter=starter
        )
        held = {0: list(dealer_cards), 1: list(pone_cards)}
        for player, rank in trace:
            while True:  # forced goes in between
                moves = engine.legal_moves(state)
                if any(isinstance(m, Play) for m in moves):
                    break
                state = engine.apply(state, moves[0])
            assert engine.to_act(state) == player
            card = next(c for c in held[player] if c.rank == rank)
            held[player].remove(card)
            state = engine.apply(state, Play(card))
        while state.phase_name == "play":
            state = engine.apply(state, engine.legal_moves(state)[0])
        assert tuple(state.scores) == expected


def test_table_shape() -> None:
    table = peg_values()
    assert "make_peg_table.py" in table["metadata"]["command"]
    for role in ("dealer", "pone"):
        assert len(table[role]) == 1820  # multisets of 4 among 13 ranks: C(16, 4)
    assert peg_value([Card.parse(c) for c in ["5H", "5D", "TC", "KS"]], dealer=True) == table["dealer"]["55TK"]


def test_peg_weight_off_by_default() -> None:
    state = engine.position(
        Rules(), phase="discard", dealer=0, hands=["5H 5D TC KS 2C 9D", "AH 2H 3H 4H 6H 7H"], starter="8S"
    )
    v = view(state, 0)
    moves = [Discard((a, b)) for i, a in enumerate(v.hand) for b in v.hand[i + 1 :]]
    assert StrongBot().peg_weight == 0.0
    assert discard_values(v, moves) == discard_values(v, moves, peg_weight=0.0)
    assert discard_values(v, moves, peg_weight=1.0) != discard_values(v, moves)
    with pytest.raises(ValueError):
        StrongBot(peg_weight=-1.0)
