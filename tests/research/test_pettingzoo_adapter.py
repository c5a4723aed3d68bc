"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test, masks, rewards, hidden cards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from kortbord.pettingzoo import cribbage_env, mulle_env  # noqa: E402
from kortbord.research import encoding as enc  # noqa: E402

ENVS: list[tuple[Any, dict[str, Any]]] = [
    (mulle_env, {"game_length": "single_round"}),
    (mulle_env, {"game_length": "single_round", "players": 4, "teams": True}),
    (mulle_env, {"game_length": "single_round", "players": 3, "profile": "cardgames.zone"}),
    (cribbage_env, {"target": 61, "muggins": True}),
    (cribbage_env, {"players": 3, "lowball": True}),
    (cribbage_env, {"players": 4, "target": 61}),
]


@pytest.mark.parametrize(("make", "params"), ENVS)
def test_pettingzoo_api_test(make: Any, params: dict[str, Any]) -> None:
    api_test(make(**params), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize(("make", "params"), ENVS)
def test_pettingzoo_seed_test(make: Any, params: dict[str, Any]) -> None:
    seed_test(lambda: make(**params), num_cycles=300)


@pytest.mark.parametrize(("make", "params"), ENVS)
def test_cumulative_rewards_are_the_final_utilities(make: Any, params: dict[str, Any]) -> None:
    env = make(**params)
    env.reset(seed=3)
    rng = random.Random(3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(env.table.legal_actions()) > 0
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    final = env.table.utilities("win_loss")
    assert [total[a] for a in env.possible_agents] == pytest.approx(final)
    assert sum(final) == pytest.approx(0.0)  # zero-sum
    assert max(final) > 0 or all(v == 0 for v in final)


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = cribbage_env(target=61)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.table
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.table is before


def test_observation_holds_no_other_hand() -> None:
    """At the discard every card of the other hand is hidden: no card plane of the observer's tensor marks one."""
    env = cribbage_env(target=61)
    env.reset(seed=9)
    agent = env.agent_selection
    seat = env.agent_name_mapping[agent]
    planes = enc.cribbage_obs_layout().views(env.observe(agent)["observation"])
    mine = env.table.view(seat).hand
    assert sorted(np.flatnonzero(planes["hand"]).tolist()) == sorted(int(c) for c in mine)
    other = [int(c) for c in env.table.view(1 - seat).hand]
    for name in ("hand", "discards", "starter", "crib", "played", "sequence", "counting_cards"):
        assert planes[name].reshape(-1, 52)[:, other].sum() == 0, name
