"""Dense action ids and observation tensors shared by the OpenSpiel and PettingZoo adapters.

Engines know nothing of integer action ids (STYLE.md: "dense integer action ids belong in the research
adapters"); this module is the one place that maps engine moves to ids and engine views to tensors, so both
adapters (:mod:`kortbord.openspiel`, :mod:`kortbord.pettingzoo`) encode a game identically.  The layouts are
documented in ``docs/research.md``.

**Cribbage actions** -- a fixed encoding of :data:`CRIBBAGE_NUM_ACTIONS` = 1492 ids:

========================  ===========  ====================================================================
move                      ids          meaning
========================  ===========  ====================================================================
``Play(card)``            0..51        card index ``(rank - 1) * 4 + suit`` (suits S, H, D, C)
``Discard((card,))``      52..103      one card laid away (3 or 4 players): ``52 + card``
``Discard((a, b))``       104..1429    two cards (2 players): ``104 + pair_index(a, b)``, ``a < b``, pairs in
                                       lexicographic order (0 = AS+AH, 1325 = KD+KC)
``Go()``                  1430
``Announce(n)``           1431..1460   Muggins count, ``1431 + n`` for n = 0..29
``Accept()``              1461
``MugginsCall(n)``        1462..1490   ``1461 + n`` for n = 1..29
``Overcount()``           1491
========================  ===========  ====================================================================

**Mulle actions** -- the move space is combinatorial (a capture names a set of table cards and builds), so an
action id is the *index of the move in the engine's canonical legal-move list* of the player to act
(``kortbord.mulle.legal_moves``: captures, builds, raises, builds down, packages, lay-ons, trails, each kind by
played card).  That list is a function of what the player to act knows (own hand, public table, builds, rules),
never of another hand or the stock, so an id means the same move in every determinisation of an information set
(the property information-set search needs).  The id space has a fixed size, the ``max_actions`` parameter
(default :data:`MULLE_DEFAULT_MAX_ACTIONS` = 1024; the most legal moves measured in 10,000 random standard games
per player count is reported in ``docs/research.md``).  A position with more legal moves raises
:class:`ActionSpaceOverflowError` naming the parameter to raise -- a move is never silently dropped.

Chance outcomes (both games) are card indices 0..51: the deal is drawn card by card (see the adapters).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any, Final

import numpy as np

from kortbord.cards import Card
from kortbord.cribbage import moves as cm
from kortbord.cribbage.view import View as CribbageView
from kortbord.mulle.view import View as MulleView

__all__ = [
    "CRIBBAGE_ACCEPT",
    "CRIBBAGE_ANNOUNCE",
    "CRIBBAGE_DISCARD1",
    "CRIBBAGE_DISCARD2",
    "CRIBBAGE_GO",
    "CRIBBAGE_MUGGINS",
    "CRIBBAGE_NUM_ACTIONS",
    "CRIBBAGE_OVERCOUNT",
    "CRIBBAGE_PLAY",
    "MULLE_DEFAULT_MAX_ACTIONS",
    "ActionSpaceOverflowError",
    "Layout",
    "cribbage_action",
    "cribbage_info_layout",
    "cribbage_info_tensor",
    "cribbage_move",
    "cribbage_obs_layout",
    "cribbage_obs_tensor",
    "mulle_info_layout",
    "mulle_info_tensor",
    "mulle_obs_layout",
    "mulle_obs_tensor",
]

# ----------------------------------------------------------------------------------------------------- cribbage
CRIBBAGE_PLAY: Final = 0
CRIBBAGE_DISCARD1: Final = 52
CRIBBAGE_DISCARD2: Final = 104
CRIBBAGE_GO: Final = 1430
CRIBBAGE_ANNOUNCE: Final = 1431
CRIBBAGE_ACCEPT: Final = 1461
CRIBBAGE_MUGGINS: Final = 1461  # + n, n = 1..29
CRIBBAGE_OVERCOUNT: Final = 1491
CRIBBAGE_NUM_ACTIONS: Final = 1492

_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(combinations(range(52), 2))
_PAIR_INDEX: Final[dict[tuple[int, int], int]] = {p: i for i, p in enumerate(_PAIRS)}
assert CRIBBAGE_DISCARD2 + len(_PAIRS) == CRIBBAGE_GO


class ActionSpaceOverflowError(OverflowError):
    """A Mulle position has more legal moves than the adapter's ``max_actions``: raise that game parameter."""


