"""The strong bot's playouts on move codes (issue #13 item 4) choose what the playout policy on move values chooses,
and its playouts on the fast core (:mod:`kortbord.mulle.fast`) are the engine's playouts.

``kortbord.bots.mulle_strong`` plays its playouts with ``legal_codes``/``apply_code`` and values codes with
``_code_value``; :func:`~kortbord.bots.mulle_strong.rollout_policy` is the policy on move values (the seat's hand
from its View).  Over random positions of every profile and seating, with the same generator seed, both pick the
same move, and the bot's decisions are reproducible from its seed.
"""

from __future__ import annotations

import random

import pytest

from kortbord.bots.mulle_strong import StrongBot, _rollout_code, _side_points, _tables, rollout_policy
from kortbord.mulle import Rules, apply, chance_outcome, is_chance, is_over, legal_moves, new_game
from kortbord.mulle.movegen import decode, legal_codes
from kortbord.mulle.state import State
from kortbord.mulle.transitions import apply_code
from kortbord.mulle.view import view as seat_view

SEATINGS = [(2, False), (3, False), (4, True)]


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
@pytest.mark.parametrize("profile", ["standard", "cardgames.zone", "kryp"])
def test_code_playout_policy_chooses_as_the_move_policy(profile: str, players: int, teams: bool) -> None:
    rules = Rules.from_dict({"profile": profile, "game_length": "single_round"})
    tables = _tables(rules)
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = new_game(rules, players=players, teams=teams)
        while not is_over(s):
            if is_chance(s):
                s = apply(s, chance_outcome(s, rng))
                continue
            moves = legal_moves(s)
            for k in range(3):
                for eps in (0.0, 0.1):
                    by_move = rollout_policy(s, moves, random.Random(k), eps, tables)
                    assert s.to_move is not None
                    code = _rollout_code(s, legal_codes(s), random.Random(k), eps, tables, s._hands[s.to_move])
                    assert decode(s, code) == by_move
                    compared += 1
            pick = rng.randrange(len(moves))
            nxt = apply(s, moves[pick])
            assert apply_code(s, legal_codes(s)[pick]) == nxt
            s = nxt
    assert compared > 500


def test_strong_bot_reproducible_on_the_fast_path() -> None:
    rules = Rules(game_length="single_round")
    rng = random.Random(4)
    s = new_game(rules, players=2)
    s = apply(s, chance_outcome(s, rng))
    for _ in range(5):
        s = apply(s, rng.choice(legal_moves(s)))
    assert s.to_move is not None
    picks = set()
    for _ in range(2):
        bot = StrongBot(rules, iterations=8)
        picks.add(bot.choose(seat_view(s, s.to_move), legal_moves(s), random.Random(9)))
        assert bot.last_stats["worlds"] == 8
    assert len(picks) == 1
    assert picks <= set(legal_moves(s))


@pytest.mark.parametrize(("players", "teams"), SEATINGS)
@pytest.mark.parametrize("profile", ["standard", "cardgames.zone", "kryp"])
def test_fast_core_playouts_are_the_engine_playouts(profile: str, players: int, teams: bool) -> None:
    """The strong bot's playouts on the fast core (issue #13 item 4) end with the piles the engine playouts end
    with, from every position of random rounds and several playout seeds (the same moves, the same policy draws)."""
    rules = Rules.from_dict({"profile": profile, "game_length": "single_round"})
    fast_bot, engine_bot = StrongBot(rules), StrongBot(rules)
    engine_bot.fast_playouts = False
    tables = _tables(rules)
    compared = 0
    for seed in range(2):
        rng = random.Random(seed)
        s = new_game(rules, players=players, teams=teams)
        s = apply(s, chance_outcome(s, rng))
        while not is_over(s) and not is_chance(s):
            for k in range(2):
                got = fast_bot._playout(s, random.Random(k))
                want = engine_bot._playout(s, random.Random(k))
                assert isinstance(want, State)
                assert _side_points(got, tables) == _side_points(want, tables)
                assert [list(map(int, p.cards)) for p in want.piles] == [p[0] for p in got.piles]  # type: ignore[union-attr]
                compared += 1
            s = apply(s, rng.choice(legal_moves(s)))
    assert compared > 100


@pytest.mark.parametrize(("players", "teams"), [(2, False), (4, True)])
def test_strong_bot_decides_as_on_the_engine(players: int, teams: bool) -> None:
    """Decisions with fast-core playouts are the decisions with engine playouts, at the same seed."""
    rules = Rules(game_length="single_round")
    rng = random.Random(11)
    s = new_game(rules, players=players, teams=teams)
    s = apply(s, chance_outcome(s, rng))
    decided = 0
    while not is_over(s) and not is_chance(s):
        moves = legal_moves(s)
        if len(moves) > 1 and decided < 12:
            assert s.to_move is not None
            v = seat_view(s, s.to_move)
            fast_bot, engine_bot = StrongBot(rules, iterations=6), StrongBot(rules, iterations=6)
            engine_bot.fast_playouts = False
            assert fast_bot.choose(v, moves, random.Random(decided)) == engine_bot.choose(
                v, moves, random.Random(decided)
            )
            decided += 1
        s = apply(s, rng.choice(moves))
    assert decided == 12
