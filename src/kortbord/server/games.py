"""The two games behind one small interface for the server: rules from a request, the pure engine functions,
views as JSON (per seat and public), legal moves with structured fields, results, and the bots.

The server is a client of the engine API (``docs/engine-api.md``): it never reads a hidden part of a state
except through ``view(state, seat)``.  A spectator's public view is a seat's view with that seat's private parts
(its hand, its own discards, its legal moves) blanked.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from kortbord import cribbage, mulle
from kortbord.cards import Card
from kortbord.errors import InvalidRulesError

__all__ = ["GAMES", "GameKind", "move_json"]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def move_json(move: Any) -> dict[str, Any]:
    """A legal move for the client: ``{"notation": str(move), "kind": "capture"|"play"|..., **fields}`` with
    every card in notation (``"9H"``) and tuples as lists."""
    out: dict[str, Any] = {"notation": str(move), "kind": type(move).__name__.lower()}
    for f in dataclasses.fields(move):
        out[f.name] = _jsonable(getattr(move, f.name))
    return out


@dataclass(frozen=True)
class GameKind:
    """One game as the server drives it.

    Attributes:
        name: ``"mulle"`` or ``"cribbage"``.  engine: the engine package (``new_game``, ``step``, ...).
        rules_version: the engine's ``RULES_VERSION``.  private_keys: the keys of a seat's ``View.to_json()``
            that belong to that seat alone and are blanked in the public view.
    """

    name: str
    engine: ModuleType
    rules_version: str
    private_keys: tuple[tuple[str, Any], ...]
    _make_rules: Callable[[dict[str, Any], int, bool], tuple[Any, dict[str, Any], bool, list[str]]]
    _new_state: Callable[[Any, int, bool], Any]
    _result: Callable[[Any], dict[str, Any]]
    _make_bot: Callable[[str, Any], Any]
    bot_levels: tuple[str, ...]

    def make_rules(
        self, data: dict[str, Any], players: int, teams: bool
    ) -> tuple[Any, dict[str, Any], bool, list[str]]:
        """Rules from the lobby's option overrides: ``(rules, rules_dict, teams, notices)``.

        Raises:
            InvalidRulesError: an unknown option, a bad value or player count (the message says which).
        """
        return self._make_rules(data, players, teams)

    def new_state(self, rules: Any, players: int, teams: bool) -> Any:
        """The game before its first chance step. Raises InvalidRulesError."""
        return self._new_state(rules, players, teams)

    def view_json(self, state: Any, seat: int | None) -> dict[str, Any]:
        """``view(state, seat).to_json()``; for ``seat=None`` the public view: seat 0's view with the private
        keys blanked and ``"seat": null`` (hand, own discards and legal moves are never in it)."""
        if seat is not None:
            out: dict[str, Any] = self.engine.view(state, seat).to_json()
            return out
        public: dict[str, Any] = self.engine.view(state, 0).to_json()
        public["seat"] = None
        for key, blank in self.private_keys:
            if key in public:
                public[key] = blank() if callable(blank) else blank
        return public

    def result_json(self, state: Any) -> dict[str, Any] | None:
        """The result once the game is over, else ``None``."""
        return self._result(state) if self.engine.is_over(state) else None

    def make_bot(self, level: str, rules: Any) -> Any:
        """A bot (``kortbord.bots``) of ``level`` for this game. Raises ValueError for an unknown level."""
        return self._make_bot(level, rules)


# -- Mulle ------------------------------------------------------------------------------------------------------
def _mulle_rules(data: dict[str, Any], players: int, teams: bool) -> tuple[Any, dict[str, Any], bool, list[str]]:
    rules = mulle.Rules.from_dict(data)
    mulle.new_game(rules, players=players, teams=teams)  # validates the player count and the deal format
    return rules, rules.to_dict(), teams, []


def _mulle_result(state: Any) -> dict[str, Any]:
    r = mulle.result(state)
    return {
        "winners": list(r.winners),
        "scores": list(r.scores),
        "rounds": [list(x) for x in r.rounds],
        "lowest_wins": r.lowest_wins,
        "draw": not r.winners,
    }


# -- Cribbage ---------------------------------------------------------------------------------------------------
def _cribbage_rules(data: dict[str, Any], players: int, teams: bool) -> tuple[Any, dict[str, Any], bool, list[str]]:
    if "players" in data and data["players"] != players:
        raise InvalidRulesError(f"rules say {data['players']!r} players but the table has {players} seats")
    rules = cribbage.Rules.from_dict({**data, "players": players})
    if teams and not rules.partnership:
        raise InvalidRulesError("partnership play needs 4 players (spec §2.2)")
    return rules, rules.to_dict(), bool(rules.partnership), list(rules.notices)


def _mulle_bot(level: str, rules: Any) -> Any:
    from kortbord.bots import registry

    return registry.make_bot("mulle", level, rules)


def _cribbage_bot(level: str, rules: Any) -> Any:
    from kortbord.bots import registry

    return registry.make_bot("cribbage", level, rules)


def _levels(game: str) -> tuple[str, ...]:
    """The computer levels the table offers, weakest first (``kortbord.bots.registry``; the same players as in
    the terminal games and the arena)."""
    from kortbord.bots import registry

    return tuple(registry.available_levels(game))


GAMES: Final[dict[str, GameKind]] = {
    "mulle": GameKind(
        name="mulle",
        engine=mulle,
        rules_version=mulle.RULES_VERSION,
        private_keys=(("hand", list), ("legal_moves", list)),
        _make_rules=_mulle_rules,
        _new_state=lambda rules, players, teams: mulle.new_game(rules, players=players, teams=teams),
        _result=_mulle_result,
        _make_bot=_mulle_bot,
        bot_levels=_levels("mulle"),
    ),
    "cribbage": GameKind(
        name="cribbage",
        engine=cribbage,
        rules_version=cribbage.RULES_VERSION,
        private_keys=(("hand", list), ("discards", list), ("legal_moves", list)),
        _make_rules=_cribbage_rules,
        _new_state=lambda rules, players, teams: cribbage.new_game(rules),
        _result=lambda state: cribbage.result(state).to_json(),
        _make_bot=_cribbage_bot,
        bot_levels=_levels("cribbage"),
    ),
}


def run_chance(kind: GameKind, state: Any, rng: random.Random) -> tuple[Any, list[dict[str, Any]]]:
    """Resolve every chance step due at ``state`` with ``rng``: ``(state, public events as JSON)``."""
    eng = kind.engine
    events: list[dict[str, Any]] = []
    while eng.is_chance(state):
        state, evs = eng.step(state, eng.chance_outcome(state, rng))
        events.extend(e.to_json() for e in evs)
    return state, events
