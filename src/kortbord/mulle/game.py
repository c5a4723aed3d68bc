"""``Game``: a thin mutable wrapper around the pure engine -- seed, history, undo, records and replay.

A record (``docs/engine-api.md``, "Game records") is ``{"game": "mulle", "rules_version", "rules", "players",
"teams", "dealer", "seats", "seed", "moves"}``; chance steps are not listed: one ``random.Random(seed)`` draws
every shuffle (``chance_outcome``) in order, so replaying a record gives the identical game and
``Game.from_record(d).to_record() == d``.  (``teams`` and ``dealer`` are Mulle's additions to the shared record.)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kortbord.errors import InvalidPositionError, InvalidRulesError, KortbordError
from kortbord.mulle import engine
from kortbord.mulle.engine import Event, Result
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.rules import RULES_VERSION, Rules
from kortbord.mulle.state import State
from kortbord.mulle.view import View, view

__all__ = ["MAX_NAME", "Game"]

#: Longest seat name, in characters (the web table allows 40).
MAX_NAME = 100


class Game:
    """One game of Mulle with its history.

    Args:
        rules: options (default ``standard``).  players: 2-4.  teams: 4 players as P1+P3 vs P2+P4.
        seed: the seed of the one generator that draws every shuffle (None: a fresh random seed).
        dealer: the first dealer's seat, or None to draw it from the seed.
        seats: display names of the seats (default ``P0``.. by seat index, as every game names seats: ``GameSpec.seat_name``).
    Raises:
        InvalidRulesError: bad options or player count.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        players: int = 2,
        teams: bool = False,
        seed: int | None = None,
        dealer: int | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        if type(players) is not int or players not in (2, 3, 4):
            raise InvalidRulesError(f"Mulle is played by 2, 3 or 4 players (a whole number), not {players!r}")
        self.players = players
        self.teams = teams
        self.seed = secrets.randbelow(2**31) if seed is None else int(seed)
        self.first_dealer = dealer
        if seats is not None and (
            isinstance(seats, str) or not isinstance(seats, Sequence) or not all(isinstance(s, str) for s in seats)
        ):
            raise InvalidPositionError(f"seats must be a list of {players} names (strings), got {str(seats)[:60]}")
        self.seats = list(seats) if seats is not None else [f"P{i}" for i in range(players)]
        if len(self.seats) != players:
            raise InvalidPositionError(f"seats must name {players} players, got {len(self.seats)} names")
        if any(len(s) > MAX_NAME for s in self.seats):
            raise InvalidPositionError(f"a seat name has at most {MAX_NAME} characters")
        self._rng = random.Random(self.seed)
        self.state: State = engine.new_game(self.rules, players=players, teams=teams, dealer=dealer)
        self.moves: list[PlayerMove] = []
        self.events: list[Event] = []
        self._undo: list[tuple[State, Any, int]] = []
        self._resolve_chance()

    def _resolve_chance(self) -> list[Event]:
        out: list[Event] = []
        while engine.is_chance(self.state):
            move = engine.chance_outcome(self.state, self._rng)
            self.state, events = engine.step(self.state, move)
            out.extend(events)
        self.events.extend(out)
        return out

    # -- play ---------------------------------------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat to play, or None when the game is over."""
        return engine.to_act(self.state)

    def legal_moves(self) -> list[PlayerMove]:
        """The legal moves of the seat to play."""
        return engine.legal_moves(self.state)

    def view(self, seat: int) -> View:
        """What ``seat`` may know.  Raises SeatError for a seat that does not exist."""
        return view(self.state, seat)

    def play(self, move: PlayerMove | str) -> tuple[Event, ...]:
        """Play ``move`` (a Move or its notation) for the seat to act; deals and new rounds follow automatically.

        Returns:
            The public events, in order (the move's, then any deal or round start it caused).
        Raises:
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError, NotYourTurnError; the game is unchanged.
        """
        if isinstance(move, str):
            move = engine.parse_move(self.state, move)
        before = self.state
        rng_state = self._rng.getstate()
        n_events = len(self.events)
        self.state, events = engine.step(self.state, move)
        self._undo.append((before, rng_state, n_events))
        self.moves.append(move)
        self.events.extend(events)
        return tuple(events) + tuple(self._resolve_chance())

    def undo(self) -> PlayerMove:
        """Take back the last move (and any shuffle it caused).  Raises IndexError when nothing was played."""
        if not self._undo:
            raise IndexError("no move to undo")
        self.state, rng_state, n_events = self._undo.pop()
        self._rng.setstate(rng_state)
        del self.events[n_events:]
        return self.moves.pop()

    def is_over(self) -> bool:
        """True when the game has ended."""
        return engine.is_over(self.state)

    def result(self) -> Result:
        """Winners, scores and per-round breakdowns."""
        return engine.result(self.state)

    # -- records ------------------------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game record (see the module docstring)."""
        return {
            "game": "mulle",
            "rules_version": RULES_VERSION,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "teams": self.teams,
            "dealer": self.first_dealer,
            "seats": list(self.seats),
            "seed": self.seed,
            "moves": [str(m) for m in self.moves],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Game:
        """Replay a record.  Raises InvalidPositionError (with the move number) for a bad or illegal record."""
        last: Game | None = None
        for game, _, _ in cls.replay(record):
            last = game
        assert last is not None
        return last

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Iterator[tuple[Game, PlayerMove | None, tuple[Event, ...]]]:
        """Replay a record step by step: first ``(game, None, opening events)``, then ``(game, move, events)``
        after every move (the same Game object, advanced).

        Raises:
            InvalidPositionError: not a Mulle record, another rules version, or move N is malformed/illegal.
        """
        seed, moves = check_header(record)
        try:
            game = cls(
                Rules.from_dict(record.get("rules")),
                players=record.get("players", 2),
                teams=record.get("teams", False),
                seed=seed,
                dealer=record.get("dealer"),
                seats=record.get("seats"),
            )
        except KortbordError as exc:
            raise InvalidPositionError(f"bad record header: {exc}") from None
        yield game, None, tuple(game.events)
        for i, text in enumerate(moves, 1):
            try:
                if not isinstance(text, str):
                    raise InvalidPositionError(f"moves must be notation strings, got {text!r}")
                move = engine.parse_move(game.state, text)
                events = game.play(move)
            except KortbordError as exc:
                raise InvalidPositionError(f"record move {i} ({text!r}): {exc}") from None
            yield game, move, events


def check_header(record: Any) -> tuple[int, list[Any]]:
    """The seed and the moves of a Mulle game record, once its header is checked (engine API "Game records").

    Raises:
        InvalidPositionError: not a Mulle record, another rules version, or no integer seed and list of moves.
    """
    if not isinstance(record, Mapping) or record.get("game") != "mulle":
        raise InvalidPositionError('not a Mulle game record (expected "game": "mulle")')
    if record.get("rules_version") != RULES_VERSION:
        raise InvalidPositionError(
            f"the record was made with rules version {record.get('rules_version')!r}; this is {RULES_VERSION}"
        )
    seed = record.get("seed")
    moves = record.get("moves")
    if type(seed) is not int or not isinstance(moves, list):
        raise InvalidPositionError("a record needs an integer seed and a list of moves")
    return seed, moves
