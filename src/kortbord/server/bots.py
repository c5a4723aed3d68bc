"""Computer players for the table, run outside the event loop (a process pool), so a thinking bot never stalls
other tables.

A bot receives only what its seat may know: the engine's ``view(state, seat)``, the legal moves and its own
seeded ``random.Random`` (the :class:`kortbord.bots.base.Bot` interface).  The worker returns the index of the
chosen move in the legal-move list; the session then plays it like any other move (validated by the engine,
written before it is acknowledged).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import ctypes
import logging
import multiprocessing
import os
import random
import signal
import sys
from collections.abc import Sequence
from typing import Any, Final

import orjson

__all__ = ["BotPool", "choose_index"]

log = logging.getLogger("kortbord.server.bots")

_BOTS: dict[tuple[str, str, Any], Any] = {}
#: The bots that watch the table (:func:`kortbord.bots.registry.observes`), one per game and seat, the most recently
#: used last; a worker keeps at most :data:`_MAX_READERS` (one that was dropped is rebuilt from the game's events).
_READERS: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()
_MAX_READERS: Final = 64


def choose_index(
    game: str,
    level: str,
    rules: Any,
    view: Any,
    legal_moves: Sequence[Any],
    seed: int,
    events: bytes | None = None,
    table: str | None = None,
) -> int:
    """Run the bot of ``level`` for ``game`` on ``view`` and return the index of its move in ``legal_moves``.

    Runs in a worker process; bots are cached per (game, level, rules) in the worker.  A level that watches the
    table (:func:`kortbord.bots.registry.observes`) is given ``events``, the game's public events so far (a JSON
    array of ``Event.to_json()`` objects, the session's own record), and ``table``, the game's id: its bot is that
    game's and seat's alone (:class:`kortbord.bots.base.TableReader`), so its choice depends only on the game's
    public record, the view and the seed -- whichever worker or server instance thinks.
    Raises:
        ValueError: an unknown level, a bot that returned a move not in ``legal_moves``, a level that watches the
            table given no ``events`` or a malformed record (:func:`_events`); whatever the bot's ``observe`` raises
            on an event it cannot read.
    """
    from kortbord.bots import registry

    rng = random.Random(seed)
    if registry.observes(game, level):
        if events is None:
            raise ValueError(f"the {level} {game} bot learns from the table: it needs the game's events")
        from kortbord.bots.base import TableReader

        told = _events(events)
        rkey = (table, getattr(view, "seat", None), game, level, rules)
        reader = _READERS.pop(rkey, None)
        if reader is None:
            reader = TableReader(lambda: registry.make_bot(game, level, rules))
        _READERS[rkey] = reader
        while len(_READERS) > _MAX_READERS:
            _READERS.popitem(last=False)
        move = reader.choose(told, view, legal_moves, rng)
        return list(legal_moves).index(move)
    key = (game, level, rules)
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = registry.make_bot(game, level, rules)
    move = bot.choose(view, legal_moves, rng)
    return list(legal_moves).index(move)


def _events(record: bytes) -> list[Any]:
    """A game's public record (a JSON array of ``Event.to_json()`` objects) as ``kortbord.contract.Event`` values.

    Raises:
        ValueError: not a JSON array of objects each with a string ``kind``.
    """
    from kortbord.contract import Event

    try:
        items = orjson.loads(record)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"a game's events must be JSON: {exc}") from None
    if not isinstance(items, list) or not all(isinstance(d, dict) and isinstance(d.get("kind"), str) for d in items):
        raise ValueError('a game\'s events must be a JSON array of objects, each with a "kind" string')
    return [Event(d.pop("kind"), d) for d in items]


_PR_SET_PDEATHSIG: Final = 1  # <linux/prctl.h>


def _die_with_server(server_pid: int) -> None:
    """A bot worker's initializer: on Linux, ask the kernel for SIGTERM when the server process dies -- kill -9
    included -- so no worker outlives its instance under a supervisor that does not stop the whole process group
    (systemd's ``KillMode=control-group`` does; a shell, Docker or supervisord may not).  ``server_pid`` is the
    server's process id: if it died before the request took effect, the worker exits at once.  Elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # no libc prctl: the supervisor's own stop has to do
        return
    if os.getppid() != server_pid:
        os._exit(0)


def _warm() -> int:
    """Import the engines and every bot, build each level's bot for each game's default rules and load the bots'
    tables (the win-probability and crib tables, ``kortbord/bots/data/``) once per worker, so no bot's first move
    pays for them; the worker's pid."""
    import importlib

    from kortbord import core
    from kortbord.bots import registry

    for game in core.GAMES:
        spec = core.get(game)
        rules = spec.make_rules({}, players=2, teams=False)
        for level in registry.available_levels(game):
            key = (game, level, rules)
            if key not in _BOTS:
                _BOTS[key] = registry.make_bot(game, level, rules)
    for module, loaders in _TABLES:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        for name in loaders:
            loader = getattr(mod, name, None)
            if callable(loader):
                loader()
    return os.getpid()


#: The bots' lazily loaded tables (module, loader functions), loaded by :func:`_warm`.
_TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("kortbord.bots.cribbage_board", ("win_table", "distributions")),
    ("kortbord.bots.cribbage_strong", ("crib_values",)),
)


