"""The bridge to CribbageSim's Hoyle-based computer (``bench/cribbage_hoyleish.py``, issue #14 item 2): the second
outside Cribbage player makes, through kortbord's engine, the choices its own strategy text describes.

Expected choices come from CribbageSim 1.0.2's documented strategy (``CribbagePlayStrategy.py``: the dealer keeps the
four that leave the most certain points in hand plus crib, the pone hand minus crib; leads rated "a card of a pair
(not 5s) ... a card under 5, 4 > 3 > 2 > A ... a 5 last"; a follow that scores most at once, else the highest card),
worked by hand here, not read from the program's output.  Skipped when CribbageSim is not installed (``make setup``
installs it).
"""

from __future__ import annotations

import random

import pytest
from bot_helpers import load_bench

from kortbord import arena
from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import GO, Discard, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.view import view

hoyle = load_bench("cribbage_hoyleish")

pytestmark = pytest.mark.skipif(hoyle.SimCard is None, reason="needs CribbageSim (make setup installs it)")

_CRIB = "AS AD 6C 6D"


def _choose(state: engine.State, seed: int = 0) -> object:
    seat = engine.to_act(state)
    v = view(state, seat)
    return hoyle.HoyleishBot(Rules()).choose(v, v.legal_moves, random.Random(seed))


def _discard(*cards: str) -> Discard:
    return Discard(tuple(Card.parse(c) for c in cards))


def test_pone_keeps_the_most_certain_points_less_the_crib() -> None:
    # 5-5-5-J: fifteens J+5 three times and 5+5+5 (8), three 5s a pair royal (6) = 14 certain; 2-8 to the crib: 0
    state = engine.position(Rules(), phase="discard", dealer=0, hands=["AH 3C 7D 9S QS KD", "5S 5H 5D JC 2S 8D"])
    assert engine.to_act(state) == 1  # the pone lays away first
    move = _choose(state)
    assert isinstance(move, Discard) and set(move.cards) == set(_discard("2S", "8D").cards)


def test_the_same_six_laid_away_as_pone_and_as_dealer() -> None:
    # J-J-6-6-2-A.  As pone (hand minus crib): J J 6 6 two pairs 4, crib 2-A 0: 4; 6 6 2 A (pair 2, 6+6+2+A = 15
    # 2) gives the crib J-J, a certain pair: 4 - 2; so 2-A goes.  As dealer (hand plus crib): 6 6 2 A 4 + the
    # crib's J-J 2 = 6 beats J J 6 6 with 2-A (4) and J J 2 A with 6-6 (2 + 2); so the jacks go to its own crib.
    six = "JS 6D 6S 2H AC JC"
    as_pone = engine.position(Rules(), phase="discard", dealer=0, hands=["3C 4D 7S 8H 9C QD", six])
    move = _choose(as_pone)
    assert isinstance(move, Discard) and set(move.cards) == {Card.parse("2H"), Card.parse("AC")}
    as_dealer = engine.position(Rules(), phase="discard", dealer=0, hands=[six, "3C 4D 7S 8H 9C QD"])
    as_dealer = engine.apply(as_dealer, _discard("3C", "4D"))
    assert engine.to_act(as_dealer) == 0
    move = _choose(as_dealer)
    assert isinstance(move, Discard) and set(move.cards) == {Card.parse("JS"), Card.parse("JC")}


@pytest.mark.parametrize(
    ("hand", "lead"),
    [
        ("7S 7H 4D KC", "7S 7H"),  # a card of a pair (rating 18) before a 4 (9)
        ("5S 5H 4D KC", "KC"),  # not from a pair of 5s: the ten-card with a 5 (14)
        ("4D KC 9S 2H", "4D"),  # a card under 5, the 4 first (9)
        ("5D KC 9S 7H", "7H"),  # a 7 with a 9 (15) before a ten-card with a 5 (14); the 5 last (0)
    ],
)
def test_the_lead_follows_hoyles_preferences(hand: str, lead: str) -> None:
    state = engine.position(Rules(), phase="play", dealer=0, hands=["2C 3C 8C 9D", hand], crib=_CRIB, starter="QD")
    assert engine.to_act(state) == 1  # the pone leads
    for seed in range(4):  # the hand's order (drawn) only breaks ties between the cards of the pair
        assert _choose(state, seed) in {Play(Card.parse(c)) for c in lead.split()}


