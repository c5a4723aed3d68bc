"""The aids after the fresh-user and breaker passes (issue #11): an aid's answer goes through the connection's
bounded queue like every other message; the players' agreement to aids is kept with the game (stored), so it
survives everyone leaving and a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server_helpers import make_client, new_game, receive_state

from kortbord import core
from kortbord.server import aids
from kortbord.server.db import GameRow, SeatRow
from kortbord.server.sessions import build_session
from kortbord.server.ws import MAX_QUEUE, Connection


class _Socket:
    """A socket nobody reads: what the server queues for it stays queued."""


def _session(game: str) -> Any:
    spec = core.get(game)
    seed = "ab" * 32
    row = GameRow.new(
        id="q",
        game=game,
        rules={},
        rules_version=spec.rules_version,
        players=2,
        teams=False,
        seed=seed,
        seats=[SeatRow(0, "human", None, None, "x", None, True), SeatRow(1, "bot", "greedy", None, None, None, True)],
    )
    return build_session(row)


def test_aid_answers_go_through_the_bounded_queue() -> None:
    session = _session("mulle")
    conn = Connection(_Socket(), 0)  # type: ignore[arg-type]

    async def flood() -> None:
        for _ in range(2 * MAX_QUEUE):
            await aids.handle(session, conn, {"type": "advice"})
            await aids.handle(session, conn, {"type": "aids"})

    asyncio.run(flood())
    # the client read nothing: it was disconnected once MAX_QUEUE messages waited, and nothing more was queued
    assert conn.closed and conn.overflow
    assert conn.queue.qsize() == MAX_QUEUE + 1  # the messages, then the pump's stop mark
    items = [conn.queue.get_nowait() for _ in range(MAX_QUEUE + 1)]
    assert items[-1] is None and all(isinstance(i, str) for i in items[:-1])


def _two_people(c: Any) -> tuple[str, list[str]]:
    g = new_game(c, game="mulle", seats=[{"kind": "human", "name": "Anna"}, {"kind": "human"}])
    joined = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": g["invites"][0]["invite_code"]})
    assert joined.status_code == 200
    return g["game_id"], [g["token"], joined.json()["token"]]


def _aids_status(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "aids":
            return msg


def test_the_agreement_to_aids_stays_with_the_game(tmp_path: Path) -> None:
    with make_client(tmp_path, label="agree") as c:
        gid, tokens = _two_people(c)
        url = f"/ws/games/{gid}"
        for token in tokens:
            with c.websocket_connect(f"{url}?token={token}") as ws:
                receive_state(ws)
                ws.send_json({"type": "aids", "agree": True})
                status = _aids_status(ws)
        assert status["allowed"] is True and status["agreed"] == [0, 1]
        # everyone has left (the game may be dropped from memory): coming back, the agreement is still there
        with c.websocket_connect(f"{url}?token={tokens[0]}") as ws:
            receive_state(ws)
            ws.send_json({"type": "aids"})
            assert _aids_status(ws)["agreed"] == [0, 1]
    # and after a restart of the server
    with make_client(tmp_path, label="agree2") as c, c.websocket_connect(f"/ws/games/{gid}?token={tokens[1]}") as ws:
        receive_state(ws)
        ws.send_json({"type": "aids"})
        status = _aids_status(ws)
        assert status["allowed"] is True and status["agreed"] == [0, 1]
        ws.send_json({"type": "aids", "agree": False})  # taking it back is stored too
        assert _aids_status(ws)["agreed"] == [0]
    with make_client(tmp_path, label="agree3") as c, c.websocket_connect(f"/ws/games/{gid}?token={tokens[0]}") as ws:
        receive_state(ws)
        ws.send_json({"type": "aids"})
        status = _aids_status(ws)
        assert status["allowed"] is False and status["agreed"] == [0]
