"""The Gymnasium single-agent environment (Gymnasium's env checker, seeds, masks, the bots' seats) and pickling
both the Gymnasium and the PettingZoo environments into ``multiprocessing`` workers (issue #15 item 3)."""

from __future__ import annotations

import multiprocessing
import pickle
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from kortbord.gymnasium import KortbordSingleAgentEnv  # noqa: E402
from kortbord.pettingzoo import cribbage as pz_cribbage  # noqa: E402
from kortbord.pettingzoo import cribbage_env, mulle_env  # noqa: E402
from kortbord.pettingzoo import mulle as pz_mulle  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("cribbage", "random", {"target": 61}),
    ("cribbage", "greedy", {"players": 3, "target": 61, "muggins": True}),
    ("cribbage", "greedy", {"players": 4, "target": 61}),
    ("mulle", "greedy", {"game_length": "single_round"}),
    ("mulle", "random", {"game_length": "single_round", "players": 4, "teams": True}),
]


def _episode(env: Any, seed: int) -> tuple[list[int], float, int]:
    """A masked random episode: (the actions, the final reward, the agent's seat)."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while True:
        assert obs["action_mask"].sum() == len(info["legal_actions"]) > 0
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return actions, float(reward), int(info["seat"])
        assert reward == 0.0


@pytest.mark.parametrize(("game", "opponent", "params"), CASES)
def test_gymnasium_env_checker_passes(game: str, opponent: str, params: dict[str, Any]) -> None:
    env = gymnasium.make(f"kortbord/{game.capitalize()}-v0", opponent=opponent, seat=None, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings too
        check_env(env.unwrapped)


@pytest.mark.parametrize(("game", "opponent", "params"), CASES)
def test_a_seed_gives_the_same_episode_and_the_reward_is_the_utility(
    game: str, opponent: str, params: dict[str, Any]
) -> None:
    env = KortbordSingleAgentEnv(game, opponent=opponent, seat=None, **params)
    first = _episode(env, 11)
    assert _episode(env, 11) == first
    assert _episode(KortbordSingleAgentEnv(game, opponent=opponent, seat=None, **params), 11) == first
    _, reward, seat = first
    assert env.table.is_over() and reward == env.table.utilities("win_loss")[seat]


def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    env = KortbordSingleAgentEnv("cribbage", opponent="random", target=61, illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    before = env.table
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert env.table is before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)


def test_the_observation_is_the_agents_view_only() -> None:
    env = KortbordSingleAgentEnv("cribbage", opponent="random", seat=1, target=61)
    obs, info = env.reset(seed=4)
    assert info["seat"] == 1 and env.table.to_act() == 1
    hand = sorted(int(c) for c in env.table.view(1).hand)
    assert np.flatnonzero(obs["observation"][:52]).tolist() == hand
    other = [int(c) for c in env.table.view(0).hand]
    assert obs["observation"][:52][other].sum() == 0


def test_pettingzoo_modules_have_distinct_names_and_env_functions() -> None:
    assert pz_mulle.raw_env().metadata["name"] == "kortbord_mulle_v0"
    assert pz_cribbage.raw_env().metadata["name"] == "kortbord_cribbage_v0"
    assert mulle_env().metadata["name"] == "kortbord_mulle_v0"
    assert cribbage_env().metadata["name"] == "kortbord_cribbage_v0"
    env = pz_cribbage.env(target=61)
    env.reset(seed=0)
    assert env.unwrapped.metadata["name"] == "kortbord_cribbage_v0"
    from pettingzoo.test import api_test

    api_test(pz_mulle.env(game_length="single_round"), num_cycles=50)


def _pz_playout(env: Any, seed: int) -> tuple[dict[str, float], int]:
    """A seeded random AEC game of a (pickled) PettingZoo env: (cumulative rewards, steps)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return total, steps


def _job(kind: str, blob: bytes, seed: int) -> Any:
    """The worker: unpickle an environment and play it out (module level, so a spawned process imports it)."""
    env = pickle.loads(blob)
    return _episode(env, seed) if kind == "gym" else _pz_playout(env, seed)


def test_environments_pickle_and_play_in_a_multiprocessing_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    gym_env = KortbordSingleAgentEnv("mulle", opponent="greedy", game_length="single_round")
    gym_env.reset(seed=3)
    pz_env = pz_cribbage.raw_env(players=3, target=61)
    pz_env.reset(seed=3)
    jobs = [("gym", pickle.dumps(gym_env), 5), ("pz", pickle.dumps(pz_env), 6)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(_job, jobs)
    assert results == [_job(*job) for job in jobs]