def cribbage_action(move: cm.Move) -> int:
    """The action id of a Cribbage decision move (table in the module docstring).

    Raises:
        ValueError: a chance move (chance outcomes are card ids, not actions) or an unknown move type.
    """
    kind = type(move)
    if kind is cm.Play:
        return CRIBBAGE_PLAY + int(move.card)  # type: ignore[union-attr]
    if kind is cm.Discard:
        cards = move.cards  # type: ignore[union-attr]
        if len(cards) == 1:
            return CRIBBAGE_DISCARD1 + int(cards[0])
        return CRIBBAGE_DISCARD2 + _PAIR_INDEX[(int(cards[0]), int(cards[1]))]
    if kind is cm.Go:
        return CRIBBAGE_GO
    if kind is cm.Announce:
        return CRIBBAGE_ANNOUNCE + move.points  # type: ignore[union-attr]
    if kind is cm.Accept:
        return CRIBBAGE_ACCEPT
    if kind is cm.MugginsCall:
        return CRIBBAGE_MUGGINS + move.points  # type: ignore[union-attr]
    if kind is cm.Overcount:
        return CRIBBAGE_OVERCOUNT
    raise ValueError(f"no action id for {move!r}: chance moves are drawn card by card")


def cribbage_move(action: int) -> cm.Move:
    """The Cribbage move of an action id (inverse of :func:`cribbage_action`).

    Raises:
        ValueError: ``action`` outside 0..1491.
    """
    if not isinstance(action, (int, np.integer)) or not 0 <= action < CRIBBAGE_NUM_ACTIONS:
        raise ValueError(f"a Cribbage action id is 0..{CRIBBAGE_NUM_ACTIONS - 1}, got {action!r}")
    a = int(action)
    if a < CRIBBAGE_DISCARD1:
        return cm.Play.of(Card(a))
    if a < CRIBBAGE_DISCARD2:
        return cm.Discard((Card(a - CRIBBAGE_DISCARD1),))
    if a < CRIBBAGE_GO:
        x, y = _PAIRS[a - CRIBBAGE_DISCARD2]
        return cm.Discard((Card(x), Card(y)))
    if a == CRIBBAGE_GO:
        return cm.GO
    if a < CRIBBAGE_ACCEPT:
        return cm.Announce.of(a - CRIBBAGE_ANNOUNCE)
    if a == CRIBBAGE_ACCEPT:
        return cm.ACCEPT
    if a < CRIBBAGE_OVERCOUNT:
        return cm.MugginsCall.of(a - CRIBBAGE_MUGGINS)
    return cm.OVERCOUNT


MULLE_DEFAULT_MAX_ACTIONS: Final = 1024


# ----------------------------------------------------------------------------------------------------- tensors
class Layout:
    """A named layout of a flat float32 tensor: ``[(name, shape), ...]`` in order.

    ``layout.size`` is the length; ``layout.views(tensor)`` gives a dict of reshaped numpy views (OpenSpiel's
    observer ``dict``); ``layout.describe()`` the documentation rows ``(name, shape, offset)``.
    """

    def __init__(self, pieces: Sequence[tuple[str, tuple[int, ...]]]) -> None:
        self.pieces = tuple(pieces)
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._slices: list[tuple[str, int, int, tuple[int, ...]]] = []
        offset = 0
        for name, shape in self.pieces:
            self.offsets[name] = (offset, shape)
            size = math.prod(shape)
            self._slices.append((name, offset, offset + size, shape))
            offset += size
        self.size = offset

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``tensor`` (which must have ``self.size`` elements)."""
        return {name: tensor[a:b].reshape(shape) for name, a, b, shape in self._slices}

    def describe(self) -> list[tuple[str, tuple[int, ...], int]]:
        """``(name, shape, offset)`` per piece, in order."""
        return [(name, shape, self.offsets[name][0]) for name, shape in self.pieces]


def _rel(seat: int | None, viewer: int, n: int) -> int:
    """Seat index relative to the viewer (0 = the viewer, 1 = the next seat clockwise), or -1 for None."""
    return -1 if seat is None else (seat - viewer) % n


_CRIB_PHASES: Final = ("cut", "deal", "discard", "play", "show", "over")
#: Cards of a Cribbage deal's play (4 kept cards × up to 4 seats).
_CRIB_MAX_PLAYS: Final = 16


def cribbage_obs_layout() -> Layout:
    """The Cribbage observation tensor (seat slots are relative: 0 = the observer, then clockwise)."""
    return Layout(
        [
            ("hand", (52,)),
            ("discards", (52,)),
            ("starter", (52,)),
            ("crib", (52,)),
            ("played", (4, 52)),
            ("sequence", (52,)),
            ("counting_cards", (52,)),
            ("count", (1,)),
            ("scores", (4,)),
            ("dealer", (4,)),
            ("to_act", (4,)),
            ("hand_sizes", (4,)),
            ("passed", (4,)),
            ("last", (4,)),
            ("phase", (len(_CRIB_PHASES),)),
            ("counting", (4,)),
            ("counting_crib", (1,)),
            ("announced", (30,)),
            ("players", (3,)),
            ("options", (3,)),
        ]
    )


def cribbage_info_layout() -> Layout:
    """The Cribbage information-state tensor: the observation plus the deal's play in order."""
    return Layout([*cribbage_obs_layout().pieces, ("play_order", (_CRIB_MAX_PLAYS, 56))])


