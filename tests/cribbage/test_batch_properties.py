"""Invariants of the batched engine (kortbord.cribbage.batch), as Hypothesis properties (issue #13 item 2).

* Cards are accounted for: at every decision of every game, each card dealt this deal is in exactly one place --
  a seat's hand, the crib, or laid in the play -- and the starter (the stock's top card) is none of them
  (spec §2.2, §2.3).
* Scores add up: a seat's score never goes down; a game ends exactly when a side reaches the target and the
  other sides are below it (spec §2.4 item 8); the rewards name the side that reached it; and the scalar engine,
  replaying the game's record, ends with the same scores (spec §2.4-§2.6 counted by the scalar engine).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.cribbage import Game, Rules
from kortbord.cribbage.batch import _NONE, Batch, play_random

_seeds = st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=6)
_rules = st.builds(Rules, players=st.sampled_from([2, 3, 4]), target=st.sampled_from([61, 121]))


def _check_end(batch: Batch) -> None:
    """Every game over, the sides' scores against the target, the rewards, the scalar engine's replay."""
    assert batch.terminated.all()
    sides = batch.side_scores()
    target = batch.rules.target
    for g, record in enumerate(batch.records()):
        reached = np.flatnonzero(sides[g] >= target)
        assert reached.size == 1, sides[g]  # one side reached the target, the game stopped there
        winners = {s for s in range(batch.players) if (s % sides.shape[1]) == reached[0]}
        assert {s for s in range(batch.players) if batch.rewards[g, s] > 0} == winners
        assert {s for s in range(batch.players) if batch.rewards[g, s] < 0} == set(range(batch.players)) - winners
        game = Game.from_record(record)
        assert game.is_over() and list(game.state.scores) == batch.scores[g].tolist()
        assert set(game.result().winners) == winners


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=_rules, seeds=_seeds, policy_seed=st.integers(0, 2**16))
def test_cards_are_accounted_for_and_scores_add_up_at_every_step(
    rules: Rules, seeds: list[int], policy_seed: int
) -> None:
    batch = Batch(rules, seeds=seeds)
    rng = np.random.default_rng(policy_seed)
    dealt = rules.players * rules.cards_dealt + rules.crib_from_pack
    before = batch.scores.copy()
    while not batch.terminated.all():
        for g in np.flatnonzero(~batch.terminated):
            held = [int(c) for c in batch.hands[g].reshape(-1) if c != _NONE]
            crib = [int(c) for c in batch.crib[g, : batch.crib_n[g]]]
            laid = np.flatnonzero(batch.played[g]).tolist()
            cards = held + crib + laid
            assert len(cards) == dealt and len(set(cards)) == dealt, (g, held, crib, laid)
            assert int(batch._stock_top[g]) not in cards
        mask = batch.legal_action_mask()
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        batch.step(actions)
        assert (batch.scores >= before).all()
        before = batch.scores.copy()
    _check_end(batch)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=_rules, seeds=_seeds, rng=st.integers(0, 2**16))
def test_random_games_end_when_a_side_reaches_the_target(rules: Rules, seeds: list[int], rng: int) -> None:
    _check_end(play_random(rules, seeds, rng=rng))
