"""Cribbage bots against an outside open-source player: BSD ``cribbage(6)`` (issue #14 item 2).

The outside player is the computer side of BSD cribbage (Debian ``bsdgames``, ``/usr/games/cribbage``), bridged
through kortbord's engine as referee by ``bench/bsd_cribbage.py`` (a pty driver and an ``LD_PRELOAD`` shim that
makes the program's ``rand()`` deal the referee's cards; see that module).  Duplicate deals: block ``b`` draws
its cut for deal and its shuffles from ``random.Random(f"kortbord-outside:{seed}:deals:{b}")`` and is played
twice, the bot in seat 0 and then in seat 1, so each side holds the same cards in the other game.  The bot in
game ``i`` draws from ``random.Random(f"kortbord-outside:{seed}:game:{i}:bot")``.  The bot (``--bot``) and its
peer (``--peer``, default ``greedy``) play the same blocks.

Figures, per bot (the arena's definitions, ``kortbord.arena``):

* **points per deal**, the margin: per deal that both games of a block played in full with the same dealer,
  the mean over the two games of (bot's points - program's points); as dealer: the bot's points as dealer
  minus the program's as dealer with the same cards (the other game), as pone likewise.  95% cluster-robust
  intervals, a block per cluster (``kortbord.arena.cluster_mean_ci``).
* **win rate** of games to 121, with the Wilson 95% interval (``kortbord.arena.wilson``).

The goal beside them: an expert level scores **at least +0.8 points per deal** against an outside player.

Usage (from the repository root, one process or two)::

    nice -n 10 .venv/bin/python bench/cribbage_outside.py --bot strong --games 200 --seed 1 [--peer greedy] [--jobs 2]

``--bot oracle`` is strong with its pegging search on the true deal (the program's real hand, from the referee):
the ceiling on what reading the program's hand in the play could gain.  The report splits each margin into the
pegging and the shows (hands and cribs: what the discards are worth).  ``--bot modelled[:option=value...]`` is
strong (its options, plus ``slip``, ``rule_reply=1`` and ``draws``, the deals drawn a decision at most) given the program's own play rule (``program_rank``) as
evidence and, with ``rule_reply=1``, as the program's replies in its search: the ceiling on what a model of the
program learnt from the hands it shows could gain.  ``--bot belief[:option=value...]`` (``bench/cribbage_belief.py``)
searches the play exactly over the program's possible hands, weighted by a keep table (``keep=bsd``: the program's
own discard) and by its rule: a perfectly learnt model of the program with nothing sampled.

``--games`` is the number of games per bot (rounded up to whole blocks of two); ``--json FILE`` writes every
game's record.  Needs ``/usr/games/cribbage`` (apt ``bsdgames``), ``gcc`` and the ``pexpect``/``pyte`` packages
(the ``dev`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bsd_cribbage as bridge
import cribbage_belief
from kortbord import core
from kortbord.arena import BotSpec, cluster_mean_ci, wilson
from kortbord.bots import cribbage_strong
from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.scoring import card_value

GOAL = 0.8  # points per deal, issue #14 item 2


class OracleBot(cribbage_strong.StrongBot):
    """``--bot oracle``: strong, but its pegging search sees the true deal (the program's real hand, read from the
    referee) -- a ceiling on what reading the program's hand could gain, not a player.  It discards as strong."""

    truth: Any = None

    def play_values(self, view: Any, legal_moves: Any, rng: random.Random, *args: Any, **kw: Any) -> list[float]:
        search = cribbage_strong._Search(view.seat, view.rules, self.truth)
        return [search.value_after(m) for m in legal_moves]


def program_rank(held: list[Card], seq: tuple[Card, ...], count: int) -> int:
    """The rank (1-13) of the card the program lays from ``held`` (at least one card fits) on the count's cards
    ``seq`` summing to ``count``: its published play rule, :func:`cribbage_belief.rule_rank` (written for the
    ceiling bench bots ``modelled`` and ``belief``, never used by kortbord's players)."""
    rank = cribbage_belief.rule_rank(tuple(sorted(c.rank for c in held)), tuple(c.rank for c in seq), count)
    if rank is None:
        raise ValueError(f"no card of {held} fits on a count of {count}")
    return rank


