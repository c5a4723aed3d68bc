"""The Mulle engine's public face (engine API, ``docs/engine-api.md``; rules spec §2): every name clients import
from ``kortbord.mulle.engine``, re-exported from the modules that do the work.

``new_game`` → chance node → ``chance_outcome``/``apply(Shuffle)`` deals → ``legal_moves``/``apply``/``step``
until ``is_over``.  No I/O and no global randomness: the only random draws are in ``chance_outcome``, from the
``random.Random`` passed in.

Where each rule lives:

* every rule that can forbid a move, one named predicate each (the reserve rule, the trail ban, the capture duty,
  D6 scoring cards, changing and locking builds, pure mulle ...): :mod:`kortbord.mulle.checks`
* move generation -- captures (M1, maximal partitions, pure mulle, builds of the value), building moves M2-M6,
  trails (M7) and the safety valve: :mod:`kortbord.mulle.movegen`
* transitions -- dealing, short last deal, båt (§2.3), turn order (§2.4), mulle (§2.8) and tabbe (§2.9),
  last-capture sweep and round scoring (§2.10, §2.11), game end and ties (§2.12): :mod:`kortbord.mulle.transitions`
  (points: :mod:`kortbord.mulle.scoring`)
* why a move is illegal, as a code plus data, and notation resolved against a position:
  :mod:`kortbord.mulle.explain` (the words: ``kortbord/i18n/mulle.json``)
* building a state directly: :func:`kortbord.mulle.position.position`; position JSON (§5.3):
  :mod:`kortbord.mulle.position`

Events are :class:`kortbord.contract.Event` (``kind`` plus JSON-ready ``data``).  Kinds: ``dealer`` {seat};
``deal`` {deal_no, deals_total, cards: [per seat], table: [face-up cards], last}; ``baat`` {dealer}; ``play``
{seat, move}; ``capture`` {seat, side, cards}; ``mulle`` {seat, side, card, points}; ``tabbe`` {seat, side};
``last_capture`` {seat, side, cards}; ``round_over`` {round, breakdown: [per side], scores: [per side]};
``game_over`` {winners, scores}; ``safety_valve`` {seat}.
"""

from __future__ import annotations

from kortbord.contract import Event
from kortbord.mulle.explain import REASON_CODES, explain_illegal, parse_move
from kortbord.mulle.movegen import _is_legal, _legal, _legal_list, _legal_set, legal_moves
from kortbord.mulle.position import position
from kortbord.mulle.state import Reason
from kortbord.mulle.transitions import (
    DECK_SIZE,
    PACKS,
    Result,
    _apply_play,
    _is_last_play,
    _step,
    apply,
    chance_outcome,
    deal_plan,
    is_chance,
    is_over,
    new_game,
    result,
    step,
    to_act,
)

__all__ = [
    "DECK_SIZE",
    "PACKS",
    "REASON_CODES",
    "Event",
    "Reason",
    "Result",
    "apply",
    "chance_outcome",
    "deal_plan",
    "explain_illegal",
    "is_chance",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "position",
    "result",
    "step",
    "to_act",
]

# the engine's own fast paths, used by bench/mulle_engine.py and the tests (not part of the API)
_INTERNALS = (_apply_play, _is_last_play, _is_legal, _legal, _legal_list, _legal_set, _step)
