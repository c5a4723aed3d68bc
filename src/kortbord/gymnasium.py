"""A Gymnasium single-agent environment: one seat of Mulle or Cribbage against kortbord bots (optional extra
``kortbord[pettingzoo]``, which brings ``gymnasium``).

::

    from kortbord.gymnasium import KortbordSingleAgentEnv
    env = KortbordSingleAgentEnv("cribbage", opponent="greedy", target=61)
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(obs["action_mask"])   # a random legal action
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

or ``gymnasium.make("kortbord/Cribbage-v0", opponent="strong", iterations=50)`` (ids ``kortbord/Mulle-v0`` and
``kortbord/Cribbage-v0`` are registered when this module is imported).

* **The agent** plays seat ``seat`` (an int, or None: a seat drawn at each reset); every other seat (the
  opponents, and a partner in 4-player Cribbage) is a kortbord bot, ``kortbord.bots.registry.make_bot(game,
  opponent, rules, **opponent_options)``, seeing only its own view.  Chance and the bots draw from generators
  seeded from the environment's ``np_random``, so ``reset(seed=s)`` and the same actions give the same game.
* **Observation**: ``{"observation": float32 tensor, "action_mask": int8 vector}`` -- the observation tensor of
  :mod:`kortbord.research.encoding` (the OpenSpiel observation tensor; built from the agent's view only) and the
  legal action ids.  ``info`` repeats ``action_mask`` and gives ``legal_actions`` and ``seat``.
* **Actions**: ``Discrete(num_actions)``, the OpenSpiel action ids.  An action outside the mask ends the episode
  (``terminated``) with reward ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``; the game is
  not changed.  Mask your policy (``action_space.sample(mask)``) to never meet it.
* **Reward**: 0 until the end, then the agent's utility (``utility="win_loss"``: +1 / -1, 0 for a draw;
  ``"score_diff"``: its side's points minus the mean of all sides').  A Mulle game past ``max_rounds`` rounds is
  ``truncated``.

Every other keyword argument is an OpenSpiel game parameter of the game (``docs/research.md``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from kortbord.bots.registry import make_bot, observes
from kortbord.research.params import make_setup, observation_text
from kortbord.research.table import Table

__all__ = ["KortbordSingleAgentEnv"]

#: Bound of every observation tensor value (card planes count copies /2; scores are divided by the target).
OBS_BOUND = 8.0


class KortbordSingleAgentEnv(gymnasium.Env[Any, Any]):
    """One seat of a kortbord game against bots (see the module docstring).

    Args:
        game: ``"mulle"`` or ``"cribbage"``.
        opponent: the bots' level (``"random"``, ``"greedy"``, ``"strong"``).
        seat: the agent's seat, or None for a seat drawn at each reset.
        opponent_options: :func:`~kortbord.bots.registry.make_bot` options the level takes (``{"iterations": 50}``
            for ``strong``).
        illegal_reward: the reward of an action outside the mask (which ends the episode).
        render_mode: None or ``"ansi"`` (the agent's view as JSON text).
        **params: the game's OpenSpiel parameters (``utility`` among them).
    Raises:
        ValueError: an unknown level, parameter or seat, an opponent option the level does not take.
        InvalidRulesError: bad rules.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  (gymnasium convention)

    def __init__(
        self,
        game: str = "cribbage",
        *,
        opponent: str = "random",
        seat: int | None = 0,
        opponent_options: Mapping[str, Any] | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.setup = make_setup(game, params)
        self.utility = params.get("utility", "win_loss")
        if seat is not None and not 0 <= seat < self.setup.players:
            raise ValueError(f"seat must be 0..{self.setup.players - 1} or None, got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.bot = make_bot(game, opponent, self.setup.rules, **dict(opponent_options or {}))
        # a level that learns from the table (the Cribbage expert) gets a new bot for each seat in each episode, so
        # an episode depends only on its seed and actions (registry.observes); it is not told the table's events
        # here, so it learns only the deals its own views show whole (about half)
        self._make_bot = functools.partial(make_bot, game, opponent, self.setup.rules, **dict(opponent_options or {}))
        self._learns = observes(game, opponent)
        self._seat_bots: dict[int, Any] = {}
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        n = self.setup.num_actions
        size = self.setup.research.layout(False).size
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(n)
        self.table = Table(self.setup)
        self._chance = random.Random(0)
        self._bots = random.Random(0)
        self._over = False

    # -- gymnasium API ---------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, played by the bots up to the agent's first decision."""
        super().reset(seed=seed)
        draw = self.np_random.integers(0, 2**62, size=3)
        self._chance = random.Random(int(draw[0]))
        self._bots = random.Random(int(draw[1]))
        self.seat = int(draw[2] % self.setup.players) if self.fixed_seat is None else self.fixed_seat
        self.table = Table(self.setup)
        self._over = False
        self._seat_bots = {}
        self._advance()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots and chance up to the agent's next decision or the end.

        Raises:
            RuntimeError: the episode has ended (call ``reset``).
        """
        if self._over:
            raise RuntimeError("the episode has ended: call reset()")
        if int(action) not in self.table.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        self.table = self.table.apply_action(int(action))
        self._advance()
        reward = 0.0
        terminated = truncated = False
        if self.table.is_over():
            self._over = True
            reward = self.table.utilities(self.utility)[self.seat]
            truncated = self.table.truncated()
            terminated = not truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the agent's view as compact JSON."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return observation_text(self.table, self.seat)

    # -- helpers ---------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Chance and the bots until the agent is to act or the game ends."""
        game = self.setup.game
        t = self.table
        while not t.is_over():
            if t.is_chance():
                t = t.apply_move(game.chance_outcome(t.state, self._chance))
                continue
            seat = t.to_act()
            if seat == self.seat:
                break
            assert seat is not None
            view = game.view(t.state, seat)
            bot = self.bot
            if self._learns:
                if seat not in self._seat_bots:
                    self._seat_bots[seat] = self._make_bot()
                bot = self._seat_bots[seat]
            t = t.apply_move(bot.choose(view, game.legal_moves(t.state), self._bots))
        self.table = t

    def _obs(self) -> dict[str, np.ndarray]:
        obs = self.setup.research.tensor(self.table, self.seat, perfect_recall=False)
        mask = np.zeros(self.setup.num_actions, np.int8)
        if not self._over and self.table.to_act() == self.seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        legal = [] if self._over or self.table.to_act() != self.seat else self.table.legal_actions()
        mask = np.zeros(self.setup.num_actions, np.int8)
        mask[legal] = 1
        return {"action_mask": mask, "legal_actions": legal, "seat": self.seat}


for _game, _name in (("mulle", "Mulle"), ("cribbage", "Cribbage")):
    if f"kortbord/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(
            id=f"kortbord/{_name}-v0",
            entry_point="kortbord.gymnasium:KortbordSingleAgentEnv",
            kwargs={"game": _game},
        )
