"""The one bot interface shared by both games.

A bot is given only what its seat may know -- the engine's ``view(state, seat)`` -- together with the list of
legal moves and a seeded ``random.Random``; it returns one of the legal moves.  It never receives the engine
state, so it cannot read another hand or the stock order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

M = TypeVar("M")


class Bot(Protocol[M]):
    """A computer player for one game.

    Attributes:
        name: short level name shown to people (``"random"``, ``"greedy"``, ...).
    """

    name: str

    def choose(self, view: Any, legal_moves: Sequence[M], rng: random.Random) -> M:
        """Pick one of ``legal_moves`` (non-empty) for the seat whose ``view`` is given.

        Args:
            view: the engine's view for the bot's seat (never the full state).
            legal_moves: the legal moves of that seat, as the engine lists them.
            rng: the bot's own seeded generator; the same view, moves and rng state give the same choice.
        Returns:
            One element of ``legal_moves``.
        """
        ...


@runtime_checkable
class Observer(Protocol):
    """A bot that also watches the table: the arena calls ``observe`` after every step of the game, chance steps
    included, with the public events the step caused (``kortbord.contract.Event``, as ``spec.step`` returns them;
    never a card the rules keep hidden).  A bot that learns from the play (the cards laid after its last decision of
    a deal, the show) implements it; drivers that do not call it leave such a bot to what its views show.
    """

    def observe(self, events: Sequence[Any]) -> None:
        """Take note of one step's public events, in order (``Event.kind``, ``Event.data``)."""
        ...
