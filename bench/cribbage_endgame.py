"""Cribbage end games against greedy: what a bot's play near the end of a game is worth in games won (issue #14
item 2, "play to the board").

Points per deal measure a bot's play away from the end; near it, what counts is winning the game (spec §5,
"weighted for the board position"), and a game to 121 passes through an end game once, so its share of a bot's
win rate is hard to see in whole games.  This bench plays end games only:

* **The boards** are those where real games enter their end game: from games of greedy against greedy (the arena's,
  seed ``--seed``), the first deal of each game that starts with a player within ``--near`` points of 121 (45:
  strong's end game, :data:`kortbord.bots.cribbage_board.NEAR_END`): both scores and the dealer.
* **Each board is played to the game's end twice** with the seats swapped (duplicate deals: the arena's
  ``play_game`` from a start at that board, its deals drawn from the board's own seed), by every bot of ``--bots``
  against greedy -- the same boards and deals for every bot.
* **Figures**: each bot's win rate (Wilson 95%), and each bot's games won per board less the first bot's on the
  same boards and deals (mean over boards of the difference of the two games' wins, halved: a win rate; normal
  95% interval over boards).

Bots are the kortbord levels and the ``belief`` bench bots of ``bench/cribbage_belief.py``
(``belief:learn=session:kt=0.5:hands=32:budget=12000:endgame=1``: the belief search to the board).  A ``session``
learner learns greedy's play over the boards a worker process plays (the bots of one run share that memory).

Usage (from the repository root)::

    nice -n 5 .venv/bin/python bench/cribbage_endgame.py --boards 400 --seed 1 --jobs 2 \\
        --bots belief:learn=session:kt=0.5:hands=32:budget=12000,belief:learn=session:kt=0.5:hands=32:budget=12000:endgame=1

``--regret K:B,...`` measures instead, without comparing games, what the end game's work bound (``ehands=K``,
``ebudget=B``) costs one belief bot in its own model (:func:`regret`)::

    nice -n 5 .venv/bin/python bench/cribbage_endgame.py --boards 25 --seed 11 \\
        --bots belief:learn=session:kt=0.5:hands=32:budget=12000:endgame=1 --regret 32:12000,128:48000,256:96000
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cribbage_hoyleish
from kortbord import arena
from kortbord.bots import cribbage_board, cribbage_strong
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Play

TARGET = 121


@dataclasses.dataclass(frozen=True)
class Board:
    """A game's entry into its end game: ``scores`` per seat (points, both under 121), ``dealer`` (seat) and
    ``deal`` (the deal's number, 1 = the game's first)."""

    scores: tuple[int, int]
    dealer: int
    deal: int


def boards(n: int, seed: int, near: int = cribbage_board.NEAR_END) -> list[Board]:
    """The first deal within ``near`` points of the target of each of ``n`` games of greedy against greedy (the
    arena's even games ``0, 2, .. 2n - 2`` of seed ``seed``: each block's first, as an odd game shares its deals
    and would often give the same board); games that never start a deal there (one deal takes a player from
    outside ``near`` to the end) give none.

    Raises:
        ValueError: ``near`` not from 1 to 120.
    """
    if not 1 <= near < TARGET:
        raise ValueError(f"near must be from 1 to {TARGET - 1} points, got {near!r}")
    greedy = arena.BotSpec.parse("greedy")
    config = arena.ArenaConfig("cribbage", (greedy, greedy), games=2 * n, seed=seed)
    out = []
    for i in range(n):
        record = arena.play_game(config, 2 * i)
        scores = [0, 0]
        for number, deal in enumerate(record.deals, start=1):
            if max(scores) >= TARGET - near:
                out.append(Board((scores[0], scores[1]), int(deal["dealer"]), number))
                break
            for side, points in enumerate(deal["points"]):
                scores[side] += int(points)
    return out


@dataclasses.dataclass(frozen=True)
class EndgameConfig(arena.ArenaConfig):
    """An arena whose games start at ``board`` (the shuffle of its deal), not at the cut for deal."""

    board: Board = Board((0, 0), 0, 1)

    def new_game(self, rules: Any) -> Any:
        b = self.board
        return engine._between_deals(rules, b.dealer, b.scores, b.deal - 1, (), engine.DEAL)


def _play_one(job: tuple[EndgameConfig, int]) -> Any:
    config, index = job
    return arena.play_game(config, index, factory=cribbage_hoyleish._factory)


def _spec(text: str) -> arena.BotSpec:
    # a bench bot rides as the greedy level with a variant option the factory reads (as cribbage_hoyleish's)
    return arena.BotSpec("greedy", (("variant", text),)) if text.startswith("belief") else arena.BotSpec.parse(text)


def _board_games(start: list[Board], b: int, spec: arena.BotSpec, seed: int) -> list[tuple[EndgameConfig, int]]:
    """Board ``b``'s two games (the seats swapped) of ``spec`` against greedy: the arena's games ``2b`` and ``2b + 1``
    of seed ``seed`` from that board -- the board's own deals, the same for every bot."""
    greedy = arena.BotSpec.parse("greedy")
    config = EndgameConfig("cribbage", (spec, greedy), games=2 * len(start), seed=seed, board=start[b])
    return [(config, 2 * b), (config, 2 * b + 1)]


