"""The web table on a real PostgreSQL (``postgresql+asyncpg://``): the test starts its own throw-away cluster
(``initdb`` in a temporary folder, ``pg_ctl start`` on a free port, stopped afterwards: ``pg_cluster.py``).
Skipped, saying why, when the PostgreSQL server binaries are not installed (Debian package ``postgresql``)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def test_a_batch_of_moves_stores_only_those_at_the_stored_version(postgres_url: str) -> None:
    """One group commit on PostgreSQL (issue #12: the database decides each move): moves of three games in one
    batch, one of them made at a version the database has moved past -- that one is refused
    (:class:`~kortbord.server.db.VersionConflict`, nothing of it stored, no notification), the others are stored
    with their snapshots, each announced once with its game id and version."""
    import asyncio
    import datetime as dt

    import asyncpg

    from kortbord.server.db import CHANNEL, GameRow, SeatRow, Store, VersionConflict

    raw_url = postgres_url.replace("postgresql+asyncpg://", "postgresql://")

    async def run() -> tuple[Any, ...]:
        conn = await asyncpg.connect(raw_url)
        await conn.execute("CREATE DATABASE batch_test")
        await conn.close()
        url = postgres_url.rsplit("/", 1)[0] + "/batch_test"
        store = Store(url)
        await store.start()
        heard: list[str] = []
        listener = await asyncpg.connect(raw_url.rsplit("/", 1)[0] + "/batch_test")
        await listener.add_listener(CHANNEL, lambda _c, _p, _ch, payload: heard.append(payload))
        try:
            for gid in ("b1", "b2", "b3"):
                await store.create_game(
                    GameRow(gid, "mulle", None, {}, "x", 2, False, "0" * 64, "0" * 64, "r", 0, None, "playing",
                            dt.datetime.now(dt.UTC), [SeatRow(0, "human", None, None, "h", None, True)], [])
                )  # fmt: skip
            await store.append_move("b2", 1, 0, "T 9H", "playing", {"version": 1})
            # that move's own notification may reach the listener a moment after the commit: wait for it, then
            # listen afresh for the batch's
            for _ in range(250):
                if any(p.startswith("m:b2:1:") for p in heard):
                    break
                await asyncio.sleep(0.02)
            heard.clear()
            batches = store.stats["batches"]
            # one batch: b1 at version 0 (good), b2 again at version 0 (stale: it is at 1), b3 at version 0 (good)
            outcomes = await asyncio.gather(
                store.append_move("b1", 1, 0, "T 2S", "playing", {"version": 1, "phase": "a"}),
                store.append_move("b2", 1, 1, "T 3S", "playing", {"version": 1, "phase": "b"}),
                store.append_move("b3", 1, 0, "T 4S", "over", {"version": 1, "phase": "c"}),
                return_exceptions=True,
            )
            await asyncio.sleep(0.3)
            db = await asyncpg.connect(raw_url.rsplit("/", 1)[0] + "/batch_test")
            stored = [tuple(r) for r in await db.fetch("SELECT game_id, ply, seat, move FROM moves ORDER BY game_id")]
            versions = {r[0]: r[1] for r in await db.fetch("SELECT id, version FROM games")}
            status = await db.fetchval("SELECT status || ':' || CAST(snapshot AS text) FROM games WHERE id = 'b3'")
            await db.close()
            since = await store.moves_since_many({"b1": 0, "b2": 0, "b3": 1, "nope": 0})
            return outcomes, heard, stored, versions, status, store.instance, store.stats["batches"] - batches, since
        finally:
            await listener.close()
            await store.close()

    outcomes, heard, stored, versions, status, instance, batches, since = asyncio.run(run())
    assert since == {"b1": ["T 2S"], "b2": ["T 9H"]}  # every game's moves after the version asked, in one query
    assert batches == 1  # the three moves were written together
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], VersionConflict)
    assert stored == [("b1", 1, 0, "T 2S"), ("b2", 1, 0, "T 9H"), ("b3", 1, 0, "T 4S")]
    assert versions == {"b1": 1, "b2": 1, "b3": 1}
    assert status == 'over:{"version":1,"phase":"c"}'
    assert sorted(heard) == [f"m:b1:1:{instance}", f"m:b3:1:{instance}"]


def test_seats_on_postgresql_one_join_per_invite_and_the_game_reads_back_as_stored(postgres_url: str) -> None:
    """A game stored on PostgreSQL reads back as it was written (rules, seats, snapshot); of two concurrent joins
    with one invite exactly one takes the seat, a wrong invite takes none, and only a taken seat is announced
    (``s:<game>:<instance>``); a status change is stored and announced."""
    import asyncio
    import datetime as dt

    import asyncpg

    from kortbord.server.db import CHANNEL, GameRow, SeatRow, Store, Update

    raw_url = postgres_url.replace("postgresql+asyncpg://", "postgresql://")
    created = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    row = GameRow("j1", "cribbage", "Table", {"target": 61}, "x", 2, False, "1" * 64, "2" * 64, "r", 0,
                  {"version": 0, "first_dealer": 1}, "waiting", created,
                  [SeatRow(0, "human", None, "Ann", "t0", None, True), SeatRow(1, "human", None, None, None, "i1", False)],
                  [])  # fmt: skip

    async def run() -> tuple[
        GameRow | None, list[int | None], int | None, Update | None, Update | None, list[str], str
    ]:
        conn = await asyncpg.connect(raw_url)
        await conn.execute("CREATE DATABASE seats_test")
        await conn.close()
        store = Store(postgres_url.rsplit("/", 1)[0] + "/seats_test")
        await store.start()
        heard: list[str] = []
        listener = await asyncpg.connect(raw_url.rsplit("/", 1)[0] + "/seats_test")
        await listener.add_listener(CHANNEL, lambda _c, _p, _ch, payload: heard.append(payload))
        try:
            await store.create_game(row)
            back = await store.load_game("j1")
            wrong = await store.claim_seat("j1", "nope", "tx", None)
            both = await asyncio.gather(
                store.claim_seat("j1", "i1", "ta", "Bo"), store.claim_seat("j1", "i1", "tb", "Cy")
            )
            after = await store.load_since("j1", 0)
            await store.set_status("j1", "playing")
            status = await store.load_since("j1", 0)
            await asyncio.sleep(0.3)
            return back, list(both), wrong, after, status, heard, store.instance
        finally:
            await listener.close()
            await store.close()

    back, both, wrong, after, status, heard, instance = asyncio.run(run())
    assert back == row
    assert wrong is None
    assert sorted(both, key=str) == [1, None]
    assert after is not None and status is not None
    winner = after.seats[1]
    assert (winner.claimed, winner.invite_hash) == (True, None)
    assert (winner.token_hash, winner.name) in (("ta", "Bo"), ("tb", "Cy"))
    assert after.status == "waiting" and status.status == "playing"
    assert heard == [f"s:j1:{instance}", f"s:j1:{instance}"]  # the one join, the status change
