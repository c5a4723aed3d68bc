"""What the Cribbage expert's opponent model can say of greedy's pegging, by its features (issue #14 item 2).

The expert reads the other player's pegging with a soft-max over a few features of each legal card
(:func:`kortbord.bots.cribbage_expert.features`, :class:`~kortbord.bots.cribbage_expert.LearntModel`).  Told greedy's
own rule in its place, the expert's bench twin scores +0.09 to +0.12 points a deal more against greedy
(``bench/results/cribbage-expert-2026-12-07.md``, "The eighth session").  This bench asks, without any search, how
much of greedy's choice a soft-max over each feature set can hold at all: with as much data as it likes (greedy
against itself, every pegging decision with a choice of ranks of both seats), fitted by maximum likelihood
(a Gaussian prior of sd ``--sd``, default 10 points, centred on 0 on each weight) on the first half of the games and scored on the
second -- the mean natural log of the chance given to the card laid (higher is better; 0 is a perfect prediction).

Feature sets:

* ``level``: the level's features (14);
* ``level+risk``: and the points a card offers the next player, judged as greedy judges them (a pair, a fifteen
  or 31, a run, each weighted by the chance that the next player holds the answer) but from the cards the
  model's memo key knows -- the player's hand and the count's cards, not the earlier counts' cards or the starter
  (:func:`~kortbord.bots.cribbage_expert.count_risk`; here with the next player's true number of cards, where the
  experiment's model, ``LearntModel(risk=True)``, takes it to hold as many as the layer: -0.318 in place of
  -0.313 on seed 1);
* ``level+judge``: and greedy's own judgement of the card (:func:`kortbord.bots.cribbage_simple.judge_plays`, from
  every card it has seen) -- the upper end, the rule itself as one feature;
* ``prior``: the level's prior (:func:`~kortbord.bots.cribbage_expert.play_prior`), not fitted (the model's start).

Intervals: 95%, each scored game a cluster.  (The judgement separates greedy's choices almost perfectly, so a flat
prior lets its weight grow without bound and a rare miss on the scored games costs thousands: at sd 30 and over the
``level+judge`` figure is meaningless; at sd 3 and 10 the other rows are the same to the third decimal.)  Usage (seconds)::

    .venv/bin/python bench/cribbage_model_features.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

import numpy as np

from kortbord import arena
from kortbord.bots.cribbage_expert import FEATURES, count_risk, features, play_prior
from kortbord.bots.cribbage_simple import GreedyBot, _next_player, _seen, judge_plays
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.view import view

RULES = Rules.from_dict({"players": 2, "target": 121})
#: a decision: per legal rank (its features, then the risk and the judgement; the cards of the rank held), the
#: place of the rank laid
Row = tuple[list[tuple[list[float], int]], int]


def game_rows(seed: int) -> list[Row]:
    """Every pegging decision with a choice of ranks in one game of greedy against itself to 121."""
    greedy = GreedyBot()
    rng = random.Random(seed)
    state = engine.new_game(RULES)
    rows: list[Row] = []
    while not engine.is_over(state):
        if engine.is_chance(state):
            state = engine.apply(state, engine.chance_outcome(state, rng))
            continue
        seat = engine.to_act(state)
        assert seat is not None
        seen = view(state, seat)
        legal = engine.legal_moves(state)
        move = greedy.choose(seen, legal, rng)
        ranks = sorted({m.card.rank for m in legal if isinstance(m, Play)})
        if seen.phase == "play" and len(ranks) >= 2 and isinstance(move, Play):
            hand = tuple(sorted(c.rank for c in seen.hand))
            seq = tuple(c.rank for c in seen.sequence)
            nxt = _next_player(seen)
            n = seen.hand_sizes[nxt] if nxt is not None else 0
            judged = judge_plays(seen.hand, [c.rank for c in _seen(seen)], seen.sequence, seen.count, n, nxt is None)
            options = [
                (
                    [*features(hand, seq, seen.count, r, n > 0), count_risk(hand, seq, seen.count, r, n), judged[r]],
                    hand.count(r),
                )
                for r in ranks
            ]
            rows.append((options, ranks.index(move.card.rank)))
        state = engine.apply(state, move)
    return rows


def _arrays(rows: list[Row], cols: list[int]) -> tuple[Any, Any, Any]:
    x = np.zeros((len(rows), 4, len(cols)))
    mult = np.full((len(rows), 4), -np.inf)
    y = np.zeros(len(rows), dtype=np.int64)
    for i, (options, j) in enumerate(rows):
        for c, (f, held) in enumerate(options):
            x[i, c] = [f[q] for q in cols]
            mult[i, c] = math.log(held)
        y[i] = j
    return x, mult, y


def fit(rows: list[Row], cols: list[int], sd: float = 10.0) -> Any:
    """The soft-max's weights on ``cols`` fitted to ``rows`` by Newton's method (Gaussian prior ``sd`` at 0)."""
    x, mult, y = _arrays(rows, cols)
    w = np.zeros(len(cols))
    for _ in range(60):
        z = x @ w + mult
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nc,ncf->nf", p, x)
        grad = (x[np.arange(len(y)), y] - mean).sum(axis=0) - w / sd**2
        hess = -(np.einsum("nc,ncf,ncg->fg", p, x, x) - mean.T @ mean) - np.eye(len(cols)) / sd**2
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-7:
            break
    return w


def log_chances(rows: list[Row], cols: list[int], w: Any) -> list[float]:
    """The natural log of the chance the weights ``w`` on ``cols`` give each card laid in ``rows``."""
    x, mult, y = _arrays(rows, cols)
    z = x @ w + mult
    z = z - z.max(axis=1, keepdims=True)
    lp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return [float(v) for v in lp[np.arange(len(y)), y]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of greedy against itself (half fit, half scored)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sd", type=float, default=10.0, help="the fit's Gaussian prior's sd, points (default 10)")
    args = parser.parse_args()
    if args.games < 4:
        parser.error("--games must be at least 4")
    if not 0.01 <= args.sd <= 1000:
        parser.error("--sd must be from 0.01 to 1000")
    games = [game_rows(args.seed * 1_000_003 + g) for g in range(args.games)]
    train = [r for g in games[: args.games // 2] for r in g]
    test = games[args.games // 2 :]
    k = len(FEATURES)
    level = list(range(k))
    sets = {"level": level, "level+risk": [*level, k], "level+judge": [*level, k + 1]}
    print(
        f"greedy v greedy, seed {args.seed}, sd {args.sd:g}: fitted on {len(train)} decisions of {args.games // 2} games, scored on"
    )
    print(f"{sum(map(len, test))} decisions of {len(test)} games; mean log chance of the card laid (95%, games)")
    prior = np.array(play_prior())
    figures = {"prior (not fitted)": [log_chances(g, level, prior) for g in test if g]}
    for name, cols in sets.items():
        w = fit(train, cols, args.sd)
        figures[name] = [log_chances(g, cols, w) for g in test if g]
    for name, per_game in figures.items():
        ci = arena.cluster_mean_ci(per_game)
        print(f"  {name:20s} {ci['mean']:+.3f} ({ci['ci95'][0]:+.3f} .. {ci['ci95'][1]:+.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
