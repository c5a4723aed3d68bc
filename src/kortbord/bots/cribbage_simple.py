"""Simple Cribbage computer players: :class:`RandomBot` and the one-step :class:`GreedyBot`.

Both implement :class:`kortbord.bots.base.Bot`: ``choose(view, legal_moves, rng)`` sees only the seat's
:class:`~kortbord.cribbage.view.View` (own hand and discards, the public play, the starter, the crib while face
up, the Muggins count under way without its true value), the legal moves and a seeded ``random.Random``.  The
rules travel inside the View (``view.rules``).  Equal best moves are broken with ``rng``, so every decision is
reproducible from the generator's seed.

The greedy player (rules spec ``spec/rules/cribbage.md`` §5 "AI anchors", §6 item 5, §2a):

* **discard** -- the "expected average" of the spec's §5: the mean show value (§2.5) of the four cards kept over
  every possible starter (each card not in its own hand), plus a rough value of the cards laid away when the crib
  is its side's, minus it when the crib is the opponents' (the two discards scored as a partial crib: a fifteen
  or a pair 2, each 5 one point, near ranks a run chance);
* **pegging** -- the points the card scores at once (§2.4 step 3: fifteen, 31, pairs, runs), minus the risk of
  what it offers the next player: a count of 5 or 21 (a ten-card makes 15 or 31), a pair to match, a card that
  makes 15 or 31; each risk weighted by the chance, from the unseen cards, that the next player holds the answer;
* **Lowball** (``view.rules.lowball``, §2.8): both evaluations are negated -- it avoids points and gives them away;
* **Muggins** (§2.10, §2a "Computer counting under Muggins"): it announces the true count, except that with
  probability ``miss_rate`` it overlooks one scoring group (a fifteen, a pair, nobs ...); on another player's
  count it notices a wrong announcement with probability ``catch_rate`` and then calls ``muggins`` with exactly
  the missed points or ``overcount`` on an overcount; otherwise it accepts.  With ``catch_rate=1`` its responses
  are the optimal ones of the spec's open point 5 (they never lose points).

The random player lays away and plays uniformly at random; under Muggins it counts honestly and always accepts
(a random count or call would only be noise to the person at the table).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import Final

from kortbord.bots.base import Bot
from kortbord.cards import Card, full_deck
from kortbord.cribbage.moves import Accept, Announce, Discard, Move, MugginsCall, Overcount, Play
from kortbord.cribbage.scoring import card_value, score_play, score_show, show_total
from kortbord.cribbage.view import View

__all__ = ["LEVELS", "GreedyBot", "RandomBot", "judge_plays", "make_bot", "true_count"]

#: The levels :func:`make_bot` knows.
LEVELS: Final = ("random", "greedy")

_DECK: Final = tuple(full_deck())
_TEN_CARDS: Final = 16  # tens, jacks, queens and kings in a pack


def _check_view(view: object, legal_moves: Sequence[Move]) -> View:
    if not isinstance(view, View):
        raise TypeError(f"a Cribbage bot needs the seat's View, got {type(view).__name__}")
    if not legal_moves:
        raise ValueError("choose() needs at least one legal move")
    return view


def true_count(view: View) -> int:
    """The true show value of the Muggins count under way in ``view`` (spec §2.5; the crib scores only a 5-card
    flush), computed from public cards: the counted hand or crib and the starter.

    Raises:
        ValueError: no Muggins count is under way in ``view``.
    """
    if view.counting is None or view.starter is None or len(view.counting_cards) != 4:
        raise ValueError("no Muggins count is under way in this view")
    return show_total(view.counting_cards, view.starter, view.counting_crib)


def _pick(legal_moves: Sequence[Move], scores: Sequence[float], rng: random.Random) -> Move:
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s >= best - 1e-9]
    return legal_moves[top[rng.randrange(len(top))] if len(top) > 1 else top[0]]


class RandomBot:
    """Uniformly random discards and plays (level ``"random"``); honest counts and acceptance under Muggins.

    ``choose(view, legal_moves, rng)`` returns ``legal_moves[rng.randrange(len(legal_moves))]`` in the discard
    and the play; at a Muggins count it announces :func:`true_count` and accepts any other player's count.
    Raises TypeError if ``view`` is not a :class:`View`, ValueError if there is no legal move.
    """

    name = "random"

    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """One of ``legal_moves`` (see the class docstring)."""
        view = _check_view(view, legal_moves)
        if view.phase == "show":
            if view.announced is None:
                return Announce.of(true_count(view))
            return Accept()
        return legal_moves[rng.randrange(len(legal_moves))]


class GreedyBot:
    """The one-step heuristic player (level ``"greedy"``); see the module docstring for what it values.

    Args:
        miss_rate: chance (0..1) that its own Muggins count overlooks one scoring group (default 0.1).
        catch_rate: chance (0..1) that it notices another player's wrong Muggins count (default 0.9).
    Raises:
        ValueError: a rate outside 0..1.
    """

    name = "greedy"

    def __init__(self, miss_rate: float = 0.1, catch_rate: float = 0.9) -> None:
        for label, rate in (("miss_rate", miss_rate), ("catch_rate", catch_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{label} must be between 0 and 1, got {rate!r}")
        self.miss_rate = miss_rate
        self.catch_rate = catch_rate

    def choose(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        """The legal move of the highest value for the viewer; ties broken with ``rng``.

        Raises:
            TypeError: ``view`` is not a :class:`View` (a bot never receives the state).
            ValueError: ``legal_moves`` is empty.
        """
        view = _check_view(view, legal_moves)
        if len(legal_moves) == 1:
            return legal_moves[0]
        if view.phase == "show":
            return self._muggins(view, legal_moves, rng)
        sign = -1.0 if view.rules.lowball else 1.0
        if view.phase == "discard":
            return _pick(legal_moves, [sign * self.discard_value(view, m) for m in legal_moves], rng)
        return _pick(legal_moves, [sign * self.play_value(view, m) for m in legal_moves], rng)

    # -- the discard -----------------------------------------------------------------------------------------
    def discard_value(self, view: View, move: Move) -> float:
        """Expected points of laying away ``move.cards``: the mean show value of the kept cards over every
        starter not in the own hand, plus (own side's crib) or minus (opponents' crib) :func:`crib_estimate`.

        Returns:
            Points (higher is better for the viewer in a normal game); 0 for a move that is not a discard.
        """
        if not isinstance(move, Discard):
            return 0.0
        hand = view.hand
        kept = [c for c in hand if c not in move.cards]
        if len(kept) != 4:
            return 0.0
        held = set(hand)
        starters = [c for c in _DECK if c not in held]
        mean = sum(show_total(kept, s) for s in starters) / len(starters)
        assert view.dealer is not None
        own_crib = view.rules.side_of(view.dealer) == view.rules.side_of(view.seat)
        crib = crib_estimate(move.cards)
        return mean + (crib if own_crib else -crib)

    # -- the play --------------------------------------------------------------------------------------------
    def play_value(self, view: View, move: Move) -> float:
        """Points ``move`` scores at once (spec §2.4 step 3) minus the expected points it offers the next player.

        Returns:
            Points (higher is better for the viewer in a normal game); 0 for a go.
        """
        if not isinstance(move, Play):
            return 0.0
        opp = _next_player(view)
        seen = [c.rank for c in _seen(view)]
        n = view.hand_sizes[opp] if opp is not None else 0
        return judge_plays(view.hand, seen, view.sequence, view.count, n, opp is None)[move.card.rank]

    # -- Muggins ---------------------------------------------------------------------------------------------
    def _muggins(self, view: View, legal_moves: Sequence[Move], rng: random.Random) -> Move:
        true = true_count(view)
        if view.announced is None:  # the own count: true, or with probability miss_rate one group overlooked
            assert view.starter is not None
            groups = score_show(view.counting_cards, view.starter, crib=view.counting_crib).groups
            if groups and rng.random() < self.miss_rate:
                return Announce.of(true - groups[rng.randrange(len(groups))].points)
            return Announce.of(true)
        noticed = rng.random() < self.catch_rate
        return respond(view.announced, true) if noticed else Accept()


def respond(announced: int, true: int) -> Move:
    """The optimal Muggins response (spec §2.10 open point 5, §2a): ``muggins (true - announced)`` on an
    undercount, ``overcount`` on an overcount, else ``accept``.  Points: the announced and true counts."""
    if announced < true:
        return MugginsCall.of(true - announced)
    if announced > true:
        return Overcount()
    return Accept()


def crib_estimate(cards: Sequence[Card]) -> float:
    """A rough value, in points, of ``cards`` (1 or 2) laid away to a crib: the points they already make as a
    partial crib (a fifteen 2, a pair 2), one point per 5 (fives make fifteens with the many ten-cards), and a
    run chance for near ranks (spec §5, the discard tables: 5-5, 5-T, 7-8, 2-3 are the costly tosses)."""
    value = sum(1.0 for c in cards if c.rank == 5)
    if len(cards) == 2:
        a, b = cards
        if card_value(a) + card_value(b) == 15:
            value += 2.0
        if a.rank == b.rank:
            value += 2.0
        gap = abs(a.rank - b.rank)
        if gap == 1:
            value += 1.0
        elif gap == 2:
            value += 0.5
    return value


def _seen(view: View) -> list[Card]:
    """Cards the viewer has seen besides its hand: its discards, the cards played, the starter and the crib when
    face up."""
    seen = set(view.discards) | {c for _, c in view.played}
    if view.starter is not None:
        seen.add(view.starter)
    if view.crib is not None:
        seen.update(view.crib)
    return sorted(seen - set(view.hand), key=lambda c: (c.rank, c.suit))


def judge_plays(
    held: Sequence[Card], seen: Sequence[int], seq: Sequence[Card], count: int, n: int, passed: bool
) -> dict[int, float]:
    """A sensible player's judgement of each card it may lay (two players): greedy's pegging evaluation.

    The points the card scores at once (spec §2.4 step 3), plus 0.02 a pip for laying high, minus the points it
    offers the next player -- a pair (2), a fifteen or 31 (2), a run of three (3) -- each weighted by the chance,
    hypergeometric over the cards the player has not seen, that the next player holds the answer
    (the one place of this rule: :meth:`GreedyBot.play_value`, and the strong player's opponent model,
    ``kortbord.bots.cribbage_strong``, judge with it).

    Args:
        held: the player's cards.
        seen: ranks (1..13) of the other cards it has seen: every card laid this deal and the starter.
        seq: the cards of the current count; ``count`` its total (0..31).
        n: cards the next player holds; ``passed``: there is no next player to answer (it has said go in this
            count, or no one else holds a card).
    Returns:
        ``{rank: value}`` in points for each rank of ``held`` that fits under 31 (a 31 is worth its points only).
    """
    unseen = [4] * 14  # by rank, from the player's seat: not its hand, not laid, not the starter
    for c in held:
        unseen[c.rank] -= 1
    for r in seen:
        unseen[r] -= 1
    u = 52 - len(held) - len(seen)

    def p_holds(k: int) -> float:
        if k <= 0 or n <= 0 or u <= 0:
            return 0.0
        return 1.0 - comb(u - k, n) / comb(u, n)

    values: dict[int, float] = {}
    for c in held:
        if c.rank in values or count + card_value(c) > 31:
            continue
        now = count + card_value(c)
        gain = float(score_play((*seq, c)).points)
        if now == 31:
            values[c.rank] = gain
            continue
        value = gain + 0.02 * card_value(c)
        if not passed:
            risk = 2.0 * p_holds(unseen[c.rank])
            for total in (15, 31):
                need = total - now
                if 1 <= need <= 9:
                    risk += 2.0 * p_holds(unseen[need])
                elif need == 10:
                    risk += 2.0 * p_holds(sum(unseen[10:]))
            if seq:
                lo, hi = sorted((seq[-1].rank, c.rank))
                ends = {lo - 1, hi + 1} if hi - lo == 1 else {lo + 1} if hi - lo == 2 else set()
                k = sum(unseen[r] for r in ends if 1 <= r <= 13 and now + min(r, 10) <= 31)
                risk += 3.0 * p_holds(k)
            value -= risk
        values[c.rank] = value
    return values


def _next_player(view: View) -> int | None:
    """The next seat after the viewer that still holds cards and has not said go in this count."""
    n = view.players
    for k in range(1, n):
        seat = (view.seat + k) % n
        if view.hand_sizes[seat] and seat not in view.passed:
            return seat
    return None


def make_bot(level: str, **opts: float) -> Bot[Move]:
    """A Cribbage bot of ``level`` (one of :data:`LEVELS`: ``"random"``, ``"greedy"``).

    Args:
        level: the level name.
        opts: for ``"greedy"``: ``miss_rate``, ``catch_rate`` (see :class:`GreedyBot`); ``"random"`` takes none.
    Raises:
        ValueError: an unknown level or option, or a bad rate.
    """
    if level == "random":
        if opts:
            raise ValueError(f"the random Cribbage bot takes no options, got {', '.join(opts)}")
        return RandomBot()
    if level == "greedy":
        unknown = sorted(set(opts) - {"miss_rate", "catch_rate"})
        if unknown:
            raise ValueError(f"unknown greedy bot option(s) {', '.join(unknown)}; known: miss_rate, catch_rate")
        return GreedyBot(**opts)
    raise ValueError(f"unknown Cribbage bot level {level!r}; choose one of {', '.join(LEVELS)}")
