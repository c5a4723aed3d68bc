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
hand, the cards of the current count and the count -- nothing else, as in CribbageSim's own game -- and plays the
card or discard the strategy hands back.  The hand is in an order drawn at random at the discard and kept for the
deal's play (the program holds its cards as drawn, never sorted, and breaks every tie by that order -- kortbord's
view lists a hand sorted, which would make it always lay away its highest of equal choices).  A "go" is the
engine's (the strategy declares one exactly when no card fits).  CribbageSim plays its cards after an opponent's go
one at a time with the same follow rating (``go``), so one ``follow`` call per card is its play while the count has
cards; at a new count with the other hand empty it plays out by ``go`` (the follow rating on an empty pile), not by
its lead.  Only the standard game (two players, no Muggins, no Lowball): the program knows no other.

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
``--bots belief:keep=hoyle:models=hoyle`` is the exact belief search of ``bench/cribbage_belief.py`` told the
program's discard and play rule (what a perfectly learnt model of it is worth); ``belief:learn=session:kt=0.5`` the
same search with the program's play learnt from the hands its plays show (over the games of a worker process), a
general keep table, and nothing told.

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

import cribbage_belief  # the belief search told a program's rule (a ceiling, not a player)
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
    from HandsDecksCards.hand import Hand
except ImportError:  # pragma: no cover - the message below says what to install
    HoyleishDealerCribbagePlayStrategy = HoyleishPlayerCribbagePlayStrategy = SimCard = Hand = None

GOAL = 0.8  # points per deal against an outside player (issue #14 item 2)
WIN_GOAL = 0.62  # share of games to 121 against kortbord's greedy, over at least 1,000 (issue #14 item 2)
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
        #: the place of each card in the hand as the program holds it: drawn at random at the discard (``rng``), kept
        #: for the deal's play (the program's own hand is as drawn, never sorted; its ties go to the first card)
        self._place: dict[Card, float] = {}

    def _as_held(self, hand: Sequence[Card], rng: random.Random, new_deal: bool) -> list[Card]:
        if new_deal:
            self._place = {}
        for c in hand:
            if c not in self._place:
                self._place[c] = rng.random()
        return sorted(hand, key=self._place.__getitem__)

    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """The program's discard or card for the seat of ``view``.

        ``rng`` orders the hand as the program would hold it (drawn, not sorted: kortbord's view lists it sorted,
        and the program breaks every tie by the order of its hand).

        Raises:
            ValueError: the program chose a move that is not among ``legal_moves`` (a bridge error).
        """
        strategy = self.dealer_strategy if view.dealer == view.seat else self.pone_strategy
        held = self._as_held(view.hand, rng, new_deal=view.phase == "discard")
        sims = [to_sim(c) for c in held]
        back = {id(s): c for s, c in zip(sims, held, strict=True)}
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
            if not view.sequence and view.hand_sizes[1 - view.seat] == 0 and GO not in legal_moves:
                # a new count with the other hand empty: in the program's own deal the other player declares go at
                # once and this one plays out by its go rule (``go``: the follow rating on an empty pile, so the
                # highest card), not by its lead
                ratings = strategy.rate_follows_in_hand(Hand().add_cards(hand), Hand())
                best = sorted(ratings, key=lambda r: r[1], reverse=True)[0][0]
                card = back[id(best)]
                if Play(card) in legal_moves:
                    return Play(card)
                raise ValueError(f"CribbageSim played {card} at count {view.count}: not legal")
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
    if text.strip().startswith("oracle:"):
        raise ValueError("oracle takes no options (it is strong at its level's work, searching the true deal)")
    if text.strip() == "belief" or text.strip().startswith("belief:"):
        return arena.BotSpec("strong", (("variant", text.strip()),))
    return arena.BotSpec.parse(text)


def _name(spec: arena.BotSpec) -> str:
    """The bot's name in the report: ``oracle``, or the spec as given (``strong:reply=0.05``)."""
    variant = dict(spec.options).get("variant")
    return str(variant) if variant in ("oracle",) or str(variant).startswith("belief") else str(spec)


def _factory(spec: arena.BotSpec, game: str, rules: Any) -> Any:
    variant = dict(spec.options).get("variant")
    if variant == "hoyleish":
        return HoyleishBot(rules)
    if variant == "oracle":
        return OracleBot(rules)
    if isinstance(variant, str) and variant.startswith("belief"):
        return cribbage_belief.make_belief(variant, rules)
    return registry.make_bot(game, spec.level, rules, **dict(spec.options))


def _config(bot: arena.BotSpec, games: int, seed: int, peer: str = "program") -> arena.ArenaConfig:
    # the arena knows the registry's levels only: the program rides as the greedy level with a variant option the
    # factory reads (the option is not a registry option, so the spec is built directly, not parsed)
    other = arena.BotSpec("greedy", (("variant", "hoyleish"),)) if peer == "program" else arena.BotSpec.parse(peer)
    return arena.ArenaConfig("cribbage", (bot, other), games=games, seed=seed)


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
    """``+0.59 (+0.43 .. +0.75)``; ``n/a`` without a value, the mean alone without an interval (one block)."""
    if ci.get("mean") is None:
        return "n/a"
    if not ci.get("ci95"):
        return f"{ci['mean']:+.2f} (no interval)"
    lo, hi = ci["ci95"]
    return f"{ci['mean']:+.2f} ({lo:+.2f} .. {hi:+.2f})"


