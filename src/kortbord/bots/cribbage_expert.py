"""The Cribbage ``expert`` level (issue #14 item 2): strong's discard and shows, and a pegging played by an exact
search over what the opponent may hold, its play rule learnt from the cards it has laid in this game.

* **The opponent's hand** is a posterior over the rank multisets it may still hold (suits never score in the play,
  rules spec ``spec/rules/cribbage.md`` §2.4): each weighted by the ways the unseen cards give it, by how likely a
  sensible discard keeps it (:func:`keep_table`: the discard of spec §5 over six random cards, a soft-max at
  ``kt`` points), and by the chance of every card it laid under the opponent model mixed with any legal card at
  ``slip``; a hand that could have laid a card where it said go is out (:class:`Posterior`).
* **The opponent model is learnt, not told** (:class:`LearntModel`): a soft-max over a few features any player's
  rule may weigh (:func:`features`: points now, the card's value, the counts 5, 10 and 21 it leaves, an answer
  held, a 15 or 31 left in reach, a run offered; a lead's value, pair, lowness, 5, fifteen or run partner), fitted
  by maximum likelihood to the opponent's play decisions seen whole in the deals before (:func:`decisions_seen`).
  The bot reads them from the table's public events (:meth:`PlayReader.observe`, the
  :class:`~kortbord.bots.base.Observer` protocol: the arena, the web table and the terminal tell it every event) or,
  where no driver does, from its own views.  It learns within one game: a new bot for each game.
* **The search** (:class:`BeliefSearch`) is an expectimax over the public history to the end of the play: at this
  player's turns one card for every hand the opponent may hold (its choice depends only on what it has seen: no
  strategy fusion), at the opponent's the hands split by the card the model lays.  Values: own pegging points
  minus the other's; near the end of the game (a player within
  :data:`~kortbord.bots.cribbage_board.NEAR_END` points of the target) the leaves are valued to the board as
  strong's (:class:`BoardEnd`: a player who pegs out wins there; the pone's show, the dealer's hand and crib in
  the order of spec §2.6, then the board table's chance of winning).
* **The work bound**: a play decision's search is given ``hands`` hands drawn from the posterior by weight (the
  bot's rng) and visits at most ``budget`` nodes (else again on half the draws); near the end twice both.  A
  decision's work is fixed, never a time (issue #14 item 1): the same view, events and rng give the same choice
  on any machine.
* Off two players, and in Lowball, the play is strong's (:class:`~kortbord.bots.cribbage_strong.StrongBot`).

Measured (``docs/bots.md``, ``bench/results/cribbage-expert-2026-12-07.md``): against kortbord's greedy and
CribbageSim's Hoyle-based player with duplicate deals.  ``bench/cribbage_belief.py`` builds its measurements on
this module (opponent models told, other keep tables).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from itertools import combinations_with_replacement
from typing import Any, Final

from kortbord.bots import cribbage_board, cribbage_strong
from kortbord.cards import Card
from kortbord.cribbage.moves import Play
from kortbord.cribbage.scoring import _rank_points, _score_last, show_total
from kortbord.cribbage.view import View

__all__ = [
    "FEATURES_RISK",
    "LEVEL_BUDGET",
    "LEVEL_END_SD",
    "LEVEL_HANDS",
    "LEVEL_SD",
    "BeliefBot",
    "BeliefSearch",
    "BoardEnd",
    "ExpertBot",
    "LearntModel",
    "PlayReader",
    "Posterior",
    "count_risk",
    "decisions_seen",
    "features",
    "keep_ratios_by",
    "keep_table",
    "lay_points",
]

#: The expert level's work per play decision: hands drawn from the posterior, and the most search nodes
#: (twice both near the end of the game).  Measured in ``bench/results/cribbage-expert-2026-12-07.md``.
LEVEL_HANDS: Final = 64
LEVEL_BUDGET: Final = 24_000
#: The expert's keep table's temperature (points; issue #14 item 2's runs).
LEVEL_KT: Final = 0.5
#: The sds of the Gaussian priors the expert's opponent models are refitted under (weights about :func:`play_prior`):
#: ``LEVEL_SD`` for the play, ``LEVEL_END_SD`` for the end game's (the decisions played to the board).  At 3 the
#: refit overfits the few decisions of a game for a player who makes mistakes (kortbord's beginner and casual: their
#: cards predicted at a mean log chance of -4.2 and -2.2 a decision, -1.1 and -0.8 at sd 1;
#: ``bench/cribbage_play_model.py``), and sd 1 scored +0.13 (+0.06 .. +0.20) a deal more against casual; but sd 1
#: in the end game too won 2.0 (0.3 .. 3.7) points of the games fewer against greedy at the same points a deal, on
#: 500 blocks -- the issue's measure -- so the end game keeps 3 (``bench/results/cribbage-expert-2026-12-07.md``,
#: "The fourth session" and "The fifth session").
LEVEL_SD: Final = 1.0
LEVEL_END_SD: Final = 3.0

#: a card's value in the count, by rank (1 = ace .. 13 = king)
VAL = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
Hand = tuple[int, ...]


def _cards(*groups: Hand) -> list[list[Card]]:
    """Cards of the ranks of each group, the suits told apart across all of them (ranks are all the play reads)."""
    used = [0] * 14
    out = []
    for ranks in groups:
        cards = []
        for r in ranks:
            cards.append(Card((r - 1) * 4 + used[r]))
            used[r] += 1
        out.append(cards)
    return out


#: a card of each rank (1-13; index 0 unused), standing for the rank where only ranks count
_RANK_CARD: Final = (Card(0), *(Card((r - 1) * 4) for r in range(1, 14)))


@lru_cache(maxsize=1 << 17)  # bounded: a worker plays game after game
def lay_points(seq: Hand, r: int) -> int:
    """The points (spec §2.4 step 3: 15, 31, pairs, runs; no go) for laying a card of rank ``r`` on a count of the
    ranks ``seq``: the engine's rule (:func:`~kortbord.cribbage.scoring.score_play`'s, which reads the cards' ranks
    only: a card of each rank stands for it, the count already checked by the caller), memoised on ranks."""
    return _score_last([_RANK_CARD[x] for x in (*seq, r)], sum(VAL[x] for x in seq) + VAL[r]).points


#: an opponent model: (its hand, the count's ranks, the count, the ranks it has seen laid or turned (counts by rank,
#: 14 long), the cards the searcher holds, the searcher said go in this count) -> ((rank or None for a go, chance), ...)
#: -- each rank at most once (the search branches on them)
Model = Callable[[Hand, Hand, int, tuple[int, ...], int, bool], tuple[tuple[int | None, float], ...]]


#: the search's hidden states: ((the opponent's ranks, its model's index), weight)
_Cands = list[tuple[tuple[Hand, int], float]]


def _seen_int(seen: Sequence[int]) -> int:
    """``seen`` (counts by rank, 14 long) packed three bits a rank (a count is at most 4)."""
    return sum(k << (3 * r) for r, k in enumerate(seen))


def _seen_tuple(seen: int) -> tuple[int, ...]:
    """:func:`_seen_int` undone."""
    return tuple((seen >> (3 * r)) & 7 for r in range(14))


#: what a model that reads the count only (``reads_count_only``) is given for ``seen``
_NO_SEEN: Final = (0,) * 14

#: the distinct ranks of a sorted hand that fit a count, by (hand, count): the search asks at every node
_LEGAL: dict[tuple[Hand, int], tuple[int, ...]] = {}


def _legal(us: Hand, count: int) -> tuple[int, ...]:
    key = (us, count)
    legal = _LEGAL.get(key)
    if legal is None:
        legal = _LEGAL[key] = tuple(sorted({r for r in us if count + VAL[r] <= 31}))
    return legal


class OverBudget(Exception):
    """A :class:`BeliefSearch` reached its node budget."""


class OverTime(Exception):
    """A :class:`BeliefSearch` passed its deadline (a caller's time cap, never the level's work)."""


class BeliefSearch:
    """Expectimax of the rest of the play over the opponent's possible (hand, model) pairs; values: this player's
    pegging points minus the opponent's -- and, given a :class:`BoardEnd` (``end``), plus strong's bonus for
    winning the game times twice the chance of winning less one (playing to the board, spec §5).

    ``nodes`` counts the positions visited (one a turn, the work bound of issue #14 item 1).  Internally the ranks
    seen are packed in an int (:func:`_seen_int`) and each (hand, model)'s chances are kept with the hand each card
    leaves; a model whose ``reads_count_only`` is true (:class:`LearntModel`: its chances depend on the hand, the
    count's ranks and whether the searcher holds a card, not on ``seen`` nor ``passed``) is asked once for each of
    those, others for every distinct argument.
    """

    def __init__(
        self,
        models: list[Model] | Model,
        budget: int = 0,
        end: BoardEnd | None = None,
        tables: dict[Any, Any] | None = None,
        deadline: float | None = None,
    ) -> None:
        self.models = models if isinstance(models, list) else [models]
        self.nodes = 0
        #: the most nodes a search may visit (0: no bound); past it the search raises :class:`OverBudget`
        self.budget = budget
        #: a ``time.perf_counter()`` past which the search raises :class:`OverTime` (looked at every 256 nodes;
        #: None: never -- the level's decisions)
        self.deadline = deadline
        self.end = end
        self._count_only = all(getattr(m, "reads_count_only", False) for m in self.models)
        #: (the count's ranks, the searcher holds a card[, seen, passed]) -> {(hand, model): ((rank, chance, next), ...)};
        #: ``tables``, given, is shared with other searches over the same models unchanged (a caller's to keep so)
        self._tables: dict[Any, dict[tuple[Hand, int], tuple[tuple[int | None, float, tuple[Hand, int]], ...]]] = (
            {} if tables is None else tables
        )
        self._values: dict[tuple[int, int, int], float] = {}

    def root(
        self,
        us: Hand,
        cands: list[tuple[Any, float]],
        seq: Hand,
        count: int,
        seen: tuple[int, ...] = (0,) * 14,
        passed: bool = False,
    ) -> dict[int, float]:
        """The value of each legal rank of ours (normalised by the candidates' weight).  ``cands``: ``(hand, w)``
        for the first model, or ``((hand, model index), w)``; ``seen``: ranks laid this deal and the starter, by
        rank; ``passed``: this player said go in the count (it is then not its turn: unused at the root).

        Raises:
            ValueError: ``us`` not sorted, or ``count`` not the sum of ``seq``'s values."""
        # the search's caches leave out what follows from these (sorted hands; the count is the sequence's)
        if list(us) != sorted(us) or count != sum(VAL[r] for r in seq):
            raise ValueError(f"root takes sorted ranks and the count of the sequence, got {us!r}, {seq!r}, {count!r}")
        cands = [(c if c and isinstance(c[0], tuple) else (c, 0), w) for c, w in cands]
        total = sum(w for _, w in cands)
        packed = _seen_int(seen)
        out = {}
        for r in sorted(set(us)):
            if count + VAL[r] > 31:
                continue
            out[r] = self._lay_ours(us, cands, seq, count, r, packed, 0, 0) / total
        return out

    def opponent_leads(self, us: Hand, cands: list[tuple[Any, float]], seen: tuple[int, ...] = (0,) * 14) -> float:
        """The value of the rest of the play from a new count the opponent leads, this player holding ``us``
        (``cands`` and ``seen`` as :meth:`root`; normalised by the candidates' weight)."""
        cands = [(c if c and isinstance(c[0], tuple) else (c, 0), w) for c, w in cands]
        return self._f(us, cands, (), 0, 1, 0, _seen_int(seen), False, 0, 0) / sum(w for _, w in cands)

    def _end_value(self, pm: int, po: int, seen: int) -> float:
        key = (pm, po, seen)
        value = self._values.get(key)
        if value is None:
            assert self.end is not None
            value = self._values[key] = self.end.value(pm, po, _seen_tuple(seen))
        return value

    def _lay_ours(self, us: Hand, cands: _Cands, seq: Hand, count: int, r: int, seen: int, pm: int, po: int) -> float:
        pm += lay_points(seq, r)
        end = self.end
        if end is not None and pm >= end.need_me:
            return sum(w for _, w in cands) * (pm - po + end.win)
        ncount = count + VAL[r]
        nseq: Hand = (*seq, r) if ncount != 31 else ()
        if ncount == 31:
            ncount = 0
        i = us.index(r)
        return self._f(us[:i] + us[i + 1 :], cands, nseq, ncount, 1, 0, seen + (1 << (3 * r)), False, pm, po)

    def _reset(self, us: Hand, cands: _Cands, count: int, last: int, seen: int, pm: int, po: int) -> float:
        if count > 0:  # the go point: the last card laid in a count that ends under 31
            if last == 0:
                pm += 1
            else:
                po += 1
            end = self.end
            if end is not None and (pm >= end.need_me or po >= end.need_opp):
                return sum(w for _, w in cands) * (pm - po + (end.win if pm >= end.need_me else -end.win))
        if not us and not cands[0][0][0]:
            total = sum(w for _, w in cands)
            return total * (pm - po if self.end is None else self._end_value(pm, po, seen))
        return self._f(us, cands, (), 0, 1 - last, last, seen, False, pm, po)

    def _f(
        self,
        us: Hand,
        cands: _Cands,
        seq: Hand,
        count: int,
        mover: int,
        last: int,
        seen: int,
        passed: bool,
        pm: int,
        po: int,
    ) -> float:
        self.nodes += 1
        if self.nodes > self.budget > 0:
            raise OverBudget
        if self.deadline is not None and not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise OverTime
        if mover == 0:
            legal = _LEGAL.get((us, count))
            if legal is None:
                legal = _legal(us, count)
            if legal:  # _lay_ours, inlined (the search's most frequent step); keep the two alike
                end = self.end
                best = 0.0
                for k, mine in enumerate(legal):
                    npm = pm + lay_points(seq, mine)
                    if end is not None and npm >= end.need_me:
                        v = sum(w for _, w in cands) * (npm - po + end.win)
                    else:
                        ncount = count + VAL[mine]
                        i = us.index(mine)
                        if ncount == 31:
                            v = self._f(
                                us[:i] + us[i + 1 :], cands, (), 0, 1, 0, seen + (1 << (3 * mine)), False, npm, po
                            )
                        else:
                            nseq = (*seq, mine)
                            v = self._f(
                                us[:i] + us[i + 1 :],
                                cands,
                                nseq,
                                ncount,
                                1,
                                0,
                                seen + (1 << (3 * mine)),
                                False,
                                npm,
                                po,
                            )
                    if k == 0 or v > best:  # max()'s rule: the first of equals
                        best = v
                return best
            room = 31 - count
            can = [(c, w) for c, w in cands if c[0] and VAL[c[0][0]] <= room]
            cant = [(c, w) for c, w in cands if not (c[0] and VAL[c[0][0]] <= room)]
            s = 0.0
            if can:  # this player says go
                s += self._f(us, can, seq, count, 1, last, seen, True, pm, po)
            if cant:
                s += self._reset(us, cant, count, last, seen, pm, po)
            return s
        n = len(us)
        key = (seq, n > 0) if self._count_only else (seq, n, seen, passed or not us)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = {}
        if len(cands) == 1:  # most nodes: one hand left (its cards' ranks are distinct branches)
            ((c, w),) = cands
            dist = table.get(c)
            if dist is None:
                dist = table[c] = self._ask(c, seq, count, seen, n, passed or not us)
            branches: Any = [(r, [(nxt, w * p)]) for r, p, nxt in dist]
        else:
            groups: dict[int | None, list[tuple[tuple[Hand, int], float]]] = {}
            for c, w in cands:
                dist = table.get(c)
                if dist is None:
                    dist = table[c] = self._ask(c, seq, count, seen, n, passed or not us)
                for r, p, nxt in dist:
                    group = groups.get(r)
                    if group is None:
                        groups[r] = [(nxt, w * p)]
                    else:
                        group.append((nxt, w * p))
            branches = groups.items()
        s = 0.0
        end = self.end
        for r, group in branches:
            if r is None:
                if us and count + VAL[us[0]] <= 31:
                    s += self._f(us, group, seq, count, 0, last, seen, passed, pm, po)
                else:
                    s += self._reset(us, group, count, last, seen, pm, po)
                continue
            npo = po + lay_points(seq, r)
            if end is not None and npo >= end.need_opp:
                s += sum(w for _, w in group) * (pm - npo - end.win)
                continue
            ncount = count + VAL[r]
            if ncount == 31:
                s += self._f(us, group, (), 0, 0, 1, seen + (1 << (3 * r)), False, pm, npo)
            else:
                s += self._f(us, group, (*seq, r), ncount, 0, 1, seen + (1 << (3 * r)), passed, pm, npo)
        return s

    def _ask(
        self, c: tuple[Hand, int], seq: Hand, count: int, seen: int, n: int, said: bool
    ) -> tuple[tuple[int | None, float, tuple[Hand, int]], ...]:
        """The model's chances for the (hand, model) ``c``, each with the (hand, model) its card leaves."""
        h, t = c
        out: list[tuple[int | None, float, tuple[Hand, int]]] = []
        for r, p in self.models[t](h, seq, count, _NO_SEEN if self._count_only else _seen_tuple(seen), n, said):
            if r is None:
                out.append((r, p, c))
            else:
                i = h.index(r)
                out.append((r, p, (h[:i] + h[i + 1 :], t)))
        return tuple(out)


class BoardEnd:
    """The end of a two-player game in the belief search (playing to the board, spec §5; the counting order of
    §2.6): the points each player still needs, and the value of the play's end -- the pegging margin plus
    ``win`` times twice the chance of winning less one, the pone's show counted first, then the dealer's hand and
    crib, then the next deal's chance from the board table (:func:`kortbord.bots.cribbage_board.after_deal_chance`).

    Args:
        target: 61 or 121.
        me, opp: the two players' points at the decision (this deal's pegging so far counted).
        i_deal: this player deals (the crib is its).
        my_show: this player's hand's show with the starter (points, exact).
        opp_laid: the ranks the opponent has laid this deal before the decision; ``seen0``: the ``seen`` counts at
            the decision and ``us0`` this player's ranks then -- at the play's end the opponent's four are its
            laid ranks, counted from them (its show by ranks: fifteens, pairs, runs; no flush or nobs).
        starter: the starter's rank.
        crib_shift: the crib's expected points for this player's throw less the table's mean crib (the crib's
            points are the table's distribution moved by it).
        win: strong's bonus for the game (:data:`kortbord.bots.cribbage_strong.WIN`).
    """

    def __init__(
        self,
        target: int,
        me: int,
        opp: int,
        i_deal: bool,
        my_show: int,
        opp_laid: Hand,
        seen0: tuple[int, ...],
        us0: Hand,
        starter: int,
        crib_shift: float,
        win: float = cribbage_strong.WIN,
    ) -> None:
        import numpy as np

        self.target, self.me, self.opp, self.i_deal = target, me, opp, i_deal
        self.need_me, self.need_opp = target - me, target - opp
        self.my_show = my_show
        self.win = win
        self._base = [seen0[r] + us0.count(r) for r in range(14)]  # at the end: seen0, our four, its since
        self._opp_laid = opp_laid
        self._starter = starter
        self._crib = cribbage_board._shift(cribbage_board.distributions()["crib"], crib_shift)
        self._crib = self._crib / self._crib.sum()
        self._np = np
        self._memo: dict[Any, float] = {}

    def opp_hand(self, seen: tuple[int, ...]) -> Hand:
        """The opponent's four at the play's end: its ranks laid before the decision and those laid since (every
        rank laid since the decision less this player's)."""
        since = [seen[r] - self._base[r] for r in range(14)]
        return tuple(sorted(self._opp_laid + tuple(r for r in range(1, 14) for _ in range(since[r]))))

    def value(self, pm: int, po: int, seen: tuple[int, ...]) -> float:
        """The play's end with ``pm`` and ``po`` pegged since the decision (neither player out)."""
        key = (pm, po, seen)
        value = self._memo.get(key)
        if value is None:
            opp_show = _rank_points(tuple(sorted(r - 1 for r in (*self.opp_hand(seen), self._starter))))
            chance = self.chance(self.me + pm, self.opp + po, opp_show)
            value = self._memo[key] = pm - po + self.win * (2.0 * chance - 1.0)
        return value

    def chance(self, me: int, opp: int, opp_show: int) -> float:
        """This player's chance of winning from ``me`` and ``opp`` points at the play's end (spec §2.6 order)."""
        t = self.target
        after = cribbage_board.after_deal_chance
        crib = self._crib
        if self.i_deal:  # the pone counts first
            opp += opp_show
            if opp >= t:
                return 0.0
            me += self.my_show
            if me >= t:
                return 1.0
            return float(sum(p * after(t, me + c, opp, False) for c, p in enumerate(crib) if p))
        me += self.my_show
        if me >= t:
            return 1.0
        opp += opp_show
        if opp >= t:
            return 0.0
        return float(sum(p * after(t, me, opp + c, True) for c, p in enumerate(crib) if p))


# -- the opponent's hand: prior and evidence ---------------------------------------------------------------------

_ALL4 = [m for m in combinations_with_replacement(range(1, 14), 4) if max(Counter(m).values()) <= 4]


def _ratios(counts: Mapping[tuple[int, ...], float], n: int) -> dict[tuple[int, ...], float]:
    """Each rank multiset's share of ``n`` keeps over its chance as four random cards, smoothed by 5% of chance."""
    table: dict[tuple[int, ...], float] = {}
    for m in _ALL4:
        c = Counter(m)
        p_rand = math.prod(math.comb(4, k) for k in c.values()) / math.comb(52, 4)
        table[m] = (counts.get(m, 0) + 0.05 * p_rand * n) / (1.05 * p_rand * n)
    return table


@cache
def keep_table(own_crib: bool, t: float = 0.0, n: int = 200_000, seed: int = 1) -> dict[tuple[int, ...], float]:
    """Likelihood ratio of each kept rank multiset: P(a spec §5 keep of six random cards keeps it) over
    P(four random cards are it), smoothed (:func:`_ratios`).

    Args:
        own_crib: the keeper deals (the crib is its own; the keep values the crib for it, else against it).
        t: the keep's soft-max temperature, points (0: the best keep alone).
        n: six-card hands drawn; seed: their generator's seed.
    Returns:
        ``{sorted four ranks (1-13): ratio}`` for every rank multiset of four cards.  Cached: the first call for an
        argument takes seconds.
    """
    crib = cribbage_strong._signed_cribs(own_crib)

    def values(six: list[int]) -> list[float]:
        ranks = tuple(c // 4 + 1 for c in six)
        hands = cribbage_strong._six_means(ranks)
        return [
            hands[k] + crib[ranks[i], ranks[j], six[i] % 4 == six[j] % 4]
            for k, (_, (i, j)) in enumerate(cribbage_strong._SPLITS)
        ]

    return keep_ratios_by(values, t, n, seed)


def keep_ratios_by(
    values: Callable[[list[int]], Sequence[float]], t: float = 0.0, n: int = 200_000, seed: int = 1
) -> dict[tuple[int, ...], float]:
    """:func:`keep_table`'s likelihood ratios for a discard judged by ``values`` (the sorted card indices of six
    random cards -> a value, points, for each keep of :data:`~kortbord.bots.cribbage_strong._SPLITS`): a soft-max at
    ``t`` points, arg-max at 0 (ties to the first), over ``n`` hands drawn with ``seed`` (a quarter of them with a
    soft-max)."""
    rng = random.Random(seed)
    deck = list(range(52))
    counts: dict[tuple[int, ...], float] = defaultdict(float)  # fractional under a soft-max
    if t > 0:
        n //= 4
    for _ in range(n):
        six = sorted(rng.sample(deck, 6))
        ranks = tuple(c // 4 + 1 for c in six)
        vs = values(six)
        if t > 0:
            top = max(vs)
            es = [math.exp((v - top) / t) for v in vs]
            z = sum(es)
            for k, e in enumerate(es):
                counts[tuple(ranks[i] for i in cribbage_strong._SPLITS[k][0])] += e / z
        else:
            best = vs.index(max(vs))
            counts[tuple(ranks[i] for i in cribbage_strong._SPLITS[best][0])] += 1
    return _ratios(counts, n)


class Posterior:
    """The opponent's remaining (hand, model) pairs and their weights at ``view``'s play decision (two players).

    Args:
        view: the searching seat's View in the play.
        models: the opponent models (:data:`Model`); the hidden state is a (hand, model) pair.
        slip: the chance (0 < slip < 1) that a laid card is any legal card rather than the model's.
        priors: each model's prior weight (None: alike).
        table: the keep table (:func:`keep_table`: a kept rank multiset's likelihood ratio), or None for none.
    Attributes:
        cands: ``[((remaining ranks, model index), weight), ...]``, heaviest first.  A hand's weight: the ways the
            unseen cards give it, times the keep table's ratio, times the model's prior, times the chance of each
            card it laid under the model mixed with any legal card at ``slip``; a hand that could have laid a card
            where it said go is out.  Empty when no hand explains the play (a model that gives a laid card no
            chance and ``slip`` 0 cannot happen: ``slip`` is over 0).
        seen: the ranks laid this deal and the starter, counts by rank (14 long).
        models: the models, as given.
        model_weights: each model's share of the weight.
    """

    def __init__(
        self,
        view: View,
        models: Sequence[Model],
        slip: float = 0.02,
        priors: tuple[float, ...] | None = None,
        table: dict[Hand, float] | None = None,
    ) -> None:
        me, opp = view.seat, 1 - view.seat
        assert view.starter is not None and view.dealer is not None
        avail = [0] + [4] * 13
        for c in (*view.hand, *view.discards, view.starter):
            avail[c.rank] -= 1
        for seat, c in view.played:
            if seat == me:
                avail[c.rank] -= 1
        fns = list(models)
        priors = priors or tuple(1.0 / len(fns) for _ in fns)
        # replay the play: the opponent's plays (cards it laid before, count's ranks, count, rank, seen, n, passed)
        plays: list[tuple[int, Hand, int, int, tuple[int, ...], int, bool]] = []
        goes: list[tuple[int, int]] = []
        seq: list[int] = []
        count = 0
        last: int | None = None
        opp_laid: list[int] = []
        seen = [0] * 14
        seen[view.starter.rank] += 1
        mine_laid = 0
        for seat, c in view.played:
            v = VAL[c.rank]
            if count == 31 or count + v > 31:
                if count != 31 and count > 0:
                    goes.append((len(opp_laid), count))  # nobody could lay: the opponent neither
                seq, count, last = [], 0, None
            elif last == seat == me and count > 0:
                goes.append((len(opp_laid), count))  # this player laid twice running: the opponent said go
            if seat == opp:
                held_mine = 4 - mine_laid
                passed = held_mine == 0 or last == opp
                plays.append((len(opp_laid), tuple(seq), count, c.rank, tuple(seen), held_mine, passed))
                opp_laid.append(c.rank)
            else:
                mine_laid += 1
            seen[c.rank] += 1
            seq.append(c.rank)
            count += v
            last = seat
        if opp in view.passed:
            goes.append((len(opp_laid), view.count))
        elif view.count == 0 and count not in (0, 31):
            goes.append((len(opp_laid), count))  # the count restarted after the last card: nobody could lay
        self.seen = tuple(seen)
        laid = Counter(opp_laid)
        out: dict[tuple[Hand, int], float] = {}
        for m in _ALL4:
            ranks = Counter(m)
            if any(ranks[r] < k for r, k in laid.items()):
                continue
            w0: float = math.prod(math.comb(avail[r], k) for r, k in ranks.items())
            if not w0:
                continue
            if table is not None:
                w0 *= table[m]
            befores = []
            held = list(m)
            for r in opp_laid:
                befores.append(tuple(held))
                held.remove(r)
            rest = tuple(held)
            if any(any(cnt + VAL[x] <= 31 for x in (befores[n] if n < len(befores) else rest)) for n, cnt in goes):
                continue
            for t, fn in enumerate(fns):
                w = w0 * priors[t]
                for n_before, sq, cnt, r, sn, n_mine, passed in plays:
                    before = befores[n_before]
                    legal = [x for x in before if cnt + VAL[x] <= 31]
                    if len(set(legal)) <= 1:
                        continue
                    dist = dict(fn(before, sq, cnt, sn, n_mine, passed))
                    w *= (1.0 - slip) * dist.get(r, 0.0) + slip * legal.count(r) / len(legal)
                if w > 0:
                    out[rest, t] = out.get((rest, t), 0.0) + w
        self.cands = sorted(out.items(), key=lambda kv: -kv[1])
        self.models = fns
        #: each model's share of the weight
        total = sum(out.values()) or 1.0
        self.model_weights = tuple(sum(w for (_, t), w in out.items() if t == i) / total for i in range(len(fns)))


def _board_end(view: View, us: Hand, seen: tuple[int, ...]) -> BoardEnd:
    """The :class:`BoardEnd` of a two-player play decision: the scores now, this player's four (its hand and its
    cards laid) counted with the starter, the opponent's ranks laid, this player's throw's crib shift."""
    assert view.starter is not None and view.dealer is not None
    me = view.seat
    mine = [*view.hand, *(c for s, c in view.played if s == me)]
    i_deal = view.dealer == me
    crib = cribbage_board.distributions()["crib"]
    mean_crib = float(crib @ range(len(crib)))
    return BoardEnd(
        view.rules.target,
        view.side_scores[me],
        view.side_scores[1 - me],
        i_deal,
        show_total(mine, view.starter),
        tuple(c.rank for s, c in view.played if s != me),
        seen,
        us,
        view.starter.rank,
        # a position set up without its discard (a puzzle) takes the table's mean crib
        cribbage_strong.crib_value(view.discards, i_deal) - mean_crib if len(view.discards) == 2 else 0.0,
    )


#: one of the opponent's play decisions seen whole: (its ranks before the card, the count's ranks, the count, the
#: rank it laid, the other player still held a card)
Decision = tuple[Hand, Hand, int, int, bool]
#: the features' names, in :func:`features`' order (the first eight a card laid on a count, the rest a lead)
FEATURES = (
    "points",
    "value",
    "leaves 5 or 21",
    "leaves 10",
    "holds the answer",
    "leaves 15 in reach",
    "leaves 31 in reach",
    "run open",
    "lead value",
    "lead pair",
    "lead low",
    "lead 5",
    "lead fifteen",
    "lead gap 2",
)


def features(hand: Hand, seq: Hand, count: int, r: int, others_hold: bool) -> tuple[float, ...]:
    """The features of laying a card of rank ``r`` from the ranks ``hand`` on the count's ranks ``seq`` (summing to
    ``count``), each of which a sensible player's rule may weigh: on a count, the points it scores at once (spec §2.4),
    its value (tenths), whether it leaves 5 or 21 (a fifteen or 31 for a ten-card) or 10, whether a card still held
    would answer the count it leaves with 15 or 31, whether the count it leaves is 5-14 or 21-30 (a card can make 15
    or 31 on it), whether it lies one or two ranks from the count's last card (a run offered); leading a new count (the
    other player holding a card), its value, whether it is a card of a pair, under 5, a 5, makes 15 with another card
    held, or lies two ranks from one (8 with 6, 7 with 9).  All zero on the side not in play."""
    rest = list(hand)
    rest.remove(r)
    if seq or not others_hold:
        after = count + VAL[r]
        answer = any(after + VAL[x] in (15, 31) for x in rest)
        return (
            float(lay_points(seq, r)),
            VAL[r] / 10,
            float(after in (5, 21)),
            float(after == 10),
            float(answer),
            float(5 <= after <= 14),
            float(21 <= after <= 30),
            float(bool(seq) and 1 <= abs(r - seq[-1]) <= 2),
            0,
            0,
            0,
            0,
            0,
            0,
        )
    return (
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        VAL[r] / 10,
        float(r in rest),
        float(r < 5),
        float(r == 5),
        float(any(VAL[x] + VAL[r] == 15 for x in rest)),
        float(r + 2 in rest or r - 2 in rest),
    )


#: the features with ``risk`` (:class:`LearntModel`): the level's and the points a card offers (:func:`count_risk`)
FEATURES_RISK = (*FEATURES, "risk offered")


def _p_holds(unseen: int, k: int, n: int) -> float:
    """The chance that ``n`` cards drawn from ``unseen`` hold one of ``k`` (hypergeometric)."""
    if k <= 0 or n <= 0 or unseen <= 0:
        return 0.0
    return 1.0 - math.comb(unseen - k, n) / math.comb(unseen, n)


@lru_cache(maxsize=1 << 16)
def count_risk(hand: Hand, seq: Hand, count: int, r: int, n: int) -> float:
    """The points laying rank ``r`` from the ranks ``hand`` on the count's ranks ``seq`` (summing to ``count``) offers
    a next player holding ``n`` cards: a pair 2, a fifteen or 31 2, a run of three 3, each times the hypergeometric
    chance that the player holds an answer, from the cards the layer has not seen -- greedy's judgement of a card
    (:func:`kortbord.bots.cribbage_simple.judge_plays`, spec §2.4's points) with only its hand and the count's cards
    seen: the earlier counts' cards and the starter are unknown here (a model reading the count only), so they stay
    among the cards the answer may come from, and a next player who has said go in this count is taken to hold
    ``n`` cards all the same (greedy offers such a player nothing).  0 with ``n`` 0 or a 31 (the count starts
    again)."""
    unseen = [4] * 14
    for x in (*hand, *seq):
        unseen[x] -= 1
    u = 52 - len(hand) - len(seq)
    now = count + VAL[r]
    if now == 31 or n <= 0:
        return 0.0
    risk = 2.0 * _p_holds(u, unseen[r], n)
    for total in (15, 31):
        need = total - now
        if 1 <= need <= 9:
            risk += 2.0 * _p_holds(u, unseen[need], n)
        elif need == 10:
            risk += 2.0 * _p_holds(u, sum(unseen[10:]), n)
    if seq:
        lo, hi = sorted((seq[-1], r))
        ends = {lo - 1, hi + 1} if hi - lo == 1 else {lo + 1} if hi - lo == 2 else set()
        risk += 3.0 * _p_holds(u, sum(unseen[e] for e in ends if 1 <= e <= 13 and now + min(e, 10) <= 31), n)
    return risk


def decisions_seen(played: tuple[tuple[int, Card], ...], me: int) -> list[Decision]:
    """The opponent's play decisions of a deal whose four cards of the opponent are all in ``played`` (seat, card),
    replayed: its hand before each card is the cards it laid from then on.  [] when fewer than four are there."""
    opp = 1 - me
    theirs = [c.rank for s, c in played if s == opp]
    if len(theirs) != 4:
        return []
    remaining = list(theirs)
    seq: list[int] = []
    count = mine = 0
    out: list[Decision] = []
    for seat, c in played:
        v = VAL[c.rank]
        if count == 31 or count + v > 31:
            seq, count = [], 0
        if seat == opp:
            out.append((tuple(sorted(remaining)), tuple(seq), count, c.rank, mine < 4))
            remaining.remove(c.rank)
        else:
            mine += 1
        seq.append(c.rank)
        count += v
    return out


@lru_cache(maxsize=1 << 13)  # about 1.5 KB an entry
def _decision_row(
    decision: Decision, risk: bool = False
) -> tuple[tuple[tuple[float, ...], ...], tuple[int, ...], int] | None:
    """One decision as the fit reads it: the features of each legal rank (with ``risk``, and :func:`count_risk`'s
    points offered, the other player taken to hold as many cards as the layer), the cards held of each, the rank
    laid's place; None with fewer than two legal ranks (no evidence)."""
    hand, seq, count, r, others = decision
    legal = sorted({x for x in hand if count + VAL[x] <= 31})
    if len(legal) < 2:
        return None
    n = len(hand) if others else 0
    return (
        tuple(
            (*features(hand, seq, count, y, others), count_risk(hand, seq, count, y, n))
            if risk
            else features(hand, seq, count, y, others)
            for y in legal
        ),
        tuple(hand.count(y) for y in legal),
        legal.index(r),
    )


class LearntModel:
    """An opponent model learnt from its plays: the chance of each legal card a soft-max of ``weights`` times
    :func:`features` (equal ranks alike), the weights fitted to the decisions seen by maximum likelihood with a
    Gaussian prior (sd ``sd``, centred on taking the points a card scores: weight 1 on ``points``) by Newton's method;
    cards under ``prune`` of the chance are dropped (the search's branches); ``prior``: the prior's centre in place
    of that one (a weight per feature; the expert's: :func:`play_prior`).  With ``risk`` (an experiment, off in the
    level) it weighs :data:`FEATURES_RISK`: also the points a card offers the next player (:func:`count_risk`, the
    next player taken to hold as many cards as the layer, so the chances still read the count only).  A :data:`Model`.

    Raises:
        ValueError: ``sd`` not a number from 0.01 to 100 (outside it the fit is singular or overflows), ``prune``
            outside [0, 1), a ``prior`` without one finite weight per feature.
    """

    def __init__(
        self, sd: float = 3.0, prune: float = 0.05, prior: Sequence[float] | None = None, risk: bool = False
    ) -> None:
        if isinstance(sd, bool) or not isinstance(sd, int | float) or not 0.01 <= sd <= 100.0:
            raise ValueError(f"sd must be over 0, a number from 0.01 to 100, got {sd!r}")
        if isinstance(prune, bool) or not isinstance(prune, int | float) or not 0.0 <= prune < 1.0:
            raise ValueError(f"prune must be from 0 to under 1, got {prune!r}")
        names = FEATURES_RISK if risk else FEATURES
        if prior is not None and len(prior) != len(names):
            raise ValueError(f"prior must have a weight for each of the {len(names)} features, got {len(prior)}")
        if prior is not None and not all(isinstance(w, int | float) and math.isfinite(w) for w in prior):
            raise ValueError("prior's weights must be finite numbers")
        import numpy as np

        self.np = np
        self.prune = prune
        self.sd = sd
        #: the points a card offers weighed too (:data:`FEATURES_RISK`; an experiment, off in the level)
        self.risk = bool(risk)
        if prior is None:
            self.prior = np.zeros(len(names))
            self.prior[0] = 1.0
        else:
            self.prior = np.asarray(prior, dtype=np.float64)
        self.weights = self.prior.copy()
        self._w = [float(x) for x in self.weights]
        self._memo: dict[Any, Any] = {}
        self._part_memo: dict[tuple[Hand, int], tuple[float, int, tuple[float, ...]]] = {}
        #: how many times the weights were fitted (a search's tables hold for one version)
        self.version = 0

    #: the chances depend on the hand, the count's ranks and whether the searcher holds a card only
    #: (:class:`BeliefSearch` asks once for each)
    reads_count_only = True

    def fit(self, decisions: list[Decision]) -> None:
        """Refit the weights to ``decisions`` (those with one legal rank are no evidence); the decisions' features
        are reckoned once each (memoised) and the fit is over arrays (at most four legal ranks a decision)."""
        np = self.np
        k = len(self.prior)
        rows = [row for d in decisions if (row := _decision_row(d, self.risk)) is not None]
        w = self.prior.copy()
        if rows:
            x = np.zeros((len(rows), 4, k))
            mult = np.full((len(rows), 4), -np.inf)  # log of the cards of each rank; -inf: no such card
            chosen = np.zeros(len(rows), dtype=np.int64)
            for n, (feats, counts, j) in enumerate(rows):
                x[n, : len(feats)] = feats
                mult[n, : len(counts)] = np.log(counts)
                chosen[n] = j
            picked = x[np.arange(len(rows)), chosen].sum(axis=0)
            for _ in range(25):
                z = x @ w + mult
                p = np.exp(z - z.max(axis=1, keepdims=True))
                p /= p.sum(axis=1, keepdims=True)
                mean = np.einsum("nc,ncf->nf", p, x)
                grad = picked - mean.sum(axis=0) - (w - self.prior) / self.sd**2
                hess = -(np.einsum("nc,ncf,ncg->fg", p, x, x) - mean.T @ mean) - np.eye(k) / self.sd**2
                step = np.linalg.solve(hess, grad)
                w = w - step
                if np.abs(step).max() < 1e-6:
                    break
        self.weights = w
        self._w = [float(x) for x in w]
        self._memo = {}
        self._part_memo = {}
        self.version += 1

    def _parts(self, seq: Hand, count: int, r: int) -> tuple[float, int, tuple[float, ...]]:
        """The hand-free part of laying ``r`` on a count (memoised until the next fit): the sum up to the ``leaves
        10`` feature, the count it leaves, and the weights added after ``holds the answer``, in :meth:`_score`'s
        order (so the sum is the same to the last bit)."""
        key = (seq, r)
        parts = self._part_memo.get(key)
        if parts is None:
            w = self._w
            after = count + VAL[r]
            z = w[0] * lay_points(seq, r) + w[1] * VAL[r] / 10
            if after in (5, 21):
                z += w[2]
            elif after == 10:
                z += w[3]
            adds = []
            if 5 <= after <= 14:
                adds.append(w[5])
            elif 21 <= after <= 30:
                adds.append(w[6])
            if seq and 1 <= abs(r - seq[-1]) <= 2:
                adds.append(w[7])
            parts = self._part_memo[key] = (z, after, tuple(adds))
        return parts

    def _score(self, hand: Hand, seq: Hand, count: int, r: int, others_hold: bool) -> float:
        """``weights`` times :func:`features`, the zero features skipped (the search calls it on every hand)."""
        if seq or not others_hold:
            z, after, adds = self._parts(seq, count, r)
            w4 = self._w[4]
            if w4:
                i = hand.index(r)
                if any(after + VAL[x] in (15, 31) for x in hand[:i] + hand[i + 1 :]):
                    z += w4
            for a in adds:
                z += a
        else:
            w = self._w
            z = sum(a * b for a, b in zip(features(hand, seq, count, r, True)[8:], w[8:14], strict=True))
        if self.risk:
            z += self._w[14] * count_risk(hand, seq, count, r, len(hand) if others_hold else 0)
        return z

    def __call__(self, hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> Any:
        """The chance of each legal rank for the opponent holding ``hand`` on the count's ranks ``seq`` (summing to
        ``count``), ``n`` cards held by the searcher: ``((rank, chance), ...)`` summing to 1, ranks under ``prune`` of
        the chance dropped; ``((None, 1.0),)`` (a go) when no card fits.  ``seen`` and ``passed`` are unused."""
        key = (hand, seq, n > 0)
        dist = self._memo.get(key)
        if dist is None:
            legal = _legal(hand, count)  # hands are sorted: the ranks that fit, each once, in order
            if not legal:
                dist = ((None, 1.0),)
            else:
                z = [self._score(hand, seq, count, y, n > 0) for y in legal]
                top = max(z)
                e = [hand.count(y) * math.exp(v - top) for y, v in zip(legal, z, strict=True)]
                total = sum(e)
                kept = [(y, v) for y, v in zip(legal, e, strict=True) if v >= self.prune * total]
                total = sum(v for _, v in kept)
                dist = tuple((y, v / total) for y, v in kept)
            self._memo[key] = dist
        return dist


class BeliefBot(cribbage_strong.StrongBot):
    """Strong's discard and shows, and the play by :class:`BeliefSearch` over :class:`Posterior` (two players, not
    Lowball; else strong's play).  The opponent models are :meth:`_play_models`' (none here: a subclass gives
    them, :class:`ExpertBot` its learnt ones, one for the play and one for the end game); the keep table :meth:`_keep_table`'s.

    Args:
        rules: as :class:`~kortbord.bots.cribbage_strong.StrongBot`.
        kt: the keep table's temperature (points; 0: arg-max), :func:`keep_table`.
        slip: the chance (0 < slip < 1) that a laid card is any legal card rather than the model's.
        hands: the work bound of a play decision: the search is given this many hands drawn from the posterior by
            weight (with the bot's rng; 0: every hand, unbounded), and
        budget: the most search nodes a decision may visit (0: no bound); a search that reaches it is done again
            on half as many draws, down to one hand (no bound then) -- so a decision's work, and so its choice,
            does not depend on the machine's speed or load.
        near: the play is strong's, to the board, once a player is within this many points of the target (two
            players; from 0 to :data:`~kortbord.bots.cribbage_board.NEAR_END`, the default: strong's own end game);
            further off the belief search plays for the points (to the board from ``wide``, when given).
        endgame: there too the belief search plays, to the board (its leaves valued as strong's: :class:`BoardEnd`,
            with strong's own bonus :data:`~kortbord.bots.cribbage_strong.WIN`) in place of strong's search.
        ehands, ebudget: ``hands`` and ``budget`` of those end-game decisions (None: ``hands``, ``budget``).
        wide: an experiment (default :data:`~kortbord.bots.cribbage_board.NEAR_END`, the same as ``near``: off):
            from a player within this many points of the target (45 to the target) the discard is to the board
            (strong's end-game discard) and the belief search's leaves are valued to the board (:class:`BoardEnd`)
            with the play's models and work -- the end game's own (``ehands``, its model) only within ``near``.
            Needs ``endgame``.
        options: strong's (its discard; its play where this bot does not search).
    Raises:
        ValueError: a slip outside (0, 1), a negative temperature, a negative ``hands`` or ``budget``, ``near`` not a
            whole number from 0 to 45, ``endgame`` not 0 or 1, a negative ``ehands`` or ``ebudget`` or either
            without ``endgame``, ``wide`` not a whole number from 45 to 121 or over 45 without ``endgame``; strong's
            (:class:`~kortbord.bots.cribbage_strong.StrongBot`).
    """

    def __init__(
        self,
        rules: Any = None,
        *,
        kt: float = 0.0,
        slip: float = 0.02,
        hands: int = 0,
        budget: int = 0,
        near: int = cribbage_board.NEAR_END,
        endgame: bool = False,
        ehands: int | None = None,
        ebudget: int | None = None,
        wide: int = cribbage_board.NEAR_END,
        **options: Any,
    ) -> None:
        if endgame not in (0, 1):  # True and False among them
            raise ValueError(f"endgame must be 0 or 1, got {endgame!r}")
        for key, value in (("ehands", ehands), ("ebudget", ebudget)):
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{key} must be a whole number, 0 or more, got {value!r}")
            if value is not None and not endgame:
                raise ValueError(f"{key} is the end game's (endgame=1): got {key}={value!r} without it")
        if type(near) is not int or not 0 <= near <= cribbage_board.NEAR_END:
            raise ValueError(f"near must be a whole number from 0 to {cribbage_board.NEAR_END} points, got {near!r}")
        if type(wide) is not int or not cribbage_board.NEAR_END <= wide <= 121:
            raise ValueError(f"wide must be a whole number from {cribbage_board.NEAR_END} to 121 points, got {wide!r}")
        if wide != cribbage_board.NEAR_END and not endgame:
            raise ValueError(f"wide is the end game's (endgame=1): got wide={wide!r} without it")
        if hands < 0:
            raise ValueError(f"hands must be 0 (all) or more, got {hands!r}")
        if budget < 0:
            raise ValueError(f"budget must be 0 (none) or more nodes, got {budget!r}")
        if not 0.0 < slip < 1.0:
            raise ValueError(f"slip must be between 0 and 1, got {slip!r}")
        if not kt >= 0:
            raise ValueError(f"kt must be 0 or more, got {kt!r}")
        super().__init__(rules, **options)
        self.kt = kt
        self.slip = slip
        #: per searched decision: nodes, CPU seconds (posterior and search)
        self.stats: list[tuple[int, float]] = []
        self.hands = hands
        self.budget = budget
        self.near = near
        self.wide = wide
        self.discard_near = wide
        self.endgame = bool(endgame)
        self.ehands = hands if ehands is None else ehands
        self.ebudget = budget if ebudget is None else ebudget
        #: the last decision's search: the draws it was given (0: every hand) and the nodes it visited
        self.last_search: tuple[int, int] = (0, 0)
        #: the searches' model tables (:class:`BeliefSearch`'s ``tables``), for the models and deal of the key
        self._tables_key: tuple[Any, ...] = ()
        self._tables: dict[Any, Any] = {}

    def _board_play(self, view: View) -> bool:
        """Whether the play is strong's, to the board (spec §5): a player within ``near`` points of the target
        (strong's own discard and play near the end: within :data:`~kortbord.bots.cribbage_board.NEAR_END`)."""
        rules = view.rules
        return self.board and cribbage_strong._board_applies(view) and max(view.side_scores) >= rules.target - self.near

    def _play_models(self, end_game: bool = False) -> tuple[Model, ...]:
        """The opponent models of the play (:data:`Model` callables), ``end_game``: for a decision played to the
        board; a subclass gives them."""
        raise NotImplementedError

    def _keep_table(self, opp_deals: bool) -> dict[Hand, float] | None:
        """The opponent's keep table (``opp_deals``: the crib is its own): spec §5's keep at ``kt``."""
        return keep_table(opp_deals, self.kt)

    def play_values(self, view: View, legal_moves: Any, rng: random.Random, *args: Any, **kw: Any) -> list[float]:
        """The belief search's value of each legal move (pegging points, own minus the other's; near the end to
        the board); strong's :meth:`~kortbord.bots.cribbage_strong.StrongBot.play_values` where this bot does not
        search, or when no hand the opponent could hold explains its play.  Counts the decision in ``decisions``
        and its work in ``last_stats`` (``deals``: the hands searched, ``nodes``; ``capped``: strong's
        ``time_budget_ms`` cut the search short -- one hand drawn from the posterior was searched in its place --
        also counted in ``capped``)."""
        board = self._board_play(view)
        if view.rules.players != 2 or view.rules.lowball or (board and not self.endgame):
            return super().play_values(view, legal_moves, rng, *args, **kw)
        t0 = time.process_time()
        cap = self.time_budget_ms  # the caller's cap counts the posterior too
        deadline = None if cap is None else time.perf_counter() + cap / 1000.0
        opp_deals = view.dealer != view.seat
        post = Posterior(view, self._play_models(board), self.slip, table=self._keep_table(opp_deals))
        if not post.cands:
            return super().play_values(view, legal_moves, rng, *args, **kw)
        us = tuple(sorted(c.rank for c in view.hand))
        seq = tuple(c.rank for c in view.sequence)
        # the models' chances are kept from search to search while the models stay as they are (this deal)
        key = (view.deal_number, *post.models, *(getattr(m, "version", None) for m in post.models))
        if key != self._tables_key:
            self._tables_key, self._tables = key, {}
        tables = self._tables
        k, budget, nodes = (self.ehands, self.ebudget, 0) if board else (self.hands, self.budget, 0)
        to_board = board or (
            self.wide > cribbage_board.NEAR_END and self.board and cribbage_strong._board_applies(view, self.wide)
        )
        capped = False
        while True:  # the work bound: k draws of the posterior by weight; over the node budget, half as many
            cands = post.cands
            if k and len(cands) > k:
                drawn = Counter(rng.choices(range(len(cands)), [w for _, w in cands], k=k))
                cands = [(cands[i][0], float(n)) for i, n in sorted(drawn.items())]
            end = _board_end(view, us, post.seen) if to_board else None
            search = BeliefSearch(post.models, budget if k != 1 else 0, end, tables, None if capped else deadline)
            try:
                values = search.root(us, cands, seq, view.count, post.seen)
                break
            except OverBudget:
                nodes += search.nodes
                k = max(1, min(k or len(post.cands), len(post.cands)) // 2)
            except OverTime:  # the caller's cap bit: one hand drawn, searched to the end (a few hundred nodes)
                nodes += search.nodes
                capped, k = True, 1
        self.stats.append((nodes + search.nodes, time.process_time() - t0))
        self.last_search = (k, search.nodes)
        self.decisions += 1
        self.capped += capped
        self.last_stats = {"deals": len(cands), "nodes": nodes + search.nodes, "capped": capped}
        return [values[m.card.rank] if isinstance(m, Play) else 0.0 for m in legal_moves]


@cache
def play_prior() -> tuple[float, ...]:
    """The expert's prior of an opponent's pegging (``kortbord/bots/data/play_prior.json``, made by
    ``scripts/make_play_prior.py``): :class:`LearntModel`'s weights fitted to kortbord's strong level playing itself,
    one per feature of :data:`FEATURES`.

    Raises:
        ValueError: the file's features are not :data:`FEATURES` (a table made for another model).
    """
    text = resources.files("kortbord.bots").joinpath("data/play_prior.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"play_prior.json was made for the features {data['features']}, not {list(FEATURES)}")
    return tuple(float(w) for w in data["weights"])


class PlayReader:
    """A mixin for a :class:`BeliefBot`: the opponent's play rule learnt, not told -- a :class:`LearntModel`
    refitted to the opponent's play decisions seen whole in the deals before (its four cards all laid), two players
    (with ``esd``, a second one refitted to the same decisions for the end game).

    Where the driver tells it the table's public events (:meth:`observe`, :class:`kortbord.bots.base.Observer`) it
    reads every deal whole at the deal's end; elsewhere only the deals whose cards were all laid while it still had
    a decision (its views show them).  The model at a decision depends only on the deals completed before it, in
    order, whether the events came one step at a time or all at once (a driver that rebuilds the bot from a game's
    record gives it the same model).

    Args:
        sd: the fit's Gaussian prior's sd (:class:`LearntModel`).
        prune: the model's pruned chance (:class:`LearntModel`).
        memory: the list the decisions seen are kept in (None: the bot's own, one game); a bench passes one list to
            every bot of a session, whose new game then starts on what was learnt.  A refit reads its last 3,000.
        prior: the model's prior centre (:class:`LearntModel`; None: the card that scores, weight 1).
        esd: the end game's own model (the decisions played to the board), refitted to the same decisions at this
            sd (None: the one model everywhere).
        risk: the models weigh the points a card offers too (:class:`LearntModel`; an experiment, off in the level;
            ``prior`` then has a weight for each of :data:`FEATURES_RISK`).
        options: the :class:`BeliefBot`'s.
    Raises:
        ValueError: ``sd`` or ``esd`` not over 0, ``prune`` outside [0, 1); the :class:`BeliefBot`'s.
    """

    def __init__(
        self,
        rules: Any = None,
        *,
        sd: float = 3.0,
        prune: float = 0.05,
        memory: list[Decision] | None = None,
        prior: Sequence[float] | None = None,
        esd: float | None = None,
        risk: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(rules, **options)  # type: ignore[call-arg]
        self.model = LearntModel(sd, prune, prior, risk)
        #: the end game's own model (``esd``; None: :attr:`model` there too)
        self.emodel = None if esd is None else LearntModel(esd, prune, prior, risk)
        self._decisions: list[Decision] = [] if memory is None else memory
        if self._decisions:  # a new game of the session starts on what was learnt before it
            self._refit()
        self._deal: Any = None
        self._played: tuple[tuple[int, Card], ...] = ()
        self._seat: int | None = None
        #: the table's events are given (``observe``): the deals are read from them, not from the views
        self._watching = False
        self._laid: list[tuple[int, Card]] = []
        #: deals complete before this bot knew its seat (events told before its first decision)
        self._pending: list[tuple[tuple[int, Card], ...]] = []

    def _harvest(self, played: tuple[tuple[int, Card], ...], seat: int) -> None:
        got = decisions_seen(played, seat)
        if got:
            self._decisions.extend(got)
            self._refit()

    def _refit(self) -> None:
        """The models refitted to the decisions seen (the last 3,000)."""
        for model in (self.model, self.emodel):
            if model is not None:
                model.fit(self._decisions[-3000:])

    def _deal_done(self, played: tuple[tuple[int, Card], ...]) -> None:
        """One deal's cards laid, in order (two players): learnt from at once if this bot's seat is known, else at
        its next decision."""
        if self._seat is None:
            self._pending.append(played)
        else:
            self._harvest(played, self._seat)

    def observe(self, events: Sequence[Any]) -> None:
        """The table's public events (:class:`kortbord.bots.base.Observer`; ``Event.kind``, ``Event.data``): each
        deal's cards laid (``play``), read whole at the deal's end (the next ``deal``, or ``game_over``).

        Raises:
            KeyError, ValueError, InvalidCardError: a ``play`` event without a ``seat`` and a ``card`` in notation.
        """
        self._watching = True
        for event in events:
            if event.kind == "play":
                self._laid.append((int(event["seat"]), Card.parse(str(event["card"]))))
            elif event.kind in ("deal", "game_over"):
                if self._laid:
                    self._deal_done(tuple(self._laid))
                self._laid = []

    def _read_view(self, view: View) -> None:
        """This bot's seat, the deals told before it knew it, and -- where no driver tells it the events -- the
        deals its views showed whole."""
        if view.rules.players != 2:
            self._pending = []
            return
        self._seat = view.seat
        for played in self._pending:
            self._harvest(played, view.seat)
        self._pending = []
        if self._watching:
            return
        deal = (view.deal_number, view.dealer)
        if deal != self._deal:
            if self._played:
                self._harvest(self._played, view.seat)
            self._deal, self._played = deal, ()
        if view.phase == "play":
            self._played = view.played

    def choose(self, view: View, legal_moves: Any, rng: random.Random) -> Any:
        """:meth:`BeliefBot.choose` with the model learnt from every deal complete before this decision."""
        self._read_view(view)
        return super().choose(view, legal_moves, rng)  # type: ignore[misc]

    def _play_models(self, end_game: bool = False) -> tuple[Model, ...]:
        return (self.emodel,) if end_game and self.emodel is not None else (self.model,)


class ExpertBot(PlayReader, BeliefBot):
    """The Cribbage ``expert`` level (:mod:`kortbord.bots.registry`): a :class:`BeliefBot` whose opponent model is
    learnt within the game (:class:`PlayReader`) from a prior fitted to strong's own play (:func:`play_prior`, held
    at sd :data:`LEVEL_SD`; in the end game a second model of the same decisions at :data:`LEVEL_END_SD`), with the
    end game played to the board by the same search.

    Args:
        rules: as :class:`~kortbord.bots.cribbage_strong.StrongBot` (None: the rules the view carries).
        hands: the hands drawn from the posterior for a play decision (default :data:`LEVEL_HANDS`; twice as many
            near the end of the game), 1 or more.
        budget: the most search nodes of a play decision (default :data:`LEVEL_BUDGET`; twice near the end), 1 or
            more.
        iterations, nodes: strong's work where strong plays (three or four players, Lowball; None: strong's).
        board: play the discard and the end to the board (two players; default on).
        time_budget_ms: an optional wall-clock cap on a play decision, milliseconds (None: none, the level).  Not
            the level's strength: a cap a caller under load may add (issue #14 item 1).  When it bites, the search
            is cut short and one hand drawn from the posterior is searched instead (a few milliseconds more: the
            decision can overrun the cap by that); reported in ``last_stats["capped"]`` and ``capped``.
    Returns decisions that depend only on the view, the events told and the rng (never the machine's load) when no
    cap is given.
    Raises:
        ValueError: ``hands`` or ``budget`` not a whole number of 1 or more; strong's.
    """

    def __init__(
        self,
        rules: Any = None,
        *,
        hands: int = LEVEL_HANDS,
        budget: int = LEVEL_BUDGET,
        iterations: int | None = None,
        nodes: int | None = None,
        board: bool = True,
        time_budget_ms: float | None = None,
    ) -> None:
        for key, value in (("hands", hands), ("budget", budget)):
            if type(value) is not int or value < 1:
                raise ValueError(f"{key} must be a whole number of 1 or more, got {value!r}")
        super().__init__(
            rules,
            kt=LEVEL_KT,
            hands=hands,
            budget=budget,
            endgame=True,
            ehands=2 * hands,
            ebudget=2 * budget,
            iterations=iterations,
            nodes=nodes,
            board=board,
            time_budget_ms=time_budget_ms,
            prior=play_prior(),
            sd=LEVEL_SD,
            esd=LEVEL_END_SD,
        )
        keep_table(True, LEVEL_KT), keep_table(False, LEVEL_KT)  # made once (seconds), before any decision