_CRIB_OBS: Final = cribbage_obs_layout()
_CRIB_INFO: Final = cribbage_info_layout()


def _set_cards(target: np.ndarray, cards: Sequence[int] | None, value: float = 1.0) -> None:
    if cards:
        for c in cards:
            target[int(c)] += value


def cribbage_obs_tensor(view: CribbageView, *, private: bool = True, out: np.ndarray | None = None) -> np.ndarray:
    """Fill (or make) the observation tensor of ``view`` (layout :func:`cribbage_obs_layout`).

    Args:
        view: ``kortbord.cribbage.view(state, seat)`` -- the only input, so nothing hidden can leak.
        private: include the observer's own hand and discards (False: public information only).
        out: a float32 array of the layout's size to fill in place.
    Returns:
        The filled float32 array.
    """
    t = np.zeros(_CRIB_OBS.size, np.float32) if out is None else out
    if out is not None:
        t.fill(0.0)
    d = _CRIB_OBS.views(t)
    _fill_cribbage(d, view, private)
    return t


def cribbage_info_tensor(view: CribbageView, *, private: bool = True, out: np.ndarray | None = None) -> np.ndarray:
    """The information-state tensor (layout :func:`cribbage_info_layout`): the observation, plus ``play_order``:
    row i = the i-th card laid in this deal's play (one-hot card, then the relative seat one-hot)."""
    t = np.zeros(_CRIB_INFO.size, np.float32) if out is None else out
    if out is not None:
        t.fill(0.0)
    d = _CRIB_INFO.views(t)
    _fill_cribbage(d, view, private)
    n = view.rules.players
    for i, (seat, card) in enumerate(view.played[:_CRIB_MAX_PLAYS]):
        d["play_order"][i, int(card)] = 1.0
        d["play_order"][i, 52 + _rel(seat, view.seat, n)] = 1.0
    return t


def _fill_cribbage(d: dict[str, np.ndarray], v: CribbageView, private: bool) -> None:
    rules = v.rules
    n = rules.players
    me = v.seat
    if private:
        _set_cards(d["hand"], v.hand)
        _set_cards(d["discards"], v.discards)
    if v.starter is not None:
        d["starter"][int(v.starter)] = 1.0
    _set_cards(d["crib"], v.crib)
    for seat, card in v.played:
        d["played"][_rel(seat, me, n), int(card)] = 1.0
    _set_cards(d["sequence"], v.sequence)
    _set_cards(d["counting_cards"], v.counting_cards)
    d["count"][0] = v.count / 31.0
    for s in range(n):
        r = _rel(s, me, n)
        d["scores"][r] = v.scores[s] / rules.target
        d["hand_sizes"][r] = v.hand_sizes[s] / 6.0
    for name, who in (("dealer", v.dealer), ("to_act", v.to_act), ("last", v.last), ("counting", v.counting)):
        if who is not None:
            d[name][_rel(who, me, n)] = 1.0
    for s in v.passed:
        d["passed"][_rel(s, me, n)] = 1.0
    d["phase"][_CRIB_PHASES.index(v.phase)] = 1.0
    d["counting_crib"][0] = float(v.counting_crib)
    if v.announced is not None:
        d["announced"][v.announced] = 1.0
    d["players"][n - 2] = 1.0
    d["options"][:] = (float(rules.muggins), float(rules.lowball), float(rules.target == 61))


_MULLE_PHASES: Final = ("deal", "play", "over")