def _told(name: str) -> bool:
    """A ``belief`` bot told a program's discard (``keep=hoyle``, ``keep=bsd``) or play rule (a model ``hoyle`` or
    ``book``, BSD's; ``book`` is the default model of a bot that does not learn)."""
    options = dict(part.partition("=")[::2] for part in name.split(":")[1:])
    models = options.get("models", "" if "learn" in options else "book").split("+")
    return options.get("keep") in ("hoyle", "bsd") or any(m in ("hoyle", "book") for m in models)


def _verdict(name: str, margin: dict[str, Any]) -> str:
    if name == "oracle":
        return "a ceiling (it sees the program's hand), not a player"
    if name.startswith("belief") and _told(name):
        return "a ceiling (it is told how the program plays), not a player"
    if margin.get("mean") is None or not margin.get("ci95"):
        return "not shown (no interval: too few blocks played in full)"
    lo, hi = margin["ci95"]
    return "met" if lo >= GOAL else ("not met" if hi < GOAL else "not shown (the interval holds the goal)")


def run(bot: arena.BotSpec, games: int, seed: int, jobs: int, peer: str = "program") -> dict[str, Any]:
    """Play ``games`` games (whole blocks of two) of ``bot`` against the program (or the kortbord level ``peer``);
    the arena's summary.

    Raises:
        ValueError: a bot that cannot be made (checked before any game).
    """
    config = _config(bot, games + games % 2, seed, peer)
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
    ap.add_argument("--seed", type=int, default=1, help="the deals' seed (the same seed: the same deals for every bot)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the games are the same whatever the number)")
    ap.add_argument("--json", default=None, help="write every bot's summary to this file")
    ap.add_argument(
        "--peer",
        default="program",
        help="the other player: the program (CribbageSim, the default) or a kortbord level (greedy: item 2's "
        "other goal, >= 62%% of games to 121)",
    )
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1 (rounded up to one block of two games)")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if SimCard is None and args.peer == "program":
        ap.error(
            "CribbageSim is not installed: .venv/bin/pip install --ignore-requires-python --no-deps "
            "CribbageSim==1.0.2 HandsDecksCards==1.0.0 UserResponseCollector==1.1.0"
        )
    try:  # every bot made once before any game: an unknown level or a bad option value stops here
        specs = [_parse(t) for t in args.bots.split(",") if t.strip()]
        for spec in specs:
            config = _config(spec, 2, args.seed, args.peer)
            _factory(spec, "cribbage", config.make_rules())
    except (ValueError, TypeError) as exc:
        ap.error(str(exc))
    if not specs:
        ap.error("--bots names no bot")
    if len({_name(spec) for spec in specs}) < len(specs):
        ap.error("--bots names a bot twice (the same seed plays the same games: run it once)")
    if args.json is not None and (
        not args.json or Path(args.json).is_dir() or not Path(args.json).resolve().parent.is_dir()
    ):
        ap.error(f"--json {args.json!r}: not a file in an existing directory")
    if args.peer == "program":
        print(
            "Cribbage v CribbageSim 1.0.2 (Hoyleish dealer/pone strategies), bridged through kortbord's engine as "
            "referee"
        )
    else:
        print(f"Cribbage v kortbord's {args.peer}, games to 121")
    print(f"seed {args.seed}, {(args.games + 1) // 2} blocks of duplicate deals (each block twice, the seats swapped)")
    print(f"points per deal: the bot's points minus the {args.peer}'s with the same cards in the same seat")
    print(f"{'bot':24} {'games':>5}  {'points per deal (95%)':>26} {'as dealer':>24} {'as pone':>24}  win rate (95%)")
    out: dict[str, Any] = {}
    for spec in specs:
        s = run(spec, args.games, args.seed, args.jobs, args.peer)
        out[_name(spec)] = s
        dup = s["duplicate"]
        res = s["results"][s["bots"][0]]
        seats = dup["by_seat"]
        win = "n/a"
        if res.get("win_rate") is not None:
            lo, hi = res["win_rate_ci95"]
            win = f"{100 * res['win_rate']:.1f}% ({100 * lo:.1f}%-{100 * hi:.1f}%)"
        print(
            f"{_name(spec):24} {s['games']:>5}  {_fmt(dup['margin']):>26} {_fmt(seats['as_dealer']):>24} "
            f"{_fmt(seats['as_pone']):>24}  {win}"
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
        if args.peer != "program":
            res = s["results"][s["bots"][0]]
            print(
                f"goal (expert) against greedy: >= {100 * WIN_GOAL:.0f}% of >= 1,000 games to 121; {name}: "
                f"{100 * res['win_rate']:.1f}% of {s['games']} -- "
                + ("met" if res["win_rate"] >= WIN_GOAL and s["games"] >= 1000 else "not met")
                + ("" if args.peer == "greedy" else f" (the goal's peer is greedy, not {args.peer})")
            )
            continue
        print(
            f"goal (expert): >= +{GOAL} points per deal against the outside player; {name}: {_fmt(m)} -- "
            + _verdict(name, m)
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"argv": sys.argv, "summaries": out}, fh, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
