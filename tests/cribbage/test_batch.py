"""kortbord.cribbage.batch: the batched engine plays the scalar engine's games (issue #13 item 2).

Every game the batch plays is exported as a game record and replayed by the scalar engine
(``Game.from_record``): the same legal moves at every step, the same end, the same scores -- thousands of games,
every player count, both targets, random play and a policy.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kortbord.cards import Card
from kortbord.cribbage import Game, Rules
from kortbord.cribbage import engine as scalar
from kortbord.cribbage.batch import GO, NUM_ACTIONS, Batch, _Chance, _mt_seed, _temper, _twist, play_random
from kortbord.errors import IllegalMoveError, InvalidRulesError


def test_streams_are_pythons_random() -> None:
    seeds = np.array([0, 1, 7, 20240611, 2**32 - 1], dtype=np.uint32)
    mt = np.ascontiguousarray(_mt_seed(seeds).T)  # a stream per row
    words = []
    for _ in range(2):  # two blocks of 624 outputs
        _twist(mt)
        words.append(_temper(mt))
    out = np.concatenate(words, axis=1)
    for g, seed in enumerate(seeds.tolist()):
        rng = random.Random(seed)
        assert out[g, :1000].tolist() == [rng.getrandbits(32) for _ in range(1000)]
    chance = _Chance(seeds, 52)
    every = np.arange(seeds.size)
    packs = [chance.packs(every, np.full(seeds.size, q)) for q in range(40)]  # 40 shuffles read several blocks
    for g, seed in enumerate(seeds.tolist()):
        rng = random.Random(seed)
        for pack in packs:
            deck = list(range(52))
            rng.shuffle(deck)
            assert pack[g].tolist() == deck
    # games asking for different shuffles at once, the top cards only
    top = _Chance(seeds, 13)
    q = np.array([3, 0, 11, 5, 7])
    got = top.packs(every, q)
    for g, seed in enumerate(seeds.tolist()):
        rng = random.Random(seed)
        for _ in range(q[g] + 1):
            deck = list(range(52))
            rng.shuffle(deck)
        assert got[g].tolist() == deck[:13]


def _replays(batch: Batch) -> None:
    for g, record in enumerate(batch.records()):
        game = Game.from_record(record)  # raises on any illegal move or a move after the end
        assert game.is_over(), (g, record["seed"])
        assert list(game.state.scores) == batch.scores[g].tolist(), (g, record["seed"])
        winners = set(game.result().winners)
        assert {s for s in range(batch.players) if batch.rewards[g, s] > 0} == winners
        if g < 10:
            assert game.to_record() == record


@pytest.mark.parametrize(
    ("players", "target", "games"),
    [(2, 121, 700), (3, 121, 400), (4, 121, 400), (2, 61, 300), (3, 61, 200), (4, 61, 200)],
)
def test_random_games_replay_in_the_scalar_engine(players: int, target: int, games: int) -> None:
    rules = Rules(players=players, target=target)
    seeds = np.random.default_rng(players * 1000 + target).integers(0, 2**32, games)
    batch = play_random(rules, seeds, rng=players + target)
    assert batch.terminated.all()
    assert (batch.side_scores().max(axis=1) >= target).all()
    _replays(batch)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_policy_games_replay_and_masks_match_the_scalar_engine(players: int) -> None:
    # A policy (the lowest legal action) through observe/step; at every step the mask is the scalar engine's
    # legal moves, and the observed hand is the seat's own.
    rules = Rules(players=players)
    batch = Batch(rules, seeds=range(100, 140))
    games = [Game(rules, seed=100 + g) for g in range(40)]
    picks: list[list[int]] = [[] for _ in games]
    while not batch.terminated.all():
        obs = batch.observe()
        mask = obs["legal_action_mask"]
        assert mask.shape == (40, NUM_ACTIONS)
        for g, game in enumerate(games):
            if game.is_over():
                assert batch.terminated[g] and not mask[g].any()
                continue
            seat = game.to_act
            assert obs["seat"][g] == seat
            held = {int(c) for c in game.state._hands[seat]} - set(picks[g])
            assert set(np.flatnonzero(obs["hand"][g]).tolist()) == held
            legal = game.legal_moves()
            if type(legal[0]).__name__ == "Discard":
                want = {int(c) for m in legal for c in m.cards} - {int(c) for c in picks[g]}
            elif type(legal[0]).__name__ == "Go":
                want = {GO}
            else:
                want = {int(m.card) for m in legal}
            assert set(np.flatnonzero(mask[g]).tolist()) == want, (g, [str(m) for m in legal])
        actions = np.argmax(mask, axis=1)
        for g, game in enumerate(games):
            if game.is_over():
                continue
            a = int(actions[g])
            if game.state.phase_name == "discard":
                picks[g].append(a)
                if len(picks[g]) == scalar._DISCARDS[players]:
                    game.play("discard " + " ".join(str(Card(c)) for c in picks[g]))
                    picks[g] = []
            else:
                game.play("go" if a == GO else str(Card(a)))
        batch.step(actions)
    for g, game in enumerate(games):
        assert game.is_over() and list(game.state.scores) == batch.scores[g].tolist()
    _replays(batch)


def test_illegal_actions_raise_and_change_nothing() -> None:
    batch = Batch(Rules(), seeds=[5, 6])
    before = batch.hands.copy(), batch.scores.copy(), len(batch._history)
    mask = batch.legal_action_mask()
    bad = np.flatnonzero(~mask[0])[0]
    with pytest.raises(IllegalMoveError, match="game 0"):
        batch.step([bad, np.flatnonzero(mask[1])[0]])
    assert (batch.hands == before[0]).all() and (batch.scores == before[1]).all()
    assert len(batch._history) == before[2]
    with pytest.raises(ValueError, match="one per game"):
        batch.step([0])


def test_muggins_and_lowball_stay_scalar() -> None:
    with pytest.raises(InvalidRulesError):
        Batch(Rules(muggins=True), seeds=[1])
    with pytest.raises(InvalidRulesError):
        Batch(Rules(lowball=True), seeds=[1])
    with pytest.raises(ValueError, match="seed"):
        Batch(Rules(), seeds=[2**32])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_after_some_steps_replays(players: int) -> None:
    # run() without a policy on a batch already stepped (mid-discard, mid-play) finishes it with random legal
    # actions through step(); the records still replay in the scalar engine
    batch = Batch(Rules(players=players), seeds=range(300, 330))
    for k in range(7):
        batch.step(np.argmax(batch.legal_action_mask(), axis=1))
        if k == 0:
            assert (batch.phase == 0).all()  # the first pick of the discard made, the others to come
    batch.run(rng=3)
    assert batch.terminated.all()
    _replays(batch)
