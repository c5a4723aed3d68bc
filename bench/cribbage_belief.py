"""Exact belief search of the pegging against a modelled opponent (issue #14 item 2: the ceiling measurement).

``bench/cribbage_outside.py --bot belief[:option=value...]`` plays BSD ``cribbage(6)`` with :class:`BeliefBot`:
strong's discard and shows, and a play that knows how the program lays its cards.

* **The opponent's hand** is a posterior over the rank multisets it may hold (suits never score in the play, spec
  §2.4): each weighted by the ways the unseen cards give it, by how likely a sensible discard keeps it (a keep
  table: spec §5's keep of six random cards, arg-max or a soft-max; or, ``keep=bsd``, the program's own discard,
  :func:`bsd_keeps`; ``keep=hoyle`` CribbageSim's; ``keep=greedy`` kortbord's greedy's, told, an experiment:
  :func:`greedy_keep_table`), and by the chance of every card it laid under an opponent model (a ``slip`` of any legal
  card); a hand that could have laid a card where it said go is out (:class:`Posterior`).
* **The opponent models** (:data:`MODELS`): ``book``, the program's published play rule (:func:`rule_rank`, BSD
  ``crib.c``/``support.c``, checked against every card the program lays in ``tests/bots/test_bsd_program_rule.py``);
  ``hoyle``, CribbageSim 1.0.2's Hoyle-based rule (:func:`hoyle_model`, checked against the program's own choice in
  ``tests/bots/test_hoyle_program_rule.py``; its discard ``keep=hoyle``, :func:`hoyle_keep_table`); ``greedy``,
  kortbord's greedy judgement (:func:`kortbord.bots.cribbage_simple.judge_plays`); ``any``, any legal card alike.
  Several models make the hidden state (hand, model), weighted by the plays.
* **A model learnt, not told** (``learn=game`` or ``learn=session``, :class:`LearningBot`): a soft-max over a few
  features any player's rule may weigh (:func:`features`), fitted at each deal to the opponent's decisions seen whole
  in the deals before (:func:`decisions_seen`, :class:`LearntModel`) -- the general form of reading a player.  Told
  the table's events (``observe``, :class:`kortbord.bots.base.Observer`: the arena tells them), it reads every deal.
* **The opponent's discard learnt** (``learnkeep=1``, :class:`LearntKeep`): with two players its whole six are
  public at the crib's show (the four it laid and the crib less this player's two), so its keeps are read there and
  a soft-max over two ways of counting a keep (spec §5's mean and crib table; the points certain without a
  starter) is fitted to them, its keep table replacing spec §5's.
* **The work bound** (``hands=K:budget=N``): the search is given K hands drawn from the posterior and visits at most
  N nodes (else again on half the draws): a decision's work fixed, as a level's must be (issue #14 items 1 and 6).
* **The search** (:class:`BeliefSearch`) is an expectimax over the public history to the end of the play: at this
  player's turns one card for every hand the opponent may hold (its choice depends on what it has seen, never on
  the hidden hand: no strategy fusion), at the opponent's the (hand, model) pairs split by the card laid.  Values:
  own pegging points minus the other's.  Near the end of the game (the board decides: a player within ``near``
  points of the target, default strong's 45) and off two players the bot plays as strong -- or, with ``endgame=1``,
  the belief search plays the end game too, to the board: its leaves valued as strong's (:class:`BoardEnd`: a
  player who pegs out wins there; the pone's show, the dealer's hand and crib in that order, then the board
  table's chance).
* **The discard** is strong's; with ``ptable=w`` the keeps within ``pmargin`` points of strong's best are valued
  by their show and crib value plus w times a table of the play's value of the kept four (by the same search against
  the expert's priors, ``scripts/make_play_table.py``); with ``discard=M`` the keeps within M points of strong's best are valued by their
  show and crib value plus the whole play's value against hands drawn from the keep prior
  (:meth:`BeliefBot.choose`).  ``python bench/cribbage_belief.py`` estimates what that is worth in the model's own
  values (:func:`discard_gain`).

A measurement, not a player: with ``book`` or ``hoyle`` alone it is what a perfectly learnt model of the program is
worth; with ``learn`` what a model learnt from the plays gets of it (its search is not bounded to a level's time).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from kortbord.bots import cribbage_simple, cribbage_strong
from kortbord.bots.cribbage_expert import (  # the level's code; this bench adds told models and other keeps
    _ALL4,
    FEATURES_RISK,
    VAL,
    BeliefSearch,
    BoardEnd,
    Decision,
    Hand,
    LearntModel,
    Model,
    OverBudget,
    PlayReader,
    _board_end,
    _cards,
    _ratios,
    decisions_seen,
    features,
    keep_ratios_by,
    keep_table,
    lay_points,
    play_prior,
)
from kortbord.bots.cribbage_expert import BeliefBot as _BeliefPlay
from kortbord.bots.cribbage_expert import Posterior as _Posterior
from kortbord.cards import Card
from kortbord.cribbage.scoring import _fifteen_groups, _pair_groups, _rank_points, _run_groups
from kortbord.cribbage.view import View

__all__ = [
    "VAL",
    "BeliefSearch",
    "BoardEnd",
    "Decision",
    "LearntModel",
    "OverBudget",
    "_board_end",
    "decisions_seen",
    "features",
    "keep_table",
    "lay_points",
]

#: the counts the program's rule tries to leave, in its order, when it holds the answer to make 15
_FIFTEEN_SETUPS = (8, 7, 9, 6, 11, 12, 13, 14, 10, 5)


@cache
def rule_rank(hand: Hand, seq: Hand, count: int) -> int | None:
    """The rank the program lays from the sorted ranks ``hand`` on a count of the ranks ``seq`` summing to
    ``count`` (None: it says go), as its play rule is published (BSD ``games/cribbage``, ``crib.c`` and
    ``support.c``): the card scoring the most at once (the lowest rank of equals); when none scores, in order: a
    lead of 4 (or 3 on an empty count) when the count is under 4; a count of 21 - v kept for an answer of v to 31
    (under 20); a count kept for an answer to 15 (under 15); else the highest card that leaves neither 5, 10 nor
    21, then the highest not leaving 5 or 21, then the highest that fits."""
    legal = [r for r in hand if count + VAL[r] <= 31]
    if not legal:
        return None
    gains = [lay_points(seq, r) for r in legal]
    if max(gains) > 0:
        return legal[gains.index(max(gains))]
    if len(hand) <= 1:
        return hand[0]
    vals = [VAL[r] for r in hand]

    def reaching(total: int) -> int:
        return next((i for i, v in enumerate(vals) if count + v == total), -1)

    if count < 4 and ((j := reaching(4)) >= 0 or ((j := reaching(3)) >= 0 and count == 0)):
        return hand[j]
    if 0 < count < 20:
        for answer in range(1, 11):
            j = reaching(21 - answer)
            held = vals.count(answer)
            if j >= 0 and held and (held > 1 or vals[j] != answer):
                return hand[j]
    if count < 15:
        for total in _FIFTEEN_SETUPS:
            j = reaching(total)
            held = vals.count(15 - total)
            if j >= 0 and held and (held > 1 or vals[j] != 15 - total):
                return hand[j]
    for avoid in ((5, 10, 21), (5, 21)):
        for i in range(len(hand) - 1, -1, -1):
            if count + vals[i] <= 31 and count + vals[i] not in avoid:
                return hand[i]
    return max(legal)


def book_model(hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> Any:
    """The book player: :func:`rule_rank` (BSD cribbage(6)'s published rule)."""
    return ((rule_rank(hand, seq, count), 1.0),)


@cache
def greedy_values(hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> dict[int, float]:
    """Greedy's judgement of each rank of ``hand`` (:func:`~kortbord.bots.cribbage_simple.judge_plays`), memoised:
    ``seen`` the cards it has seen laid or turned, counts by rank (14 long); ``n`` the cards the next player
    holds; ``passed`` it has said go."""
    held, sq = _cards(hand, seq)
    seen_ranks = [r for r in range(1, 14) for _ in range(seen[r])]
    return cribbage_simple.judge_plays(held, seen_ranks, sq, count, n, passed)


def greedy_model(hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> Any:
    """The greedy player: the card of the best :func:`greedy_values` (equal cards alike)."""
    values = greedy_values(hand, seq, count, seen, n, passed)
    if not values:
        return ((None, 1.0),)
    top = max(values.values())
    best = [r for r in hand if r in values and values[r] >= top - 1e-9]
    return tuple((r, best.count(r) / len(best)) for r in sorted(set(best)))


def any_model(hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> Any:
    """A player of no rule: any legal card alike."""
    legal = [r for r in hand if count + VAL[r] <= 31]
    if not legal:
        return ((None, 1.0),)
    return tuple((r, legal.count(r) / len(legal)) for r in sorted(set(legal)))


#: CribbageSim's lead ratings (``rate_leads_in_hand``, after Hoyle): a card of a pair, by rank (a pair of 5s is rated 0)
_HOYLE_PAIR = (0, 22, 23, 24, 25, 0, 17, 18, 19, 20, 21, 21, 21, 21)
#: ... and a card of no pair and none of the companions below
_HOYLE_SINGLE = (0, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 5, 5, 5)


def hoyle_lead_rating(hand: Hand, r: int) -> int:
    """CribbageSim 1.0.2's rating of leading a card of rank ``r`` from ``hand`` (``HoyleishCribbagePlayStrategy.
    rate_leads_in_hand``, in its order: a card of a pair; an 8 with a 6 (16); a 7 with a 9 (15); a ten-card with a
    5 (14); a 9 with a 6 (13); an 8 with a 7 (12); a 7 with an 8 (11); a 6 with a 9 (10); else 4 > 3 > 2 > A >
    ten-card > 9 > 8 > 7 > 6 > 5)."""
    if hand.count(r) > 1:
        return _HOYLE_PAIR[r]
    for rank, other, rating in ((8, 6, 16), (7, 9, 15), (9, 6, 13), (8, 7, 12), (7, 8, 11), (6, 9, 10)):
        if r == rank and other in hand:
            return rating
    if r >= 10 and 5 in hand:
        return 14
    return _HOYLE_SINGLE[r]


def hoyle_follow_rating(seq: Hand, count: int, r: int) -> int:
    """CribbageSim 1.0.2's rating of laying a card of rank ``r`` on the count's ranks ``seq`` (``rate_follows_in_hand``):
    the points of a fifteen, a pair and a run it makes; 2 for a 31 that makes nothing else (a 31 with a pair rates the
    pair alone)."""
    p = lay_points(seq, r)
    if count + VAL[r] == 31:
        p -= 2
        if p == 0:
            p = 2
    return p


def hoyle_model(hand: Hand, seq: Hand, count: int, seen: tuple[int, ...], n: int, passed: bool) -> Any:
    """CribbageSim 1.0.2's Hoyle-based computer (``HoyleishCribbagePlayStrategy.follow``/``go``): on a new count it
    leads the card of the best :func:`hoyle_lead_rating` (or, the other hand empty, plays out its highest card by
    its go rule); on a count it lays the card of the best :func:`hoyle_follow_rating`, or when none scores, its
    highest (by the count's value: a ten-card is any ten-card).  Ties go to the first card in its hand, held as
    drawn: each tied card alike."""
    return _hoyle_choice(hand, seq, count, n > 0)


@cache
def _hoyle_choice(hand: Hand, seq: Hand, count: int, others_hold: bool) -> Any:
    legal = [r for r in hand if count + VAL[r] <= 31]
    if not legal:
        return ((None, 1.0),)
    if not seq and others_hold:
        rating = {r: hoyle_lead_rating(hand, r) for r in set(legal)}
    else:
        rating = {r: hoyle_follow_rating(seq, count, r) for r in set(legal)}
        if not seq or not any(rating.values()):
            rating = {r: VAL[r] for r in rating}
    top = max(rating.values())
    best = [r for r in legal if rating[r] == top]
    return tuple((r, best.count(r) / len(best)) for r in sorted(set(best)))


MODELS: dict[str, Model] = {"book": book_model, "greedy": greedy_model, "any": any_model, "hoyle": hoyle_model}


def _keep_ratios(keep: bool | str, opp_deals: bool, kt: float) -> dict[tuple[int, ...], float] | None:
    """The opponent's keep table (``opp_deals``: the crib is its own): ``"bsd"``, ``"hoyle"`` or ``"greedy"`` that
    program's discard, True spec §5's keep at ``kt`` points, False none (None)."""
    if keep == "bsd":
        return bsd_keep_table(opp_deals, 200_000)
    if keep == "hoyle":
        return hoyle_keep_table(opp_deals)
    if keep == "greedy":
        return greedy_keep_table(opp_deals, kt)
    return keep_table(opp_deals, kt) if keep else None


def Posterior(  # the bench's callers name it as the class it builds
    view: View,
    keep: bool | str = True,
    slip: float = 0.02,
    models: tuple[Any, ...] = ("book",),
    priors: tuple[float, ...] | None = None,
    kt: float = 0.0,
    table: dict[Hand, float] | None = None,
) -> _Posterior:
    """The level's :class:`~kortbord.bots.cribbage_expert.Posterior` with the bench's keep tables (``keep``: True
    spec §5's at ``kt``, ``"bsd"``, ``"hoyle"`` or ``"greedy"`` the programs', False none; ``table`` in place of them) and
    models by name (:data:`MODELS`) or callables."""
    if table is None:
        table = _keep_ratios(keep, view.dealer == 1 - view.seat, kt)
    fns = [MODELS[m] if isinstance(m, str) else m for m in models]
    return _Posterior(view, fns, slip, priors, table)


class BeliefBot(_BeliefPlay):
    """``--bot belief[:option=value...]``: the level's belief play (:class:`kortbord.bots.cribbage_expert.BeliefBot`:
    strong's discard and shows, the play by :class:`BeliefSearch` over the posterior) with the bench's opponent
    models told by name and its keep tables.

    Args:
        rules: as :class:`~kortbord.bots.cribbage_strong.StrongBot`.
        keep: the keep table: True (spec §5's keep, a soft-max at ``kt`` points, arg-max at 0), ``"bsd"`` (the
            program's discard), ``"hoyle"`` (CribbageSim's), ``"greedy"`` (kortbord's greedy's, told: an experiment;
            :func:`greedy_keep_table` at ``kt``) or False (none).
        models: names from :data:`MODELS` (the hidden (hand, model) pairs start with equal weight).
        discard: 0 (strong's discard) or a margin (points, up to 10): the keeps within it of strong's best are
            valued with the play against the opponent's keep prior (:meth:`choose`; the first model; not with
            strong's ``peg_weight``).
        dsamples: the opponent's hands drawn for that (1 or more).
        ptable: 0 (off) or a weight (up to 2): the keeps within ``pmargin`` points (up to 10, default 2.5) of
            strong's best are valued as strong's show and crib value (less its small pegging term) plus this weight
            times the play's value of the kept four in the play table (``scripts/make_play_table.py``: the
            expert's belief search against its keep and play priors, by role; :data:`PLAY_TABLE`) -- the discard
            by the play at a table's cost (not with ``discard`` or strong's ``peg_weight``).
        options: the level's belief play's (``kt``, ``slip``, ``hands``, ``budget``, ``near``, ``endgame``,
            ``ehands``, ``ebudget``, ``wide``) and strong's.
    Raises:
        ValueError: no or an unknown model, another keep, a discard margin outside 0-10 or with ``peg_weight``,
            ``dsamples`` under 1, ``ptable`` outside 0-2 or ``pmargin`` outside 0-10 or without ``ptable``, ``ptable``
            with ``discard`` or ``peg_weight``; the belief play's and strong's.
        FileNotFoundError: ``ptable`` without the table's file (:data:`PLAY_TABLE`).
    """

    def __init__(
        self,
        rules: Any = None,
        keep: bool | str = True,
        models: tuple[str, ...] = ("book",),
        discard: float = 0.0,
        dsamples: int = 300,
        ptable: float = 0.0,
        pmargin: float = 2.5,
        **options: Any,
    ) -> None:
        if not models or any(m not in MODELS for m in models):
            raise ValueError(f"models must be some of {', '.join(MODELS)}, got {models!r}")
        if keep not in (True, False, "bsd", "hoyle", "greedy"):
            raise ValueError(f"keep must be 1, 0, bsd, hoyle or greedy, got {keep!r}")
        if not 0.0 <= discard <= 10.0:
            raise ValueError(f"discard must be from 0 to 10 points, got {discard!r}")
        if dsamples < 1:
            raise ValueError(f"dsamples must be 1 or more, got {dsamples!r}")
        if not 0.0 <= ptable <= 2.0 or not 0.0 <= pmargin <= 10.0:
            raise ValueError(f"ptable must be from 0 to 2 and pmargin from 0 to 10, got {ptable!r}, {pmargin!r}")
        if pmargin != 2.5 and not ptable:
            raise ValueError(f"pmargin is the table discard's margin (ptable=w): got pmargin={pmargin!r} without it")
        if ptable and (discard or options.get("peg_weight")):
            raise ValueError("ptable, discard and peg_weight each value the discard's pegging: give one")
        if ptable:
            play_table()  # read once, before the arena's worker processes fork
        if discard and options.get("peg_weight"):
            raise ValueError("discard and peg_weight both value the discard's pegging: give one")
        super().__init__(rules, **options)
        if keep == "hoyle":  # made once here, before the arena's worker processes fork
            hoyle_keep_table(True), hoyle_keep_table(False)
        elif keep == "greedy":
            greedy_keep_table(True, self.kt), greedy_keep_table(False, self.kt)
        elif keep is True:  # the same: a decision's time is its search's, not a table's first build
            keep_table(True, self.kt), keep_table(False, self.kt)
        self.keep = keep
        self.models = tuple(models)
        self.discard = discard
        self.dsamples = dsamples
        self.ptable = ptable
        self.pmargin = pmargin
        #: per discard valued by the play: keeps searched, CPU seconds
        self.discard_stats: list[tuple[int, float]] = []

    def choose(self, view: View, legal_moves: Any, rng: random.Random) -> Any:
        """Strong's choice, but with ``discard`` > 0 (two players, not Lowball, away from the end of the game) the
        discard is valued as strong's show and crib value (less its small pegging term) plus the play's value of
        the kept four against ``dsamples`` hands drawn from the opponent's keep prior (:func:`keep_prior`,
        :func:`play_value`), for the keeps within ``discard`` points of strong's best."""
        if view.phase == "discard" and self.ptable and len(legal_moves) > 1:
            return self._table_discard(view, legal_moves, rng)
        if (
            view.phase != "discard"
            or not self.discard
            or len(legal_moves) < 2
            or view.rules.players != 2
            or view.rules.lowball
            or (self.board and cribbage_strong._board_applies(view, self.discard_near))
        ):
            return super().choose(view, legal_moves, rng)
        t0 = time.process_time()
        self.last_stats = {"deals": 0, "nodes": 0, "capped": False}
        values = cribbage_strong.discard_values(view, legal_moves, self.peg_weight)
        six = tuple(sorted(c.rank for c in view.hand))
        opp_deals = view.dealer != view.seat
        hands, weights = keep_prior(six, opp_deals, self.keep, self.kt, self._keep_table(opp_deals))
        drawn = Counter(rng.choices(hands, weights, k=self.dsamples))
        cands = [(h, float(n)) for h, n in sorted(drawn.items())]
        models = list(self._play_models()[:1])
        memo: dict[Hand, float] = {}

        def play_of(kept: Hand) -> float:
            if kept not in memo:
                memo[kept] = play_value(kept, cands, opp_deals, models)
            return memo[kept]

        scores = _by_the_play(view, legal_moves, values, self.discard, play_of)
        self.discard_stats.append((len(memo), time.process_time() - t0))
        return cribbage_strong._pick(legal_moves, scores, rng)

    def _table_discard(self, view: View, legal_moves: Any, rng: random.Random) -> Any:
        """``ptable``'s discard (two players, not Lowball, away from the board; else strong's)."""
        if (
            view.rules.players != 2
            or view.rules.lowball
            or (self.board and cribbage_strong._board_applies(view, self.discard_near))
        ):
            return super().choose(view, legal_moves, rng)
        self.last_stats = {"deals": 0, "nodes": 0, "capped": False}
        values = cribbage_strong.discard_values(view, legal_moves)
        table = play_table()["pone" if view.dealer != view.seat else "dealer"]
        scores = _by_the_play(
            view, legal_moves, values, self.pmargin, lambda kept: self.ptable * table["".join(_PIPS[r] for r in kept)]
        )
        return cribbage_strong._pick(legal_moves, scores, rng)

    def _play_models(self, end_game: bool = False) -> tuple[Any, ...]:
        """The opponent models told, :data:`MODELS`'s (a learning bot: its learnt model)."""
        return tuple(MODELS[m] for m in self.models)

    def _keep_table(self, opp_deals: bool) -> dict[Hand, float] | None:
        """The keep table ``keep`` names (a learning bot with ``learnkeep``: its learnt keep)."""
        return _keep_ratios(self.keep, opp_deals, self.kt)


#: the play table's file (``scripts/make_play_table.py``)
PLAY_TABLE = Path(__file__).resolve().parent / "data" / "cribbage_play_values.json"
_PIPS = " A23456789TJQK"


@cache
def play_table() -> dict[str, dict[str, float]]:
    """The play table (:data:`PLAY_TABLE`): ``{"pone": {four ranks A-K low to high: points}, "dealer": {...}}``.

    Raises:
        FileNotFoundError: no table file (make it with ``scripts/make_play_table.py``)."""
    doc = json.loads(PLAY_TABLE.read_text(encoding="utf-8"))
    return {"pone": doc["pone"], "dealer": doc["dealer"]}


def keep_prior(
    six: Hand, opp_deals: bool, keep: bool | str = True, kt: float = 0.0, table: dict[Hand, float] | None = None
) -> tuple[list[Hand], list[float]]:
    """The four ranks the opponent may keep before the play, and their weights, when this player holds the six
    ranks ``six`` (the starter unknown): the ways the other 46 cards give each rank multiset times the keep table's
    ratio (as :class:`Posterior`; ``opp_deals``: the crib is the opponent's; ``table``: a keep table in place of
    ``keep``'s, a learnt one)."""
    avail = [0] + [4] * 13
    for r in six:
        avail[r] -= 1
    if table is None:
        table = _keep_ratios(keep, opp_deals, kt)
    hands, weights = [], []
    for m in _ALL4:
        w = math.prod(math.comb(avail[r], k) for r, k in Counter(m).items())
        if w:
            hands.append(m)
            weights.append(w * (table[m] if table is not None else 1.0))
    return hands, weights


def play_value(us: Hand, cands: list[tuple[Any, float]], we_lead: bool, models: list[Model]) -> float:
    """The whole play's value (this player's pegging points minus the opponent's, spec §2.4, as
    :class:`BeliefSearch`) for the four ranks ``us`` against the opponent's weighted hands ``cands`` (``(hand,
    w)``), this player leading when ``we_lead``: an expectimax in which this player's choices see only the play."""
    search = BeliefSearch(models)
    cands = [((h, 0), w) for h, w in cands]
    if we_lead:
        return max(search.root(us, cands, (), 0).values())
    return search.opponent_leads(us, cands)


def _by_the_play(
    view: View, legal_moves: Any, values: list[float], margin: float, play_of: Callable[[Hand], float]
) -> list[float]:
    """Each discard's score: strong's value ``values`` less its small pegging term plus ``play_of(kept four's
    ranks)`` for the keeps within ``margin`` points of strong's best; the others a million points below."""
    top = max(values)
    scores = []
    for move, v in zip(legal_moves, values, strict=True):
        if v < top - margin:
            scores.append(v - 1e6)
            continue
        kept = tuple(sorted(c.rank for c in view.hand if c not in move.cards))
        scores.append(v - _peg_terms(kept) + play_of(kept))
    return scores


def _peg_terms(kept: Hand) -> float:
    """Strong's small pegging term of a kept four (its pairs and low cards), :func:`~kortbord.bots.cribbage_strong.
    discard_values`'s, which :meth:`BeliefBot.choose` replaces by the play's value."""
    pairs = sum(1 for i in range(4) for j in range(i + 1, 4) if kept[i] == kept[j])
    return cribbage_strong._PEG_PAIR * pairs + cribbage_strong._PEG_LOW * sum(1 for r in kept if VAL[r] <= 4)


def make_belief(text: str, rules: Any) -> BeliefBot:
    """``belief`` or ``belief:key=value:...`` as a :class:`BeliefBot`: ``keep`` (1, 0, bsd, hoyle, greedy), ``kt``, ``slip``,
    ``models`` (names joined by ``+``), ``discard``, ``dsamples``, ``ptable``, ``pmargin``, the belief play's
    (``hands``, ``budget``, ``near``, ``endgame``, ``ehands``, ``ebudget``, ``wide``) and strong's options; with ``learn`` (game,
    session; and ``sd``, ``prune``, ``prior=strong``: the expert level's prior, ``esd``: the end game's model's sd,
    ``risk=1``: the experiment's model with the points a card offers, :func:`risk_prior` its prior) a
    :class:`LearningBot`.

    Raises:
        ValueError: a part that is not key=value, or a bad value (:class:`BeliefBot`).
    """
    options: dict[str, Any] = {}
    for part in text.split(":")[1:]:
        key, eq, value = part.partition("=")
        if not key or not eq or not value:
            raise ValueError(f"options are key=value, got {part!r}")
        if key == "keep":
            options[key] = value if value in ("bsd", "hoyle", "greedy") else {"1": True, "0": False}.get(value, value)
        elif key == "models":
            options[key] = tuple(value.split("+"))
        elif key == "learn":
            options[key] = value
        elif key == "prior":  # the learner's prior: the expert level's (strong's own play), else points first
            if value != "strong":
                raise ValueError(f"prior must be strong (the expert's; leave it out for points first), got {value!r}")
            options[key] = play_prior()
        else:
            try:
                options[key] = (
                    int(value)
                    if key
                    in (
                        "resample",
                        "iterations",
                        "nodes",
                        "dsamples",
                        "hands",
                        "budget",
                        "near",
                        "endgame",
                        "ehands",
                        "ebudget",
                        "series",
                        "wide",
                        "risk",
                    )
                    else float(value)
                )
            except ValueError:
                raise ValueError(f"{key} must be a number, got {value!r}") from None
    if "risk" in options:
        if options["risk"] not in (0, 1):
            raise ValueError(f"risk is 1 or 0, got risk={options['risk']!r}")
        if "learn" not in options:
            raise ValueError("risk is an option of a learner's model: give learn=game or learn=session with it")
        options["risk"] = bool(options["risk"])
        if options["risk"] and "prior" in options:  # the experiment's prior: strong's own play, with the risk
            options["prior"] = risk_prior()
    return LearningBot(rules, **options) if "learn" in options else BeliefBot(rules, **options)


#: the prior of the learner with ``risk`` (``scripts/make_play_prior.py --risk --out ...``)
RISK_PRIOR = Path(__file__).resolve().parent / "data" / "play_prior_risk.json"


@cache
def risk_prior() -> tuple[float, ...]:
    """``prior=strong`` for a learner with ``risk=1``: :class:`LearntModel`'s weights on
    :data:`~kortbord.bots.cribbage_expert.FEATURES_RISK` fitted to kortbord's strong level playing itself
    (:data:`RISK_PRIOR`, the level's own prior's games and seed).

    Raises:
        ValueError: the file's features are not :data:`~kortbord.bots.cribbage_expert.FEATURES_RISK`.
        FileNotFoundError: no file (``scripts/make_play_prior.py --risk --out bench/data/play_prior_risk.json``).
    """
    data = json.loads(RISK_PRIOR.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES_RISK:
        raise ValueError(f"{RISK_PRIOR.name} was made for the features {data['features']}, not {list(FEATURES_RISK)}")
    return tuple(float(w) for w in data["weights"])


# -- BSD cribbage(6)'s discard (support.c ``cdiscard``, ``adjust``), for the ceiling measurement ------------------


@cache
def crib_sums() -> dict[tuple[int, int, bool], int]:
    """The total crib points over the (50 choose 2) * 48 = 58,800 ways to complete a crib of two cards (ranks
    ``lo <= hi``, same suit or not) with two more cards and a starter: fifteens, pairs, runs, a five-card flush,
    his nobs -- and a flush of the crib's four (as BSD's tables ``crbescr``/``crbnescr``, which hold these sums, were
    computed; spec §2.5 does not score it in a crib)."""
    out: dict[tuple[int, int, bool], int] = {}
    deck = [(r, s) for r in range(1, 14) for s in range(4)]
    for lo in range(1, 14):
        for hi in range(lo, 14):
            for suited in (True, False) if lo != hi else (False,):
                c0, c1 = (lo, 0), (hi, 0 if suited else 1)
                rest = [c for c in deck if c not in (c0, c1)]
                total = 0
                for i, x in enumerate(rest):
                    for y in rest[i + 1 :]:
                        four = (c0, c1, x, y)
                        one_suit = len({c[1] for c in four}) == 1
                        jacks = [c[1] for c in four if c[0] == 11]
                        base = (lo - 1, hi - 1, x[0] - 1, y[0] - 1)
                        for s in rest:
                            if s in (x, y):
                                continue
                            pts = _rank_points(tuple(sorted((*base, s[0] - 1))))
                            if one_suit:  # the tables count a four-card flush in the crib too
                                pts += 5 if s[1] == c0[1] else 4
                            if s[1] in jacks:
                                pts += 1
                            total += pts
                out[lo, hi, suited] = total
    return out


def bsd_adjust(a: tuple[int, int], b: tuple[int, int]) -> int:
    """BSD's crib term of two cards laid away, ``(rank, suit)`` each: the mean crib rounded, ``(sum + 29400) //
    58800``."""
    lo, hi = sorted((a[0], b[0]))
    return (crib_sums()[lo, hi, a[1] == b[1] and lo != hi] + 29400) // 58800


@cache
def _bsd_rank_sums(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Per split of six cards of the sorted ranks ``ranks``: the kept four's fifteens, pairs and runs summed over
    the 46 starters not among the six (ranks only)."""
    left = [4] * 14
    for r in ranks:
        left[r] -= 1
    out = []
    for i in range(5):
        for j in range(i + 1, 6):
            keep = tuple(ranks[k] - 1 for k in range(6) if k not in (i, j))
            out.append(sum(left[r] * _rank_points(tuple(sorted((*keep, r - 1)))) for r in range(1, 14) if left[r]))
    return tuple(out)


def bsd_keeps(six: list[tuple[int, int]], own_crib: bool) -> list[tuple[int, int]]:
    """The splits ``(i, j)`` (i < j: the two laid away) of ``six`` (``(rank, suit)``, sorted as the program sorts
    its hand) that BSD's ``cdiscard`` values best -- all of them when several tie (the program takes the first in
    its order): each of the 15 valued as the kept four's show over the 46 starters the program has not seen (its
    hand counted as a crib: a flush only of five) plus (own crib) or minus (the other's) 46 times
    :func:`bsd_adjust`.  ``tests/bots/test_cribbage_belief.py`` checks it against the program's discards."""
    ranks = tuple(c[0] for c in six)
    sums = _bsd_rank_sums(ranks)
    values = []
    k = 0
    for i in range(5):
        for j in range(i + 1, 6):
            keep = [c for m, c in enumerate(six) if m not in (i, j)]
            v = sums[k]
            k += 1
            suits = {c[1] for c in keep}
            if len(suits) == 1:
                suit = keep[0][1]
                v += 5 * (13 - sum(1 for c in six if c[1] == suit))
            for c in keep:
                if c[0] == 11:
                    v += 13 - sum(1 for d in six if d[1] == c[1])
            adj = 46 * bsd_adjust(six[i], six[j])
            values.append(((i, j), v + adj if own_crib else v - adj))
    top = max(v for _, v in values)
    return [s for s, v in values if v == top]


@cache
def bsd_keep_table(own_crib: bool, n: int = 100_000, seed: int = 1) -> dict[tuple[int, ...], float]:
    """:func:`keep_table` for BSD's discard (:func:`bsd_keeps`, ties shared)."""
    rng = random.Random(seed)
    deck = [(r, s) for r in range(1, 14) for s in range(4)]
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        six = sorted(rng.sample(deck, 6))
        best = bsd_keeps(six, own_crib)
        for i, j in best:
            counts[tuple(c[0] for m, c in enumerate(six) if m not in (i, j))] += 1.0 / len(best)
    return _ratios(counts, n)


def greedy_keep_values(six: tuple[Card, ...], own_crib: bool) -> list[float]:
    """Greedy's value of each keep of :data:`~kortbord.bots.cribbage_strong._SPLITS` from the six cards ``six``
    (sorted by index), points: the kept four's mean show over the 46 other starters by ranks (no flush) plus, to the
    keeper's own crib, or minus :func:`~kortbord.bots.cribbage_simple.crib_estimate` of the two laid away."""
    sign = 1.0 if own_crib else -1.0
    hands = cribbage_strong._six_means(tuple(c.rank for c in six))
    return [
        hands[k] + sign * cribbage_simple.crib_estimate((six[i], six[j]))
        for k, (_, (i, j)) in enumerate(cribbage_strong._SPLITS)
    ]


@cache
def greedy_keep_table(own_crib: bool, t: float = 0.0, n: int = 200_000, seed: int = 1) -> dict[tuple[int, ...], float]:
    """:func:`keep_table` for kortbord's ``greedy`` discard (told its rule, an experiment): the kept four's mean show
    over the starters (strong's by ranks, :func:`~kortbord.bots.cribbage_strong._six_means`, as greedy's without
    the flush and with his nobs as 0.25 a jack) plus, to its own crib, or minus :func:`~kortbord.bots.cribbage_simple.crib_estimate` of the two laid
    away -- greedy's rough crib value (``GreedyBot.discard_value``), not the crib table the level's keep uses; a
    soft-max at ``t`` points, arg-max at 0 (ties to the first)."""
    return keep_ratios_by(lambda six: greedy_keep_values(tuple(Card(c) for c in six), own_crib), t, n, seed)


@cache
def hoyle_keep_table(own_crib: bool, n: int = 100_000, seed: int = 1) -> dict[tuple[int, ...], float]:
    """:func:`keep_table` for CribbageSim 1.0.2's discard (its own ``permute_and_score_dealt_hand`` on ``n`` random
    six-card hands in a random order: the keep of the most certain points, as dealer plus, as pone minus the
    certain points of the two laid away; ties to the first of its order).  Needs CribbageSim installed."""
    from CribbageSim.CribbagePlayStrategy import HoyleishDealerCribbagePlayStrategy, HoyleishPlayerCribbagePlayStrategy
    from HandsDecksCards.card import Card as SimCard
    from HandsDecksCards.hand import Hand as SimHand

    strategy = HoyleishDealerCribbagePlayStrategy() if own_crib else HoyleishPlayerCribbagePlayStrategy()
    sign = 1 if own_crib else -1
    pips = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    rng = random.Random(seed)
    deck = [(r, s) for r in range(1, 14) for s in "SHDC"]
    rank_of = {p: r for r, p in enumerate(pips) if p}
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        six = SimHand()
        six.add_cards([SimCard(s, pips[r]) for r, s in rng.sample(deck, 6)])
        options = strategy.permute_and_score_dealt_hand(six)
        best = sorted(options, key=lambda o: o.hand_score + sign * o.crib_score, reverse=True)[0]
        counts[tuple(sorted(rank_of[c.pips] for c in best.hand))] += 1
    return _ratios(counts, n)


# -- a model learnt from the plays seen: no program's rule told (issue #14 item 2's general form) ----------------


@cache
def certain_points(ranks: Hand) -> int:
    """The points the sorted ranks ``ranks`` (two or four cards) hold without a starter: fifteens, pairs and runs
    as the show counts them (spec §2.5; the engine's own groups, :mod:`kortbord.cribbage.scoring`) -- the certain
    count a keep may be judged by."""
    seen: Counter[int] = Counter()
    cards = []
    for r in ranks:  # equal ranks in different suits (suits never score here)
        cards.append(Card.of(r, seen[r]))
        seen[r] += 1
    groups = (*_fifteen_groups(cards), *_pair_groups(cards), *_run_groups(cards))
    return sum(g.points for g in groups)


#: the features of a keep (:func:`keep_features`), in order
KEEP_FEATURES = ("hand mean", "crib", "hand certain", "laid away certain")


def keep_features(six: tuple[Card, ...], split: tuple[tuple[int, ...], tuple[int, int]], own_crib: bool) -> Any:
    """A keep of the sorted six ``six`` (``split``: the four kept, the two laid away, by index) as the two ways a
    player may count it: the kept four's mean show over the starters and the crib table's value of the two laid away
    (spec §5, signed: plus for one's own crib), and the points certain without a starter in the four and in the two
    (signed the same way; Hoyle's count)."""
    keep, (i, j) = split
    ranks = tuple(c.rank for c in six)
    sign = 1.0 if own_crib else -1.0
    crib = cribbage_strong._signed_cribs(own_crib)
    a, b = sorted((ranks[i], ranks[j]))
    return (
        cribbage_strong._rank_mean(tuple(ranks[k] for k in keep), (ranks[i], ranks[j])),
        crib[a, b, six[i].suit == six[j].suit and a != b],
        float(certain_points(tuple(ranks[k] for k in keep))),
        sign * certain_points((a, b)),
    )


@cache
def _keep_sample(n: int = 30_000, seed: int = 2) -> Any:
    """``n`` random six-card hands, for the learnt keep table: per hand and split, the keep's features (own crib,
    the other's) and the kept rank multiset's index in the four-rank multisets; numpy arrays."""
    import numpy as np

    rng = random.Random(seed)
    deck = [Card(i) for i in range(52)]
    index = {m: k for k, m in enumerate(_ALL4)}
    feats = np.zeros((2, n, 15, len(KEEP_FEATURES)))
    kept = np.zeros((n, 15), dtype=np.int64)
    for h in range(n):
        six = tuple(sorted(rng.sample(deck, 6), key=lambda c: (c.rank, c.suit)))
        for k, split in enumerate(cribbage_strong._SPLITS):
            feats[0, h, k] = keep_features(six, split, True)
            feats[1, h, k] = keep_features(six, split, False)
            kept[h, k] = index[tuple(six[x].rank for x in split[0])]
    p_rand = np.array(
        [math.prod(math.comb(4, c) for c in Counter(m).values()) / math.comb(52, 4) for m in _ALL4], dtype=float
    )
    return feats, kept, p_rand


class LearntKeep:
    """The opponent's discard learnt from the keeps the shows reveal: a soft-max over the 15 keeps of a six of
    ``weights`` times :func:`keep_features`, fitted by maximum likelihood (Newton) with a Gaussian prior (sd ``sd``)
    centred on spec §5's keep at temperature ``kt`` (1/kt on the mean and the crib); :meth:`table` the keep table
    (as :func:`keep_table`) it gives, over a fixed sample of six-card hands."""

    def __init__(self, kt: float = 0.5, sd: float = 2.0) -> None:
        import numpy as np

        self.np = np
        self.sd = sd
        self.prior = np.array([1.0 / kt, 1.0 / kt, 0.0, 0.0])
        self.weights = self.prior.copy()
        self._tables: dict[bool, dict[Hand, float]] = {}

    def fit(self, keeps: list[tuple[Any, int]]) -> None:
        """Refit to ``keeps``: ``(features of the 15 splits (15 x 4), the split kept)``."""
        np = self.np
        w = self.prior.copy()
        if keeps:
            x = np.array([f for f, _ in keeps])
            y = np.array([k for _, k in keeps])
            for _ in range(25):
                z = x @ w
                p = np.exp(z - z.max(axis=1, keepdims=True))
                p /= p.sum(axis=1, keepdims=True)
                mean = np.einsum("nk,nkf->nf", p, x)
                grad = (x[np.arange(len(y)), y] - mean).sum(axis=0) - (w - self.prior) / self.sd**2
                second = np.einsum("nk,nkf,nkg->fg", p, x, x) - np.einsum("nf,ng->fg", mean, mean)
                hess = -second - np.eye(len(w)) / self.sd**2
                step = np.linalg.solve(hess, grad)
                w = w - step
                if np.abs(step).max() < 1e-6:
                    break
        self.weights = w
        self._tables = {}

    def table(self, own_crib: bool) -> dict[Hand, float]:
        """Each kept rank multiset's likelihood ratio under the learnt keep (``own_crib``: the crib is the keeper's),
        smoothed as :func:`keep_table`'s."""
        if own_crib not in self._tables:
            np = self.np
            feats, kept, p_rand = _keep_sample()
            z = feats[0 if own_crib else 1] @ self.weights
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            counts = np.zeros(len(_ALL4))
            np.add.at(counts, kept, p)
            n = kept.shape[0]
            ratio = (counts + 0.05 * p_rand * n) / (1.05 * p_rand * n)
            self._tables[own_crib] = dict(zip(_ALL4, ratio.tolist(), strict=True))
        return self._tables[own_crib]


#: the decisions a learning bot has seen, kept across its games in one process when ``memory="session"``
_SESSION: list[Decision] = []
#: the keeps a learning bot has seen at the shows (``learnkeep``), kept as :data:`_SESSION`
_SESSION_KEEPS: list[tuple[Any, int]] = []
#: the learning bots made in this process with ``series`` (their games), for its memory's resets
_SERIES_GAMES = [0]


class LearningBot(PlayReader, BeliefBot):
    """``belief:learn=game`` or ``learn=session``: the belief search with the opponent's play rule learnt, not told
    (:class:`kortbord.bots.cribbage_expert.PlayReader`, the expert level's reading) over this game or over every
    game of this process (one opponent a session).  The keep table is a general one (``keep``), not the program's;
    with ``learnkeep`` it is learnt too (:class:`LearntKeep`, refitted at each crib's show to the opponent's keeps
    seen there; needs the table's events).

    With ``session`` what each worker process learnt depends on which games it was handed, so runs with ``--jobs``
    over 1 are not repeatable game for game (``game`` is), and two ``session`` bots in one process share one memory.
    ``series=N`` (with ``session``): the memory is emptied before every N-th game this process plays (a person's
    evening of N games, then a stranger), so a game learns from at most the N - 1 before it.

    Raises:
        ValueError: ``learn`` not game or session, ``models``, ``sd`` or ``esd`` not over 0, ``prune`` outside
            [0, 1).
    """

    def __init__(
        self,
        rules: Any = None,
        learn: str = "game",
        sd: float = 3.0,
        prune: float = 0.05,
        learnkeep: bool = False,
        esd: float | None = None,
        series: int = 0,
        **options: Any,
    ) -> None:
        if learn not in ("game", "session"):
            raise ValueError(f"learn must be game or session, got {learn!r}")
        if type(series) is not int or series < 0 or (series and learn != "session"):
            raise ValueError(f"series must be a whole number of games, 0 or more, with learn=session, got {series!r}")
        if series:
            if _SERIES_GAMES[0] % series == 0:
                _SESSION.clear()
                _SESSION_KEEPS.clear()
            _SERIES_GAMES[0] += 1
        if "models" in options:
            raise ValueError("learn learns the opponent's play: no models to be told")
        super().__init__(rules, sd=sd, prune=prune, memory=_SESSION if learn == "session" else None, esd=esd, **options)
        self.learn = learn
        #: the opponent's discard learnt from the keeps the shows reveal (``learnkeep``; needs ``observe``)
        self.learnt_keep = LearntKeep(self.kt or 0.5) if learnkeep else None
        if learnkeep:  # the sample its tables are made over, once, before the arena's worker processes fork
            _keep_sample()
        self._keeps: list[tuple[Any, int]] = _SESSION_KEEPS if learn == "session" else []
        if self.learnt_keep is not None and self._keeps:
            self.learnt_keep.fit(self._keeps[-3000:])
        self._dealer: int | None = None
        self._mine: tuple[Card, ...] = ()

    def observe(self, events: Any) -> None:
        """The level's reading of the play (:meth:`PlayReader.observe`) and, with ``learnkeep``, the opponent's keep
        at the crib's show."""
        if self.learnt_keep is None:
            super().observe(events)
            return
        for event in events:  # one at a time: the show reads the deal's cards laid before the next deal clears them
            if event.kind == "deal":
                self._dealer, self._mine = int(event["dealer"]), ()
            elif event.kind == "show" and event["crib"]:
                self._read_keep([Card.parse(str(c)) for c in event["cards"]])
            super().observe((event,))

    def _read_keep(self, crib: list[Card]) -> None:
        """At the crib's show: the opponent's six are the four it laid and the crib less this bot's two (two
        players), its keep one more observation of :attr:`learnt_keep`."""
        if self._seat is None or self._dealer is None or len(self._mine) != 2:
            return
        opp = 1 - self._seat
        theirs = [c for s, c in self._laid if s == opp]
        away = [c for c in crib if c not in self._mine]
        if len(theirs) != 4 or len(away) != 2:
            return
        six = tuple(sorted(theirs + away, key=lambda c: (c.rank, c.suit)))
        out = tuple(sorted(six.index(c) for c in away))
        own = self._dealer == opp
        splits = cribbage_strong._SPLITS
        k = next(n for n, (_, pair) in enumerate(splits) if pair == out)
        self._keeps.append(([keep_features(six, sp, own) for sp in splits], k))
        assert self.learnt_keep is not None
        self.learnt_keep.fit(self._keeps[-3000:])

    def _keep_table(self, opp_deals: bool) -> dict[Hand, float] | None:
        if self.learnt_keep is None:
            return super()._keep_table(opp_deals)
        return self.learnt_keep.table(opp_deals)

    def choose(self, view: View, legal_moves: Any, rng: random.Random) -> Any:
        if view.discards:
            self._mine = view.discards
        return super().choose(view, legal_moves, rng)


# -- what the discard by the play is worth in the model's own values ----------------------------------------------


def discard_gain(deals: int, seed: int, margin: float, samples: int) -> dict[str, list[float]]:
    """Both discards of each of ``deals`` random two-player deals (the pone's, then, after strong's discard for the
    pone, the dealer's): how much the keep of ``belief:kt=0.5:discard=margin:dsamples=samples`` is worth more than
    strong's, each valued as its show and crib value (strong's, less its small pegging term) plus the play's value
    (:func:`play_value` against the program's rule) over ``4 * samples`` other hands drawn from spec §5's keep prior
    -- draws of their own, so the choice's draws do not flatter it.  Returns the gains (points) by role,
    ``{"pone": [...], "dealer": [...]}`` (0 where the keeps are the same)."""
    from kortbord.cribbage import Rules, engine
    from kortbord.cribbage.view import view as seat_view

    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = BeliefBot(rules, kt=0.5, discard=margin, dsamples=samples)
    strong = cribbage_strong.StrongBot(rules)
    rng = random.Random(f"kortbord-discard-gain:{seed}")
    deck = list(range(52))
    gains: dict[str, list[float]] = {"pone": [], "dealer": []}
    for d in range(deals):
        cards = [Card(i) for i in rng.sample(deck, 13)]
        state = engine.position(rules, phase="discard", dealer=d % 2, hands=[cards[:6], cards[6:12]], starter=cards[12])
        while state.phase_name == "discard":
            seat = engine.to_act(state)
            assert seat is not None
            seen = seat_view(state, seat)
            moves = engine.legal_moves(state)
            mine = bot.choose(seen, moves, random.Random(rng.random()))
            base = strong.choose(seen, moves, random.Random(rng.random()))
            state = engine.apply(state, base)
            role = "dealer" if seen.dealer == seat else "pone"
            keep = [tuple(sorted(c.rank for c in seen.hand if c not in m.cards)) for m in (mine, base)]
            if keep[0] == keep[1]:
                gains[role].append(0.0)
                continue
            opp_deals = role == "pone"
            hands, weights = keep_prior(tuple(sorted(c.rank for c in seen.hand)), opp_deals, True, 0.5)
            drawn = Counter(rng.choices(hands, weights, k=4 * samples))
            cands = [(h, float(n)) for h, n in sorted(drawn.items())]
            shows = cribbage_strong.discard_values(seen, [mine, base])
            v = [
                s - _peg_terms(k) + play_value(k, cands, opp_deals, [book_model])
                for s, k in zip(shows, keep, strict=True)
            ]
            gains[role].append(v[0] - v[1])
    return gains


def _mean_ci(xs: list[float]) -> str:
    from kortbord.arena import cluster_mean_ci

    d = cluster_mean_ci([[x] for x in xs])
    return f"{d['mean']:+.3f} ({d['ci95'][0]:+.3f} .. {d['ci95'][1]:+.3f})"


def main() -> None:
    """``python bench/cribbage_belief.py [--deals N --seed S --margin M --samples K]``: :func:`discard_gain`'s mean
    and 95% interval, by role and a deal (a player deals every other deal: the mean of both roles' discards)."""
    import argparse

    ap = argparse.ArgumentParser(description="what a discard valued by the play against the program's rule adds")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=float, default=2.5, help="points (belief's discard option)")
    ap.add_argument("--samples", type=int, default=300, help="the opponent's hands drawn for the choice")
    args = ap.parse_args()
    if args.deals < 2:
        ap.error(f"--deals must be 2 or more (an interval needs two), got {args.deals}")
    if args.samples < 1:
        ap.error(f"--samples must be 1 or more, got {args.samples}")
    if not 0.0 <= args.margin <= 10.0:
        ap.error(f"--margin must be from 0 to 10 points, got {args.margin}")
    t0 = time.perf_counter()
    gains = discard_gain(args.deals, args.seed, args.margin, args.samples)
    print(
        f"{args.deals} deals (seed {args.seed}, margin {args.margin}, {args.samples} hands drawn), the keep valued by "
        f"the play against the program's rule over strong's, in the model's own values ({time.perf_counter() - t0:.0f} s)"
    )
    for role, xs in gains.items():
        print(f"  as {role}: {sum(1 for x in xs if x)} of {len(xs)} keeps differ; {_mean_ci(xs)} points a discard")
    print(f"  a deal (both roles alike): {_mean_ci(gains['pone'] + gains['dealer'])} points")


if __name__ == "__main__":
    main()
