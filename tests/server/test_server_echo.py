"""No error answer repeats a client's input (issue #11, the breaker's pass): an unknown or long level, game, rule
option or move is answered with a code and the server's own words -- at most a short prefix of the input, with
nothing in it that markup would read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import make_client, new_game, receive_state

from kortbord.server.echo import ECHO, MAX_MESSAGE, bounded, echo

#: A name no part of which is one of the server's words: any 8 characters of it found in an answer were echoed.
MARK = "<script>zqxjv" + "Q7w" * 80


def _echoed(text: str) -> bool:
    """The answer repeats more than a short prefix of :data:`MARK`, or any markup of it."""
    if "<script" in text:
        return True
    return any(MARK[i : i + ECHO + 1] in text for i in range(len(MARK) - ECHO))


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code, r.text
    assert 0 < len(err["message"]) <= MAX_MESSAGE, r.text
    assert not _echoed(r.text), r.text


def test_echo_and_bounded_keep_a_short_plain_prefix() -> None:
    assert echo("greedy") == "'greedy'"
    assert echo(MARK) == "'?script?zqxjvQ7w…'"
    assert echo("a" * ECHO) == "'" + "a" * ECHO + "'"
    said = bounded(f"rule 'kryp' must be true or false; got {MARK!r}")
    assert said.startswith("rule 'kryp' must be true or false; got ") and not _echoed(said)
    assert len(bounded("word " * 200)) == MAX_MESSAGE


def test_rest_errors_do_not_echo_the_input(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        for level in (MARK[:32], MARK):  # unknown (a valid length), and too long
            body = {"game": "mulle", "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]}
            _refused(c.post("/api/games", json=body), 422, "bad_request")
        ok = c.post("/api/games", json={"game": "mulle", "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert ok.status_code == 422 and "greedy" in ok.json()["error"]["message"]  # the levels are named
        _refused(c.post("/api/games", json={"game": MARK[:32]}), 422, "bad_request")
        _refused(c.post("/api/games", json={"game": "mulle", MARK: 1}), 422, "bad_request")
        _refused(c.post("/api/games", json={"game": "mulle", "rules": {MARK: 1}}), 422, "bad_rules")
        _refused(c.post("/api/games", json={"game": "mulle", "rules": {"kryp": MARK}}), 422, "bad_rules")
        _refused(c.post("/api/games", json={"game": "cribbage", "rules": {"target": MARK}}), 422, "bad_rules")
        _refused(c.post("/api/games", json={"game": "cribbage", "rules": {MARK: 1}}), 422, "bad_rules")
        _refused(c.get(f"/api/levels/{MARK}"), 404, "unknown_game")
        _refused(c.get(f"/api/options/{MARK}"), 404, "unknown_game")
        _refused(c.get(f"/api/games/{MARK[:60]}"), 404, "not_found")
        _refused(c.get(f"/api/stats?name={MARK}"), 422, "bad_request")


def _next_error(ws: Any) -> dict[str, Any]:
    """The next error message (state messages of the computer's moves meanwhile are passed over)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            return msg


def test_socket_errors_do_not_echo_the_input(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        with c.websocket_connect(f"/ws/games/{MARK[:60]}") as ws:
            err = ws.receive_json()
            assert err["code"] == "not_found" and not _echoed(str(err)), err
        g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human"}])
        code = g["invites"][0]["invite_code"]
        joined = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code})
        tokens = [g["token"], joined.json()["token"]]
        with c.websocket_connect(f"/ws/games/{g['game_id']}") as watching:
            to_act = receive_state(watching)["to_act"]
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={tokens[to_act]}") as ws:
            msg = receive_state(ws)
            ws.send_json({"type": MARK[:200]})
            err = _next_error(ws)
            assert err["code"] == "bad_message" and not _echoed(str(err)), err
            ws.send_json({"type": "move", "version": msg["version"], "move": MARK[:290]})
            err = _next_error(ws)
            assert err["code"] == "malformed" and not _echoed(str(err)), err
            assert len(err["message"]) <= MAX_MESSAGE