def run(bots: list[str], n_boards: int, seed: int, jobs: int, near: int = cribbage_board.NEAR_END) -> dict[str, Any]:
    """Every bot of ``bots`` against greedy from the same boards (:func:`boards` of ``n_boards`` games) and deals.

    Returns:
        ``{"boards": k, "bots": {name: {"wins": [per board, 0..2], "win_rate", "win_rate_ci95"}}, "minus_first":
        {name: {"mean", "ci95"}}, "elapsed_s"}`` (a difference is per game: wins over the two games halved).
    Raises:
        ValueError: a bot that cannot be made (checked before any game), a bad ``near``.
    """
    greedy = arena.BotSpec.parse("greedy")
    specs = [_spec(name) for name in bots]
    rules = arena.ArenaConfig("cribbage", (greedy, greedy)).make_rules()
    for spec in specs:
        cribbage_hoyleish._factory(spec, "cribbage", rules)  # a bad bot fails here, before any game
    start = boards(n_boards, seed, near)
    # board by board, every bot's two games together: a learner's memory grows alike for every bot of the run
    jobs_list = [job for b in range(len(start)) for spec in specs for job in _board_games(start, b, spec, seed)]
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            records = list(pool.map(_play_one, jobs_list, chunksize=1))
    else:
        records = [_play_one(j) for j in jobs_list]
    out: dict[str, Any] = {"boards": len(start), "seed": seed, "near": near, "bots": {}, "minus_first": {}}
    per, k_bots = 2 * len(start), len(bots)
    for k, name in enumerate(bots):
        recs = [records[(b * k_bots + k) * 2 + i] for b in range(len(start)) for i in (0, 1)]
        errors = [r.error for r in recs if r.error]
        if errors:
            raise RuntimeError(f"{name}: {errors[0]}")
        wins = [sum(1 for r in recs[2 * b : 2 * b + 2] if r.outcome.get(0) == "win") for b in range(len(start))]
        total = sum(wins)
        lo, hi = arena.wilson(total, per)
        out["bots"][name] = {"wins": wins, "win_rate": total / per, "win_rate_ci95": [lo, hi]}
    first = out["bots"][bots[0]]["wins"]
    for name in bots[1:]:
        diffs = [[(a - b) / 2] for a, b in zip(out["bots"][name]["wins"], first, strict=True)]
        out["minus_first"][name] = arena.cluster_mean_ci(diffs)
    out["elapsed_s"] = time.perf_counter() - t0
    return out


