"""Game parameters of the research adapters (shared by :mod:`kortbord.openspiel` and :mod:`kortbord.pettingzoo`,
importable without either framework) and the observation string.

Every parameter has ONE fixed type, derived from the game's option schema (:class:`kortbord.contract.Option`) by
:func:`param_type`, so that a game's parameters survive OpenSpiel's game string (``str(game)`` then
``pyspiel.load_game(str(game))``, which is also how OpenSpiel pickles a game and a state):

=================  ===========  =======================================================================
option type        parameter    example
=================  ===========  =======================================================================
``bool``           ``bool``     ``pure_mulle=True``, ``muggins=False``
``int``            ``int``      ``hand_size=8``; an int option whose default is ``None`` (Cribbage
                                ``skunk_line``) is ``-1`` for ``None`` (the ACC default for the target)
``choice``         ``str``      ``capture_duty=player``; a choice whose choices are all ints (Cribbage
                                ``players``, ``target``) or all bools (Mulle ``jokers``) is ``int`` / ``bool``
``choice_or_int``  ``str``      with a prefix: the int written with it, or a word -- Mulle ``game_length``
                                ``"target:100"`` / ``"single_round"`` / ``"each_deals_once"``
``choice_or_int``  ``int``      without a prefix: the int, or ``-1`` for its word (``-2`` for a second
                                word ...) -- Mulle ``max_found_cards`` ``2``..``16``, ``-1`` = ``"unlimited"``
=================  ===========  =======================================================================

Why a prefix-less ``choice_or_int`` is an int and not a string such as ``"4"``: OpenSpiel's game-string parser
reads every all-digit value as an int (``max_found_cards=4`` is ``4``, never ``"4"``) and ``load_game`` checks
each parameter's type against the specification before the game's constructor runs, so a string parameter that
may hold ``"4"`` can never be loaded back from ``str(game)`` (the ``SpielError: Wrong type for parameter
max_found_cards`` that broke pickling).  ``-1`` for "no number" is OpenSpiel's own convention and this adapter's
(``first_dealer``, ``skunk_line``).  Where no OpenSpiel check stands between (``KortbordGame(params)``,
:func:`mulle_spec`, the PettingZoo ``mulle_env(**params)``) the words and digit strings are accepted too
(``"unlimited"`` -> ``-1``, ``"4"`` -> ``4``; Mulle ``game_length`` ``200`` -> ``"target:200"``) and stored in the
parameter's type, so the parameters of ``pyspiel.load_game(str(game))`` equal those of ``game`` exactly.  Any
other value of the wrong type raises ``ValueError`` naming the parameter.

Besides the rule options each game has table parameters: ``players`` (Mulle; Cribbage's is a rule option),
Mulle ``teams``, ``first_dealer`` (-1: drawn by chance), ``utility`` and Mulle ``max_actions`` and
``max_rounds`` (see ``docs/research.md``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kortbord import core
from kortbord.contract import Option
from kortbord.research import encoding as enc
from kortbord.research.games import RESEARCH
from kortbord.research.table import Setup, Table

__all__ = [
    "CRIBBAGE_OPTIONS",
    "CRIBBAGE_PARAMETERS",
    "MULLE_OPTIONS",
    "MULLE_PARAMETERS",
    "OPTIONS",
    "PARAMETERS",
    "make_setup",
    "observation_text",
    "param_type",
    "parameters",
    "typed_parameters",
]

_KIND_WORDS: Final[dict[type, str]] = {bool: "a bool", int: "an int", str: "a str"}

#: A ``None`` default of an int option (Cribbage ``skunk_line``: "the ACC default") as an OpenSpiel parameter.
NONE_INT: Final = -1


# ------------------------------------------------------------------------------------------------ types
def param_type(option: Option) -> type:
    """The one OpenSpiel parameter type of ``option``: ``bool``, ``int`` or ``str`` (see the module docstring).

    Args:
        option: a rule option (``kortbord.contract.Option``); ``option.type`` is ``"bool"``, ``"int"``,
            ``"choice"`` or ``"choice_or_int"``.

    Returns:
        ``bool`` for a bool option or a choice of bools; ``int`` for an int option, a choice of ints and a
        ``choice_or_int`` without a prefix (its words are ``-1``, ``-2``, ...); ``str`` for any other choice and
        a ``choice_or_int`` with a prefix (``"target:200"``, ``"single_round"``).

    Raises:
        ValueError: an unknown ``option.type``.
    """
    if option.type == "bool":
        return bool
    if option.type == "int":
        return int
    if option.type == "choice_or_int":
        return str if option.prefix else int
    if option.type == "choice":
        kinds = {type(c) for c in option.choices}
        if kinds == {bool}:
            return bool
        if kinds == {int}:
            return int
        return str
    raise ValueError(f"option {option.key!r} has an unknown type {option.type!r}")


def _param_default(option: Option) -> Any:
    """``option.default`` as a parameter value of :func:`param_type`."""
    if option.type == "int" and option.default is None:
        return NONE_INT
    if option.type == "choice_or_int":
        return _choice_or_int_param(option, option.default)
    return option.default


def _choice_or_int_param(option: Option, value: Any) -> Any:
    """A ``choice_or_int`` value (a word, an int, its digits, ``prefix`` + digits, or for a prefix-less option
    a word's number ``-1``, ``-2`` ...) as its parameter: with a prefix the word or ``prefix + str(N)``, without
    one the int or the word's number.  Raises ValueError for anything else."""
    words = tuple(option.choices)
    if not option.prefix:
        assert option.minimum is not None and option.minimum >= 0, option.key  # the words' numbers stay free
        if (isinstance(value, str) or value is None) and value in words:  # a word (None: "the default line")
            return -1 - words.index(value)
        if isinstance(value, int) and not isinstance(value, bool) and -len(words) <= value < 0:
            return value
    elif isinstance(value, str) and value in words:
        return value
    digits = value
    if isinstance(value, str) and option.prefix and value.startswith(option.prefix):
        digits = value[len(option.prefix) :]
    if isinstance(digits, str) and digits.isascii() and digits.isdigit():
        digits = int(digits)
    if isinstance(digits, int) and not isinstance(digits, bool) and digits >= 0:
        return f"{option.prefix}{digits}" if option.prefix else digits
    names = ", ".join(f"{w!r}" + ("" if option.prefix else f" (or {-1 - i})") for i, w in enumerate(words))
    raise ValueError(
        f"parameter {option.key!r} must be {names} or an integer"
        f"{' written ' + option.prefix + 'N' if option.prefix else ''}; got {value!r}"
    )


def _coerce(option: Option, value: Any) -> Any:
    """``value`` as the parameter type of ``option`` (see :func:`_choice_or_int_param`).  Raises ValueError for a
    value of another type."""
    if option.type == "choice_or_int":
        return _choice_or_int_param(option, value)
    kind = param_type(option)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        low, high = option.minimum, option.maximum
        if option.type == "int" and ((low is not None and value < low) or (high is not None and value > high)):
            raise ValueError(
                f"parameter {option.key!r} must be {'' if low is None else f'>= {low}'}"
                f"{' and ' if low is not None and high is not None else ''}{'' if high is None else f'<= {high}'};"
                f" got {value!r}"
            )
        return value
    if kind is not int and isinstance(value, kind):
        return value
    raise ValueError(f"parameter {option.key!r} must be {_KIND_WORDS[kind]}; got {value!r}")


def _rule_value(option: Option, value: Any) -> Any:
    """A typed parameter value as the engine's ``Rules`` value: ``-1`` -> ``None`` for an int option whose
    default is ``None``; a prefix-less ``choice_or_int``'s negative number -> its word (``-1`` ->
    ``"unlimited"``); a prefixed one is the engine's string itself (``"target:200"``)."""
    if option.type == "int" and option.default is None and value == NONE_INT:
        return None
    if option.type == "choice_or_int" and not option.prefix and value < 0:
        return option.choices[-1 - value]
    return value


def parameters(options: Sequence[Option]) -> dict[str, Any]:
    """The OpenSpiel parameter specification of ``options``: ``{key: default}`` with every default of its
    :func:`param_type` (OpenSpiel takes each parameter's type from its default).

    Raises:
        ValueError: two options with one key, or an unknown option type.
    """
    out: dict[str, Any] = {}
    for option in options:
        if option.key in out:
            raise ValueError(f"parameter {option.key!r} is declared twice")
        default = _param_default(option)
        assert type(default) is param_type(option), (option.key, default)
        out[option.key] = default
    return out


def typed_parameters(options: Sequence[Option], params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every parameter of ``options``: the defaults (:func:`parameters`) updated with ``params``, each value of
    its :func:`param_type` (an int read from a game string for a ``choice_or_int`` turned back into its string).

    Raises:
        ValueError: an unknown parameter, or a value of the wrong type (the message names the parameter).
    """
    by_key = {o.key: o for o in options}
    out = parameters(options)
    for key, value in (params or {}).items():
        option = by_key.get(key)
        if option is None:
            raise ValueError(f"unknown parameter {key!r}; known: {', '.join(by_key)}")
        out[key] = _coerce(option, value)
    return out


def _rules_dict(options: Sequence[Option], p: Mapping[str, Any]) -> dict[str, Any]:
    """The ``Rules.from_dict`` input of typed parameters ``p``: the profile (when the game has one) and every rule
    option whose parameter differs from its default (an option left at its default takes the profile's value)."""
    rules: dict[str, Any] = {}
    for option in options:
        value = p[option.key]
        if option.key == "profile" or value != _param_default(option):
            rules[option.key] = _rule_value(option, value)
    return rules


# --------------------------------------------------------------------------------------- option schemas
def _rules_options(game: str) -> tuple[Option, ...]:
    """The rule options of ``game``: its one declaration, the registry entry's ``option_schema()``."""
    return tuple(core.get(game).option_schema())


#: Rule options the adapters derive instead of taking as parameters: Cribbage ``partnership`` is exactly
#: ``players == 4`` (spec §2.2).
_DERIVED: Final = frozenset({"partnership"})

_MULLE_RULE_OPTIONS: Final = tuple(o for o in _rules_options("mulle") if o.key not in _DERIVED)
_CRIBBAGE_RULE_OPTIONS: Final = tuple(o for o in _rules_options("cribbage") if o.key not in _DERIVED)

_UTILITY: Final = Option("utility", "choice", "win_loss", ("win_loss", "score_diff"))
_FIRST_DEALER: Final = Option("first_dealer", "int", -1, minimum=-1, maximum=3)

#: Every parameter of ``kortbord_mulle``: the table's, then the rule options.
MULLE_OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", "int", 2, minimum=2, maximum=4),
    Option("teams", "bool", False),
    _FIRST_DEALER,
    _UTILITY,
    Option("max_actions", "int", enc.MULLE_DEFAULT_MAX_ACTIONS, minimum=1),
    Option("max_rounds", "int", 100, minimum=1),
    *_MULLE_RULE_OPTIONS,
)
#: Every parameter of ``kortbord_cribbage`` (four players always play as partners, seats 0+2 against 1+3).
CRIBBAGE_OPTIONS: Final[tuple[Option, ...]] = (*_CRIBBAGE_RULE_OPTIONS, _FIRST_DEALER, _UTILITY)

#: Game parameters of ``kortbord_mulle`` with their defaults (the engine's ``standard`` rules).
MULLE_PARAMETERS: Final[dict[str, Any]] = parameters(MULLE_OPTIONS)
#: Game parameters of ``kortbord_cribbage`` (``skunk_line``/``double_skunk_line`` -1 = the ACC default for the
#: target).
CRIBBAGE_PARAMETERS: Final[dict[str, Any]] = parameters(CRIBBAGE_OPTIONS)


#: Every game's parameters, by game name.
OPTIONS: Final[dict[str, tuple[Option, ...]]] = {"mulle": MULLE_OPTIONS, "cribbage": CRIBBAGE_OPTIONS}
#: Every game's parameter defaults, by game name.
PARAMETERS: Final[dict[str, dict[str, Any]]] = {"mulle": MULLE_PARAMETERS, "cribbage": CRIBBAGE_PARAMETERS}


# ------------------------------------------------------------------------------------------------ setups
def make_setup(name: str, params: Mapping[str, Any] | None = None) -> Setup:
    """The research :class:`~kortbord.research.table.Setup` of game ``name`` (``"mulle"``, ``"cribbage"``) for
    OpenSpiel-style parameters (missing keys take :data:`PARAMETERS` ``[name]``): the rules are made by the game's
    registry entry (``kortbord.core.get(name).make_rules``) from the rule options that differ from their
    defaults; ``players``, Mulle ``teams``, ``first_dealer`` (-1: by chance), Mulle ``max_actions`` and
    ``max_rounds`` set the table.

    Raises:
        ValueError: an unknown parameter or a value of the wrong type.
        InvalidRulesError: an unknown game, a bad rule option or combination (from the engine).
    """
    game = core.get(name)
    options = OPTIONS[name]
    p = typed_parameters(options, params)
    rule_keys = {o.key for o in game.option_schema()}
    rule_options = tuple(o for o in options if o.key in rule_keys)
    players = p["players"]
    teams = bool(p.get("teams", False))
    rules = game.make_rules(_rules_dict(rule_options, p), players=players, teams=teams)
    return Setup(
        game=game,
        research=RESEARCH[name],
        rules=rules,
        players=players,
        teams=teams,
        dealer=None if p["first_dealer"] < 0 else p["first_dealer"],
        max_actions=p.get("max_actions", 0),
        max_rounds=p.get("max_rounds", 0),
    )


def observation_text(table: Table, seat: int, *, private: bool = True) -> str:
    """The observation string: ``seat``'s view as compact JSON (legal moves and round history left out;
    without ``private`` also the own hand and discards)."""
    d = table.view(seat).to_json()
    for key in ("legal_moves", "round_log", "notices", "rules"):
        d.pop(key, None)
    if not private:
        for key in ("hand", "discards"):
            d.pop(key, None)
    return json.dumps(d, separators=(",", ":"))
