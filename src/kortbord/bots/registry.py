"""One entry point for every computer player of both games: :func:`make_bot` and :data:`LEVELS`.

The terminal games (``kortbord play``), the arena (``kortbord arena``) and the web server make their bots here,
so a level means the same player everywhere.  Levels, weakest first:

* ``random`` -- a uniformly random legal move (:mod:`kortbord.bots.mulle_simple`,
  :mod:`kortbord.bots.cribbage_simple`);
* ``greedy`` -- the one-move heuristic players of the same modules;
* ``strong`` -- the search players of :mod:`kortbord.bots.mulle_strong` and :mod:`kortbord.bots.cribbage_strong`
  (``StrongBot(rules, *, time_budget_ms=150.0, iterations=None)``), imported only when asked for, so a
  terminal game at another level never pays for them.  If a strong module cannot be imported, asking for the
  level raises a ``ValueError`` that says so; :func:`available_levels` lists what can be made right now.

Every bot implements :class:`kortbord.bots.base.Bot`: ``choose(view, legal_moves, rng)``, seeing only its seat's
View.  The seed is not an option here: the caller owns the ``random.Random`` passed to each ``choose``.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from typing import Any, Final

from kortbord.bots.base import Bot

__all__ = ["GAMES", "LEVELS", "OPTIONS", "available_levels", "level_options", "make_bot", "resolve_rules"]

#: The games that have computer players.
GAMES: Final = ("mulle", "cribbage")

#: The levels of each game, weakest first.
LEVELS: Final[dict[str, tuple[str, ...]]] = {
    "mulle": ("random", "greedy", "strong"),
    "cribbage": ("random", "greedy", "strong"),
}

#: Every bot option :func:`make_bot` accepts, with its meaning (the levels that use it are listed by
#: :func:`level_options`).
#: Bounds of the strong bots' effort: a minute of thought or 100000 search iterations per decision is far more
#: than any level needs; past that an arena or a table would seem to hang (and ``inf`` would never end).
MAX_TIME_BUDGET_MS: Final = 60_000
MAX_ITERATIONS: Final = 100_000

OPTIONS: Final[dict[str, str]] = {
    "time_budget_ms": "thinking time per decision in milliseconds (strong; default 150)",
    "iterations": "a fixed number of search iterations per decision instead of a time budget (strong; "
    "reproducible from the seed)",
    "miss_rate": "Cribbage Muggins: chance 0..1 that the bot overlooks one scoring group in its own count",
    "catch_rate": "Cribbage Muggins: chance 0..1 that the bot notices another player's wrong count",
    "board": "Cribbage: play to the board near the end of a two-player game (strong; default true)",
}

_STRONG_MODULE: Final = {"mulle": "kortbord.bots.mulle_strong", "cribbage": "kortbord.bots.cribbage_strong"}
_SIMPLE_OPTIONS: Final[dict[tuple[str, str], tuple[str, ...]]] = {
    ("mulle", "random"): (),
    ("mulle", "greedy"): (),
    ("cribbage", "random"): (),
    ("cribbage", "greedy"): ("miss_rate", "catch_rate"),
}


def _check_game(game: str) -> None:
    if game not in LEVELS:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")


def _check_level(game: str, level: str) -> None:
    _check_game(game)
    if level not in LEVELS[game]:
        raise ValueError(f"unknown {_title(game)} bot level {level!r}; choose one of {', '.join(LEVELS[game])}")


def _title(game: str) -> str:
    return game.capitalize()


def _strong_class(game: str) -> Any:
    """The ``StrongBot`` class of ``game``. Raises ValueError when its module is missing or broken."""
    name = _STRONG_MODULE[game]
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        raise ValueError(
            f"the strong {_title(game)} bot is not available in this installation ({name} could not be "
            f"imported: {exc}); choose random or greedy"
        ) from exc
    cls = getattr(module, "StrongBot", None)
    if cls is None:
        raise ValueError(f"the strong {_title(game)} bot is not available: {name} has no StrongBot")
    return cls


def level_options(game: str, level: str) -> tuple[str, ...]:
    """The option names (keys of :data:`OPTIONS`) the bot of ``game``/``level`` takes.

    For ``strong`` these are read from ``StrongBot``'s signature (so importing its module).

    Raises:
        ValueError: an unknown game or level, or a strong level whose module cannot be imported.
    """
    _check_level(game, level)
    if level != "strong":
        return _SIMPLE_OPTIONS[(game, level)]
    params = inspect.signature(_strong_class(game)).parameters
    return tuple(k for k in OPTIONS if k in params)


def available_levels(game: str) -> tuple[str, ...]:
    """The levels of ``game`` that can be made in this installation (``strong`` only if its module imports).

    Raises:
        ValueError: an unknown game.
    """
    _check_game(game)
    levels = []
    for level in LEVELS[game]:
        try:
            level_options(game, level)
        except ValueError:
            continue
        levels.append(level)
    return tuple(levels)


def resolve_rules(game: str, rules: Any = None) -> Any:
    """The game's ``Rules`` value from ``rules``: a ``Rules`` of that game, a dict for ``Rules.from_dict``
    (e.g. ``{"profile": "standard", "target": 100}``), or None for the default rules.

    Raises:
        ValueError: an unknown game.  InvalidRulesError: a bad rules dict or the other game's Rules.
    """
    _check_game(game)
    from kortbord.errors import InvalidRulesError

    if game == "mulle":
        from kortbord.mulle.rules import Rules as MulleRules

        if rules is None:
            return MulleRules()
        if isinstance(rules, Mapping):
            return MulleRules.from_dict(rules)
        if not isinstance(rules, MulleRules):
            raise InvalidRulesError(f"Mulle bots need Mulle rules, got {type(rules).__module__}.{type(rules).__name__}")
        return rules
    from kortbord.cribbage.rules import Rules as CribbageRules

    if rules is None:
        return CribbageRules()
    if isinstance(rules, Mapping):
        return CribbageRules.from_dict(dict(rules))
    if not isinstance(rules, CribbageRules):
        raise InvalidRulesError(
            f"Cribbage bots need Cribbage rules, got {type(rules).__module__}.{type(rules).__name__}"
        )
    return rules


def make_bot(
    game: str,
    level: str,
    rules: Any = None,
    *,
    time_budget_ms: float | None = None,
    iterations: int | None = None,
    miss_rate: float | None = None,
    catch_rate: float | None = None,
    board: bool | None = None,
) -> Bot[Any]:
    """A computer player of ``game`` (``"mulle"`` or ``"cribbage"``) at ``level`` (one of :data:`LEVELS`).

    Args:
        game: ``"mulle"`` or ``"cribbage"``.
        level: ``"random"``, ``"greedy"`` or ``"strong"``.
        rules: the game's ``Rules``, a rules dict (``Rules.from_dict``) or None (the default rules).  Mulle bots
            are given the rules (the View does not carry them); Cribbage Views carry theirs.
        time_budget_ms: strong: milliseconds of thought per decision (None: the bot's default, 150 ms).
        iterations: strong: a fixed number of search iterations per decision (None: use the time budget);
            with it a decision depends only on the view, the moves and the rng, so it is reproducible.
        miss_rate, catch_rate: Cribbage Muggins behaviour (greedy, and strong if it takes them; None: defaults).
        board: Cribbage strong: play to the board near the end of a two-player game (None: the default, on).
    Options a level does not use are ignored (an arena of ``strong,greedy`` passes one time budget to both),
    but they are still checked: a negative budget, zero iterations or a rate outside 0..1 is refused.
    Returns:
        A :class:`kortbord.bots.base.Bot`.
    Raises:
        ValueError: an unknown game or level, a bad option value, or a strong level whose module cannot be
            imported (the message says so and names the levels that work).
        InvalidRulesError: bad ``rules``.
    """
    _check_level(game, level)
    given: dict[str, Any] = {
        k: v
        for k, v in (
            ("time_budget_ms", time_budget_ms),
            ("iterations", iterations),
            ("miss_rate", miss_rate),
            ("catch_rate", catch_rate),
            ("board", board),
        )
        if v is not None
    }
    if "time_budget_ms" in given and (
        isinstance(time_budget_ms, bool)
        or not isinstance(time_budget_ms, int | float)
        or not 0 < time_budget_ms <= MAX_TIME_BUDGET_MS  # also refuses nan and inf
    ):
        raise ValueError(
            f"time_budget_ms must be a number of milliseconds above 0 and at most {MAX_TIME_BUDGET_MS},"
            f" got {time_budget_ms!r}"
        )
    if "iterations" in given and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS
    ):
        shown = repr(iterations) if len(repr(iterations)) <= 24 else repr(iterations)[:20] + "..."
        raise ValueError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS}, got {shown}")
    if "board" in given and not isinstance(board, bool):
        raise ValueError(f"board must be true or false, got {board!r}")
    for key in ("miss_rate", "catch_rate"):
        if key in given and (
            isinstance(given[key], bool) or not isinstance(given[key], int | float) or not 0.0 <= given[key] <= 1.0
        ):
            raise ValueError(f"{key} must be a number between 0 and 1, got {given[key]!r}")
    rules = resolve_rules(game, rules)
    takes = level_options(game, level)
    opts = {k: v for k, v in given.items() if k in takes}
    if level == "strong":
        bot: Bot[Any] = _strong_class(game)(rules, **opts)
        return bot
    if game == "mulle":
        from kortbord.bots import mulle_simple

        return mulle_simple.make_bot(level, rules)
    from kortbord.bots import cribbage_simple

    return cribbage_simple.make_bot(level, **opts)
