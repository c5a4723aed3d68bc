"""The arena: computer players against each other, many games, with honest statistics (``kortbord arena``).

One loop plays one whole game of any game of the registry through its entry ``kortbord.core.get(game)`` (the
:class:`~kortbord.contract.GameSpec`: ``new_game``, ``is_chance``, ``chance_outcome``, ``legal_moves``, ``view``,
``apply``/``step``, ``result``, ``side_of``); each bot is made by
:func:`kortbord.bots.registry.make_bot` and receives only ``view(state, seat)``, a fresh list of the legal moves
and its own seeded ``random.Random``; a bot with an ``observe`` method (:class:`kortbord.bots.base.Observer`) is
also told the public events of every step, chance steps included.  The time of every decision is measured with ``time.perf_counter`` around
``choose`` alone.  A bot that raises or returns a move that is not legal is *not* corrected: the game stops and is
reported as a bot error (it counts in no statistic, and ``kortbord arena`` exits with status 1).

**Seats and deals.**  With ``k`` bot specs for ``n`` seats (``k == n``; or ``k == 2`` in team play -- fewer sides
than seats: Mulle 4 players with teams, Cribbage 4 players -- where partners are the same bot; with ``k == n`` there
partners are two bots, each credited with its side's score and result), game ``i`` puts spec ``j`` in every
seat ``s`` with ``(s - i) % k == j``: with two players bot A sits in seat ``i % 2``.  The ``k`` games of a block
``i // k`` draw their shuffles from the same generator, so each bot plays every seat of the same sequence of
decks (duplicate style; the dealer seat is the same, so the cards one bot held the other holds next).  Run a
multiple of ``k`` games for full fairness.  Seeds: the shuffles of block ``b`` come from
``random.Random(f"kortbord-arena:{seed}:deals:{b}")``, the bot in seat ``s`` of game ``i`` draws from
``random.Random(f"kortbord-arena:{seed}:game:{i}:seat:{s}")``.  With bots in ``iterations`` mode (no clock in
any decision) the same seed gives the same games, whatever the number of processes.

**Figures** (per bot spec; :func:`summarize`):

* wins, losses, draws (a game whose winners include another side too, or none -- a Mulle draw, a shared Lowball
  win -- is a draw); the *win rate* counts a draw as half a win: ``(wins + draws / 2) / games``, with the Wilson
  95% score interval (:func:`wilson`) over the games;
* points per round, for a game whose result lists its rounds (``result.to_json()["rounds"]``, per round each
  side's breakdown with its ``total``; Mulle: the side's round total of spec §2.11: card points, mulles, tabbar),
  mean with a normal 95% interval over rounds;
* points per deal as dealer and as pone, for a game whose chance steps announce a deal and its dealer (a
  ``deal`` event with a ``dealer``: Cribbage).  The points of a deal are the change of each side's score (the
  spectator's view: ``side_scores``, else ``scores``) from the deal's shuffle to the next shuffle; in Cribbage: for the dealer's side his heels, its pegging, its hand(s) and the
  crib; for a pone's side its pegging and hand(s); under Muggins the points taken or given back by muggins and
  overcount calls in that deal too.  Only *complete* deals count: the deal in which the game ends is cut short
  by the rules (play stops at the target), so it is left out and reported as ``cut_short``.  The arena also
  reports the mean over every complete deal of the dealer's side and of the pone side(s), whoever the bots are;
* decision times in milliseconds: p50, p95 (linear interpolation between order statistics), max and mean, of
  every decision and per kind of decision: the phase of the bot's view (Mulle ``play``; Cribbage ``discard``,
  ``pegging`` -- its ``play`` phase by the standard term -- and the Muggins ``show``).

* **duplicate deals** (two bot specs: the games ``2b`` and ``2b + 1`` of a block are the same deals with the seats
  swapped; :func:`duplicate`): every deal (Cribbage) or round (Mulle) that both games of a block played in full
  with the same dealer is a *pair*, and the pair's difference is the unit, so the luck of the cards cancels.  Per
  seat (Cribbage: the dealer's side and the pone's side; Mulle: each side, seat ``s`` of two players), the unit is
  bot A's points in that seat minus bot B's points in that seat with the same cards; the *margin* is the mean of
  the seats' differences: how many points a deal (a round) bot A scores more than bot B.  Only the deals both
  games reached count (the deal a game ends in is cut short, and one game of a block may last longer).

Intervals of means over rounds or deals are ``mean ± 1.96 · s / sqrt(n)``; rounds and deals of one game are not
independent, so read them as indications.  The duplicate intervals are cluster-robust (:func:`cluster_mean_ci`:
each block of two games is one cluster, however many pairs it holds), so they are sound although the deals of a
game hang together; with the game-level Wilson interval they are the firm figures.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import difflib
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final

from kortbord import core
from kortbord.bots import registry
from kortbord.bots.base import Bot, Observer
from kortbord.contract import GameSpec

__all__ = [
    "ArenaConfig",
    "BotSpec",
    "GameRecord",
    "cluster_mean_ci",
    "duplicate",
    "option_text",
    "parse_option_value",
    "percentile",
    "play_game",
    "run_arena",
    "seat_specs",
    "summarize",
    "wilson",
]

#: A safety limit: a game with more decisions than this stops as an error (no rules game comes near it).
MAX_DECISIONS: Final = 200_000
_Z95: Final = 1.959963984540054
_SPEC_OPTIONS: Final = frozenset(registry.OPTIONS)
#: The name of a decision kind where the standard term differs from the view's phase (game, phase) -> kind.
_DECISION_KINDS: Final[dict[tuple[str, str], str]] = {("cribbage", "play"): "pegging"}

BotFactory = Callable[["BotSpec", str, Any], Bot[Any]]
Watcher = Callable[[Any, int, Any, Sequence[Any]], None]


# ---------------------------------------------------------------------------------------------------- configuration
def parse_option_value(text: str) -> Any:
    """A command-line option value: ``true``/``false`` -> bool, ``null``/``none`` -> None, an integer, a float,
    else the text itself (``"target:100"``, ``"cardgames.zone"``)."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def option_text(value: Any) -> str:
    """An option's value as it is written on the command line (:func:`parse_option_value` reads it back):
    ``true``/``false``, a whole float without ``.0``, else ``str``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A bot to seat: a level of :data:`kortbord.bots.registry.LEVELS` and its options.

    Attributes:
        level: ``random``, ``greedy`` or ``strong``.
        options: ``(name, value)`` pairs, names from :data:`kortbord.bots.registry.OPTIONS`, sorted.
    """

    level: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """``"strong"`` or ``"strong:iterations=200:time_budget_ms=80"`` (options after colons).

        Raises:
            ValueError: an empty level, an option that is not ``name=value``, not a known bot option or given twice.
        """
        level, *parts = text.strip().split(":")
        if not level:
            raise ValueError(f"no bot level in {text!r}")
        opts: dict[str, Any] = {}
        for part in parts:
            name, sep, value = part.partition("=")
            name = name.strip()
            if not sep or not name:
                raise ValueError(f"bot option {part!r} in {text!r} must be name=value")
            if name not in _SPEC_OPTIONS:
                near = difflib.get_close_matches(name, sorted(_SPEC_OPTIONS), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise ValueError(f"unknown bot option {name!r}{hint}; known: {', '.join(sorted(_SPEC_OPTIONS))}")
            if name in opts:
                raise ValueError(f"bot option {name!r} is given twice in {text!r}")
            opts[name] = parse_option_value(value)
        return cls(level, tuple(sorted(opts.items())))

    def with_defaults(self, **defaults: Any) -> BotSpec:
        """This spec with ``defaults`` for the options it does not set itself (None values are skipped)."""
        opts = {k: v for k, v in defaults.items() if v is not None}
        opts.update(self.options)
        return BotSpec(self.level, tuple(sorted(opts.items())))

    def __str__(self) -> str:
        return ":".join([self.level, *(f"{k}={option_text(v)}" for k, v in self.options)])

    def make(self, game: str, rules: Any) -> Bot[Any]:
        """The bot, from :func:`kortbord.bots.registry.make_bot`. Raises ValueError (see there)."""
        return registry.make_bot(game, self.level, rules, **dict(self.options))


def _default_factory(spec: BotSpec, game: str, rules: Any) -> Bot[Any]:
    return spec.make(game, rules)


@dataclasses.dataclass(frozen=True)
class ArenaConfig:
    """What to play.

    Attributes:
        game: ``"mulle"`` or ``"cribbage"``.
        bots: the bot specs, bot A first.
        games: number of games.
        seed: the master seed (see the module docstring).
        players: seats at the table (2 by default).
        rules: rule options as ``(name, value)`` pairs for the game's ``make_rules`` (``teams`` is a table option
            passed to ``new_game``; the player count comes from :attr:`players`).
    Raises:
        ValueError: an unknown game, no bots, fewer than one game, or a bot/seat combination the arena cannot
            seat fairly; InvalidRulesError: bad rules.
    """

    game: str
    bots: tuple[BotSpec, ...]
    games: int = 100
    seed: int = 0
    players: int = 2
    rules: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.game not in registry.GAMES:
            raise ValueError(f"unknown game {self.game!r}; choose one of {', '.join(registry.GAMES)}")
        if not self.bots:
            raise ValueError("name at least one bot, e.g. --bots strong,greedy")
        for spec in self.bots:
            if spec.level not in registry.LEVELS[self.game]:
                raise ValueError(
                    f"unknown {self.game.capitalize()} bot level {spec.level!r}; choose one of "
                    f"{', '.join(registry.LEVELS[self.game])}"
                )
        if self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games}")
        k, n = len(self.bots), self.players
        if n not in (2, 3, 4):
            raise ValueError(f"{self.game.capitalize()} is played by 2, 3 or 4 players, not {n}")
        names = [key for key, _ in self.rules]
        if "players" in names:
            raise ValueError("set the number of players with --players, not as a rules option")
        if "teams" in names:
            teams = dict(self.rules)["teams"]
            if not isinstance(teams, bool):
                raise ValueError(f"teams must be true or false, got {teams!r}")
            if teams and n != 4:
                raise ValueError(f"teams need 4 players (seats 0+2 against 1+3), not {n}; add --players 4")
        self.make_rules()  # validates the rules
        if not (k == n or (k == 2 and n == 4 and self.team_play)):
            raise ValueError(
                f"{k} bot(s) for {n} seats: name one bot per seat, or two bots for a 4-player team game "
                "(Mulle --option teams=true, Cribbage 4 players)"
            )

    @property
    def spec(self) -> GameSpec:
        """The game's registry entry (``kortbord.core.get(game)``)."""
        return core.get(self.game)

    @property
    def rules_dict(self) -> dict[str, Any]:
        """The rule options as a dict (without the table option ``teams``)."""
        return {k: v for k, v in self.rules if k != "teams"}

    @property
    def teams(self) -> bool:
        """The table asks for teams (the rules option ``teams``, passed to ``new_game``)."""
        return bool(dict(self.rules).get("teams", False))

    @property
    def team_play(self) -> bool:
        """Partners share a bot: the game has fewer sides than seats (Mulle with teams, Cribbage with 4 players)."""
        spec = self.spec
        return spec.sides(self.new_game(self.make_rules())) < self.players

    def make_rules(self) -> Any:
        """The game's ``Rules`` for this arena (``spec.make_rules``). Raises InvalidRulesError."""
        return self.spec.make_rules(self.rules_dict, players=self.players, teams=self.teams)

    def new_game(self, rules: Any) -> Any:
        """A new game under ``rules`` at this arena's table (``spec.new_game``)."""
        return self.spec.new_game(rules, players=self.players, teams=self.teams)

    @property
    def labels(self) -> tuple[str, ...]:
        """``("A:strong", "B:greedy")``: a letter per spec and its level (and options)."""
        return tuple(f"{chr(ord('A') + j)}:{spec}" for j, spec in enumerate(self.bots))

    @property
    def rotation(self) -> int:
        """Games in a block that share the deals (one per seat assignment)."""
        return len(self.bots)


