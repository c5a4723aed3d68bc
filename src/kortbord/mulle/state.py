"""The Mulle game state: an immutable value of tuples (engine API; rules spec §2.5 table model).

Hidden parts are private by name: ``_hands`` (each seat's cards) and ``_stock`` (the undealt cards in dealing
order).  Clients never read them; they use :func:`kortbord.mulle.view.view`, which gives a seat its own hand
and only the sizes of the others.

Card values (spec §2.1) live here as tables indexed by ``int(card)``: :data:`TV` (table value), :data:`HV` (hand
value: ace 14, 2♠ 15, 10♦ 16) and :data:`SCORING` (the three cards with a different hand value).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from kortbord import contract as _contract
from kortbord.cards import Card
from kortbord.mulle.rules import Rules

__all__ = ["HV", "LILLAN", "SCORING", "STORAN", "TV", "Build", "PileInfo", "Reason", "State", "side_of"]

#: 2♠ "lillan" and 10♦ "storan" (spec §2.1).
LILLAN: Final = Card.parse("2S")
STORAN: Final = Card.parse("TD")
#: Table value of each card index: pips, J 11, Q 12, K 13, ace 1 (spec §2.1).
TV: Final[tuple[int, ...]] = tuple(i // 4 + 1 for i in range(52))
#: Hand value (capturing / the value you hold): as TV but ace 14, 2♠ 15, 10♦ 16 (spec §2.1).
HV: Final[tuple[int, ...]] = tuple(
    14 if i // 4 == 0 else 15 if i == int(LILLAN) else 16 if i == int(STORAN) else i // 4 + 1 for i in range(52)
)
#: The "scoring cards" of the build restriction D6: every ace, 2♠ and 10♦ (spec §2.1).
SCORING: Final[tuple[bool, ...]] = tuple(HV[i] != TV[i] for i in range(52))


@dataclass(frozen=True, slots=True)
class Build:
    """A build on the table (spec §2.5): one unit of ``cards`` worth ``value`` (2..16).

    Attributes:
        id: ``"B1"``, ``"B2"`` ... numbered in the order builds are created within a round.
        cards: every card in the build, sorted.
        value: the announced value; fixed until raised or built down.
        owner: the seat (0-based) that last created or changed it.
        locked: True after packaging, ligger or a merge; a locked build is never raised or built down.
        co_owners: earlier owners still bound by the trail ban (only with ``ownership="co"``).
    """

    id: str
    cards: tuple[Card, ...]
    value: int
    owner: int
    locked: bool = False
    co_owners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PileInfo:
    """One side's (player's or team's) capture pile in the current round (spec §2.8-§2.11).

    Attributes:
        cards: every captured card (in capture order).
        mulles: ``(card, points)`` of each mulle, one entry per mulle (in capture order).
        tabbar: the number of tabbes.
    """

    cards: tuple[Card, ...] = ()
    mulles: tuple[tuple[Card, int], ...] = ()
    tabbar: int = 0


@dataclass(frozen=True, eq=True)
class State:
    """A Mulle game at one moment.  Build with :func:`kortbord.mulle.engine.new_game`,
    :func:`kortbord.mulle.position.position` or :func:`kortbord.mulle.position.load_position`; advance with
    ``engine.apply``/``engine.step``.

    Public attributes:
        rules, players (2..4), teams (4 players as P1+P3 vs P2+P4).
        phase: ``"deal"`` (a chance node: the next step is a Shuffle), ``"play"`` or ``"over"``.
        dealer: the dealer's seat, or None before the first shuffle chose one.
        round_no: 1-based round counter (0 before the first shuffle).
        to_move: the seat to play, or None.
        table: the loose table cards, sorted.
        builds: the builds, in id order.
        piles: one PileInfo per side (sides are teams 0/1 with teams, else seats).
        scores: game totals per side before the current round.
        last_capturer: seat of the last capture this round, or None.
        deal_no, deals_total: the current deal (1-based) and the number of deals in the round.
        is_last_deal: the "båt" flag (spec §2.3): the current deal is the last one of the round.
        next_build: number for the next build id.
        round_log: per finished round, each side's score breakdown (JSON-ready dicts).
        partial: a position loaded without every hand/stock (spec §5.3); then ``last_play_flag`` says whether
            the next card is the last of the round and the turn simply passes on.
        winners: when over, the winning sides (empty tuple = a draw).
    """

    rules: Rules
    players: int
    teams: bool
    phase: str
    dealer: int | None
    round_no: int
    to_move: int | None
    table: tuple[Card, ...]
    builds: tuple[Build, ...]
    piles: tuple[PileInfo, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    deal_no: int
    deals_total: int
    is_last_deal: bool
    next_build: int
    _hands: tuple[tuple[Card, ...], ...]
    _stock: tuple[Card, ...]
    round_log: tuple[tuple[dict[str, object], ...], ...] = ()
    partial: bool = False
    last_play_flag: bool = False
    winners: tuple[int, ...] | None = None
    _cache: dict[str, object] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def phase_name(self) -> str:
        """The phase as both games name it: ``"deal"``, ``"play"`` or ``"over"`` (Cribbage also has ``"cut"``,
        ``"discard"`` and ``"show"``)."""
        return self.phase

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 with teams, else the number of players."""
        return 2 if self.teams else self.players

    def side(self, seat: int) -> int:
        """The scoring side of ``seat`` (its team with teams, else the seat itself)."""
        return seat % 2 if self.teams else seat

    def hand_size(self, seat: int) -> int:
        """Number of cards in ``seat``'s hand (public)."""
        return len(self._hands[seat])

    @property
    def stock_size(self) -> int:
        """Number of undealt cards (public)."""
        return len(self._stock)

    def __hash__(self) -> int:
        return hash((self._hands, self._stock, self.table, self.builds, self.to_move, self.phase, self.round_no))

    def __repr__(self) -> str:
        """Public facts only: the hands and the stock by size, never their cards (a log line must not leak them)."""
        hands = [len(h) for h in self._hands]
        return (
            f"State(players={self.players}, teams={self.teams}, phase={self.phase!r}, dealer={self.dealer}, "
            f"round_no={self.round_no}, deal={self.deal_no}/{self.deals_total}, to_move={self.to_move}, "
            f"table=({' '.join(map(str, self.table))}), builds={len(self.builds)}, scores={self.scores}, "
            f"hand_sizes={hands}, stock_size={len(self._stock)})"
        )

    def _evolve(self, changes: dict[str, Any]) -> State:
        """A copy with ``changes`` (field name -> value) and a fresh ``_cache``: ``dataclasses.replace`` for the
        engine's hot paths, without re-running ``__init__`` (the engine only passes values of the right types).

        State keeps its fields in an instance ``__dict__`` (no ``__slots__``) so that this is one dict copy.
        """
        d = self.__dict__.copy()
        d.update(changes)
        d["_cache"] = {}
        new = _new_object(State)
        _set_attr(new, "__dict__", d)
        return new


_new_object: Final = object.__new__
_set_attr: Final = object.__setattr__


def side_of(teams: bool, seat: int) -> int:
    """The scoring side of ``seat`` (team index ``seat % 2`` with teams, else the seat)."""
    return seat % 2 if teams else seat


@dataclass(frozen=True, slots=True, eq=False)
class Reason(_contract.Reason):
    """A Mulle illegal-move reason: :class:`kortbord.contract.Reason` whose words are in the
    mulle catalogue (``kortbord/i18n/mulle.json``)."""

    game: str = field(default="mulle", compare=False)
