"""The server is a client of the engine contract (``kortbord.core``, issue #10): every view it sends is the
GameSpec's own (``spec.view(state, seat)``; a spectator's is ``spec.view(state, None)``), every event is an
``Event.to_json()`` (a code plus data, valid against ``kortbord/schemas/event.schema.json``), and a refused move's
error carries the engine's reason (code and data) so that the page can word it in its player's language."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from server_helpers import make_client, new_game, play_random, receive_state

from kortbord import core, i18n
from kortbord.cards import full_deck
from kortbord.errors import IllegalMoveError
from kortbord.server.app import ApiError
from kortbord.server.rng import DeterministicCSPRNG
from kortbord.server.sessions import run_chance

_SCHEMA = json.loads((resources.files("kortbord") / "schemas" / "event.schema.json").read_text(encoding="utf-8"))
_EVENTS = jsonschema.Draft202012Validator(_SCHEMA)


def _jsonified(x: Any) -> Any:
    return json.loads(json.dumps(x))


def states_by_version(record: dict[str, Any]) -> list[Any]:
    """The engine state after each version 0..len(moves) of a finished game, replayed from its record through
    the GameSpec (chance from the revealed seed)."""
    spec = core.get(record["game"])
    rules = spec.make_rules(record["rules"], players=record["players"], teams=record["teams"])
    rng = DeterministicCSPRNG(record["seed"])
    state, _ = run_chance(spec, spec.new_game(rules, players=record["players"], teams=record["teams"]), rng)
    out = [state]
    for text in record["moves"]:
        state, _ = spec.step(state, spec.parse_move(state, text))
        state, _ = run_chance(spec, state, rng)
        out.append(state)
    return out


@pytest.mark.parametrize(
    ("game", "players", "rules", "extra"),
    [
        ("mulle", 2, {"game_length": "single_round"}, {}),
        ("cribbage", 2, {"target": 61}, {}),
        ("cribbage", 4, {"target": 61}, {"partnership": True}),
    ],
)
def test_views_are_the_specs_and_events_are_codes(
    tmp_path: Path, game: str, players: int, rules: dict[str, Any], extra: dict[str, Any]
) -> None:
    spec = core.get(game)
    with make_client(tmp_path, label=f"contract-{game}-{players}") as c:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
        g = new_game(c, game=game, players=players, rules=rules, seats=seats, **extra)
        url = f"/ws/games/{g['game_id']}"
        mine: list[dict[str, Any]] = []
        watched: list[dict[str, Any]] = []
        with c.websocket_connect(f"{url}?token={g['token']}") as ws, c.websocket_connect(url) as spectator:
            last = play_random(ws, random.Random(7), mine.append)
            while True:
                msg = spectator.receive_json()
                watched.append(msg)
                if msg["type"] == "state" and msg["status"] == "over":
                    break
        record = c.get(f"/api/games/{g['game_id']}/record").json()
    states = states_by_version(record)
    final = states[-1]
    assert spec.is_over(final) and len(states) == last["version"] + 1
    events = 0
    for seat, messages in ((0, mine), (None, watched)):
        for msg in messages:
            state = states[msg["version"]]
            # the spectator's view is the engine's public view, nothing added and nothing blanked by the server
            assert msg["view"] == _jsonified(spec.view(state, seat).to_json()), (seat, msg["version"])
            if seat is not None and msg["status"] == "playing" and spec.to_act(state) == seat:
                assert msg["legal_moves"] == _jsonified([spec.move_json(m) for m in spec.legal_moves(state)])
            else:
                assert msg["legal_moves"] == []
            for event in msg["events"]:
                _EVENTS.validate(event)  # a code plus data, never prose
                i18n.event_text(event, "sv", game=game)  # the page's words exist for it
                events += 1
    assert events > 0
    # the result is the contract's: winners and scores per side
    assert last["result"] == _jsonified(spec.result(final).to_json()) == record["result"]
    winners = last["result"]["winners"]  # empty for a draw (a single round of Mulle may tie)
    assert all(0 <= w < spec.sides(final) for w in winners) and last["result"]["draw"] == (not winners)
    assert record["seats"] == [spec.seat_name(s) for s in range(players)]  # nobody chose a name: the game's names


def _two_humans(c: Any) -> tuple[dict[str, Any], list[str]]:
    g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human", "name": "Bo"}])
    joined = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": g["invites"][0]["invite_code"]})
    return g, [g["token"], joined.json()["token"]]


@pytest.mark.parametrize("kind", ["not_in_hand", "wrong_phase"])
def test_an_illegal_move_error_carries_the_reason(tmp_path: Path, kind: str) -> None:
    with make_client(tmp_path, label=f"reason-{kind}") as c:
        g, tokens = _two_humans(c)
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={tokens[0]}") as probe:
            to_act = receive_state(probe)["to_act"]
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={tokens[to_act]}") as ws:
            before = receive_state(ws)
            hand = before["view"]["hand"]
            if kind == "not_in_hand":
                missing = next(str(card) for card in full_deck() if str(card) not in hand)
                move = f"discard {hand[0]} {missing}"
            else:
                move = "go"  # not a move in the discard phase
            ws.send_json({"type": "move", "version": 0, "move": move})
            err = ws.receive_json()
        assert c.get(f"/api/games/{g['game_id']}").json()["version"] == 0  # nothing changed
    assert err["type"] == "error" and err["code"] == "illegal_move" and err["version"] == 0, err
    reason = err["reason"]
    assert reason["code"] == kind
    if kind == "not_in_hand":
        assert reason == {"code": "not_in_hand", "seat": to_act, "card": missing}
    else:
        assert reason == {"code": "wrong_phase", "move": "go", "phase": "discard"}
    # the English default message is the reason's words; the page renders the Swedish from the code and data
    assert err["message"] == i18n.reason_text(reason, "en", game="cribbage")
    sv = i18n.reason_text(reason, "sv", names=["Ann", "Bo"], game="cribbage")
    assert sv and sv != err["message"]


def test_rest_errors_from_engine_reasons_carry_them() -> None:
    from kortbord.cribbage.state import Reason

    exc = IllegalMoveError(Reason("not_in_hand", {"seat": 1, "card": "9H"}))
    err = ApiError.from_engine(409, "illegal_move", exc)
    assert err.reason == {"code": "not_in_hand", "seat": 1, "card": "9H"} and err.message == str(exc)
    plain = ApiError.from_engine(422, "bad_rules", ValueError("no"))
    assert plain.reason is None and plain.message == "no"
