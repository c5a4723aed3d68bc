"""``Game``: a thin mutable wrapper round the pure engine -- seed, history, undo, game records and replay.

A game record (``docs/engine-api.md``) is ``{"game": "cribbage", "rules_version", "rules", "players", "seats",
"seed", "moves"}``: the decisions only, in notation.  Chance steps (the cut for deal, each deal's shuffle) are not
listed: they are drawn in order from one ``random.Random(seed)`` with ``engine.chance_outcome`` at every chance
node, so replaying a record gives the identical game and ``Game.from_record(d).to_record() == d``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from kortbord.cribbage import engine
from kortbord.cribbage.moves import Move
from kortbord.cribbage.rules import RULES_VERSION, Rules
from kortbord.cribbage.state import Event, Reason, Result, State
from kortbord.cribbage.view import View, view
from kortbord.errors import IllegalMoveError, InvalidPositionError, InvalidRulesError, KortbordError

__all__ = ["Game", "replay_record"]


class Game:
    """One game of Cribbage in progress, from the cut for deal to the end.

    Args:
        rules: the options (default ``Rules()``).
        seed: the seed of every chance step (default: a fresh random seed, kept in :attr:`seed`).
        seats: the players' names, one per seat (default ``P0``, ``P1``, ...).

    Attributes:
        rules, seed, seats: as given.  state: the current :class:`State`.  moves: the decisions made so far.
        events: every public event so far, chance steps included, in order.
    Raises:
        InvalidPositionError: a wrong number of seat names.
    """

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None, seats: Sequence[str] | None = None):
        self.rules = rules if rules is not None else Rules()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**53)
        n = self.rules.players
        if seats is not None and (
            isinstance(seats, str) or not isinstance(seats, Sequence) or not all(isinstance(s, str) for s in seats)
        ):
            raise InvalidPositionError(f"seats must be a list of {n} names (strings), got {str(seats)[:60]}")
        self.seats = list(seats) if seats is not None else [engine.seat_name(s) for s in range(n)]
        if len(self.seats) != n:
            raise InvalidPositionError(f"{n} players need {n} seat names, got {len(self.seats)}")
        self._rng = random.Random(self.seed)
        self.state: State = engine.new_game(self.rules)
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self._history: list[tuple[State, object, int]] = []
        self._run_chance()

    # -- queries ------------------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        return engine.to_act(self.state)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to act."""
        return engine.legal_moves(self.state)

    def view(self, seat: int) -> View:
        """What ``seat`` may know (raises ``SeatError`` for a seat that does not exist)."""
        return view(self.state, seat)

    def is_over(self) -> bool:
        """The game has ended."""
        return engine.is_over(self.state)

    def result(self) -> Result:
        """The result (raises ``IllegalMoveError`` while the game runs)."""
        return engine.result(self.state)

    # -- moves --------------------------------------------------------------------------------------------------
    def play(self, move: Move | str, *, seat: int | None = None) -> tuple[Event, ...]:
        """Apply a decision (a move or its notation) for the seat to act, then any chance steps that follow.

        Args:
            move: the move, or notation read with ``engine.parse_move`` in this position.
            seat: the sending seat, checked against the seat to act.
        Returns:
            The public events caused, chance steps (a new deal) included.
        Raises:
            InvalidMoveError, IllegalMoveError, NotYourTurnError: and the game is unchanged.
        """
        state = self.state
        parsed = engine.parse_move(state, move)
        new_state, events = engine.step(state, parsed, seat=seat)
        self._history.append((state, self._rng.getstate(), len(self.events)))
        self.state = new_state
        self.moves.append(parsed)
        self.events.extend(events)
        return events + self._run_chance()

    def undo(self) -> Move:
        """Take back the last decision (and the chance steps after it). Returns the move taken back.

        Raises:
            IllegalMoveError: no move to take back.
        """
        if not self._history:
            raise IllegalMoveError(Reason("nothing_to_undo"))
        state, rng_state, n_events = self._history.pop()
        self.state = state
        self._rng.setstate(rng_state)  # type: ignore[arg-type]
        del self.events[n_events:]
        return self.moves.pop()

    def _run_chance(self) -> tuple[Event, ...]:
        out: list[Event] = []
        while engine.is_chance(self.state):
            self.state, events = engine.step(self.state, engine.chance_outcome(self.state, self._rng))
            out.extend(events)
        self.events.extend(out)
        return tuple(out)

    # -- records ------------------------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game record (JSON-ready): rules, seed and the decisions in notation."""
        return {
            "game": "cribbage",
            "rules_version": RULES_VERSION,
            "rules": self.rules.to_dict(),
            "players": self.rules.players,
            "seats": list(self.seats),
            "seed": self.seed,
            "moves": [str(m) for m in self.moves],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Replay a game record move by move.

        Raises:
            InvalidPositionError: not a cribbage record, another rules version, a malformed field, or a move that
                is malformed or illegal where it stands (the message gives its number and the reason).
            InvalidRulesError: bad rules.
        """
        last = None
        for last in _replay(record):  # noqa: B007 - only the final step is wanted
            pass
        assert last is not None
        return last[0]


def _replay(record: dict[str, Any]) -> Iterator[tuple[Game, int | None, Move | None, tuple[Event, ...]]]:
    if not isinstance(record, dict) or record.get("game") != "cribbage":
        raise InvalidPositionError('not a cribbage game record (expected "game": "cribbage")')
    version = record.get("rules_version")
    if version != RULES_VERSION:
        raise InvalidPositionError(f"record made with rules version {version!r}; this is {RULES_VERSION!r}")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except InvalidRulesError as error:
        raise InvalidRulesError(f"record rules: {error}") from None
    players = record.get("players", rules.players)
    if type(players) is not int:
        raise InvalidPositionError(f'a record\'s "players" is a whole number (2, 3 or 4), got {players!r}')
    if players != rules.players:
        raise InvalidPositionError(f"record says {players} players but its rules say {rules.players}")
    seed = record.get("seed")
    moves = record.get("moves")
    if type(seed) is not int or not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidPositionError('a record needs an integer "seed" and a list of move strings "moves"')
    game = Game(rules, seed=seed, seats=record.get("seats"))
    yield game, None, None, tuple(game.events)
    for number, text in enumerate(moves, 1):
        if game.is_over():
            raise InvalidPositionError(f"move {number} ({text!r}): the game is already over")
        seat = game.to_act
        try:
            events = game.play(text)
        except KortbordError as error:
            raise InvalidPositionError(f"move {number} ({text!r}): {error}") from None
        yield game, seat, game.moves[-1], events


def replay_record(record: dict[str, Any]) -> Iterator[tuple[Game, int | None, Move | None, tuple[Event, ...]]]:
    """Replay ``record`` step by step: yields ``(game, seat, move, events)`` -- first ``(game, None, None, opening
    events)`` (the cut and the first deal), then once per recorded move: the seat that made it, the move and the
    events it caused (chance steps that followed included).

    The ``game`` object is the same one throughout (its ``state`` advances). Raises as :meth:`Game.from_record`.
    """
    return _replay(record)
