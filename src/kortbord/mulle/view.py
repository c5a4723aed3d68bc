"""What one seat may know, what a spectator may know, and the one sampler of the cards a seat has not seen
(engine API ``view``/``sample``; DEVELOPERS.md: no hidden card ever leaves the engine).

A :class:`View` holds the seat's own hand, the public table, builds, capture piles (every captured card was face
up when it was taken), the *sizes* of the other hands and of the stock, scores, the deal counter and the båt flag,
and the seat's legal moves when it is to play.  Never another hand, never the stock order.

A :class:`PublicView` (the spectator's, ``view(state, None)`` of the game spec) is built field by field from the
public facts only (an allow-list): it has no hand, no legal moves and no seat.  A seat's View is a PublicView plus
the seat, its hand and its legal moves.

:func:`sample_state` is the inverse: a full State consistent with a seat's View, the unseen cards (the two-pack
multiset minus everything the seat has seen, :func:`unseen_cards`) dealt at random to the other hands and the
stock, honouring what the rules reveal about a hand (the reserve rule, spec §2.6: a build's owner holds a card of
its value) and any further facts a caller proved from the play (research's capture-duty inferences).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kortbord.cards import Card
from kortbord.errors import SeatError
from kortbord.mulle import checks, engine
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import Build, PileInfo, State, side_of

__all__ = [
    "Known",
    "PublicView",
    "View",
    "public_view",
    "reserve_facts",
    "sample_hidden",
    "sample_state",
    "unseen_cards",
    "view",
]

#: What the play has proved about the cards seats hold now, per seat: ``(allowed, required)`` -- every card the
#: seat holds is in ``allowed`` (None: any card), and for each set in ``required`` the seat holds at least one
#: card of it.
Known = Mapping[int, tuple[frozenset[Card] | None, Sequence[frozenset[Card]]]]

_CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
#: How many tries :func:`sample_state` makes to meet every required card before it gives up.
_TRIES: Final = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicView:
    """What everyone at the table may know of a game (the spectator's view).

    Attributes:
        players, teams, phase ("deal"/"play"/"over"), dealer, round_no.
        hand_sizes: number of cards in each seat's hand.
        stock_size: undealt cards.  deal_no, deals_total, is_last_deal (the båt flag, spec §2.3).
        table: loose cards; builds: the builds (public, with their owners and co-owners).
        piles: each side's captured cards, mulles ``(card, points)`` and tabbes in this round.
        scores: game totals per side before this round.  last_capturer: seat or None.
        to_move: the seat to play or None.
        round_log: per finished round, the breakdown per side.  winners: when over.
        rules: the game's rules (public: agreed before the first deal, mulle.md §3 "local build rules").
        next_build: the number of the next build's id (``B<n>``; every build ever made this round was seen).
        partial: a position loaded without every hand and the stock (spec §5.3); then ``last_play`` says whether
            the next card played is the round's last.
    """

    players: int
    teams: bool
    phase: str
    dealer: int | None
    round_no: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    deal_no: int
    deals_total: int
    is_last_deal: bool
    table: tuple[Card, ...]
    builds: tuple[Build, ...]
    piles: tuple[PileInfo, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    to_move: int | None
    round_log: tuple[tuple[dict[str, Any], ...], ...]
    winners: tuple[int, ...] | None
    rules: Rules
    next_build: int = 1
    partial: bool = False
    last_play: bool = False

    @property
    def seat(self) -> int | None:
        """The viewer: None (a spectator)."""
        return None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards in notation, builds as in the position format of spec §5.3): the keys of a
        seat's view, with ``"seat": null``, an empty ``"hand"`` and empty ``"legal_moves"``."""
        return {
            "seat": None,
            "players": self.players,
            "teams": self.teams,
            "seat_sides": [side_of(self.teams, s) for s in range(self.players)],
            "phase": self.phase,
            "dealer": self.dealer,
            "round": self.round_no,
            "hand": [],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "deal_no": self.deal_no,
            "deals_total": self.deals_total,
            "is_last_deal": self.is_last_deal,
            "table": [str(c) for c in self.table],
            "builds": [
                {"id": b.id, "cards": [str(c) for c in b.cards], "value": b.value, "owner": b.owner, "locked": b.locked}
                | ({"co_owners": list(b.co_owners)} if b.co_owners else {})
                for b in self.builds
            ],
            "piles": [
                {
                    "cards": [str(c) for c in p.cards],
                    "mulle": [{"card": str(c), "points": pts} for c, pts in p.mulles],
                    "tabbe": p.tabbar,
                }
                for p in self.piles
            ],
            "scores": list(self.scores),
            "last_capturer": self.last_capturer,
            "to_move": self.to_move,
            "legal_moves": [],
            "round_log": [list(r) for r in self.round_log],
            "winners": None if self.winners is None else list(self.winners),
            "rules": self.rules.to_dict(),
            "next_build": self.next_build,
            "partial": self.partial,
            "last_play": self.last_play,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class View(PublicView):
    """One seat's knowledge of a game: the public facts (:class:`PublicView`) plus

    Attributes:
        seat: the viewer (0-based).
        hand: the viewer's own cards, sorted.
        legal_moves: the viewer's legal moves when it is to play, else ().
    """

    seat: int  # a seat's view has a seat (the spectator's PublicView.seat is None)
    hand: tuple[Card, ...]
    legal_moves: tuple[PlayerMove, ...]

    @property
    def side(self) -> int:
        """The viewer's scoring side (:func:`kortbord.mulle.state.side_of`)."""
        return side_of(self.teams, self.seat)

    def to_json(self) -> dict[str, Any]:
        """As :meth:`PublicView.to_json`, with the seat, its hand and its legal moves."""
        out = PublicView.to_json(self)
        out["seat"] = self.seat
        out["hand"] = [str(c) for c in self.hand]
        out["legal_moves"] = [str(m) for m in self.legal_moves]
        return out


def _public(state: State) -> dict[str, Any]:
    """The public fields of ``state``, one by one (the allow-list every view is built from)."""
    return {
        "players": state.players,
        "teams": state.teams,
        "phase": state.phase,
        "dealer": state.dealer,
        "round_no": state.round_no,
        "hand_sizes": tuple(len(h) for h in state._hands),
        "stock_size": len(state._stock),
        "deal_no": state.deal_no,
        "deals_total": state.deals_total,
        "is_last_deal": state.is_last_deal,
        "table": state.table,
        "builds": state.builds,
        "piles": state.piles,
        "scores": state.scores,
        "last_capturer": state.last_capturer,
        "to_move": engine.to_act(state),
        "round_log": state.round_log,
        "winners": state.winners,
        "rules": state.rules,
        "next_build": state.next_build,
        "partial": state.partial,
        "last_play": state.last_play_flag,
    }


def view(state: State, seat: int) -> View:
    """What ``seat`` may know of ``state``.

    Raises:
        SeatError: ``seat`` is not a seat of this game (0..players-1).
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise SeatError(f"no seat {seat!r} in a {state.players}-player game (seats are 0..{state.players - 1})")
    mine = state.phase == "play" and state.to_move == seat
    return View(
        seat=seat,
        hand=state._hands[seat],
        legal_moves=tuple(engine.legal_moves(state)) if mine else (),
        **_public(state),
    )


def public_view(state: State) -> PublicView:
    """What a spectator may know of ``state``: the public facts only (no hand, no legal moves, no seat)."""
    return PublicView(**_public(state))


# ----------------------------------------------------------------------------------------------- sampling
def unseen_cards(view: View) -> Counter[Card]:
    """The cards ``view``'s seat has not seen this round (spec §7: track the 104-card multiset).

    Returns:
        card -> copies (1..2): the two-pack multiset minus the own hand, the loose table cards, the cards in
        builds and every side's capture pile.  In play its total is the other hands' sizes plus the stock size
        (not in a partial position, which leaves cards out).
    """
    return Counter({_CARDS[i]: k for i, k in enumerate(_unseen_counts(view)) if k > 0})


def _unseen_counts(view: View) -> list[int]:
    """:func:`unseen_cards` as a list of copies per card index 0..51 (negative: the view shows a card more than
    twice)."""
    counts = [2] * 52
    for c in view.hand:
        counts[c] -= 1
    for c in view.table:
        counts[c] -= 1
    for b in view.builds:
        for c in b.cards:
            counts[c] -= 1
    for p in view.piles:
        for c in p.cards:
            counts[c] -= 1
    return counts


def reserve_facts(view: PublicView) -> dict[int, list[frozenset[Card]]]:
    """What the builds on the table prove about their owners' hands: :func:`kortbord.mulle.checks.reserve_proves`
    of the view's builds (the reserve rule, spec §2.6 A28)."""
    return checks.reserve_proves(view.builds, view.rules.reserve_rule)


def sample_hidden(
    view: View, rng: random.Random, known: Known | None = None
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The cards hidden from ``view.seat``, dealt at random: ``(hands, stock)``.

    The cards the seat has not seen (:func:`unseen_cards`) are shuffled with ``rng`` and dealt to the other hands
    (their public sizes, each sorted) and the stock (the rest, in the shuffled order: the dealing order of the
    later deals); ``hands[view.seat]`` is the seat's own hand.  A seat that owns a build is first given a random
    unseen card of the build's value (reserve rule, spec §2.6, :func:`reserve_facts`) when one is left, and
    ``known`` (facts the play proved, e.g. research's capture-duty inferences) restricts and requires cards the
    same way.  If no deal meets every requirement in a few tries, the requirements are dropped (the seat's view
    stays the same: it shows no other hand).  A partial position's leftover cards go nowhere.

    Args:
        view: one seat's View.
        rng: the generator every sampled card is drawn from.
        known: per seat ``(allowed, required)`` (:data:`Known`); the viewer's entry is ignored.
    Raises:
        ValueError: the view's counts are inconsistent (more hidden places than unseen cards, or fewer in a
            full position in play).
    """
    seat = view.seat
    counts = _unseen_counts(view)
    pool: list[Card] = []
    for i, k in enumerate(counts):
        if k < 0:
            raise ValueError(f"the view shows {_CARDS[i]} more than twice")
        if k:
            pool.extend((_CARDS[i],) * k)
    sizes = view.hand_sizes
    places = sum(sizes) - sizes[seat] + view.stock_size
    if places > len(pool) or (places < len(pool) and not view.partial and view.phase == "play"):
        raise ValueError(f"the view shows {len(pool)} unseen cards but {places} hidden places")
    facts: dict[int, tuple[frozenset[Card] | None, list[frozenset[Card]]]] = {}
    for s, sets in reserve_facts(view).items():
        facts[s] = (None, list(sets))
    if known:
        for s, (allowed, required) in known.items():
            base = facts.get(s, (None, []))[1]
            facts[s] = (allowed, [*base, *required])
    facts.pop(seat, None)
    hands: list[tuple[Card, ...]] | None = None
    if facts:
        for _ in range(_TRIES):
            hands = _deal_hands(pool, sizes, seat, facts, rng)
            if hands is not None:
                break
    if hands is None:
        hands = _deal_hands(pool, sizes, seat, {}, rng)
        assert hands is not None
    hands[seat] = view.hand
    return tuple(hands), tuple(pool[: view.stock_size])


def sample_state(view: View, rng: random.Random, known: Known | None = None) -> State:
    """A full State consistent with ``view``: ``view(result, view.seat)`` equals ``view`` (the engine's one
    sampler of unseen cards; ``kortbord.mulle.SPEC.sample``).

    Every public field comes from ``view``; the other hands and the stock from :func:`sample_hidden` (see there
    for ``known`` and the rules honoured).  A partial position's view gives a partial State.  Outside play
    (``phase`` ``"deal"``/``"over"``) nothing is hidden.

    Raises:
        ValueError: the view's counts are inconsistent.
    """
    hands, stock = sample_hidden(view, rng, known)
    return State(
        rules=view.rules,
        players=view.players,
        teams=view.teams,
        phase=view.phase,
        dealer=view.dealer,
        round_no=view.round_no,
        to_move=view.to_move,
        table=view.table,
        builds=view.builds,
        piles=view.piles,
        scores=view.scores,
        last_capturer=view.last_capturer,
        deal_no=view.deal_no,
        deals_total=view.deals_total,
        is_last_deal=view.is_last_deal,
        next_build=view.next_build,
        _hands=hands,
        _stock=stock,
        round_log=view.round_log,
        partial=view.partial,
        last_play_flag=view.last_play,
        winners=view.winners,
    )


def _deal_hands(
    pool: list[Card],
    sizes: tuple[int, ...],
    seat: int,
    facts: Mapping[int, tuple[frozenset[Card] | None, Sequence[frozenset[Card]]]],
    rng: random.Random,
) -> list[tuple[Card, ...]] | None:
    """Shuffle ``pool`` in place and deal every seat but ``seat`` its hand from it (``facts`` first: a random
    allowed card of each required set not yet met, then random allowed cards); what is left of ``pool`` is the
    stock.  Returns the hands (``seat``'s empty), or None when a requirement cannot be met (``pool`` then holds
    every card again, in some order)."""
    rng.shuffle(pool)
    hands: list[tuple[Card, ...]] = [()] * len(sizes)
    taken: list[Card] = []
    for s, size in enumerate(sizes):
        if s == seat or not size:
            continue
        fact = facts.get(s)
        if fact is None:
            hands[s] = tuple(sorted(pool[:size]))
            taken.extend(pool[:size])
            del pool[:size]
            continue
        allowed, required = fact
        chosen: list[Card] = []
        ok = True
        for need in required:
            if any(c in need for c in chosen):
                continue
            i = next((i for i, c in enumerate(pool) if c in need and (allowed is None or c in allowed)), -1)
            if i < 0 or len(chosen) == size:
                ok = False
                break
            chosen.append(pool.pop(i))
        if ok and len(chosen) < size:
            if allowed is None:
                k = size - len(chosen)
                chosen.extend(pool[:k])
                del pool[:k]
            else:
                i = 0
                while len(chosen) < size and i < len(pool):
                    if pool[i] in allowed:
                        chosen.append(pool.pop(i))
                    else:
                        i += 1
                ok = len(chosen) == size
        taken.extend(chosen)
        if not ok:
            pool.extend(taken)
            return None
        hands[s] = tuple(sorted(chosen))
    return hands
