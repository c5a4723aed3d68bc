"""Garbage collection over the live games of one web-table instance (issue #12), without the whole load bench.

The one-instance tail of ``bench/table_load.py`` at 500 games is the collector: a collection of the older
generations scans every tracked object of every live game (states, seats, event history, connections), and the
loop is blocked for the whole scan.  This script loads N live games into one server's in-memory structures the
way the server holds them -- :func:`kortbord.server.sessions.build_session` for the first deal, then random legal
moves through :meth:`Session.submit` (the engine, the generator, the event log, every seat's state message
built, encoded and queued on a :class:`kortbord.server.ws.Connection` per seat) to a random point of the game
(Mulle and Cribbage alternately, as the load bench plays them: Mulle one round, Cribbage to 61) -- with the
database replaced by a stub that accepts every move (the database is not what is measured here).

Printed for N = 100 / 250 / 500 (``--games``):

* tracked objects per game: ``len(gc.get_objects())`` after loading, minus before, over N (everything alive
  before the games frozen first, as the server does at its start), and of those the ones reachable from the
  sessions and their connections (``in sessions``; the rest are the engines' memo tables of positions, which grow
  with the moves played);
* ``full ms``: the CPU time of a full collection with every game loaded (median of ``--repeat``): what one
  collection of the oldest generation costs the loop;
* then ``--moves`` moves per game round robin (a finished game replaced by a new one) under the server's
  collector schedule (``kortbord.server.collector``: its ticks every period; ``--schedule old``: the one before
  it, a freeze at start and thresholds (20000, 20, 20)), with every collection's CPU time per generation and per
  tick (count / longest / total ms) -- the pauses a table waits for;
* with ``--where``: which session fields hold the games' tracked objects, and a types histogram of every new
  tracked object.

The database is a stub and nothing goes over a network: what is measured is the collector over the games' own
objects, CPU time (a busy host does not inflate it much).

Reproduce (a few seconds; the figures are CPU-bound, so a busy host slows them all by the same factor):

    PYTHONPATH=src .venv/bin/python bench/server_gc.py --where
    PYTHONPATH=src .venv/bin/python bench/server_gc.py --games 500 --moves 100 --schedule old
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import random
import secrets
import statistics
import sys
import time
from typing import Any

from kortbord import core
from kortbord.server.db import GameRow, SeatRow
from kortbord.server.rng import RNG_NAME
from kortbord.server.sessions import (
    Session,
    SessionManager,
    build_session,
    hash_secret,
    run_chance,
    table_rules,
    warm_up,
)
from kortbord.server.ws import Connection

try:  # the server's collector schedule (the tree before it: a freeze at start and these thresholds)
    from kortbord.server.collector import Collector
except ImportError:  # pragma: no cover - an older tree
    Collector = None


#: The load bench's tables: Mulle one round, Cribbage to 61 (bench/table_load.py).
TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("mulle", {"game_length": "single_round"}),
    ("cribbage", {"target": 61}),
)


class StubStore:
    """The database as the session sees it, accepting every move (nothing is stored)."""

    shared = False
    instance = "bench"

    async def append_move(self, *args: Any, **kwargs: Any) -> None:
        return None


class StubSocket:
    """A WebSocket nobody reads (the queued messages are dropped as a pump would send them)."""

    application_state = None

    async def send_text(self, text: str) -> None:
        return None


def new_row(game: str, options: dict[str, Any], rng: random.Random) -> GameRow:
    """A two-person table's row as ``kortbord.server.app`` builds it (both seats claimed)."""
    spec = core.get(game)
    _, rules_dict, teams, _ = table_rules(spec, options, 2, False)
    seats = [SeatRow(i, "human", None, None, hash_secret(f"t{rng.random()}"), None, True) for i in range(2)]
    return GameRow.new(
        id=secrets.token_urlsafe(9),
        game=spec.name,
        rules=rules_dict,
        rules_version=spec.rules_version,
        players=2,
        teams=teams,
        seed=secrets.token_hex(32),
        seats=seats,
    )


