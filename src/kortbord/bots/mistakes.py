"""Human-like mistakes at stated rates, shared by the player-facing levels ``beginner`` and ``casual``.

The levels for people (:mod:`kortbord.bots.mulle_people`, :mod:`kortbord.bots.cribbage_people`) value every legal
move as the ``greedy`` level does and then, at most once a decision, make one of two mistakes, each drawn from the
``random.Random`` passed to ``choose`` (so a game is reproducible from its seed):

* an **overlook** (rate ``overlook_rate``): when the move the greedy values pick is of a kind a person can fail to
  see -- a capture or a build in Mulle, a card that scores at once in the Cribbage pegging -- the player does not
  see it and plays the best of the moves that remain (Mulle: every move but the best-valued one(s); Cribbage: the
  cards that score nothing);
* a **slip** (rate ``slip_rate``): otherwise, if some move is worse than the best, the player takes a plausible
  but worse move: one drawn uniformly among the moves of the next :data:`PLAUSIBLE` values below the best.

So when an overlook is possible a decision goes wrong with probability ``o + (1 - o) * s`` (``o`` the overlook
rate, ``s`` the slip rate); otherwise with probability ``s`` when a worse move exists; a decision with one legal
move, or whose moves are all worth the same, never goes wrong.  :func:`choose` returns which mistake it made, so
tests and benches can count them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

__all__ = ["PLAUSIBLE", "check_rate", "choose"]

M = TypeVar("M")

#: How many values below the best a slip draws from ("plays its second or third best move").
PLAUSIBLE: Final = 2
_EPS: Final = 1e-9


def check_rate(name: str, rate: float) -> float:
    """``rate`` as a float if it is a number from 0 to 1 (a probability).

    Raises:
        ValueError: a bool, a non-number, nan or a value outside 0..1 (the message names ``name``).
    """
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0.0 <= rate <= 1.0:
        raise ValueError(f"{name} must be a number between 0 and 1, got {rate!r}")
    return float(rate)


def _best(indices: Sequence[int], values: Sequence[float], rng: random.Random) -> int:
    top = max(values[i] for i in indices)
    ties = [i for i in indices if values[i] >= top - _EPS]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


def choose(
    moves: Sequence[M],
    values: Sequence[float],
    rng: random.Random,
    *,
    slip_rate: float,
    overlook_rate: float,
    overlookable: Callable[[M], bool] | None = None,
    remaining: Callable[[Sequence[int]], list[int]] | None = None,
) -> tuple[M, str | None]:
    """The move a player who makes mistakes at the given rates plays (see the module docstring).

    Args:
        moves: the legal moves (non-empty).
        values: the greedy value of each move, in points (higher is better), aligned with ``moves``.
        rng: the bot's generator; every draw (ties, mistakes) comes from it.
        slip_rate, overlook_rate: probabilities 0..1.
        overlookable: whether the best move is of a kind that can be overlooked (None: nothing can).
        remaining: given the indices of the best-valued moves, the indices of the moves the player still sees
            after overlooking it (default: every other move).
    Returns:
        ``(move, mistake)`` with ``mistake`` None, ``"overlook"`` or ``"slip"``.
    """
    n = len(moves)
    everything = list(range(n))
    if n == 1:
        return moves[0], None
    best_value = max(values)
    top = [i for i in everything if values[i] >= best_value - _EPS]
    pick = top[rng.randrange(len(top))] if len(top) > 1 else top[0]
    if overlookable is not None and overlookable(moves[pick]):
        seen = remaining(top) if remaining is not None else [i for i in everything if i not in top]
        if seen and rng.random() < overlook_rate:
            return moves[_best(seen, values, rng)], "overlook"
    worse = sorted({round(values[i], 9) for i in everything if values[i] < best_value - _EPS}, reverse=True)
    if worse and rng.random() < slip_rate:
        floor = worse[min(PLAUSIBLE, len(worse)) - 1]
        plausible = [i for i in everything if floor - _EPS <= values[i] < best_value - _EPS]
        return moves[plausible[rng.randrange(len(plausible))]], "slip"
    return moves[pick], None
