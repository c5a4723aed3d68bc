"""Mulle, the Swedish two-pack casino game: the rules engine (rules spec ``spec/rules/mulle.md``).

The engine API of ``docs/engine-api.md``::

    from kortbord import mulle
    state = mulle.new_game(mulle.Rules(), players=2)
    rng = random.Random(7)
    while not mulle.is_over(state):
        move = mulle.chance_outcome(state, rng) if mulle.is_chance(state) else rng.choice(mulle.legal_moves(state))
        state, events = mulle.step(state, move)

Clients drive the game through :data:`SPEC` (``kortbord.contract.GameSpec``), Mulle's entry in the registry.
"""

from __future__ import annotations

# first: which fast core an import of kortbord.mulle.fast loads (the optional compiled build or fast.py)
import kortbord.mulle._fast_import  # noqa: F401
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
from kortbord.mulle.rules import OPTIONS, PROFILES, RULES_VERSION, Rules
from kortbord.mulle.scoring import card_points, mulle_points, score_pile
from kortbord.mulle.spec import SPEC, MulleResult, MulleSpec
from kortbord.mulle.state import HV, TV, State
from kortbord.mulle.view import PublicView, View, public_view, sample_state, unseen_cards, view

__all__ = [
    "HV",
    "OPTIONS",
    "PROFILES",
    "RULES_VERSION",
    "SPEC",
    "TV",
    "Build",
    "BuildDown",
    "Capture",
    "Event",
    "Game",
    "LayOn",
    "Move",
    "MulleResult",
    "MulleSpec",
    "Package",
    "PlayerMove",
    "PublicView",
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
    "public_view",
    "result",
    "sample_state",
    "score_pile",
    "step",
    "to_act",
    "unseen_cards",
    "view",
]