class _ProgramModel(cribbage_strong._PlayModel):
    """The opponent's plays as evidence under :func:`program_rank`: the card it names with chance 1 - ``slip``
    (shared by the cards of its rank), any other legal card alike otherwise."""

    def __init__(self, view: Any, slip: float) -> None:
        super().__init__(view, 1.0)
        self.slip = slip

    def _log_chance(self, held: list[Card], seen: Any, seq: Any, count: int, card: Card, n: int, passed: bool) -> float:
        legal = [c for c in held if count + card_value(c) <= 31]
        if len(legal) <= 1:
            return 0.0
        want = program_rank(held, seq, count)
        same = sum(1 for c in legal if c.rank == want)
        if same == len(legal):  # every card it could lay is of the rank named: no evidence
            return 0.0
        if card.rank == want:
            return math.log((1.0 - self.slip) / same)
        return math.log(self.slip / (len(legal) - same))


class _ProgramSearch(cribbage_strong._Search):
    """Strong's search of one deal in which the program lays the card :func:`program_rank` names (its rule, as if
    learnt) instead of the card worst for the searcher."""

    def _value(self, state: Any, alpha: float, beta: float) -> float:
        mover = engine.to_act(state)
        if state.phase_name == "play" and mover is not None and self.rules.side_of(mover) != self.side:
            moves = engine.legal_moves(state)
            plays = [m for m in moves if isinstance(m, Play)]
            if len(plays) > 1:
                want = program_rank(list(state._hands[mover]), tuple(state.sequence), state.count)
                move = next(m for m in plays if m.card.rank == want)
                self.nodes += 1
                return self._value(engine.apply(state, move), alpha, beta)
        return super()._value(state, alpha, beta)


class ModelledBot(cribbage_strong.StrongBot):
    """``--bot modelled[:option=value...]``: strong (with the options given) whose sampled deals are weighted by
    the program's own play rule (:func:`program_rank`, a slip of ``slip``, default 0.02) and, with ``rule_reply=1``,
    whose search has the program lay the card of its rule (:class:`_ProgramSearch`) -- what a model of the program
    learnt perfectly from the hands it shows would be worth; a measurement, not a player."""

    def __init__(
        self, rules: Any, slip: float = 0.02, rule_reply: float = 0.0, draws: int | None = None, **options: Any
    ) -> None:
        if not 0.0 < slip < 1.0:
            raise ValueError(f"slip must be between 0 and 1, got {slip!r}")
        if draws is not None and (draws < 1 or options.get("resample", 1) < 2):
            raise ValueError("draws (the deals drawn a decision, >= 1) bounds resampling: give resample=2..256 too")
        if rule_reply not in (0, 1):
            raise ValueError(f"rule_reply must be 0 or 1, got {rule_reply!r}")
        if options.get("take") or options.get("play_model"):
            raise ValueError("the modelled bot's evidence of the plays is the program's rule: no take or play_model")
        super().__init__(rules, **options)
        self.slip = slip
        self.rule_reply = bool(rule_reply)
        self.draws = draws

    def play_values(self, *args: Any, **kw: Any) -> list[float]:
        """Strong's, with ``draws`` (when given) in place of the level's bound on the deals drawn a decision."""
        if self.draws is None:
            return super().play_values(*args, **kw)
        level = cribbage_strong._RESAMPLE_DRAWS
        setattr(cribbage_strong, "_RESAMPLE_DRAWS", self.draws)  # noqa: B010 (a Final constant, for this call)
        try:
            return super().play_values(*args, **kw)
        finally:
            setattr(cribbage_strong, "_RESAMPLE_DRAWS", level)  # noqa: B010

    def _search(self, view: Any, state: Any, shows: Any, win: float) -> Any:
        if not self.rule_reply or view.rules.players != 2 or view.rules.lowball:
            return super()._search(view, state, shows, win)
        return _ProgramSearch(view.seat, view.rules, state, shows, win)

    def _sampler(self, view: Any) -> Any:
        sampler = super()._sampler(view)
        if view.rules.players == 2 and not view.rules.lowball:
            sampler._plays = _ProgramModel(view, self.slip)
        return sampler


