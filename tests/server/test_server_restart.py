"""A restarted server resumes every game: a real ``kortbord serve`` (uvicorn) on a temporary SQLite file is killed
mid-game (SIGKILL, bots' worker processes included), started again, and the games are finished -- nothing lost."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from kortbord import cribbage, mulle
from kortbord.server.sessions import replay_record


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(db: Path, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``kortbord serve`` in its own process group; killed with SIGKILL (the whole group) on exit."""
    cmd = [
        sys.executable,
        "-c",
        "from kortbord.cli import main; main()",
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite+aiosqlite:///{db}",
        "--bot-delay",
        "0.05",
        "--bot-workers",
        "1",
        "--ws-rate",
        "1000",
        "--ws-burst",
        "1000",
        "--log-level",
        "warning",
    ]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start: " + log.read_text()
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "state":
            return msg


def _without_events(msg: dict[str, Any]) -> dict[str, Any]:
    """The position a state message describes: without its events, and the aids a first state carries."""
    return {k: v for k, v in msg.items() if k not in ("events", "aids", "advice")}


def test_kill_restart_finish(tmp_path: Path) -> None:
    db, log = tmp_path / "kortbord.db", tmp_path / "server.log"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(2024)
    with server(db, port, log):
        g = httpx.post(f"{base}/api/games", json={"game": "mulle", "rules": {"game_length": "single_round"}}).json()
        bots = httpx.post(
            f"{base}/api/games",
            json={"game": "cribbage", "rules": {"target": 61}, "seats": [{"kind": "bot", "level": "greedy"}] * 2},
        ).json()
        ws_url = f"ws://127.0.0.1:{port}/ws/games/{g['game_id']}?token={g['token']}"
        with connect(ws_url) as ws:
            msg = _state(ws)
            while not (msg["version"] >= 12 and msg["to_act"] == 0):  # stop at our turn: the bot is not thinking
                if msg["to_act"] == 0:
                    move = rng.choice(msg["legal_moves"])["notation"]
                    ws.send(json.dumps({"type": "move", "version": msg["version"], "move": move}))
                msg = _state(ws)
            before_kill = msg
        at_kill = httpx.get(f"{base}/api/games/{bots['game_id']}").json()
        bots_version = at_kill["version"]
        assert bots_version > 0 and at_kill["status"] == "playing"  # killed in the middle of the bots' game
    # the server and its bot workers are gone (SIGKILL); start again on the same database
    with server(db, port, log):
        with connect(ws_url) as ws:
            resumed = _state(ws)
            assert _without_events(resumed) == _without_events(before_kill)  # same version, hand, table, scores
            msg = resumed
            while msg["status"] != "over":
                if msg["to_act"] == 0 and msg["legal_moves"]:
                    move = rng.choice(msg["legal_moves"])["notation"]
                    ws.send(json.dumps({"type": "move", "version": msg["version"], "move": move}))
                msg = _state(ws)
        record = httpx.get(f"{base}/api/games/{g['game_id']}/record").json()
        assert len(record["moves"]) == msg["version"] > before_kill["version"]
        final = replay_record(record)
        assert mulle.is_over(final) and list(mulle.result(final).scores) == msg["result"]["scores"]
        # the all-bot game carried on by itself from where it was stopped, and finished
        deadline = time.monotonic() + 120
        while (s := httpx.get(f"{base}/api/games/{bots['game_id']}").json())["status"] != "over":
            assert time.monotonic() < deadline, "the bot game did not resume"
            time.sleep(0.1)
        assert s["version"] >= bots_version
        rec = httpx.get(f"{base}/api/games/{bots['game_id']}/record").json()
        assert cribbage.SPEC.result(replay_record(rec)).to_json() == rec["result"]  # the contract's result


def test_restart_with_100_stored_games_loads_them_lazily(tmp_path: Path) -> None:
    """A restart loads no game before it serves (issue #12: ``/api/health`` answers at once however many games are
    stored): 100 unfinished two-person games with 30 moves each are stored, the server restarts, no game is in
    memory until a client asks for one, and that game then resumes exactly where it stood."""
    import sys as _sys

    _sys.path.insert(0, str(Path(__file__).resolve().parent))
    from server_helpers import make_client

    db = tmp_path / "kortbord.db"
    tokens: dict[str, tuple[str, str]] = {}
    with make_client(tmp_path, label="lazy") as c:
        for k in range(100):
            game = "cribbage" if k % 2 else "mulle"
            rules = {"target": 121} if k % 2 else {}
            g = c.post("/api/games", json={"game": game, "rules": rules, "seats": [{"kind": "human"}] * 2}).json()
            t1 = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": g["invites"][0]["invite_code"]})
            tokens[g["game_id"]] = (g["token"], t1.json()["token"])
        manager = c.app.state.manager  # type: ignore[attr-defined]

        async def play_one(gid: str, rng: random.Random) -> None:
            s = manager.sessions[gid]
            for _ in range(30):
                await s.submit(s.to_act(), s.version, str(rng.choice(s.spec.legal_moves(s.state))))

        async def play() -> None:  # all games at once: their moves share the group commits
            await asyncio.gather(*(play_one(gid, random.Random(k)) for k, gid in enumerate(tokens)))

        c.portal.call(play)  # type: ignore[union-attr]
        stored = {gid: c.get(f"/api/games/{gid}").json() for gid in list(tokens)[:3]}
        assert all(s["version"] == 30 and s["status"] == "playing" for s in stored.values())
    port = _free_port()
    with server(db, port, tmp_path / "server.log"):
        health = httpx.get(f"http://127.0.0.1:{port}/api/health").json()
        assert health["games_live"] == 0  # nothing was replayed before serving
        gid = next(iter(stored))
        with connect(f"ws://127.0.0.1:{port}/ws/games/{gid}?token={tokens[gid][0]}") as ws:
            msg = _state(ws)
        assert msg["version"] == 30 and msg["status"] == "playing"
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["games_live"] == 1
