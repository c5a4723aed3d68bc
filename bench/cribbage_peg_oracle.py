"""How much of the pegging the strong Cribbage player loses by not seeing the other hand (issue #14 item 2).

An upper bound on what any opponent model could gain: the *oracle* is strong's pegging search run on the true
deal (the opponent's real four cards; one deal instead of sampled ones) against the ordinary strong player.
Both discard as strong does (the oracle's discard is strong's own), so the two differ only in the play.

Duplicate deals at 0-0 of a two-player game to 121: each random deal is played twice with the seats swapped
(oracle dealing, then strong dealing), both seats' decisions drawn from the same per-deal seed; a deal's margin is
the oracle's pegging points minus strong's in the same seat with the same cards, as dealer and as pone, and their
mean.  Only the play is counted (the rules' Muggins option stops the deal at the show, which the two share).
95% intervals: normal, over deals (each deal is independent).

``--a`` replaces the oracle by a strong variant (StrongBot options ``name=value`` joined by ``:``, e.g.
``play_model=1``): the same duplicate deals measure the variant's play against strong's; the variant's play
decision times (one core, wall clock) are reported too.

``--opp LEVEL`` (e.g. ``greedy``): both the variant and strong play against that level instead of each other, on
the same deals, seats and seeds; a deal's margin in a seat is (the variant's pegging points minus its opponent's)
minus (strong's minus its opponent's) -- what the variant gains over strong against that player.

Reproduce with::

    nice -n 10 .venv/bin/python bench/cribbage_peg_oracle.py --deals 400 --seed 5
    nice -n 10 .venv/bin/python bench/cribbage_peg_oracle.py --deals 1000 --seed 5 --a play_model=1
    nice -n 10 .venv/bin/python bench/cribbage_peg_oracle.py --deals 400 --seed 21 --a reply=0.05:play_model=0.1 \
        --opp greedy
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from kortbord.bots import cribbage_strong as cs
from kortbord.bots import registry
from kortbord.cards import full_deck
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.state import State
from kortbord.cribbage.view import View, view

TIMES: dict[int, list[float]] = {}  # play decisions with a choice: seconds, by bot
RULES = Rules.from_dict({"players": 2, "target": 121, "muggins": True})  # the deal stops at the show


class OracleBot(cs.StrongBot):
    """Strong, but its pegging search sees the true deal (``truth``, set by the harness before each move)."""

    truth: State | None = None

    def play_values(self, view: View, legal_moves: Any, rng: random.Random, *args: Any, **kw: Any) -> list[float]:
        assert self.truth is not None
        search = cs._Search(view.seat, view.rules, self.truth)
        return [search.value_after(m) for m in legal_moves]


def play_deal(bots: list[Any], cards: list[Any], seed: int) -> tuple[int, int]:
    """One deal from 0-0 with seat 0 dealing: the pegging points (seat 0, seat 1)."""
    state = engine.position(RULES, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12])
    rng = random.Random(seed)
    while state.phase_name in ("discard", "play"):
        seat = engine.to_act(state)
        assert seat is not None
        moves = engine.legal_moves(state)
        bot = bots[seat]
        if isinstance(bot, OracleBot):
            bot.truth = state
        t = time.perf_counter()
        move = bot.choose(view(state, seat), moves, rng)
        if state.phase_name == "play" and len(moves) > 1:
            TIMES.setdefault(id(bot), []).append(time.perf_counter() - t)
        state = engine.apply(state, move)
    heels = 2 if cards[12].rank == 11 else 0
    return state.scores[0] - heels, state.scores[1]


def ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--a", default="oracle", help="oracle, or StrongBot options name=value[:name=value]")
    parser.add_argument(
        "--opp",
        default="",
        help="an opponent level both face (e.g. greedy): the margin is then (A's points minus the opponent's) "
        "minus (strong's points minus the opponent's) on the same deals and seats",
    )
    args = parser.parse_args()
    master = random.Random(args.seed)
    deck = list(full_deck())
    if args.a == "oracle":
        oracle: cs.StrongBot = OracleBot(RULES)
    else:
        opts = {k: float(v) for k, _, v in (part.partition("=") for part in args.a.split(":"))}
        oracle = cs.StrongBot(RULES, **opts)  # type: ignore[arg-type]
    strong = cs.StrongBot(RULES)
    opp = registry.make_bot("cribbage", args.opp, RULES) if args.opp else None
    dealer_m, pone_m = [], []
    t0 = time.time()
    for i in range(args.deals):
        cards = master.sample(deck, 13)
        seed = master.getrandbits(32)
        if opp is None:
            o_deal, s_pone = play_deal([oracle, strong], cards, seed)
            s_deal, o_pone = play_deal([strong, oracle], cards, seed)
            dealer_m.append(o_deal - s_deal)
            pone_m.append(o_pone - s_pone)
        else:  # each against the opponent, both seats, the same deals and seeds
            a_deal, x_pone = play_deal([oracle, opp], cards, seed)
            x_deal, a_pone = play_deal([opp, oracle], cards, seed)
            b_deal, y_pone = play_deal([strong, opp], cards, seed)
            y_deal, b_pone = play_deal([opp, strong], cards, seed)
            dealer_m.append((a_deal - x_pone) - (b_deal - y_pone))
            pone_m.append((a_pone - x_deal) - (b_pone - y_deal))
        if (i + 1) % 50 == 0:
            print(f"{i + 1} deals, {time.time() - t0:.0f} s", flush=True)
    margin = [(a + b) / 2 for a, b in zip(dealer_m, pone_m, strict=True)]
    vs = f" (each against {args.opp}: own minus the opponent's)" if opp is not None else ""
    print(f"{args.a} minus strong{vs}, pegging points per deal over {args.deals} duplicate deals (95% CI):")
    print(f"  margin {ci(margin)}   as dealer {ci(dealer_m)}   as pone {ci(pone_m)}")
    for name, bot in ((args.a, oracle), ("strong", strong)):
        ts = sorted(TIMES.get(id(bot), [0.0]))
        p95 = ts[int(0.95 * (len(ts) - 1))]
        print(f"  {name}: {len(ts)} play decisions, mean {1e3 * statistics.fmean(ts):.1f} ms, p95 {1e3 * p95:.1f} ms")
    print(f"  {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