def seat_specs(config: ArenaConfig, index: int) -> tuple[int, ...]:
    """The spec index of every seat in game ``index``: seat ``s`` plays spec ``(s - index) % k`` (``k`` specs),
    so bot A sits in seat ``index % k``."""
    k = len(config.bots)
    return tuple((s - index) % k for s in range(config.players))


# ---------------------------------------------------------------------------------------------------- one game
@dataclasses.dataclass
class GameRecord:
    """What one game produced (JSON-ready through :meth:`to_json`).

    Attributes:
        index: the game's number.  seats: the spec index of each seat.
        sides: the spec index of each scoring side (the spec of its first seat).
        seat_sides: the scoring side of each seat (partners, who may be different specs, share one).
        outcome: per spec, ``"win"``, ``"loss"`` or ``"draw"`` (empty after a bot error).
        scores: final points per side.
        rounds: a game with rounds (Mulle): per round, each side's round total (points).
        deals: a game with deals (Cribbage): per deal ``{"dealer": seat, "points": [per side], "complete": bool}``.
        times: per spec, per decision kind (the view's phase: Mulle ``play``; Cribbage ``discard``, ``pegging``,
            ``show``), the decision times in milliseconds.
        moves: decisions per spec.
        capped: per spec, the decisions a time cap (``time_budget_ms``) cut short (the bot's ``last_stats``).
        error: None, or ``{"bot", "seat", "kind", "move", "message"}`` when a bot failed.
    """

    index: int
    seats: tuple[int, ...]
    sides: tuple[int, ...] = ()
    seat_sides: tuple[int, ...] = ()
    outcome: dict[int, str] = dataclasses.field(default_factory=dict)
    scores: tuple[int, ...] = ()
    rounds: list[list[int]] = dataclasses.field(default_factory=list)
    deals: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    times: dict[int, dict[str, list[float]]] = dataclasses.field(default_factory=dict)
    moves: dict[int, int] = dataclasses.field(default_factory=dict)
    capped: dict[int, int] = dataclasses.field(default_factory=dict)
    error: dict[str, Any] | None = None

    def to_json(self, *, times: bool = False) -> dict[str, Any]:
        """The record as a dict (decision times only when ``times``: they are not reproducible)."""
        d: dict[str, Any] = {
            "index": self.index,
            "seats": list(self.seats),
            "seat_sides": list(self.seat_sides),
            "outcome": {str(k): v for k, v in sorted(self.outcome.items())},
            "scores": list(self.scores),
            "moves": {str(k): v for k, v in sorted(self.moves.items())},
        }
        if self.rounds:
            d["rounds"] = self.rounds
        if self.deals:
            d["deals"] = self.deals
        if self.error is not None:
            d["error"] = self.error
        if times:
            d["times"] = {str(k): v for k, v in sorted(self.times.items())}
            d["capped"] = {str(k): v for k, v in sorted(self.capped.items())}
        return d


