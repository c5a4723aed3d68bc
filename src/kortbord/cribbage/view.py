"""What one seat may know: :func:`view` (engine API), the one public face of a Cribbage state.

A :class:`View` holds the seat's own hand and own discards, the public table (every card laid in the play, the
current count, the starter once cut, the cut for deal), the crib only while it is face up (spec §2.10 M10: counted
under Muggins), the *sizes* of the other hands, the stock's size, the scores, the phase, whose turn it is, the
Muggins count under way (its cards, which every player has seen laid, and the announced number -- never the true
value before settlement, M9) and the legal moves when it is the seat's turn.  It never holds another seat's hand
or discards, the crib before it is shown, or the stock order.

``view(state, None)`` is the spectator's view: built from the public fields only (an allow-list; no hand, no
discards, no legal moves, ``seat`` ``None``).  :func:`sample` goes the other way: a full state consistent with a
view, every card the view does not show dealt at random (the one sampler of unseen cards, used by the strong bot
and the research resampler through ``kortbord.cribbage.SPEC``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, overload

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage import muggins as _mug
from kortbord.cribbage.moves import Move
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import card_value
from kortbord.cribbage.state import CUT, DEAL, DISCARD, OVER, PHASE_NAMES, PLAY, SHOW, Result, State
from kortbord.errors import InvalidPositionError, SeatError

__all__ = ["PublicView", "Sampler", "View", "go_rooms", "sample", "view"]


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at the table may know, the spectator included: ``view(state, None)`` (module docstring).

    Its ``seat`` is ``None`` and its ``hand``, ``discards`` and ``legal_moves`` are empty; a seat's :class:`View`
    adds them.

    Attributes:
        rules: the game's rules.
        phase: ``cut``, ``deal``, ``discard``, ``play``, ``show`` (Muggins) or ``over``.
        dealer: the dealer's seat, ``None`` before the cut for deal.
        to_act: the seat to decide, ``None`` at a chance node or the end.
        scores: points per seat; side_scores: points per side (partners added).
        hand_sizes: the number of cards each seat holds.
        played: every card laid in this deal's play, in order, as ``(seat, card)``.
        sequence: the cards of the current count; count: its total (0..31).
        passed: seats that said go in the current count; last: the seat that laid the last card, or ``None``.
        starter: the starter once cut, else ``None``.
        crib: the crib's cards while face up, else ``None``; crib_size: how many cards it holds.
        stock_size: cards left in the pack.
        cuts: the cards of the last cut for deal, seat 0 first.
        counting: Muggins show: the seat counting (``None`` outside it); counting_crib: it is the crib;
            counting_cards: the hand or crib being counted; announced: the number announced, or ``None``.
        deal_number: 1 for the first deal.
        result: the game's result once over, else ``None``.
    """

    rules: Rules
    phase: str
    dealer: int | None
    to_act: int | None
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[tuple[int, Card], ...]
    sequence: tuple[Card, ...]
    count: int
    passed: tuple[int, ...]
    last: int | None
    starter: Card | None
    crib: tuple[Card, ...] | None
    crib_size: int
    stock_size: int
    cuts: tuple[Card, ...]
    counting: int | None
    counting_crib: bool
    counting_cards: tuple[Card, ...]
    announced: int | None
    deal_number: int
    result: Result | None

    @property
    def seat(self) -> int | None:
        """``None``: the view of no seat."""
        return None

    @property
    def hand(self) -> tuple[Card, ...]:
        """``()``: no hand is public."""
        return ()

    @property
    def discards(self) -> tuple[Card, ...]:
        """``()``: no discard is public."""
        return ()

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """``()``: a spectator has no moves."""
        return ()

    @property
    def players(self) -> int:
        """Number of players."""
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        """The viewing seat is to act (never for a spectator)."""
        return self.seat is not None and self.to_act == self.seat

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON-ready dict: cards and moves in notation, seats as ints (``"seat": null`` and empty
        ``hand``, ``discards`` and ``legal_moves`` for a spectator)."""

        def cards(cs: tuple[Card, ...] | None) -> list[str] | None:
            return None if cs is None else [str(c) for c in cs]

        return {
            "game": "cribbage",
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "notices": list(self.rules.notices),
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "scores": list(self.scores),
            "side_scores": list(self.side_scores),
            "seat_sides": [self.rules.side_of(s) for s in range(self.rules.players)],
            "target": self.rules.target,
            "hand": cards(self.hand),
            "discards": cards(self.discards),
            "hand_sizes": list(self.hand_sizes),
            "played": [[s, str(c)] for s, c in self.played],
            "sequence": cards(self.sequence),
            "count": self.count,
            "passed": list(self.passed),
            "last": self.last,
            "starter": None if self.starter is None else str(self.starter),
            "crib": cards(self.crib),
            "crib_size": self.crib_size,
            "stock_size": self.stock_size,
            "cuts": cards(self.cuts),
            "counting": self.counting,
            "counting_crib": self.counting_crib,
            "counting_cards": cards(self.counting_cards),
            "announced": self.announced,
            "deal_number": self.deal_number,
            "legal_moves": [str(m) for m in self.legal_moves],
            "result": None if self.result is None else self.result.to_json(),
        }


@dataclass(frozen=True, slots=True)
class View(PublicView):
    """One seat's knowledge of the game: the :class:`PublicView` plus what is the seat's own.

    Attributes:
        seat: the viewing seat (0-based).
        hand: the seat's own cards still held (canonical order).
        discards: the seat's own cards laid away to this deal's crib.
        legal_moves: the seat's legal moves if it is to act, else empty.
        (the public fields: see :class:`PublicView`)
    """

    seat: int  # a seat's view narrows the spectator's None to the seat
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    legal_moves: tuple[Move, ...]


@overload
def view(state: State, seat: int) -> View: ...
@overload
def view(state: State, seat: None) -> PublicView: ...
def view(state: State, seat: int | None) -> PublicView:
    """What ``seat`` may know of ``state`` (engine API ``view``); ``seat=None`` is the spectator's view.

    The spectator's :class:`PublicView` is built from the public fields only (an allow-list): the table, the
    counts, the sizes of the hands, the scores.  A seat's :class:`View` is the same public fields plus its own
    hand, its own discards and its legal moves.

    Raises:
        SeatError: ``seat`` is neither ``None`` nor a seat of this game.
    """
    rules = state.rules
    n = rules.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise SeatError(f"no seat {seat!r} in a {n}-player game (seats 0..{n - 1})")
    phase = state.phase
    kept = state._kept
    counting: int | None = None
    counting_cards: tuple[Card, ...] = ()
    counting_crib = False
    if phase == SHOW:
        counting_crib = state.show_index == n
        counting = _mug.counter_of(rules, state.dealer, state.show_index)
        counting_cards = state._crib if counting_crib else kept[counting]
    played = state.played
    if played:
        owner = {c: s for s in range(n) for c in kept[s]}
        seats_played = tuple((owner[c], c) for c in played)
    else:
        seats_played = ()
    to_act = engine.to_act(state)
    public: dict[str, Any] = {
        "rules": rules,
        "phase": PHASE_NAMES[phase],
        "dealer": None if state.dealer < 0 else state.dealer,
        "to_act": to_act,
        "scores": state.scores,
        "side_scores": engine.side_scores(state),
        "hand_sizes": tuple(len(h) for h in state._hands),
        "played": seats_played,
        "sequence": state.sequence,
        "count": state.count,
        "passed": tuple(s for s in range(n) if state.passed >> s & 1),
        "last": None if state.last < 0 else state.last,
        "starter": state.starter,
        "crib": state._crib if state.crib_shown else None,
        "crib_size": len(state._crib),
        "stock_size": len(state._stock),
        "cuts": state.cuts,
        "counting": counting,
        "counting_crib": counting_crib,
        "counting_cards": counting_cards,
        "announced": None if phase != SHOW or state.announced < 0 else state.announced,
        "deal_number": state.deal_number,
        "result": engine.result(state) if phase == OVER else None,
    }
    if seat is None:
        return PublicView(**public)
    return View(
        **public,
        seat=seat,
        hand=state._hands[seat],
        discards=state._discards[seat],
        legal_moves=tuple(engine.legal_moves(state)) if to_act == seat else (),
    )


# ---------------------------------------------------------------------------------------------------------------
# Sampling: a full state consistent with a view
# ---------------------------------------------------------------------------------------------------------------

_DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
_VALUE: Final[tuple[int, ...]] = tuple(card_value(c) for c in _DECK)
_RANK1: Final[tuple[int, ...]] = tuple((c >> 2) + 1 for c in range(52))
_SEQ_MASK: Final = (1 << 28) - 1
_PHASES: Final = {name: i for i, name in enumerate(PHASE_NAMES)}


def go_rooms(v: PublicView) -> tuple[int, ...]:
    """Per seat, the largest room under 31 (``31 - count``) at which it said go in this deal's play, or -1.

    A go is public (spec §2.4 step 2: a player says go only when no card he holds fits), and the gos of a deal are
    determined by what a view shows: the turn order of the play is fixed by the hand sizes and the cards laid, so
    the play is replayed here from the cards laid in order, a seat on turn whose next card is not the next card
    laid (or does not fit) having said go, up to the view's count and the seats that said go in it.  Every card a
    seat still holds was held at each of its gos, so it counts more than the seat's room.
    """
    n = v.rules.players
    rooms = [-1] * n
    if v.dealer is None or v.starter is None or _PHASES[v.phase] == DISCARD:
        return tuple(rooms)
    sizes = list(v.hand_sizes)
    for s, _ in v.played:
        sizes[s] += 1
    after = tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
    turn = (v.dealer + 1) % n
    count = length = passed = 0
    last = -1
    over = v.phase == "over"

    def next_of(s: int) -> int:
        for t in after[s]:
            if sizes[t] and not passed >> t & 1:
                return t
        return -1

    def lead() -> int:
        for t in after[last]:
            if sizes[t]:
                return t
        return -1

    want = sum(1 << s for s in v.passed)
    final = len(v.played) - 1
    for index, (seat, card) in enumerate(v.played):
        for _ in range(2 * n + 1):
            if turn < 0 or (turn == seat and count + _VALUE[card] <= 31):
                break
            rooms[turn] = max(rooms[turn], 31 - count)  # the seat on turn said go
            passed |= 1 << turn
            turn = next_of(turn)
            if turn < 0:  # nobody can lay: the count ends (the go point) and starts again
                count = length = passed = 0
                turn = lead()
        if turn != seat:  # pragma: no cover - not a view of a real play
            return tuple(rooms)
        sizes[seat] -= 1
        count += _VALUE[card]
        length += 1
        last = seat
        if index == final and over and count == v.count and length == len(v.sequence) and passed == want:
            break  # the game may have ended on this card (the last one laid): nothing is reset
        turn = -1 if count == 31 else next_of(seat)
        if turn < 0:
            count = length = passed = 0
            turn = lead()
    to_act = -1 if v.to_act is None else v.to_act
    for _ in range(2 * n + 1):  # the gos since the last card laid
        if count == v.count and length == len(v.sequence) and passed == want and (over or turn == to_act):
            break
        if turn < 0:
            break
        rooms[turn] = max(rooms[turn], 31 - count)
        passed |= 1 << turn
        turn = next_of(turn)
        if turn < 0:
            if over and count == v.count and length == len(v.sequence) and passed == want:
                break  # the go point ended the game
            count = length = passed = 0
            turn = lead()
    return tuple(rooms)


class Sampler:
    """Full states consistent with one view: ``Sampler(v).draw(rng)``, many draws from one preparation.

    Every card the view does not show -- the other seats' hands, their discards and the crib while face down, the
    3-hand crib card from the pack, the stock -- is dealt uniformly at random among the deals consistent with the
    view and with what the play has shown: a seat that said go holds no card that fits under its room
    (:func:`go_rooms`, spec §2.4 step 2).  The state has the engine's layout of the phase (the crib in the order
    laid during the discard, sorted after it; no discards kept once the play is over).
    ``view(draw(rng), v.seat) == v`` and the 52 cards are each in exactly one place.

    Args:
        v: a view (a seat's, or the spectator's: then every hand is hidden).
        laid_away: the seat's own discards when the view no longer shows them (the engine clears the discards at
            the show): kept in the crib.  Ignored while the view shows them.
    Raises:
        InvalidPositionError: the view is not one a game can have (its hidden places do not add up).
    """

    __slots__ = ("_fixed", "_hidden", "_plan", "_pool", "_rooms", "view")

    def __init__(self, v: PublicView, *, laid_away: tuple[Card, ...] = ()) -> None:
        self.view = v
        rules = v.rules
        n = rules.players
        phase = _PHASES[v.phase]
        self._fixed: State | None = None
        self._pool: tuple[Card, ...] = ()
        self._rooms: tuple[int, ...] = ()
        self._hidden = 0
        self._plan: tuple[Any, ...] = ()
        if phase in (CUT, DEAL):  # between deals the pack is gathered in card order: nothing is hidden
            empty = ((),) * n
            self._fixed = State(
                (rules, phase, -1 if v.dealer is None else v.dealer, v.scores, empty, empty, (), _DECK, None, (), (),
                 0, -1, -1, 0, empty, -1, -1, v.cuts, -1, v.deal_number, False, 0)
            )  # fmt: skip
            return
        seat = v.seat
        d = rules.discards
        assert v.dealer is not None
        order = tuple((v.dealer + k) % n for k in range(1, n + 1))  # the discards are laid in this order
        if phase == DISCARD:
            laid = tuple(s for s in order if v.hand_sizes[s] == rules.cards_dealt - d)
        elif phase in (PLAY, OVER) and (bool(v.discards) if seat is not None else any(v.hand_sizes)):
            laid = order
        else:  # the show, or the end after it (or a position built at the play): no discards, only the crib
            laid = ()
        own = v.discards if laid or phase == DISCARD else (tuple(laid_away) if v.crib is None else ())
        seen = set(v.hand) | set(own) | {c for _, c in v.played}
        if v.starter is not None:
            seen.add(v.starter)
        if v.crib is not None:
            seen.update(v.crib)
        pool = tuple(c for c in _DECK if c not in seen)
        need = tuple(0 if s == seat else v.hand_sizes[s] for s in range(n))
        others_laid = tuple(s for s in laid if s != seat)
        extra = rules.crib_from_pack
        crib_hidden = 0 if v.crib is not None else v.crib_size - len(own)
        if laid and v.crib is None and crib_hidden != extra + d * len(others_laid):
            raise InvalidPositionError(f"the crib holds {v.crib_size} cards, not what the discards laid")
        self._hidden = sum(need)
        if len(pool) != sum(need) + crib_hidden + v.stock_size:
            raise InvalidPositionError(
                f"the view hides {len(pool)} cards but its hands, crib and stock hold "
                f"{sum(need) + crib_hidden + v.stock_size}"
            )
        rooms = go_rooms(v) if phase in (PLAY, OVER) and self._hidden else (-1,) * n
        self._rooms = rooms
        self._pool = pool
        # the most constrained seats draw first: uniform over the deals every go allows (the rooms are nested)
        draw_order = tuple(sorted((s for s in range(n) if need[s]), key=lambda s: -rooms[s]))
        played_by: list[list[Card]] = [[] for _ in range(n)]
        for s, c in v.played:
            played_by[s].append(c)
        self._plan = (n, seat, phase, need, draw_order, laid, others_laid, own, crib_hidden, extra, d,
                      tuple(tuple(p) for p in played_by))  # fmt: skip

    @property
    def hidden(self) -> int:
        """How many cards of the other seats' hands the view hides (0: the play is known exactly)."""
        return self._hidden

    def draw(self, rng: random.Random) -> State:
        """One state consistent with the view, dealt from ``rng`` (see the class docstring)."""
        if self._fixed is not None:
            return self._fixed
        v = self.view
        n, seat, phase, need, draw_order, laid, others_laid, own, crib_hidden, extra, d, played_by = self._plan
        pool = list(self._pool)
        rng.shuffle(pool)
        rooms = self._rooms
        hands: list[tuple[Card, ...]] = [()] * n
        for s in draw_order:
            k = need[s]
            room = rooms[s]
            if room < 0:
                hands[s] = tuple(sorted(pool[-k:]))
                del pool[-k:]
                continue
            taken: list[int] = []
            for i, c in enumerate(pool):  # the pool is shuffled: the first cards that do not fit are uniform
                if _VALUE[c] > room:
                    taken.append(i)
                    if len(taken) == k:
                        break
            if len(taken) < k:
                raise InvalidPositionError(f"no deal gives P{s} {k} cards that do not fit under {room}")
            hands[s] = tuple(sorted(pool[i] for i in taken))
            for i in reversed(taken):
                del pool[i]
        if seat is not None:
            hands[seat] = v.hand
        discards: list[tuple[Card, ...]] = [()] * n
        if v.crib is not None:
            crib = v.crib
        elif laid:
            from_pack = tuple(pool[-extra:]) if extra else ()
            if extra:
                del pool[-extra:]
            for s in others_laid:
                discards[s] = tuple(sorted(pool[-d:]))
                del pool[-d:]
            if seat is not None:
                discards[seat] = own
            crib = from_pack + tuple(c for s in laid for c in discards[s])
            if phase != DISCARD:
                crib = tuple(sorted(crib))
        else:
            crib = tuple(sorted(own + tuple(pool[len(pool) - crib_hidden :])))
            del pool[len(pool) - crib_hidden :]
        if phase == DISCARD:
            kept: tuple[tuple[Card, ...], ...] = ((),) * n
        else:
            kept = tuple(tuple(sorted(hands[s] + played_by[s])) for s in range(n))
        seq_key = 0
        for c in v.sequence:
            seq_key = ((seq_key << 4) | _RANK1[c]) & _SEQ_MASK
        show_index = -1
        if phase == SHOW:
            assert v.counting is not None and v.dealer is not None
            show_index = n if v.counting_crib else (v.counting - v.dealer - 1) % n
        return State(
            (v.rules, phase, v.dealer, v.scores, tuple(hands), tuple(discards), crib, tuple(pool), v.starter,
             tuple(c for _, c in v.played), v.sequence, v.count, -1 if v.to_act is None else v.to_act,
             -1 if v.last is None else v.last, sum(1 << s for s in v.passed), kept, show_index,
             -1 if v.announced is None else v.announced, v.cuts, -1 if v.result is None else v.result.reached,
             v.deal_number, v.crib is not None, seq_key)
        )  # fmt: skip


def sample(v: PublicView, rng: random.Random) -> State:
    """A full state consistent with ``v``: ``Sampler(v).draw(rng)`` (see :class:`Sampler`).

    ``view(sample(v, rng), v.seat) == v``.  Raises ``InvalidPositionError`` for a view no game can have.
    """
    return Sampler(v).draw(rng)
