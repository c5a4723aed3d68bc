"""CPU time per decision of a ``bench/mulle_expert.py`` variant playing against greedy (issue #14 items 3 and 6).

The variant (``expert:reply=greedy:reply_depth=3``, ``strong``) plays seeded two-player games to 100 against
``greedy``, seats alternating; every ``choose`` of the variant with more than one legal move is timed with
``time.process_time`` (CPU, so another program on the machine does not lengthen it) until ``--decisions`` are
timed.  Prints the decisions and CPU p50 / p95 / max in milliseconds (goal: p95 under 250 ms).

Usage::

    nice -n 10 .venv/bin/python bench/mulle_expert_times.py --a expert:reply=greedy --decisions 300 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from kortbord.arena import percentile
from kortbord.bots.mulle_simple import GreedyBot
from kortbord.mulle import Game, Rules

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from mulle_expert import _factory, _parse


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = Rules()
    cpu: list[float] = []
    g = 0
    while len(cpu) < args.decisions:
        game = Game(rules, players=2, seed=args.seed * 1000 + g)
        me = g % 2
        bots = {me: _factory(_parse(args.a), "mulle", rules), 1 - me: GreedyBot(rules)}
        rngs = [random.Random(args.seed * 1000 + g * 10 + s) for s in range(2)]
        g += 1
        while not game.is_over() and len(cpu) < args.decisions:
            seat = game.to_act()
            assert seat is not None
            legal = game.legal_moves()
            t0 = time.process_time()
            move = bots[seat].choose(game.view(seat), legal, rngs[seat])
            if seat == me and len(set(legal)) > 1:
                cpu.append(1000 * (time.process_time() - t0))
            game.play(move)
    print(
        f"{args.a} v greedy: {len(cpu)} decisions, CPU p50 {percentile(cpu, 50):.1f} / p95 {percentile(cpu, 95):.1f}"
        f" / max {max(cpu):.1f} ms ({g} games, seed {args.seed})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