class _BotFailure(Exception):
    def __init__(self, info: dict[str, Any]) -> None:
        super().__init__(info["message"])
        self.info = info


def play_game(
    config: ArenaConfig,
    index: int,
    *,
    factory: BotFactory | None = None,
    watch: Watcher | None = None,
) -> GameRecord:
    """Play game ``index`` of ``config`` to its end.

    Args:
        config: the arena.
        index: the game's number (decides the seats and the seeds; see the module docstring).
        factory: makes the bot of a spec (default :meth:`BotSpec.make`); tests pass spies.
        watch: called as ``watch(state, seat, view, legal_moves)`` before every decision (tests, diagnostics:
            it sees the full state, the bot never does).
    Returns:
        The :class:`GameRecord`; a bot that raised or chose an illegal move ends the game with ``error`` set.
    """
    make = factory or _default_factory
    rules = config.make_rules()
    seats = seat_specs(config, index)
    bots = {j: make(spec, config.game, rules) for j, spec in enumerate(config.bots) if j in seats}
    chance_rng = random.Random(f"kortbord-arena:{config.seed}:deals:{index // config.rotation}")
    bot_rngs = [random.Random(f"kortbord-arena:{config.seed}:game:{index}:seat:{s}") for s in range(config.players)]
    record = GameRecord(index=index, seats=seats)
    record.times = {j: {} for j in bots}
    record.moves = dict.fromkeys(bots, 0)
    record.capped = dict.fromkeys(bots, 0)
    try:
        _play(config, rules, record, bots, bot_rngs, chance_rng, watch)
    except _BotFailure as failure:
        record.error = failure.info
        record.outcome = {}
        record.deals = []
    return record


