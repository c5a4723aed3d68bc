"""PettingZoo AEC environments for Mulle and Cribbage (optional extra ``kortbord[pettingzoo]``).

::

    from kortbord.pettingzoo import cribbage_env
    env = cribbage_env(target=61, muggins=True)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

* Agents ``player_0`` ... ``player_{n-1}`` are the engine's seats.  Chance is resolved inside the environment
  with the engine's own ``chance_outcome(state, random.Random(seed))``, so a seed gives exactly the game a
  kortbord game record with that seed gives (the replay check in ``tests/research``).
* Observation: ``{"observation": float32 tensor, "action_mask": int8 vector}`` for the agent, the tensor as in
  :mod:`kortbord.research.encoding` (the OpenSpiel observation tensor), built only from ``view(state, seat)``.
* Actions: the OpenSpiel action ids (Cribbage: the fixed 1492-id encoding; Mulle: the index into the canonical
  legal-move list, ``max_actions`` ids).
* Rewards: zero until the end, then each agent's utility (``"win_loss"`` or ``"score_diff"``, as OpenSpiel), so an
  agent's cumulative reward is its final utility.  A Mulle game still running after ``max_rounds`` rounds is
  truncated (every agent ``truncation=True``, reward 0).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from kortbord import cribbage, mulle
from kortbord.research import encoding as enc
from kortbord.research.params import CRIBBAGE_PARAMETERS, MULLE_PARAMETERS, cribbage_spec, mulle_spec, observation_text
from kortbord.research.table import Spec, Table

__all__ = ["KortbordEnv", "cribbage_env", "mulle_env"]


class KortbordEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment over one kortbord game spec (use :func:`mulle_env` / :func:`cribbage_env`)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "kortbord_v0", "is_parallelizable": False}

    def __init__(self, spec: Spec, *, utility: str = "win_loss", render_mode: str | None = None) -> None:
        super().__init__()
        if utility not in ("win_loss", "score_diff"):
            raise ValueError(f"utility must be 'win_loss' or 'score_diff', got {utility!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.spec = spec
        self.utility = utility
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(spec.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = enc.mulle_obs_layout().size if spec.game == "mulle" else enc.cribbage_obs_layout().size
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 2.0, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (spec.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self.table = Table(spec)
        self._rng = random.Random()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- AEC API ----------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every deal (None: a fresh random seed)."""
        self._rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(2**63))
        self.table = Table(self.spec)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Resolve chance nodes; set the next agent, or end the game with the utilities as rewards."""
        engine: Any = mulle if self.spec.game == "mulle" else cribbage
        t = self.table
        while t.is_chance() and not t.is_over():
            t = t.apply_move(engine.chance_outcome(t.state, self._rng))
        self.table = t
        if t.is_over():
            values = t.utilities(self.utility)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = values[i]
                if t.truncated():
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[0] if not self.agents else self.agents[0]
        else:
            seat = t.to_act()
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {"legal_actions": t.legal_actions() if a == self.agent_selection else []}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an action id of the agent to act; None once its game is over).

        Raises:
            IllegalMoveError: the action is not legal (the game is unchanged).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None:
            raise ValueError(f"{agent} must choose an action")
        self.table = self.table.apply_action(int(action))
        self._advance()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation tensor and action mask (all zeros when it is not to act)."""
        seat = self.agent_name_mapping[agent]
        view = self.table.view(seat)
        if self.spec.game == "mulle":
            obs = enc.mulle_obs_tensor(view, self.spec.rules.hand_size)  # type: ignore[attr-defined]
        else:
            obs = enc.cribbage_obs_tensor(view)
        mask = np.zeros(self.spec.num_actions, np.int8)
        if self.table.to_act() == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the public state and the agent to act's view as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        seat = self.agent_name_mapping[self.agent_selection]
        return observation_text(self.table, seat)

    def close(self) -> None:
        pass


def mulle_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """A Mulle AEC environment; ``params`` are the ``kortbord_mulle`` OpenSpiel game parameters
    (:data:`kortbord.research.params.MULLE_PARAMETERS`), e.g. ``players=4, teams=True, game_length="single_round"``."""
    p = {**MULLE_PARAMETERS, **params}
    return KortbordEnv(mulle_spec(p), utility=p["utility"], render_mode=render_mode)


def cribbage_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """A Cribbage AEC environment; ``params`` as the ``kortbord_cribbage`` OpenSpiel game parameters
    (:data:`kortbord.research.params.CRIBBAGE_PARAMETERS`), e.g. ``players=3, target=61, muggins=True``."""
    p = {**CRIBBAGE_PARAMETERS, **params}
    return KortbordEnv(cribbage_spec(p), utility=p["utility"], render_mode=render_mode)