def test_the_follow_takes_the_most_points_at_once_else_the_highest_card() -> None:
    hands = ["5C 9D 8H 4C", "TS 2D 3H AC"]
    state = engine.position(Rules(), phase="play", dealer=0, hands=hands, crib=_CRIB, starter="QD")
    after_ten = engine.apply(state, Play(Card.parse("TS")))  # count 10: the 5 makes fifteen
    assert _choose(after_ten) == Play(Card.parse("5C"))
    after_two = engine.apply(state, Play(Card.parse("2D")))  # count 2: no card scores, so the highest, the 9
    assert _choose(after_two) == Play(Card.parse("9D"))


def test_equal_choices_follow_the_order_the_cards_are_held_not_their_rank() -> None:
    # A-3-7-9-J-K: no fifteen, pair, run or flush among any of them, so all 15 ways to lay away two tie at 0 certain
    # points and the program takes the first in the order it holds its cards; it holds them as drawn, so over many
    # draws it lays away many different pairs -- never always the two highest, as a hand sorted by rank would give
    six = "AS 3H 7D 9C JS KH"
    state = engine.position(Rules(), phase="discard", dealer=0, hands=["2C 4D 6S 8H TC QD", six])
    thrown = set()
    for seed in range(30):
        move = _choose(state, seed)
        assert isinstance(move, Discard)
        thrown.add(frozenset(move.cards))
    assert len(thrown) >= 5


def test_a_new_count_against_an_empty_hand_is_played_out_by_the_go_rule() -> None:
    # The pone lays all four: A (1), the dealer K (11), 2 (13), Q (23), 5 (28), the dealer cannot (go), 3 (31).  The
    # dealer then starts a count holding 4C and 8H with the other hand empty.  In the program's own deal the pone
    # declares go at once and the dealer plays out by its go rule -- the highest card when none scores, the 8 --
    # where its lead rule would lay the 4 (a card under 5 before an 8 without a 6)
    hands = ["KC QD 4C 8H", "AS 2S 5S 3S"]
    state = engine.position(Rules(), phase="play", dealer=0, hands=hands, crib="AD AC 6C 6D", starter="9D")
    for move in (Play(Card.parse("AS")), Play(Card.parse("KC")), Play(Card.parse("2S")), Play(Card.parse("QD"))):
        state = engine.apply(state, move)
    state = engine.apply(state, Play(Card.parse("5S")))
    assert engine.legal_moves(state) == [GO]
    state = engine.apply(state, GO)
    state = engine.apply(state, Play(Card.parse("3S")))
    v = view(state, 0)
    assert engine.to_act(state) == 0 and v.count == 0 and v.hand_sizes[1] == 0
    assert _choose(state) == Play(Card.parse("8H"))


def test_no_card_fits_is_a_go() -> None:
    hands = ["KC QD JH TC", "9S 8D 7C 6H"]
    state = engine.position(Rules(), phase="play", dealer=0, hands=hands, crib=_CRIB, starter="2D")
    for card in ("9S", "KC", "8D"):  # 9, 19, 27: the dealer's ten-cards no longer fit
        state = engine.apply(state, Play(Card.parse(card)))
    assert engine.to_act(state) == 0
    assert _choose(state) == GO


def test_rules_the_program_does_not_play_are_refused() -> None:
    for rules in (Rules(muggins=True), Rules(lowball=True), Rules(players=3)):
        with pytest.raises(ValueError, match="standard two-player"):
            hoyle.HoyleishBot(rules)


def test_whole_games_through_the_referee_have_no_bridge_error() -> None:
    config = hoyle._config(arena.BotSpec("greedy"), 4, 3)
    records = [arena.play_game(config, i, factory=hoyle._factory) for i in range(4)]
    assert all(r.error is None for r in records)
    assert all(r.outcome for r in records)
    summary = arena.summarize(config, records, elapsed_s=1.0)
    assert summary["duplicate"]["pairs"] > 0


def test_the_peer_may_be_a_kortbord_level_judged_by_the_win_goal(capsys: pytest.CaptureFixture[str]) -> None:
    # item 2's other goal: >= 62% of >= 1,000 games to 121 against greedy; two games can never meet it
    assert hoyle.main(["--bots", "greedy", "--peer", "greedy", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "against kortbord's greedy" in out or "v kortbord's greedy" in out
    assert "CribbageSim" not in out.splitlines()[0]
    assert "goal (expert) against greedy: >= 62% of >= 1,000 games to 121" in out
    assert out.rstrip().endswith("not met")
    config = hoyle._config(arena.BotSpec("strong"), 2, 5, "greedy")
    assert [spec.level for spec in config.bots] == ["strong", "greedy"]
    assert config.bots[1].options == ()
