"""The server's garbage-collection schedule (issue #12: a server that never stalls).

CPython's collector is generational: an object that survives collections moves to an older generation, and a
collection of the oldest one scans *every* tracked object -- with hundreds of live games (their engine states,
seats, connections, and the engines' memo tables of positions) several hundred thousand objects, a pause of
hundreds of milliseconds in which no table is answered.  Almost all of those objects are long-lived or freed by
reference counting (a game's old state when the next move replaces it), so scanning them again and again finds
almost nothing (measured: a full collection in the load bench at 500 games freed 2,500-10,600 objects of an
estimated 500,000).

The schedule here (:class:`Collector`) keeps the scanned set small instead:

* every :attr:`Collector.period` seconds (:meth:`Collector.tick`, on the event loop) one collection of every
  generation that is not frozen -- the objects allocated since the last tick, a fraction of a second's worth:
  every cyclic garbage among them is freed -- and then ``gc.freeze()`` of the survivors: a collection just found
  them reachable, and frozen objects are never scanned again.  Objects allocated and freed between two ticks are
  handled as before (reference counting, and small automatic young collections: :data:`THRESHOLDS`);
* a frozen object that later dies in a reference cycle is not freed by the ticks.  So that such garbage stays
  bounded, :meth:`Collector.thorough` unfreezes everything, collects it all (a full collection's pause, now rare)
  and freezes the survivors again, whenever the garbage frozen since the last pass may have reached ``growth - 1``
  times the live population (as a tracing collector's heap target lets the heap grow in proportion to the live
  data): the frozen garbage is estimated as the survivors frozen since the last pass times the share of
  survivors that the last pass found dead, never taken below :data:`MIN_RATE` (also the estimate before the
  first measurement): whatever the passes find, the survivors frozen between two passes -- all the garbage
  there can be -- never exceed ``(growth - 1) / MIN_RATE`` times the live population (or the floor).
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
#: The least share of frozen survivors assumed to die in cycles, and the first estimate (bounds how far apart
#: thorough passes may be: in the load bench at 500 games a pass freed about 1-2% of what it scanned).
MIN_RATE: Final = 1 / 8


class Collector:
    """The garbage-collection schedule of one server process (see the module's description).

    Args:
        period: seconds between two ticks (> 0).  growth: the frozen garbage allowed, as a multiple of the live
            population after the last thorough pass, is ``growth - 1`` (> 1).  floor: the least frozen garbage
            allowed, in objects (>= 0).

    Raises:
        ValueError: a period <= 0, a growth <= 1 or a floor < 0.
    """

    def __init__(self, period: float = PERIOD, growth: float = 2.0, floor: int = 100_000) -> None:
        if not period > 0 or not growth > 1 or floor < 0:
            raise ValueError("a collector needs period > 0, growth > 1 and floor >= 0")
        self.period = period
        self.growth = growth
        self.floor = floor
        #: the frozen population after the last thorough pass; the survivors frozen since; the estimated share of
        #: frozen survivors that die in cycles (measured by each thorough pass)
        self.base = 0
        self.added = 0
        self.rate = MIN_RATE
        self.stats: dict[str, Any] = {}
        self._reset_stats()
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    def _reset_stats(self) -> None:
        self.stats = {"ticks": 0, "max_tick_ms": 0.0, "thorough": 0, "max_thorough_ms": 0.0, "last_freed": 0}

    def start(self) -> None:
        """Collect and freeze everything alive now (modules, engine tables: they never die) and set the young
        thresholds; then, inside a running event loop, tick every :attr:`period` seconds."""
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        self.thorough()
        self._reset_stats()  # (the pass at the start is not the serving's)
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

    def budget(self) -> int:
        """The survivors that may be frozen between two thorough passes: the frozen garbage allowed over the
        estimated share of survivors that die in cycles."""
        return int(max((self.growth - 1) * self.base, self.floor) / self.rate)

    def tick(self) -> None:
        """Collect every generation that is not frozen, freeze the survivors, and run :meth:`thorough` once the
        survivors frozen since the last pass reach :meth:`budget`."""
        t0 = time.perf_counter()
        gc.collect()
        self.added += len(gc.get_objects(generation=2))
        gc.freeze()
        ms = (time.perf_counter() - t0) * 1000.0
        self.stats["ticks"] += 1
        self.stats["max_tick_ms"] = max(self.stats["max_tick_ms"], round(ms, 1))
        if self.added >= self.budget():
            self.thorough()

    def thorough(self) -> None:
        """Unfreeze, collect everything (the frozen garbage included), freeze the survivors again, and measure the
        share of the survivors frozen since the last pass that had died (the estimate for the next budget)."""
        t0 = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        if self.added > 0:
            self.rate = min(1.0, max(MIN_RATE, freed / self.added))
        self.base = gc.get_freeze_count()
        self.added = 0
        ms = (time.perf_counter() - t0) * 1000.0
        self.stats["thorough"] += 1
        self.stats["max_thorough_ms"] = max(self.stats["max_thorough_ms"], round(ms, 1))
        self.stats["last_freed"] = freed

    def summary(self) -> dict[str, Any]:
        """``{"ticks", "max_tick_ms", "thorough", "max_thorough_ms", "last_freed", "frozen_base", "added",
        "budget", "rate"}``: ticks and thorough passes (how many, the longest in ms, the objects the last pass
        freed), the frozen population after the last pass, the survivors frozen since, the budget that starts the
        next pass, and the estimated share of survivors that die in cycles."""
        return {
            **self.stats,
            "frozen_base": self.base,
            "added": self.added,
            "budget": self.budget(),
            "rate": round(self.rate, 4),
        }
