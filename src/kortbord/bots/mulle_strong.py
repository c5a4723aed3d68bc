"""The strong Mulle computer player: determinised search (perfect-information Monte Carlo) over the seat's View.

:class:`StrongBot` implements :class:`kortbord.bots.base.Bot`.  It sees only its seat's
:class:`~kortbord.mulle.view.View`, the legal moves and a seeded ``random.Random``; where it needs the hidden
cards it *samples* them (rules spec §7, "notes for the computer opponent"):

1. **Card counting.**  Every card exists twice (spec §2.1), so the unseen cards are the 104-card two-pack
   multiset minus the own hand, the loose table cards, the cards in builds and every capture pile of the round
   (all captured cards were face up).  Their number equals the other hands' sizes plus the stock size.
2. **Determinisation** (:func:`sample_state`).  The unseen cards are dealt at random to the other hands (of the
   public sizes) and the stock, respecting the one thing the rules reveal about a hand: the owner of a build
   holds a card of its value (the reserve rule, spec §2.6).  The sampled world is built with the engine's public
   :func:`kortbord.mulle.position.load_position` (every hand and the stock given, so the engine deals the later
   deals from the sampled stock).
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

Modes: ``iterations=N`` samples exactly ``N`` worlds -- the choice then depends only on the View, the legal
moves and ``rng`` (reproducible; used by the tests).  Without ``iterations`` the bot samples worlds until its
``time_budget_ms`` (wall-clock) is spent: stronger on a faster machine, and the choice then depends on the
machine's speed and load (still drawn only from ``rng``, never from the clock); the first world may overrun the
budget by half of it, and if even that is not enough the greedy choice is returned.  A single legal move is
returned at once.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kortbord.bots.mulle_simple import GreedyBot
from kortbord.cards import Card, full_deck
from kortbord.mulle import engine
from kortbord.mulle.checks import hand_value_counts, holds_reserve
from kortbord.mulle.moves import Build, Capture, LayOn, Package, PlayerMove, Trail
from kortbord.mulle.position import load_position
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import card_points, mulle_points
from kortbord.mulle.state import HV, SCORING, TV, State
from kortbord.mulle.view import View
from kortbord.mulle.view import view as seat_view

__all__ = ["StrongBot", "rollout_policy", "sample_state", "unseen_cards"]

_FULL: Final = Counter(full_deck(2))
_NAMES: Final = tuple(str(Card(c)) for c in range(52))


def _name(c: int) -> str:
    return _NAMES[c]


def unseen_cards(view: View) -> Counter[int]:
    """The cards ``view``'s seat has not seen this round (spec §7: track the 104-card multiset).

    Returns:
        A Counter of card -> copies (0..2): the two-pack multiset minus the own hand, the loose table cards, the
        cards in builds and every side's capture pile.  Its total is the other hands' sizes plus the stock size.
    """
    seen: Counter[int] = Counter(view.hand)
    seen.update(view.table)
    for b in view.builds:
        seen.update(b.cards)
    for p in view.piles:
        seen.update(p.cards)
    out: Counter[int] = Counter()
    for c, k in _FULL.items():
        if k > seen[c]:
            out[c] = k - seen[c]
    return out


def sample_state(view: View, rules: Rules, rng: random.Random) -> State:
    """One determinisation: an engine State consistent with everything ``view`` shows, hidden cards sampled.

    The unseen cards (:func:`unseen_cards`) are shuffled with ``rng`` and dealt to the other seats' hands (their
    public sizes) and the stock; a seat that owns a build is first given a random unseen card of the build's
    value (the reserve rule, spec §2.6), when one exists.  Seats keep their places relative to the dealer
    (a position's ``Pk`` is ``k`` seats clockwise from the dealer, engine-api "Mulle specifics"), so the returned
    state's seat numbers equal the view's only when the view's dealer is the last seat: use the seat offset
    ``(seat - view.dealer - 1) % players``.

    Args:
        view: the viewer's View during play (phase ``"play"``).
        rules: the game's rules (public; the View does not carry them).
        rng: the generator every sampled card is drawn from.
    Returns:
        A full (non-partial) State: every hand, the stock in a sampled dealing order, the public table, builds,
        piles, scores, deal counter and båt flag; the same seat to move.
    Raises:
        ValueError: the view is not of a game in play, or its counts are inconsistent.
    """
    if view.phase != "play" or view.to_move is None or view.dealer is None:
        raise ValueError("a determinisation needs a view of a game in play")
    n = view.players
    dealer = view.dealer

    def pos(seat: int) -> int:
        return (seat - dealer - 1) % n

    unseen = unseen_cards(view)
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    hidden = sum(view.hand_sizes) - len(view.hand) + view.stock_size
    if len(pool) != hidden:
        raise ValueError(f"the view shows {len(pool)} unseen cards but {hidden} hidden places")
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[view.seat] = list(view.hand)
    # the reserve (spec §2.6, checks.holds_reserve): the owner of a build holds a card of its value
    for b in view.builds:
        o = b.owner
        if (
            o == view.seat
            or len(hands[o]) >= view.hand_sizes[o]
            or holds_reserve(hand_value_counts(hands[o]), 0, b.value)
        ):
            continue
        for i, c in enumerate(pool):
            if HV[c] == b.value:
                hands[o].append(pool.pop(i))
                break
    it = iter(pool)
    for s in range(n):
        if s != view.seat:
            while len(hands[s]) < view.hand_sizes[s]:
                hands[s].append(next(it))
    stock = list(it)
    names = [f"P{pos(s) + 1}" for s in range(n)]
    if view.teams:
        team_name = {0: "P1+P3", 1: "P2+P4"}
        side_names = [team_name[pos(side) % 2] for side in range(2)]
    else:
        side_names = names
    data: dict[str, Any] = {
        "rules": rules.to_dict(),
        "players": n,
        "teams": view.teams,
        "table": [_name(c) for c in view.table],
        "builds": [
            {
                "id": b.id,
                "cards": [_name(c) for c in b.cards],
                "value": b.value,
                "owner": names[b.owner],
                "locked": b.locked,
                **({"co_owners": [names[s] for s in b.co_owners]} if b.co_owners else {}),
            }
            for b in view.builds
        ],
        "hands": {names[s]: [_name(c) for c in hands[s]] for s in range(n)},
        "to_move": names[view.to_move],
        "last_capturer": None if view.last_capturer is None else names[view.last_capturer],
        "stock": [_name(c) for c in stock],
        "piles": {
            side_names[i]: {
                "cards": [_name(c) for c in p.cards],
                "mulle": [{"card": _name(c), "points": pts} for c, pts in p.mulles],
                "tabbe": p.tabbar,
            }
            for i, p in enumerate(view.piles)
        },
        "scores": {side_names[i]: sc for i, sc in enumerate(view.scores)},
        "deal_no": max(view.deal_no, 1),
        "deals_total": max(view.deals_total, 1),
        "is_last_deal": view.is_last_deal,
    }
    return load_position(data)


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

    ``state`` needs only ``table`` and ``builds`` (an engine State or a View)."""
    x = m.card
    pts = t.pts
    v = -1.2 if SCORING[x] else 0.0  # lillan, storan and aces capture big sums: keep them (spec §7)
    table = state.table
    builds = state.builds
    if isinstance(m, Capture):
        got = [x, *m.loose]
        if m.builds:
            for b in builds:
                if b.id in m.builds:
                    got.extend(b.cards)
        g = 0.0
        for c in got:
            g += pts[c]
        if len(set(got)) < len(got):
            for c, k in Counter(got).items():
                if k >= 2:
                    g += (k // 2) * (t.mulle_hand[c] if c == x else t.mulle_table[c])
        left = len(table) - len(m.loose) + len(builds) - len(m.builds)
        if state.is_last_deal and left:
            # this may be the last capture, which takes what is left (spec §2.10)
            g += 0.3 * (sum(pts[c] for c in table) + sum(pts[c] for b in builds for c in b.cards))
        if left == 0:
            g += 1.0  # a tabbe (the engine knows when it is the round's last play and then gives none)
        elif left == 1:
            rest = [c for c in table if c not in m.loose] or [
                c for b in builds if b.id not in m.builds for c in b.cards
            ]
            v -= 0.5 * (1.0 + sum(pts[c] for c in rest))  # a lone unit invites a tabbe
        return v + g + 0.05 * len(got) + 0.5
    if isinstance(m, Trail):
        left = len(table) + len(builds) + 1
        v -= 1.2 * pts[x] + 0.02 * TV[x]
        if x not in table and hand.count(x) < 2 and not SCORING[x]:
            v -= 0.3 * t.mulle_hand[x]  # the twin may be in the next hand: a mulle for it
        if left == 1:
            v -= 1.0
        return v
    # building moves: the builder expects to take the build in
    locks = isinstance(m, Package | LayOn)
    if isinstance(m, Build):
        cards = [x, *m.on, *(c for p in m.pkg for c in p)]
        value = m.value
    else:
        b0 = next(b for b in builds if b.id == m.build)
        cards = [*b0.cards, x]
        if isinstance(m, Package):
            cards.extend(m.loose)
            cards.extend(c for p in m.pkg for c in p)
            value = b0.value
        elif isinstance(m, LayOn):
            value = b0.value
        else:
            value = m.value
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


def _side_points(state: State, t: _Tables) -> list[float]:
    out = []
    for p in state.piles:
        cp = 0
        for c in p.cards:
            cp += t.pts[c]
        out.append(float(cp + sum(pts for _, pts in p.mulles) + p.tabbar))
    return out


class StrongBot:
    """Determinised-search Mulle player (level ``"strong"``); see the module docstring for the algorithm.

    Args:
        rules: the game's rules (public knowledge; None means the ``standard`` profile).
        time_budget_ms: wall-clock milliseconds per decision when ``iterations`` is None (default 150); the
            choice then depends on the machine's speed.
        iterations: sample exactly this many worlds per decision (reproducible from ``rng``; >= 1).
    Raises:
        ValueError: a non-positive budget or iteration count.
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

    def __init__(self, rules: Rules | None, *, time_budget_ms: float = 150.0, iterations: int | None = None) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if time_budget_ms <= 0:
            raise ValueError("time_budget_ms must be positive")
        self.rules = rules or Rules()
        self.time_budget_ms = float(time_budget_ms)
        self.iterations = iterations
        self._greedy = GreedyBot(self.rules)
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The legal move with the best mean playout outcome over sampled worlds (module docstring).

        Raises:
            TypeError: ``view`` is not a :class:`View` (a bot never receives the state).
            ValueError: ``legal_moves`` is empty.
        """
        if not isinstance(view, View):
            raise TypeError(f"a Mulle bot needs the seat's View, got {type(view).__name__}")
        if not legal_moves:
            raise ValueError("choose() needs at least one legal move")
        start = time.perf_counter()
        moves = list(dict.fromkeys(legal_moves))
        if len(moves) == 1:
            self.last_stats = {"worlds": 0, "playouts": 0}
            return moves[0]
        local = random.Random(rng.getrandbits(64))
        prior = [self._greedy.evaluate(view, m) for m in moves]
        order = sorted(range(len(moves)), key=lambda i: -prior[i])
        alive = order[: self.MAX_CANDIDATES]
        deadline = None if self.iterations is not None else start + self.time_budget_ms / 1000.0
        # the first world may run over the budget by half of it; past that the greedy choice is returned
        hard = start + 1.5 * self.time_budget_ms / 1000.0
        total = [0.0] * len(moves)
        count = [0] * len(moves)
        t = _tables(self.rules)
        sign = -1.0 if t.kryp else 1.0
        n = view.players
        assert view.dealer is not None
        me = (view.seat - view.dealer - 1) % n  # the viewer's seat in the sampled state (position seats)
        worlds = 0
        playouts = 0
        while self.iterations is None or worlds < self.iterations:
            world = sample_state(view, self.rules, local)
            my_side = world.side(me)
            base = _side_points(world, t)
            seed = local.getrandbits(64)
            by_value = {m: m for m in engine.legal_moves(world)}
            results: list[tuple[int, float]] = []
            for i in alive:
                if deadline is not None and time.perf_counter() > (deadline if worlds else hard):
                    break
                m = by_value.get(moves[i])
                if m is None:  # pragma: no cover - the mover's moves depend only on public facts and its hand
                    raise AssertionError(f"{moves[i]} is not legal in a sampled world")
                # common random numbers: every candidate is played out with the same generator seed
                after = self._playout(engine.apply(world, m), random.Random(seed))
                pts = _side_points(after, t)
                gain = [pts[s] - base[s] for s in range(len(pts))]
                own = gain[my_side]
                others = (sum(gain) - own) / (len(gain) - 1)
                results.append((i, sign * (own - others)))
            playouts += len(results)
            if len(results) < len(alive):
                break  # out of time in the middle of a world: it is not counted
            for i, value in results:
                total[i] += value
                count[i] += 1
            worlds += 1
            if worlds % self.BATCH == 0 and len(alive) > 2:
                alive = self._halve(alive, total, count, prior)
            if deadline is not None and time.perf_counter() > deadline:
                break
        # the survivors have seen the same worlds; the greedy value breaks ties
        if worlds:
            best = max(alive, key=lambda i: (total[i] / count[i] if count[i] else -1e9, prior[i]))
        else:  # not one world fitted in the time budget
            best = order[0]
        self.last_stats = {"worlds": worlds, "playouts": playouts, "candidates": len(moves)}
        return moves[best]

    @staticmethod
    def _halve(alive: list[int], total: list[float], count: list[int], prior: list[float]) -> list[int]:
        """Keep the better half (at least two) of ``alive`` by mean outcome, greedy value breaking ties."""
        ranked = sorted(alive, key=lambda i: (-(total[i] / count[i]) if count[i] else 1e9, -prior[i]))
        return ranked[: max(2, (len(ranked) + 1) // 2)]

    def _playout(self, state: State, rng: random.Random) -> State:
        """Play ``state`` on with :func:`rollout_policy` to the end of the current deal (or of the next one when
        few cards of this deal remain; to the round's end in the last deal)."""
        if state.phase != "play":
            return state
        deal = state.deal_no
        remaining = sum(state.hand_size(s) for s in range(state.players))
        horizon = deal + 1 if remaining < self.EXTEND * state.players else deal
        eps = self.EPSILON
        t = _tables(self.rules)
        while state.phase == "play" and state.deal_no <= horizon:
            moves = engine.legal_moves(state)
            state = engine.apply(state, rollout_policy(state, moves, rng, eps, t))
        return state
