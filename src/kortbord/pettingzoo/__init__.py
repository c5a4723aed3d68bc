"""PettingZoo AEC environments for Mulle and Cribbage (optional extra ``kortbord[pettingzoo]``).

Two environments, each a module in PettingZoo's layout (``from pettingzoo.classic import chess_v6`` style):

==============================  ===========================  ================================================
module                          ``metadata["name"]``         functions
==============================  ===========================  ================================================
``kortbord.pettingzoo.mulle``   ``kortbord_mulle_v0``        ``env(**params)`` (wrapped: order enforcement,
                                                             assertion on out-of-bounds actions),
                                                             ``raw_env(**params)`` (this module's class)
``kortbord.pettingzoo.cribbage`` ``kortbord_cribbage_v0``    the same
==============================  ===========================  ================================================

``mulle_env(**params)`` and ``cribbage_env(**params)`` (here) are the raw environments, as before.  ``params``
are the OpenSpiel game parameters (``docs/research.md``)::

    from kortbord.pettingzoo import cribbage
    env = cribbage.env(target=61, muggins=True)
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
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from kortbord.research.params import make_setup, observation_text
from kortbord.research.table import Setup, Table

__all__ = ["KortbordEnv", "cribbage_env", "make_env", "mulle_env"]


class KortbordEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment over one kortbord game setup (use :func:`kortbord.pettingzoo.mulle.env`,
    :func:`kortbord.pettingzoo.cribbage.env`, or :func:`make_env`).  ``metadata["name"]`` is
    ``kortbord_<game>_v0``, set per instance."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "kortbord_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, setup: Setup, *, utility: str = "win_loss", render_mode: str | None = None) -> None:
        super().__init__()
        if utility not in ("win_loss", "score_diff"):
            raise ValueError(f"utility must be 'win_loss' or 'score_diff', got {utility!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.setup = setup
        self.metadata = {**type(self).metadata, "name": f"kortbord_{setup.name}_v0"}
        self.utility = utility
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(setup.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = setup.research.layout(False).size
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 2.0, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (setup.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(setup.num_actions) for a in self.possible_agents}
        self.table = Table(setup)
        self._rng = random.Random()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- AEC API ----------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every deal (None: a fresh random seed)."""
        self._rng = random.Random(seed if seed is not None else random.SystemRandom().randrange(2**63))
        self.table = Table(self.setup)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Resolve chance nodes; set the next agent, or end the game with the utilities as rewards."""
        game = self.setup.game
        t = self.table
        while t.is_chance() and not t.is_over():
            t = t.apply_move(game.chance_outcome(t.state, self._rng))
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
        obs = self.setup.research.tensor(self.table, seat, perfect_recall=False)
        mask = np.zeros(self.setup.num_actions, np.int8)
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


def make_env(name: str, render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """The raw AEC environment of game ``name`` (``"mulle"``, ``"cribbage"``); ``params`` are its OpenSpiel game
    parameters (:data:`kortbord.research.params.PARAMETERS`), ``utility`` among them.

    Raises:
        ValueError: an unknown parameter or a value of the wrong type.  InvalidRulesError: bad rules or game.
    """
    setup = make_setup(name, params)
    utility = params.get("utility", "win_loss")
    return KortbordEnv(setup, utility=utility, render_mode=render_mode)


def mulle_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """A raw Mulle AEC environment (``kortbord_mulle_v0``); ``params`` are the ``kortbord_mulle`` OpenSpiel game
    parameters (:data:`kortbord.research.params.MULLE_PARAMETERS`), e.g. ``players=4, teams=True,
    game_length="single_round"``."""
    return make_env("mulle", render_mode, **params)


def cribbage_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """A raw Cribbage AEC environment (``kortbord_cribbage_v0``); ``params`` as the ``kortbord_cribbage``
    OpenSpiel game parameters (:data:`kortbord.research.params.CRIBBAGE_PARAMETERS`), e.g. ``players=3,
    target=61, muggins=True``."""
    return make_env("cribbage", render_mode, **params)
