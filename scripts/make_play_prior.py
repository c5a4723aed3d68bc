#!/usr/bin/env python3
"""Fit the Cribbage expert's prior of how an opponent pegs (``bots/data/play_prior.json``).

The expert learns its opponent's play within a game (:class:`kortbord.bots.cribbage_expert.LearntModel`: a
soft-max over the features of a card, :func:`~kortbord.bots.cribbage_expert.features`, fitted to the opponent's
decisions of the deals so far).  Before the first deal is complete it has no data; its prior is then the model of
a sensible player: the same soft-max fitted, by the same maximum likelihood (centred on weight 1 on the points a
card scores, sd 3), to every pegging decision of both players in ``--games`` two-player games to 121 of
kortbord's ``strong`` level against itself -- kortbord's own strongest general player, not an opponent the expert
is measured against.  Each deal's whole play is read as the table shows it (two players lay every card).

Usage::

    .venv/bin/python scripts/make_play_prior.py [--games 24] [--seed 1] [--out src/kortbord/bots/data/play_prior.json]

``--risk --out FILE`` fits the experiment's model with the points a card offers as well
(:data:`~kortbord.bots.cribbage_expert.FEATURES_RISK`; the bench's ``belief:...:risk=1``,
``bench/data/play_prior_risk.json``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import time
from pathlib import Path

from kortbord import core
from kortbord.bots import registry
from kortbord.bots.cribbage_expert import FEATURES, FEATURES_RISK, Decision, LearntModel, decisions_seen
from kortbord.cards import Card

OUT = Path(__file__).resolve().parents[1] / "src" / "kortbord" / "bots" / "data" / "play_prior.json"


def selfplay_decisions(games: int, seed: int, level: str = "strong") -> list[Decision]:
    """Every pegging decision of both players in ``games`` games of ``level`` against itself, to 121."""
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": 121}, players=2)
    out: list[Decision] = []
    for g in range(games):
        state = spec.new_game(rules, players=2)
        bots = [registry.make_bot("cribbage", level, rules) for _ in range(2)]
        chance = random.Random(f"play-prior:{seed}:{g}:deals")
        rngs = [random.Random(f"play-prior:{seed}:{g}:seat:{s}") for s in range(2)]
        laid: list[tuple[int, Card]] = []
        while not spec.is_over(state):
            if spec.is_chance(state):
                state, events = spec.step(state, spec.chance_outcome(state, chance))
            else:
                seat = spec.to_act(state)
                assert seat is not None
                move = bots[seat].choose(spec.view(state, seat), list(spec.legal_moves(state)), rngs[seat])
                state, events = spec.step(state, move)
            for event in events:
                if event.kind == "play":
                    laid.append((int(event["seat"]), Card.parse(str(event["card"]))))
                elif event.kind in ("deal", "game_over"):
                    for me in (0, 1):
                        out.extend(decisions_seen(tuple(laid), me))
                    laid = []
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--risk",
        action="store_true",
        help="the experiment's model with the points a card offers (FEATURES_RISK); needs --out (not the level's file)",
    )
    args = ap.parse_args(argv)
    if args.risk and args.out.resolve() == OUT.resolve():
        ap.error("--risk makes the experiment's prior: give --out (the level's file keeps the level's features)")
    t0 = time.perf_counter()
    decisions = selfplay_decisions(args.games, args.seed)
    model = LearntModel(risk=args.risk)
    model.fit(decisions)
    doc = {
        "metadata": {
            "description": "the Cribbage expert's prior of an opponent's pegging: LearntModel weights fitted to "
            "strong's self-play; see scripts/make_play_prior.py",
            "games": args.games,
            "seed": args.seed,
            "decisions": len(decisions),
            "date": dt.date.today().isoformat(),
            "command": f"python scripts/make_play_prior.py --games {args.games} --seed {args.seed}"
            + (f" --risk --out {args.out}" if args.risk else ""),
            "seconds": round(time.perf_counter() - t0, 1),
        },
        "features": list(FEATURES_RISK if args.risk else FEATURES),
        "weights": [round(float(w), 6) for w in model.weights],
    }
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"{len(decisions)} decisions from {args.games} games; weights {doc['weights']}; written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
