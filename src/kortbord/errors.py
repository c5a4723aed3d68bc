"""The exceptions every kortbord interface raises and maps to its own message.

Modelled on python-chess: each is a ``ValueError`` so callers that only care that input was bad can catch
``ValueError``; clients (CLI, server, adapters) distinguish the subclasses to explain *why*.

On any of these errors the engine has changed nothing: engine states are immutable values, so a failed
``apply`` leaves the caller's state exactly as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kortbord.contract import Reason


class KortbordError(ValueError):
    """Base class of every error kortbord raises on bad input."""


class InvalidCardError(KortbordError):
    """A card could not be parsed (``"1X"``, ``"11H"``, an empty string …) or is not a card."""


class InvalidMoveError(KortbordError):
    """Move notation is malformed: it cannot be parsed as a move of this game at all."""


class IllegalMoveError(KortbordError):
    """A well-formed move that is not legal in this position; the message says which rule forbids it.

    Engines raise it with a :class:`kortbord.contract.Reason` (a code plus data); ``str(error)`` is then the
    reason's English default message (:mod:`kortbord.i18n`) and ``error.reason`` the code for clients to word in
    the player's language.  Raised with a plain string (client-side checks), ``reason`` is ``None``.
    """

    reason: Reason | None

    def __init__(self, reason: Reason | str) -> None:
        if isinstance(reason, str):
            self.reason = None
            super().__init__(reason)
        else:
            self.reason = reason
            super().__init__(str(reason))


class AmbiguousMoveError(KortbordError):
    """Notation that matches more than one legal move; the message lists the candidates."""


class InvalidPositionError(KortbordError):
    """A position or game record is malformed or inconsistent (wrong card counts, unknown seat, …)."""


class InvalidRulesError(KortbordError):
    """An unknown rule option, a value outside its domain, or an unsupported combination (e.g. jokers)."""


class SeatError(KortbordError):
    """A request made for a seat that does not exist or is not the requester's (e.g. another player's view)."""


class NotYourTurnError(IllegalMoveError):
    """A move sent by a seat that is not the one to act."""
