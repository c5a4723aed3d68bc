"""The engine contract every client drives both games through (``docs/engine-api.md``).

This module holds only shapes, no rules and no words for players:

* :class:`Event` -- something public a move caused, as a ``kind`` code plus JSON-ready ``data``, one shape for
  both games (``{"kind": "fifteen", "seat": 1, "cards": ["5D", "TH"], "points": 2}``);
* :class:`Reason` -- why a move is illegal, as a ``code`` plus JSON-ready ``data``
  (``{"code": "must_capture", "move": "T AS", "capture": "C AS x {AS,KC}"}``); the English default message for the
  command line is rendered outside the engines, by :mod:`kortbord.i18n`;
* :class:`Option` -- one rule option's type, domain, default and spec section, declared once per game;
* :class:`GameSpec` -- the protocol one game's entry in the registry :data:`kortbord.core.GAMES` offers.

Engines import this module and nothing from any client.  ``kortbord.core`` re-exports these names and holds the
registry.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = ["Event", "GameSpec", "Option", "Reason", "check_options", "check_seat"]


def check_seat(seat: object, players: int) -> int:
    """``seat`` itself when it is a seat of a ``players``-seat game: a plain int 0..players-1 (not a bool).

    Raises:
        SeatError: anything else (the message names the seats).
    """
    if type(seat) is not int or not 0 <= seat < players:
        from kortbord.errors import SeatError

        raise SeatError(f"no seat {seat!r} in a {players}-player game (seats are 0..{players - 1})")
    return seat


def check_options(options: object) -> dict[str, Any]:
    """Rule options as a new dict: ``None`` is no options; anything but a mapping with string keys is refused.

    Raises:
        InvalidRulesError: not a mapping, or a key that is not a string.
    """
    from kortbord.errors import InvalidRulesError

    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidRulesError(f"rules must be an object of options, got {type(options).__name__}")
    bad = [k for k in options if not isinstance(k, str)]
    if bad:
        raise InvalidRulesError(f"option names are strings, got {bad[0]!r}")
    return dict(options)


@dataclass(frozen=True, slots=True)
class Event:
    """A public event a step caused: a ``kind`` code and its JSON-ready ``data``.

    ``data`` holds only ints, bools, ``None``, strings (cards in notation, ``"9H"``), and lists/dicts of them; it never
    holds a card the rules keep hidden from any seat.  Seats are 0-based ints, never names.  The kinds and their
    data are listed per game in ``docs/engine-api.md`` and validated by ``kortbord/schemas/event.schema.json``.

    Attributes:
        kind: the event's code (``"capture"``, ``"mulle"``, ``"fifteen"``, ``"go"``, ``"game_over"`` ...).
        data: the event's facts.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": kind, **data}``: a new dict, safe to change."""
        return {"kind": self.kind, **self.data}

    def get(self, key: str, default: Any = None) -> Any:
        """``data.get(key, default)``."""
        return self.data.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __str__(self) -> str:
        return self.kind + "".join(f" {k}={v}" for k, v in self.data.items())


