"""Cribbage bots against a second outside open-source player: CribbageSim's Hoyle-based computer (issue #14 item 2).

The outside player is the computer opponent of **CribbageSim** 1.0.2 (PyPI ``CribbageSim``, MIT, Kevin R. Geurts,
https://github.com/KevinRGeurts/CribbageSim): ``HoyleishDealerCribbagePlayStrategy`` when it deals and
``HoyleishPlayerCribbagePlayStrategy`` when it is pone, the pair its own ``main.py`` seats against a person.  Its
strategy, after "Strategy for Cribbage" in Hoyle's Rules of Games: it lays away the two cards that leave the most
points *certain* in hand (no starter weighed; as dealer plus, as pone minus, the certain points of the two laid
away); it leads by Hoyle's preferences (a card of a pair, an 8 with a 6, a 7 with a 9, a ten-card with a 5, ...
a card under 5, a 5 last); it follows with the card that scores most at once, or when none scores, the highest.

**The bridge** (``HoyleishBot``): kortbord's engine referees every game; at each of the player's turns the bridge
gives CribbageSim's own strategy object, through the callbacks its ``CribbageDeal`` would give, the player's seat's
hand (in the order kortbord dealt it), the cards of the current count and the count -- nothing else, as in
CribbageSim's own game -- and plays the card or discard the strategy hands back.  A "go" is the engine's (the
strategy declares one exactly when no card fits).  CribbageSim plays its cards after an opponent's go one at a time
with the same follow rating (``go``), so one ``follow`` call per card is its play.  Only the standard game (two
players, no Muggins, no Lowball): the program knows no other.

Duplicate deals, the arena's (``kortbord.arena.play_game``; the bridge rides as a bot factory, as in
``bench/mulle_expert.py``): block ``b`` is played twice with the seats swapped; figures per bot: points per deal
(the mean over a block's two games of the bot's points minus the program's, per deal both games played in full
with the same dealer; 95% cluster-robust interval, a block per cluster), as dealer and as pone, and the win rate of
games to 121 (Wilson 95%), with the expert goal beside them (>= +0.8 points per deal); with several bots (the
same seed, so the same deals), each one's margin minus the first's, block by block.

Needs CribbageSim and its two packages (they declare Python >= 3.12; the code runs on this project's 3.11)::

    .venv/bin/pip install --ignore-requires-python --no-deps \\
        CribbageSim==1.0.2 HandsDecksCards==1.0.0 UserResponseCollector==1.1.0

``--bots oracle`` is strong with its pegging search on the true deal (the program's real hand, from the referee;
``bench/cribbage_outside.py``'s ``OracleBot``): what reading the program's hand could gain at most, not a player.

Usage (from the repository root)::

    nice -n 10 .venv/bin/python bench/cribbage_hoyleish.py --bots strong,greedy --games 200 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cribbage_outside import OracleBot  # strong with its pegging search on the true deal (a ceiling, not a player)
from kortbord import arena
from kortbord.bots import registry
from kortbord.cards import Card
from kortbord.cribbage.moves import GO, Discard, Move, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.view import View

try:
    from CribbageSim.CribbagePlayStrategy import (
        HoyleishDealerCribbagePlayStrategy,
        HoyleishPlayerCribbagePlayStrategy,
    )
    from HandsDecksCards.card import Card as SimCard
except ImportError:  # pragma: no cover - the message below says what to install
    HoyleishDealerCribbagePlayStrategy = HoyleishPlayerCribbagePlayStrategy = SimCard = None

GOAL = 0.8  # points per deal against an outside player (issue #14 item 2)
_PIPS = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def to_sim(card: Card) -> Any:
    """kortbord's card as CribbageSim's (``HandsDecksCards.card.Card(suit, pips)``: ``TD`` -> ``Card('D', '10')``)."""
    return SimCard(str(card)[-1], _PIPS.get(card.rank, str(card.rank)))


class HoyleishBot:
    """CribbageSim's Hoyle-based computer as a kortbord bot (module docstring: the bridge).

    Args:
        rules: the game's rules; only the standard game (two players, no Muggins, no Lowball).
    Raises:
        RuntimeError: CribbageSim is not installed; ValueError: rules the program does not play.
    """

    name = "hoyleish"

    def __init__(self, rules: Rules) -> None:
        if SimCard is None:
            raise RuntimeError(
                "CribbageSim is not installed: .venv/bin/pip install --ignore-requires-python --no-deps "
                "CribbageSim==1.0.2 HandsDecksCards==1.0.0 UserResponseCollector==1.1.0"
            )
        if rules.players != 2 or rules.muggins or rules.lowball:
            raise ValueError("CribbageSim plays the standard two-player game only (no Muggins, no Lowball)")
        self.dealer_strategy = HoyleishDealerCribbagePlayStrategy()
        self.pone_strategy = HoyleishPlayerCribbagePlayStrategy()

    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """The program's discard or card for the seat of ``view`` (``rng`` unused: the program is deterministic).

        Raises:
            ValueError: the program chose a move that is not among ``legal_moves`` (a bridge error).
        """
        strategy = self.dealer_strategy if view.dealer == view.seat else self.pone_strategy
        sims = [to_sim(c) for c in view.hand]
        back = {id(s): c for s, c in zip(sims, view.hand, strict=True)}
        hand = list(sims)
        chosen: list[Any] = []

        def take(i: int) -> None:
            chosen.append(hand.pop(i))

        if view.phase == "discard":
            strategy.form_crib(take, lambda: hand)
            thrown = {back[id(s)] for s in chosen}
            for m in legal_moves:
                if isinstance(m, Discard) and set(m.cards) == thrown:
                    return m
            raise ValueError(f"CribbageSim laid away {sorted(map(str, thrown))}: not a legal discard")
        if view.phase == "play":
            pile = [to_sim(c) for c in view.sequence]
            _, said_go = strategy.follow(view.count, take, lambda: hand, lambda: pile)
            if said_go:
                if GO in legal_moves:
                    return GO
                raise ValueError(f"CribbageSim said go at count {view.count} with {view.hand} in hand")
            card = back[id(chosen[0])]
            if Play(card) in legal_moves:
                return Play(card)
            raise ValueError(f"CribbageSim played {card} at count {view.count}: not legal")
        raise ValueError(f"CribbageSim has no decision in the {view.phase} phase")


def _parse(text: str) -> arena.BotSpec:
    """A kortbord level with options (``strong:reply=0.05``), or ``oracle`` (rides as strong with a variant option
    the factory reads: the arena knows the registry's levels only)."""
    if text.strip() == "oracle":
        return arena.BotSpec("strong", (("variant", "oracle"),))
    return arena.BotSpec.parse(text)


def _factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
    variant = dict(spec.options).get("variant")
    if variant == "hoyleish":
        return HoyleishBot(rules)
    if variant == "oracle":
        return OracleBot(rules)
    return registry.make_bot(game, spec.level, rules, **dict(spec.options))


def _config(bot: arena.BotSpec, games: int, seed: int) -> arena.ArenaConfig:
    # the arena knows the registry's levels only: the program rides as the greedy level with a variant option the
    # factory reads (the option is not a registry option, so the spec is built directly, not parsed)
    program = arena.BotSpec("greedy", (("variant", "hoyleish"),))
    return arena.ArenaConfig("cribbage", (bot, program), games=games, seed=seed)


def _play_one(job: tuple[arena.ArenaConfig, int]) -> Any:
    config, i = job
    made: list[Any] = []

    def factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
        made.append(_factory(spec, game, rules))
        return made[-1]

    def watch(state: Any, seat: int, view: Any, legal_moves: Any) -> None:
        for bot in made:  # the oracle's search is given the referee's true deal before every decision
            if isinstance(bot, OracleBot):
                bot.truth = state

    return arena.play_game(config, i, factory=factory, watch=watch)


def _fmt(ci: dict[str, Any]) -> str:
    lo, hi = ci["ci95"] or (float("nan"), float("nan"))
    return f"{ci['mean']:+.2f} ({lo:+.2f} .. {hi:+.2f})"


def run(bot: arena.BotSpec, games: int, seed: int, jobs: int) -> dict[str, Any]:
    """Play ``games`` games (whole blocks of two) of ``bot`` against the program; the arena's summary.

    Raises:
        ValueError: a bot that cannot be made (checked before any game).
    """
    config = _config(bot, games + games % 2, seed)
    rules = config.make_rules()
    for spec in config.bots:
        _factory(spec, "cribbage", rules)
    t0 = time.perf_counter()
    jobs_list = [(config, i) for i in range(config.games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            records = list(pool.map(_play_one, jobs_list, chunksize=1))
    else:
        records = [_play_one(j) for j in jobs_list]
    summary = arena.summarize(config, records, elapsed_s=time.perf_counter() - t0)
    # each block's own margin (its two games), for the difference of two bots on the same blocks
    summary["block_margins"] = [
        (arena.duplicate(config, records[b : b + 2]) or {}).get("margin", {}).get("mean")
        for b in range(0, len(records), 2)
    ]
    return summary


def paired_difference(a: Sequence[float | None], b: Sequence[float | None]) -> dict[str, Any]:
    """Bot ``a`` minus bot ``b`` on the same blocks (the same seed): per block the difference of the two margins
    (points per deal), the mean and normal 95% interval over the blocks both finished (blocks are independent)."""
    return arena.cluster_mean_ci([[x - y] for x, y in zip(a, b, strict=False) if x is not None and y is not None])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="strong,greedy", help="kortbord levels (with options), comma-separated")
    ap.add_argument("--games", type=int, default=200, help="games per bot (rounded up to whole blocks of two)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default=None, help="write every bot's summary to this file")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error("--games must be at least 2 (one block of duplicate deals)")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    try:
        specs = [_parse(t) for t in args.bots.split(",") if t.strip()]
        for spec in specs:
            _config(spec, 2, args.seed)  # an unknown level stops here, before any game
    except ValueError as exc:
        ap.error(str(exc))
    if not specs:
        ap.error("--bots names no bot")
    if SimCard is None:
        ap.error(
            "CribbageSim is not installed: .venv/bin/pip install --ignore-requires-python --no-deps "
            "CribbageSim==1.0.2 HandsDecksCards==1.0.0 UserResponseCollector==1.1.0"
        )
    print(
        "Cribbage v CribbageSim 1.0.2 (Hoyleish dealer/pone strategies), bridged through kortbord's engine as referee"
    )
    print(f"seed {args.seed}, {(args.games + 1) // 2} blocks of duplicate deals (each block twice, the seats swapped)")
    print(f"{'bot':24} {'games':>5}  {'points per deal (95%)':>26} {'as dealer':>24} {'as pone':>24}  win rate (95%)")
    out: dict[str, Any] = {}
    for spec in specs:
        s = run(spec, args.games, args.seed, args.jobs)
        out[str(spec)] = s
        dup = s["duplicate"]
        res = s["results"][s["bots"][0]]
        seats = dup["by_seat"]
        lo, hi = res["win_rate_ci95"]
        print(
            f"{spec!s:24} {s['games']:>5}  {_fmt(dup['margin']):>26} {_fmt(seats['as_dealer']):>24} "
            f"{_fmt(seats['as_pone']):>24}  {100 * res['win_rate']:.1f}% ({100 * lo:.1f}%-{100 * hi:.1f}%)"
        )
        print(
            f"  {dup['pairs']} deal pairs, {dup['blocks']} blocks, {len(s['errors'])} errors, "
            f"{s['elapsed_s'] / max(1, s['games']):.2f} s a game",
            flush=True,
        )
    names = list(out)
    for name in names[1:]:
        d = paired_difference(out[name]["block_margins"], out[names[0]]["block_margins"])
        print(f"{name} minus {names[0]} on the same blocks: {_fmt(d)} points per deal ({d['n']} blocks)")
    for name, s in out.items():
        m = s["duplicate"]["margin"]
        lo, hi = m["ci95"] or (float("nan"), float("nan"))
        verdict = "met" if lo >= GOAL else ("not met" if hi < GOAL else "not shown (the interval holds the goal)")
        if "variant=oracle" in name:
            verdict = "a ceiling (it sees the program's hand), not a player"
        print(f"goal (expert): >= +{GOAL} points per deal against the outside player; {name}: {_fmt(m)} -- {verdict}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"argv": sys.argv, "summaries": out}, fh, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
