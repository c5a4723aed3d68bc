"""The strong bots on the fast paths: work a decision can do before and after (issue #13 item 4).

The strong levels are defined by work (issue #14: Mulle 150 sampled worlds, Cribbage 5,000 alpha-beta nodes), so
the fast paths do not change their decisions -- they change what a decision costs.  The issue asks for the
iterations per decision "before and after at the same budget": the budget here is the former wall-clock budget of
150 ms a decision, read as CPU time on one core, and each figure is how much of the bot's own work fits in it.

* **Mulle strong**: a decision's playouts (sampled worlds x candidates, each played to the end of the round)
  on the engine's moves (``fast_playouts = False``: ``legal_codes``/``apply_code``, "before") and on the fast core
  (:mod:`kortbord.mulle.fast`, pure Python or the compiled build, whichever is loaded, "after"), on the same
  positions with the same seeds -- the bench checks that both choose the same move.  Printed: CPU ms per decision,
  playouts per decision, microseconds per playout, and the playouts 150 ms of CPU affords.
* **Cribbage strong**: the pegging search's sampled deals at its node budget, with the shows it counts (the
  automatic show after the play, the board evaluation) by ``scoring.show_total`` (the rank table, "after") and by
  ``scoring.score_show(...).total`` (group by group, "before"); the discard's exact averages over the starters
  (6 x 46 shows a discard decision for two players) the same way.  Printed: CPU ms per decision and the deals
  150 ms affords (pegging), CPU ms per discard.

Positions come from fresh random games (a new seed every run unless ``--seed`` is given), played by the greedy
level so they are ones a game reaches; the two variants of each decision run side by side, alternating which
goes first, so the machine's load falls on both.

Usage (from the repository root; about two minutes with the defaults)::

    .venv/bin/python bench/bots_fast_paths.py
    .venv/bin/python bench/bots_fast_paths.py --mulle 40 --cribbage 40 --seed 7
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from kortbord import core
from kortbord.bots import cribbage_strong, registry
from kortbord.bots.mulle_strong import StrongBot as MulleStrong
from kortbord.cribbage import scoring
from kortbord.mulle import fast

#: The former wall-clock budget of a strong decision (issue #14), read as CPU time on one core.
BUDGET_MS = 150.0


def positions(game: str, seed: int, n: int, want: Callable[[Any], bool]) -> Iterator[tuple[Any, Any, list[Any]]]:
    """``n`` decisions ``(view, state, legal)`` with more than one legal move that ``want(view)`` accepts, from
    fresh two-player games of ``game`` at its default rules played by the greedy level."""
    spec = core.get(game)
    rules = registry.resolve_rules(game)
    rng = random.Random(seed)
    found = 0
    while found < n:
        state = spec.new_game(rules, players=2)
        bots = [registry.make_bot(game, "greedy", rules) for _ in range(2)]
        while not spec.is_over(state) and found < n:
            if spec.is_chance(state):
                state = spec.apply(state, spec.chance_outcome(state, rng))
                continue
            seat = spec.to_act(state)
            assert seat is not None
            legal = list(spec.legal_moves(state))
            view = spec.view(state, seat)
            if len(legal) > 1 and want(view) and rng.random() < 0.35:
                found += 1
                yield view, state, legal
            state = spec.apply(state, bots[seat].choose(view, legal, rng))


def _timed(bot: Any, view: Any, legal: list[Any], rng: random.Random) -> tuple[float, Any]:
    """``bot.choose(view, legal, rng)`` and its CPU time in ms."""
    c0 = time.process_time()
    out = bot.choose(view, legal, rng)
    return (time.process_time() - c0) * 1000.0, out


def mulle(n: int, seed: int) -> dict[str, Any]:
    """Mulle strong on ``n`` positions, playouts on the engine and on the fast core (module docstring)."""
    rules = registry.resolve_rules("mulle")
    ms: dict[str, list[float]] = {"engine": [], "fast": []}
    playouts: dict[str, list[int]] = {"engine": [], "fast": []}
    for i, (view, _state, legal) in enumerate(positions("mulle", seed, n, lambda v: True)):
        chosen = {}
        order = ("engine", "fast") if i % 2 == 0 else ("fast", "engine")
        for kind in order:
            bot = MulleStrong(rules)
            bot.fast_playouts = kind == "fast"
            t, move = _timed(bot, view, legal, random.Random(f"{seed}:{i}"))
            ms[kind].append(t)
            playouts[kind].append(int(bot.last_stats["playouts"]))
            chosen[kind] = move
        assert chosen["engine"] == chosen["fast"], f"position {i}: {chosen}"
    return {"ms": ms, "playouts": playouts}


def cribbage(n: int, seed: int) -> dict[str, Any]:
    """Cribbage strong on ``n`` pegging and ``n // 2`` discard positions, shows by the rank table and group by
    group (module docstring)."""
    rules = registry.resolve_rules("cribbage")
    fast_total = getattr(cribbage_strong, "show_total")  # noqa: B009 (the module's own binding, patched below)

    def by_groups(hand: Any, starter: Any, crib: bool = False) -> int:
        return scoring.score_show(hand, starter, crib=crib).total

    out: dict[str, Any] = {}
    for phase, count in (("play", n), ("discard", max(1, n // 2))):
        ms: dict[str, list[float]] = {"groups": [], "table": []}
        deals: dict[str, list[int]] = {"groups": [], "table": []}

        def wanted(v: Any, phase: str = phase) -> bool:
            return str(v.phase) == phase

        for i, (view, _state, legal) in enumerate(positions("cribbage", seed + 1, count, wanted)):
            chosen = {}
            order = ("groups", "table") if i % 2 == 0 else ("table", "groups")
            for kind in order:
                setattr(cribbage_strong, "show_total", fast_total if kind == "table" else by_groups)  # noqa: B010
                try:
                    bot = registry.make_bot("cribbage", "strong", rules)
                    t, move = _timed(bot, view, legal, random.Random(f"{seed}:{i}"))
                finally:
                    setattr(cribbage_strong, "show_total", fast_total)  # noqa: B010
                ms[kind].append(t)
                deals[kind].append(int(getattr(bot, "last_stats", {}).get("deals", 0)))
                chosen[kind] = move
            assert chosen["groups"] == chosen["table"], f"{phase} position {i}: {chosen}"
        out[phase] = {"ms": ms, "deals": deals}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mulle", type=int, default=30, help="Mulle decisions (default 30)")
    parser.add_argument("--cribbage", type=int, default=30, help="Cribbage pegging decisions (default 30)")
    parser.add_argument("--seed", type=int, default=None, help="positions' seed (default: a fresh one)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    mean = statistics.fmean
    print(f"Strong bots, work per decision at the former budget of {BUDGET_MS:g} ms of CPU (issue #13 item 4)")
    print(
        f"seed {seed}; Mulle fast core: {'compiled (mypyc)' if fast.COMPILED else 'pure Python'}; load {os.getloadavg()[0]:.1f}"
    )
    print()
    print("| figure | before | after | after / before |")
    print("|---|---|---|---|")
    if args.mulle:
        m = mulle(args.mulle, seed)
        e, f = m["ms"]["engine"], m["ms"]["fast"]
        pe, pf = mean(m["playouts"]["engine"]), mean(m["playouts"]["fast"])
        ue, uf = sum(e) * 1000 / sum(m["playouts"]["engine"]), sum(f) * 1000 / sum(m["playouts"]["fast"])
        print(
            f"| Mulle strong: CPU ms a decision (150 worlds; {len(e)} decisions, same moves) | {mean(e):.1f} | {mean(f):.1f} | {mean(e) / mean(f):.2f}x faster |"
        )
        print(f"| Mulle strong: playouts a decision (fixed by the level) | {pe:.0f} | {pf:.0f} | = |")
        print(f"| Mulle strong: us a playout | {ue:.0f} | {uf:.0f} | {ue / uf:.2f}x faster |")
        print(
            f"| Mulle strong: playouts in {BUDGET_MS:g} ms of CPU | {BUDGET_MS * 1000 / ue:.0f} | {BUDGET_MS * 1000 / uf:.0f} | {ue / uf:.2f}x |"
        )
    if args.cribbage:
        c = cribbage(args.cribbage, seed)
        p = c["play"]
        g, t = p["ms"]["groups"], p["ms"]["table"]
        dg, dt = sum(p["deals"]["groups"]), sum(p["deals"]["table"])
        print(
            f"| Cribbage strong pegging: CPU ms a decision (5,000 nodes; {len(g)} decisions, same cards) | {mean(g):.1f} | {mean(t):.1f} | {mean(g) / mean(t):.2f}x faster |"
        )
        print(
            f"| Cribbage strong pegging: deals a decision (fixed by the node budget) | {dg / len(g):.0f} | {dt / len(t):.0f} | = |"
        )
        print(
            f"| Cribbage strong pegging: deals in {BUDGET_MS:g} ms of CPU | {BUDGET_MS * dg / sum(g):.0f} | {BUDGET_MS * dt / sum(t):.0f} | {(dt / sum(t)) / (dg / sum(g)):.2f}x |"
        )
        d = c["discard"]
        g, t = d["ms"]["groups"], d["ms"]["table"]
        print(
            f"| Cribbage strong discard: CPU ms a decision (exact over the starters; {len(g)} decisions) | {mean(g):.1f} | {mean(t):.1f} | {mean(g) / mean(t):.2f}x faster |"
        )
    print()
    print("before: Mulle playouts on the engine's move codes, Cribbage shows counted group by group (score_show);")
    print("after: the fast core's playouts, the shows by the rank table (show_total); the same decisions either way.")
    print(f"command: {' '.join(['bench/bots_fast_paths.py', *(argv if argv is not None else sys.argv[1:])])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
