"""Game parameters of the research adapters (shared by :mod:`kortbord.openspiel` and :mod:`kortbord.pettingzoo`,
importable without either framework) and the observation string."""

from __future__ import annotations

import json
from typing import Any, Final

from kortbord import cribbage, mulle
from kortbord.research import encoding as enc
from kortbord.research.table import CribbageSpec, MulleSpec, Table

__all__ = ["CRIBBAGE_PARAMETERS", "MULLE_PARAMETERS", "cribbage_spec", "mulle_spec", "observation_text"]

_MULLE_STANDARD: Final = mulle.Rules().to_dict()
_MULLE_RULE_PARAMS: Final = {
    k: (str(v) if k == "max_found_cards" else v) for k, v in _MULLE_STANDARD.items() if k != "profile"
}
#: Game parameters of ``kortbord_mulle`` with their defaults (the engine's ``standard`` rules).
MULLE_PARAMETERS: Final[dict[str, Any]] = {
    "players": 2,
    "teams": False,
    "first_dealer": -1,
    "utility": "win_loss",
    "max_actions": enc.MULLE_DEFAULT_MAX_ACTIONS,
    "max_rounds": 100,
    "profile": "standard",
    **_MULLE_RULE_PARAMS,
}

_CRIB_DEFAULT: Final = cribbage.Rules()
#: Game parameters of ``kortbord_cribbage`` (``skunk_line``/``double_skunk_line`` -1 = the ACC default for the
#: target; four players always play as partners, seats 0+2 against 1+3).
CRIBBAGE_PARAMETERS: Final[dict[str, Any]] = {
    "players": 2,
    "target": 121,
    "muggins": False,
    "lowball": False,
    "skunks": True,
    "skunk_line": -1,
    "double_skunk_line": -1,
    "skunk_games": 2,
    "double_skunk_games": 3,
    "first_dealer": -1,
    "utility": "win_loss",
}


def mulle_spec(params: dict[str, Any]) -> MulleSpec:
    """The driver spec for ``kortbord_mulle`` parameters (missing keys take :data:`MULLE_PARAMETERS`).

    Raises:
        InvalidRulesError: a bad rule option or combination (from the engine).
    """
    p = {**MULLE_PARAMETERS, **params}
    rules: dict[str, Any] = {"profile": p["profile"]}
    for key, default in _MULLE_RULE_PARAMS.items():
        value = p[key]
        if key == "max_found_cards":
            value = int(value) if str(value).isdigit() else value
            default = int(default)
        if value != default:
            rules[key] = value
    dealer = None if p["first_dealer"] < 0 else p["first_dealer"]
    return MulleSpec(
        mulle.Rules.from_dict(rules),
        players=p["players"],
        teams=p["teams"],
        dealer=dealer,
        max_actions=p["max_actions"],
        max_rounds=p["max_rounds"],
    )


def cribbage_spec(params: dict[str, Any]) -> CribbageSpec:
    """The driver spec for ``kortbord_cribbage`` parameters (missing keys take :data:`CRIBBAGE_PARAMETERS`)."""
    p = {**CRIBBAGE_PARAMETERS, **params}
    rules = cribbage.Rules(
        players=p["players"],
        target=p["target"],
        muggins=p["muggins"],
        lowball=p["lowball"],
        skunks=p["skunks"],
        skunk_line=None if p["skunk_line"] < 0 else p["skunk_line"],
        double_skunk_line=None if p["double_skunk_line"] < 0 else p["double_skunk_line"],
        skunk_games=p["skunk_games"],
        double_skunk_games=p["double_skunk_games"],
    )
    dealer = None if p["first_dealer"] < 0 else p["first_dealer"]
    return CribbageSpec(rules, dealer=dealer)


def observation_text(table: Table, seat: int, *, private: bool = True) -> str:
    """The observation string: ``seat``'s view as compact JSON (legal moves and round history left out;
    without ``private`` also the own hand and discards)."""
    d = table.view(seat).to_json()
    for key in ("legal_moves", "round_log", "notices", "rules"):
        d.pop(key, None)
    if not private:
        for key in ("hand", "discards"):
            d.pop(key, None)
    return json.dumps(d, separators=(",", ":"))
