"""Cribbage computer players for people: the levels ``beginner`` and ``casual`` (:class:`PeopleBot`).

They judge discards and plays as the ``greedy`` level does (:class:`kortbord.bots.cribbage_simple.GreedyBot`: the
"expected average" discard of the rules spec ``spec/rules/cribbage.md`` §5, pegging for the points now minus what
a card offers the next player) and make human-like mistakes at stated rates (:mod:`kortbord.bots.mistakes`), each
drawn from the ``random.Random`` passed to ``choose``:

* **laying away badly** (``slip_rate``, the discard): it lays away one of the discards of its second or third
  best value;
* **missing a pegging point** (``overlook_rate``, the play): when its best card scores at once (a fifteen, 31, a
  pair, a run: spec §2.4 step 3), it does not see the points and plays its best card among those that score
  nothing (if it holds one); not in Lowball, where points are to be avoided;
* **a worse card among the plausible ones** (``slip_rate``, the play): otherwise one of the cards of its second or
  third best value;
* **Muggins** (spec §2.10, §2a): its own count overlooks one real scoring group (a fifteen, a pair, a run, a
  flush, nobs) with probability ``miss_rate``, announcing the true count minus that group's points, so that
  calling muggins on the computer is part of the game; another player's wrong count is noticed with probability
  ``catch_rate`` (then it calls muggins with exactly the missed points, or overcount), otherwise it accepts.

The levels' rates (the registry's definition, :data:`kortbord.bots.registry.BOTS`):

======== ============ ============== ========= ==========
level    slip_rate    overlook_rate  miss_rate catch_rate
======== ============ ============== ========= ==========
beginner 0.30         0.25           0.30      0.40
casual   0.12         0.10           0.15      0.70
======== ============ ============== ========= ==========
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kortbord.bots import mistakes
from kortbord.bots.cribbage_simple import GreedyBot, _check_view
from kortbord.cribbage.moves import Move, Play
from kortbord.cribbage.scoring import score_play
from kortbord.cribbage.view import View

__all__ = ["PeopleBot", "make_bot", "scores_at_once"]


def scores_at_once(view: View, move: Move) -> bool:
    """Whether ``move`` is a card that scores as it is laid in the play (spec §2.4 step 3: 15, 31, pairs, runs;
    the go and last-card point, awarded later, do not count)."""
    return isinstance(move, Play) and score_play((*view.sequence, move.card)).points > 0


class PeopleBot:
    """A greedy Cribbage player that lays away badly, misses pegging points, slips and miscounts at stated rates.

    Args:
        name: the level's name (``"beginner"``, ``"casual"``), shown to people.
        slip_rate: chance 0..1 of a discard or a card of its 2nd or 3rd best value.
        overlook_rate: chance 0..1 of missing the points of its best card in the play.
        miss_rate: Muggins: chance 0..1 that its own count overlooks one scoring group.
        catch_rate: Muggins: chance 0..1 that it notices another player's wrong count.
    Raises:
        ValueError: a rate outside 0..1.
    """

    def __init__(
        self, *, name: str, slip_rate: float, overlook_rate: float, miss_rate: float, catch_rate: float
    ) -> None:
        self.name = name
        self.slip_rate = mistakes.check_rate("slip_rate", slip_rate)
        self.overlook_rate = mistakes.check_rate("overlook_rate", overlook_rate)
        self.greedy = GreedyBot(
            miss_rate=mistakes.check_rate("miss_rate", miss_rate),
            catch_rate=mistakes.check_rate("catch_rate", catch_rate),
        )
        #: The mistake of the last discard or play decision: None, ``"overlook"`` or ``"slip"``.
        self.last_mistake: str | None = None

    @property
    def miss_rate(self) -> float:
        """Muggins: the chance that its own count overlooks one scoring group."""
        return self.greedy.miss_rate

    @property
    def catch_rate(self) -> float:
        """Muggins: the chance that it notices another player's wrong count."""
        return self.greedy.catch_rate

    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``legal_moves`` (see the module docstring).

        Raises:
            TypeError: ``view`` is not a Cribbage View.  ValueError: ``legal_moves`` is empty.
        """
        view = _check_view(view, legal_moves)
        self.last_mistake = None
        if view.phase == "show":
            return self.greedy.choose(view, legal_moves, rng)
        if len(legal_moves) == 1:
            return legal_moves[0]
        sign = -1.0 if view.rules.lowball else 1.0
        if view.phase == "discard":
            values = [sign * self.greedy.discard_value(view, m) for m in legal_moves]
            move, self.last_mistake = mistakes.choose(
                legal_moves, values, rng, slip_rate=self.slip_rate, overlook_rate=0.0
            )
            return move
        values = [sign * self.greedy.play_value(view, m) for m in legal_moves]

        def silent(top: Sequence[int]) -> list[int]:
            return [i for i, m in enumerate(legal_moves) if not scores_at_once(view, m)]

        move, self.last_mistake = mistakes.choose(
            legal_moves,
            values,
            rng,
            slip_rate=self.slip_rate,
            overlook_rate=self.overlook_rate,
            overlookable=None if view.rules.lowball else (lambda m: scores_at_once(view, m)),
            remaining=silent,
        )
        return move


def make_bot(level: str, *, slip_rate: float, overlook_rate: float, miss_rate: float, catch_rate: float) -> PeopleBot:
    """A Cribbage player for people at ``level`` with the given rates (the registry passes the level's own).

    Raises:
        ValueError: a rate outside 0..1.
    """
    return PeopleBot(
        name=level, slip_rate=slip_rate, overlook_rate=overlook_rate, miss_rate=miss_rate, catch_rate=catch_rate
    )
