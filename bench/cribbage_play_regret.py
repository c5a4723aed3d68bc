"""What the play's work bound costs a belief bot away from the end game, in its own model (issue #14 items 1, 2).

The belief bot of ``bench/cribbage_belief.py`` searches each play decision with ``hands=K`` hands drawn from its
posterior over the other player's hand and a node budget ``budget=B`` (item 1: strength is work, not time).  Near
the end of the game (``endgame=1``) its own bound ``ehands``/``ebudget`` holds, measured by
``bench/cribbage_endgame.py --regret``; this bench measures the rest of the play, where the search plays for the
points (spec §2.4 pegging, own minus the other's):

* the bot plays whole games to 121 against greedy (the arena's games ``0 .. N-1`` of ``--seed``, the bot in seat
  ``i mod 2``);
* at each of its play decisions away from the board with a choice of ranks, every legal card is valued by its
  search given every hand of the posterior and no budget -- the exact values of its own model -- and each bound of
  ``--draws`` chooses from the same position with a copy of the bot's rng (``cribbage_endgame.probing_factory``);
* a choice's regret is the exact best value less the exact value of the card it chose (pegging points); the
  figures are per deal the bot played (each game's last deal, cut short at 121, among them: a little more than the
  arena's complete deals), to set beside a bot's points per deal against greedy.

The regret is in the bot's model (its posterior and its model of the other player), not in games won: it says
where more draws could pay, not that they do.

Usage (from the repository root)::

    nice -n 5 .venv/bin/python bench/cribbage_play_regret.py --games 20 --seed 11 \\
        --bot belief:learn=session:kt=0.5:hands=32:budget=12000:endgame=1 --draws 32:12000,64:24000,128:48000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cribbage_endgame
import cribbage_hoyleish
from kortbord import arena


def play_regret(bot: str, games: int, seed: int, draws: list[tuple[int, int]]) -> dict[str, Any]:
    """``bot`` (a ``belief`` bot) against greedy over the arena's games ``0 .. games-1`` of ``seed``; at each of its
    play decisions away from the board (the belief search playing for the points) with a choice of ranks, each
    ``(hands, budget)`` of ``draws`` is charged against the exact values of the bot's own model.

    Returns:
        ``{"games", "deals": deals the bot played, "decisions": probed decisions, "draws": {"K:B": {"wrong":
        decisions not the exact best, "points": regret in all (pegging points), "per_deal": points per deal,
        "per_deal_ci95": the arena's cluster-robust 95% interval, a game a cluster; None from one game}}, "played": the same for the cards the bot played,
        "exact_s": [CPU seconds of each exact search]}``.
    Raises:
        ValueError: ``games`` under 1, or a bot that is not a belief bot.
        RuntimeError: a game that ended in a bot's error.
    """
    import cribbage_belief

    if games < 1:
        raise ValueError(f"games must be 1 or more, got {games!r}")
    spec = cribbage_endgame._spec(bot)
    greedy = arena.BotSpec.parse("greedy")
    config = arena.ArenaConfig("cribbage", (spec, greedy), games=games, seed=seed)
    if not isinstance(cribbage_hoyleish._factory(spec, "cribbage", config.make_rules()), cribbage_belief.BeliefBot):
        raise ValueError(f"play regret needs a belief bot, got {bot!r}")
    factory, rows, played = cribbage_endgame.probing_factory(
        draws, ("hands", "budget"), lambda made, view: not made._board_play(view)
    )
    per_game: list[tuple[int, int, int]] = []  # (deals, first row, first played) of each game
    for i in range(games):
        first_row, first_played = len(rows), len(played)
        record = arena.play_game(config, i, factory=factory)
        if record.error:
            raise RuntimeError(record.error)
        per_game.append((len(record.deals), first_row, first_played))
    bounds = (len(rows), len(played))
    deals = sum(d for d, _, _ in per_game)

    def charged(lost: list[float], index: int) -> dict[str, Any]:
        # a game's regret (points) over its deals, the game one cluster (its decisions share its learner): the
        # arena's cluster-robust interval of the mean a deal, no interval from one game
        clusters = []
        for g, (d, r0, p0) in enumerate(per_game):
            r1 = per_game[g + 1][1 + index] if g + 1 < len(per_game) else bounds[index]
            x = sum(lost[(r0, p0)[index] : r1])
            clusters.append([x] + [0.0] * (d - 1) if d else [])
        ci = arena.cluster_mean_ci(clusters)
        return {
            "wrong": sum(1 for x in lost if x > 1e-9),
            "points": sum(lost),
            "per_deal": ci["mean"] or 0.0,
            "per_deal_ci95": ci["ci95"],
        }

    out: dict[str, Any] = {
        "games": games,
        "deals": deals,
        "decisions": len(rows),
        "draws": {},
        "exact_s": [t for t, _, _ in rows],
    }
    for j, (k, budget) in enumerate(draws):
        out["draws"][f"{k}:{budget}"] = charged([r[1][j] for r in rows], 0)
    out["played"] = charged(played, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", required=True, help="one belief bench bot (bench/cribbage_belief.py)")
    ap.add_argument("--games", type=int, default=20, help="whole games to 121 against greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draws", required=True, help="hands:budget pairs, comma-separated (each bound charged)")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    try:
        draws = cribbage_endgame.parse_bounds(args.draws, "--draws", "hands:budget")
        got = play_regret(args.bot, args.games, args.seed, draws)
    except ValueError as exc:
        ap.error(str(exc))
    times = sorted(got["exact_s"]) or [0.0]
    print(
        f"In-model regret of the play's draws away from the end game: {args.bot}, {got['games']} games against "
        f"greedy (seed {args.seed}), {got['deals']} deals, {got['decisions']} decisions with a choice"
    )
    for key, r in [*got["draws"].items(), ("played", got["played"])]:
        lo, hi = r["per_deal_ci95"] or (float("nan"), float("nan"))
        name = "the cards played" if key == "played" else f"hands:budget {key}"
        print(
            f"  {name}: {r['wrong']} choices not the exact best, {r['points']:.2f} points in all, "
            f"{r['per_deal']:.4f} ({lo:.4f} .. {hi:.4f}) points per deal"
        )
    print(f"  the exact searches: p50 {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s CPU")
    if args.json:
        Path(args.json).write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
