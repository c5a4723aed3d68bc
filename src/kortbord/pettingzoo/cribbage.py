"""PettingZoo environment ``kortbord_cribbage_v0``: Cribbage as an AEC environment (``docs/research.md``).

::

    from kortbord.pettingzoo import cribbage
    env = cribbage.env()          # wrapped (PettingZoo's OrderEnforcingWrapper, AssertOutOfBoundsWrapper)
    env = cribbage.raw_env()      # the bare :class:`kortbord.pettingzoo.KortbordEnv`

Keyword arguments are the ``kortbord_cribbage`` OpenSpiel game parameters, plus ``render_mode`` (None or
``"ansi"``).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECEnv

from kortbord.pettingzoo import KortbordEnv, make_env

__all__ = ["env", "raw_env"]


def raw_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """The unwrapped Cribbage environment (``metadata["name"] == "kortbord_cribbage_v0"``).

    Raises:
        ValueError: an unknown parameter or a value of the wrong type.  InvalidRulesError: bad rules.
    """
    return make_env("cribbage", render_mode, **params)


def env(render_mode: str | None = None, **params: Any) -> AECEnv:
    """:func:`raw_env` in PettingZoo's usual wrappers: an action outside the action space is an assertion
    error, and calling ``step`` before ``reset`` or after the end is refused."""
    out: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw_env(render_mode, **params))
    return wrappers.OrderEnforcingWrapper(out)
