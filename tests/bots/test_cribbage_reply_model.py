"""The strong Cribbage option ``reply`` (an opponent model in the pegging search) and the shared judgement of a
sensible player's card, :func:`kortbord.bots.cribbage_simple.judge_plays` (spec §2.4 the play: fifteens, 31,
pairs, runs; the two-player game)."""

from __future__ import annotations

import random

import pytest

from kortbord.bots import cribbage_strong as cs
from kortbord.bots.cribbage_simple import judge_plays
from kortbord.bots.registry import make_bot
from kortbord.cards import full_deck, parse_cards
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.view import view

RULES = Rules.from_dict({"players": 2, "target": 121})


def _play_positions(n: int, seed: int) -> list[object]:
    """States at a play decision with at least two legal cards, from random deals played at random."""
    rng = random.Random(seed)
    deck = list(full_deck())
    out = []
    while len(out) < n:
        cards = rng.sample(deck, 13)
        state = engine.position(RULES, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12])
        while state.phase_name in ("discard", "play"):
            moves = engine.legal_moves(state)
            if state.phase_name == "play" and len(moves) > 1 and rng.random() < 0.5:
                out.append(state)
            state = engine.apply(state, moves[rng.randrange(len(moves))])
    return out


def test_judge_plays_values_from_the_rules() -> None:
    """Spec §2.4: a fifteen scores 2, a 31 scores 2; the judgement adds 0.02 a pip (not to a 31) and takes off
    2 points times the chance that the next player holds a card that pairs, 2 for one that makes 15 or 31, 3 for
    one that makes a run -- the chance hypergeometric over the cards the judging player has not seen."""
    five, ten, four = parse_cards("5S")[0], parse_cards("TD")[0], parse_cards("4C")[0]
    king = parse_cards("KD")[0]
    # nobody to answer (a go, or no cards left): the points and the pips only
    assert judge_plays([five], [13], [king], 10, 0, True) == {5: pytest.approx(2.0 + 0.1)}
    # 21 + 10 = 31 for 2: nothing offered after a 31
    assert judge_plays([ten], [13, 9, 2], [king, parse_cards("9H")[0], parse_cards("2H")[0]], 21, 3, False) == {
        10: pytest.approx(2.0)
    }
    # a lead of 4 with nothing seen: 3 fours unseen of 51 cards, the next player holds 1 card -> 3/51 to pair it
    assert judge_plays([four], [], [], 0, 1, False) == {4: pytest.approx(0.08 - 2.0 * 3 / 51)}
    # a card that passes 31 is not judged
    assert judge_plays([ten, four], [13, 13, 5], [king, parse_cards("KH")[0], parse_cards("5H")[0]], 25, 2, True) == {
        4: pytest.approx(0.08)
    }


def test_the_model_takes_the_expectation_not_the_minimum() -> None:
    """An expectation over the opponent's cards is never below their minimum: on 60 random play positions the
    modelled value of every card is at least the paranoid (alpha-beta) value on the same deal."""
    for state in _play_positions(60, 8):
        mover = engine.to_act(state)
        paranoid = cs._Search(mover, RULES, state)
        modelled = cs._Search(mover, RULES, state, reply=0.3)
        for move in engine.legal_moves(state):
            assert modelled.value_after(move) >= paranoid.value_after(move) - 1e-9


def test_off_by_default_and_the_registry_takes_it() -> None:
    assert cs.StrongBot().reply == 0.0
    with pytest.raises(ValueError):
        cs.StrongBot(reply=-1.0)
    with pytest.raises(ValueError):
        make_bot("cribbage", "strong", RULES, reply=True)
    bot = make_bot("cribbage", "strong", RULES, reply=0.05)
    assert isinstance(bot, cs.StrongBot) and bot.reply == 0.05
    state = _play_positions(1, 2)[0]
    seat = engine.to_act(state)
    v = view(state, seat)
    assert bot.choose(v, list(v.legal_moves), random.Random(1)) in v.legal_moves


def test_lowball_and_more_players_keep_the_paranoid_search() -> None:
    for options in ({"players": 2, "lowball": True}, {"players": 3}):
        rules = Rules.from_dict(options)
        n = rules.players
        deck = list(full_deck())
        state = engine.position(
            rules,
            phase="play",
            dealer=0,
            hands=[deck[4 * i : 4 * i + 4] for i in range(n)],
            crib=deck[40:44],
            starter=deck[51],
        )
        assert cs._Search(1, rules, state, reply=0.5).reply == 0.0
