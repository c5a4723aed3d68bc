"""What one seat may know: :func:`view` (engine API), the one public face of a Cribbage state.

A :class:`View` holds the seat's own hand and own discards, the public table (every card laid in the play, the
current count, the starter once cut, the cut for deal), the crib only while it is face up (spec §2.10 M10: counted
under Muggins), the *sizes* of the other hands, the stock's size, the scores, the phase, whose turn it is, the
Muggins count under way (its cards, which every player has seen laid, and the announced number -- never the true
value before settlement, M9) and the legal moves when it is the seat's turn.  It never holds another seat's hand
or discards, the crib before it is shown, or the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage import muggins as _mug
from kortbord.cribbage.moves import Move
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import OVER, PHASE_NAMES, SHOW, Result, State
from kortbord.errors import SeatError

__all__ = ["View", "view"]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of the game (see the module docstring).

    Attributes:
        seat: the viewing seat (0-based).
        rules: the game's rules.
        phase: ``cut``, ``deal``, ``discard``, ``play``, ``show`` (Muggins) or ``over``.
        dealer: the dealer's seat, ``None`` before the cut for deal.
        to_act: the seat to decide, ``None`` at a chance node or the end.
        scores: points per seat; side_scores: points per side (partners added).
        hand: the seat's own cards still held (canonical order).
        discards: the seat's own cards laid away to this deal's crib.
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
        legal_moves: the seat's legal moves if it is to act, else empty.
        result: the game's result once over, else ``None``.
    """

    seat: int
    rules: Rules
    phase: str
    dealer: int | None
    to_act: int | None
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
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
    legal_moves: tuple[Move, ...]
    result: Result | None

    @property
    def players(self) -> int:
        """Number of players."""
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        """The viewing seat is to act."""
        return self.to_act == self.seat

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON-ready dict: cards and moves in notation, seats as ints."""

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


def view(state: State, seat: int) -> View:
    """What ``seat`` may know of ``state`` (engine API ``view``).

    Raises:
        SeatError: ``seat`` is not a seat of this game.
    """
    rules = state.rules
    n = rules.players
    if type(seat) is not int or not 0 <= seat < n:
        raise SeatError(f"no seat {seat!r} in a {n}-player game (seats 0..{n - 1})")
    phase = state.phase
    hands = state._hands
    kept = state._kept
    owner = {c: s for s in range(n) for c in kept[s]}
    counting: int | None = None
    counting_cards: tuple[Card, ...] = ()
    counting_crib = False
    if phase == SHOW:
        counting_crib = state.show_index == n
        counting = _mug.counter_of(rules, state.dealer, state.show_index)
        counting_cards = state._crib if counting_crib else kept[counting]
    crib_visible = state.crib_shown
    to_act = engine.to_act(state)
    return View(
        seat=seat,
        rules=rules,
        phase=PHASE_NAMES[phase],
        dealer=None if state.dealer < 0 else state.dealer,
        to_act=to_act,
        scores=state.scores,
        side_scores=engine.side_scores(state),
        hand=hands[seat],
        discards=state._discards[seat],
        hand_sizes=tuple(len(h) for h in hands),
        played=tuple((owner[c], c) for c in state.played),
        sequence=state.sequence,
        count=state.count,
        passed=tuple(s for s in range(n) if state.passed >> s & 1),
        last=None if state.last < 0 else state.last,
        starter=state.starter,
        crib=state._crib if crib_visible else None,
        crib_size=len(state._crib),
        stock_size=len(state._stock),
        cuts=state.cuts,
        counting=counting,
        counting_crib=counting_crib,
        counting_cards=counting_cards,
        announced=None if phase != SHOW or state.announced < 0 else state.announced,
        deal_number=state.deal_number,
        legal_moves=tuple(engine.legal_moves(state)) if to_act == seat else (),
        result=engine.result(state) if phase == OVER else None,
    )