def _is_modelled(text: str) -> bool:
    return text in ("modelled", "belief") or text.startswith(("modelled:", "belief:"))


def make_modelled(text: str, rules: Any) -> ModelledBot:
    """``modelled`` or ``modelled:key=value:...`` (strong's options and ``slip``) as a :class:`ModelledBot`."""
    options: dict[str, Any] = {}
    for part in text.split(":")[1:]:
        key, eq, value = part.partition("=")
        if not key or not eq or not value:
            raise ValueError(f"options are key=value, got {part!r}")
        options[key] = int(value) if key in ("resample", "iterations", "nodes", "draws") else float(value)
    return ModelledBot(rules, **options)


_ask_bot = bridge._Game.ask_bot


def _ask_with_truth(game: Any, state: Any) -> Any:
    if isinstance(game.bot, OracleBot):
        game.bot.truth = state
    return _ask_bot(game, state)


bridge._Game.ask_bot = _ask_with_truth  # type: ignore[method-assign]


def _rules() -> Any:
    return core.get("cribbage").make_rules({}, players=2, teams=False)


def play_block(bot_text: str, seed: int, block: int) -> dict[str, Any]:
    """Both games of ``block`` for the bot ``bot_text``: ``{"bot", "block", "games": [record, record]}``, each
    record ``{"index", "bot_seat", "deals", "scores", "winner", "decisions", "checks", "seconds"}`` or, when the
    bridge broke, ``{"index", "bot_seat", "error"}``."""
    rules = _rules()
    plan = bridge.Plan.draw(rules, random.Random(f"kortbord-outside:{seed}:deals:{block}"))
    spec = None if bot_text == "oracle" or _is_modelled(bot_text) else BotSpec.parse(bot_text)
    games = []
    for seat in (0, 1):
        index = 2 * block + seat
        if spec is not None:
            bot = spec.make("cribbage", rules)
        else:
            if bot_text.startswith("belief"):
                bot = cribbage_belief.make_belief(bot_text, rules)
            else:
                bot = make_modelled(bot_text, rules) if _is_modelled(bot_text) else OracleBot(rules)
        rng = random.Random(f"kortbord-outside:{seed}:game:{index}:bot")
        t0 = time.perf_counter()
        try:
            res = bridge.play_game(bot, seat, rules, plan, rng)
        except Exception as exc:  # a bridge error (or a broken program) is reported, never counted
            games.append({"index": index, "bot_seat": seat, "error": f"{type(exc).__name__}: {exc}"})
            continue
        games.append(
            {
                "index": index,
                "bot_seat": seat,
                "deals": res.deals,
                "scores": list(res.scores),
                "winner": res.winner,
                "decisions": res.decisions,
                "checks": res.checks,
                "seconds": time.perf_counter() - t0,
            }
        )
    return {"bot": bot_text, "block": block, "games": games}


