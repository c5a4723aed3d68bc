"""How well the Cribbage expert's opponent model predicts a player's pegging within a game (issue #14 item 2).

The ``expert`` level reads the other player's play rule from this game's deals (``PlayReader``): a soft-max over a
few features (:class:`kortbord.bots.cribbage_expert.LearntModel`), refitted after each deal from a prior
(:func:`~kortbord.bots.cribbage_expert.play_prior`, strong's own play) with a Gaussian prior of sd ``sd`` (the
level's :data:`~kortbord.bots.cribbage_expert.LEVEL_SD`, 1, in the play; its end game's model
:data:`~kortbord.bots.cribbage_expert.LEVEL_END_SD`, 3).
This bench asks how good those predictions are, without any search: for each player it plays
``--games`` games to 121 against kortbord's greedy (the player in seat ``g mod 2``), and predicts every pegging
decision of the player with a choice of ranks from the model fitted to the deals of that game before it -- as the
level does -- scoring the log of the chance given to the card laid (natural log, per decision; higher is better;
the model unpruned, chance 1e-300 at least).

Columns: the points-first prior (weight 1 on the points a card scores, sd 3: the level before its prior), the
level's prior never refitted, and the level's prior refitted at each ``--sd``.  Below each player: every column
less the reference column's (``--reference``, default the level's sd) with a 95% interval, each game one cluster
(the decisions of a game share its fits).

Players: kortbord's levels (``beginner`` and ``casual`` make people's mistakes at stated rates, ``docs/bots.md``),
and ``hoyleish`` -- CribbageSim's Hoyle-based player (``bench/cribbage_hoyleish.py``, installed with the pip line
there).

Usage (from the repository root; about five minutes with the defaults on two cores)::

    nice -n 5 .venv/bin/python bench/cribbage_play_model.py --games 40 --seed 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kortbord import arena
from kortbord.bots import registry
from kortbord.bots.cribbage_expert import LEVEL_SD, VAL, Decision, LearntModel, decisions_seen, play_prior
from kortbord.cards import Card


class _Watcher:
    """Greedy, told the table's events (the arena tells an observer every step): keeps each deal's cards laid."""

    def __init__(self, rules: Any) -> None:
        self.bot = registry.make_bot("cribbage", "greedy", rules)
        self.deals: list[tuple[tuple[int, Card], ...]] = []
        self._laid: list[tuple[int, Card]] = []

    def choose(self, view: Any, legal_moves: Any, rng: random.Random) -> Any:
        return self.bot.choose(view, legal_moves, rng)

    def observe(self, events: Any) -> None:
        for event in events:
            if event.kind == "play":
                self._laid.append((int(event["seat"]), Card.parse(str(event["card"]))))
            elif event.kind in ("deal", "game_over") and self._laid:
                self.deals.append(tuple(self._laid))
                self._laid = []


def player_decisions(player: str, games: int, seed: int) -> list[list[list[Decision]]]:
    """``player``'s pegging decisions in the arena's games ``0 .. games-1`` of ``seed`` to 121 against greedy (the
    player in seat ``g mod 2``): per game, per deal, in order."""
    import cribbage_hoyleish

    spec = arena.BotSpec("greedy", (("variant", "hoyleish"),)) if player == "hoyleish" else arena.BotSpec(player)
    config = arena.ArenaConfig(
        "cribbage", (spec, arena.BotSpec("greedy")), games=games, seed=seed, rules=(("target", 121),)
    )
    out = []
    for g in range(games):
        made: list[_Watcher] = []

        def factory(bot: arena.BotSpec, game: str, rules: Any, made: list[_Watcher] = made) -> Any:
            if bot is config.bots[1]:
                made.append(_Watcher(rules))
                return made[0]
            return cribbage_hoyleish._factory(bot, game, rules)

        record = arena.play_game(config, g, factory=factory)
        if record.error:
            raise RuntimeError(record.error)
        reader = record.seats.index(1)  # greedy's seat reads the player
        out.append([decisions_seen(laid, reader) for laid in made[0].deals])
    return out


def game_scores(
    deals: list[list[Decision]], sd: float, prior: tuple[float, ...] | None, refit: bool
) -> tuple[float, int]:
    """The log chance of each decision with a choice in one game, each deal predicted from the deals before it:
    (sum, decisions)."""
    model = LearntModel(sd, 0.0, prior)
    total, n = 0.0, 0
    seen: list[Decision] = []
    for deal in deals:
        for hand, seq, count, r, others in deal:
            if len({x for x in hand if count + VAL[x] <= 31}) < 2:
                continue
            dist = dict(model(hand, seq, count, (0,) * 14, 1 if others else 0, False))
            total += math.log(max(dist.get(r, 0.0), 1e-300))
            n += 1
        seen.extend(deal)
        if refit and seen:
            model.fit(seen[-3000:])
    return total, n


def _ci(diffs: list[float], ns: list[int]) -> tuple[float, float, float]:
    """The ratio mean sum(diffs) / sum(ns) and its cluster-robust 95% interval (a game a cluster)."""
    big_n = sum(ns)
    r = sum(diffs) / big_n
    g = len(diffs)
    if g < 2:
        return r, math.nan, math.nan
    var = g / (g - 1) * sum((d - r * n) ** 2 for d, n in zip(diffs, ns, strict=True)) / big_n**2
    half = 1.96 * math.sqrt(var)
    return r, r - half, r + half


def measure(job: tuple[str, int, int, tuple[float, ...], float]) -> dict[str, Any]:
    """One player's row: each column's mean log chance a decision, and each less the reference's (the prior
    refitted at sd ``reference``) with its interval."""
    player, games, seed, sds, reference = job
    data = player_decisions(player, games, seed)
    prior = play_prior()
    columns: dict[str, tuple[float, tuple[float, ...] | None, bool]] = {
        "points-first, sd 3": (3.0, None, True),
        "prior, never refitted": (1.0, prior, False),
    }
    for sd in sds:
        columns[f"prior, sd {sd:g}"] = (sd, prior, True)
    per: dict[str, list[tuple[float, int]]] = {
        name: [game_scores(deals, sd, pr, refit) for deals in data] for name, (sd, pr, refit) in columns.items()
    }
    key = f"prior, sd {reference:g}"  # main() puts the reference among the sds: scored once
    level = per[key] if key in per else [game_scores(deals, reference, prior, True) for deals in data]
    ns = [n for _, n in level]
    row: dict[str, Any] = {"player": player, "decisions": sum(ns), "columns": {}}
    for name, scores in per.items():
        mean = sum(s for s, _ in scores) / sum(n for _, n in scores)
        diff = _ci([s - ls for (s, _), (ls, _) in zip(scores, level, strict=True)], ns)
        row["columns"][name] = {"mean": mean, "vs_level": diff}
    return row


def main(argv: list[str] | None = None) -> int:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games a player (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="beginner,casual,greedy,strong,hoyleish")
    parser.add_argument("--sd", default="0.5,1,2,3", help="the refit's sds to compare (default 0.5,1,2,3)")
    parser.add_argument(
        "--reference",
        type=float,
        default=LEVEL_SD,
        help=f"the sd the columns are compared with (default the level's, {LEVEL_SD:g})",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be 2 or more (the intervals need two games)")
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    try:
        sds = tuple(float(x) for x in args.sd.split(","))
    except ValueError:
        parser.error(f"--sd takes numbers separated by commas, got {args.sd!r}")
    if not all(sd > 0 for sd in (*sds, args.reference)):
        parser.error("every sd (--sd, --reference) must be over 0")
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    known = (*registry.LEVELS["cribbage"], "hoyleish")
    unknown = [p for p in players if p not in known]
    if unknown or not players:
        parser.error(f"--players: {', '.join(unknown) or 'none given'}; choose from {', '.join(known)}")
    if args.reference not in sds:
        sds = (*sds, args.reference)
    jobs = [(p, args.games, args.seed, sds, args.reference) for p in players]
    with Pool(args.jobs) as pool:
        rows = pool.map(measure, jobs)
    print(
        f"log chance of the card laid, per pegging decision with a choice; {args.games} games a player, seed {args.seed}"
    )
    for row in rows:
        print(f"\n{row['player']} ({row['decisions']} decisions)")
        for name, c in row["columns"].items():
            d, lo, hi = c["vs_level"]
            print(f"  {name:24s} {c['mean']:8.3f}   less sd {args.reference:g}'s: {d:+.3f} ({lo:+.3f} .. {hi:+.3f})")
    print("\ncommand: bench/cribbage_play_model.py " + " ".join(argv if argv is not None else sys.argv[1:]))
    if args.json:
        out = {"games": args.games, "seed": args.seed, "sds": sds, "reference": args.reference, "rows": rows}
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