def mulle_obs_layout() -> Layout:
    """The Mulle observation tensor.  Card planes count copies /2 (two packs: 0, 0.5, 1); seat and side slots
    are relative to the observer (0 = the observer or its side, then clockwise)."""
    return Layout(
        [
            ("hand", (52,)),
            ("table", (52,)),
            ("build_cards", (52,)),
            ("builds", (15,)),  # builds of value 2..16 (count)
            ("build_owner", (15, 4)),  # relative owner seat of the builds of each value
            ("build_locked", (15,)),
            ("piles", (4, 52)),  # captured cards this round, per relative side
            ("mulle_points", (4,)),  # per relative side, /100
            ("tabbar", (4,)),  # per relative side, /10
            ("scores", (4,)),  # game totals per relative side, /100
            ("hand_sizes", (4,)),  # per relative seat, /hand_size
            ("stock_size", (1,)),  # /104
            ("deal", (2,)),  # deal_no / deals_total, is_last_deal (båt)
            ("dealer", (4,)),
            ("to_move", (4,)),
            ("last_capturer", (5,)),  # relative seat, or index 4 = none yet
            ("phase", (len(_MULLE_PHASES),)),
            ("players", (3,)),
            ("teams", (1,)),
        ]
    )


def mulle_info_layout() -> Layout:
    """The Mulle information-state tensor: the observation plus ``played``, the cards each relative seat has
    played from its hand this round (copies /2)."""
    return Layout([*mulle_obs_layout().pieces, ("played", (4, 52))])


_MULLE_OBS: Final = mulle_obs_layout()
_MULLE_INFO: Final = mulle_info_layout()


def mulle_obs_tensor(
    view: MulleView, hand_size: int, *, private: bool = True, out: np.ndarray | None = None
) -> np.ndarray:
    """Fill (or make) the Mulle observation tensor of ``view`` (layout :func:`mulle_obs_layout`).

    Args:
        view: ``kortbord.mulle.view(state, seat)``; the only game input.
        hand_size: the rules' hand size (scales ``hand_sizes``).
        private: include the observer's own hand.
        out: an array of the layout's size to fill in place.
    """
    t = np.zeros(_MULLE_OBS.size, np.float32) if out is None else out
    if out is not None:
        t.fill(0.0)
    _fill_mulle(_MULLE_OBS.views(t), view, hand_size, private)
    return t


def mulle_info_tensor(
    view: MulleView,
    hand_size: int,
    played: Sequence[Sequence[int]],
    *,
    private: bool = True,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """The Mulle information-state tensor: the observation and ``played[seat]`` (absolute seats: the cards each
    seat played from its hand this round -- public, every played card is face up)."""
    t = np.zeros(_MULLE_INFO.size, np.float32) if out is None else out
    if out is not None:
        t.fill(0.0)
    d = _MULLE_INFO.views(t)
    _fill_mulle(d, view, hand_size, private)
    for seat, cards in enumerate(played):
        _set_cards(d["played"][_rel(seat, view.seat, view.players)], cards, 0.5)
    return t


def _fill_mulle(d: dict[str, np.ndarray], v: MulleView, hand_size: int, private: bool) -> None:
    n = v.players
    me = v.seat
    sides = 2 if v.teams else n
    my_side = v.side
    if private:
        _set_cards(d["hand"], v.hand, 0.5)
    _set_cards(d["table"], v.table, 0.5)
    for b in v.builds:
        _set_cards(d["build_cards"], b.cards, 0.5)
        i = min(max(b.value, 2), 16) - 2
        d["builds"][i] += 1.0
        d["build_owner"][i, _rel(b.owner, me, n)] = 1.0
        if b.locked:
            d["build_locked"][i] = 1.0
    for side, pile in enumerate(v.piles):
        r = (side - my_side) % sides
        _set_cards(d["piles"][r], pile.cards, 0.5)
        d["mulle_points"][r] = sum(p for _, p in pile.mulles) / 100.0
        d["tabbar"][r] = pile.tabbar / 10.0
    for side, score in enumerate(v.scores):
        d["scores"][(side - my_side) % sides] = score / 100.0
    for s, size in enumerate(v.hand_sizes):
        d["hand_sizes"][_rel(s, me, n)] = size / hand_size
    d["stock_size"][0] = v.stock_size / 104.0
    d["deal"][:] = (v.deal_no / max(v.deals_total, 1), float(v.is_last_deal))
    for name, seat in (("dealer", v.dealer), ("to_move", v.to_move)):
        if seat is not None:
            d[name][_rel(seat, me, n)] = 1.0
    d["last_capturer"][4 if v.last_capturer is None else _rel(v.last_capturer, me, n)] = 1.0
    d["phase"][_MULLE_PHASES.index(v.phase)] = 1.0
    d["players"][n - 2] = 1.0
    d["teams"][0] = float(v.teams)


def layout_table(layout: Layout) -> list[dict[str, Any]]:
    """Rows ``{"name", "shape", "offset", "size"}`` for documentation."""
    return [{"name": n, "shape": s, "offset": o, "size": math.prod(s)} for n, s, o in layout.describe()]
