"""Duplicate-round experiments for the Mulle expert level (issue #14 item 3): one variant against another.

Each side is ``strong`` or ``expert`` with options (``expert:infer=false:horizon=round:iterations=300``,
``strong:iterations=600``); the two play the arena's duplicate blocks (the same deals, seats swapped:
``kortbord.arena.play_game`` with this script's bot factory, so the variants need no registry entry) and the
script prints the arena's duplicate margin -- A's points per round more than B's with the same cards, 95%
cluster-robust interval -- per seat, A's win rate (Wilson 95%) and the expert's trail-inference counts.

Usage (one process; put ``nice -n 10`` in front on a shared machine)::

    nice -n 10 .venv/bin/python bench/mulle_expert.py --a expert --b strong --games 200 --seed 11
    nice -n 10 .venv/bin/python bench/mulle_expert.py --a expert:infer=false:horizon=round --b strong \
        --games 200 --seed 11 --option game_length=single_round --json out.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kortbord import arena
from kortbord.bots.mulle_expert import ExpertBot
from kortbord.bots.mulle_strong import StrongBot

_KEYS = {
    "iterations": int,
    "infer": bool,
    "horizon": str,
    "epsilon": float,
    "batch": int,
    "peek": bool,
    "prior": float,
    "leaf": float,
    "exact": int,
    "reply": str,
    "reply_depth": int,
    "race": float,
}


def _parse(text: str) -> arena.BotSpec:
    """``expert:infer=false`` -> a BotSpec the factory reads (level ``strong`` or ``expert``)."""
    level, *parts = text.split(":")
    if level not in ("strong", "expert", "greedy"):
        raise SystemExit(f"unknown variant level {level!r} (strong, expert, greedy)")
    opts: dict[str, Any] = {}
    for part in parts:
        name, _, value = part.partition("=")
        if name not in _KEYS or (level != "expert" and name != "iterations"):
            raise SystemExit(f"unknown option {name!r} for {level}")
        opts[name] = arena.parse_option_value(value)
    if level == "expert":  # the arena knows the registry's levels only: the variant rides as an option
        opts["variant"] = "expert"
        level = "strong"
    return arena.BotSpec(level, tuple(sorted(opts.items())))


def _factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
    opts = dict(spec.options)
    if opts.pop("variant", None) == "expert":
        return ExpertBot(rules, **opts)
    if spec.level == "strong":
        return StrongBot(rules, **opts)
    return arena.registry.make_bot(game, spec.level, rules)


def _play_one(job: tuple[arena.ArenaConfig, int]) -> Any:
    """One game of a ``--jobs`` run, in a worker process."""
    config, i = job
    return arena.play_game(config, i, factory=_factory)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0, help="play games first..games-1 only (resume a run in parts)")
    ap.add_argument("--option", action="append", default=[], help="a rules option key=value (repeatable)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--every", type=int, default=20, help="print the figures so far every this many games")
    ap.add_argument(
        "--jobs", type=int, default=1, help="worker processes (the games are the same; the expert counts need 1)"
    )
    args = ap.parse_args(argv)
    rules = tuple(sorted((k, arena.parse_option_value(v)) for k, _, v in (o.partition("=") for o in args.option)))
    config = arena.ArenaConfig("mulle", (_parse(args.a), _parse(args.b)), games=args.games, seed=args.seed, rules=rules)
    t0 = time.perf_counter()
    records: list[Any] = []
    bots: list[Any] = []

    def factory(spec: arena.BotSpec, game: str, r: Any) -> Any:
        bot = _factory(spec, game, r)
        bots.append(bot)
        return bot

    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("fork"))
        played = pool.map(_play_one, [(config, i) for i in range(args.first, args.games)], chunksize=1)
    else:
        played = (arena.play_game(config, i, factory=factory) for i in range(args.first, args.games))
    for i, record in enumerate(played, start=args.first):
        records.append(record)
        if (i + 1) % args.every == 0 and i + 1 < args.games:
            # a checkpoint: the figures so far (whole blocks only), so a run stopped early still says something
            done = records[: len(records) - len(records) % 2]
            _report(config, done, args, rules, bots, time.perf_counter() - t0, partial=True)
    _report(config, records, args, rules, bots, time.perf_counter() - t0, partial=False)
    return 0


def _report(
    config: arena.ArenaConfig,
    records: list[Any],
    args: argparse.Namespace,
    rules: tuple[tuple[str, Any], ...],
    bots: list[Any],
    elapsed: float,
    *,
    partial: bool,
) -> None:
    inferred = {"trails_read": 0, "excluded": 0, "exact_searches": 0, "exact_nodes": 0, "exact_max": 0, "replies": 0}
    for bot in bots:
        if isinstance(bot, ExpertBot):
            for k, v in bot.stats.items():
                inferred[k] = max(inferred[k], v) if k == "exact_max" else inferred[k] + v
    summary = arena.summarize(config, records, elapsed_s=elapsed)
    dup = summary["duplicate"]
    res = summary["results"][config.labels[0]]

    def fmt(ci: dict[str, Any]) -> str:
        lo, hi = ci["ci95"] or (float("nan"), float("nan"))
        return f"{ci['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}]"

    print(
        f"{'[so far] ' if partial else ''}{config.labels[0]} v {config.labels[1]}: {len(records)} of {args.games} "
        f"games, seed {args.seed}, rules {dict(rules)}, {summary['elapsed_s']:.0f} s",
        flush=True,
    )
    print(
        f"  duplicate margin per round: {fmt(dup['margin'])} ({dup['pairs']} pairs, {dup['blocks']} blocks); "
        + "; ".join(f"{k} {fmt(v)}" for k, v in dup["by_seat"].items())
    )
    lo, hi = res["win_rate_ci95"]
    print(
        f"  A win rate {100 * res['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
        f"(W {res['wins']} L {res['losses']} D {res['draws']}); errors {len(summary['errors'])}"
    )
    print(f"  expert trail inference: {inferred}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {
                    "summary": summary,
                    "inferred": inferred,
                    "argv": sys.argv,
                    "partial": partial,
                    # per game (rounds, sides, decision times): paired comparisons of two runs on one seed
                    "records": [{**r.to_json(times=True), "sides": list(r.sides)} for r in records],
                },
                fh,
                default=str,
            )


if __name__ == "__main__":
    sys.exit(main())