def _announces_deals(spec: GameSpec, state: Any) -> bool:
    """The game's first chance steps announce a deal and its dealer (a ``deal`` event with a ``dealer``)."""
    rng = random.Random(0)
    while spec.is_chance(state):
        state, events = spec.step(state, spec.chance_outcome(state, rng))
        if any(e.kind == "deal" and "dealer" in e.data for e in events):
            return True
    return False


def _side_scores(spec: GameSpec, state: Any) -> tuple[int, ...]:
    """Each side's points now, from the spectator's view (``side_scores`` where ``scores`` are per seat)."""
    public = spec.view(state, None).to_json()
    return tuple(public.get("side_scores", public.get("scores", ())))


def _play(
    config: ArenaConfig,
    rules: Any,
    record: GameRecord,
    bots: Mapping[int, Bot[Any]],
    bot_rngs: Sequence[random.Random],
    chance_rng: random.Random,
    watch: Watcher | None,
) -> None:
    """One game through the registry entry only; fills ``record`` (raises :class:`_BotFailure`)."""
    spec = config.spec
    game = config.game
    state = config.new_game(rules)
    seats = record.seats
    players = config.players
    decisions = 0
    perf = time.perf_counter
    deal: dict[str, Any] | None = None  # the deal being played (its dealer, its sides' scores at the start)
    start: tuple[int, ...] = ()

    def close(now: tuple[int, ...], complete: bool) -> None:
        nonlocal deal
        if deal is not None:
            deal["points"] = [b - a for a, b in zip(start, now, strict=True)]
            deal["complete"] = complete
            record.deals.append(deal)
            deal = None

    observers: list[tuple[int, Observer]] = [(j, bot) for j, bot in bots.items() if isinstance(bot, Observer)]

    def tell(events: Sequence[Any]) -> None:
        # each watching bot gets its own copy (it cannot change what the arena or another bot reads); a bot whose
        # observe raises fails as one whose choose does
        for j, bot in observers:
            try:
                bot.observe(copy.deepcopy(events))
            except Exception as exc:
                seat = seats.index(j)
                raise _BotFailure(
                    _failure(config, j, seat, "exception", None, f"observe: {type(exc).__name__}: {exc}")
                ) from exc

    while not spec.is_over(state):
        if spec.is_chance(state):
            before = state
            state, events = spec.step(state, spec.chance_outcome(state, chance_rng))
            for event in events:
                if event.kind == "deal" and "dealer" in event.data:  # a new deal: the last one was complete
                    now = _side_scores(spec, before)
                    close(now, True)
                    deal, start = {"dealer": event.data["dealer"]}, now
            if observers:
                tell(events)
            continue
        seat = spec.to_act(state)
        assert seat is not None
        legal = spec.legal_moves(state)
        view = spec.view(state, seat)
        if watch is not None:
            watch(state, seat, view, legal)
        j = seats[seat]
        offered = list(legal)
        t0 = perf()
        try:
            move = bots[j].choose(view, offered, bot_rngs[seat])
        except Exception as exc:
            raise _BotFailure(_failure(config, j, seat, "exception", None, f"{type(exc).__name__}: {exc}")) from exc
        ms = (perf() - t0) * 1000.0
        if move not in legal:
            raise _BotFailure(
                _failure(config, j, seat, "illegal move", move, "the bot chose a move that is not legal here")
            )
        phase = str(view.phase)
        kind = _DECISION_KINDS.get((game, phase), phase)
        record.times[j].setdefault(kind, []).append(ms)
        record.moves[j] += 1
        stats = getattr(bots[j], "last_stats", None)
        if isinstance(stats, dict) and stats.get("capped"):
            record.capped[j] += 1
        if observers:
            state, events = spec.step(state, move)
            tell(events)
        else:
            state = spec.apply(state, move)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise _BotFailure(_failure(config, j, seat, "endless game", None, f"over {MAX_DECISIONS} decisions"))
    close(_side_scores(spec, state), False)  # the deal in which the game ended: cut short by the rules
    res = spec.result(state).to_json()
    record.scores = tuple(res["scores"])
    rounds = res.get("rounds")
    if isinstance(rounds, list):
        record.rounds = [[int(side["total"]) for side in round_] for round_ in rounds]
    side_of = [spec.side_of(state, s) for s in range(players)]
    record.seat_sides = tuple(side_of)
    record.sides = tuple(
        next(seats[s] for s in range(players) if side_of[s] == side) for side in range(len(res["scores"]))
    )
    winners = set(res["winners"])  # the winning sides
    for j in set(seats):
        mine = {side_of[s] for s in range(players) if seats[s] == j}
        if not winners:
            record.outcome[j] = "draw"  # no winner (a Mulle draw)
        elif mine & winners:
            # a win shared with another side (a shared Lowball win): a draw; partners share their side's win
            record.outcome[j] = "win" if len(winners) == 1 else "draw"
        else:
            record.outcome[j] = "loss"


