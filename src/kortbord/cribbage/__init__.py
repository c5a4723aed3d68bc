"""Cribbage: the rules engine, the scoring of the play and the show (``kortbord.cribbage.scoring``).

Rules source: ``spec/rules/cribbage.md``.  :data:`SPEC` is the game's entry in the registry: every client
drives Cribbage through it (``kortbord.contract.GameSpec``).
"""

# -- the engine API (docs/engine-api.md) ------------------------------------------------------------------------
from kortbord.cribbage.engine import (
    apply,
    chance_outcome,
    is_chance,
    is_over,
    legal_moves,
    new_game,
    parse_move,
    position,
    result,
    seat_name,
    show_order,
    side_scores,
    step,
    to_act,
)
from kortbord.cribbage.game import Game, replay_record
from kortbord.cribbage.moves import (
    Accept,
    Announce,
    CutForDeal,
    Discard,
    Go,
    Move,
    MugginsCall,
    Overcount,
    Play,
    Shuffle,
)
from kortbord.cribbage.rules import OPTIONS, PROFILES, RULES_VERSION, Rules
from kortbord.cribbage.spec import SPEC
from kortbord.cribbage.state import Event, Result, State
from kortbord.cribbage.view import View, view

__all__ = [
    "OPTIONS",
    "PROFILES",
    "RULES_VERSION",
    "SPEC",
    "Accept",
    "Announce",
    "CutForDeal",
    "Discard",
    "Event",
    "Game",
    "Go",
    "Move",
    "MugginsCall",
    "Overcount",
    "Play",
    "Result",
    "Rules",
    "Shuffle",
    "State",
    "View",
    "apply",
    "chance_outcome",
    "is_chance",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "position",
    "replay_record",
    "result",
    "seat_name",
    "show_order",
    "side_scores",
    "step",
    "to_act",
    "view",
]
