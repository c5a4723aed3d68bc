"""The strong Cribbage computer player (level ``"strong"``): exact discard averages and pegging by search.

Implements :class:`kortbord.bots.base.Bot`: ``choose(view, legal_moves, rng)`` sees only the seat's
:class:`~kortbord.cribbage.view.View`, the legal moves and a seeded ``random.Random``.  Rules source: the spec
``spec/rules/cribbage.md`` (§2.4 the play, §2.5 the show, §2.8 Lowball, §2.10 and §2a Muggins, §5 the AI
anchors and discard tables, §6 item 5).

* **Discard** (§5 "expected average"): for each legal discard, the exact mean show value of the four cards kept
  over every possible starter (46 with two players, 47 with three or four: each card not in the own hand), using
  :func:`kortbord.cribbage.scoring.show_total`, plus the expected value of the cards thrown to the crib from the
  project's own crib table (``bots/data/crib_values.json``, made by ``scripts/make_crib_table.py``): added when
  the crib is the own side's (the partner's crib in a partnership), subtracted when it is an opponent's.  A small
  pegging term prefers kept pairs and low cards (they peg and take the go).
* **The play** (§2.4): Perfect-Information Monte Carlo.  Each iteration deals the cards the seat has not seen
  (the pack minus its own hand, its discards, the starter, the cards played and the crib when face up) at random
  to the other hands and the crib with ``kortbord.cribbage.SPEC.sample`` (the one sampler of unseen cards), which
  honours every go of the play: a player who said go holds no card that would have fitted (spec §2.4 item 2).  Players keep good hands, so each deal is
  weighted by how likely its hidden hands are to have been kept (a likelihood ratio in the hand's average show
  value, fitted on random deals).  On each consistent deal every legal card is
  searched to the end of the play by alpha-beta (paranoid: the other side minimises) over the engine's own moves (one place for the rules: 15s, 31,
  pairs, runs, go and last card, game end), maximising the own side's points minus the opponents' (the mean over
  opponents with three players), with a large bonus for winning the game on the spot (pegging out, or the
  automatic show that follows the last card).  The card with the best mean over the deals is played.  Big trees
  (three or four players early in the play) finish with greedy playouts past a node budget.
* **Playing to the board** (§5 "weighted for the board position", §2.6 counting order): in a two-player game
  (not Lowball) when a player is near the target (:func:`kortbord.bots.cribbage_board.near_end`), the discard
  maximises the chance of winning the game counted through this deal -- the own hand's exact distribution over
  the starters, the crib's moved by the crib table, the pegging and the other hand from the project's
  win-probability table (``bots/data/win_table.json``, made by ``scripts/make_win_table.py``) -- among the six
  discards of the most expected points; and the pegging search values the end of the play by that chance (the
  sampled deal's shows counted in order, then the table for the next deal).  ``board=False`` turns it off.
* **Lowball** (§2.8): the same evaluation negated -- it avoids points and treats reaching the target as the loss.
* **Muggins** (§2.10, §2a): it announces the true count of its hand or crib (computed from the counted cards and
  the starter, which every player sees) and responds perfectly: ``muggins`` with exactly the missed points on an
  undercount, ``overcount`` on an overcount, otherwise ``accept``.

Work, not time: a play decision searches sampled deals until a fixed amount of work is done -- ``nodes``
alpha-beta nodes in all (the deal that would overrun it is not started; at least one deal) and at most
``iterations`` deals.  The ``strong`` level of :mod:`kortbord.bots.registry` is :data:`NODES` and
:data:`ITERATIONS` (the defaults); ``iterations`` alone searches exactly that many deals.  A node budget keeps the
work per decision even: an early play of a deal costs some 20 times more nodes a deal than a late one, as the
former time budget did.  Either way the decision depends only on the View, the legal moves and ``rng`` -- the
same on a busy machine as on an idle one.  ``time_budget_ms`` is an optional wall-clock *cap* on one play
decision (None: none): when the next deal would overrun it the search stops (after at least one deal), and the bot
says so: ``last_stats["capped"]`` is true and the counter :attr:`StrongBot.capped` counts such decisions (of
:attr:`StrongBot.decisions` searched).  The discard and the show are exact and take no search.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from kortbord.bots import cribbage_board
from kortbord.bots.cribbage_simple import judge_plays
from kortbord.cards import Card, full_deck
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Accept, Announce, Discard, Move, MugginsCall, Overcount, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import _rank_points, card_value, score_play, show_total
from kortbord.cribbage.spec import SPEC
from kortbord.cribbage.state import State
from kortbord.cribbage.view import View

__all__ = [
    "ITERATIONS",
    "NODES",
    "WIN",
    "StrongBot",
    "crib_value",
    "crib_values",
    "discard_values",
    "peg_value",
    "peg_values",
    "split_values",
    "true_count",
]

#: The ``strong`` level's work per play decision (the registry's definition of the level): alpha-beta nodes in all,
#: and deals at most.  Calibrated so that a decision takes about what the former 150 ms time budget gave on an idle
#: core (docs/bots.md, "Levels").
NODES: Final = 5_000
ITERATIONS: Final = 1_000
#: Work of one deal's sampling and weighting, in nodes (fitted: about 22 us a node, 59 us a deal on this machine).
_DEAL_NODES: Final = 3

_DECK: Final[tuple[Card, ...]] = tuple(full_deck())
_RANKS: Final = "A23456789TJQK"
#: Bonus (points) for winning the game inside the searched play; dwarfs any points difference.
_WIN: Final = 1000.0
#: The bonus for winning the game in the play's search (points; public for :func:`split_values`).
WIN: Final = _WIN
#: Weights of the discard's pegging term (points): per pair kept, per kept card worth 4 or less.
_PEG_PAIR: Final = 0.15
_PEG_LOW: Final = 0.05
#: Node budget of one alpha-beta search (one deal) before it finishes with greedy playouts.
_NODE_BUDGET: Final = 600
#: with ``resample`` = K, at most this many deals drawn per play decision (this // K searched)
_RESAMPLE_DRAWS: Final = 1_600
#: A generous bound on the points a side still pegs in one play (spec §2.4: a few points per card).
_PLAY_REACH: Final = 40
#: Weight of a hidden hand's average (points) in the deal's likelihood, by players: fitted (log-ratio slope) on
#: random deals, best keep of 6 cards against random 4-card hands (2 players), of 5 cards (3, 4 players).
#: Tempered to half the fitted slopes (0.55, 0.28) and clipped, so that a few deals do not carry all the weight.
_KEEP_BETA: Final = {2: 0.25, 3: 0.12, 4: 0.12}
_KEEP_CLIP: Final = 1.5
#: Targets with a win-probability table (bots/data/win_table.json) and the discards it weighs near the end.
_BOARD_TARGETS: Final = (61, 121)
_BOARD_CANDIDATES: Final = 6


@cache
def crib_values() -> dict[str, Any]:
    """The crib table (``kortbord/bots/data/crib_values.json``): ``{"metadata", "two_player": {"own", "opp"},
    "one_card"}``; values are expected crib points (see ``scripts/make_crib_table.py``)."""
    text = resources.files("kortbord.bots").joinpath("data/crib_values.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def peg_values() -> dict[str, Any]:
    """The pegging table (``kortbord/bots/data/peg_values.json``): ``{"metadata", "dealer", "pone"}``; values are
    the mean pegging differential of a kept four, two players (see ``scripts/make_peg_table.py``)."""
    text = resources.files("kortbord.bots").joinpath("data/peg_values.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def peg_value(kept: Sequence[Card], dealer: bool) -> float:
    """The mean points a kept four pegs more than the opponent in the play, two players (the pegging table).

    Args:
        kept: the four cards kept (only their ranks matter: the play scores no suits, spec §2.4).
        dealer: the keeper deals (the pone leads).
    """
    key = "".join(sorted((_RANKS[c.rank - 1] for c in kept), key=_RANKS.index))
    return float(peg_values()["dealer" if dealer else "pone"][key])


def _pair_key(a: Card, b: Card) -> str:
    ra, rb = sorted((a.rank, b.rank))
    if ra == rb:
        return _RANKS[ra - 1] * 2
    return _RANKS[ra - 1] + _RANKS[rb - 1] + ("s" if a.suit == b.suit else "o")


def crib_value(cards: Sequence[Card], own: bool) -> float:
    """Expected points of the crib that ``cards`` go to (spec §5 discard tables; the project's table).

    Args:
        cards: two cards (two players) or one card (three or four players) thrown.
        own: the thrower deals (his side's crib) -- with two players the pone's throw is then the balking one;
            ``False``: the crib is an opponent's (the dealer salts it).  Ignored for one card.
    Returns:
        Points (the crib's mean value, 4.7 for random cards).
    Raises:
        ValueError: not one or two cards.
    """
    table = crib_values()
    if len(cards) == 2:
        return float(table["two_player"]["own" if own else "opp"][_pair_key(cards[0], cards[1])])
    if len(cards) == 1:
        return float(table["one_card"][_RANKS[cards[0].rank - 1]])
    raise ValueError(f"a crib throw is one or two cards, got {len(cards)}")


def true_count(view: View) -> int:
    """The true show value (points, spec §2.5) of the Muggins count under way, from the counted cards and the
    starter that the View shows every seat.  Raises ValueError when no count is under way."""
    if view.counting is None or view.starter is None or len(view.counting_cards) != 4:
        raise ValueError("no Muggins count is under way in this view")
    return show_total(view.counting_cards, view.starter, view.counting_crib)


def _respond(announced: int, true: int) -> Move:
    if announced < true:
        return MugginsCall.of(true - announced)
    if announced > true:
        return Overcount()
    return Accept()


def _sides(rules: Rules) -> int:
    return rules.sides


def discard_values(view: View, moves: Sequence[Move], peg_weight: float = 0.0) -> list[float]:
    """The value (points, higher is better for the seat in a normal game) of each discard in ``moves``.

    Value = exact mean show value of the kept four over every starter not in the own hand (spec §5 "average
    hand") + the crib table value when the crib is the own side's, - it (divided by the number of opposing sides)
    when it is an opponent's, + a small pegging term.  Negated in Lowball (§2.8).  ``peg_weight`` > 0 (two
    players, not Lowball): the pegging term is instead ``peg_weight`` times the pegging table's differential of
    the kept four (:func:`peg_value`).

    Raises:
        ValueError: a move that is not a :class:`Discard` of the seat's cards.
    """
    rules = view.rules
    hand = view.hand
    assert view.dealer is not None
    held = set(hand)
    starters = [c for c in _DECK if c not in held]
    own_crib = rules.side_of(view.dealer) == rules.side_of(view.seat)
    others = rules.sides - 1
    sign = -1.0 if rules.lowball else 1.0
    use_table = peg_weight > 0 and rules.players == 2 and not rules.lowball
    dealing = view.dealer == view.seat
    out = []
    for move in moves:
        if not isinstance(move, Discard) or any(c not in held for c in move.cards):
            raise ValueError(f"{move} is not a discard of this hand")
        kept = [c for c in hand if c not in move.cards]
        mean = sum(show_total(kept, s) for s in starters) / len(starters)
        crib = crib_value(move.cards, own_crib)
        value = mean + (crib if own_crib else -crib / others)
        if use_table:
            out.append(value + peg_weight * peg_value(kept, dealing))
            continue
        ranks = [c.rank for c in kept]
        pairs = sum(1 for i in range(4) for j in range(i + 1, 4) if ranks[i] == ranks[j])
        low = sum(1 for c in kept if card_value(c) <= 4)
        value += _PEG_PAIR * pairs + _PEG_LOW * low
        out.append(sign * value)
    return out


def _board_applies(view: View, near: int = cribbage_board.NEAR_END) -> bool:
    """Two players (no partners), not Lowball, and a player within ``near`` points of the target: the board
    decides (spec §5)."""
    rules = view.rules
    return (
        rules.players == 2
        and not rules.lowball
        and rules.target in _BOARD_TARGETS
        and cribbage_board.near_end(rules.target, view.side_scores, near)
    )


def _mean(pmf: Any) -> float:
    """The mean of a points distribution (index = points)."""
    return float(pmf @ range(len(pmf)))


def board_discard_values(view: View, moves: Sequence[Move], values: Sequence[float], peg: float = 0.0) -> list[float]:
    """Discard values near the end of a two-player game: the chance of winning the game (spec §2.6 counting order,
    §5 "weighted for the board position"; :func:`kortbord.bots.cribbage_board.discard_chances`) for the
    :data:`_BOARD_CANDIDATES` discards of the highest expected points ``values`` (from :func:`discard_values`),
    ranked above the others; the expected points break ties.

    Args:
        peg: 0 (strong's): every kept four pegs as the table's distributions say.  Over 0: the pegging of each
            candidate moved by ``peg`` times its kept four's pegging differential (:func:`peg_value`) less the
            table's mean for the seat -- a four that pegs well wins more games that the play decides -- and every
            discard a candidate.
    Returns:
        One value per move (comparable among themselves only).
    """
    rules = view.rules
    assert view.dealer is not None
    order = sorted(range(len(moves)), key=lambda i: -values[i])[: len(moves) if peg else _BOARD_CANDIDATES]
    hand = view.hand
    held = set(hand)
    starters = [c for c in _DECK if c not in held]
    own_crib = view.dealer == view.seat
    dist = cribbage_board.distributions()
    mean_crib = _mean(dist["crib"])
    mean_peg = (_mean(dist["dealer_peg"]) - _mean(dist["pone_peg"])) * (1 if own_crib else -1)
    hands, shifts, pegs = [], [], []
    for i in order:
        move = moves[i]
        assert isinstance(move, Discard)
        kept = [c for c in hand if c not in move.cards]
        hands.append([show_total(kept, st) for st in starters])
        shifts.append(crib_value(move.cards, own_crib) - mean_crib)
        pegs.append(peg * (peg_value(kept, own_crib) - mean_peg))
    me, opp = view.side_scores[view.seat], view.side_scores[1 - view.seat]
    chances = cribbage_board.discard_chances(rules.target, me, opp, own_crib, hands, shifts, pegs if peg else None)
    out = [v - 1e6 for v in values]  # below every candidate
    for i, chance in zip(order, chances, strict=True):
        out[i] = 1e3 * chance + 1e-3 * values[i]
    return out


class StrongBot:
    """The strong Cribbage player (see the module docstring).

    Args:
        rules: optional; the rules always come from ``view.rules`` (kept for the arena's uniform construction).
        iterations: at most this many random deals per play decision (>= 1).  Given alone (``nodes`` None): exactly
            this many deals, no node budget.  Both None: the level's :data:`ITERATIONS` and :data:`NODES`.
        nodes: the work per play decision in search nodes, over all its deals (>= 1): the alpha-beta branching
            points, one per card searched on a deal and :data:`_DEAL_NODES` per deal; the next deal is not
            started when it would overrun them (predicted from the mean so far), at least one deal is searched.
            Reproducible from ``rng`` whatever the machine's load.
        time_budget_ms: an optional wall-clock cap on one play decision, milliseconds (None: no cap).  When it
            bites the search stops early, ``last_stats["capped"]`` is true and :attr:`capped` is incremented.
        board: play to the board near the end of a two-player game (default ``True``): discards and pegging then
            maximise the chance of winning the game (:mod:`kortbord.bots.cribbage_board`) rather than the points.
        peg_weight: an experiment (default 0: off): the discard's pegging term becomes this weight times the
            pegging table's mean differential of the kept four (``bots/data/peg_values.json``; two players).
        board_peg: the discard to the board (near the end, ``board``) moves each kept four's pegging by this weight
            times its pegging table differential, every discard then a candidate (:func:`board_discard_values`'
            ``peg``; 0 to 2, default 0: off, strong's).
        play_model: an experiment (default 0: off): the temperature of an opponent model of the play (two
            players, not Lowball).  Each sampled deal's weight is also multiplied by the likelihood of the cards
            the opponent has laid so far in this play given the deal's hand: at each of its plays with a choice,
            a soft-max at this temperature (points) over a greedy evaluation of the cards it could lay
            (:class:`_PlayModel`).
        reply: an experiment (default 0: off, the search minimises at the opponent's choices): the temperature
            (points) of an opponent model in the pegging search (two players, not Lowball): on each sampled deal the
            opponent lays a card drawn from a soft-max over :func:`judge_plays`, judged from its own seat (it does
            not see this player's hand), and the search takes the expectation instead of the minimum.
        take: an experiment (default 0: off): evidence from the opponent's plays (two players, not Lowball), the
            chance (0 to below 1) that a player lays the card scoring the most when a card of its hand scores
            (spec §2.4); otherwise, and when none scores, any legal card alike (:class:`_PlayModel`).  With
            ``play_model`` also given, ``take`` decides the evidence.
        keep_model: an experiment (default 0: off): the temperature (points) of a model of the opponent's discard
            (two players, not Lowball) that replaces the level's keep weight: each sampled deal is weighted by
            the soft-max chance that the opponent kept its four of the six (:class:`_KeepModel`, spec §5).
        resample: an experiment (default 1: off): deals drawn for each deal searched, the one searched picked
            in proportion to its weight (sampling-importance-resampling; 1 to 256); at most
            :data:`_RESAMPLE_DRAWS` drawn a decision.
    Attributes:
        decisions: play decisions searched (more than one legal card) since the bot was made.
        capped: how many of them the time cap cut short.
        last_stats: the last decision's ``{"deals", "nodes", "capped"}`` (0 deals: no search -- a discard, a show, a
            forced move).
    Raises:
        ValueError: a non-positive cap or iteration count.
    """

    name = "strong"

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        iterations: int | None = None,
        nodes: int | None = None,
        time_budget_ms: float | None = None,
        board: bool = True,
        peg_weight: float = 0.0,
        board_peg: float = 0.0,
        play_model: float = 0.0,
        reply: float = 0.0,
        take: float = 0.0,
        keep_model: float = 0.0,
        resample: int = 1,
    ):
        if time_budget_ms is not None and not time_budget_ms > 0:
            raise ValueError(f"time_budget_ms must be positive, got {time_budget_ms!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations!r}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes must be at least 1, got {nodes!r}")
        self.rules = rules
        if iterations is None and nodes is None:
            iterations, nodes = ITERATIONS, NODES
        self.iterations: int = ITERATIONS if iterations is None else int(iterations)
        self.nodes: int | None = None if nodes is None else int(nodes)
        self.time_budget_ms = None if time_budget_ms is None else float(time_budget_ms)
        self.board = bool(board)
        if not 0.0 <= peg_weight <= 10.0:
            raise ValueError(f"peg_weight must be from 0 to 10, got {peg_weight!r}")
        self.peg_weight = float(peg_weight)
        if isinstance(board_peg, bool) or not isinstance(board_peg, int | float) or not 0.0 <= board_peg <= 2.0:
            raise ValueError(f"board_peg must be from 0 to 2, got {board_peg!r}")
        self.board_peg = float(board_peg)
        if not 0.0 <= play_model <= 10.0:
            raise ValueError(f"play_model must be from 0 to 10, got {play_model!r}")
        self.play_model = float(play_model)
        if not 0.0 <= reply <= 10.0:
            raise ValueError(f"reply must be from 0 to 10, got {reply!r}")
        self.reply = float(reply)
        if not 0.0 <= take < 1.0:
            raise ValueError(f"take must be from 0 to below 1, got {take!r}")
        self.take = float(take)
        if not 0.0 <= keep_model <= 10.0:
            raise ValueError(f"keep_model must be from 0 to 10, got {keep_model!r}")
        self.keep_model = float(keep_model)
        if isinstance(resample, bool) or not 1 <= int(resample) <= 256:
            raise ValueError(f"resample must be from 1 to 256, got {resample!r}")
        self.resample = int(resample)
        self.decisions = 0
        self.capped = 0
        #: the discard is to the board (``board``) from a player within this many points of the target
        self.discard_near = cribbage_board.NEAR_END
        self.last_stats: dict[str, Any] = {"deals": 0, "nodes": 0, "capped": False}
        if self.board and rules is not None and rules.players == 2 and rules.target in _BOARD_TARGETS:
            cribbage_board.warm_up(rules.target)  # load the table now, not in the first end-game decision

    # -- the one entry point ---------------------------------------------------------------------------------
    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``legal_moves`` (see the module docstring); ties broken with ``rng``.

        Raises:
            TypeError: ``view`` is not a :class:`View` (a bot never receives the state).
            ValueError: ``legal_moves`` is empty.
        """
        if not isinstance(view, View):
            raise TypeError(f"a Cribbage bot needs the seat's View, got {type(view).__name__}")
        if not legal_moves:
            raise ValueError("choose() needs at least one legal move")
        self.last_stats = {"deals": 0, "nodes": 0, "capped": False}
        if view.phase == "show":
            true = true_count(view)
            if view.announced is None:
                return Announce.of(true)
            return _respond(view.announced, true)
        if len(legal_moves) == 1:
            return legal_moves[0]
        if view.phase == "discard":
            values = discard_values(view, legal_moves, self.peg_weight)
            if self.board and _board_applies(view, self.discard_near):
                values = board_discard_values(view, legal_moves, values, self.board_peg)
            return _pick(legal_moves, values, rng)
        return _pick(legal_moves, self.play_values(view, legal_moves, rng), rng)

    # -- the play --------------------------------------------------------------------------------------------
    def play_values(
        self,
        view: View,
        legal_moves: Sequence[Move],
        rng: random.Random,
        win: float = _WIN,
        samples: list[tuple[float, list[float]]] | None = None,
    ) -> list[float]:
        """The mean searched value of each move over random deals consistent with ``view`` (module docstring).

        ``win`` is the bonus for winning the game (:data:`WIN`; the search is the same for any bonus that
        outweighs a deal's points, which is how :func:`split_values` tells the points from the winning chance).

        Returns:
            One value per move: own side's points minus the opponents' (mean over opponents) until the end of
            the play, plus ``win`` for winning there and minus it for losing (playing to the board: ``win`` times
            twice the chance of winning, less one); negated in Lowball.  ``samples``, when given, receives each
            deal's ``(weight, [value of each move])`` (the same deals for every move: the review's noise test).
        """
        sampler = self._sampler(view)
        totals = [0.0] * len(legal_moves)
        done = 0
        start = time.perf_counter()
        deadline = None if self.time_budget_ms is None else start + self.time_budget_ms / 1000.0
        limit = self.iterations
        if not sampler.hidden:  # every card is known: one deal is the truth
            limit = 1
        elif self.resample > 1:  # the draws bounded too: a late play's searches are cheap, its draws are not
            limit = min(limit, max(1, _RESAMPLE_DRAWS // self.resample))
        capped = False
        nodes = 0
        weights = 0.0
        use_board = self.board and _board_applies(view)
        while True:
            if self.resample > 1:  # sampling-importance-resampling: search one of several deals drawn by weight
                drawn = [sampler.draw(rng) for _ in range(self.resample)]
                pick = rng.choices(range(len(drawn)), weights=[w for _, w in drawn])[0]
                state, weight = sampler.settle(drawn[pick][0]), 1.0
            else:
                state, weight = sampler.sample(rng)
            search = self._search(view, state, sampler.shows() if use_board else None, win)
            deal = [0.0] * len(legal_moves)
            for i, move in enumerate(legal_moves):
                deal[i] = value = search.value_after(move)
                totals[i] += weight * value
                nodes += search.nodes + 1  # the card's own search counts one node at least
            if samples is not None:
                samples.append((weight, deal))
            weights += weight
            done += 1
            nodes += _DEAL_NODES
            if done >= limit or (self.nodes is not None and nodes + nodes / done > self.nodes):
                break  # the work is done (the next deal would overrun the node budget)
            if deadline is not None and (now := time.perf_counter()) + (now - start) / done >= deadline:
                capped = True  # the next deal would overrun the cap
                break
        self.decisions += 1
        self.capped += capped
        self.last_stats = {"deals": done, "nodes": nodes, "capped": capped}
        return [t / weights for t in totals]

    def _search(self, view: View, state: State, shows: tuple[int, tuple[int, ...], int] | None, win: float) -> _Search:
        """The search of one sampled deal (:class:`_Search`); a bench may give another (the ``modelled`` bot)."""
        return _Search(view.seat, view.rules, state, shows, win, self.reply)

    def _sampler(self, view: View) -> _Sampler:
        """The deals a play decision searches, with their evidence (the bot's experiments); a bench may give
        another opponent model here (``bench/cribbage_outside.py``'s ``modelled``)."""
        return _Sampler(view, self.play_model, self.take, self.keep_model)


def split_values(
    bot: StrongBot, view: View, legal_moves: Sequence[Move], seed: int, values: list[float] | None = None
) -> tuple[list[float], list[float], list[float]]:
    """The strong player's values of ``legal_moves`` (:meth:`StrongBot.play_values` with ``random.Random(seed)``)
    and the two parts they are made of: the game points and the winning chance.

    The values are searched twice over the same deals, with the win bonus :data:`WIN` and with twice it: a bonus
    that outweighs every deal's points leaves the search's choices unchanged, so a move's value is
    ``points + bonus * outcome`` in both, where ``outcome`` is its mean of +1 (the game won in this play), -1
    (lost) and, playing to the board, twice the chance of winning less one (0 when the game goes on).

    ``values``: the bot's :meth:`~StrongBot.play_values` with ``random.Random(seed)`` when they were searched just
    before (by ``bot``, whose ``last_stats`` then say how many deals they took), so they are not searched again.

    Returns:
        ``(values, points, chance)`` per move: the values (with the bonus :data:`WIN`), the expected points of the
        own side minus the opponents' to the end of the play (spec §2.4; negated in Lowball), and the chance of
        winning implied by the outcome (``(outcome + 1) / 2``: 0.5 when this play cannot decide the game).
    """
    if values is None:
        values = bot.play_values(view, legal_moves, random.Random(seed))
    same = StrongBot(
        bot.rules,
        iterations=max(1, bot.last_stats["deals"]),
        board=bot.board,
        play_model=bot.play_model,
        reply=bot.reply,
    )
    doubled = same.play_values(view, legal_moves, random.Random(seed), win=2.0 * WIN)
    points = [2.0 * v - d for v, d in zip(values, doubled, strict=True)]
    chance = [((d - v) / WIN + 1.0) / 2.0 for v, d in zip(values, doubled, strict=True)]
    return values, points, chance


def _pick(legal_moves: Sequence[Move], scores: Sequence[float], rng: random.Random) -> Move:
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s >= best - 1e-9]
    return legal_moves[top[rng.randrange(len(top))] if len(top) > 1 else top[0]]


class _Sampler:
    """Random deals of the cards a seat has not seen, consistent with its View (``kortbord.cribbage.SPEC.sample``,
    the one sampler of unseen cards: every go of the play honoured), each weighted by how likely its hidden hands
    are to have been kept."""

    def __init__(self, view: View, play_model: float = 0.0, take: float = 0.0, keep_model: float = 0.0) -> None:
        self.view = view
        self.n = view.rules.players
        two = self.n == 2 and not view.rules.lowball
        self._plays = _PlayModel(view, play_model, take) if (play_model > 0 or take > 0) and two else None
        self._keeps = _KeepModel(view, keep_model) if keep_model > 0 and two else None
        # cards of the other hands the view hides: none, and the play is known exactly
        self.hidden = sum(view.hand_sizes) - len(view.hand)
        self._muggins_rules: Rules | None = None
        self._last: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] = ((), ())

    def sample(self, rng: random.Random) -> tuple[State, float]:
        """A state at the seat's decision and its weight."""
        state, weight = self.draw(rng)
        return self.settle(state), weight

    def draw(self, rng: random.Random) -> tuple[State, float]:
        """A deal consistent with the view and its weight, before :meth:`settle`."""
        view = self.view
        state = SPEC.sample(view, rng)
        kept = state._kept
        if self._keeps is not None:
            opp = 1 - view.seat
            weight = self._keeps.likelihood(kept[opp], state._discards[opp])
        else:
            weight = self._weight(kept)
        if self._plays is not None:
            weight *= self._plays.likelihood(kept[1 - view.seat])
        return state, weight

    def settle(self, state: State) -> State:
        """``state`` made the deal :meth:`shows` reads, and stopped at the show when its show cannot end the game."""
        view = self.view
        kept, crib = state._kept, state._crib
        self._last = (kept, crib)
        rules = view.rules
        starter = view.starter
        assert starter is not None and view.dealer is not None
        if not rules.lowball and not rules.muggins:
            shows = [0] * rules.sides
            for seat in range(self.n):
                shows[rules.side_of(seat)] += show_total(kept[seat], starter)
            shows[rules.side_of(view.dealer)] += show_total(crib, starter, True)
            if all(view.side_scores[s] + shows[s] + _PLAY_REACH < rules.target for s in range(rules.sides)):
                # this deal's show cannot end the game: the search may stop where it starts (under Muggins the
                # play ends at the show; the play's rules are the same), which spares scoring it at every leaf
                state = State((self._stop_at_show(), *state[1:]))
        return state

    def shows(self) -> tuple[int, tuple[int, ...], int]:
        """The last sampled deal's (dealer, show value of each seat's hand, crib value), points (spec §2.5)."""
        kept, crib = self._last
        starter = self.view.starter
        assert starter is not None and self.view.dealer is not None
        hands = tuple(show_total(k, starter) for k in kept)
        return self.view.dealer, hands, show_total(crib, starter, True)

    def _weight(self, kept: tuple[tuple[Card, ...], ...]) -> float:
        """The likelihood ratio of the other hands as dealt here: players keep good hands (spec §5), so a deal
        whose hidden hands would have been kept counts more -- exp(beta * (average - 6)) per hand, clipped, with
        beta half the slope of the log-ratio between the best-average keep of 6 (2 players) or 5 cards and a
        random 4-card hand (measured on random deals)."""
        log_w = 0.0
        beta = _KEEP_BETA[self.n]
        sizes = self.view.hand_sizes
        for seat in range(self.n):
            if seat == self.view.seat or not sizes[seat]:
                continue
            hand = kept[seat]
            held = set(hand)
            average = sum(show_total(hand, c) for c in _DECK if c not in held) / 48.0
            log_w += min(max(beta * (average - 6.0), -_KEEP_CLIP), _KEEP_CLIP)
        return math.exp(log_w)

    def _stop_at_show(self) -> Rules:
        if self._muggins_rules is None:
            self._muggins_rules = Rules.from_dict({**self.view.rules.to_dict(), "muggins": True})
        return self._muggins_rules


@cache
def _rank_mean(kept: tuple[int, ...], out: tuple[int, ...]) -> float:
    """The mean fifteens, pairs and runs (points) of four cards of the sorted 1-based ranks ``kept`` over the
    starters not among the six cards ``kept`` + ``out`` (46), plus 0.25 a jack for his nobs (spec §2.5); flushes
    left out (the rank part of a keep's value, memoised per rank multiset)."""
    left = [4] * 14
    for r in kept + out:
        left[r] -= 1
    total = sum(left[r] * _rank_points(tuple(sorted(x - 1 for x in (*kept, r)))) for r in range(1, 14) if left[r])
    return total / 46.0 + 0.25 * kept.count(11)


_SPLITS: Final = tuple(
    (tuple(k for k in range(6) if k not in (i, j)), (i, j)) for i in range(6) for j in range(i + 1, 6)
)


class _KeepModel:
    """How likely the opponent was to keep the four cards it holds in a sampled deal, given the six it was dealt
    there (its four and the two it laid away; two players; ``keep_model`` of :class:`StrongBot`).

    A sensible player keeps the four of the most points (spec §5): each of the 15 ways to lay away two of the six
    is valued as the kept four's mean fifteens, pairs and runs over the starters (:func:`_rank_mean`) plus the
    crib table's value of the two laid away to its own crib, minus it to the other's (:func:`crib_value`), and
    the keep is chosen by a soft-max at ``temperature`` (points).  This likelihood replaces the coarser
    :meth:`_Sampler._weight`.
    """

    def __init__(self, view: View, temperature: float) -> None:
        assert view.dealer is not None
        self.t = temperature
        self.own = view.dealer != view.seat  # the opponent deals: the crib is its own

    def likelihood(self, kept: Sequence[Card], thrown: Sequence[Card]) -> float:
        """exp(value of ``kept`` / t) over the sum of it for the 15 keeps of ``kept`` + ``thrown`` (1.0, no
        evidence, unless they are four and two cards: a position set up without its discards)."""
        if len(kept) != 4 or len(thrown) != 2:
            return 1.0
        six = sorted((*kept, *thrown))  # by rank (a card's number is rank then suit)
        ranks = tuple(c.rank for c in six)
        hands = _six_means(ranks)
        crib = _signed_cribs(self.own)
        suits = [c.suit for c in six]
        values = [
            hand + crib[ranks[i], ranks[j], suits[i] == suits[j]]
            for hand, (_, (i, j)) in zip(hands, _SPLITS, strict=True)
        ]
        i, j = (k for k, c in enumerate(six) if c in thrown)
        chosen = values[_SPLIT_OF[i, j]]
        top = max(values)
        t = self.t
        return math.exp((chosen - top) / t) / sum(math.exp((v - top) / t) for v in values)


#: the index in :data:`_SPLITS` of each pair of positions laid away
_SPLIT_OF: Final = {out: k for k, (_, out) in enumerate(_SPLITS)}


@cache
def _six_means(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """:func:`_rank_mean` of each keep of :data:`_SPLITS` from six cards of the sorted ranks ``ranks``."""
    return tuple(_rank_mean(tuple(ranks[i] for i in keep), tuple(ranks[i] for i in out)) for keep, out in _SPLITS)


@cache
def _signed_cribs(own: bool) -> dict[tuple[int, int, bool], float]:
    """The crib table's value of two cards laid away, by (lower rank, higher rank, same suit), to the thrower's own
    crib (positive) or the other's (negative): :func:`crib_value`."""
    out: dict[tuple[int, int, bool], float] = {}
    for a in range(1, 14):
        for b in range(a, 14):
            for suited in (False, True) if a != b else (False,):
                pair = (Card((a - 1) * 4), Card((b - 1) * 4 + (0 if suited else 1)))
                value = crib_value(pair, own)
                out[a, b, suited] = value if own else -value
    return out


class _PlayModel:
    """How likely the opponent's plays so far were, given a sampled hand (two players; ``play_model`` of
    :class:`StrongBot`).

    The play so far is replayed from ``view.played`` (spec §2.4): a count restarts after 31 or when the next card
    would pass 31 (a card laid after a go by every player never fits the old count: whoever said go could not
    lay, and the count only grew), and the viewer said go when the opponent lays twice running in one count.  At
    each card the opponent laid from a choice of legal cards, a sensible player's choice is modelled as a soft-max
    at ``temperature`` over a greedy evaluation (:meth:`GreedyBot.play_value
    <kortbord.bots.cribbage_simple.GreedyBot.play_value>`'s: the points at once, minus the points it offers the
    next player weighted by the chance, from the cards the opponent had not seen, that the viewer holds the answer,
    plus a small preference for laying high cards).  With ``take`` > 0 the choice is modelled instead as: the card
    scoring the most at once (spec §2.4; ties share it) with chance ``take`` when a legal card scores, otherwise
    any legal card alike.  Values are cached per play and hand (ranks only).
    """

    def __init__(self, view: View, temperature: float, take: float = 0.0) -> None:
        self.t = temperature
        self.take = take
        opp = 1 - view.seat
        starter = view.starter
        assert starter is not None
        # per opponent play: (its cards laid before, cards laid before by anyone plus the starter (ranks), the
        # count's cards, the count, the card laid, the viewer's cards held, the viewer said go in this count)
        self.events: list[tuple[tuple[Card, ...], tuple[int, ...], tuple[Card, ...], int, Card, int, bool]] = []
        seq: list[Card] = []
        count = 0
        last_seat: int | None = None
        mine_laid = 0
        before: list[Card] = []
        opp_before: list[Card] = []
        for seat, card in view.played:
            value = card_value(card)
            if count == 31 or count + value > 31:
                seq, count, last_seat = [], 0, None
            if seat == opp:
                held_mine = 4 - mine_laid
                passed = held_mine == 0 or last_seat == opp
                seen = (*(c.rank for c in before), starter.rank)
                self.events.append((tuple(opp_before), seen, tuple(seq), count, card, held_mine, passed))
                opp_before.append(card)
            else:
                mine_laid += 1
            before.append(card)
            seq.append(card)
            count += value
            last_seat = seat
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def likelihood(self, kept: Sequence[Card]) -> float:
        """The product over the opponent's plays of the modelled chance of the card it laid, holding ``kept``."""
        log_l = 0.0
        for i, (laid, seen, seq, count, card, n, passed) in enumerate(self.events):
            held = [c for c in kept if c not in laid]
            key = (i, tuple(sorted(c.rank for c in held)))
            got = self._cache.get(key)
            if got is None:
                got = self._cache[key] = self._log_chance(held, seen, seq, count, card, n, passed)
            log_l += got
        return math.exp(log_l)

    def _log_chance(
        self,
        held: list[Card],
        seen: tuple[int, ...],
        seq: tuple[Card, ...],
        count: int,
        card: Card,
        n: int,
        passed: bool,
    ) -> float:
        legal = [c for c in held if count + card_value(c) <= 31]
        if len(legal) <= 1:
            return 0.0
        if self.take > 0:  # players take points: the most at once with chance ``take``, else any legal card
            gains = [score_play((*seq, c)).points for c in legal]
            most = max(gains)
            chance = (1.0 - self.take) / len(legal) if most > 0 else 1.0 / len(legal)
            if most > 0 and gains[legal.index(card)] == most:
                chance += self.take / gains.count(most)
            return math.log(chance)
        values = judge_plays(held, seen, seq, count, n, passed)
        t = self.t
        top = max(values.values())
        norm = sum(math.exp((values[c.rank] - top) / t) for c in legal)  # each legal card (two of a rank: twice)
        return (values[card.rank] - top) / t - math.log(norm)


class _Search:
    """Alpha-beta to the end of the play on one deal, values from ``seat``'s side's point of view."""

    def __init__(
        self,
        seat: int,
        rules: Rules,
        root: State,
        shows: tuple[int, tuple[int, ...], int] | None = None,
        win: float = _WIN,
        reply: float = 0.0,
    ) -> None:
        self.seat = seat
        #: the opponent model at the other side's choices (``StrongBot``'s ``reply``): 0 minimises (paranoid)
        self.reply = reply if rules.players == 2 and not rules.lowball else 0.0
        self.win = win
        #: two-player end game (see :func:`_board_applies`): the deal's dealer and shows; leaves are then valued by
        #: the chance of winning the game (:mod:`kortbord.bots.cribbage_board`)
        self.shows = shows
        self.rules = rules
        self.side = rules.side_of(seat)
        self.root = root
        self.root_scores = root.scores
        self.sign = -1.0 if rules.lowball else 1.0
        self.others = rules.sides - 1
        self.nodes = 0

    def value_after(self, move: Move) -> float:
        self.nodes = 0
        return self._value(engine.apply(self.root, move), -1e9, 1e9)

    def _leaf(self, state: State) -> float:
        rules = self.rules
        gains = [0.0] * rules.sides
        for s, (now, before) in enumerate(zip(state.scores, self.root_scores, strict=True)):
            gains[rules.side_of(s)] += now - before
        mine = gains[self.side]
        diff = mine - (sum(gains) - mine) / self.others
        value = self.sign * diff
        if engine.is_over(state):
            value += self.win if self.seat in engine.result(state).winners else -self.win
        elif self.shows is not None:
            value += self.win * (2.0 * self._chance(state) - 1.0)
        return value

    def _chance(self, state: State) -> float:
        """Two players near the end: the seat's chance of winning after this deal (spec §2.6 counting order)."""
        assert self.shows is not None
        dealer, hands, crib = self.shows
        seat, target = self.seat, self.rules.target
        scores = list(state.scores)
        if state.phase_name == "show":  # the play is over and nothing is counted yet: pone, then dealer
            pone = 1 - dealer
            scores[pone] += hands[pone]
            if scores[pone] >= target:
                return 1.0 if seat == pone else 0.0
            scores[dealer] += hands[dealer] + crib
            if scores[dealer] >= target:
                return 1.0 if seat == dealer else 0.0
        return cribbage_board.after_deal_chance(target, scores[seat], scores[1 - seat], seat != dealer)

    def _value(self, state: State, alpha: float, beta: float) -> float:
        if state.phase_name != "play":
            return self._leaf(state)
        moves = engine.legal_moves(state)
        mover = engine.to_act(state)
        assert mover is not None
        if len(moves) == 1:
            return self._value(engine.apply(state, moves[0]), alpha, beta)
        self.nodes += 1
        maximise = self.rules.side_of(mover) == self.side
        if not maximise and self.reply > 0.0 and self.nodes <= _NODE_BUDGET:
            return self._modelled(state, mover, moves, alpha, beta)
        children = [engine.apply(state, m) for m in moves]
        gains = [c.scores[mover] - state.scores[mover] for c in children]
        # order: the mover's best immediate points first (its own objective: fewest in Lowball)
        lowball = self.rules.lowball
        order = sorted(range(len(children)), key=lambda i: gains[i] if lowball else -gains[i])
        if self.nodes > _NODE_BUDGET:
            return self._playout(children[order[0]])
        if maximise:
            best = -1e9
            for i in order:
                v = self._value(children[i], alpha, beta)
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
                if alpha >= beta:
                    break
            return best
        best = 1e9
        for i in order:
            v = self._value(children[i], alpha, beta)
            if v < best:
                best = v
            if best < beta:
                beta = best
            if alpha >= beta:
                break
        return best

    def _modelled(self, state: State, mover: int, moves: Sequence[Move], alpha: float, beta: float) -> float:
        """The expected value of an opponent's choice under the reply model: a soft-max at temperature
        ``self.reply`` (points) over :func:`judge_plays` judged from the mover's own seat (its hand, the cards
        laid, the starter and its discards -- not the searcher's hand).  Cards of weight under 1/1000 of the total
        are not searched; one card that carries it all keeps the alpha-beta window, several are searched with a
        full window."""
        nxt = 1 - mover
        seen = [c.rank for c in state.played]
        seen += [c.rank for c in state._discards[mover]]
        if state.starter is not None:
            seen.append(state.starter.rank)
        values = judge_plays(
            state._hands[mover],
            seen,
            state.sequence,
            state.count,
            len(state._hands[nxt]),
            bool(state.passed >> nxt & 1),
        )
        scores = [values[m.card.rank] if isinstance(m, Play) else 0.0 for m in moves]
        top = max(scores)
        t = self.reply
        weights = [math.exp((v - top) / t) for v in scores]
        floor = 1e-3 * sum(weights)
        kept = [(w, m) for w, m in zip(weights, moves, strict=True) if w >= floor]
        if len(kept) == 1:
            return self._value(engine.apply(state, kept[0][1]), alpha, beta)
        total = value = 0.0
        for w, m in kept:
            value += w * self._value(engine.apply(state, m), -1e9, 1e9)
            total += w
        return value / total

    def _playout(self, state: State) -> float:
        """Greedy to the end of the play: each player lays the card scoring the most (least in Lowball)."""
        lowball = self.rules.lowball
        while state.phase_name == "play":
            moves = engine.legal_moves(state)
            mover = engine.to_act(state)
            assert mover is not None
            if len(moves) == 1:
                state = engine.apply(state, moves[0])
                continue
            children = [engine.apply(state, m) for m in moves]
            gains = [c.scores[mover] for c in children]
            pick = (
                min(range(len(children)), key=gains.__getitem__)
                if lowball
                else max(range(len(children)), key=gains.__getitem__)
            )
            state = children[pick]
        return self._leaf(state)
