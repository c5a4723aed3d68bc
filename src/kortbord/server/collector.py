"""The server's garbage-collection schedule (issue #12: a server that never stalls).

CPython's collector is generational: an object that survives collections moves to an older generation, and a
collection of the oldest one scans *every* tracked object -- with hundreds of live games (their engine states,
seats, connections, and the engines' memo tables of positions) a few hundred thousand objects, a pause of
hundreds of milliseconds in which no table is answered.  Almost all of those objects are long-lived and never
become cyclic garbage (a game's old state is freed by reference counting when the next move replaces it), so
scanning them again and again finds nothing.

The schedule here (:class:`Collector`) keeps the scanned set small instead:

* every :attr:`Collector.period` seconds (:meth:`Collector.tick`, on the event loop) one collection of every
  generation that is not frozen -- the objects allocated since the last tick, a fraction of a second's worth:
  every cyclic garbage among them is freed -- and then ``gc.freeze()`` of the survivors: they are reachable
  (a collection just found them so), and frozen objects are never scanned again.  Objects allocated and freed
  between two ticks are handled as before (reference counting, and the young automatic collections);
* an object frozen alive that later dies in a reference cycle is not freed by the ticks.  Such garbage is bounded:
  when the frozen population has grown to :attr:`Collector.growth` times its size after the last thorough pass
  (and by at least :attr:`Collector.floor` objects), :meth:`Collector.thorough` unfreezes everything and collects
  it all (the pause of a full collection, now rare: its cost is repaid by the growth it waits for, as a tracing
  collector's heap target does), then freezes the survivors again.  So the memory the frozen garbage holds stays
  below ``growth - 1`` times the live objects' (plus the floor), never growing without bound.

The frozen population is counted exactly (``gc.get_freeze_count()``, a walk of the list: milliseconds for a
million objects) only when the survivors frozen since the last count -- an upper bound of its growth, summed for
free at each tick -- could have reached the target.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from typing import Any, Final

__all__ = ["Collector"]

#: Seconds between two ticks.
PERIOD: Final = 0.5
#: Thresholds of the automatic collections between ticks (young generation allocations, and collections of the
#: younger generations before an older one): small, so each scans little.
THRESHOLDS: Final = (5_000, 10, 10)


class Collector:
    """The garbage-collection schedule of one server process (see the module's description).

    Args:
        period: seconds between two ticks (> 0).  growth: the frozen population's growth factor that starts a
            thorough pass (> 1).  floor: the least growth, in objects, that starts one (>= 0).

    Raises:
        ValueError: a period <= 0, a growth <= 1 or a floor < 0.
    """

    def __init__(self, period: float = PERIOD, growth: float = 2.0, floor: int = 200_000) -> None:
        if not period > 0 or not growth > 1 or floor < 0:
            raise ValueError("a collector needs period > 0, growth > 1 and floor >= 0")
        self.period = period
        self.growth = growth
        self.floor = floor
        #: the frozen population after the last thorough pass, and the survivors frozen since the last count
        self.base = 0
        self.added = 0
        self.stats: dict[str, Any] = {"ticks": 0, "thorough": 0, "max_tick_ms": 0.0, "max_thorough_ms": 0.0}
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Collect and freeze everything alive now (modules, engine tables: they never die) and set the young
        thresholds; then, inside a running event loop, tick every :attr:`period` seconds."""
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        self.thorough()
        self.stats["thorough"] = 0
        with contextlib.suppress(RuntimeError):  # no running loop: ticks are the caller's
            self._task = asyncio.get_running_loop().create_task(self._run(), name="kortbord-gc")

    async def stop(self) -> None:
        """Stop ticking, unfreeze and set the thresholds back (the process's own collector takes over again)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            self.tick()

    def target(self) -> int:
        """The frozen population that starts a thorough pass."""
        return max(int(self.base * self.growth), self.base + self.floor)

    def tick(self) -> None:
        """Collect every generation that is not frozen, freeze the survivors, and run :meth:`thorough` if the
        frozen population reached :meth:`target`."""
        t0 = time.perf_counter()
        gc.collect()
        self.added += len(gc.get_objects(generation=2))
        gc.freeze()
        if self.base + self.added >= self.target():
            now = gc.get_freeze_count()
            if now >= self.target():
                self.thorough()
            else:
                self.added = now - self.base
        ms = (time.perf_counter() - t0) * 1000.0
        self.stats["ticks"] += 1
        self.stats["max_tick_ms"] = max(self.stats["max_tick_ms"], round(ms, 1))

    def thorough(self) -> None:
        """Unfreeze, collect everything (the frozen garbage included), freeze the survivors again."""
        t0 = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.base = gc.get_freeze_count()
        self.added = 0
        self.stats["thorough"] += 1
        ms = (time.perf_counter() - t0) * 1000.0
        self.stats["max_thorough_ms"] = max(self.stats["max_thorough_ms"], round(ms, 1))

    def summary(self) -> dict[str, Any]:
        """``{"ticks", "thorough", "max_tick_ms", "max_thorough_ms", "frozen_base", "target"}`` (counts, ms,
        objects)."""
        return {**self.stats, "frozen_base": self.base, "target": self.target()}
