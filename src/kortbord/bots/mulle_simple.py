"""Simple Mulle computer players: :class:`RandomBot` and the one-move :class:`GreedyBot`.

Both implement :class:`kortbord.bots.base.Bot`: ``choose(view, legal_moves, rng)`` sees only the seat's
:class:`~kortbord.mulle.view.View` (own hand, public table, pile and hand sizes), the legal moves and a seeded
``random.Random``.  The rules are public, so a bot is given them when it is made (the View does not carry them).

The greedy player values each legal move by one-move heuristics taken from the rules spec §7 ("notes for the
computer opponent") and seed 002's tips (``spec/seeds/002_*.txt`` §9):

* points secured now: card points of the captured cards (§2.11), mulle points (§2.8), a tabbe (§2.9);
* what the move leaves the next opponent: exactly one loose card or a table it can clear in one capture (an easy
  tabbe), a loose card whose twin is still unseen (a mulle for whoever holds it), scoring cards trailed;
* keeping lillan (2♠, hand value 15), storan (10♦, 16) and aces (14) in hand for big captures;
* builds valued by the chance of taking them in: a build it can surely take (it holds two cards of the value, or
  no unseen card has it) is worth its points, a contested one less;
* in the last deal (the båt flag) a capture may become the last capture that sweeps the table (§2.10).

Chances use card counting (spec §7): the unseen cards are the 104 cards minus the own hand, the table, the
builds and every capture pile of the round.  In Kryp-mulle (``rules.kryp``, spec §3) the whole evaluation is
negated: the bot avoids points and hands them to the others.  Equal best moves are broken with ``rng``, so a
decision is reproducible from the generator's seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from math import comb
from typing import Final

from kortbord.bots.base import Bot
from kortbord.cards import Card, full_deck
from kortbord.mulle.moves import Build, BuildDown, Capture, LayOn, Package, PlayerMove, Raise, Trail
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import card_points, mulle_points
from kortbord.mulle.state import HV, SCORING, TV
from kortbord.mulle.state import Build as TableBuild
from kortbord.mulle.view import View

__all__ = ["LEVELS", "GreedyBot", "RandomBot", "make_bot"]

#: The levels :func:`make_bot` knows.
LEVELS: Final = ("random", "greedy")

_FULL: Final = Counter(full_deck(2))
#: How much a scoring card is worth kept in hand (spec §7: hand values 14/15/16 capture big sums), in points.
_KEEP: Final = 1.5
#: Cards at most on a table whose one-capture clearance is checked exactly (partitioning is exponential).
_CLEAR_CHECK_MAX: Final = 7


def _check_view(view: object, legal_moves: object, rng: object) -> View:
    """``view`` as a :class:`View`, checked with the moves a bot is asked to choose from and its generator.

    Raises:
        TypeError: ``view`` is not a Mulle View (a bot never receives the state), ``legal_moves`` is not a list or
            tuple of Mulle moves, or ``rng`` is not a ``random.Random``.
        ValueError: ``legal_moves`` is empty, the view's seat is not to play (its View has no legal moves), or a
            move is not among the view's legal moves.
    """
    if not isinstance(view, View):
        kind = type(view)
        raise TypeError(f"a Mulle bot needs the seat's kortbord.mulle View, got {kind.__module__}.{kind.__qualname__}")
    if not isinstance(legal_moves, list | tuple):
        raise TypeError(f"legal_moves must be a list or tuple of Mulle moves, got {type(legal_moves).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
    if not legal_moves:
        raise ValueError("choose() needs at least one legal move")
    strangers = [m for m in legal_moves if not isinstance(m, _MOVE_TYPES)]
    if strangers:
        raise TypeError(f"legal_moves holds something that is not a Mulle move: {strangers[0]!r}")
    if not view.legal_moves:
        raise ValueError(f"seat {view.seat} is not to play in this view: it has no legal moves to choose from")
    allowed = set(view.legal_moves)
    bad = [m for m in legal_moves if m not in allowed]
    if bad:
        shown = ", ".join(str(m) for m in bad[:3]) + (" ..." if len(bad) > 3 else "")
        raise ValueError(f"choose() was given moves that are not legal in this view: {shown}")
    return view


#: The Mulle moves a player makes (``PlayerMove``'s members).
_MOVE_TYPES: Final = (Capture, Trail, Build, Raise, BuildDown, Package, LayOn)


class RandomBot:
    """Plays a uniformly random legal move (level ``"random"``).

    ``choose(view, legal_moves, rng)`` returns ``legal_moves[rng.randrange(len(legal_moves))]``.
    Raises TypeError if ``view`` is not a :class:`View`, ValueError if there is no legal move.
    """

    name = "random"

    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """One of ``legal_moves``, drawn with ``rng`` (see the class docstring)."""
        _check_view(view, legal_moves, rng)
        return legal_moves[rng.randrange(len(legal_moves))]


class GreedyBot:
    """One-move heuristic player (level ``"greedy"``); see the module docstring for what it values.

    Args:
        rules: the game's rules (public knowledge; default the ``standard`` profile).  ``rules.kryp`` negates the
            objective; ``rules.spade_points`` and ``rules.mulle_value`` set the points it counts.
    """

    name = "greedy"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()

    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The legal move of the highest :meth:`evaluate` value; ties broken with ``rng``.

        Raises:
            TypeError: ``view`` is not a :class:`View` (a bot never receives the state).
            ValueError: ``legal_moves`` is empty or holds a move not legal in ``view``.
        """
        view = _check_view(view, legal_moves, rng)
        scored = [(self.evaluate(view, m), i) for i, m in enumerate(legal_moves)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s >= best - 1e-9]
        return legal_moves[top[rng.randrange(len(top))] if len(top) > 1 else top[0]]

    # -- evaluation -----------------------------------------------------------------------------------------
    def evaluate(self, view: View, move: PlayerMove) -> float:
        """The heuristic value of ``move`` for the viewer, in expected points (higher is better).

        Returns:
            Points the move secures now, plus the expected value of the builds it owns afterwards, minus what
            it offers the next opponent; negated in Kryp-mulle.
        """
        ctx = _Context(view, self.rules)
        value = ctx.value(move)
        return -value if self.rules.kryp else value


