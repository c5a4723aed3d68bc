"""The game registry: one :class:`~kortbord.contract.GameSpec` per game, the one way every client drives a game.

``GAMES["mulle"]`` and ``GAMES["cribbage"]`` are exported by the engine packages (``kortbord.<game>.SPEC``).
Adding a third game takes one new package that exports ``SPEC`` and one line below (``docs/engine-api.md``,
"Adding a game").
"""

from __future__ import annotations

from typing import Final

from kortbord import cribbage, mulle
from kortbord.contract import Event, GameSpec, Option, Reason
from kortbord.errors import InvalidRulesError

__all__ = ["GAMES", "Event", "GameSpec", "Option", "Reason", "get"]

#: Every game, by name.
GAMES: Final[dict[str, GameSpec]] = {
    "mulle": mulle.SPEC,
    "cribbage": cribbage.SPEC,
}


def get(name: str) -> GameSpec:
    """The game called ``name``.

    Raises:
        InvalidRulesError: no such game (the message lists the games).
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise InvalidRulesError(f"no game {name!r}: the games are {', '.join(GAMES)}") from None
