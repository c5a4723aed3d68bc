"""What one seat may know (engine API ``view``; DEVELOPERS.md: no hidden card ever leaves the engine).

A :class:`View` holds the seat's own hand, the public table, builds, capture piles (every captured card was face
up when it was taken), the *sizes* of the other hands and of the stock, scores, the deal counter and the båt flag,
and the seat's legal moves when it is to play.  Never another hand, never the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kortbord.cards import Card
from kortbord.errors import SeatError
from kortbord.mulle import engine
from kortbord.mulle.moves import PlayerMove
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import Build, PileInfo, State

__all__ = ["View", "view"]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a game.

    Attributes:
        seat: the viewer (0-based); players, teams, phase ("deal"/"play"/"over"), dealer, round_no.
        hand: the viewer's own cards, sorted.
        hand_sizes: number of cards in each seat's hand.
        stock_size: undealt cards.  deal_no, deals_total, is_last_deal (the båt flag).
        table: loose cards; builds: the builds (public).
        piles: each side's captured cards, mulles ``(card, points)`` and tabbes in this round.
        scores: game totals per side before this round.  last_capturer: seat or None.
        to_move: the seat to play or None.  legal_moves: the viewer's legal moves when it is to play, else ().
        round_log: per finished round, the breakdown per side.  winners: when over.
        rules: the game's rules (public: agreed before the first deal, mulle.md §3 "local build rules").
    """

    seat: int
    players: int
    teams: bool
    phase: str
    dealer: int | None
    round_no: int
    hand: tuple[Card, ...]
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
    legal_moves: tuple[PlayerMove, ...]
    round_log: tuple[tuple[dict[str, Any], ...], ...]
    winners: tuple[int, ...] | None
    rules: Rules

    @property
    def side(self) -> int:
        """The viewer's scoring side."""
        return self.seat % 2 if self.teams else self.seat

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards in notation, builds as in the position format of spec §5.3)."""
        return {
            "seat": self.seat,
            "players": self.players,
            "teams": self.teams,
            "phase": self.phase,
            "dealer": self.dealer,
            "round": self.round_no,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "deal_no": self.deal_no,
            "deals_total": self.deals_total,
            "is_last_deal": self.is_last_deal,
            "table": [str(c) for c in self.table],
            "builds": [
                {"id": b.id, "cards": [str(c) for c in b.cards], "value": b.value, "owner": b.owner, "locked": b.locked}
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
            "legal_moves": [str(m) for m in self.legal_moves],
            "round_log": [list(r) for r in self.round_log],
            "winners": None if self.winners is None else list(self.winners),
            "rules": self.rules.to_dict(),
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
        players=state.players,
        teams=state.teams,
        phase=state.phase,
        dealer=state.dealer,
        round_no=state.round_no,
        hand=state._hands[seat],
        hand_sizes=tuple(len(h) for h in state._hands),
        stock_size=len(state._stock),
        deal_no=state.deal_no,
        deals_total=state.deals_total,
        is_last_deal=state.is_last_deal,
        table=state.table,
        builds=state.builds,
        piles=state.piles,
        scores=state.scores,
        last_capturer=state.last_capturer,
        to_move=engine.to_act(state),
        legal_moves=tuple(engine.legal_moves(state)) if mine else (),
        round_log=state.round_log,
        winners=state.winners,
        rules=state.rules,
    )
