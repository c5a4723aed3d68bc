"""Muggins: the counting sub-phase of the show, rules M1-M15 of ``spec/rules/cribbage.md`` §2.10 and §2a.

This module holds the rules of one Muggins count as pure functions; :mod:`kortbord.cribbage.engine` runs them as
the ``show`` phase.  One count is the state ``{counter, announced, true, responders, decided}`` of spec §6 item 3:

1. **Who counts, in which order (M1, M10).** The hands from the dealer's left round to the dealer, then the dealer
   counts the crib last; each count is settled before the next starts. The crib is face up while it is counted.
2. **Announcement (M2).** The counter announces a whole number 0..29; it is pegged at once.
3. **Reaching the target (M12).** An announcement that takes the counter's side to the target and is not too high
   (announced <= true) ends the game at once, with no responses. One that is too high waits for the responses;
   the game then ends only if the counter's side is still at the target after settlement.
4. **Responses (M3, M13, M14).** The opponents answer one at a time from the counter's left round the table; in a
   partnership only the other side answers (the partner is skipped). Choices: accept, ``muggins N`` (N in 1..29,
   §2a) or overcount.
5. **First call decides (M4).** The first response that is not "accept" settles the count; nobody after it
   answers. If everyone accepts, the announced count stands even if wrong.
6. **Settlement (M5-M8)**, see :func:`settle`.
7. **Reveal (M9).** Once settled, the true breakdown is shown to everyone (never before).
8. **Play and his heels are automatic (M11)**; **Lowball wins over Muggins (M15)**: see ``Rules``.

Decisions on the points the seed leaves open (spec §2.10 "Points the seed leaves open", §2a):

* a muggins or overcount award that takes the caller's side to the target: the caller wins at once;
* a false-muggins award that takes the counter's side to the target: the counter wins at once;
* after settlement the counter's side is checked first (his announcement was pegged first), then the caller's;
* the number named in a muggins call is 1..29; an announcement is 0..29;
* the game cannot end mid-response: only one call is ever made (M4).

Points are cribbage points; seats are 0-based ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from kortbord.cribbage.moves import Accept, Move, MugginsCall, Overcount
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import Reason
from kortbord.errors import IllegalMoveError

__all__ = ["Settlement", "counter_of", "ends_at_announcement", "next_responder", "responders", "settle"]


def counter_of(rules: Rules, dealer: int, show_index: int) -> int:
    """The seat counting the ``show_index``-th count of the show (M1, M10).

    Args:
        rules: the game's rules (for the number of players).
        dealer: the dealer's seat.
        show_index: 0..players-1 for the hands from the dealer's left (the last is the dealer's own hand),
            ``players`` for the crib (counted by the dealer, last).
    """
    n = rules.players
    return dealer if show_index >= n else (dealer + 1 + show_index) % n


def responders(rules: Rules, counter: int) -> tuple[int, ...]:
    """The seats that may respond to ``counter``'s announcement, in answering order (M3, M13, M14).

    From the counter's left round the table; in a partnership only the other side (the partner is skipped).
    """
    n = rules.players
    side = rules.side_of(counter)
    return tuple(seat for seat in ((counter + k) % n for k in range(1, n)) if rules.side_of(seat) != side)


def next_responder(rules: Rules, counter: int, after: int) -> int:
    """The responder after seat ``after`` (pass ``after=counter`` for the first), or -1 when all have answered."""
    order = responders(rules, counter)
    if after == counter:
        return order[0]
    i = order.index(after)
    return order[i + 1] if i + 1 < len(order) else -1


def ends_at_announcement(announced: int, true: int, side_score_after: int, target: int) -> bool:
    """M12: the announcement ends the game at once -- it reaches the target and is not too high.

    Args:
        announced: the number announced (0..29).
        true: the true count of the hand or crib.
        side_score_after: the counter's side's score with the announcement pegged.
        target: the game's target (61 or 121).
    """
    return side_score_after >= target and announced <= true


@dataclass(frozen=True, slots=True)
class Settlement:
    """How one response settles a Muggins count (M4-M8), relative to the scores after the announcement.

    Attributes:
        decided: the response settles the count (any call that is not ``accept``).
        counter_points: points added to the counter (negative: taken back by a correct overcount call).
        caller_points: points added to the caller.
        outcome: the code of the rule applied: ``"accept"`` (M4), ``"muggins"`` (M5), ``"false_muggins"`` (M6),
            ``"overcount"`` (M7) or ``"wrong_overcount"`` (M8); the words are in :mod:`kortbord.i18n`
            (``settle.<code>``).
    """

    decided: bool
    counter_points: int
    caller_points: int
    outcome: str


def settle(announced: int, true: int, response: Move) -> Settlement:
    """The effect of ``response`` on a count announced as ``announced`` whose true value is ``true``.

    * accept: nothing changes and the next responder answers; if all accept the count stands (M4);
    * ``muggins N`` with announced < true: the caller scores ``min(true - announced, N)``; missed points beyond N
      go to nobody (M5);
    * ``muggins N`` with announced >= true (nothing missed, an overcount included): the counter scores N (M6);
    * overcount with announced > true: the excess ``announced - true`` moves from the counter to the caller (M7);
    * overcount with announced <= true: nothing changes, missed points are lost (M8).

    Raises:
        IllegalMoveError: ``response`` is not accept, a muggins call or an overcount call (reason
            ``not_a_response``).
    """
    kind = type(response)
    if kind is Accept:
        return Settlement(False, 0, 0, "accept")
    if kind is MugginsCall:
        named: int = response.points  # type: ignore[union-attr]
        if announced < true:
            won = min(true - announced, named)
            return Settlement(True, 0, won, "muggins")
        return Settlement(True, named, 0, "false_muggins")
    if kind is Overcount:
        if announced > true:
            excess = announced - true
            return Settlement(True, -excess, excess, "overcount")
        return Settlement(True, 0, 0, "wrong_overcount")
    raise IllegalMoveError(Reason("not_a_response", {"move": str(response)}))
