"""The strong Mulle computer player: determinised search (perfect-information Monte Carlo) over the seat's View.

:class:`StrongBot` implements :class:`kortbord.bots.base.Bot`.  It sees only its seat's
:class:`~kortbord.mulle.view.View`, the legal moves and a seeded ``random.Random``; where it needs the hidden
cards it *samples* them (rules spec §7, "notes for the computer opponent"):

1. **Card counting** (:func:`kortbord.mulle.view.unseen_cards`).  Every card exists twice (spec §2.1), so the
   unseen cards are the 104-card two-pack multiset minus the own hand, the loose table cards, the cards in builds
   and every capture pile of the round (all captured cards were face up).  Their number equals the other hands'
   sizes plus the stock size.
2. **Determinisation** (``kortbord.mulle.SPEC.sample``, the engine's one sampler).  The unseen cards are dealt
   at random to the other hands (of the public sizes) and the stock, respecting the one thing the rules reveal
   about a hand: the owner of a build holds a card of its value (the reserve rule, spec §2.6).  The sampled world
   is a full State with the view's seats (the engine deals the later deals from the sampled stock).
3. **Evaluation by playouts.**  Each candidate move is applied in the sampled world and the deal is played out by
   a fast one-move policy for every seat (:func:`rollout_policy`: points captured now, mulles, a tabbe, the
   scoring cards kept, no lone card left for a tabbe) to the end of the current deal -- the natural horizon:
   hands are empty then and, by the reserve rule, so is every build.  Close to the end of a deal the playout
   runs on through the next deal, so what the deal leaves on the table is valued too.  In the last deal (the
   båt flag) the playout reaches the end of the round, so the last capture's sweep (spec §2.10) is counted.
   The outcome is the change of *own side's round points minus the average of the other sides'* (card points,
   mulles, tabbar: spec §2.11), negated in Kryp-mulle (spec §3: the lowest total wins).
4. **Selection.**  Every candidate is played out in the same sampled worlds with the same playout generator
   (common random numbers), which removes most of the sampling noise from the *comparison*.  After each batch
   of worlds the clearly worse half of the candidates is dropped (successive halving), so the survivors get
   more playouts.  The move with the best mean wins; ties fall to the one-move greedy evaluation
   (:class:`kortbord.bots.mulle_simple.GreedyBot`).

Work, not time: a decision samples exactly ``iterations`` worlds (default :data:`ITERATIONS`, the ``strong``
level of :mod:`kortbord.bots.registry`), so the choice depends only on the View, the legal moves and ``rng`` --
the same on a busy machine as on an idle one (it only takes longer).  ``time_budget_ms`` is an optional *cap*
(None: none): when the wall clock passes it the search stops early (the first world may overrun it by half; past
that the greedy choice is returned) and the bot says so: ``last_stats["capped"]`` is true for that decision and
the counter :attr:`StrongBot.capped` counts such decisions (of :attr:`StrongBot.decisions` searched).  A capped
decision depends on the machine's speed and load (still drawn only from ``rng``, never from the clock).  A single
legal move is returned at once.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from kortbord.bots.mulle_simple import GreedyBot, _check_view
from kortbord.mulle import engine
from kortbord.mulle import fast as _fast
from kortbord.mulle.movegen import BUILD, CAPTURE, LAYON, PACKAGE, TRAIL, MoveCode, encode, legal_codes
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import card_points, mulle_points
from kortbord.mulle.spec import SPEC
from kortbord.mulle.state import HV, SCORING, TV, State
from kortbord.mulle.transitions import apply_code
from kortbord.mulle.view import View
from kortbord.mulle.view import view as seat_view

__all__ = ["ITERATIONS", "StrongBot", "rollout_policy"]

#: Worlds sampled per decision at the ``strong`` level (the registry's definition of the level).  Calibrated so that
#: a decision takes about what the former 150 ms time budget gave on an idle core (docs/bots.md, "Levels").
ITERATIONS: Final = 150


class _Tables:
    """Per-rules lookup tables (card points, mulle points) for the playouts."""

    def __init__(self, rules: Rules) -> None:
        self.pts = tuple(card_points(c, rules) for c in range(52))
        self.mulle_hand = tuple(mulle_points(c, rules, from_hand=True) for c in range(52))
        self.mulle_table = tuple(mulle_points(c, rules, from_hand=False) for c in range(52))
        self.kryp = rules.kryp
        self.surplus = rules.scoring == "surplus"


_TABLES: dict[Rules, _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = _Tables(rules)
    return t


def _move_value(state: Any, m: PlayerMove, t: _Tables, hand: Sequence[int]) -> float:
    """The one-move value of ``m`` for the mover holding ``hand``, in points (the playout policy's evaluation).

    ``state`` needs only ``table``, ``builds`` and ``is_last_deal`` (an engine State or a View)."""
    return _code_value(state, encode(m), t, hand)


def _code_value(state: Any, code: MoveCode, t: _Tables, hand: Sequence[int]) -> float:
    """:func:`_move_value` of the move with code ``code`` (:mod:`kortbord.mulle.movegen`): the playouts' fast
    path, one evaluation for both (so a move and its code are valued alike)."""
    kind = code[0]
    x = code[1]
    pts = t.pts
    v = -1.2 if SCORING[x] else 0.0  # lillan, storan and aces capture big sums: keep them (spec §7)
    table = state.table
    builds = state.builds
    if kind == CAPTURE:
        loose = code[2]
        taken = code[3]
        got = [x, *loose]
        if taken:
            for b in builds:
                if b.id in taken:
                    got.extend(b.cards)
        g = 0.0
        for c in got:
            g += pts[c]
        if len(set(got)) < len(got):
            for c, k in Counter(got).items():
                if k >= 2:
                    g += (k // 2) * (t.mulle_hand[c] if c == x else t.mulle_table[c])
        left = len(table) - len(loose) + len(builds) - len(taken)
        if state.is_last_deal and left:
            # this may be the last capture, which takes what is left (spec §2.10)
            g += 0.3 * (sum(pts[c] for c in table) + sum(pts[c] for b in builds for c in b.cards))
        if left == 0:
            g += 1.0  # a tabbe (the engine knows when it is the round's last play and then gives none)
        elif left == 1:
            rest = [c for c in table if c not in loose] or [c for b in builds if b.id not in taken for c in b.cards]
            v -= 0.5 * (1.0 + sum(pts[c] for c in rest))  # a lone unit invites a tabbe
        return v + g + 0.05 * len(got) + 0.5
    if kind == TRAIL:
        left = len(table) + len(builds) + 1
        v -= 1.2 * pts[x] + 0.02 * TV[x]
        if x not in table and hand.count(x) < 2 and not SCORING[x]:
            v -= 0.3 * t.mulle_hand[x]  # the twin may be in the next hand: a mulle for it
        if left == 1:
            v -= 1.0
        return v
    # building moves: the builder expects to take the build in
    locks = kind in (PACKAGE, LAYON)
    if kind == BUILD:
        cards = [x, *code[2], *(c for p in code[4] for c in p)]
        value = code[3]
    else:
        bid = code[3] if kind == PACKAGE else code[2]
        b0 = next(b for b in builds if b.id == bid)
        cards = [*b0.cards, x]
        if kind == PACKAGE:
            cards.extend(code[2])
            cards.extend(c for p in code[4] for c in p)
            value = b0.value
        elif kind == LAYON:
            value = b0.value
        else:
            value = code[3]
    worth = 0.05 * len(cards)
    for c in cards:
        worth += pts[c]
    reserves = [c for c in hand if HV[c] == value and c != x]
    for r in reserves:
        if r in cards:
            worth += t.mulle_hand[r]
            break
    sure = len(reserves) >= 2 or locks
    return v + 0.3 + worth * (0.8 if sure else 0.55) - 0.4 * pts[x]


def rollout_policy(
    state: State,
    moves: Sequence[PlayerMove],
    rng: random.Random,
    epsilon: float = 0.1,
    tables: _Tables | None = None,
    hand: Sequence[int] | None = None,
) -> PlayerMove:
    """The playout policy: with probability ``epsilon`` a random legal move, else the move of the best one-move
    value for the mover (points captured, mulles, a tabbe, scoring cards kept, no lone card left; negated in
    Kryp-mulle), ties broken by ``rng``.

    Args:
        state: a (sampled) engine state with a seat to move; moves: its legal moves (non-empty).
    Returns:
        One of ``moves``.
    """
    if len(moves) == 1:
        return moves[0]
    if rng.random() < epsilon:
        return moves[rng.randrange(len(moves))]
    t = tables or _tables(state.rules)
    if hand is None:
        assert state.to_move is not None
        hand = seat_view(state, state.to_move).hand
    sign = -1.0 if t.kryp else 1.0
    best = None
    best_v = -1e9
    for m in moves:
        val = sign * _move_value(state, m, t, hand) + rng.random() * 1e-3
        if val > best_v:
            best_v, best = val, m
    assert best is not None
    return best


def _rollout_code(
    state: Any, codes: Sequence[MoveCode], rng: random.Random, epsilon: float, t: _Tables, hand: Sequence[int]
) -> MoveCode:
    """:func:`rollout_policy` on move codes (the same draws from ``rng``, the same values, the same choice): the
    playouts' fast path.  ``state``: an engine State with ``codes = legal_codes(state)``, or a fast-core position
    (``_FastPosition``) with its fast codes (:mod:`kortbord.mulle.fast`, builds by index)."""
    if len(codes) == 1:
        return codes[0]
    if rng.random() < epsilon:
        return codes[rng.randrange(len(codes))]
    sign = -1.0 if t.kryp else 1.0
    best = None
    best_v = -1e9
    for c in codes:
        val = sign * _code_value(state, c, t, hand) + rng.random() * 1e-3
        if val > best_v:
            best_v, best = val, c
    assert best is not None
    return best


def _side_points(state: State | _fast.FastState, t: _Tables) -> list[float]:
    """Each side's round points so far (card points, mulles, tabbar: spec §2.11) of an engine State or of a
    fast-core position (what :meth:`StrongBot._playout` returns)."""
    out = []
    if isinstance(state, _fast.FastState):
        for cards, mulles, tabbar in state.piles:
            cp = 0
            for c in cards:
                cp += t.pts[c]
            out.append(float(cp + sum(pts for _, pts in mulles) + tabbar))
        return out
    for p in state.piles:
        cp = 0
        for c in p.cards:
            cp += t.pts[c]
        out.append(float(cp + sum(pts for _, pts in p.mulles) + p.tabbar))
    return out


class _FastBuild:
    """A fast-core build as the playout policy reads it: ``id`` (its index, as the fast codes name it), ``cards``,
    ``value``."""

    __slots__ = ("cards", "id", "value")

    def __init__(self, i: int, cards: list[int], value: int) -> None:
        self.id = i
        self.cards = cards
        self.value = value


class _FastPosition:
    """A fast-core position as the playout policy reads it (``table``, ``builds``, ``is_last_deal``)."""

    __slots__ = ("builds", "is_last_deal", "table")

    def __init__(self) -> None:
        self.table: list[int] = []
        self.builds: list[_FastBuild] = []
        self.is_last_deal = False


def fast_run(
    f: _fast.FastState, horizon: int, choose: Callable[[_FastPosition, list[_fast.FastCode], int], _fast.FastCode]
) -> _fast.FastState:
    """Play the fast position ``f`` (changed in place, and returned) to the end of deal ``horizon`` (``f.deal_no``
    numbering; the round's end comes first if it is nearer), each move the code ``choose(pos, codes, seat)``
    picks from the mover's legal fast codes (:func:`kortbord.mulle.fast._gen` order), ``pos`` the table, builds
    (by index) and last-deal flag the policies read (:class:`_FastPosition`, kept up to date here).  The one
    playout loop of strong and of the expert's variants."""
    r = _fast._rules_of(f.rules)
    pos = _FastPosition()
    bver = -1
    while f.breakdown is None and f.deal_no <= horizon:
        if f.bver != bver:
            bver = f.bver
            pos.builds = [_FastBuild(i, b[4], b[1]) for i, b in enumerate(f.builds)]
        pos.table = f.table
        pos.is_last_deal = f.is_last_deal
        seat = f.to_move
        assert seat is not None
        _fast._play(f, r, choose(pos, _fast._gen(r, f), seat))
    return f


class StrongBot:
    """Determinised-search Mulle player (level ``"strong"``); see the module docstring for the algorithm.

    Args:
        rules: the game's rules (public knowledge; None means the ``standard`` profile).
        iterations: worlds sampled per decision (>= 1; None: :data:`ITERATIONS`).  The choice is reproducible from
            ``rng`` whatever the machine's load.
        time_budget_ms: an optional wall-clock cap per decision, milliseconds (None: no cap).  When it bites the
            search stops early, ``last_stats["capped"]`` is true and :attr:`capped` is incremented.
        race: None (strong's): the worse half of the candidates is dropped every :attr:`BATCH` worlds.  A number
            ``z`` > 0: *racing* instead -- from :attr:`RACE_MIN` worlds on, after every world, a candidate is
            dropped when the best mean beats it by more than ``z`` standard errors of their paired per-world
            differences (the same worlds, the same playout seeds), and the search stops when one is left.
    Attributes:
        decisions: decisions searched (more than one legal move) since the bot was made.
        capped: how many of them the time cap cut short.
        last_stats: the last decision's ``{"worlds", "playouts", "candidates", "capped"}``.
    Raises:
        ValueError: a non-positive cap or iteration count.
    """

    name = "strong"

    #: worlds per batch between two successive-halving cuts.
    BATCH: Final = 4
    #: candidates kept at most (the greedy evaluation ranks them first).
    MAX_CANDIDATES: Final = 12
    #: the playout policy's random-move probability.
    EPSILON: Final = 0.1
    #: a playout runs on through the next deal when fewer than this many cards per player are left in hands.
    EXTEND: Final = 2
    #: play the playouts on the fast core (:mod:`kortbord.mulle.fast`) when it supports the rules: the same moves
    #: in the same order, so the same choices as on the engine (``tests/mulle/test_fast_playouts.py``).
    fast_playouts: bool = True
    #: worlds every candidate sees before racing (``race``) may drop one.
    RACE_MIN: Final = 8
    #: weight of the greedy evaluation added to a candidate's mean playout outcome when candidates are ranked (the
    #: halving cuts and the final choice); strong's 0.0 leaves the mean alone (the greedy value only breaks ties).
    PRIOR_WEIGHT: float = 0.0

    def __init__(
        self,
        rules: Rules | None,
        *,
        iterations: int | None = None,
        time_budget_ms: float | None = None,
        race: float | None = None,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if time_budget_ms is not None and not time_budget_ms > 0:
            raise ValueError("time_budget_ms must be positive")
        if race is not None and (
            isinstance(race, bool) or not isinstance(race, int | float) or not 0 < race < math.inf  # nan, inf too
        ):
            raise ValueError(f"race must be a positive finite number of standard errors, got {race!r}")
        self.race = None if race is None else float(race)
        self.rules = rules or Rules()
        self.iterations: int = ITERATIONS if iterations is None else int(iterations)
        self.time_budget_ms = None if time_budget_ms is None else float(time_budget_ms)
        self._greedy = GreedyBot(self.rules)
        self.decisions = 0
        self.capped = 0
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The legal move with the best mean playout outcome over sampled worlds (module docstring).

        Raises:
            TypeError: ``view`` is not a :class:`View` (a bot never receives the state).
            ValueError: ``legal_moves`` is empty or holds a move not legal in ``view``.
        """
        _check_view(view, legal_moves, rng)
        start = time.perf_counter()
        moves = list(dict.fromkeys(legal_moves))
        if len(moves) == 1:
            self.last_stats = {"worlds": 0, "playouts": 0, "candidates": 1, "capped": False}
            return moves[0]
        local = random.Random(rng.getrandbits(64))
        prior = [self._greedy.evaluate(view, m) for m in moves]
        order = sorted(range(len(moves)), key=lambda i: -prior[i])
        alive = order[: self.MAX_CANDIDATES]
        budget = self.time_budget_ms
        # (the cap, the first world's limit): the first world may run over the cap by half of it; past that the
        # greedy choice is returned
        cap = None if budget is None else (start + budget / 1000.0, start + 1.5 * budget / 1000.0)
        capped = False
        total = [0.0] * len(moves)
        count = [0] * len(moves)
        race = self.race
        # racing: each candidate's sum of squared outcomes and each pair's sum of products (paired differences)
        square = [0.0] * len(moves)
        cross = [[0.0] * len(moves) for _ in moves] if race is not None else []
        t = _tables(self.rules)
        sign = -1.0 if t.kryp else 1.0
        me = view.seat
        worlds = 0
        playouts = 0
        while worlds < self.iterations:
            world = self._sample(view, local)
            my_side = world.side(me)
            base = _side_points(world, t)
            seed = local.getrandbits(64)
            by_value = {m: m for m in engine.legal_moves(world)}
            results: list[tuple[int, float]] = []
            for i in alive:
                if cap is not None and time.perf_counter() > cap[0 if worlds else 1]:
                    break
                m = by_value.get(moves[i])
                if m is None:  # pragma: no cover - the mover's moves depend only on public facts and its hand
                    raise AssertionError(f"{moves[i]} is not legal in a sampled world")
                # common random numbers: every candidate is played out with the same generator seed
                after = self._playout(engine.apply(world, m), random.Random(seed))
                pts = self._outcome(after, t)
                gain = [pts[s] - base[s] for s in range(len(pts))]
                own = gain[my_side]
                others = (sum(gain) - own) / (len(gain) - 1)
                results.append((i, sign * (own - others)))
            playouts += len(results)
            if len(results) < len(alive):
                capped = True
                break  # out of time in the middle of a world: it is not counted
            for i, value in results:
                total[i] += value
                count[i] += 1
            worlds += 1
            if race is not None:
                for a, (i, vi) in enumerate(results):
                    square[i] += vi * vi
                    for j, vj in results[a + 1 :]:
                        cross[min(i, j)][max(i, j)] += vi * vj
                if worlds >= self.RACE_MIN:
                    alive = self._race(alive, total, square, cross, worlds, prior, race)
                    if len(alive) == 1:
                        break
            elif worlds % self.BATCH == 0 and len(alive) > 2:
                alive = self._halve(alive, total, count, prior, self.PRIOR_WEIGHT)
            if cap is not None and worlds < self.iterations and time.perf_counter() > cap[0]:
                capped = True
                break
        # the survivors have seen the same worlds; the greedy value breaks ties
        if worlds:
            w = self.PRIOR_WEIGHT
            best = max(alive, key=lambda i: (total[i] / count[i] + w * prior[i] if count[i] else -1e9, prior[i]))
        else:  # not one world fitted in the time budget
            best = order[0]
        self.decisions += 1
        self.capped += capped
        self.last_stats = {"worlds": worlds, "playouts": playouts, "candidates": len(moves), "capped": capped}
        return moves[best]

    def _fast_playout(self, state: State, rng: random.Random) -> _fast.FastState:
        """:meth:`_playout` on the fast core: the same legal moves in the same order, valued by the same policy
        (:func:`_rollout_code` reads the table, the builds -- by index -- and the båt flag of the position), the
        same draws from ``rng``, so the same playout."""
        f = _fast.from_state(state)
        eps = self.EPSILON
        t = _tables(self.rules)
        return fast_run(
            f,
            self._horizon(f.deal_no, f.left, f.players),
            lambda pos, codes, seat: _rollout_code(pos, codes, rng, eps, t, f.hands[seat]),
        )

    def _outcome(self, after: State | _fast.FastState, t: _Tables) -> list[float]:
        """Each side's value of a playout's end position: its round points so far (:func:`_side_points`); a
        subclass may add what the position promises (:mod:`kortbord.bots.mulle_expert`)."""
        return _side_points(after, t)

    def _sample(self, view: View, rng: random.Random) -> State:
        """One sampled world consistent with ``view`` (``SPEC.sample``: card counting and the reserve rule); a
        subclass may add what else the play has shown (:mod:`kortbord.bots.mulle_expert`)."""
        return SPEC.sample(view, rng)

    def _horizon(self, deal_no: int, left: int, players: int) -> int:
        """The last deal a playout plays (it stops when that deal ends, or earlier at the round's end): the
        current deal ``deal_no``, or the next one when fewer than :attr:`EXTEND` cards per player (``left`` cards
        in all hands, ``players`` seats) remain."""
        return deal_no + 1 if left < self.EXTEND * players else deal_no

    @staticmethod
    def _halve(
        alive: list[int], total: list[float], count: list[int], prior: list[float], weight: float = 0.0
    ) -> list[int]:
        """Keep the better half (at least two) of ``alive`` by mean outcome (plus ``weight`` times the greedy
        value), greedy value breaking ties."""
        ranked = sorted(
            alive, key=lambda i: (-(total[i] / count[i] + weight * prior[i]) if count[i] else 1e9, -prior[i])
        )
        return ranked[: max(2, (len(ranked) + 1) // 2)]

    @staticmethod
    def _race(
        alive: list[int],
        total: list[float],
        square: list[float],
        cross: list[list[float]],
        n: int,
        prior: list[float],
        z: float,
    ) -> list[int]:
        """The candidates of ``alive`` (each seen in the same ``n`` worlds) not shown worse than the leader: the
        leader (best mean, greedy value breaking ties) and every candidate whose paired difference from it (sums
        ``total``, ``square`` and the pair's ``cross`` product sum, ``cross[min][max]``) is at most ``z`` standard
        errors above 0.  Order kept."""
        top = max(alive, key=lambda i: (total[i], prior[i]))
        keep = []
        for i in alive:
            if i == top:
                keep.append(i)
                continue
            c = cross[i][top] if i < top else cross[top][i]
            d = total[top] - total[i]
            dd = square[top] + square[i] - 2.0 * c  # the sum of the squared per-world differences
            var = max(0.0, (dd - d * d / n) / (n - 1))
            if d / n <= z * (var / n) ** 0.5:
                keep.append(i)
        return keep

    def _playout(self, state: State, rng: random.Random) -> State | _fast.FastState:
        """Play ``state`` on with :func:`rollout_policy` to the end of the current deal (or of the next one when
        few cards of this deal remain; to the round's end in the last deal).  Returns the position reached: an
        engine State, or a fast-core position (:func:`_side_points` reads either)."""
        if state.phase != "play":
            return state
        if self.fast_playouts and not state.partial and _fast.supports(state.rules):
            return self._fast_playout(state, rng)
        remaining = sum(state.hand_size(s) for s in range(state.players))
        horizon = self._horizon(state.deal_no, remaining, state.players)
        eps = self.EPSILON
        t = _tables(self.rules)
        # the fast path (move codes, no move values, no events): the same moves in the same order as
        # engine.legal_moves, so the same choices as rollout_policy on them
        while state.phase == "play" and state.deal_no <= horizon:
            assert state.to_move is not None
            code = _rollout_code(state, legal_codes(state), rng, eps, t, state._hands[state.to_move])
            state = apply_code(state, code)
        return state
