"""The simple Mulle bots (``kortbord.bots.mulle_simple``): legal, reproducible, View-only, and greedy by the rules.

Expected choices come from the rules spec (``../shared/rules/mulle.md``): mulle value §2.8, card points §2.11,
tabbe §2.9, Kryp-mulle §3 (the lowest total wins).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.bots.mulle_simple import LEVELS, GreedyBot, RandomBot, make_bot
from kortbord.mulle import Game, Rules, View, legal_moves, load_position, parse_move_text, view

CONFIGS = [
    (profile, deal, players, teams)
    for profile in ("standard", "cardgames.zone", "kryp")
    for deal in ((8, 8), (5, 5), (4, 8))
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
]


def _rules(profile: str, deal: tuple[int, int]) -> Rules:
    return Rules.from_dict(
        {"profile": profile, "hand_size": deal[0], "table_size": deal[1], "game_length": "single_round"}
    )


def _play_round(rules: Rules, players: int, teams: bool, seed: int, levels: list[str]) -> list[str]:
    """Play one round with ``levels`` at the seats; every choice must be one of the engine's legal moves."""
    game = Game(rules, players=players, teams=teams, seed=seed)
    bots = [make_bot(levels[s % len(levels)], rules) for s in range(players)]
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    while not game.is_over():
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_moves()
        move = bots[seat].choose(game.view(seat), legal, rngs[seat])
        assert move in legal, f"{bots[seat].name} chose {move}, not among {[str(m) for m in legal]}"
        game.play(move)
    return [str(m) for m in game.moves]


@pytest.mark.parametrize(("profile", "deal", "players", "teams"), CONFIGS)
def test_bots_only_choose_legal_moves_in_every_profile_format_and_player_count(
    profile: str, deal: tuple[int, int], players: int, teams: bool
) -> None:
    rules = _rules(profile, deal)
    for seed in range(2):
        moves = _play_round(rules, players, teams, seed, ["greedy", "random"])
        # every card of the round was played from a hand: 104 minus the first table
        assert len(moves) == 104 - rules.table_size


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), config=st.sampled_from(CONFIGS), level=st.sampled_from(LEVELS))
def test_bot_moves_are_legal_over_random_games(
    seed: int, config: tuple[str, tuple[int, int], int, bool], level: str
) -> None:
    profile, deal, players, teams = config
    _play_round(_rules(profile, deal), players, teams, seed, [level])


@pytest.mark.parametrize("level", LEVELS)
def test_bot_decisions_are_reproducible_from_the_seed(level: str) -> None:
    rules = Rules.from_dict({"game_length": "single_round"})
    first = _play_round(rules, 2, False, 11, [level])
    again = _play_round(rules, 2, False, 11, [level])
    assert first == again


def test_greedy_choice_for_one_position_depends_only_on_view_and_rng_state() -> None:
    game = Game(Rules(), players=2, seed=5)
    seat = game.to_act()
    assert seat is not None
    v, legal = game.view(seat), game.legal_moves()
    bot = GreedyBot()
    picks = {str(bot.choose(v, legal, random.Random(3))) for _ in range(5)}
    assert len(picks) == 1


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()])
def test_a_bot_accepts_only_a_view_never_the_state(bot: RandomBot | GreedyBot) -> None:
    game = Game(Rules(), players=2, seed=1)
    seat = game.to_act()
    assert seat is not None
    with pytest.raises(TypeError, match="View"):
        bot.choose(game.state, game.legal_moves(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        bot.choose(game.view(seat), [], random.Random(0))
    assert isinstance(game.view(seat), View)


def test_make_bot_levels() -> None:
    assert make_bot("random").name == "random"
    assert make_bot("greedy").name == "greedy"
    with pytest.raises(ValueError, match="random, greedy"):
        make_bot("grandmaster")


def _choice(position: dict[str, object], rules: Rules | None = None) -> str:
    state = load_position(position)
    legal = legal_moves(state)
    return str(GreedyBot(rules or state.rules).choose(view(state, 0), legal, random.Random(0)))


# MUL-01/MUL-02 table: the 9H mulle (9 points, §2.8) against 9C taking everything (5S 1 point + tabbe 1, §2.9/§2.11)
_MULLE_OR_SWEEP = {"players": 2, "table": ["9H", "4C", "5S"], "hands": {"P1": ["9H", "9C"]}, "to_move": "P1"}


def test_greedy_takes_the_mulle_worth_more_than_a_sweep() -> None:
    assert _choice(_MULLE_OR_SWEEP) == "C 9H x {9H}"


def test_greedy_in_kryp_mulle_avoids_the_points() -> None:
    position = {**_MULLE_OR_SWEEP, "rules": {"profile": "kryp"}}
    assert _choice(position) == str(parse_move_text("C 9C x {4C,5S,9H}"))


def test_greedy_secures_storan_rather_than_a_spade() -> None:
    # TH takes storan (TD on the table counts 10): 2 points for TD (§2.11); 8S takes 5H+3C: 1 point for 8S.
    position = {
        "players": 2,
        "table": ["TD", "5H", "3C"],
        "hands": {"P1": ["TH", "8S"], "P2": ["4D", "6D"]},
        "to_move": "P1",
    }
    assert _choice(position) == "C TH x {TD}"