def figures(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one bot from its blocks (see the module docstring)."""
    margin: list[list[float]] = []
    dealer: list[list[float]] = []
    pone: list[list[float]] = []
    shows: list[list[float]] = []
    pegging: list[list[float]] = []
    wins = games = errors = checks = 0
    seconds = 0.0
    for blk in sorted(blocks, key=lambda b: b["block"]):
        recs = {g["bot_seat"]: g for g in blk["games"]}
        for g in blk["games"]:
            if "error" in g:
                errors += 1
                continue
            games += 1
            wins += g["winner"] == g["bot_seat"]
            checks += g["checks"]
            seconds += g["seconds"]
        if any("error" in g for g in blk["games"]) or len(recs) != 2:
            continue
        m: list[float] = []
        d_: list[float] = []
        p_: list[float] = []
        sh: list[float] = []
        for d0, d1 in zip(recs[0]["deals"], recs[1]["deals"], strict=False):
            if not (d0["complete"] and d1["complete"]) or d0["dealer"] != d1["dealer"]:
                break
            # game 0: the bot in seat 0; game 1: the bot in seat 1.
            ours0, theirs0 = d0["points"][0], d0["points"][1]
            ours1, theirs1 = d1["points"][1], d1["points"][0]
            m.append(((ours0 - theirs0) + (ours1 - theirs1)) / 2)
            if "show" in d0 and "show" in d1:  # the shows' part of the margin (hands and cribs); the rest is pegging
                s0, s1 = d0["show"], d1["show"]
                sh.append(((s0[0] - s0[1]) + (s1[1] - s1[0])) / 2)
            k = d0["dealer"]  # the dealer's seat in both games
            bot_as_dealer = d0["points"][k] if k == 0 else d1["points"][k]
            prog_as_dealer = d1["points"][k] if k == 0 else d0["points"][k]
            o = 1 - k
            bot_as_pone = d0["points"][o] if o == 0 else d1["points"][o]
            prog_as_pone = d1["points"][o] if o == 0 else d0["points"][o]
            d_.append(float(bot_as_dealer - prog_as_dealer))
            p_.append(float(bot_as_pone - prog_as_pone))
        margin.append(m)
        dealer.append(d_)
        pone.append(p_)
        shows.append(sh)
        pegging.append([a - b for a, b in zip(m, sh, strict=False)] if len(sh) == len(m) else [])
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "errors": errors,
        "wins": wins,
        "win_rate": wins / games if games else None,
        "win_ci95": [lo, hi],
        "margin": cluster_mean_ci(margin),
        "as_dealer": cluster_mean_ci(dealer),
        "as_pone": cluster_mean_ci(pone),
        "shows": cluster_mean_ci(shows),
        "pegging": cluster_mean_ci(pegging),
        "checks": checks,
        "seconds_per_game": seconds / games if games else None,
    }


def paired_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Bot ``a`` against bot ``b`` on the same blocks: per block, the difference of their mean margins (and of its
    pegging and shows parts) over the block's deal pairs; the mean and normal 95% interval over blocks (blocks are
    independent; a block either bot did not finish is left out)."""
    by_a = {blk["block"]: blk for blk in a}
    by_b = {blk["block"]: blk for blk in b}
    out: dict[str, Any] = {}
    for key in ("margin", "pegging", "shows"):
        diffs = []
        for k in sorted(set(by_a) & set(by_b)):
            fa, fb = figures([by_a[k]])[key]["mean"], figures([by_b[k]])[key]["mean"]
            if fa is not None and fb is not None:
                diffs.append([fa - fb])
        out[key] = cluster_mean_ci(diffs)
    return out


def _blocks(n: int) -> str:
    return f"{n} block" if n == 1 else f"{n} blocks"


def _ci(d: dict[str, Any]) -> str:
    if d["mean"] is None:
        return "n/a"
    ci = d["ci95"]
    tail = f" ({ci[0]:+.2f} .. {ci[1]:+.2f})" if ci else ""
    return f"{d['mean']:+.2f}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--bot", default="strong", help="the bot to measure (a bot spec, e.g. strong or strong:iterations=400)"
    )
    ap.add_argument("--peer", default="greedy", help="the bot measured beside it on the same deals ('none': no peer)")
    ap.add_argument("--games", type=int, default=20, help="games per bot (whole blocks of two)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--json", help="write the records and figures to this file (rewritten after every block)")
    ap.add_argument("--report", metavar="JSON", help="print the figures of a --json file (of a run cut short too)")
    args = ap.parse_args(argv)
    if args.report:
        saved = json.loads(Path(args.report).read_text())
        done_blocks = saved["blocks"]
        return _print(saved["args"], done_blocks, {b: figures(done_blocks[b]) for b in done_blocks})
    if not bridge.available():
        print(f"needs {bridge.BINARY} (apt install bsdgames) and gcc", file=sys.stderr)
        return 2
    if args.games < 1 or args.jobs < 1:
        ap.error("--games and --jobs must be at least 1")
    bots = [args.bot] + ([] if args.peer == "none" else [args.peer])
    for text in bots:
        if _is_modelled(text):
            try:
                (cribbage_belief.make_belief if text.startswith("belief") else make_modelled)(text, _rules())
            except (ValueError, TypeError) as exc:
                ap.error(f"{text!r}: {exc}")
        elif text != "oracle":
            try:  # a bad spec fails here, before any game
                BotSpec.parse(text).make("cribbage", _rules())
            except ValueError as exc:
                hint = (
                    " (or 'oracle', alone: strong seeing the program's hand; or 'modelled[:option=value...]')"
                    if "level" in str(exc)
                    else ""
                )
                ap.error(f"{text!r}: {exc}{hint}")
    nblocks = (args.games + 1) // 2
    tasks = [(b, args.seed, k) for k in range(nblocks) for b in bots]
    results: dict[str, list[dict[str, Any]]] = {b: [] for b in bots}
    t0 = time.perf_counter()
    done = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play_block, *t) for t in tasks]
        for fut in as_completed(futures):
            blk = fut.result()
            results[blk["bot"]].append(blk)
            done += 1
            for g in blk["games"]:
                if "error" in g:
                    print(f"bridge error ({blk['bot']}, game {g['index']}):\n{g['error']}", file=sys.stderr)
            print(f"\r{done}/{len(tasks)} blocks of a bot, {time.perf_counter() - t0:.0f} s", end="", file=sys.stderr)
            if args.json:
                Path(args.json).write_text(json.dumps({"args": vars(args), "blocks": results}, indent=1))
    print(file=sys.stderr)
    summary = {b: figures(results[b]) for b in bots}
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "figures": summary, "blocks": results}, indent=1))
    return _print(vars(args), results, summary)


