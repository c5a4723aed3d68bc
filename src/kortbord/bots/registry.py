"""One entry point for every computer player of every game: :func:`make_bot` and the table :data:`BOTS`.

The terminal games (``kortbord play``), the arena (``kortbord arena``) and the web server make their bots here,
so a level means the same player everywhere.  :data:`BOTS` has one entry per game of the registry
(``kortbord.core.GAMES``), keyed by the game's name; each lists the game's levels, weakest first:

* ``random`` -- a uniformly random legal move (:mod:`kortbord.bots.mulle_simple`,
  :mod:`kortbord.bots.cribbage_simple`);
* ``beginner``, ``casual`` -- the levels for people (:mod:`kortbord.bots.mulle_people`,
  :mod:`kortbord.bots.cribbage_people`): the greedy judgement with human-like mistakes at stated rates
  (:attr:`Level.preset`: ``slip_rate`` a worse move among the plausible ones, ``overlook_rate`` a missed capture or
  build in Mulle, a missed pegging point in Cribbage; Cribbage Muggins ``miss_rate`` one scoring group overlooked in
  its own count, ``catch_rate`` another player's miscount noticed), every mistake drawn from the rng passed in;
* ``greedy`` -- the one-move heuristic players of the simple modules (a research and arena anchor, like
  ``random``);
* ``strong`` -- the search players of :mod:`kortbord.bots.mulle_strong` and :mod:`kortbord.bots.cribbage_strong`
  (``StrongBot(rules, *, iterations=None, time_budget_ms=None, ...)``), imported only when asked for, so a
  terminal game at another level never pays for them;
* ``expert`` -- Mulle: strong's search with its candidates raced over at most 200 worlds
  (:func:`kortbord.bots.mulle_expert.make_expert`); Cribbage: strong's discard and an exact search of the pegging
  over the hands the opponent may hold, its play learnt from the cards it has laid in the game
  (:class:`kortbord.bots.cribbage_expert.ExpertBot`; it watches the table: the drivers tell it the game's public
  events, :func:`observes`).  Measured against greedy and an outside player in docs/bots.md.

The levels offered to people are :data:`PLAYER_LEVELS` (:func:`player_levels`); each level of :data:`BOTS` is
described in plain words, English and Swedish, by the catalogue entry ``levels.<game>.<level>``
(``kortbord/i18n/common.json``), which :func:`describe` fills with the level's rates; :func:`miscounts` gives a
Cribbage level's Muggins rates (the lobby and the terminal read these).

A search level is a fixed amount of *work* (:attr:`Level.work`: Mulle 150 sampled worlds a decision, expert at
most 200; Cribbage 5,000 search nodes over at most 1,000 sampled deals a play decision, expert 64 of the
opponent's hands and at most 24,000 nodes, twice both near the end), never a time: the same seed gives the same
decisions on a busy or an idle machine.  A time limit (``time_budget_ms``) is only an optional cap a caller (the
web table under load) may add; a capped decision is reported by the bot (``last_stats["capped"]``, the counters
``decisions`` and ``capped``).  If a strong module cannot be imported, asking for the
  level raises a ``ValueError`` that says so; :func:`available_levels` lists what can be made right now.

Rules are made by the game's registry entry (``kortbord.core.get(game).make_rules``).  Every bot implements
:class:`kortbord.bots.base.Bot`: ``choose(view, legal_moves, rng)``, seeing only its seat's View.  The seed is not
an option here: the caller owns the ``random.Random`` passed to each ``choose``.  A third game's bots take one
entry in :data:`BOTS`.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kortbord import core
from kortbord.bots.base import Bot

__all__ = [
    "BOTS",
    "GAMES",
    "LEVELS",
    "OPTIONS",
    "PLAYER_LEVELS",
    "WORK_OPTIONS",
    "Level",
    "available_levels",
    "describe",
    "level_options",
    "level_rates",
    "level_work",
    "make_bot",
    "miscounts",
    "observes",
    "player_levels",
    "resolve_rules",
]


@dataclass(frozen=True)
class Level:
    """How to make one level's bot: ``getattr(import_module(module), factory)``, called as
    ``factory(rules, **options)`` (``level_arg``: ``factory(level, rules, **options)``; ``takes_rules`` False:
    without the rules).

    Attributes:
        module: the bot's module, imported only when the level is asked for.
        factory: the callable in it (a class or a function).
        options: the option names (keys of :data:`OPTIONS`) it takes; ``None``: read from the factory's
            signature (the strong players).
        level_arg: the factory takes the level's name first (the simple modules' ``make_bot(level, ...)``).
        takes_rules: the factory takes the game's ``Rules`` (Cribbage's simple players read theirs from the view).
        work: the level's amount of search per decision, ``(option, value)`` pairs among :data:`WORK_OPTIONS`
            (passed to the factory unless the caller gives a work option of its own, which then replaces all of
            them); empty for the levels that do not search.
        preset: the level's own values of other options, ``(option, value)`` pairs (the mistake rates of the
            levels for people, greedy's Muggins rates), passed to the factory; a caller's value of one of them
            replaces that one.
        muggins: for a level that takes no Muggins rates, its fixed ``(miss_rate, catch_rate)`` (random: honest,
            accepts every count; strong: honest, answers every count perfectly); None: from ``preset``, or the
            game has no Muggins.
        observes: the bot learns from the table (:class:`kortbord.bots.base.Observer`): a driver gives each game
            its own bot and tells it the game's public events (:func:`observes`).
    """

    module: str
    factory: str
    options: tuple[str, ...] | None = ()
    level_arg: bool = False
    takes_rules: bool = True
    work: tuple[tuple[str, int], ...] = ()
    preset: tuple[tuple[str, float], ...] = ()
    muggins: tuple[float, float] | None = None
    observes: bool = False


def _simple(game: str, level: str, options: tuple[str, ...] = (), *, takes_rules: bool = True) -> Level:
    return Level(f"kortbord.bots.{game}_simple", "make_bot", options, level_arg=True, takes_rules=takes_rules)


def _strong(game: str, muggins: tuple[float, float] | None = None, **work: int) -> Level:
    return Level(f"kortbord.bots.{game}_strong", "StrongBot", None, work=tuple(sorted(work.items())), muggins=muggins)


def _people(game: str, *, takes_rules: bool = True, **rates: float) -> Level:
    return Level(
        f"kortbord.bots.{game}_people",
        "make_bot",
        tuple(sorted(rates)),
        level_arg=True,
        takes_rules=takes_rules,
        preset=tuple(sorted(rates.items())),
    )


#: Per game of the registry (``kortbord.core.GAMES``), its levels, weakest first, and how to make each.
BOTS: Final[dict[str, dict[str, Level]]] = {
    "mulle": {
        "random": _simple("mulle", "random"),
        "beginner": _people("mulle", slip_rate=0.30, overlook_rate=0.25),
        "casual": _people("mulle", slip_rate=0.12, overlook_rate=0.10),
        "greedy": _simple("mulle", "greedy"),
        "strong": _strong("mulle", iterations=150),
        "expert": Level("kortbord.bots.mulle_expert", "make_expert", None, work=(("iterations", 200),)),
    },
    "cribbage": {
        "random": dataclasses.replace(_simple("cribbage", "random", takes_rules=False), muggins=(0.0, 0.0)),
        "beginner": _people(
            "cribbage", takes_rules=False, slip_rate=0.30, overlook_rate=0.25, miss_rate=0.30, catch_rate=0.40
        ),
        "casual": _people(
            "cribbage", takes_rules=False, slip_rate=0.12, overlook_rate=0.10, miss_rate=0.15, catch_rate=0.70
        ),
        "greedy": dataclasses.replace(
            _simple("cribbage", "greedy", ("miss_rate", "catch_rate"), takes_rules=False),
            preset=(("catch_rate", 0.9), ("miss_rate", 0.1)),
        ),
        "strong": _strong("cribbage", muggins=(0.0, 1.0), nodes=5_000, iterations=1_000),
        "expert": Level(
            "kortbord.bots.cribbage_expert",
            "ExpertBot",
            None,
            work=(("budget", 24_000), ("hands", 64)),
            muggins=(0.0, 1.0),
            observes=True,
        ),
    },
}

#: The levels offered to people, weakest first, where a game has them (:func:`player_levels`); ``random`` and
#: ``greedy`` stay as research and arena anchors.
PLAYER_LEVELS: Final = ("beginner", "casual", "strong", "expert")

#: The games with Muggins (a rules option ``muggins``), whose levels have miscount rates (:func:`miscounts`).
_MUGGINS_GAMES: Final = frozenset({"cribbage"})

#: The games that have computer players (the registry's names, in its order).
GAMES: Final = tuple(g for g in core.GAMES if g in BOTS)

#: The levels of each game, weakest first.
LEVELS: Final[dict[str, tuple[str, ...]]] = {g: tuple(BOTS[g]) for g in GAMES}

#: Bounds of the strong bots' effort: a minute of thought or 100000 search iterations per decision is far more
#: than any level needs; past that an arena or a table would seem to hang (and ``inf`` would never end).
MAX_TIME_BUDGET_MS: Final = 60_000
MAX_ITERATIONS: Final = 100_000
MAX_NODES: Final = 100_000_000

#: The options that set a level's amount of search (see :attr:`Level.work`).
WORK_OPTIONS: Final = ("iterations", "nodes", "hands", "budget")
#: Bounds of the Cribbage expert's work options (hands drawn; its nodes are bounded by :data:`MAX_NODES`).
MAX_HANDS: Final = 4_096
#: The options that are probabilities 0..1 (mistake and Muggins rates).
_RATE_OPTIONS: Final = ("slip_rate", "overlook_rate", "miss_rate", "catch_rate")

#: Every bot option :func:`make_bot` accepts, with its meaning (the levels that use it are listed by
#: :func:`level_options`).
OPTIONS: Final[dict[str, str]] = {
    "time_budget_ms": "an optional cap on the thinking time per decision in milliseconds (strong, expert; default none: "
    "the level's fixed work); a decision it cuts short is reported and depends on the machine's load",
    "iterations": "search iterations per decision: Mulle sampled worlds (strong default 150, expert at most 200), "
    "Cribbage sampled deals (alone: exactly that many; with nodes: at most); reproducible from the seed",
    "nodes": "Cribbage: search nodes per play decision over all its deals (strong default 5000, with at most 1000 "
    "deals); reproducible from the seed",
    "hands": "Cribbage expert: the opponent's hands its pegging search draws from what it believes of them (default "
    "64; twice as many near the end of the game)",
    "budget": "Cribbage expert: the most search nodes of a pegging decision (default 24000; twice near the end); "
    "over it, the search again on half the hands",
    "slip_rate": "beginner, casual: chance 0..1 of a worse move among the plausible ones (its 2nd or 3rd best "
    "value; in the Cribbage discard: laying away badly)",
    "overlook_rate": "beginner, casual: chance 0..1 of missing its best move when that is a capture or a build "
    "(Mulle) or a card that scores at once in the pegging (Cribbage)",
    "miss_rate": "Cribbage Muggins: chance 0..1 that the bot overlooks one scoring group in its own count",
    "catch_rate": "Cribbage Muggins: chance 0..1 that the bot notices another player's wrong count",
    "board": "Cribbage: play to the board near the end of a two-player game (strong; default true)",
    "peg_weight": "Cribbage strong, an experiment: weight of the pegging table in the discard (two players; "
    "default 0: off, the small pair and low-card term)",
    "play_model": "Cribbage strong, an experiment: temperature of an opponent model of the play -- sampled deals "
    "weighted by how likely the opponent's plays so far were (two players; default 0: off)",
    "reply": "Cribbage strong, an experiment: temperature of an opponent model in the pegging search -- the opponent lays what a "
    "sensible player who cannot see your hand would, instead of the card worst for you (two players; default 0: "
    "off, it minimises)",
    "take": "Cribbage strong, an experiment: the chance 0..1 that the opponent lays the card scoring the most when "
    "one scores -- sampled deals weighted by it (two players; default 0: off)",
    "keep_model": "Cribbage strong, an experiment: temperature of an opponent model of the discard -- sampled deals "
    "weighted by the chance that the opponent kept its four of the six (two players; default 0: off)",
    "resample": "Cribbage strong, an experiment: deals drawn for each one searched, the one searched picked by its "
    "weight (default 1: every deal searched with its weight)",
}


def _check_game(game: str) -> None:
    if game not in BOTS:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")


def _check_level(game: str, level: str) -> Level:
    _check_game(game)
    entry = BOTS[game].get(level)
    if entry is None:
        raise ValueError(f"unknown {_title(game)} bot level {level!r}; choose one of {', '.join(LEVELS[game])}")
    return entry


def _title(game: str) -> str:
    return game.capitalize()


def _factory(game: str, level: str) -> Any:
    """The factory of ``game``/``level``. Raises ValueError when its module is missing or broken."""
    entry = _check_level(game, level)
    try:
        module = importlib.import_module(entry.module)
    except ImportError as exc:
        raise ValueError(
            f"the {level} {_title(game)} bot is not available in this installation ({entry.module} could not be "
            f"imported: {exc}); choose {' or '.join(lv for lv in LEVELS[game] if lv != level)}"
        ) from exc
    factory = getattr(module, entry.factory, None)
    if factory is None:
        raise ValueError(f"the {level} {_title(game)} bot is not available: {entry.module} has no {entry.factory}")
    return factory


def level_options(game: str, level: str) -> tuple[str, ...]:
    """The option names (keys of :data:`OPTIONS`) the bot of ``game``/``level`` takes.

    For ``strong`` these are read from ``StrongBot``'s signature (so importing its module).

    Raises:
        ValueError: an unknown game or level, or a strong level whose module cannot be imported.
    """
    entry = _check_level(game, level)
    if entry.options is not None:
        return entry.options
    params = inspect.signature(_factory(game, level)).parameters
    return tuple(k for k in OPTIONS if k in params)


def level_work(game: str, level: str) -> dict[str, int]:
    """The amount of search per decision that defines ``game``/``level`` (:attr:`Level.work`; empty for the levels
    that do not search), e.g. ``{"iterations": 150}`` for Mulle ``strong``.

    Raises:
        ValueError: an unknown game or level.
    """
    return dict(_check_level(game, level).work)


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


def level_rates(game: str, level: str) -> dict[str, float]:
    """The mistake and Muggins rates that define ``game``/``level`` (:attr:`Level.preset`; probabilities 0..1 by
    option name), e.g. ``{"overlook_rate": 0.1, "slip_rate": 0.12}`` for Mulle ``casual``; empty for a level
    without them.

    Raises:
        ValueError: an unknown game or level.
    """
    return {k: float(v) for k, v in _check_level(game, level).preset if k in _RATE_OPTIONS}


def miscounts(game: str, level: str) -> dict[str, float] | None:
    """The Muggins behaviour of ``game``/``level`` (rules spec ``spec/rules/cribbage.md`` §2.10, §2a):
    ``{"miss_rate": p, "catch_rate": q}`` -- the chance that its own count overlooks one scoring group, and that
    it notices another player's wrong count -- or None for a game without Muggins (Mulle).

    Raises:
        ValueError: an unknown game or level.
    """
    entry = _check_level(game, level)
    if game not in _MUGGINS_GAMES:
        return None
    if entry.muggins is not None:
        miss, catch = entry.muggins
        return {"miss_rate": miss, "catch_rate": catch}
    rates = dict(entry.preset)
    if "miss_rate" not in rates or "catch_rate" not in rates:
        raise ValueError(f"the {level} {_title(game)} level states no Muggins rates (a registry defect)")
    return {"miss_rate": float(rates["miss_rate"]), "catch_rate": float(rates["catch_rate"])}


def observes(game: str, level: str) -> bool:
    """Whether the bot of ``game``/``level`` learns from the table (:attr:`Level.observes`): a driver then makes it
    for one game and tells it every public event of that game (:class:`kortbord.bots.base.TableReader`).

    Raises:
        ValueError: an unknown game or level.
    """
    return _check_level(game, level).observes


def player_levels(game: str) -> tuple[str, ...]:
    """The levels of ``game`` offered to people (:data:`PLAYER_LEVELS` that this installation can make), weakest
    first.

    Raises:
        ValueError: an unknown game.
    """
    return tuple(lv for lv in available_levels(game) if lv in PLAYER_LEVELS)


def _shown(value: Any) -> str:
    """``repr(value)``, cut to about 24 characters (an error message never echoes a huge input)."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "..."


