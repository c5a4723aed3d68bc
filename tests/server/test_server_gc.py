"""The server's garbage-collection schedule and its compact event log (issue #12: a server that never stalls).

* :class:`kortbord.server.collector.Collector`: a tick frees the cyclic garbage made since the last tick and
  freezes the survivors; garbage that was frozen alive is freed by a thorough pass once the survivors frozen
  since the last pass reach the budget the measured garbage allows, so frozen garbage stays bounded (never a
  leak that grows without end).
* :attr:`Session.events` keeps each version's events as encoded JSON (bytes: never tracked by the collector);
  the history and the events since a version decode to exactly the engine's events, in order.
"""

from __future__ import annotations

import gc
import random
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import make_client

from kortbord import core
from kortbord.server.collector import MIN_RATE, Collector
from kortbord.server.db import GameRow, SeatRow
from kortbord.server.rng import DeterministicCSPRNG
from kortbord.server.sessions import build_session, table_rules


class Node:
    """A reference cycle (an object that refers to itself) that a weak reference can watch."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector() -> Iterator[Collector]:
    c = Collector(period=10.0, growth=1.05, floor=1_000)  # (budgets a fraction of the test process's objects)
    c.start()  # no running loop: the test ticks by hand
    try:
        yield c
    finally:
        gc.unfreeze()
        gc.set_threshold(*c._thresholds)


def test_bad_settings_are_refused() -> None:
    for kwargs in ({"period": 0}, {"growth": 1.0}, {"floor": -1}):
        with pytest.raises(ValueError):
            Collector(**kwargs)  # type: ignore[arg-type]


def test_a_tick_frees_new_cyclic_garbage_and_freezes_the_survivors(collector: Collector) -> None:
    dead, alive = Node(), Node()
    watch = weakref.ref(dead)
    del dead
    frozen = gc.get_freeze_count()
    collector.tick()
    assert watch() is None  # made since the last tick and unreachable: freed
    assert gc.is_tracked(alive) and gc.get_freeze_count() > frozen  # reachable: frozen, scanned no more
    assert all(o is not alive for o in gc.get_objects())  # not in any generation a collection scans


def test_frozen_garbage_is_freed_by_a_thorough_pass_at_the_budget(collector: Collector) -> None:
    nodes = [Node() for _ in range(100)]
    watches = [weakref.ref(n) for n in nodes]
    collector.tick()  # alive: frozen
    del nodes
    collector.tick()
    assert all(w() is not None for w in watches)  # frozen garbage waits for a thorough pass...
    passes = collector.stats["thorough"]
    assert collector.rate == MIN_RATE  # (nothing measured yet)
    allowed = max(0.05 * collector.base, collector.floor)
    assert collector.budget() == int(allowed / MIN_RATE)
    keep = [[i] for i in range(collector.budget() - collector.added + 10)]  # ...which the survivors start
    collector.tick()
    assert collector.stats["thorough"] == passes + 1
    assert all(w() is None for w in watches)
    assert gc.get_freeze_count() >= len(keep)  # the live objects stay frozen
    # the pass found almost nothing dead among the survivors: the estimate stays at its least, MIN_RATE
    assert collector.rate == MIN_RATE


def test_frozen_garbage_stays_bounded(collector: Collector) -> None:
    """Cyclic garbage made every round (alive at one tick, dead at the next) is measured by the thorough passes,
    which then come as often as the garbage asks: once measured, the frozen population never exceeds the live
    one plus the garbage allowed (``growth - 1`` times the live population) and a round."""
    live = [[i] for i in range(5_000)]
    collector.thorough()
    round_size = int(0.05 * collector.base) // 2 + 400
    measured = False
    for _ in range(40):
        batch = [Node() for _ in range(round_size)]
        collector.tick()
        del batch
        if collector.stats["thorough"] >= 2:  # (the first pass measured the garbage share)
            measured = True
            assert collector.rate > 0.5  # most survivors die
            allowed = collector.base + collector.budget() + 2 * round_size
            assert gc.get_freeze_count() <= allowed
            assert collector.budget() <= max(0.05 * collector.base, collector.floor) / 0.5
    assert measured and collector.stats["thorough"] >= 5
    assert len(live) == 5_000


def _row(game: str, options: dict[str, Any], seed: str) -> GameRow:
    spec = core.get(game)
    _, rules_dict, teams, _ = table_rules(spec, options, 2, False)
    return GameRow.new(
        id="g",
        game=game,
        rules=rules_dict,
        rules_version=spec.rules_version,
        players=2,
        teams=teams,
        seed=seed,
        seats=[SeatRow(i, "human", None, None, None, None, True) for i in range(2)],
    )


@pytest.mark.parametrize(("game", "options"), [("mulle", {"game_length": "single_round"}), ("cribbage", {})])
def test_the_event_log_is_encoded_and_decodes_to_the_engines_events(game: str, options: dict[str, Any]) -> None:
    """A game replayed by the engine alone (the spec, the game's generator) gives, per version, the events the
    session's log holds; the log holds bytes only (no object the collector scans)."""
    seed = "ab" * 32
    spec = core.get(game)
    rules = spec.make_rules(options, players=2, teams=False)
    rng = DeterministicCSPRNG(seed)
    pick = random.Random(7)

    def chance(state: Any) -> tuple[Any, list[dict[str, Any]]]:
        out = []
        while spec.is_chance(state):
            state, evs = spec.step(state, spec.chance_outcome(state, rng))
            out += [e.to_json() for e in evs]
        return state, out

    state, first = chance(spec.new_game(rules, players=2, teams=False))
    per_version = [first]
    moves = []
    while not spec.is_over(state) and len(moves) < 60:
        legal = spec.legal_moves(state)
        move = legal[pick.randrange(len(legal))]
        state, evs = spec.step(state, move)
        state, more = chance(state)
        per_version.append([e.to_json() for e in evs] + more)
        moves.append(str(move))
    row = _row(game, options, seed)
    row.moves = moves
    session = build_session(row)
    assert [v for v, _ in session.events] == list(range(len(moves) + 1))
    assert all(type(evs) is bytes and not gc.is_tracked(evs) for _, evs in session.events)
    assert session.history() == [e for evs in per_version for e in evs]
    for since in (0, 1, len(moves) // 2, len(moves)):
        assert session.events_since(since) == [e for evs in per_version[since + 1 :] for e in evs]


def test_the_server_runs_the_schedule_and_reports_it(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        deadline = time.monotonic() + 10
        while True:
            got = client.get("/api/health").json()["gc"]
            if got["ticks"] >= 1 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert got["ticks"] >= 1
        assert got["frozen_base"] > 0 and got["budget"] >= got["frozen_base"] and got["rate"] == MIN_RATE
