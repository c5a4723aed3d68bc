"""The Cribbage game state: an immutable, tuple-backed value, plus the :class:`Result`; events are
:class:`kortbord.contract.Event` (re-exported here), their kinds and data listed in :mod:`kortbord.cribbage.engine`.

:class:`State` is a ``tuple`` subclass with named read-only fields (like a ``NamedTuple``, but with the hidden
parts private by name, as ``docs/engine-api.md`` asks).  It is never mutated: the engine builds a new state for
every move, and a rejected move leaves the caller's state untouched.  Being a tuple it compares, hashes and
pickles by value, and the engine unpacks it in one step (the hot path of a random playout).

Hidden fields (leading underscore) -- never shown to a seat except through :func:`kortbord.cribbage.view.view`:
``_hands`` (cards still held), ``_discards`` (each seat's cards laid away), ``_crib``, ``_stock`` (the undealt
pack, top first; the whole pack, in canonical order, between deals) and ``_kept`` (each hand as kept after the
discard, used for the show).

Every card is always in exactly one of ``_hands``, ``_crib``, ``played``, ``starter`` and ``_stock`` (52 cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from kortbord import contract as _contract
from kortbord.cards import Card, format_cards
from kortbord.contract import Event
from kortbord.cribbage.rules import Rules

__all__ = [
    "CUT",
    "DEAL",
    "DISCARD",
    "FIELDS",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "SHOW",
    "Event",
    "Reason",
    "Result",
    "State",
]

#: Phases (ints, for speed).  CUT and DEAL are chance nodes (cut for deal, shuffle); OVER is terminal.
CUT: Final = 0
DEAL: Final = 1
DISCARD: Final = 2
PLAY: Final = 3
SHOW: Final = 4  # only with Muggins: without it the show is scored automatically as the play ends
OVER: Final = 5
#: Names of the phases, indexed by phase number.
PHASE_NAMES: Final = ("cut", "deal", "discard", "play", "show", "over")

#: The state's fields, in tuple order.
FIELDS: Final = (
    "rules",
    "phase",
    "dealer",
    "scores",
    "_hands",
    "_discards",
    "_crib",
    "_stock",
    "starter",
    "played",
    "sequence",
    "count",
    "turn",
    "last",
    "passed",
    "_kept",
    "show_index",
    "announced",
    "cuts",
    "reached",
    "deal_number",
    "crib_shown",
    "seq_key",
)


class State(tuple[Any, ...]):
    """One Cribbage position (immutable). Build it with ``engine.new_game`` or ``engine.position``.

    Public fields:
        rules (Rules); phase (int, see :data:`PHASE_NAMES`); dealer (seat, -1 before the cut for deal);
        scores (points pegged by each seat; partners' points add up for their side); starter (Card or None);
        played (every card laid in this deal's play, in order -- :meth:`played_by` splits it by seat); sequence (cards laid since the last reset);
        count (0..31); turn (seat to decide, -1 at chance nodes and at the end); last (seat that laid the last
        card of this count, -1 if none); passed (bit ``1 << seat`` set for seats that said go in this count);
        show_index (Muggins show: 0..players-1 = hands from the dealer's left, ``players`` = the crib; -1 outside
        the show); announced (Muggins: the count announced for the count under way, -1 if none yet);
        cuts (the cards of the last cut for deal, seat 0 first); reached (the seat whose pegging reached the
        target, -1 while the game runs); deal_number (1 for the first deal); crib_shown (the crib is face up);
        seq_key (derived from ``sequence``: a cache key for the play scoring).
    Hidden fields: see the module docstring.
    """

    __slots__ = ()

    @property
    def rules(self) -> Rules:
        """The game's :class:`Rules`."""
        r: Rules = self[0]
        return r

    @property
    def phase(self) -> int:
        """Phase number (index into :data:`PHASE_NAMES`)."""
        return int(self[1])

    @property
    def phase_name(self) -> str:
        """Phase name: ``cut``, ``deal``, ``discard``, ``play``, ``show`` or ``over``."""
        return PHASE_NAMES[self[1]]

    @property
    def dealer(self) -> int:
        """The dealer's seat (-1 before the cut for deal)."""
        return int(self[2])

    @property
    def scores(self) -> tuple[int, ...]:
        """Points pegged by each seat (a partnership side's score is the sum of its two seats)."""
        s: tuple[int, ...] = self[3]
        return s

    @property
    def _hands(self) -> tuple[tuple[Card, ...], ...]:
        h: tuple[tuple[Card, ...], ...] = self[4]
        return h

    @property
    def _discards(self) -> tuple[tuple[Card, ...], ...]:
        d: tuple[tuple[Card, ...], ...] = self[5]
        return d

    @property
    def _crib(self) -> tuple[Card, ...]:
        c: tuple[Card, ...] = self[6]
        return c

    @property
    def _stock(self) -> tuple[Card, ...]:
        s: tuple[Card, ...] = self[7]
        return s

    @property
    def starter(self) -> Card | None:
        """The starter once cut, else ``None``."""
        s: Card | None = self[8]
        return s

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card laid in this deal's play, in order (public)."""
        p: tuple[Card, ...] = self[9]
        return p

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has laid in this deal's play, in order (public)."""
        kept = self[15][seat]
        return tuple(c for c in self[9] if c in kept)

    @property
    def sequence(self) -> tuple[Card, ...]:
        """The cards laid since the last reset (the current count), in order."""
        s: tuple[Card, ...] = self[10]
        return s

    @property
    def count(self) -> int:  # type: ignore[override]  # the running count of the play, not tuple.count
        """The running count of the play, 0..31."""
        return int(self[11])

    @property
    def turn(self) -> int:
        """The seat to decide, or -1 at a chance node or at the end."""
        return int(self[12])

    @property
    def last(self) -> int:
        """The seat that laid the last card of the current count, or -1."""
        return int(self[13])

    @property
    def passed(self) -> int:
        """Bit set of the seats that said go in the current count (bit ``1 << seat``)."""
        return int(self[14])

    @property
    def _kept(self) -> tuple[tuple[Card, ...], ...]:
        k: tuple[tuple[Card, ...], ...] = self[15]
        return k

    @property
    def show_index(self) -> int:
        """Muggins show: which count is under way (0.. hands from the dealer's left, ``players`` = crib), or -1."""
        return int(self[16])

    @property
    def announced(self) -> int:
        """Muggins: the number announced for the count under way, or -1 before the announcement."""
        return int(self[17])

    @property
    def cuts(self) -> tuple[Card, ...]:
        """The cards of the last cut for deal, seat 0 first (public; empty if the dealer was given)."""
        c: tuple[Card, ...] = self[18]
        return c

    @property
    def reached(self) -> int:
        """The seat whose pegging reached the target (the game is over), or -1."""
        return int(self[19])

    @property
    def deal_number(self) -> int:
        """1 for the first deal, 2 for the second, ... (0 before the first shuffle)."""
        return int(self[20])

    @property
    def crib_shown(self) -> bool:
        """The crib is face up (it is being counted under Muggins, or was just counted)."""
        return bool(self[21])

    @property
    def seq_key(self) -> int:
        """The ranks of the last 7 cards of :attr:`sequence`, 4 bits each (derived; the play-scoring cache key)."""
        return int(self[22])

    def __repr__(self) -> str:
        # Hidden fields (hands, discards, crib, stock, kept hands) show only their sizes, so that a state that
        # ends up in a log or an error message never tells anyone a hidden card (DEVELOPERS.md).
        parts = []
        for name, value in zip(FIELDS, self, strict=True):
            if name in ("rules", "seq_key"):
                continue
            if name.startswith("_"):
                sizes = [len(v) for v in value] if value and isinstance(value[0], tuple) else len(value)
                parts.append(f"{name}=<{sizes} hidden>")
                continue
            if isinstance(value, tuple) and value and isinstance(value[0], tuple):
                value = "[" + " | ".join(format_cards(v) for v in value) + "]"
            elif isinstance(value, tuple) and value and isinstance(value[0], Card):
                value = "[" + format_cards(value) + "]"
            elif isinstance(value, Card):
                value = str(value)
            parts.append(f"{name}={value}")
        return f"State({', '.join(parts)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (tuple(self),))


def _rebuild(values: tuple[Any, ...]) -> State:
    return tuple.__new__(State, values)


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game (rules spec §2.6-2.8, §2a).

    Attributes:
        winners: seats that won (one seat, a partnership's two seats, or -- Lowball with three players -- the
            non-losers tied for the lowest score).
        losers: every other seat.
        scores: final points per seat.
        side_scores: final points per side (per seat unless partnership: side 0 = seats 0+2, side 1 = seats 1+3).
        reached: the seat whose pegging reached the target (the winner, or in Lowball the loser).
        lowball: the game was played to lose (the side that reached the target lost).
        ranking: sides from best to worst, ties grouped: e.g. ``((1,), (2,), (0,))``.
        skunked: losing sides at or below the skunk line (never in Lowball, or with ``skunks`` off).
        double_skunked: losing sides at or below the double-skunk line.
        game_points: games the win is worth in a match: 1, ``skunk_games`` or ``double_skunk_games``.
    """

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    reached: int
    lowball: bool
    ranking: tuple[tuple[int, ...], ...]
    skunked: tuple[int, ...]
    double_skunked: tuple[int, ...]
    game_points: int

    @property
    def skunk(self) -> bool:
        """Some loser was skunked (spec §2.7)."""
        return bool(self.skunked)

    @property
    def double_skunk(self) -> bool:
        """Some loser was double-skunked (spec §2.7)."""
        return bool(self.double_skunked)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict."""
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "scores": list(self.scores),
            "side_scores": list(self.side_scores),
            "reached": self.reached,
            "lowball": self.lowball,
            "ranking": [list(r) for r in self.ranking],
            "skunked": list(self.skunked),
            "double_skunked": list(self.double_skunked),
            "game_points": self.game_points,
        }


@dataclass(frozen=True, slots=True, eq=False)
class Reason(_contract.Reason):
    """A Cribbage illegal-move reason: :class:`kortbord.contract.Reason` whose words are in the
    cribbage catalogue (``kortbord/i18n/cribbage.json``)."""

    game: str = field(default="cribbage", compare=False)
