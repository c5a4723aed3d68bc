"""Decision times of a ``belief`` bench bot in whole games (issue #14 item 6's measure for a candidate level).

Plays ``--games`` games to 121 of the bot against ``--peer`` (greedy, or ``program``: CribbageSim), the arena's
duplicate deals of ``--seed``, in this one process, and prints the CPU time of the bot's searched play decisions
(the bot's own ``stats``: the posterior and the search, every try of a work bound), all of them and those of the
end game (where the bot plays to the board: a player within ``near`` points of 121, 45 by default; with
``endgame=1`` the belief search plays there, with ``ehands`` and ``ebudget``), and of its discards valued
by the play (``discard=M``), p50 / p95 / max in milliseconds, beside item 6's goal (p95 under 250 ms on one core).
The bot's first decision also builds its keep table (made when the bot is made, before the clock).

Usage (from the repository root)::

    nice -n 5 .venv/bin/python bench/cribbage_belief_times.py --games 30 --seed 11 \\
        --bot belief:learn=session:kt=0.5:hands=32:budget=12000:endgame=1:ehands=128:ebudget=48000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cribbage_belief
import cribbage_hoyleish
from kortbord import arena

GOAL_MS = 250.0


def percentiles(xs: list[float]) -> dict[str, float]:
    """``{"n", "p50", "p95", "max"}`` of ``xs`` (seconds) in milliseconds (:func:`kortbord.arena.percentile`: NumPy's
    linear interpolation; zeros when empty)."""
    if not xs:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "max": 0.0}
    ms = [1000.0 * x for x in xs]
    return {"n": len(ms), "p50": arena.percentile(ms, 50), "p95": arena.percentile(ms, 95), "max": max(ms)}


def measure(bot: str, games: int, seed: int, peer: str = "greedy") -> dict[str, Any]:
    """The bot's decision times over ``games`` games (see the module docstring).

    Returns:
        ``{"plays": percentiles, "end_game": percentiles, "discards": percentiles}`` (milliseconds of CPU).
    Raises:
        ValueError: ``bot`` not a ``belief`` bench bot, or a bad option of it.
    """
    if not bot.startswith("belief"):
        raise ValueError(f"a belief bench bot is measured here, got {bot!r}")
    made: list[Any] = []
    near_end: list[bool] = []

    def factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
        made_bot = cribbage_hoyleish._factory(spec, game, rules)
        if isinstance(made_bot, cribbage_belief.BeliefBot):
            made.append(made_bot)
            own = made_bot.play_values

            def play_values(view: Any, *args: Any, **kw: Any) -> list[float]:
                before = len(made_bot.stats)
                values = own(view, *args, **kw)
                if len(made_bot.stats) > before:  # searched: was it in the end game?
                    near_end.append(made_bot._board_play(view))
                return values

            made_bot.play_values = play_values  # type: ignore[method-assign,assignment]
        return made_bot

    spec = arena.BotSpec("greedy", (("variant", bot),))
    cribbage_hoyleish._factory(spec, "cribbage", arena.ArenaConfig("cribbage", (spec, spec)).make_rules())
    config = cribbage_hoyleish._config(spec, games, seed, peer)
    for i in range(games):
        record = arena.play_game(config, i, factory=factory)
        if record.error:
            raise RuntimeError(record.error)
    plays = [t for b in made for _, t in b.stats]
    return {
        "plays": percentiles(plays),
        "end_game": percentiles([t for t, end in zip(plays, near_end, strict=True) if end]),
        "discards": percentiles([t for b in made for _, t in b.discard_stats]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", required=True, help="a belief bench bot (bench/cribbage_belief.py)")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--peer", default="greedy", help="a kortbord level, or program (CribbageSim)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be 1 or more")
    try:
        out = measure(args.bot, args.games, args.seed, args.peer)
    except ValueError as exc:
        ap.error(str(exc))
    print(f"{args.bot}: {args.games} games against {args.peer} (seed {args.seed}), CPU ms a decision, goal p95 < 250")
    for kind, p in out.items():
        if kind == "discards" and not p["n"]:
            continue  # no discard valued by the play: strong's discard, not searched
        verdict = "" if not p["n"] else (" PASS" if p["p95"] < GOAL_MS else " over the goal")
        print(f"  {kind}: {p['n']} decisions, p50 {p['p50']:.0f}, p95 {p['p95']:.0f}, max {p['max']:.0f}{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
