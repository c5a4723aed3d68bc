"""Playing to the board in two-player Cribbage: win probabilities by score, used by the strong bot near the end.

Rules source: ``spec/rules/cribbage.md`` §2.6 (the order of counting: the play, then the pone's hand, then
the dealer's hand and crib; the first to reach the target wins) and §5 ("weighted for the board position";
first-dealer advantage 55-56%; board win probabilities as in the "Distributed Cribbage Computation").

The table ``bots/data/win_table.json`` is made by ``scripts/make_win_table.py``: for targets 61 and 121,
``dealer[a][b]`` is the chance that the player about to deal wins when he has ``a`` points and the pone ``b``,
from points-per-deal distributions of the project's bots (the dealer's and the pone's pegging, the pone's hand,
the dealer's hand and crib) and the counting order.

* :func:`dealer_chance` looks a board up;
* :func:`discard_chances` gives, for candidate discards, the chance of winning the game counted through this deal
  (the own hand's exact distribution over the possible starters, the crib's shifted by the crib table, the other
  amounts from the table's distributions) -- what the strong bot maximises when the game may end soon;
* :func:`after_deal_chance` values a board at the end of a deal whose shows are known (the pegging search's
  leaves near the end).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "after_deal_chance",
    "dealer_chance",
    "discard_chances",
    "distributions",
    "near_end",
    "warm_up",
    "win_table",
]

FloatArray = npt.NDArray[np.float64]

#: The board counts as "near the end" when a player is within this many points of the target (about two deals
#: of one player's points); further off, the chance of winning is close to linear in the points and the expected
#: points decide.
NEAR_END: Final = 45
#: The most points a crib or pegging shift of :func:`discard_chances` may move a distribution (a crib's or a play's
#: points differ from the table's mean by far less).
MAX_SHIFT: Final = 30


@cache
def win_table() -> dict[str, Any]:
    """The raw table file (``kortbord/bots/data/win_table.json``): ``{"metadata", "dealer": {"61", "121"}}``."""
    text = resources.files("kortbord.bots").joinpath("data/win_table.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _dealer_array(target: int) -> FloatArray:
    table = win_table()["dealer"]
    key = str(target)
    if key not in table:
        raise ValueError(f"no win table for target {target} (only {', '.join(sorted(table))})")
    return np.asarray(table[key], dtype=np.float64)


@cache
def distributions() -> dict[str, FloatArray]:
    """Points per deal as probability vectors (index = points): ``dealer_peg``, ``pone_peg``, ``pone_show``,
    ``dealer_show`` (hand + crib) and ``crib`` (from the table file's metadata)."""
    raw = win_table()["metadata"]["distributions"]
    out = {}
    for name, counts in raw.items():
        size = max(int(k) for k in counts) + 1
        p = np.zeros(size)
        for k, v in counts.items():
            p[int(k)] = v
        out[name] = p / p.sum()
    return out


def warm_up(target: int) -> None:
    """Load and prepare the table for ``target`` (61 or 121) now; later calls are then fast.  Raises ValueError
    for a target without a table."""
    distributions()
    _dealer_after(target)


def dealer_chance(target: int, dealer: int, pone: int) -> float:
    """The chance (0..1) that the player about to deal wins, dealer at ``dealer`` points and pone at ``pone``.

    A side at or past ``target`` has won (the pone first: he counts first).  Raises ValueError for a target
    without a table (only 61 and 121 exist, spec §2.6).
    """
    if pone >= target:
        return 0.0
    if dealer >= target:
        return 1.0
    return float(_dealer_array(target)[dealer, pone])


def near_end(target: int, scores: Sequence[int], near: int = NEAR_END) -> bool:
    """Whether a player is within ``near`` points of ``target`` (default :data:`NEAR_END`: the board then decides
    strong's discard)."""
    return max(scores) >= target - near


def after_deal_chance(target: int, me: int, opp: int, i_deal_next: bool) -> float:
    """The seat's chance of winning at the end of a deal: ``me`` and ``opp`` points after the show (a player at the
    target has won; when both are, the caller decides who counted first); ``i_deal_next`` the seat deals next."""
    if me >= target:
        return 1.0
    if opp >= target:
        return 0.0
    return dealer_chance(target, me, opp) if i_deal_next else 1.0 - dealer_chance(target, opp, me)


def _shift(p: FloatArray, delta: float) -> FloatArray:
    """``p`` moved by ``delta`` points (a mix of the two whole shifts around it; points below 0 pile up at 0)."""
    lo = int(np.floor(delta))
    frac = delta - lo
    out = np.zeros(len(p) + max(lo + 1, 0) + 1)
    for k, w in ((lo, 1.0 - frac), (lo + 1, frac)):
        if w <= 0:
            continue
        for i, pi in enumerate(p):
            out[max(i + k, 0)] += w * pi
    return out


def discard_chances(
    target: int,
    me: int,
    opp: int,
    i_deal: bool,
    hands: Sequence[Sequence[int]],
    crib_shifts: Sequence[float],
    peg_shifts: Sequence[float] | None = None,
) -> list[float]:
    """The chance of winning the game for each candidate discard, counting through this deal (spec §2.6 order).

    Args:
        target: 61 or 121.
        me, opp: the two players' points now (before this deal's play; each below ``target``).
        i_deal: the seat deals this deal (the crib is his).
        hands: per candidate, the kept hand's show value (points) for each possible starter, equally likely.
        crib_shifts: per candidate, the crib's expected points for this throw minus the table's mean crib, points
            (the crib is the own one when ``i_deal``, the dealer's otherwise).
        peg_shifts: per candidate, how many points the kept four is expected to peg more than the other player,
            beyond the table's mean for this seat (points; None: every candidate the table's pegging).  Half of it
            moves this player's pegging up and half the other's down.
    Returns:
        One probability per candidate.  The pegging (moved by ``peg_shifts``) and the other player's show follow
        the table's distributions (the other's crib moved by the shift); the amounts are taken as independent.
    Raises:
        ValueError: a target without a table; a shift that is not a finite number of at most :data:`MAX_SHIFT`
            points either way.
    """
    for shift in (*crib_shifts, *(peg_shifts or ())):
        if not (isinstance(shift, int | float) and abs(shift) <= MAX_SHIFT):  # also NaN
            raise ValueError(f"a shift must be a number of points from -{MAX_SHIFT} to {MAX_SHIFT}, got {shift!r}")
    d = distributions()
    peg_me, peg_opp = (d["dealer_peg"], d["pone_peg"]) if i_deal else (d["pone_peg"], d["dealer_peg"])
    out = []
    pegs = [0.0] * len(hands) if peg_shifts is None else list(peg_shifts)
    for hand_points, shift, peg in zip(hands, crib_shifts, pegs, strict=True):
        mine, theirs = (peg_me, peg_opp) if not peg else (_shift(peg_me, peg / 2), _shift(peg_opp, -peg / 2))
        hp = np.bincount(np.asarray(hand_points, dtype=np.int64)).astype(np.float64)
        hp /= hp.sum()
        if i_deal:
            show_me, show_opp = np.convolve(hp, _shift(d["crib"], shift)), d["pone_show"]
        else:
            show_me, show_opp = hp, _shift(d["dealer_show"], shift)
        out.append(_deal_chance(target, me, opp, i_deal, mine, theirs, _trim(show_me), _trim(show_opp)))
    return out


def _trim(p: FloatArray, tail: float = 1e-5) -> FloatArray:
    """``p`` without its top tail of total mass below ``tail`` (renormalised): smaller arrays, same values."""
    keep = int(np.searchsorted(np.cumsum(p), 1.0 - tail)) + 1
    q = p[: min(keep, len(p))]
    out: FloatArray = q / q.sum()
    return out


@cache
def _dealer_after(target: int) -> FloatArray:
    """``q[d, p]``: the chance of this deal's dealer, at ``d`` points after his show and the pone at ``p`` after
    his (capped at the target), that he wins: the pone counted first, so ``p = target`` is 0; then ``d = target``
    is 1; else the pone deals next: ``1 - dealer[p][d]``."""
    t = target
    q = np.zeros((t + 1, t + 1))
    q[:t, :t] = 1.0 - _dealer_array(t).T
    q[t, :t] = 1.0
    q[:, t] = 0.0
    return q


def _deal_chance(
    t: int,
    me: int,
    opp: int,
    i_deal: bool,
    peg_me: FloatArray,
    peg_opp: FloatArray,
    show_me: FloatArray,
    show_opp: FloatArray,
) -> float:
    """P(win) through one deal: the pegging (the dealer's reach checked first: he plays the last card), then the
    pone's show, then the dealer's (spec §2.6); after that the next deal's chance from the table."""
    if i_deal:
        d0, p0, peg_d, peg_p, show_d, show_p = me, opp, peg_me, peg_opp, show_me, show_opp
    else:
        d0, p0, peg_d, peg_p, show_d, show_p = opp, me, peg_opp, peg_me, show_opp, show_me
    peg_d, peg_p = _trim(peg_d), _trim(peg_p)
    d1 = np.minimum(d0 + np.arange(len(peg_d)), t)
    p1 = np.minimum(p0 + np.arange(len(peg_p)), t)
    d2 = np.minimum(d1[:, None] + np.arange(len(show_d)), t)  # [d1, x]
    p2 = np.minimum(p1[:, None] + np.arange(len(show_p)), t)  # [p1, y]
    q = _dealer_after(t)[d2[:, :, None, None], p2[None, None, :, :]]  # [d1, x, p1, y]
    inner = np.einsum("axby,x,y->ab", q, show_d, show_p)
    inner[:, p1 >= t] = 0.0
    inner[d1 >= t, :] = 1.0
    dealer = float(peg_d @ inner @ peg_p)
    return dealer if i_deal else 1.0 - dealer
