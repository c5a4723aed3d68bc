"""``kortbord.mulle.position(...)`` builds a state directly (no JSON round trip); ``load_position`` uses it.

The state it builds equals the one the position JSON gives (spec §5.3: ``Pk`` is seat ``k-1``, the dealer is the
last seat), for positions taken from random games; bad arguments raise ``InvalidPositionError``.
"""

from __future__ import annotations

import random

import pytest

from kortbord import contract
from kortbord.cards import Card
from kortbord.errors import InvalidPositionError
from kortbord.mulle import (
    Event,
    Rules,
    apply,
    chance_outcome,
    dump_position,
    engine,
    is_chance,
    is_over,
    legal_moves,
    load_position,
    position,
    step,
)
from kortbord.mulle.state import Build, PileInfo

C = Card.parse


def test_event_is_the_contract_event() -> None:
    assert Event is contract.Event and engine.Event is contract.Event


def test_position_equals_load_position() -> None:
    rules = Rules(game_length="single_round")
    for players in (2, 3, 4):
        rng = random.Random(players)
        s = engine.new_game(rules, players=players, teams=players == 4, dealer=players - 1)
        k = 0
        while not is_over(s):
            if is_chance(s):
                s = apply(s, chance_outcome(s, rng))
                continue
            k += 1
            if k % 5 == 0:
                built = position(
                    s.rules,
                    players=s.players,
                    teams=s.teams,
                    to_move=s.to_move or 0,
                    hands=list(s._hands),
                    table=s.table,
                    builds=s.builds,
                    piles=[PileInfo(tuple(sorted(p.cards)), p.mulles, p.tabbar) for p in s.piles],  # JSON sorts
                    scores=s.scores,
                    stock=s._stock,
                    last_capturer=s.last_capturer,
                    deal_no=s.deal_no,
                    deals_total=s.deals_total,
                    is_last_deal=s.is_last_deal,
                )
                loaded = load_position(dump_position(s))
                assert built == loaded
                assert dump_position(built) == dump_position(s)
                assert legal_moves(built) == legal_moves(s)
                m = legal_moves(s)[0]
                assert step(built, m)[1] == step(s, m)[1]
            s = apply(s, rng.choice(legal_moves(s)))


def test_position_takes_notation_and_defaults() -> None:
    s = position(to_move=0, hands=[["9H", "3C"], None], table=["9S", "6D"])
    assert s.partial and s.dealer == 1 and s.table == tuple(sorted((C("9S"), C("6D"))))
    assert s == load_position({"table": ["9S", "6D"], "hands": {"P1": ["9H", "3C"]}, "to_move": "P1"})
    b = Build("B2", (C("5H"), C("3C")), 8, 1)
    s = position(to_move=0, hands=[["8D"], None], builds=[b], piles=[PileInfo(), PileInfo((C("KD"),))])
    assert [str(m) for m in legal_moves(s)] == ["C 8D x {[B2]}"]
    assert s.next_build == 3


@pytest.mark.parametrize(
    "kw",
    [
        {"hands": [["9H"]]},  # two players need two hands
        {"hands": [None, ["9H"]]},  # the mover's hand is missing
        {"hands": [["9H"], None], "to_move": 2},
        {"hands": [["9H"], None], "table": ["9H", "9H"]},  # a third 9H
        {"hands": [["9H"], None], "builds": [Build("B1", (C("2H"),), 2, 1)]},  # one card is no build
        {"hands": [["9H"], None], "builds": [Build("B1", (C("2H"), C("3H")), 12, 1)]},  # 2+3 is at most 5
        {"hands": [["9H"], None], "builds": [Build("B1", (C("2H"), C("3H")), 5, 1)] * 2},  # one id twice
        {"hands": [["9H"], None], "piles": [PileInfo()]},  # one pile per side
        {"hands": [["9H"], None], "piles": [PileInfo((C("9H"),), ((C("9H"), 9),)), PileInfo()]},  # a mulle of one
        {"hands": [["9H"], None], "scores": [1, 2, 3]},
        {"hands": [["9H"], ["2D"]], "stock": []},  # a full position without all 104 cards
        {"hands": [["9H"], None], "deal_no": 7, "deals_total": 6},
        {"hands": [["9H", "3C"], None], "last_play": True},  # the last card of the round is one card
        {"hands": [["9X"], None]},
    ],
)
def test_bad_positions_are_refused(kw: dict[str, object]) -> None:
    args: dict[str, object] = {"to_move": 0, **kw}
    with pytest.raises(InvalidPositionError):
        position(**args)  # type: ignore[arg-type]