def probing_factory(
    draws: list[tuple[int, int]], attrs: tuple[str, str], applies: Any
) -> tuple[Any, list[tuple[float, list[float], list[float]]], list[float]]:
    """An arena bot factory whose belief bots are probed at each play decision with a choice of ranks where
    ``applies(bot, view)``: every legal card valued by the bot's search given every hand of the posterior and no
    node budget (the work bound's two attributes ``attrs``, ``("ehands", "ebudget")`` or ``("hands", "budget")``,
    set to 0: the exact values of its own model), and each ``(draws, budget)`` of ``draws`` choosing from the same
    position with a copy of the same rng, as the bot's ``choose`` would (ties broken by that rng).  The game goes
    on with the bot's own choice, as in an unmeasured game (the probes read copies of the rng; the bot's ``stats``
    are left as they were).

    Returns:
        ``(factory, rows, played)``: ``rows`` gets, per probed decision the belief search made, ``(CPU seconds of
        the exact search, [regret of each bound], exact values)`` (a regret: the exact best value less the exact
        value of the card chosen); ``played`` the regret of the card the bot played there.
    """
    import random

    import cribbage_belief

    rows: list[tuple[float, list[float], list[float]]] = []
    played: list[float] = []

    def factory(s: arena.BotSpec, game: str, r: Any) -> Any:
        made = cribbage_hoyleish._factory(s, game, r)
        if not isinstance(made, cribbage_belief.BeliefBot):
            return made
        own, own_choose = made.play_values, made.choose

        def play_values(view: Any, legal: Any, rng: random.Random, *args: Any, **kw: Any) -> list[float]:
            ranks = {m.card.rank for m in legal if isinstance(m, Play)}
            if len(ranks) > 1 and applies(made, view):
                state, n_stats = rng.getstate(), len(made.stats)
                bound = tuple(getattr(made, a) for a in attrs)
                try:
                    for a in attrs:
                        setattr(made, a, 0)
                    t0 = time.process_time()
                    exact = own(view, legal, random.Random(0), *args, **kw)
                    spent = time.process_time() - t0
                    searched = len(made.stats) > n_stats  # else strong's search (no hand explains the play)
                    lost = []
                    for k, budget in draws:
                        setattr(made, attrs[0], k)
                        setattr(made, attrs[1], budget)
                        again = random.Random()
                        again.setstate(state)
                        values = own(view, legal, again, *args, **kw)
                        pick = legal.index(cribbage_strong._pick(legal, values, again))
                        lost.append(max(exact) - exact[pick])
                finally:
                    for a, v in zip(attrs, bound, strict=True):
                        setattr(made, a, v)
                    del made.stats[n_stats:]
                if searched:
                    rows.append((spent, lost, exact))
            return own(view, legal, rng, *args, **kw)

        def choose(view: Any, legal: Any, rng: random.Random) -> Any:
            n_rows = len(rows)
            move = own_choose(view, legal, rng)
            if len(rows) > n_rows:  # a measured decision: the card played, charged as the bounds are
                exact = rows[-1][2]
                played.append(max(exact) - exact[list(legal).index(move)])
            return move

        made.play_values = play_values  # type: ignore[method-assign,assignment]
        made.choose = choose  # type: ignore[method-assign]
        return made

    return factory, rows, played


def parse_bounds(text: str, flag: str, names: str) -> list[tuple[int, int]]:
    """``K:B,...`` (a work bound's draws and node budget, whole numbers; 0: every hand, no budget) as pairs.

    Raises:
        ValueError: a part that is not two whole numbers joined by a colon (the message names ``flag`` and the
            pair's ``names``).
    """
    out = []
    for pair in text.split(","):
        k, colon, b = pair.partition(":")
        if not (colon and k.isdecimal() and b.isdecimal()):
            raise ValueError(f"{flag} takes {names} pairs of whole numbers (0: every hand, no budget), got {pair!r}")
        out.append((int(k), int(b)))
    return out