@dataclass(frozen=True, slots=True, eq=False)
class Reason:
    """Why a move is illegal: a ``code`` and its JSON-ready ``data`` (cards and moves in notation).

    The codes of each game are listed in ``docs/engine-api.md``; every code has an English default message in
    :mod:`kortbord.i18n` (``str(reason)``) and a Swedish one.

    Attributes:
        code: the rule that forbids the move (``"must_capture"``, ``"past_31"``, ``"not_in_hand"`` ...).
        data: the facts the message needs (``{"move": "T AS", "capture": "C AS x {AS,KC}"}``).
        game: the game the code belongs to (``"mulle"``, ``"cribbage"``); codes are per game.
    """

    code: str
    data: Mapping[str, Any] = field(default_factory=dict)
    #: the game whose rule it is (its words are in that game's catalogue); each engine's own subclass sets it
    game: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        """``{"code": code, **data}``."""
        return {"code": self.code, **self.data}

    def __eq__(self, other: object) -> bool:
        """Reasons are equal when their codes and data are (whatever engine subclass made them)."""
        if not isinstance(other, Reason):
            return NotImplemented
        return self.code == other.code and dict(self.data) == dict(other.data)

    def __hash__(self) -> int:
        return hash(self.code)

    def text(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        """The message for people in ``lang`` (``"en"`` or ``"sv"``), seats by ``names`` when given, rendered by
        :mod:`kortbord.i18n` from the game's catalogue."""
        from kortbord import i18n  # words live outside the engines; imported only when a message is wanted

        return i18n.reason_text(self.to_json(), lang, names, game=self.game)

    def __str__(self) -> str:
        return self.text("en")


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option of a game, declared once (``option_schema()``); validation, the server's option lists,
    the lobby and the OpenSpiel parameters all read it.

    Attributes:
        key: the option's key in ``Rules.to_dict()`` and in requests (``"capture_duty"``).
        type: ``"bool"``, ``"int"``, ``"choice"`` (one of ``choices``) or ``"choice_or_int"`` (one of ``choices``
            or an int in ``minimum..maximum``).
        default: the default value (the spec's default).
        choices: the allowed values of a choice, in the spec's order (empty otherwise).
        minimum, maximum: the bounds of an int (inclusive), else ``None``.
        section: where the rules spec defines it (``"mulle.md §3 A18"``).
        prefix: for a ``choice_or_int`` whose int is written with a prefix (Mulle ``game_length`` ``"target:N"``),
            the prefix (the number follows in its one decimal spelling: ``"target:100"``, never ``"target:0100"``);
            else ``""``.
    """

    key: str
    type: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    section: str = ""
    prefix: str = ""

    def to_json(self) -> dict[str, Any]:
        """The option as JSON (the server's option lists and the lobby read this)."""
        return {
            "key": self.key,
            "type": self.type,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "section": self.section,
            "prefix": self.prefix,
        }


@runtime_checkable
class GameSpec(Protocol):
    """One game behind the contract: the registry entry every client (server, arena, bots, research adapters,
    terminal) drives the game through.  All functions are pure: states are immutable values, randomness comes
    from the ``random.Random`` passed in, and a raised error changes nothing.

    Seats are 0-based ints in every call.  ``seat_name(seat)`` is ``"P<seat>"`` (``P0``...) in logs and
    records; the position files of each rules spec keep the spec's own naming (Mulle §5.3: ``P1`` is the
    dealer's left), converted when they are loaded or dumped.
    """

    name: str
    rules_version: str

    # -- rules -----------------------------------------------------------------------------------------
    def option_schema(self) -> tuple[Option, ...]:
        """Every rule option: type, domain, default, spec section (the one declaration of them)."""
        ...

    def profiles(self) -> tuple[str, ...]:
        """The named rule profiles (``"standard"`` first)."""
        ...

    def make_rules(self, options: Mapping[str, Any] | None = None, *, players: int = 2, teams: bool = False) -> Any:
        """The game's ``Rules`` from option overrides (``{"profile": ..., key: value}``), checked against the
        player count and teams.  Raises ``InvalidRulesError`` naming the option."""
        ...

    def rules_to_dict(self, rules: Any) -> dict[str, Any]:
        """``rules`` as JSON (what ``make_rules`` takes back)."""
        ...

    # -- play ------------------------------------------------------------------------------------------
    def new_game(self, rules: Any = None, *, players: int = 2, teams: bool = False, dealer: int | None = None) -> Any:
        """The game before its first chance step.  Raises ``InvalidRulesError``."""
        ...

    def players(self, state: Any) -> int:
        """The number of seats."""
        ...

    def is_chance(self, state: Any) -> bool:
        """The next step is chance (a cut or a shuffle)."""
        ...

    def chance_outcome(self, state: Any, rng: random.Random) -> Any:
        """The chance move drawn from ``rng`` (applied with ``apply``/``step`` like any move)."""
        ...

    def to_act(self, state: Any) -> int | None:
        """The seat to decide; ``None`` at a chance node or at the end."""
        ...

    def legal_moves(self, state: Any) -> list[Any]:
        """The legal moves of ``to_act(state)`` in canonical order; ``[]`` at chance nodes and at the end."""
        ...

    def apply(self, state: Any, move: Any) -> Any:
        """The next state.  Raises ``IllegalMoveError`` (with a :class:`Reason`) / ``NotYourTurnError``."""
        ...

    def step(self, state: Any, move: Any) -> tuple[Any, tuple[Event, ...]]:
        """As ``apply``, with the public events the move caused, in order."""
        ...

    def parse_move(self, state: Any, text: str) -> Any:
        """A move from notation in the context of ``state``.  Raises ``InvalidMoveError``, ``IllegalMoveError``
        (with a :class:`Reason`) or ``AmbiguousMoveError``."""
        ...

    def explain_illegal(self, state: Any, move: Any) -> Reason:
        """Why ``move`` is not legal in ``state`` (a specific code, never a catch-all)."""
        ...

    def move_json(self, move: Any) -> dict[str, Any]:
        """A move for clients: ``{"notation": str(move), "kind": ..., **fields}`` with cards in notation."""
        ...

    # -- what a seat knows -----------------------------------------------------------------------------
    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` may know (an object with ``to_json()``); ``seat=None`` is the spectator's view, built
        from what is public only.  Raises ``SeatError`` for a seat that does not exist."""
        ...

    def sample(self, view: Any, rng: random.Random) -> Any:
        """A full state consistent with ``view`` (one seat's knowledge): every card the view does not show dealt
        at random from ``rng`` to the other hands, the stock and a face-down crib, honouring what the play has
        shown (a Cribbage go, a Mulle capture duty).  ``view(result, view.seat)`` equals ``view``.  The one
        sampler of unseen cards: the strong bots (which see only their view) and :meth:`resample` use it."""
        ...

    def resample(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A state consistent with everything ``seat`` has seen: the cards hidden from ``seat`` (other hands,
        the stock, a face-down crib) dealt again at random from ``rng``, honouring what the play has shown
        (for example a Cribbage go): ``sample(view(state, seat), rng)``.  ``view(result, seat)`` equals
        ``view(state, seat)``."""
        ...

    def cards(self, state: Any) -> list[str]:
        """Every card of the game wherever it lies, hidden ones included, in notation: for tests (every card
        accounted for) and bug reports only, never for a player."""
        ...

    # -- sides and the end -----------------------------------------------------------------------------
    def sides(self, state: Any) -> int:
        """The number of sides (teams, or seats when there are none)."""
        ...

    def side_of(self, state: Any, seat: int) -> int:
        """The side of ``seat``: its team with teams/partnership (``seat % 2``), else the seat itself."""
        ...

    def seat_name(self, seat: int) -> str:
        """``"P<seat>"`` (``P0``...)."""
        ...

    def is_over(self, state: Any) -> bool:
        """The game has ended."""
        ...

    def result(self, state: Any) -> Any:
        """The result (an object with ``to_json()`` giving ``winners`` (sides), ``scores`` (per side) and the
        game's own facts).  Raises ``IllegalMoveError`` before the end."""
        ...

    # -- records ---------------------------------------------------------------------------------------
    def record(
        self,
        rules: Any,
        *,
        players: int,
        teams: bool,
        seed: int,
        moves: Sequence[Any],
        seats: Sequence[str] | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        """A game record (``docs/engine-api.md``: rules, seed, the decisions in notation)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[Any, int | None, Any, tuple[Event, ...]]]:
        """Replay a record: ``(state after, seat that moved or None for chance, move, events)`` per step,
        chance steps drawn from ``random.Random(record["seed"])``.  Raises ``InvalidPositionError``."""
        ...
