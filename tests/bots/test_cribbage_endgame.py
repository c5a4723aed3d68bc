"""``bench/cribbage_endgame.py`` (issue #14 item 2, play to the board): the boards are where greedy's games enter
their end game, a game played from a board starts at its scores and dealer, and a bot against itself on the same
boards and deals wins exactly half (duplicate deals with the seats swapped)."""

from __future__ import annotations

import pytest
from bot_helpers import load_bench

from kortbord import arena

endgame = load_bench("cribbage_endgame")


def test_a_board_is_the_first_deal_with_a_player_near_the_target() -> None:
    found = endgame.boards(6, seed=3, near=45)
    assert found, "greedy's games to 121 enter the end game"
    for board in found:
        assert max(board.scores) >= 121 - 45 and max(board.scores) < 121
        assert board.dealer in (0, 1) and board.deal >= 2  # no player is within 45 before the first deal


def test_a_game_from_a_board_starts_at_its_scores() -> None:
    board = endgame.Board((100, 90), 1, 9)
    greedy = arena.BotSpec.parse("greedy")
    config = endgame.EndgameConfig("cribbage", (greedy, greedy), games=2, seed=4, board=board)
    state = config.new_game(config.make_rules())
    assert tuple(state.scores) == (100, 90) and state.dealer == 1
    record = arena.play_game(config, 0)
    assert record.deals[0]["dealer"] == 1  # the board's dealer deals its first deal
    assert max(record.scores) >= 121 and min(record.scores) >= 90


def test_a_bot_against_itself_wins_half_of_the_end_games() -> None:
    """Greedy against greedy from the same board with the seats swapped is the same game mirrored: one win a board
    -- read from the run's records among a second bot's games (the games are played board by board)."""
    out = endgame.run(["random", "greedy"], 4, seed=5, jobs=1)
    assert out["bots"]["greedy"]["win_rate"] == pytest.approx(0.5)
    assert out["bots"]["greedy"]["wins"] == [1] * out["boards"]
    diff = out["minus_first"]["greedy"]["mean"]
    assert diff == pytest.approx(0.5 - out["bots"]["random"]["win_rate"])


def test_a_bad_near_is_refused() -> None:
    with pytest.raises(ValueError, match="near must be"):
        endgame.boards(2, seed=1, near=0)


def test_a_bad_bot_is_refused_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_games(*args: object, **kw: object) -> None:
        raise AssertionError("a game was played before the bots were checked")

    monkeypatch.setattr(endgame, "boards", no_games)
    with pytest.raises(ValueError, match="near must be"):
        endgame.run(["belief:near=46"], 3, seed=1, jobs=1)


def test_the_boards_are_those_of_distinct_deals() -> None:
    """The arena's odd games share their deals with the even game before them (duplicate seating): only the even
    ones are read, so greedy's mirrored game does not give the same board twice."""
    found = endgame.boards(20, seed=1)
    assert len(set(found)) == len(found)


def test_the_exact_search_has_no_regret_and_the_bots_own_bound_is_its_play() -> None:
    """``regret``: a work bound of every hand and no budget (``0:0``) chooses as the exact search does -- no regret;
    the bot's own bound (``8:4000``), probed on a copy of its rng, is charged exactly what the cards it played are
    (so the probes neither change its choices nor miss them); the games are :func:`run`'s, two a board."""
    bot = "belief:learn=game:kt=0.5:hands=8:budget=4000:endgame=1:ehands=8:ebudget=4000"
    got = endgame.regret(bot, 2, seed=2, draws=[(0, 0), (8, 4000)])
    assert got["games"] == 2 * len(endgame.boards(2, 2)) and got["decisions"] > 0
    assert got["draws"]["0:0"] == {"wrong": 0, "games_lost": 0.0, "per_game": 0.0}
    assert got["draws"]["8:4000"] == got["played"]
    assert len(got["exact_s"]) == got["decisions"]


def test_each_board_has_its_own_deals() -> None:
    """A board's two games are the arena's games 2b and 2b + 1 (one block: the seats swapped on the same deals), so
    two boards never share their deals."""
    start = endgame.boards(3, 1)
    spec = arena.BotSpec.parse("greedy")
    games = [endgame._board_games(start, b, spec, 1) for b in range(len(start))]
    assert [[i for _, i in g] for g in games] == [[2 * b, 2 * b + 1] for b in range(len(start))]
    assert all(c.board == start[b] for b, g in enumerate(games) for c, _ in g)


@pytest.mark.parametrize("bot", ["greedy", "belief:kt=0.5:hands=8"])
def test_regret_needs_a_belief_bot_with_the_end_game(bot: str) -> None:
    with pytest.raises(ValueError, match="regret needs a belief bot with endgame=1"):
        endgame.regret(bot, 1, seed=2, draws=[(0, 0)])