def _log_warm_failure(fut: asyncio.Future[int]) -> None:
    if not fut.cancelled() and fut.exception() is not None:
        log.warning("a bot worker could not load the bots' tables ahead: %r", fut.exception())


class BotPool:
    """The executor bots think in.

    Args:
        workers: processes (default: the number of CPUs, at most 4).
        mode: ``"process"`` (default; a ``spawn`` process pool) or ``"thread"`` (tests; still off the loop).
    """

    def __init__(self, workers: int | None = None, mode: str = "process") -> None:
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.mode = mode
        self._executor: concurrent.futures.Executor | None = None
        self._warming: list[asyncio.Future[int]] = []

    def _make(self) -> concurrent.futures.Executor:
        if self.mode == "thread":
            return concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="kortbord-bot")
        return concurrent.futures.ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_die_with_server,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the workers; each imports the engines and the bots and loads their tables (:func:`_warm`) in the
        background -- the server does not wait for that before it serves (a restart answers at once); a bot move
        asked for meanwhile waits in the pool's queue."""
        self._executor = self._make()
        loop = asyncio.get_running_loop()
        self._warming = [loop.run_in_executor(self._executor, _warm) for _ in range(self.workers)]
        for fut in self._warming:
            fut.add_done_callback(_log_warm_failure)

    async def choose(
        self,
        game: str,
        level: str,
        rules: Any,
        view: Any,
        legal_moves: Sequence[Any],
        seed: int | None = None,
        events: bytes | None = None,
        table: str | None = None,
    ) -> int:
        """The index of the bot's move in ``legal_moves`` (computed in a worker).  If the pool has broken (a worker
        died) it is restarted once; if the bot itself fails, a uniformly random legal move is played and logged.

        ``seed``: the bot's generator seed (None: a fresh one from the system).  The hint passes the position's
        seed (:func:`kortbord.server.aids.position_seed`) so the review judges a decision by the same search.
        ``events`` and ``table``: for a level that watches the table, the game's public events so far and its id
        (:func:`choose_index`)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            if self._executor is None:
                self._executor = self._make()
            try:
                return await loop.run_in_executor(
                    self._executor, choose_index, game, level, rules, view, tuple(legal_moves), seed, events, table
                )
            except concurrent.futures.BrokenExecutor:
                log.warning("bot pool broke; restarting it (attempt %d)", attempt + 1)
                self._executor = None
            except Exception:
                log.exception("the %s %s bot failed; playing a random legal move", game, level)
                break
        return random.Random(seed).randrange(len(legal_moves))

    async def close(self) -> None:
        """Stop the workers."""
        for fut in self._warming:
            fut.cancel()
        self._warming = []
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
