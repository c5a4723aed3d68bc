"""How much the strong Cribbage player's sampled deals know of the other hand (issue #14 item 2).

At each of strong's play decisions with a choice (two players, deals at 0-0, strong against ``--opp``), each
sampler configuration draws ``--samples`` deals consistent with strong's view and weights them as it would in the
search; the figure is the weighted share of the opponent's cards still held that the sampled hand holds too,
averaged over decisions.  The search on the true deal (the oracle of ``bench/cribbage_peg_oracle.py`` and
``bench/cribbage_outside.py --bot oracle``) has 1; deals drawn without any weight have about the chance level
(the cards held over the cards unseen).  It says how far an opponent model has moved the sampled deals towards
the truth -- the gap between strong and the oracle is worth about a point a deal in the pegging.

Configurations: ``uniform`` (no weight), ``strong`` (the level's keep weight, ``_Sampler._weight``), and the
experiments ``keep_model=0.5``, ``take=0.9``, ``play_model=0.1`` and ``take=0.9 + keep_model=0.5``
(``kortbord.bots.cribbage_strong.StrongBot``).  Every configuration reads the same decisions with the same seeds.

Reproduce with::

    nice -n 5 .venv/bin/python bench/cribbage_posterior.py --deals 100 --samples 200 --opp greedy
"""

from __future__ import annotations

import argparse
import random
import statistics

from kortbord.bots import cribbage_strong as cs
from kortbord.bots import registry
from kortbord.cards import full_deck
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.view import view

RULES = Rules.from_dict({"players": 2, "target": 121, "muggins": True})  # the deal stops at the show
#: name -> (play_model, take, keep_model, the level's keep weight on)
CONFIGS = {
    "uniform": (0.0, 0.0, 0.0, False),
    "strong": (0.0, 0.0, 0.0, True),
    "keep_model=0.5": (0.0, 0.0, 0.5, True),
    "take=0.9": (0.0, 0.9, 0.0, True),
    "play_model=0.1": (0.1, 0.0, 0.0, True),
    "take=0.9:keep_model=0.5": (0.0, 0.9, 0.5, True),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300, help="deals drawn per decision and configuration")
    parser.add_argument("--opp", default="greedy", help="the opponent's level (greedy, strong)")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    if args.deals < 1 or args.samples < 1:
        parser.error("--deals and --samples must be at least 1")
    master = random.Random(args.seed)
    deck = list(full_deck())
    me = cs.StrongBot(RULES)
    opp = registry.make_bot("cribbage", args.opp, RULES)
    shares: dict[str, list[float]] = {name: [] for name in CONFIGS}
    chance: list[float] = []
    for deal in range(args.deals):
        cards = master.sample(deck, 13)
        state = engine.position(
            RULES, phase="discard", dealer=deal % 2, hands=[cards[:6], cards[6:12]], starter=cards[12]
        )
        rng = random.Random(master.getrandbits(32))
        while state.phase_name in ("discard", "play"):
            seat = engine.to_act(state)
            assert seat is not None
            moves = engine.legal_moves(state)
            v = view(state, seat)
            held = set(state._hands[1])
            if seat == 0 and state.phase_name == "play" and len(moves) > 1 and held:
                unseen = 52 - len(v.hand) - len(v.discards) - len(v.played) - 1
                chance.append(len(held) / unseen)
                seed = rng.getrandbits(32)
                for name, (play_model, take, keep_model, weighted) in CONFIGS.items():
                    sampler = cs._Sampler(v, play_model, take, keep_model)
                    if not weighted:
                        sampler._weight = lambda kept: 1.0  # type: ignore[method-assign]
                    draw = random.Random(seed)
                    num = den = 0.0
                    for _ in range(args.samples):
                        st, w = sampler.sample(draw)
                        num += w * len(set(st._hands[1]) & held) / len(held)
                        den += w
                    shares[name].append(num / den)
            bot = me if seat == 0 else opp
            state = engine.apply(state, bot.choose(v, moves, rng))
    n = len(chance)
    if n < 2:
        print(f"only {n} play decisions with a choice: give more --deals")
        return 1
    print(f"strong v {args.opp}: {args.deals} deals, {n} play decisions, {args.samples} sampled deals each")
    print(f"  the true deal (oracle)        1.000\n  chance level                  {statistics.fmean(chance):.3f}")
    for name, xs in shares.items():
        m = statistics.fmean(xs)
        h = 1.96 * statistics.stdev(xs) / n**0.5
        print(f"  {name:<28}  {m:.3f} ({m - h:.3f} .. {m + h:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
