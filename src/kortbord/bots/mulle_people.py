"""Mulle computer players for people: the levels ``beginner`` and ``casual`` (:class:`PeopleBot`).

They judge the moves as the ``greedy`` level does (:class:`kortbord.bots.mulle_simple.GreedyBot`: points now,
what the move leaves the next player, lillan, storan and aces kept, builds valued by the chance of taking them in;
rules spec ``spec/rules/mulle.md`` §7) and make human-like mistakes at stated rates (:mod:`kortbord.bots.mistakes`),
drawn from the ``random.Random`` passed to ``choose``:

* **missing a capture or a build** (``overlook_rate``): when the best move is a capture or a build move (build,
  raise, build down, package, lay on), the player does not see it and plays its next best move;
* **a worse move among the plausible ones** (``slip_rate``): otherwise it plays, uniformly, one of the moves of
  its second or third best value.

The levels' rates (the registry's definition, :data:`kortbord.bots.registry.BOTS`):

======== ========== ==============
level    slip_rate  overlook_rate
======== ========== ==============
beginner 0.30       0.25
casual   0.12       0.10
======== ========== ==============

Mulle has no Muggins (counting is done by the engine), so these levels have no miscounts.  In Kryp-mulle the
values are negated as greedy's are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kortbord.bots import mistakes
from kortbord.bots.mulle_simple import GreedyBot, _check_view
from kortbord.mulle.moves import PlayerMove, Trail
from kortbord.mulle.rules import Rules
from kortbord.mulle.view import View

__all__ = ["PeopleBot", "make_bot"]


class PeopleBot:
    """A greedy Mulle player that overlooks captures and builds and slips at stated rates.

    Args:
        rules: the game's rules (default the ``standard`` profile).
        name: the level's name (``"beginner"``, ``"casual"``), shown to people.
        slip_rate: chance 0..1 of a worse move among the plausible ones (its 2nd or 3rd best value).
        overlook_rate: chance 0..1 of missing the capture or build it would have played.
    Raises:
        ValueError: a rate outside 0..1.
    """

    def __init__(self, rules: Rules | None = None, *, name: str, slip_rate: float, overlook_rate: float) -> None:
        self.name = name
        self.slip_rate = mistakes.check_rate("slip_rate", slip_rate)
        self.overlook_rate = mistakes.check_rate("overlook_rate", overlook_rate)
        self.greedy = GreedyBot(rules)
        #: The mistake of the last decision: None, ``"overlook"`` or ``"slip"``.
        self.last_mistake: str | None = None

    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """One of ``legal_moves`` (see the module docstring).

        Raises:
            TypeError: ``view`` is not a Mulle View.  ValueError: ``legal_moves`` is empty or holds a move not legal in ``view``.
        """
        view = _check_view(view, legal_moves, rng)
        values = [self.greedy.evaluate(view, m) for m in legal_moves]
        move, self.last_mistake = mistakes.choose(
            legal_moves,
            values,
            rng,
            slip_rate=self.slip_rate,
            overlook_rate=self.overlook_rate,
            overlookable=lambda m: not isinstance(m, Trail),
        )
        return move


def make_bot(level: str, rules: Rules | None = None, *, slip_rate: float, overlook_rate: float) -> PeopleBot:
    """A Mulle player for people at ``level`` with the given rates (the registry passes the level's own).

    Raises:
        ValueError: a rate outside 0..1.
    """
    return PeopleBot(rules, name=level, slip_rate=slip_rate, overlook_rate=overlook_rate)
