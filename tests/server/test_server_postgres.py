"""The web table on a real PostgreSQL (``postgresql+asyncpg://``): the test starts its own throw-away cluster
(``initdb`` in a temporary folder, ``pg_ctl start`` on a free port, stopped afterwards: ``pg_cluster.py``).
Skipped, saying why, when the PostgreSQL server binaries are not installed (Debian package ``postgresql``)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_cluster import postgres_cluster
from server_helpers import make_client, new_game, play_random, receive_state


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def test_play_resume_and_finish_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    with make_client(tmp_path, label="pg", database_url=postgres_url) as c:
        g = new_game(c, game="cribbage", rules={"target": 61}, seats=[{"kind": "human"}, {"kind": "human"}])
        inv = g["invites"][0]["invite_code"]
        t1 = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": inv}).json()["token"]
        assert c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": inv}).status_code == 403
        tokens = [g["token"], t1]
        url = f"/ws/games/{g['game_id']}"
        with (
            c.websocket_connect(f"{url}?token={tokens[0]}") as ws0,
            c.websocket_connect(f"{url}?token={tokens[1]}") as ws1,
        ):
            socks, rng = (ws0, ws1), random.Random(9)
            msgs = [receive_state(ws0), receive_state(ws1)]
            while msgs[0]["version"] < 10:
                seat = msgs[0]["to_act"]
                move = rng.choice(msgs[seat]["legal_moves"])["notation"]
                socks[seat].send_json({"type": "move", "version": msgs[0]["version"], "move": move})
                msgs = [receive_state(ws0), receive_state(ws1)]
        before = msgs
    # a new server process on the same database resumes the game where it stood
    with make_client(tmp_path, label="pg2", database_url=postgres_url) as c:
        with (
            c.websocket_connect(f"{url}?token={tokens[0]}") as ws0,
            c.websocket_connect(f"{url}?token={tokens[1]}") as ws1,
        ):
            again = [receive_state(ws0), receive_state(ws1)]
            assert [m["version"] for m in again] == [10, 10]
            assert [m["view"] for m in again] == [m["view"] for m in before]
            socks, rng = (ws0, ws1), random.Random(10)
            msgs = again
            while msgs[0]["status"] != "over":
                seat = msgs[0]["to_act"]
                move = rng.choice(msgs[seat]["legal_moves"])["notation"]
                socks[seat].send_json({"type": "move", "version": msgs[0]["version"], "move": move})
                msgs = [receive_state(ws0), receive_state(ws1)]
        rec = c.get(f"/api/games/{g['game_id']}/record").json()
        assert len(rec["moves"]) == msgs[0]["version"] and max(rec["result"]["scores"]) >= 61
        # and a game against a bot (the bot pool) plays to the end on PostgreSQL too
        g2 = new_game(c, game="mulle", rules={"game_length": "single_round"})
        with c.websocket_connect(f"/ws/games/{g2['game_id']}?token={g2['token']}") as ws:
            last = play_random(ws, random.Random(4))
        assert last["status"] == "over" and c.get(f"/api/games/{g2['game_id']}").json()["status"] == "over"


def test_notifications_carry_game_id_and_version_only(tmp_path: Path, postgres_url: str) -> None:
    """Every NOTIFY a game sends (issue #12) is ``m:<game>:<version>:<instance>`` or ``s:<game>:<instance>``:
    never a card (a discard to the crib, a hand) -- each instance derives the views from the database itself."""
    import asyncio
    import re
    import threading

    import asyncpg

    from kortbord.server.db import CHANNEL

    payloads: list[str] = []
    ready, stop = threading.Event(), threading.Event()

    def listen() -> None:
        async def run() -> None:
            conn = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg://", "postgresql://"))
            await conn.add_listener(CHANNEL, lambda _c, _p, _ch, payload: payloads.append(payload))
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.05)
            await conn.close()

        asyncio.run(run())

    thread = threading.Thread(target=listen)
    thread.start()
    try:
        assert ready.wait(30)
        with make_client(tmp_path, label="notify", database_url=postgres_url) as c:
            g = new_game(c, game="cribbage", rules={"target": 61}, seats=[{"kind": "human"}, {"kind": "human"}])
            t1 = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": g["invites"][0]["invite_code"]})
            url = f"/ws/games/{g['game_id']}"
            with (
                c.websocket_connect(f"{url}?token={g['token']}") as ws0,
                c.websocket_connect(f"{url}?token={t1.json()['token']}") as ws1,
            ):
                socks, rng = (ws0, ws1), random.Random(5)
                msgs = [receive_state(ws0), receive_state(ws1)]
                while msgs[0]["version"] < 20:
                    seat = msgs[0]["to_act"]
                    move = rng.choice(msgs[seat]["legal_moves"])["notation"]
                    socks[seat].send_json({"type": "move", "version": msgs[0]["version"], "move": move})
                    msgs = [receive_state(ws0), receive_state(ws1)]
            instance = c.get("/api/health").json()["instance"]
        time.sleep(0.5)
    finally:
        stop.set()
        thread.join(30)
    gid = re.escape(g["game_id"])
    shape = re.compile(rf"(m:{gid}:[1-9][0-9]*|s:{gid}):{instance}")
    assert [p for p in payloads if not shape.fullmatch(p)] == []
    assert [p for p in payloads if p.startswith("m:")] == [f"m:{g['game_id']}:{v}:{instance}" for v in range(1, 21)]
    assert any(p.startswith("s:") for p in payloads)  # the join was announced


def test_rematch_offer_and_aids_agreement_seen_by_another_instance(tmp_path: Path, postgres_url: str) -> None:
    with (
        make_client(tmp_path, label="pga", database_url=postgres_url) as a,
        make_client(tmp_path, label="pgb", database_url=postgres_url) as b,
    ):
        g = new_game(
            a, game="mulle", rules={"game_length": "single_round"}, seats=[{"kind": "human"}, {"kind": "human"}]
        )
        gid = g["game_id"]
        t1 = a.post(f"/api/games/{gid}/join", json={"invite_code": g["invites"][0]["invite_code"]}).json()["token"]
        tokens = [g["token"], t1]
        # the agreement to aids, given through A, holds on B
        with a.websocket_connect(f"/ws/games/{gid}?token={tokens[0]}") as ws:
            receive_state(ws)
            ws.send_json({"type": "aids", "agree": True})
            while ws.receive_json()["type"] != "aids":
                pass
        with b.websocket_connect(f"/ws/games/{gid}?token={tokens[1]}") as ws:
            receive_state(ws)
            ws.send_json({"type": "aids"})
            while (msg := ws.receive_json())["type"] != "aids":
                pass
            assert msg["agreed"] == [0] and msg["allowed"] is False
        # the game played to its end through A
        with (
            a.websocket_connect(f"/ws/games/{gid}?token={tokens[0]}") as ws0,
            a.websocket_connect(f"/ws/games/{gid}?token={tokens[1]}") as ws1,
        ):
            socks, rng = (ws0, ws1), random.Random(5)
            msgs = [receive_state(ws0), receive_state(ws1)]
            while msgs[0]["status"] != "over":
                seat = msgs[0]["to_act"]
                move = rng.choice(msgs[seat]["legal_moves"])["notation"]
                socks[seat].send_json({"type": "move", "version": msgs[0]["version"], "move": move})
                msgs = [receive_state(ws0), receive_state(ws1)]
        # seat 0 asks through A; B offers it to seat 1, and seat 1 asking through B takes its seat (twice: the same)
        new = a.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json()
        deadline = time.monotonic() + 10
        while True:
            with b.websocket_connect(f"/ws/games/{gid}?token={tokens[1]}") as ws:
                offer = receive_state(ws).get("rematch")
            if offer is not None or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert offer == {"game_id": new["game_id"], "by": 0}
        answers = [b.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]}) for _ in range(2)]
        assert [r.status_code for r in answers] == [201, 201] and answers[0].json() == answers[1].json()
        assert answers[0].json()["game_id"] == new["game_id"] and answers[0].json()["seat"] == 1
        # seat 0 asking again through B: the same answer it had from A
        assert b.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json() == new
