"""No message to a seat names a card that seat may not know (DEVELOPERS.md: no player ever receives another
player's hidden cards or the stock order before the rules reveal them).

Full games of both games are played over the WebSocket: the test's seat plays random legal moves, bots hold the
other seats, and a spectator watches.  Afterwards the game is replayed *independently* from its record (the
revealed seed, the engine's pure functions) and, for every version, the set of cards each listener may know is
computed from the engine's state history: the own hand and own discards ever held, and what the rules put face
up (Mulle: table, builds, capture piles; Cribbage: the cut, the starter, the cards played, the crib once shown).
Every card string in every message must be in that set for the message's version.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from server_helpers import card_strings, make_client, new_game, play_random

from kortbord import cribbage, mulle
from kortbord.server.rng import DeterministicCSPRNG


def _mulle_known(state: Any, seat: int | None, events: Any, before: Any) -> set[str]:
    cards = set(state.table)
    for b in state.builds:
        cards.update(b.cards)
    for p in state.piles:
        cards.update(p.cards)
    if seat is not None:
        cards.update(state._hands[seat])
    return {str(c) for c in cards}


def _cribbage_known(state: Any, seat: int | None, events: Any, before: Any) -> set[str]:
    cards = set(state.played) | set(state.cuts)
    if state.starter is not None:
        cards.add(state.starter)
    if state.crib_shown:
        cards.update(state._crib)
    if before is not None and len(before._crib) == 4:
        crib = set(before._crib)  # the crib is shown when the show reaches it (the engine's show event says so)
        if any(e.kind == "show" and {str(c) for c in crib} <= set(e["cards"]) for e in events):
            cards.update(crib)
    if seat is not None:
        cards.update(state._hands[seat])
        cards.update(state._discards[seat])
    return {str(c) for c in cards}


def allowed_by_version(record: dict[str, Any], seat: int | None) -> list[set[str]]:
    """For each version 0..len(moves), the cards ``seat`` (None: a spectator) may know by then."""
    if record["game"] == "mulle":
        eng: Any = mulle
        state = mulle.new_game(mulle.Rules.from_dict(record["rules"]), players=record["players"], teams=record["teams"])
        known_of = _mulle_known
    else:
        eng = cribbage
        state = cribbage.new_game(cribbage.Rules.from_dict(record["rules"]))
        known_of = _cribbage_known
    rng = DeterministicCSPRNG(record["seed"])
    known: set[str] = set()

    def chance(state: Any) -> Any:
        while eng.is_chance(state):
            state, events = eng.step(state, eng.chance_outcome(state, rng))
            known.update(known_of(state, seat, events, None))
        return state

    state = chance(state)
    out = [set(known)]
    for text in record["moves"]:
        before = state
        move = eng.parse_move(state, text)
        state, events = eng.step(state, move)
        known.update(known_of(state, seat, events, before))
        if isinstance(move, cribbage.Play):  # laid face up (even when the same move ends the deal)
            known.add(str(move.card))
        state = chance(state)
        out.append(set(known))
    assert eng.is_over(state)
    return out


CASES = [
    ("mulle", 2, {"game_length": "target:100"}, {}, "greedy"),
    ("mulle", 3, {"game_length": "single_round"}, {}, "random"),
    ("mulle", 4, {"game_length": "single_round"}, {"teams": True}, "greedy"),
    ("cribbage", 2, {"target": 121}, {}, "greedy"),
    ("cribbage", 3, {"target": 61, "muggins": True}, {}, "greedy"),
    ("cribbage", 4, {"target": 61}, {"partnership": True}, "random"),
]


@pytest.mark.parametrize(("game", "players", "rules", "extra", "level"), CASES)
def test_no_message_names_a_card_its_seat_may_not_know(
    tmp_path: Path, game: str, players: int, rules: dict[str, Any], extra: dict[str, Any], level: str
) -> None:
    with make_client(tmp_path, label=f"leak-{game}-{players}") as c:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (players - 1)
        g = new_game(c, game=game, players=players, rules=rules, seats=seats, **extra)
        url = f"/ws/games/{g['game_id']}"
        mine: list[dict[str, Any]] = []
        watched: list[dict[str, Any]] = []
        with c.websocket_connect(f"{url}?token={g['token']}") as ws, c.websocket_connect(url) as spectator:
            last = play_random(ws, random.Random(players), mine.append)
            while True:
                msg = spectator.receive_json()
                watched.append(msg)
                if msg["type"] == "state" and msg["status"] == "over":
                    break
        record = c.get(f"/api/games/{g['game_id']}/record").json()
    assert len(record["moves"]) == last["version"]
    for seat, messages in ((0, mine), (None, watched)):
        allowed = allowed_by_version(record, seat)
        versions = set()
        hands = 0
        for msg in messages:
            v = msg["version"]
            versions.add(v)
            leaked = card_strings(msg) - allowed[v]
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {v}: {msg}"
            if seat is None:
                assert msg["view"]["hand"] == [] and msg["legal_moves"] == [] and msg["view"]["seat"] is None
                assert msg["view"].get("discards", []) == []
            else:
                hands += bool(msg["view"]["hand"])
        # every version from the first message on was seen and checked (bots may move before we connect)
        assert versions == set(range(min(versions), last["version"] + 1)) and min(versions) <= 3
        if seat is not None:
            assert hands > 0  # the seat was shown its own cards (the check is not vacuous)
    # the allowed sets are strict: before the end, seat 0 never knows every card of the deck
    assert len(allowed_by_version(record, 0)[0]) < (104 if game == "mulle" else 52) // 2
