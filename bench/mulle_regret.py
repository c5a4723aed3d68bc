"""What a Mulle search variant's candidate schedule loses against the same search given far more work (issue #14
item 3): regret in points, on positions from real games, without playing whole games.

Positions: the ``strong`` bot's decisions with more than two distinct legal moves in seeded two-player
single-round games against ``greedy`` (the game goes on with strong's move).  For each position a *reference*
values every distinct legal move by its mean playout outcome -- strong's playouts, own round points minus the
other's at the playout's end -- over ``--ref`` sampled worlds, every move played out in the same worlds (common
random numbers), drawn from a generator independent of the variants'.  Each variant (a ``bench/mulle_expert.py``
spec: ``strong``, ``expert:infer=false:race=2.5:iterations=200``, ``expert:infer=false:batch=10000`` for the
search without cuts) then chooses in the same position from its own generator, and its **regret** is the
reference value of the reference's best move minus that of the move chosen.  The reference's own noise lifts every
variant's regret alike, so read the *differences*: the script prints each variant's mean regret a decision and
summed over a round's decisions ("a round"), the paired difference from the first variant with a 95% interval,
and the playouts a decision (the work).  A variant evaluates with strong's playouts; what a better evaluation is
worth is not measured here (play games: ``bench/mulle_expert.py``).

Usage::

    nice -n 10 .venv/bin/python bench/mulle_regret.py --games 10 --ref 1000 --seed 1 \\
        --variants strong,expert:infer=false:batch=10000,expert:infer=false:race=2.5:iterations=200
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from kortbord.bots.mulle_simple import GreedyBot
from kortbord.bots.mulle_strong import StrongBot, _side_points, _tables
from kortbord.mulle import Game, Rules, engine
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.view import View

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from mulle_expert import _factory, _parse


def reference(bot: StrongBot, view: View, moves: Sequence[PlayerMove], rng: random.Random, worlds: int) -> list[float]:
    """The mean playout outcome (points: own round points minus the other's) of every move of ``moves`` over
    ``worlds`` worlds sampled from ``view``, every move in every world with the same playout seed."""
    t = _tables(bot.rules)
    me = view.seat
    total = [0.0] * len(moves)
    for _ in range(worlds):
        world = bot._sample(view, rng)
        side = world.side(me)
        base = _side_points(world, t)
        seed = rng.getrandbits(64)
        by_value = {m: m for m in engine.legal_moves(world)}
        for i, m in enumerate(moves):
            after = bot._playout(engine.apply(world, by_value[m]), random.Random(seed))
            pts = bot._outcome(after, t)
            gain = [pts[s] - base[s] for s in range(len(pts))]
            own = gain[side]
            total[i] += own - (sum(gain) - own) / (len(gain) - 1)
    return [x / worlds for x in total]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="single rounds to draw positions from")
    ap.add_argument("--ref", type=int, default=1000, help="worlds of the reference evaluation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--variants",
        default="strong,expert:infer=false:batch=10000,expert:infer=false:race=2.5:iterations=200",
        help="comma-separated bench/mulle_expert.py specs; the first is the baseline of the differences",
    )
    args = ap.parse_args(argv)
    rules = Rules.from_dict({"game_length": "single_round"})
    specs = args.variants.split(",")
    bots: list[Any] = [_factory(_parse(s), "mulle", rules) for s in specs]
    strong = StrongBot(rules)
    regrets: list[list[float]] = [[] for _ in specs]
    playouts = [0] * len(specs)
    t0 = time.time()
    for g in range(args.games):
        game = Game(rules, players=2, seed=args.seed * 1000 + g)
        me = g % 2
        greedy = GreedyBot(rules)
        rng = random.Random(args.seed * 7919 + g)
        while not game.is_over():
            seat = game.to_act()
            assert seat is not None
            legal = list(dict.fromkeys(game.legal_moves()))
            view = game.view(seat)
            if seat != me:
                game.play(greedy.choose(view, legal, rng))
                continue
            if len(legal) > 2:
                ref = reference(strong, view, legal, random.Random(rng.getrandbits(64)), args.ref)
                top = max(ref)
                for k, bot in enumerate(bots):
                    pick = bot.choose(view, legal, random.Random(rng.getrandbits(64)))
                    regrets[k].append(top - ref[legal.index(pick)])
                    playouts[k] += bot.last_stats["playouts"]
            game.play(strong.choose(view, legal, rng))
        print(f"game {g + 1}: {len(regrets[0])} positions, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    n = len(regrets[0])
    per_round = n / args.games
    print(
        f"{n} positions in {args.games} single rounds against greedy (seed {args.seed}); reference: {args.ref} worlds,"
        f" every legal move; regret in points (own minus the other's), 'a round' = {per_round:.1f} decisions"
    )
    for k, spec in enumerate(specs):
        r = regrets[k]
        mean = sum(r) / n
        d = [a - b for a, b in zip(r, regrets[0], strict=True)]
        md = sum(d) / n
        sd = math.sqrt(sum((x - md) ** 2 for x in d) / max(1, n - 1))
        half = 1.96 * sd / math.sqrt(n)
        print(
            f"  {spec}: regret {mean:.3f} a decision, {mean * per_round:.2f} a round; minus {specs[0]}:"
            f" {md * per_round:+.2f} a round ({(md - half) * per_round:+.2f} .. {(md + half) * per_round:+.2f});"
            f" {playouts[k] / n:.0f} playouts a decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
