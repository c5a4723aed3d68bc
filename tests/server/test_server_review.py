"""The review after a game (issue #11 item 7, after the fresh-user pass): a decision's cost is in game points --
the strong search's bonus for winning is never counted as points but reported as a change in the chance of
winning -- and a Cribbage discard is worded as a discard, in both languages."""

from __future__ import annotations

import pytest

from kortbord import i18n
from kortbord.bots.cribbage_strong import WIN, StrongBot, split_values
from kortbord.cards import Card
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.view import view
from kortbord.server.aids import play_cost


def _end_game_view() -> object:
    """Both sides at 119 of 121 (spec §2.6: the game ends the moment a side reaches 121).  The pone leads 8D;
    the dealer (seat 0) holds 7H, which makes fifteen for 2 (spec §2.4) and wins on the spot."""
    state = engine.position(
        Rules(), phase="play", dealer=0, hands=["7H 2C TS 4H", "8D KC QC JC"], crib="AS AD 6C 6D", starter="3H",
        scores=[119, 119],
    )  # fmt: skip
    state = engine.apply(state, Play(Card.parse("8D")))
    return view(state, 0)


def test_a_play_s_cost_is_in_points_and_the_win_is_a_chance() -> None:
    v = _end_game_view()
    legal = list(v.legal_moves)
    seven, two = Play(Card.parse("7H")), Play(Card.parse("2C"))
    bot = StrongBot(v.rules)
    values, points, chance = split_values(bot, v, legal, seed=3)
    i7, i2 = legal.index(seven), legal.index(two)
    # 7H: the fifteen's 2 points and the game, in every deal the search looks at
    assert points[i7] == pytest.approx(2.0) and chance[i7] == pytest.approx(1.0)
    assert values[i7] == pytest.approx(2.0 + WIN)  # the search's value holds the bonus ...
    best, cost, more = play_cost(bot, v, legal, two, seed=3)
    assert best == seven
    # ... the review's cost does not: both sides are 2 short, so the rest of the play scores one card's pegs at
    # most (a double pair royal's 12 with a fifteen's or 31's 2: spec §2.4) besides the 2 that 7H makes
    assert cost == pytest.approx(points[i7] - points[i2]) and abs(cost) <= 2 + 14
    assert more == pytest.approx(chance[i7] - chance[i2]) and 0.01 < more <= 1.0
    assert play_cost(bot, v, legal, seven, seed=3) == (None, 0.0, 0.0)  # the strong choice costs nothing


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_review_rows_word_a_discard_as_a_discard(lang: str) -> None:
    data = {"deal": 3, "played": "5♥ 5♠", "best": "K♣ Q♦", "cost": "1.2", "odds": False}
    discard = i18n.render("ui.reviewRow", {**data, "kind": "discard"}, lang, game="aids")
    play = i18n.render("ui.reviewRow", {**data, "kind": "play"}, lang, game="aids")
    mulle = i18n.render("ui.reviewRow", {**data, "kind": "move"}, lang, game="aids")
    laid, played = {"en": ("laid away", "played"), "sv": ("i krubban", "spelade")}[lang]
    assert laid in discard and played not in discard and "5♥ 5♠" in discard and "K♣ Q♦" in discard
    assert played in play and played in mulle and laid not in play
    odds = i18n.render("ui.reviewRow", {**data, "kind": "play", "odds": True, "chance": 58}, lang, game="aids")
    assert "58" in odds and "1.2" in odds
