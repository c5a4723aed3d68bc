"""Mulle's entry in the game registry: :data:`SPEC`, a :class:`kortbord.contract.GameSpec` (``docs/engine-api.md``).

Every client (server, arena, bots, research adapters, terminal) drives Mulle through this object; it holds no rule
of its own and delegates to the engine (:mod:`kortbord.mulle.engine`), the views and the sampler
(:mod:`kortbord.mulle.view`) and the rule options (:data:`kortbord.mulle.rules.OPTIONS`).

Seats are 0-based ints everywhere and are named ``P0``, ``P1``... (:meth:`MulleSpec.seat_name`); sides are the
teams ``seat % 2`` with teams, else the seats (:meth:`MulleSpec.side_of`, the engine's
:func:`kortbord.mulle.state.side_of`).  Position files keep the rules spec's own naming (§5.3: ``P1`` is the
dealer's left), converted by :mod:`kortbord.mulle.position`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from kortbord.cards import Card
from kortbord.contract import Event, Option, check_options, check_seat
from kortbord.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidRulesError, KortbordError
from kortbord.mulle import engine
from kortbord.mulle.game import check_header
from kortbord.mulle.moves import Move, PlayerMove
from kortbord.mulle.rules import OPTIONS, PROFILES, RULES_VERSION, Rules
from kortbord.mulle.state import Reason, State
from kortbord.mulle.state import side_of as _side_of
from kortbord.mulle.view import PublicView, View, public_view, sample_state
from kortbord.mulle.view import view as seat_view

__all__ = ["SPEC", "MulleResult", "MulleSpec"]

#: Longest seat name in a record, in characters (as :data:`kortbord.mulle.game.MAX_NAME`).
MAX_NAME: Final = 100


@dataclass(frozen=True, slots=True)
class MulleResult:
    """The end of a game of Mulle (spec §2.12).

    Attributes:
        winners: the winning sides (teams 0/1 or seats); empty for a draw.
        scores: the game totals per side (points).
        rounds: the number of rounds played.
        breakdowns: per round, each side's score breakdown (:func:`kortbord.mulle.scoring.score_pile`).
        lowest_wins: Kryp-mulle (spec §3, A20): the lowest total wins.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int
    breakdowns: tuple[tuple[dict[str, Any], ...], ...]
    lowest_wins: bool

    @property
    def draw(self) -> bool:
        """No side won (spec §2.12, ``tie_rule``)."""
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        """``{"winners", "scores", "rounds" (per round, each side's breakdown), "lowest_wins", "draw"}`` -- the
        shape the server has sent since before the registry."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "rounds": [list(r) for r in self.breakdowns],
            "lowest_wins": self.lowest_wins,
            "draw": self.draw,
        }


def _step(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """:func:`kortbord.mulle.engine.step` (its events are the contract's :class:`Event` shape)."""
    new, events = engine.step(state, move)
    evs: tuple[Any, ...] = events
    return new, evs


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


class MulleSpec:
    """Mulle behind the engine contract (:class:`kortbord.contract.GameSpec`); use the instance :data:`SPEC`."""

    name: str = "mulle"
    rules_version: str = RULES_VERSION

    def __repr__(self) -> str:
        return "kortbord.mulle.SPEC"

    def __reduce__(self) -> str:
        return "SPEC"  # pickles as the module-level singleton

    # -- rules -----------------------------------------------------------------------------------------
    def option_schema(self) -> tuple[Option, ...]:
        """Every Mulle rule option (:data:`kortbord.mulle.rules.OPTIONS`): type, domain, default, spec section."""
        return OPTIONS

    def profiles(self) -> tuple[str, ...]:
        """The rule profiles of spec §3: ``("standard", "cardgames.zone", "kryp")``."""
        return tuple(PROFILES)

    def make_rules(self, options: Mapping[str, Any] | None = None, *, players: int = 2, teams: bool = False) -> Rules:
        """Rules from ``{"profile": name, key: value, ...}`` (:meth:`Rules.from_dict`), checked against the player
        count (2-4, spec §2.2), teams (4 players) and the deal format (hand and table sizes must fit 104 cards).

        Raises:
            InvalidRulesError: an unknown option, a value outside its domain, a bad player count or deal format.
        """
        rules = Rules.from_dict(check_options(options))
        engine.new_game(rules, players=players, teams=teams)  # validates the player count and the deal format
        return rules

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        """``rules.to_dict()``: every option, ``"profile"`` first (what :meth:`make_rules` takes back)."""
        return rules.to_dict()

    # -- play ------------------------------------------------------------------------------------------
    def new_game(
        self, rules: Rules | None = None, *, players: int = 2, teams: bool = False, dealer: int | None = None
    ) -> State:
        """The game before its first shuffle (:func:`kortbord.mulle.engine.new_game`).  Raises InvalidRulesError."""
        return engine.new_game(rules, players=players, teams=teams, dealer=dealer)

    def players(self, state: State) -> int:
        """The number of seats (2-4)."""
        return state.players

    def cards(self, state: State) -> list[str]:
        """Every card of the round wherever it lies -- hands, stock, loose table cards, builds, capture piles -- in
        notation (tests and bug reports only, never for a player).  104 during a round (spec §2.2)."""
        out = [c for hand in state._hands for c in hand]
        out += state._stock
        out += state.table
        for b in state.builds:
            out += b.cards
        for p in state.piles:
            out += p.cards
        return [str(c) for c in out]

    def is_chance(self, state: State) -> bool:
        """The next step is a shuffle (the start of a round)."""
        return engine.is_chance(state)

    def chance_outcome(self, state: State, rng: random.Random) -> Move:
        """The shuffle (and the first dealer) drawn from ``rng`` (:func:`kortbord.mulle.engine.chance_outcome`)."""
        return engine.chance_outcome(state, rng)

    def to_act(self, state: State) -> int | None:
        """The seat to play; None at a chance node or at the end."""
        return engine.to_act(state)

    def legal_moves(self, state: State) -> list[PlayerMove]:
        """The legal moves of the seat to play in canonical order (spec §2.13); ``[]`` at chance nodes and the end."""
        return engine.legal_moves(state)

    def apply(self, state: State, move: Move) -> State:
        """The next state (:func:`kortbord.mulle.engine.apply`).  Raises IllegalMoveError, NotYourTurnError,
        InvalidMoveError."""
        return engine.apply(state, move)

    def step(self, state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
        """As :meth:`apply`, with the public events of the move."""
        return _step(state, move)

    def parse_move(self, state: State, text: str) -> PlayerMove:
        """A move from notation (spec §5.2) resolved against the legal moves.  Raises InvalidMoveError,
        IllegalMoveError, AmbiguousMoveError, NotYourTurnError."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written as text, got {type(text).__name__}")
        return engine.parse_move(state, text)

    def explain_illegal(self, state: State, move: PlayerMove) -> Reason:
        """Why ``move`` is not legal in ``state`` (the rule of spec §2.6-§2.7 that forbids it).

        Raises:
            InvalidMoveError: ``move`` is not a Mulle move.  ValueError: ``move`` is legal here (nothing to
            explain).
        """
        if not isinstance(move, PlayerMove):
            raise InvalidMoveError(f"not a Mulle move: {move!r}")
        if move in engine.legal_moves(state):
            raise ValueError(f"{move} is legal here: nothing to explain")
        why: Any = engine.explain_illegal(state, move)
        return cast(Reason, why)

    def move_json(self, move: Move) -> dict[str, Any]:
        """A move for clients: ``{"notation": str(move), "kind": "capture"|"trail"|"build"|..., **fields}`` with
        every card in notation (``"9H"``) and tuples as lists."""
        out: dict[str, Any] = {"notation": str(move), "kind": type(move).__name__.lower()}
        for f in dataclasses.fields(move):
            out[f.name] = _jsonable(getattr(move, f.name))
        return out

    # -- what a seat knows -----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View | PublicView:
        """``seat``'s :class:`~kortbord.mulle.view.View`; ``seat=None``: the spectator's
        :class:`~kortbord.mulle.view.PublicView` (public facts only).  Raises SeatError for a seat that does not
        exist."""
        return public_view(state) if seat is None else seat_view(state, seat)

    def sample(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view`` (:func:`kortbord.mulle.view.sample_state`): the unseen cards dealt
        at random to the other hands and the stock, a build's owner holding a card of its value (the reserve
        rule, spec §2.6).  ``view(result, view.seat) == view``.  Raises ValueError for a spectator's view or
        inconsistent counts."""
        if not isinstance(view, View):
            raise ValueError(f"sample() needs one seat's View, got {type(view).__name__}")
        return sample_state(view, rng)

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """``sample(view(state, seat), rng)``: the cards hidden from ``seat`` dealt again.  Raises SeatError."""
        return sample_state(seat_view(state, check_seat(seat, state.players)), rng)

    # -- sides and the end -----------------------------------------------------------------------------
    def sides(self, state: State) -> int:
        """2 with teams, else the number of players."""
        return state.sides

    def side_of(self, state: State, seat: int) -> int:
        """The scoring side of ``seat``: its team ``seat % 2`` with teams (spec §2.2), else the seat."""
        return _side_of(state.teams, check_seat(seat, state.players))

    def seat_name(self, seat: int) -> str:
        """``"P<seat>"`` (``P0``...): the name of a 0-based seat in logs and records.  Raises SeatError for
        anything but a seat 0..3."""
        return f"P{check_seat(seat, 4)}"

    def is_over(self, state: State) -> bool:
        """The game has ended (spec §2.12)."""
        return engine.is_over(state)

    def result(self, state: State) -> MulleResult:
        """Winners (sides), final scores, rounds and per-round breakdowns.  Raises IllegalMoveError before the end."""
        if not engine.is_over(state):
            raise IllegalMoveError("the game is not over: there is no result yet")
        r = engine.result(state)
        return MulleResult(r.winners, r.scores, len(r.rounds), r.rounds, r.lowest_wins)

    # -- records ---------------------------------------------------------------------------------------
    def record(
        self,
        rules: Rules,
        *,
        players: int,
        teams: bool,
        seed: int,
        moves: Sequence[Any],
        seats: Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        """A game record (``docs/engine-api.md`` "Game records", as :meth:`kortbord.mulle.Game.to_record`):
        ``{"game": "mulle", "rules_version", "rules", "players", "teams", "dealer", "seats", "seed", "moves"}``
        with the decisions in notation; chance steps are drawn from ``random.Random(seed)`` on replay.  ``seats``
        are display names (default :meth:`seat_name`).

        Raises:
            InvalidPositionError: ``seats`` does not name every seat.
        """
        names = [self.seat_name(s) for s in range(players)] if seats is None else list(seats)
        if len(names) != players or not all(isinstance(s, str) and len(s) <= MAX_NAME for s in names):
            raise InvalidPositionError(f"seats must be {players} names of at most {MAX_NAME} characters")
        return {
            "game": "mulle",
            "rules_version": RULES_VERSION,
            "rules": rules.to_dict(),
            "players": players,
            "teams": teams,
            "dealer": dealer,
            "seats": names,
            "seed": seed,
            "moves": [str(m) for m in moves],
        }

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[State, int | None, Move, tuple[Event, ...]]]:
        """Replay a record step by step: ``(state after, seat that moved or None for a shuffle, move, events)``,
        every shuffle drawn from ``random.Random(record["seed"])`` as soon as it is due (as :class:`Game` does).

        Raises:
            InvalidPositionError: not a Mulle record, another rules version, a bad header, or move N is malformed
                or illegal (the message names it).
        """
        seed, moves = check_header(record)
        try:
            rules = Rules.from_dict(record.get("rules"))
            state = engine.new_game(
                rules,
                players=record.get("players", 2),
                teams=record.get("teams", False),
                dealer=record.get("dealer"),
            )
        except (InvalidRulesError, KortbordError) as exc:
            raise InvalidPositionError(f"bad record header: {exc}") from None
        rng = random.Random(seed)
        while engine.is_chance(state):
            shuffle = engine.chance_outcome(state, rng)
            state, events = _step(state, shuffle)
            yield state, None, shuffle, events
        for i, text in enumerate(moves, 1):
            try:
                if not isinstance(text, str):
                    raise InvalidPositionError(f"moves must be notation strings, got {text!r}")
                seat = engine.to_act(state)
                move = engine.parse_move(state, text)
                state, events = _step(state, move)
            except KortbordError as exc:
                raise InvalidPositionError(f"record move {i} ({text!r}): {exc}") from None
            yield state, seat, move, events
            while engine.is_chance(state):
                shuffle = engine.chance_outcome(state, rng)
                state, events = _step(state, shuffle)
                yield state, None, shuffle, events


#: Mulle's entry in the game registry (``kortbord.core.GAMES["mulle"]``).
SPEC: Final = MulleSpec()