class _Context:
    """What the greedy evaluation derives from one View: unseen cards, the next opponent's hand size."""

    def __init__(self, view: View, rules: Rules) -> None:
        self.view = view
        self.rules = rules
        seen = Counter(view.hand)
        seen.update(view.table)
        for b in view.builds:
            seen.update(b.cards)
        for p in view.piles:
            seen.update(p.cards)
        self.unseen = _FULL - seen
        self.n_unseen = sum(self.unseen.values())
        self.unseen_hv: Counter[int] = Counter()
        for c, k in self.unseen.items():
            self.unseen_hv[HV[c]] += k
        self.opponent = (view.seat + 1) % view.players
        self.opp_hand = view.hand_sizes[self.opponent]
        others = sum(n for s, n in enumerate(view.hand_sizes) if s != view.seat)
        self.last_play = view.stock_size == 0 and others == 0 and len(view.hand) == 1
        self.hand_hv = Counter(HV[c] for c in view.hand)

    # chance that the next opponent holds at least one of ``k`` unseen cards (hypergeometric, spec §7)
    def p_holds(self, k: int) -> float:
        n, u = self.opp_hand, self.n_unseen
        if k <= 0 or n <= 0 or u <= 0:
            return 0.0
        return 1.0 - comb(u - k, n) / comb(u, n)

    def pts(self, cards: Iterable[int]) -> float:
        return float(sum(card_points(c, self.rules) for c in cards))

    def value(self, move: PlayerMove) -> float:
        view = self.view
        x = move.card
        table = list(view.table)
        builds = {b.id: b for b in view.builds}
        gain = 0.0
        if SCORING[x]:
            gain -= _KEEP  # a scoring card leaves the hand: its capture power is gone (spec §7)
        if isinstance(move, Capture):
            got = [x, *move.loose]
            for bid in move.builds:
                got.extend(builds.pop(bid).cards)
            for c in move.loose:
                table.remove(c)
            gain += self.pts(got) + 0.05 * len(got)
            counts = Counter(got)
            for c, k in counts.items():
                gain += (k // 2) * mulle_points(c, self.rules, from_hand=c == x)
            if not table and not builds and not self.last_play:
                gain += 1.0  # tabbe
            if view.is_last_deal and not self.last_play:
                # this may be the last capture, which sweeps what is left (spec §2.10)
                rest = table + [c for b in builds.values() for c in b.cards]
                gain += 0.3 * (self.pts(rest) + 0.05 * len(rest))
            if self.last_play:
                rest = table + [c for b in builds.values() for c in b.cards]
                gain += self.pts(rest)
            return gain + self._after(table, list(builds.values()), mine={})
        if isinstance(move, Trail):
            table.append(x)
            gain -= 0.6 * card_points(x, self.rules)  # a scoring card laid out is usually taken by someone
            twin = self.unseen[x]
            if twin and not SCORING[x]:
                gain -= self.p_holds(twin) * mulle_points(x, self.rules)
            return gain + self._after(table, list(builds.values()), mine={})
        # build moves: the build's new cards and value
        if isinstance(move, Build):
            for c in (*move.on, *(c for p in move.pkg for c in p)):
                table.remove(c)
            cards = [x, *move.on, *(c for p in move.pkg for c in p)]
            value, locked, bid = move.value, bool(move.pkg), "new"
        elif isinstance(move, Raise | BuildDown):
            b = builds.pop(move.build)
            cards, value, locked, bid = [*b.cards, x], move.value, False, b.id
            gain += 0.5 * self._build_worth(b.cards, b.value, locked=b.locked) if b.owner != view.seat else 0.0
        elif isinstance(move, Package):
            b = builds.pop(move.build)
            for c in (*move.loose, *(c for p in move.pkg for c in p)):
                table.remove(c)
            cards = [*b.cards, x, *move.loose, *(c for p in move.pkg for c in p)]
            value, locked, bid = b.value, True, b.id
        else:
            assert isinstance(move, LayOn)
            b = builds.pop(move.build)
            cards, value, locked, bid = [*b.cards, x], b.value, True, b.id
        # one build per value: an equal build merges into this one
        for other in [o for o in builds.values() if o.value == value]:
            cards.extend(other.cards)
            locked = True
            del builds[other.id]
        gain += self._build_worth(cards, value, locked=locked, mine=True)
        return gain + self._after(table, list(builds.values()), mine={bid: (cards, value)})

    def _build_worth(self, cards: Sequence[int], value: int, *, locked: bool, mine: bool = False) -> float:
        """Expected points of taking a build of ``cards`` worth ``value`` that the viewer holds a card for."""
        reserves = [c for c in self.view.hand if HV[c] == value]
        mulle = 0.0
        if mine and reserves:
            mulle = max(float(mulle_points(r, self.rules)) if r in cards else 0.0 for r in reserves)
        counts = Counter(cards)
        mulle += sum((k // 2) * mulle_points(c, self.rules, from_hand=False) for c, k in counts.items())
        worth = self.pts(cards) + mulle + 0.05 * len(cards)
        # "surely take": two cards of the value in hand, or no unseen card of it
        p_lose = 0.0 if len(reserves) >= 2 else self.p_holds(self.unseen_hv[value])
        if not locked:  # an open build may also be raised or built down by the opponent
            p_lose = min(1.0, p_lose + 0.15)
        return worth * (0.8 * (1.0 - p_lose) - p_lose)

    def _after(self, table: list[Card], builds: list[TableBuild], mine: dict[str, tuple[list[Card], int]]) -> float:
        """Penalty for what the table offers the next opponent after the move (a tabbe, in points)."""
        if self.last_play or self.opp_hand == 0:
            return 0.0
        values = [TV[c] for c in table]
        build_values = [b.value for b in builds] + [v for _, v in mine.values()]
        units = len(values) + len(build_values)
        if units == 0 or units > _CLEAR_CHECK_MAX:
            return 0.0
        clear = [h for h in range(2, 17) if _clearable(values, build_values, h)]
        if not clear:
            return 0.0
        k = sum(self.unseen_hv[h] for h in clear)
        at_stake = 1.0 + self.pts(table) + sum(self.pts(cs) for cs, _ in mine.values())
        if units == 1:
            at_stake += 0.5  # exactly one loose card: the classic tabbe invitation (seed 002 §9)
        return -self.p_holds(k) * at_stake


def _clearable(values: list[int], build_values: list[int], h: int) -> bool:
    """Whether one capture with hand value ``h`` takes the whole table: every build is worth ``h`` and the
    loose table values split into groups worth ``h`` each (spec §2.6 M1)."""
    if any(v != h for v in build_values):
        return False
    if not values:
        return bool(build_values)
    if sum(values) % h:
        return False
    return _partition(sorted(values, reverse=True), h)


def _partition(values: list[int], h: int) -> bool:
    if not values:
        return True
    first, rest = values[0], values[1:]
    need = h - first
    if need == 0:
        return _partition(rest, h)
    # choose a subset of ``rest`` adding up to ``need`` that goes with ``first``
    for mask in range(1, 1 << len(rest)):
        if sum(v for i, v in enumerate(rest) if mask >> i & 1) == need and _partition(
            [v for i, v in enumerate(rest) if not mask >> i & 1], h
        ):
            return True
    return False


def make_bot(level: str, rules: Rules | None = None) -> Bot[PlayerMove]:
    """A Mulle bot of ``level`` (one of :data:`LEVELS`: ``"random"``, ``"greedy"``) for a game under ``rules``.

    Raises:
        ValueError: unknown level.
    """
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot(rules)
    raise ValueError(f"unknown Mulle bot level {level!r}; choose one of {', '.join(LEVELS)}")
