"""The web table on a real PostgreSQL (``postgresql+asyncpg://``): the test starts its own throw-away cluster
(``initdb`` in a temporary folder, ``pg_ctl start`` on a free port, stopped afterwards).  Skipped, saying why,
when the PostgreSQL server binaries are not installed (Debian package ``postgresql``)."""

from __future__ import annotations

import glob
import os
import random
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import make_client, new_game, play_random, receive_state


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name))
    return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "initdb").exists() else None


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    bindir = _bin_dir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); "
                    "on Debian: apt-get install postgresql")  # fmt: skip
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the cluster as the postgres user
        try:
            import pwd

            pg = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run a PostgreSQL cluster as")
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL as the postgres user")
        prefix = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="kortbord-pg-"))
    data, log = root / "data", root / "postgres.log"
    if prefix:
        os.chown(root, pg.pw_uid, pg.pw_gid)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = lambda *cmd: subprocess.run([*prefix, *cmd], check=True, capture_output=True, timeout=120)
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "kortbord", "--auth=trust", "-E", "UTF8", "--no-sync")
        opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(log), "-w", "-t", "60", "start")
        yield f"postgresql+asyncpg://kortbord@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=120)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


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