def plan(session: Session, rng: random.Random) -> list[str]:
    """Random legal moves that play ``session``'s game (from its first deal, the same seed) to its end."""
    probe = build_session(GameRow(**session_row_fields(session), moves=[]))
    spec = probe.spec
    state, moves = probe.state, []
    while not spec.is_over(state) and len(moves) < 1000:
        legal = spec.legal_moves(state)
        move = str(legal[rng.randrange(len(legal))])
        state, _ = spec.step(state, spec.parse_move(state, move))
        state, _ = run_chance(spec, state, probe.rng)
        moves.append(move)
    return moves


class Table:
    """A live game, its two seats' connections and the moves it will be played with."""

    def __init__(self, manager: SessionManager, index: int, rng: random.Random) -> None:
        game, options = TABLES[index % len(TABLES)]
        self.session = manager.add(build_session(new_row(game, options, rng)))
        self.conns = [Connection(StubSocket(), seat) for seat in (0, 1)]  # type: ignore[arg-type]
        for c in self.conns:
            self.session.attach(c)
        self.moves = plan(self.session, rng)
        self.drain()

    def drain(self) -> None:
        """Drop the queued messages (as a pump sends them)."""
        for c in self.conns:
            while not c.queue.empty():
                c.queue.get_nowait()

    async def play(self) -> bool:
        """One move through :meth:`Session.submit`; False once the game is over."""
        s = self.session
        if s.over:
            return False
        await s.submit(s.to_act(), s.version, self.moves[s.version])
        self.drain()
        return not s.over


async def load_games(manager: SessionManager, n: int, rng: random.Random) -> list[Table]:
    """``n`` live games, each played through :meth:`Session.submit` to a random point before its end."""
    tables = []
    for i in range(n):
        t = Table(manager, i, rng)
        for _ in range(rng.randrange(max(1, len(t.moves) - 1))):
            await t.play()
        tables.append(t)
    return tables


def session_row_fields(session: Session) -> dict[str, Any]:
    """The row fields that rebuild ``session``'s game from its seed."""
    return {
        "id": session.id,
        "game": session.spec.name,
        "name": None,
        "rules": session.rules_dict,
        "rules_version": session.spec.rules_version,
        "players": session.players,
        "teams": session.teams,
        "seed": session.seed,
        "seed_commitment": session.seed_commitment,
        "rng": RNG_NAME,
        "version": 0,
        "snapshot": None,
        "status": "playing",
        "created_at": session.created_at,
        "seats": [],
    }


def timed_collect(generation: int, repeat: int) -> float:
    """Median CPU ms of ``gc.collect(generation)``."""
    times = []
    for _ in range(repeat):
        t0 = time.thread_time()
        gc.collect(generation)
        times.append((time.thread_time() - t0) * 1000.0)
    return statistics.median(times)


class Pauses:
    """Every automatic collection's CPU time per generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.ms: dict[int | str, list[float]] = {0: [], 1: [], 2: [], "tick": []}
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = time.thread_time()
        else:
            self.ms[info["generation"]].append((time.thread_time() - self._t0) * 1000.0)


def reachable_new(root: Any, old: set[int], seen: set[int]) -> int:
    """Tracked objects reachable from ``root`` that are not in ``old`` (nor counted before: ``seen``)."""
    count = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or key in old or not gc.is_tracked(obj):
            continue
        seen.add(key)
        count += 1
        stack.extend(gc.get_referents(obj))
    return count


def where(sessions: list[Session], old: set[int]) -> None:
    """Print which session fields hold the games' new tracked objects, and a types histogram."""
    fields = [f for f in Session.__dataclass_fields__ if f not in ("manager", "spec")]
    per_field: collections.Counter[str] = collections.Counter()
    old_ids = old | {id(s) for s in sessions}
    for s in sessions:
        seen: set[int] = set()
        for f in fields:
            per_field[f] += reachable_new(getattr(s, f), old_ids, seen)
    n = len(sessions)
    print(f"\ntracked objects per game by Session field (first reached from that field; {n} games):")
    for f, c in per_field.most_common():
        if c:
            print(f"  {f:<16} {c / n:8.1f}")
    hist: collections.Counter[str] = collections.Counter(
        type(o).__qualname__ for o in gc.get_objects() if id(o) not in old
    )
    print("\nnew tracked objects per game by type (the top 15):")
    for t, c in hist.most_common(15):
        print(f"  {t:<28} {c / n:8.1f}")