def _one(texts: dict[str, str], lang: str | None) -> Any:
    return texts[lang] if lang is not None else texts


def _percent(rate: float) -> str:
    return f"{100 * rate:g}"


def describe(game: str, level: str, lang: str | None = None, *, muggins: bool = True) -> dict[str, Any]:
    """What a player reads about ``game``/``level``, from the catalogues (``kortbord/i18n/common.json``).

    Args:
        game, level: a level of :data:`BOTS`.
        lang: ``"en"`` or ``"sv"`` for one language's strings; None for both (``{"en": ..., "sv": ...}``).
        muggins: include what the level does under Muggins in ``text`` (a table without Muggins passes False).
    Returns:
        ``{"game", "level", "name", "text", "muggins_text", "key", "data", "rates", "miscounts", "work",
        "for_people"}``: ``name`` the level's short name (``level.<level>``), ``text`` its plain-words description
        (``levels.<game>.<level>`` filled with ``data``: the rates in percent as strings, ``slip``, ``overlook``,
        ``miss``, ``catch``, and the work, ``iterations``, ``nodes``, ``hands``, ``budget``; then, for a game with Muggins and
        ``muggins``, ``muggins_text``), ``muggins_text`` the Muggins sentence (``levels.<game>.<level>.muggins``;
        None for a game without Muggins), ``rates`` :func:`level_rates`, ``miscounts`` :func:`miscounts`,
        ``work`` :func:`level_work`, ``for_people`` whether it is one of :data:`PLAYER_LEVELS`.
    Raises:
        ValueError: an unknown game, level or language; a level without words (a catalogue defect).
    """
    from kortbord import i18n

    _check_level(game, level)
    langs = i18n.LANGS if lang is None else (lang,)
    if lang is not None and lang not in i18n.LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(i18n.LANGS)}")
    rates = level_rates(game, level)
    mugs = miscounts(game, level)
    data = {
        short: _percent(rates[k]) for short, k in (("slip", "slip_rate"), ("overlook", "overlook_rate")) if k in rates
    }
    if mugs is not None:
        data.update(miss=_percent(mugs["miss_rate"]), catch=_percent(mugs["catch_rate"]))
    data.update({k: str(v) for k, v in level_work(game, level).items()})
    key = f"levels.{game}.{level}"
    try:
        names = {lg: i18n.render(f"level.{level}", {}, lg) for lg in langs}
        texts = {lg: i18n.render(key, data, lg) for lg in langs}
        mug_texts = {lg: i18n.render(key + ".muggins", data, lg) for lg in langs} if mugs is not None else None
    except KeyError as exc:
        raise ValueError(f"the {level} {_title(game)} level has no words in the catalogues ({exc})") from None
    full = {lg: f"{texts[lg]} {mug_texts[lg]}" if mug_texts and muggins else texts[lg] for lg in langs}
    return {
        "game": game,
        "level": level,
        "name": _one(names, lang),
        "text": _one(full, lang),
        "muggins_text": None if mug_texts is None else _one(mug_texts, lang),
        "key": key,
        "data": data,
        "rates": rates,
        "miscounts": mugs,
        "work": level_work(game, level),
        "for_people": level in PLAYER_LEVELS,
    }


