"""Duplicate-round experiments for the Mulle expert level (issue #14 item 3): one variant against another.

Each side is ``strong`` or ``expert`` with options (``expert:infer=false:horizon=round:iterations=300``,
``strong:iterations=600``), ``greedy``, or ``policy`` (the search's playout policy as a player, ``policy:epsilon=0.1``:
how good a player the playouts assume); the two play the arena's duplicate blocks (the same deals, seats swapped:
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
from kortbord.bots import registry
from kortbord.bots.mulle_expert import ExpertBot
from kortbord.bots.mulle_strong import StrongBot, _tables, rollout_policy

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


class PolicyBot:
    """The search's playout policy as a player (``policy`` or ``policy:epsilon=0.1``): each decision the move
    :func:`kortbord.bots.mulle_strong.rollout_policy` picks from the seat's View (its table, builds, båt flag and
    own hand -- what the policy reads in a playout's world), with ``epsilon`` random moves (default 0).  It shows
    how good a player the playouts assume."""

    name = "policy"

    def __init__(self, rules: Any, epsilon: float = 0.0) -> None:
        self.epsilon = float(epsilon)
        self.tables = _tables(rules)

    def choose(self, view: Any, legal_moves: Any, rng: Any) -> Any:
        return rollout_policy(view, list(legal_moves), rng, self.epsilon, self.tables, view.hand)


def _parse(text: str) -> arena.BotSpec:
    """``expert:infer=false`` -> a BotSpec the factory reads (level ``strong``, ``expert``, ``greedy`` or
    ``policy``)."""
    level, *parts = text.split(":")
    if level not in ("strong", "expert", "greedy", "policy"):
        raise SystemExit(f"unknown variant level {level!r} (strong, expert, greedy, policy)")
    opts: dict[str, Any] = {}
    for part in parts:
        name, _, value = part.partition("=")
        allowed = {"expert": set(_KEYS), "policy": {"epsilon"}}.get(level, {"iterations"})
        if name not in allowed:
            raise SystemExit(f"unknown option {name!r} for {level}")
        opts[name] = arena.parse_option_value(value)
    if level in ("expert", "policy"):  # the arena knows the registry's levels only: the variant rides as an option
        opts["variant"] = level
        level = "strong"
    return arena.BotSpec(level, tuple(sorted(opts.items())))


def _factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
    opts = dict(spec.options)
    variant = opts.pop("variant", None)
    if variant == "expert":
        return ExpertBot(rules, **opts)
    if variant == "policy":
        return PolicyBot(rules, **opts)
    if spec.level == "strong":
        return StrongBot(rules, **opts)
    return registry.make_bot(game, spec.level, rules)


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
