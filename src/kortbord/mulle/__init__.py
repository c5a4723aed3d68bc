"""Mulle, the Swedish two-pack casino game: the rules engine (rules spec ``../shared/rules/mulle.md``).

The engine API of ``docs/engine-api.md``::

    from kortbord import mulle
    state = mulle.new_game(mulle.Rules(), players=2)
    rng = random.Random(7)
    while not mulle.is_over(state):
        move = mulle.chance_outcome(state, rng) if mulle.is_chance(state) else rng.choice(mulle.legal_moves(state))
        state, events = mulle.step(state, move)
"""

from __future__ import annotations

from kortbord.mulle.engine import (
    Event,
    Result,
    apply,
    chance_outcome,
    deal_plan,
    explain_illegal,
    is_chance,
    is_over,
    legal_moves,
    new_game,
    parse_move,
    result,
    step,
    to_act,
)
from kortbord.mulle.game import Game
from kortbord.mulle.moves import (
    Build,
    BuildDown,
    Capture,
    LayOn,
    Move,
    Package,
    PlayerMove,
    Raise,
    Shuffle,
    Trail,
    parse_move_text,
)
from kortbord.mulle.position import apply_position, dump_position, load_position, position
from kortbord.mulle.rules import PROFILES, RULES_VERSION, Rules
from kortbord.mulle.scoring import card_points, mulle_points, score_pile
from kortbord.mulle.state import HV, TV, State
from kortbord.mulle.view import View, view

__all__ = [
    "HV",
    "PROFILES",
    "RULES_VERSION",
    "TV",
    "Build",
    "BuildDown",
    "Capture",
    "Event",
    "Game",
    "LayOn",
    "Move",
    "Package",
    "PlayerMove",
    "Raise",
    "Result",
    "Rules",
    "Shuffle",
    "State",
    "Trail",
    "View",
    "apply",
    "apply_position",
    "card_points",
    "chance_outcome",
    "deal_plan",
    "dump_position",
    "explain_illegal",
    "is_chance",
    "is_over",
    "legal_moves",
    "load_position",
    "mulle_points",
    "new_game",
    "parse_move",
    "parse_move_text",
    "position",
    "result",
    "score_pile",
    "step",
    "to_act",
    "view",
]