def _print(args: dict[str, Any], results: dict[str, list[dict[str, Any]]], summary: dict[str, Any]) -> int:
    bots = list(summary)
    nblocks = max(len(v) for v in results.values())
    print(f"Cribbage v BSD cribbage(6) ({bridge.BINARY}), bridged through kortbord's engine as referee")
    print(f"seed {args['seed']}, {_blocks(nblocks)} of duplicate deals (each block twice, the seats swapped)")
    print(
        f"{'bot':<24} {'games':>5} {'points per deal (95%)':>26} {'as dealer':>24} {'as pone':>24} {'win rate (95%)':>22}"
    )
    for b in bots:
        f = summary[b]
        wr = "n/a" if f["win_rate"] is None else f"{f['win_rate']:.1%} ({f['win_ci95'][0]:.1%}-{f['win_ci95'][1]:.1%})"
        print(
            f"{b:<24} {f['games']:>5} {_ci(f['margin']):>26} {_ci(f['as_dealer']):>24} {_ci(f['as_pone']):>24} {wr:>22}"
        )
    for b in bots:
        f = summary[b]
        if f.get("shows", {}).get("mean") is not None:
            print(f"{b}: of the margin, pegging {_ci(f['pegging'])}, hands and cribs {_ci(f['shows'])}")
    for b in bots:
        f = summary[b]
        pairs = f["margin"]["n"]
        print(f"{b}: {pairs} deal pairs, {f['checks']} referee checks passed, {f['errors']} bridge errors, "
              f"{f['seconds_per_game'] or 0:.1f} s a game")  # fmt: skip
    if len(bots) == 2:
        paired = paired_difference(results[bots[0]], results[bots[1]])
        print(f"{bots[0]} minus {bots[1]} on the same blocks ({_blocks(paired['margin']['n'])}): margin "
              f"{_ci(paired['margin'])}, pegging {_ci(paired['pegging'])}, hands and cribs {_ci(paired['shows'])}")  # fmt: skip
    mean = summary[args["bot"]]["margin"]["mean"]
    ci = summary[args["bot"]]["margin"]["ci95"]
    verdict = (
        "n/a"
        if mean is None
        else ("met" if ci and ci[0] >= GOAL else "met by the mean only" if mean >= GOAL else "not met")
    )
    print(
        f"goal (expert): >= +{GOAL} points per deal against the outside player; {args['bot']}: {_ci(summary[args['bot']]['margin'])} -- {verdict}"
    )
    return 1 if any(summary[b]["errors"] for b in bots) else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
