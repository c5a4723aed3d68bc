"""The one bot interface shared by both games.

A bot is given only what its seat may know -- the engine's ``view(state, seat)`` -- together with the list of
legal moves and a seeded ``random.Random``; it returns one of the legal moves.  It never receives the engine
state, so it cannot read another hand or the stock order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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


class TableReader:
    """One game's bot of a level that watches the table (:class:`Observer`), kept told of that game's public events.

    A driver that holds a game's whole public record -- the web table's session, the terminal game -- passes all of
    it before each decision; the reader tells the bot the events it has not seen yet, and if the record is not an
    extension of what it told before (a move taken back, another game), it makes a new bot and tells it the record
    from the start.  The bot learns the same from the events told one step at a time, as the arena does, and all at
    once after a restart, so its decisions depend only on the game's public record, its view and its rng.

    Args:
        make: makes a fresh bot (``registry.make_bot(game, level, rules)``).
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self.bot: Any = make()
        self._told: list[Any] = []

    def choose(self, events: Sequence[Any], view: Any, legal_moves: Sequence[Any], rng: random.Random) -> Any:
        """The bot's move after it is told the events of ``events`` it was not told before.

        Args:
            events: every public event of the game so far (``kortbord.contract.Event``), in order.
            view, legal_moves, rng: as :meth:`Bot.choose`.
        Returns:
            One element of ``legal_moves``.
        Raises:
            whatever the bot's ``observe`` or ``choose`` raises (after a failed ``observe`` the next call starts a
            new bot).
        """
        n = len(self._told)
        if len(events) < n or list(events[:n]) != self._told:
            self.bot, self._told, n = self._make(), [], 0
        if len(events) > n:
            fresh = list(events[n:])
            try:
                self.bot.observe(fresh)
            except Exception:  # a bot told part of a record is not the record's: start again next time
                self.bot, self._told = self._make(), []
                raise
            self._told.extend(fresh)
        return self.bot.choose(view, legal_moves, rng)