def resolve_rules(game: str, rules: Any = None) -> Any:
    """The game's ``Rules`` value from ``rules``: a ``Rules`` of that game, a dict of options for the game's
    ``make_rules`` (``kortbord.core.get(game).make_rules``, e.g. ``{"profile": "standard", "target": 100}``; a
    ``"players"`` key sets the player count), or None for the default rules.

    Raises:
        ValueError: an unknown game.  InvalidRulesError: a bad rules dict or the other game's Rules.
    """
    _check_game(game)
    from kortbord.errors import InvalidRulesError

    spec = core.get(game)
    if rules is None or isinstance(rules, Mapping):
        options = dict(rules or {})
        players = options.pop("players", None)
        if players is None:
            return spec.make_rules(options)
        return spec.make_rules(options, players=players)
    default = type(spec.make_rules(None))
    if not isinstance(rules, default):
        raise InvalidRulesError(
            f"{_title(game)} bots need {_title(game)} rules, got {type(rules).__module__}.{type(rules).__name__}"
        )
    return rules


def make_bot(
    game: str,
    level: str,
    rules: Any = None,
    *,
    time_budget_ms: float | None = None,
    iterations: int | None = None,
    nodes: int | None = None,
    miss_rate: float | None = None,
    catch_rate: float | None = None,
    board: bool | None = None,
    peg_weight: float | None = None,
    play_model: float | None = None,
    reply: float | None = None,
    take: float | None = None,
    keep_model: float | None = None,
    resample: int | None = None,
    slip_rate: float | None = None,
    overlook_rate: float | None = None,
    hands: int | None = None,
    budget: int | None = None,
) -> Bot[Any]:
    """A computer player of ``game`` (a key of :data:`BOTS`) at ``level`` (one of :data:`LEVELS`).

    Args:
        game: the game's registry name (``"mulle"``, ``"cribbage"``).
        level: one of the game's :data:`LEVELS` (``"random"``, ``"beginner"``, ``"casual"``, ``"greedy"``,
            ``"strong"``, ``"expert"``).
        rules: the game's ``Rules``, a rules dict (``Rules.from_dict``) or None (the default rules).  Mulle bots
            are given the rules (the View does not carry them); Cribbage Views carry theirs.
        time_budget_ms: strong, expert: an optional wall-clock cap per decision, milliseconds (None: no cap).  When it
            bites the decision is cut short and reported (the bot's ``last_stats["capped"]`` and ``capped``).
        iterations, nodes: strong: the amount of search per decision (:data:`OPTIONS`); None for both: the
            level's :attr:`Level.work`.  Giving either replaces the level's work as a whole.  Without a cap that
            bites, a decision depends only on the view, the moves and the rng (reproducible on any machine).
        miss_rate, catch_rate: Cribbage Muggins behaviour (beginner, casual, greedy; None: the level's own rates,
            :attr:`Level.preset`).
        slip_rate, overlook_rate: the mistake rates of ``beginner`` and ``casual`` (None: the level's own).
        hands, budget: Cribbage expert: its work per pegging decision (:data:`OPTIONS`; None for every work
            option: the level's).
        board: Cribbage strong: play to the board near the end of a two-player game (None: the default, on).
        peg_weight: Cribbage strong, an experiment: the pegging table's weight in the discard (None: 0, off).
        play_model: Cribbage strong, an experiment: the temperature of the opponent model of the play (None: 0,
            off).
        reply: Cribbage strong, an experiment: the temperature of the opponent model in the pegging search (None: 0, off; the
            search then minimises at the opponent's choices).
        take, keep_model: Cribbage strong, experiments: the opponent models of the play's points and of the
            discard (None: 0, off; :class:`kortbord.bots.cribbage_strong.StrongBot`).
    An option the level does not take is refused (ValueError), except ``time_budget_ms``: a cap, which a level
    that does not search ignores.  Every option given is checked: a negative budget, zero iterations or a rate
    outside 0..1 is refused.
    Returns:
        A :class:`kortbord.bots.base.Bot`.
    Raises:
        ValueError: an unknown game or level, a bad option value, an option the level does not take, or a strong
            level whose module cannot be imported (the message says so and names the levels that work).
        InvalidRulesError: bad ``rules``.
    """
    _check_level(game, level)
    given: dict[str, Any] = {
        k: v
        for k, v in (
            ("time_budget_ms", time_budget_ms),
            ("iterations", iterations),
            ("nodes", nodes),
            ("miss_rate", miss_rate),
            ("catch_rate", catch_rate),
            ("board", board),
            ("peg_weight", peg_weight),
            ("play_model", play_model),
            ("reply", reply),
            ("take", take),
            ("keep_model", keep_model),
            ("resample", resample),
            ("slip_rate", slip_rate),
            ("overlook_rate", overlook_rate),
            ("hands", hands),
            ("budget", budget),
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
        raise ValueError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS}, got {_shown(iterations)}")
    if "nodes" in given and (isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES):
        raise ValueError(f"nodes must be a whole number from 1 to {MAX_NODES}, got {_shown(nodes)}")
    if "hands" in given and (isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS):
        raise ValueError(f"hands must be a whole number from 1 to {MAX_HANDS}, got {_shown(hands)}")
    if "budget" in given and (isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_NODES):
        raise ValueError(f"budget must be a whole number of nodes from 1 to {MAX_NODES}, got {_shown(budget)}")
    if "board" in given and not isinstance(board, bool):
        raise ValueError(f"board must be true or false, got {board!r}")
    if "peg_weight" in given and (
        isinstance(peg_weight, bool) or not isinstance(peg_weight, int | float) or not 0.0 <= peg_weight <= 10.0
    ):
        raise ValueError(f"peg_weight must be a number from 0 to 10, got {peg_weight!r}")
    if "play_model" in given and (
        isinstance(play_model, bool) or not isinstance(play_model, int | float) or not 0.0 <= play_model <= 10.0
    ):
        raise ValueError(f"play_model must be a number from 0 to 10, got {play_model!r}")
    if "reply" in given and (isinstance(reply, bool) or not isinstance(reply, int | float) or not 0.0 <= reply <= 10.0):
        raise ValueError(f"reply must be a number from 0 to 10, got {reply!r}")
    if "take" in given and (isinstance(take, bool) or not isinstance(take, int | float) or not 0.0 <= take < 1.0):
        raise ValueError(f"take must be a number from 0 to below 1, got {take!r}")
    if "keep_model" in given and (
        isinstance(keep_model, bool) or not isinstance(keep_model, int | float) or not 0.0 <= keep_model <= 10.0
    ):
        raise ValueError(f"keep_model must be a number from 0 to 10, got {keep_model!r}")
    if "resample" in given and (
        isinstance(resample, bool) or not isinstance(resample, int) or not 1 <= resample <= 256
    ):
        raise ValueError(f"resample must be a whole number from 1 to 256, got {resample!r}")
    for key in _RATE_OPTIONS:
        if key in given and (
            isinstance(given[key], bool) or not isinstance(given[key], int | float) or not 0.0 <= given[key] <= 1.0
        ):
            raise ValueError(f"{key} must be a number between 0 and 1, got {given[key]!r}")
    rules = resolve_rules(game, rules)
    takes = level_options(game, level)
    # a time cap is only a cap (a level that does not search never needs one); any other option a level does not
    # take would be ignored, a bot the caller did not ask for
    untaken = [k for k in given if k not in takes and k != "time_budget_ms"]
    if untaken:
        uses = ", ".join(takes) or "no options"
        raise ValueError(f"the {game} {level} bot does not take {', '.join(untaken)} (it takes: {uses})")
    entry = BOTS[game][level]
    if not any(k in given for k in WORK_OPTIONS):
        given.update(entry.work)  # the level's definition; the caller's work options replace it as a whole
    given = {**dict(entry.preset), **given}  # the level's rates; a caller's rate replaces that one
    opts = {k: v for k, v in given.items() if k in takes}
    args: tuple[Any, ...] = ((level,) if entry.level_arg else ()) + ((rules,) if entry.takes_rules else ())
    bot: Bot[Any] = _factory(game, level)(*args, **opts)
    return bot
