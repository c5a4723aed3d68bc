"""Shared helpers of the Mulle tests: the worked cases of the rules spec and random play."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

from kortbord.mulle import chance_outcome, is_chance, is_over, legal_moves, new_game, step
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import State

REPO = Path(__file__).resolve().parents[2]
CASES_FILE = Path(os.environ["KORTBORD_RULES_DIR"]) / "mulle_cases.json"


def load_cases() -> list[dict[str, Any]]:
    """The worked cases of the rules spec (``../shared/rules/mulle_cases.json``), read at test time."""
    with open(CASES_FILE, encoding="utf-8") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


def variant_rules(variant: str) -> dict[str, Any]:
    """``"default + key=value + ..."`` -> rule overrides (values: int, true/false, else the string)."""
    out: dict[str, Any] = {}
    for part in variant.split("+")[1:]:
        key, _, raw = part.strip().partition("=")
        raw = raw.strip()
        value: Any
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw.isdigit():
            value = int(raw)
        else:
            value = raw
        out[key.strip()] = value
    return out


def case_position(case: dict[str, Any]) -> dict[str, Any]:
    """Position JSON (spec §5.3) for a case; seat count, teams and last play come from the case's question."""
    q = case["question"]
    pos: dict[str, Any] = {
        "rules": variant_rules(case["variant"]),
        "table": case["table"],
        "builds": case["builds"],
        "hands": {case["to_move"]: case["hand"]},
        "to_move": case["to_move"],
    }
    if "Four players in teams" in q:
        pos.update(players=4, teams=True)
    if "last card of the round" in q:
        pos["last_play"] = True
    return pos


def all_cards(state: State) -> Counter[int]:
    """Every card the state holds: hands, stock, table, builds, capture piles."""
    c: Counter[int] = Counter(state.table)
    c.update(state._stock)
    for h in state._hands:
        c.update(h)
    for b in state.builds:
        c.update(b.cards)
    for p in state.piles:
        c.update(p.cards)
    return c


def random_game(rules: Rules, players: int, teams: bool, seed: int, check: Any = None) -> State:
    """Play a whole game with uniformly random legal moves; ``check(state, move, new, events)`` after each step."""
    rng = random.Random(seed)
    state = new_game(rules, players=players, teams=teams)
    while not is_over(state):
        move = chance_outcome(state, rng) if is_chance(state) else rng.choice(legal_moves(state))
        new, events = step(state, move)
        if check is not None:
            check(state, move, new, events)
        state = new
    return state