async def measure(n: int, moves: int, repeat: int, show_where: bool, schedule: str) -> dict[str, Any]:
    """Load ``n`` games, count their tracked objects, time full collections, then play ``moves`` moves per game
    round robin (a finished game replaced by a new one, as the load bench does) under the server's collector
    settings, timing every automatic collection."""
    rng = random.Random(n)
    gc.collect()
    old = {id(o) for o in gc.get_objects()}
    gc.freeze()
    before = len(gc.get_objects())
    manager = SessionManager(StubStore(), None)  # type: ignore[arg-type]
    tables = await load_games(manager, n, rng)
    gc.collect()
    after = len(gc.get_objects())
    seen: set[int] = set()
    held = sum(reachable_new(t.session, old, seen) + reachable_new(t.conns, old, seen) for t in tables)
    out: dict[str, Any] = {
        "games": n,
        "objects/game": (after - before) / n,
        "held/game": held / n,
        "full ms": timed_collect(2, repeat),
    }
    if show_where:
        where([t.session for t in tables], old)
    # steady play under the server's schedule: its ticks every period (timed as pauses of generation "tick")
    pauses = Pauses()
    collector = None
    if Collector is None or schedule == "old":
        gc.set_threshold(20000, 20, 20)
    else:
        collector = Collector()
        collector.start()  # (no running task here: the ticks are run below, every period of this loop)
    gc.callbacks.append(pauses)
    made = 0
    t0 = last = time.perf_counter()
    try:
        for _ in range(moves):
            for i, t in enumerate(tables):
                if not await t.play():
                    manager.forget(t.session.id)
                    tables[i] = Table(manager, i, rng)
                made += 1
                if collector is not None and time.perf_counter() - last >= collector.period:
                    gc.callbacks.remove(pauses)
                    t1 = time.thread_time()
                    collector.tick()
                    pauses.ms["tick"].append((time.thread_time() - t1) * 1000.0)
                    gc.callbacks.append(pauses)
                    last = time.perf_counter()
    finally:
        gc.callbacks.remove(pauses)
        if collector is not None:
            out["thorough"] = collector.stats["thorough"]
            await collector.stop()
    out["moves/s"] = made / (time.perf_counter() - t0)
    out["pauses"] = pauses.ms
    manager.sessions.clear()
    del tables
    gc.unfreeze()
    gc.collect()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 250, 500])
    parser.add_argument("--moves", type=int, default=20, help="moves per game played under the server's schedule")
    parser.add_argument("--repeat", type=int, default=5, help="full collections timed (median)")
    parser.add_argument(
        "--schedule", choices=("server", "old"), default="server",
        help="the server's collector (kortbord.server.collector), or the old one: a freeze at start, (20000, 20, 20)",
    )  # fmt: skip
    parser.add_argument("--where", action="store_true", help="which structures hold the objects (largest N)")
    args = parser.parse_args(argv)
    warm_up()
    print(f"python {sys.version.split()[0]}; schedule: {args.schedule if Collector is not None else 'old'}")
    print(
        f"{'games':>6} {'objects/game':>12} {'in sessions':>11} {'full ms':>8} {'moves/s':>8}   "
        "collections while playing, per generation (and the schedule's ticks): count / max ms / total ms"
    )
    for i, n in enumerate(args.games):
        r = asyncio.run(measure(n, args.moves, args.repeat, args.where and i == len(args.games) - 1, args.schedule))
        gens = "   ".join(
            f"{g if g == 'tick' else f'g{g}'} {len(ms):>4} / {max(ms, default=0.0):6.1f} / {sum(ms):7.1f}"
            for g, ms in r["pauses"].items()
        )
        extra = f"   thorough {r['thorough']}" if "thorough" in r else ""
        print(
            f"{r['games']:>6} {r['objects/game']:>12.0f} {r['held/game']:>11.0f} {r['full ms']:>8.1f} {r['moves/s']:>8.0f}   {gens}{extra}"
        )


if __name__ == "__main__":
    main()
