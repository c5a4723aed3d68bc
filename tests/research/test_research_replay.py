"""Replay: the same seed and moves through an adapter and through the engine give the identical game, and
small matches: OpenSpiel's Python MCTS and our strong bot (``kortbord.bots``, level ``strong``) beat a random
player."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from kortbord import cribbage, mulle
from kortbord.bots.registry import make_bot
from kortbord.pettingzoo import cribbage_env, mulle_env

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

import kortbord.openspiel  # noqa: E402  (registers the games)
import kortbord.research.table  # noqa: E402

CASES: list[tuple[str, dict[str, Any]]] = [
    ("mulle", {"game_length": "single_round"}),
    ("mulle", {"game_length": "target:60", "players": 3}),
    ("mulle", {"game_length": "single_round", "players": 4, "teams": True, "profile": "kryp"}),
    ("cribbage", {"target": 61, "muggins": True}),
    ("cribbage", {"players": 3, "target": 61}),
    ("cribbage", {"players": 4, "lowball": True}),
]


def _engine(game: str) -> Any:
    return mulle if game == "mulle" else cribbage


@pytest.mark.parametrize(("game", "params"), CASES)
def test_pettingzoo_seed_and_actions_replay_in_the_engine(game: str, params: dict[str, Any]) -> None:
    env = (mulle_env if game == "mulle" else cribbage_env)(**params)
    env.reset(seed=20240)
    rng = random.Random(1)
    moves = []
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        moves.append(env.setup.move_of(env.table.state, action))
        env.step(action)
    # the engine alone: one random.Random(seed) draws every chance move (docs/engine-api.md, game records)
    eng = _engine(game)
    state = env.setup.new_state()
    chance_rng = random.Random(20240)
    played = iter(moves)
    while not eng.is_over(state):
        state = eng.apply(state, eng.chance_outcome(state, chance_rng) if eng.is_chance(state) else next(played))
    assert next(played, None) is None
    assert eng.result(state) == eng.result(env.table.state)
    assert eng.result(state).scores == eng.result(env.table.state).scores


@pytest.mark.parametrize(("game", "params"), CASES)
def test_openspiel_chance_and_actions_replay_an_engine_game(game: str, params: dict[str, Any]) -> None:
    """An engine game (seeded random moves) fed to OpenSpiel as chance outcomes (the cards of each shuffle in
    deck order) and action ids gives the same scores and winners."""
    eng = _engine(game)
    ospiel = pyspiel.load_game(f"kortbord_{game}", params)
    setup = ospiel.setup
    state = setup.new_state()
    rng = random.Random(77)
    os_state = ospiel.new_initial_state()
    while not eng.is_over(state):
        if eng.is_chance(state):
            move = eng.chance_outcome(state, rng)
            if game == "mulle":
                if move.dealer is not None:
                    os_state.apply_action(move.dealer)
                cards = move.deck
            elif isinstance(move, cribbage.CutForDeal):
                cards = move.cards
            else:
                cards = move.deck[: setup.research.cards_used(setup.rules)]  # the rest of the pack is never seen
            for c in cards:
                os_state.apply_action(int(c))
        else:
            move = rng.choice(eng.legal_moves(state))
            os_state.apply_action(setup.action_of(os_state.table.state, move))
        state = eng.apply(state, move)
    assert os_state.is_terminal()
    mine, theirs = eng.result(state), eng.result(os_state.table.state)
    assert mine.scores == theirs.scores and mine.winners == theirs.winners
    assert os_state.returns() == pytest.approx(
        kortbord.research.table.utilities(setup, state, ospiel.get_parameters()["utility"])
    )


def _bot_match(game: str, games: int) -> tuple[int, int]:
    """Our strong bot (reproducible iterations mode) against random, alternating seats: (strong wins, random
    wins)."""
    rules: Any = (
        mulle.Rules.from_dict({"game_length": "single_round"}) if game == "mulle" else cribbage.Rules(target=61)
    )
    strong = make_bot(game, "strong", rules, iterations=4)
    rand = make_bot(game, "random", rules)
    eng = _engine(game)
    wins = [0, 0]
    for g in range(games):
        rng = random.Random(g)
        bots = [strong, rand] if g % 2 == 0 else [rand, strong]
        state = eng.new_game(rules)
        while not eng.is_over(state):
            if eng.is_chance(state):
                state = eng.apply(state, eng.chance_outcome(state, rng))
                continue
            seat = eng.to_act(state)
            state = eng.apply(state, bots[seat].choose(eng.view(state, seat), eng.legal_moves(state), rng))
        result = eng.result(state)
        winners = set(result.winners)
        strong_seat = g % 2
        if strong_seat in winners and len(winners) == 1:
            wins[0] += 1
        elif winners and strong_seat not in winners:
            wins[1] += 1
    return wins[0], wins[1]


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_strong_bot_beats_random(game: str) -> None:
    strong, rand = _bot_match(game, 12)
    assert strong > rand and strong >= 8, (strong, rand)


@pytest.mark.slow
def test_openspiel_mcts_beats_random_at_mulle() -> None:
    """OpenSpiel's Python MCTS (5 simulations, one random rollout each) against uniform random play, 8 single-round
    Mulle games with alternating seats."""
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round"})
    rng = np.random.RandomState(2)
    bot = mcts.MCTSBot(game, 2.0, 5, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    wins = losses = 0
    for g in range(8):
        state = game.new_initial_state()
        me = g % 2
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == me:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[me] > 0
        losses += state.returns()[me] < 0
    assert wins > losses, (wins, losses)
