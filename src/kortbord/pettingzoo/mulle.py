"""PettingZoo environment ``kortbord_mulle_v0``: Mulle as an AEC environment (``docs/research.md``).

::

    from kortbord.pettingzoo import mulle
    env = mulle.env()          # wrapped (PettingZoo's OrderEnforcingWrapper, AssertOutOfBoundsWrapper)
    env = mulle.raw_env()      # the bare :class:`kortbord.pettingzoo.KortbordEnv`

Keyword arguments are the ``kortbord_mulle`` OpenSpiel game parameters, plus ``render_mode`` (None or
``"ansi"``).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECEnv

from kortbord.pettingzoo import KortbordEnv, make_env

__all__ = ["env", "raw_env"]


def raw_env(render_mode: str | None = None, **params: Any) -> KortbordEnv:
    """The unwrapped Mulle environment (``metadata["name"] == "kortbord_mulle_v0"``).

    Raises:
        ValueError: an unknown parameter or a value of the wrong type.  InvalidRulesError: bad rules.
    """
    return make_env("mulle", render_mode, **params)


def env(render_mode: str | None = None, **params: Any) -> AECEnv:
    """:func:`raw_env` in PettingZoo's usual wrappers: an action outside the action space is an assertion
    error, and calling ``step`` before ``reset`` or after the end is refused."""
    out: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw_env(render_mode, **params))
    return wrappers.OrderEnforcingWrapper(out)
