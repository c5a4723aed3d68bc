"""Cribbage behind the engine contract: :data:`SPEC`, the game's entry in the registry (``kortbord.contract.GameSpec``).

Every client (the server, the arena, the bots, the research adapters, the terminal) drives Cribbage through this
one object.  It adds no rules: each call is the engine's (:mod:`kortbord.cribbage.engine`), the view's and the
sampler's (:mod:`kortbord.cribbage.view`) or the options' (:mod:`kortbord.cribbage.rules`), so every rule stays in
one place.  Rules source: ``spec/rules/cribbage.md``.

Seats are 0-based ints (``P0``...); a side is ``rules.side_of(seat)``: ``seat % 2`` in a partnership (4 players,
§2.2), else the seat itself.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from kortbord import contract as _contract
from kortbord.cards import Card
from kortbord.contract import Event, GameSpec, Option
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Move
from kortbord.cribbage.rules import OPTIONS, PROFILES_OPTIONS, RULES_VERSION, Rules
from kortbord.cribbage.state import Result, State
from kortbord.cribbage.view import PublicView, Sampler, view
from kortbord.errors import InvalidMoveError, InvalidPositionError, InvalidRulesError, KortbordError

__all__ = ["SPEC", "CribbageSpec", "GameResult"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a Cribbage game in the contract's shape: winners and scores per *side* (rules spec §2.6-2.8, §2a).

    Attributes:
        winners: the winning sides (one, or in Lowball with three players the non-losers tied lowest).
        scores: final points per side (per seat unless partnership: side 0 = seats 0+2, side 1 = seats 1+3).
        detail: the engine's :class:`~kortbord.cribbage.state.Result` (seats, skunks, game points ...).
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    detail: Result

    def to_json(self) -> dict[str, Any]:
        """``{"winners": sides, "scores": per side, "draw": false, "winner_seats", "loser_seats", "seat_scores",
        "reached" (seat), "lowball", "ranking" (sides), "skunked" (sides), "double_skunked" (sides),
        "game_points"}``."""
        r = self.detail
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "draw": not self.winners,
            "winner_seats": list(r.winners),
            "loser_seats": list(r.losers),
            "seat_scores": list(r.scores),
            "reached": r.reached,
            "lowball": r.lowball,
            "ranking": [list(g) for g in r.ranking],
            "skunked": list(r.skunked),
            "double_skunked": list(r.double_skunked),
            "game_points": r.game_points,
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


class CribbageSpec:
    """Cribbage as a :class:`kortbord.contract.GameSpec` (see the protocol for each method's contract).

    Use the module's :data:`SPEC`; the class holds no game state (only the last sampler, a cache keyed by the
    identity of an immutable view).
    """

    name: str = "cribbage"
    rules_version: str = RULES_VERSION

    def __init__(self) -> None:
        self._sampler: tuple[PublicView, Sampler] | None = None

    def __repr__(self) -> str:
        return "kortbord.cribbage.SPEC"

    def __reduce__(self) -> str:
        return "SPEC"  # pickles as the module's one instance

    # -- rules -------------------------------------------------------------------------------------------------
    def option_schema(self) -> tuple[Option, ...]:
        """Every option of :class:`Rules` (:data:`kortbord.cribbage.rules.OPTIONS`): type, domain, default and
        the rules spec section.  ``partnership`` ``None`` and the skunk lines ``None`` mean "derived" (from the
        player count, from the target)."""
        return OPTIONS

    def profiles(self) -> tuple[str, ...]:
        """The named profiles, ``"standard"`` first (``standard``, ``once-around``, ``muggins``, ``lowball``,
        ``three-hand``, ``partnership``)."""
        return tuple(PROFILES_OPTIONS)

    def make_rules(
        self, options: Mapping[str, Any] | None = None, *, players: int | None = None, teams: bool = False
    ) -> Rules:
        """Rules from option overrides (``{"profile": ..., key: value}``) at a table of ``players`` seats.

        Args:
            options: the overrides (``Rules.from_dict``); a ``"players"`` key must agree with ``players``.
            players: the table's seats (2, 3 or 4); ``None``: as the options say (default 2).
            teams: the table asks for partners; Cribbage has them exactly with 4 players (spec §2.2), so
                ``teams=True`` needs 4 players (and 4 players are always partners, asked or not).
        Returns:
            The rules; ``rules.notices`` says how options were combined (Muggins is ignored in Lowball, §2.9).
        Raises:
            InvalidRulesError: an unknown option, a bad value, a player count the options or the rules refuse.
        """
        data = _contract.check_options(options)
        if players is not None:
            if "players" in data and data["players"] != players:
                raise InvalidRulesError(f"rules say {data['players']!r} players but the table has {players} seats")
            profile = data.get("profile")
            fixed = PROFILES_OPTIONS.get(profile, {}).get("players") if isinstance(profile, str) else None
            if fixed is not None and fixed != players:
                raise InvalidRulesError(
                    f"the {profile} profile is for {fixed} players but the table has {players} seats"
                )
            data["players"] = players
        rules = Rules.from_dict(data)
        if teams and not rules.partnership:
            raise InvalidRulesError("partnership play needs 4 players (spec §2.2)")
        return rules

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        """``rules.to_dict()``: every option, JSON-ready (what :meth:`make_rules` takes back)."""
        return rules.to_dict()

    # -- play --------------------------------------------------------------------------------------------------
    def new_game(
        self, rules: Rules | None = None, *, players: int | None = None, teams: bool = False, dealer: int | None = None
    ) -> State:
        """The game before its first chance step: the cut for deal, or with ``dealer`` the first shuffle.

        Args:
            rules: the options (default: :meth:`make_rules` for ``players`` and ``teams``).
            players: the seats; ``None`` = ``rules.players``.  teams: as in :meth:`make_rules`.
            dealer: the first dealer's seat, or ``None`` for the cut for deal (spec §2.2).
        Raises:
            InvalidRulesError: bad options or player count.  InvalidPositionError: a dealer seat that does not exist.
        """
        if rules is None:
            rules = self.make_rules(None, players=players, teams=teams)
        elif teams and not rules.partnership:
            raise InvalidRulesError("partnership play needs 4 players (spec §2.2)")
        return engine.new_game(rules, players=players, dealer=dealer)

    def players(self, state: State) -> int:
        """The number of seats (2, 3 or 4)."""
        return state.rules.players

    def cards(self, state: State) -> list[str]:
        """Every card wherever it lies -- hands, crib, cards laid in the play, the starter, the stock -- in notation
        (tests and bug reports only, never for a player): the 52 cards (``kortbord.cribbage.state``)."""
        out = [c for hand in state._hands for c in hand]
        out += state._crib
        out += state.played
        if state.starter is not None:
            out.append(state.starter)
        out += state._stock
        return [str(c) for c in out]

    def is_chance(self, state: State) -> bool:
        """The next step is chance: the cut for deal or the shuffle of a deal."""
        return engine.is_chance(state)

    def chance_outcome(self, state: State, rng: random.Random) -> Move:
        """The chance move drawn from ``rng`` (``CutForDeal`` or ``Shuffle``). Raises ``IllegalMoveError``."""
        return engine.chance_outcome(state, rng)

    def to_act(self, state: State) -> int | None:
        """The seat to decide; ``None`` at a chance node or at the end."""
        return engine.to_act(state)

    def legal_moves(self, state: State) -> list[Move]:
        """The legal moves of the seat to act, in canonical order; ``[]`` at chance nodes and at the end."""
        return engine.legal_moves(state)

    def apply(self, state: State, move: Move, *, seat: int | None = None) -> State:
        """The next state (``seat``, if given, is checked against the seat to act).

        Raises:
            IllegalMoveError (with a :class:`Reason`), NotYourTurnError: and nothing changes.
        """
        return engine.apply(state, move, seat=seat)

    def step(self, state: State, move: Move, *, seat: int | None = None) -> tuple[State, tuple[Event, ...]]:
        """As :meth:`apply`, with the public events the move caused, in order."""
        stepped: Any = engine.step(state, move, seat=seat)  # the engine moves its events to contract.Event
        return cast("tuple[State, tuple[Event, ...]]", stepped)

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move ``text`` names in ``state`` (bare cards resolved by the phase).

        Raises:
            InvalidMoveError: malformed (or not a string).  IllegalMoveError: well formed, not legal here (with
            the reason).
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written as text, got {type(text).__name__}")
        return engine.parse_move(state, text)

    def explain_illegal(self, state: State, move: Move, *, seat: int | None = None) -> _contract.Reason:
        """Why ``move`` (sent by ``seat``, if given) is not legal in ``state``: the reason the engine's
        ``IllegalMoveError`` carries.

        Raises:
            InvalidMoveError: ``move`` is not a Cribbage move.  ValueError: ``move`` is legal here (nothing to
            explain).
        """
        if not isinstance(move, Move):
            raise InvalidMoveError(f"not a Cribbage move: {move!r}")
        return engine.explain_illegal(state, move, seat=seat)

    def move_json(self, move: Move) -> dict[str, Any]:
        """``{"notation": str(move), "kind": "play"|"go"|"discard"|..., **fields}`` with cards in notation."""
        out: dict[str, Any] = {"notation": str(move), "kind": type(move).__name__.lower()}
        for f in dataclasses.fields(move):
            out[f.name] = _jsonable(getattr(move, f.name))
        return out

    # -- what a seat knows -------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> PublicView:
        """What ``seat`` may know; ``None``: the spectator's view (public fields only). Raises ``SeatError``."""
        return view(state, seat)

    def sample(self, view: PublicView, rng: random.Random) -> State:
        """A full state consistent with ``view`` (:class:`kortbord.cribbage.view.Sampler`): the unseen cards dealt
        at random from ``rng`` to the other hands, their discards, the face-down crib and the stock, every go
        honoured.  ``view(result, view.seat) == view``.  Drawing again from the same view object reuses its
        preparation.  Raises ``InvalidPositionError`` for a view no game can have."""
        cached = self._sampler
        if cached is not None and cached[0] is view:
            sampler = cached[1]
        else:
            sampler = Sampler(view)
            self._sampler = (view, sampler)
        return sampler.draw(rng)

    def resample(self, state: State, seat: int, rng: random.Random) -> State:
        """``sample(view(state, seat), rng)``: a state ``seat`` cannot tell from ``state``."""
        return Sampler(view(state, _contract.check_seat(seat, state.rules.players))).draw(rng)

    # -- sides and the end -------------------------------------------------------------------------------------
    def sides(self, state: State) -> int:
        """2 in a partnership, else one side per seat."""
        return state.rules.sides

    def side_of(self, state: State, seat: int) -> int:
        """``seat % 2`` in a partnership, else the seat (:meth:`Rules.side_of`, spec §2.4 item 7)."""
        return state.rules.side_of(_contract.check_seat(seat, state.rules.players))

    def seat_name(self, seat: int) -> str:
        """``"P<seat>"``.  Raises SeatError for anything but a seat 0..3."""
        return engine.seat_name(_contract.check_seat(seat, 4))

    def is_over(self, state: State) -> bool:
        """A side reached the target."""
        return engine.is_over(state)

    def result(self, state: State) -> GameResult:
        """Winners and scores per side, with the engine's result (skunks, game points). Raises
        ``IllegalMoveError`` before the end."""
        r = engine.result(state)
        rules = state.rules
        return GameResult(tuple(sorted({rules.side_of(s) for s in r.winners})), r.side_scores, r)

    # -- records -----------------------------------------------------------------------------------------------
    def record(
        self,
        rules: Rules,
        *,
        players: int | None = None,
        teams: bool = False,
        seed: int,
        moves: Sequence[Move | str],
        seats: Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        """A game record as :meth:`kortbord.cribbage.Game.to_record` writes it (``docs/engine-api.md``):
        ``{"game", "rules_version", "rules", "players", "seats", "seed", "moves"}``, plus ``"dealer"`` when the
        first dealer was fixed (no cut for deal; :meth:`replay` reads it).

        Raises:
            InvalidRulesError: ``players`` or ``teams`` disagree with ``rules``.
        """
        if players is not None and players != rules.players:
            raise InvalidRulesError(f"rules say {rules.players} players, not {players}")
        if teams and not rules.partnership:
            raise InvalidRulesError("partnership play needs 4 players (spec §2.2)")
        n = rules.players
        out: dict[str, Any] = {
            "game": "cribbage",
            "rules_version": RULES_VERSION,
            "rules": rules.to_dict(),
            "players": n,
            "seats": list(seats) if seats is not None else [engine.seat_name(s) for s in range(n)],
            "seed": seed,
            "moves": [str(m) for m in moves],
        }
        if dealer is not None:
            out["dealer"] = dealer
        return out

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[State, int | None, Move, tuple[Event, ...]]]:
        """Replay ``record`` step by step: ``(state after, seat that moved or None for chance, move, events)``,
        the chance steps drawn in order from ``random.Random(record["seed"])``.

        Raises:
            InvalidPositionError: not a cribbage record, another rules version, a malformed field, or a move that
                is malformed or illegal where it stands (its number and the reason).  InvalidRulesError: bad rules.
        """
        if not isinstance(record, Mapping) or record.get("game") != "cribbage":
            raise InvalidPositionError('not a cribbage game record (expected "game": "cribbage")')
        version = record.get("rules_version")
        if version != RULES_VERSION:
            raise InvalidPositionError(f"record made with rules version {version!r}; this is {RULES_VERSION!r}")
        try:
            rules = Rules.from_dict(dict(record.get("rules", {})))
        except InvalidRulesError as error:
            raise InvalidRulesError(f"record rules: {error}") from None
        players = record.get("players", rules.players)
        if players != rules.players or type(players) is not int:
            raise InvalidPositionError(f"record says {players!r} players but its rules say {rules.players}")
        seed, moves = record.get("seed"), record.get("moves")
        if type(seed) is not int or not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidPositionError('a record needs an integer "seed" and a list of move strings "moves"')
        state = engine.new_game(rules, dealer=record.get("dealer"))
        rng = random.Random(seed)

        def chance() -> Iterator[tuple[State, int | None, Move, tuple[Event, ...]]]:
            nonlocal state
            while engine.is_chance(state):
                move = engine.chance_outcome(state, rng)
                state, events = self.step(state, move)
                yield state, None, move, events

        yield from chance()
        for number, text in enumerate(moves, 1):
            if engine.is_over(state):
                raise InvalidPositionError(f"move {number} ({text!r}): the game is already over")
            seat = engine.to_act(state)
            try:
                move = engine.parse_move(state, text)
                state, events = self.step(state, move)
            except KortbordError as error:
                raise InvalidPositionError(f"move {number} ({text!r}): {error}") from None
            yield state, seat, move, events
            yield from chance()


#: Cribbage's entry in the game registry (``kortbord.core.GAMES["cribbage"]``).
SPEC: Final = CribbageSpec()

if TYPE_CHECKING:  # mypy checks that SPEC offers the whole protocol, with compatible signatures
    _SPEC_IS_A_GAME_SPEC: GameSpec = SPEC
