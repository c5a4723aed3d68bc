"""Learn a Cribbage discard policy on CPU in about two minutes: a linear model (NumPy least squares) of the points a
deal is worth, and the policy that lays away the two cards the model rates best.

What is measured: the **net points per deal** of the learner's seat (its points minus the opponent's over one
deal: pegging, the show and the crib) in two-player standard Cribbage, every other decision (the learner's
pegging, all of the opponent's play) made by kortbord's ``greedy`` bot.  The learned policy and uniformly random
discards play the same **duplicate deals** (the same shuffle, the same dealer, the same seeds for the bots), so
the difference per deal is paired; the report gives its mean and a 95% confidence interval (normal approximation,
1.96 standard errors).  The greedy bot's own discards are measured on the same deals as a reference.

Features of a discard (the crib sign is +1 when the learner deals, -1 otherwise): the kept four cards' show
points averaged over the 46 possible starters, the two discards' fifteens and pairs and fives times the crib
sign, each discard's rank times the crib sign (one-hot), and a constant.  Training targets are the net points of
a deal played out with every one of the 15 possible discards.

Run:  .venv/bin/python examples/research/cribbage_discard.py [--train 1000] [--eval 2000] [--seed 1]
The game is driven only through ``kortbord.core.get("cribbage")`` and the bot registry.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from itertools import combinations
from typing import Any

import numpy as np

from kortbord import core
from kortbord.bots.registry import make_bot
from kortbord.cards import Card, full_deck
from kortbord.cribbage.scoring import card_value, show_total

GAME = core.get("cribbage")
RULES = GAME.make_rules({"profile": "standard"}, players=2)
DECK = tuple(full_deck(1))
N_FEATURES = 4 + 13 + 1


def _rank(card: Card) -> int:
    return int(card) // 4  # 0 = ace .. 12 = king


def features(hand: tuple[Card, ...], discard: tuple[Card, ...], my_crib: bool) -> np.ndarray:
    """The feature vector of laying ``discard`` away from the six-card ``hand``."""
    kept = [c for c in hand if c not in discard]
    starters = [c for c in DECK if c not in hand]
    show = sum(show_total(kept, s) for s in starters) / len(starters)
    sign = 1.0 if my_crib else -1.0
    a, b = discard
    out = np.zeros(N_FEATURES)
    out[0] = show
    out[1] = sign * (card_value(a) + card_value(b) == 15)
    out[2] = sign * (_rank(a) == _rank(b))
    out[3] = sign * ((_rank(a) == 4) + (_rank(b) == 4))
    out[4 + _rank(a)] += sign
    out[4 + _rank(b)] += sign
    out[-1] = 1.0
    return out


def play_deal(seed: int, learner: int, discard: Any) -> tuple[float, tuple[Card, ...], bool]:
    """One deal from ``seed`` (the dealer alternates with the seed): the learner's net points when it lays away
    ``discard(view, options, my_crib)`` and the greedy bot makes every other decision.  Returns (net points, the
    learner's six cards, the learner deals)."""
    rng = random.Random(seed)
    dealer = seed % 2
    bot = make_bot("cribbage", "greedy", RULES)
    state = GAME.new_game(RULES, dealer=dealer)
    state = GAME.apply(state, GAME.chance_outcome(state, rng))
    hand: tuple[Card, ...] = tuple(GAME.view(state, learner).hand)
    bots = random.Random(seed ^ 0x5EED)
    while not GAME.is_chance(state) and not GAME.is_over(state):
        seat = GAME.to_act(state)
        assert seat is not None
        legal = GAME.legal_moves(state)
        view = GAME.view(state, seat)
        if seat == learner and GAME.move_json(legal[0])["kind"] == "discard":
            move = discard(view, legal, dealer == learner)
        else:
            move = bot.choose(view, legal, bots)
        state = GAME.apply(state, move)
    scores = GAME.view(state, learner).scores
    return float(scores[learner] - scores[1 - learner]), hand, dealer == learner


def train(deals: int, seed: int) -> np.ndarray:
    """Least-squares weights from ``deals`` deals, each played out with all 15 discards."""
    xs, ys = [], []
    for i in range(deals):
        s = seed * 1_000_003 + i
        _, hand, my_crib = play_deal(s, 0, lambda v, legal, mc: legal[0])
        for pair in combinations(sorted(hand), 2):
            net, _, _ = play_deal(s, 0, lambda v, legal, mc, pair=pair: next(m for m in legal if m.cards == pair))
            xs.append(features(hand, pair, my_crib))
            ys.append(net)
    weights, *_ = np.linalg.lstsq(np.array(xs), np.array(ys), rcond=None)
    return weights


def learned_policy(weights: np.ndarray) -> Any:
    """Lay away the discard with the highest predicted net points."""

    def choose(view: Any, legal: list[Any], my_crib: bool) -> Any:
        hand = tuple(view.hand)
        return max(legal, key=lambda m: float(features(hand, m.cards, my_crib) @ weights))

    return choose


def evaluate(policy: Any, deals: int, seed: int) -> tuple[float, float, float]:
    """Mean paired difference of net points per deal, policy minus random discards, on ``deals`` duplicate deals
    (seeds not used in training): (mean, 95% CI low, high)."""
    diffs = []
    for i in range(deals):
        s = 10**9 + seed * 1_000_003 + i
        pick = random.Random(s ^ 0xD15C)
        net_policy, _, _ = play_deal(s, 0, policy)
        net_random, _, _ = play_deal(s, 0, lambda v, legal, mc, pick=pick: pick.choice(legal))
        diffs.append(net_policy - net_random)
    d = np.array(diffs)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return mean, mean - half, mean + half


def main(train_deals: int = 1000, eval_deals: int = 2000, seed: int = 1) -> dict[str, Any]:
    """Train, then evaluate the learned policy and the greedy bot's discards against random discards."""
    t0 = time.perf_counter()
    weights = train(train_deals, seed)
    t1 = time.perf_counter()
    learned = evaluate(learned_policy(weights), eval_deals, seed)
    greedy_bot = make_bot("cribbage", "greedy", RULES)
    greedy_rng = random.Random(seed)

    reference = evaluate(lambda v, legal, mc: greedy_bot.choose(v, legal, greedy_rng), eval_deals, seed)
    t2 = time.perf_counter()
    print(f"trained on {train_deals} deals x 15 discards in {t1 - t0:.0f} s; evaluated on {eval_deals} duplicate deals")
    print("weights:", " ".join(f"{w:+.2f}" for w in weights))
    for name, (mean, low, high) in (("learned linear policy", learned), ("greedy bot discards", reference)):
        print(f"{name}: {mean:+.2f} net points per deal vs random discards (95% CI {low:+.2f} .. {high:+.2f})")
    print(f"total {t2 - t0:.0f} s")
    return {"weights": weights, "learned": learned, "greedy": reference}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=1000, help="training deals (each played with 15 discards)")
    parser.add_argument("--eval", type=int, default=2000, help="duplicate evaluation deals")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    main(args.train, args.eval, args.seed)