def _failure(config: ArenaConfig, j: int, seat: int, kind: str, move: Any, message: str) -> dict[str, Any]:
    return {
        "bot": config.labels[j],
        "seat": seat,
        "kind": kind,
        "move": None if move is None else str(move),
        "message": message,
    }


# ---------------------------------------------------------------------------------------------------- statistics
def wilson(successes: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (Wilson 1927; Newcombe 1998, method 3).

    Args:
        successes: the count of successes (a draw may count half).
        n: the number of trials.
        z: the normal quantile (default 1.96, a 95% interval).
    Returns:
        ``(low, high)`` within 0..1; ``(0.0, 1.0)`` when ``n == 0``.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between order statistics (NumPy's default).

    Raises:
        ValueError: no values.
    """
    if not values:
        raise ValueError("no values")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def _mean_ci(values: Sequence[float]) -> dict[str, Any]:
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "ci95": None}
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = _Z95 * math.sqrt(var / n)
    return {"n": n, "mean": mean, "ci95": [mean - half, mean + half]}


def cluster_mean_ci(clusters: Sequence[Sequence[float]], z: float = _Z95) -> dict[str, Any]:
    """The mean of every value in ``clusters`` with a cluster-robust 95% interval (values of one cluster may hang
    together, clusters are independent; the sandwich estimator of Liang and Zeger 1986 for a mean, with the
    small-sample factor ``G / (G - 1)``, ``G`` the clusters that hold a value).

    ``mean = sum(x) / n``;  ``se = sqrt(G / (G - 1) * sum_g (S_g - mean * n_g) ** 2) / n``, ``S_g`` and ``n_g`` the
    sum and the count of cluster ``g``; the interval is ``mean ± z * se``.  With one value per cluster ``se`` is
    the usual ``s / sqrt(n)``.

    Returns:
        ``{"n", "clusters", "mean", "ci95"}``: ``mean`` None without values, ``ci95`` None with fewer than two
        clusters.
    """
    used = [c for c in clusters if len(c)]
    n = sum(len(c) for c in used)
    g = len(used)
    if n == 0:
        return {"n": 0, "clusters": 0, "mean": None, "ci95": None}
    mean = sum(sum(c) for c in used) / n
    if g < 2:
        return {"n": n, "clusters": g, "mean": mean, "ci95": None}
    ss = sum((sum(c) - mean * len(c)) ** 2 for c in used)
    half = z * math.sqrt(g / (g - 1) * ss) / n
    return {"n": n, "clusters": g, "mean": mean, "ci95": [mean - half, mean + half]}


def _pairs(config: ArenaConfig, records: Sequence[GameRecord], has_deals: bool) -> list[list[tuple[int, int]]]:
    """Per block (the two games ``2b``, ``2b + 1``), the index pairs ``(i1, i2)`` of its deals (``has_deals``) or
    rounds that both games played in full, with the same dealer; none for a block whose games are not both among
    ``records`` without an error (the list's position is the block's number)."""
    by_index = {r.index: r for r in records if r.error is None}
    blocks: list[list[tuple[int, int]]] = []
    for b in range((config.games + 1) // 2):
        one, two = by_index.get(2 * b), by_index.get(2 * b + 1)
        pairs: list[tuple[int, int]] = []
        if one is None or two is None:
            blocks.append(pairs)
            continue
        if has_deals:
            for k, (d1, d2) in enumerate(zip(one.deals, two.deals, strict=False)):
                if not (d1["complete"] and d2["complete"]) or d1["dealer"] != d2["dealer"]:
                    break
                pairs.append((k, k))
        else:
            pairs = [(k, k) for k in range(min(len(one.rounds), len(two.rounds)))]
        blocks.append(pairs)
    return blocks


def duplicate(config: ArenaConfig, records: Sequence[GameRecord]) -> dict[str, Any] | None:
    """The duplicate-deal figures of a two-bot arena (see the module docstring): bot A's points per deal (Cribbage)
    or per round (Mulle) more than bot B's with the same cards, per seat and as a margin, with cluster-robust 95%
    intervals (:func:`cluster_mean_ci`, a block of two games per cluster).

    Returns:
        None unless there are two bot specs and two scoring sides; else ``{"unit", "bot", "against", "blocks",
        "pairs", "margin", "by_seat": {seat name: interval}, "method"}``; each interval is a
        :func:`cluster_mean_ci` dict (``mean`` None when no pair was played in full).
    """
    if len(config.bots) != 2:
        return None
    spec = config.spec
    rules = config.make_rules()
    table = config.new_game(rules)
    if spec.sides(table) != 2:
        return None
    has_deals = _announces_deals(spec, table)
    by_index = {r.index: r for r in records if r.error is None}
    blocks = _pairs(config, records, has_deals)
    if has_deals:
        names = ("as_dealer", "as_pone")
    else:
        names = ("seat 0", "seat 1") if config.players == 2 else ("side 0", "side 1")
    seats: dict[str, list[list[float]]] = {name: [] for name in names}
    margin: list[list[float]] = []
    for b, pairs in enumerate(blocks):
        if not pairs:
            continue
        one, two = by_index[2 * b], by_index[2 * b + 1]
        per_seat: dict[str, list[float]] = {name: [] for name in names}
        block_margin: list[float] = []
        for k1, k2 in pairs:
            diffs = []
            for role, name in enumerate(names):
                if has_deals:  # the dealer's side, then the other side
                    dealer_side = spec.side_of(table, one.deals[k1]["dealer"])
                    side = dealer_side if role == 0 else 1 - dealer_side
                    p1, p2 = one.deals[k1]["points"][side], two.deals[k2]["points"][side]
                else:
                    side = role
                    p1, p2 = one.rounds[k1][side], two.rounds[k2][side]
                holder1, holder2 = one.sides[side], two.sides[side]
                if {holder1, holder2} != {0, 1}:
                    raise ValueError(f"block {b}: side {side} is not swapped between the two games")
                diff = float(p1 - p2) if holder1 == 0 else float(p2 - p1)  # A's points minus B's, same cards
                per_seat[name].append(diff)
                diffs.append(diff)
            block_margin.append(sum(diffs) / len(diffs))
        for name in names:
            seats[name].append(per_seat[name])
        margin.append(block_margin)
    labels = config.labels
    return {
        "unit": "points per deal" if has_deals else "points per round",
        "bot": labels[0],
        "against": labels[1],
        "blocks": sum(1 for p in blocks if p),
        "pairs": sum(len(p) for p in blocks),
        "margin": cluster_mean_ci(margin),
        "by_seat": {name: cluster_mean_ci(seats[name]) for name in names},
        "method": f"{labels[0]} minus {labels[1]} with the same cards in the same seat (games 2b and 2b+1 share "
        "the deals with the seats swapped); margin: the mean over the seats; 95% cluster-robust intervals, a block "
        "of two games per cluster",
    }


def _time_stats(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "max": max(values),
        "mean": sum(values) / len(values),
    }


def _side_of_spec(record: GameRecord, j: int) -> int:
    """The scoring side bot spec ``j`` played for in ``record``'s game (its seats' side: a spec sits on one side)."""
    if not record.seat_sides:  # a record made without each seat's side (one seat a side): the sides' own specs
        return record.sides.index(j)
    return record.seat_sides[record.seats.index(j)]


def summarize(
    config: ArenaConfig, records: Sequence[GameRecord], *, jobs: int = 1, elapsed_s: float = 0.0
) -> dict[str, Any]:
    """The arena's figures (see the module docstring) as a JSON-ready dict.

    Keys: ``game``, ``players``, ``rules``, ``games``, ``seed``, ``bots`` (labels), ``seating``, ``results``
    (per label: ``games``, ``wins``, ``losses``, ``draws``, ``win_rate``, ``win_rate_ci95``, ``mean_score``,
    ``moves``, ``capped`` (decisions a time cap cut short), for a game with rounds (Mulle) ``points_per_round``, with deals (Cribbage) ``points_per_deal``
    {``as_dealer``, ``as_pone``}, ``decision_ms`` {``all``, and per kind}), with deals ``deals`` (every complete deal: ``dealer``, ``pone``,
    ``complete``, ``cut_short``), with two bots ``duplicate`` (:func:`duplicate`), ``errors`` (bot errors), ``game_results`` (per game, without times),
    ``jobs`` and ``elapsed_s``.  Decision times and ``elapsed_s`` depend on the machine; everything else is
    reproducible when no time cap bites (``capped`` 0 for every bot).
    """
    records = sorted(records, key=lambda r: r.index)
    ok = [r for r in records if r.error is None]
    labels = config.labels
    results: dict[str, Any] = {}
    rules = config.make_rules()
    spec = config.spec
    table = config.new_game(rules)
    has_deals = _announces_deals(spec, table)  # its chance steps announce deals and dealers (Cribbage)
    has_rounds = any(r.rounds for r in ok) or not has_deals  # the game's result lists rounds (Mulle)
    for j, label in enumerate(labels):
        mine = [r for r in ok if j in r.outcome]
        wins = sum(1 for r in mine if r.outcome[j] == "win")
        draws = sum(1 for r in mine if r.outcome[j] == "draw")
        losses = len(mine) - wins - draws
        n = len(mine)
        score = wins + draws / 2
        lo, hi = wilson(score, n)
        entry: dict[str, Any] = {
            "games": n,
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "win_rate": score / n if n else None,
            "win_rate_ci95": [lo, hi],
            "mean_score": _mean_ci([float(r.scores[_side_of_spec(r, j)]) for r in mine])["mean"] if n else None,
            "moves": sum(r.moves.get(j, 0) for r in ok),
            "capped": sum(r.capped.get(j, 0) for r in ok),
        }
        if has_rounds:
            # a game's rounds (deals) hang together (the same players, the board): the game is the cluster
            pts = [[float(rnd[_side_of_spec(r, j)]) for rnd in r.rounds] for r in mine]
            entry["points_per_round"] = cluster_mean_ci(pts)
        if has_deals:
            dealer_pts: list[list[float]] = []
            pone_pts: list[list[float]] = []
            for r in mine:
                dealer_pts.append([])
                pone_pts.append([])
                for d in r.deals:
                    if not d["complete"]:
                        continue
                    dealer_side = spec.side_of(table, d["dealer"])
                    side = _side_of_spec(r, j)
                    (dealer_pts if side == dealer_side else pone_pts)[-1].append(float(d["points"][side]))
            entry["points_per_deal"] = {"as_dealer": cluster_mean_ci(dealer_pts), "as_pone": cluster_mean_ci(pone_pts)}
        kinds: dict[str, list[float]] = {}
        for r in ok:
            for kind, ts in r.times.get(j, {}).items():
                kinds.setdefault(kind, []).extend(ts)
        every = [t for ts in kinds.values() for t in ts]
        entry["decision_ms"] = {"all": _time_stats(every), **{k: _time_stats(v) for k, v in sorted(kinds.items())}}
        results[label] = entry
    out: dict[str, Any] = {
        "game": config.game,
        "players": config.players,
        "rules": spec.rules_to_dict(rules),
        "options": dict(config.rules),
        "games": len(records),
        "seed": config.seed,
        "bots": list(labels),
        "seating": f"game i: seat s plays bot (s - i) mod {len(config.bots)} (bot A in seat i mod {len(config.bots)}); "
        f"the {config.rotation} games of a block share the deals",
        "win_rate": "(wins + draws/2) / games; 95% Wilson score interval",
        "results": results,
    }
    if has_deals:
        dealer_all: list[list[float]] = []
        pone_all: list[list[float]] = []
        cut_short = complete = 0
        for r in ok:
            dealer_all.append([])
            pone_all.append([])
            for d in r.deals:
                if not d["complete"]:
                    cut_short += 1
                    continue
                complete += 1
                dealer_side = spec.side_of(table, d["dealer"])
                for side, p in enumerate(d["points"]):
                    (dealer_all if side == dealer_side else pone_all)[-1].append(float(p))
        out["deals"] = {
            "complete": complete,
            "cut_short": cut_short,
            "dealer": cluster_mean_ci(dealer_all),
            "pone": cluster_mean_ci(pone_all),
        }
    dup = duplicate(config, records)
    if dup is not None:
        out["duplicate"] = dup
    out["errors"] = [{"game": r.index, **r.error} for r in records if r.error is not None]
    out["game_results"] = [r.to_json() for r in records]
    out["jobs"] = jobs
    out["elapsed_s"] = elapsed_s
    return out


# ---------------------------------------------------------------------------------------------------- running
class Terminated(BaseException):
    """SIGTERM arrived while the arena ran (raised in the main thread, like KeyboardInterrupt for SIGINT)."""


@contextlib.contextmanager
def _terminate_raises() -> Iterator[None]:
    """While the pool runs, SIGTERM raises :class:`Terminated` in the main thread, so the workers are stopped
    instead of being left running when this process dies."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued tasks and terminate the worker processes (a strong bot may be deep in a search)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # taken before shutdown, which drops the pool's reference to it (wait=False)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
    # The pool's manager thread closes its wake-up pipe once it sees the workers gone; the interpreter's exit hook
    # writes to that pipe, so a race between the two printed "OSError: Bad file descriptor" at exit (CI, under
    # load).  Waiting for the thread to finish closes the pipe first: the hook then skips it.  (The thread must be
    # taken before the shutdown: read after it, it was always None, and the wait never happened.)
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.join(timeout=5.0)


def _play_chunk(config: ArenaConfig, indices: Sequence[int]) -> list[GameRecord]:
    return [play_game(config, i) for i in indices]


def run_arena(
    config: ArenaConfig,
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int | None = None,
) -> dict[str, Any]:
    """Play every game of ``config`` and return :func:`summarize`'s figures.

    Args:
        config: the arena.
        jobs: worker processes (default ``os.cpu_count()``); 1 plays in this process.
        progress: called with the number of games just finished (for a progress bar).
        chunk: games per task sent to a worker (default: about 4 tasks per worker, at most 8 games).
    Raises:
        ValueError: a bot level that cannot be made (checked before any game is played).
    """
    jobs = max(1, jobs or os.cpu_count() or 1)
    rules = config.make_rules()
    for spec in config.bots:  # fail fast, in this process, on a level that cannot be made
        spec.make(config.game, rules)
    t0 = time.perf_counter()
    indices = list(range(config.games))
    records: list[GameRecord] = []
    if jobs == 1:
        for i in indices:
            records.append(play_game(config, i))
            if progress:
                progress(1)
    else:
        size = chunk or max(1, min(8, config.games // (jobs * 4)))
        chunks = [indices[k : k + size] for k in range(0, len(indices), size)]
        import multiprocessing

        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
        with _terminate_raises():
            try:
                futures = [pool.submit(_play_chunk, config, c) for c in chunks]
                for fut in as_completed(futures):
                    done = fut.result()
                    records.extend(done)
                    if progress:
                        progress(len(done))
            except BaseException:  # Ctrl-C, SIGTERM, a failed worker: stop every worker now, wait for none
                _kill_pool(pool)
                raise
            pool.shutdown(wait=True)
    return summarize(config, records, jobs=jobs, elapsed_s=time.perf_counter() - t0)