def regret(
    bot: str, n_boards: int, seed: int, draws: list[tuple[int, int]], near: int = cribbage_board.NEAR_END
) -> dict[str, Any]:
    """The in-model regret of the end game's work bound: ``bot`` (a ``belief`` bot with ``endgame=1``) plays greedy
    from :func:`boards` (each board twice, the seats swapped: :func:`run`'s games); at each of its end-game play
    decisions with a choice of ranks each ``(ehands, ebudget)`` of ``draws`` is charged against the exact values of
    the bot's own model (:func:`probing_factory`).

    Returns:
        ``{"decisions": n, "games": 2 * boards, "draws": {"K:B": {"wrong": decisions, "games_lost": regret in games
        (the values' bonus: twice strong's WIN a game), "per_game": that per game}}, "played": the same for the
        cards the bot played, "exact_s": [CPU seconds of each exact search]}``.
    Raises:
        ValueError: a bot that is not a belief bot with ``endgame=1``.
    """
    import cribbage_belief

    spec = _spec(bot)
    rules = arena.ArenaConfig("cribbage", (spec, spec)).make_rules()
    probe = cribbage_hoyleish._factory(spec, "cribbage", rules)
    if not (isinstance(probe, cribbage_belief.BeliefBot) and probe.endgame):
        raise ValueError(f"regret needs a belief bot with endgame=1, got {bot!r}")
    factory, rows, played = probing_factory(draws, ("ehands", "ebudget"), lambda made, view: made._board_play(view))
    start = boards(n_boards, seed, near)
    for b in range(len(start)):
        for config, index in _board_games(start, b, spec, seed):
            record = arena.play_game(config, index, factory=factory)
            if record.error:
                raise RuntimeError(record.error)
    games = 2 * len(start)
    bonus = 2 * cribbage_strong.WIN

    def charged(lost: list[float]) -> dict[str, Any]:
        return {
            "wrong": sum(1 for x in lost if x > 1e-9),
            "games_lost": sum(lost) / bonus,
            "per_game": sum(lost) / bonus / games if games else 0.0,
        }

    out: dict[str, Any] = {"decisions": len(rows), "games": games, "draws": {}, "exact_s": [t for t, _, _ in rows]}
    for j, (k, budget) in enumerate(draws):
        out["draws"][f"{k}:{budget}"] = charged([r[1][j] for r in rows])
    out["played"] = charged(played)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", required=True, help="bots (levels or belief bench bots), comma-separated")
    ap.add_argument("--boards", type=int, default=200, help="games of greedy v greedy the boards are taken from")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--near", type=int, default=cribbage_board.NEAR_END, help="points from 121 (default 45)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument(
        "--regret",
        help="ehands:ebudget pairs, comma-separated: the in-model regret of each end-game work bound for the one bot "
        "of --bots (:func:`regret`; one process: --jobs is not used)",
    )
    args = ap.parse_args(argv)
    if args.boards < 1 or args.jobs < 1:
        ap.error("--boards and --jobs must be 1 or more")
    if args.regret is not None:
        if "," in args.bots:
            ap.error("--regret measures one bot: give one in --bots")
        try:
            draws = parse_bounds(args.regret, "--regret", "ehands:ebudget")
            got = regret(args.bots, args.boards, args.seed, draws, args.near)
        except ValueError as exc:
            ap.error(str(exc))
        times = sorted(got["exact_s"]) or [0.0]
        print(
            f"In-model regret of the end game's draws: {args.bots}, {got['games']} games from {args.boards} boards "
            f"(seed {args.seed}), {got['decisions']} end-game decisions with a choice"
        )
        for key, r in got["draws"].items():
            print(
                f"  ehands:ebudget {key}: {r['wrong']} choices not the exact best, {r['games_lost']:.3f} games lost "
                f"in all, {r['per_game']:.2%} of a game per game"
            )
        r = got["played"]
        print(f"  the cards played: {r['wrong']} not the exact best, {r['per_game']:.2%} of a game per game")
        print(f"  the exact searches: p50 {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s CPU")
        if args.json:
            Path(args.json).write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
        return 0
    try:
        out = run(args.bots.split(","), args.boards, args.seed, args.jobs, args.near)
    except ValueError as exc:
        ap.error(str(exc))
    print(f"Cribbage end games v greedy: {out['boards']} boards (seed {args.seed}, a player within {args.near} of 121)")
    for name, r in out["bots"].items():
        lo, hi = r["win_rate_ci95"]
        print(f"  {name}: {r['win_rate']:.1%} ({lo:.1%}-{hi:.1%}) of {2 * out['boards']} games")
    for name, d in out["minus_first"].items():
        lo, hi = d["ci95"] or (float("nan"), float("nan"))
        print(f"  {name} minus the first: {d['mean']:+.1%} ({lo:+.1%} .. {hi:+.1%}) of the games")
    print(f"  {out['elapsed_s']:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
