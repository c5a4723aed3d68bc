"""The strong Cribbage option ``play_model`` (an experiment, off by default): sampled deals weighted by how likely
the opponent's plays so far were given the sampled hand (spec §2.4 the play)."""

from __future__ import annotations

import random

import pytest
from bot_helpers import pone_view_after

from kortbord.bots import cribbage_strong as cs
from kortbord.bots.registry import make_bot
from kortbord.cards import parse_cards
from kortbord.cribbage import Rules
from kortbord.cribbage.view import View

RULES = Rules.from_dict({"players": 2, "target": 121})


def _after(plays: list[str]) -> View:
    return pone_view_after(RULES, plays)


def test_off_by_default() -> None:
    assert cs.StrongBot().play_model == 0.0
    assert cs._Sampler(_after(["5S", "4H"]))._plays is None
    with pytest.raises(ValueError):
        cs.StrongBot(play_model=-1.0)


def test_no_opponent_play_no_evidence() -> None:
    model = cs._PlayModel(_after(["5S"]), 1.0)
    assert model.events == []
    assert model.likelihood(parse_cards("KH 2C 3D 7S")) == 1.0


def test_passing_up_a_fifteen_is_evidence_against_a_ten_card() -> None:
    # after the lead of a 5 the dealer laid a 4 (count 9): a hand with a ten-card would have made 15 for 2
    model = cs._PlayModel(_after(["5S", "4H"]), 1.0)
    with_ten = model.likelihood(parse_cards("4H KH 2C 3D"))
    without = model.likelihood(parse_cards("4H 7S 2C 3D"))
    assert 0.0 < with_ten < without <= 1.0


def test_one_legal_card_is_no_evidence() -> None:
    # at a count of 24 a 7 makes 31 and a king would pass it: laying the 7 was forced, whatever else is held
    model = cs._PlayModel(_after(["5S", "4H"]), 1.0)
    seven, king = parse_cards("7S KH")
    assert model._log_chance([seven, king], (5, 11), (), 24, seven, 2, False) == 0.0
    assert model._log_chance([seven, king], (5, 11), (), 14, seven, 2, False) < 0.0  # the king fits at 14


def test_registry_and_search_take_the_option() -> None:
    bot = make_bot("cribbage", "strong", RULES, play_model=0.5)
    assert isinstance(bot, cs.StrongBot) and bot.play_model == 0.5
    with pytest.raises(ValueError):
        make_bot("cribbage", "strong", RULES, play_model=True)
    v = _after(["5S", "4H"])
    move = bot.choose(v, list(v.legal_moves), random.Random(3))
    assert move in v.legal_moves
