"""Many ``kortbord serve`` instances on one PostgreSQL (issue #12): real server processes on a throw-away cluster
the test starts (``pg_cluster.py``; skipped, saying why, without PostgreSQL).

* three instances: a game created on one, joined through another, played and watched through all three; every
  move reaches every client on every instance, a resync anywhere answers the database's version;
* two instances: the same seat sends two different moves for one version through both at once -- exactly one is
  stored, the other refused with ``stale_version``, and the stored move is the accepted one;
* kill -9 of the instance driving a game of computer players: the other one carries on within 5 s, and every
  move a client saw before the kill is the game's move at that version;
* a whole game through nginx (Debian's, with ``deploy/nginx/kortbord.conf``) in front of two instances.

No instance logs a traceback, a duplicate key or a move it could not store.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from instances import Instance, Reader, eventually, instances, log_problems
from pg_cluster import free_port, postgres_cluster

from kortbord import cribbage
from kortbord.server.sessions import replay_record

ROOT = Path(__file__).resolve().parents[2]
NGINX_SITE = ROOT / "deploy" / "nginx" / "kortbord.conf"


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def _post(inst: Instance | str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    base = inst if isinstance(inst, str) else inst.base
    r = httpx.post(f"{base}{path}", json=body, timeout=30)
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def _get(inst: Instance | str, path: str) -> dict[str, Any]:
    base = inst if isinstance(inst, str) else inst.base
    r = httpx.get(f"{base}{path}", timeout=30)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _two_humans(inst: Instance) -> tuple[str, str, str]:
    """A two-person Cribbage game to 61 created on ``inst``: (game id, seat 0's token, seat 1's invite)."""
    g = _post(inst, "/api/games", {"game": "cribbage", "rules": {"target": 61}, "seats": [{"kind": "human"}] * 2})
    return g["game_id"], g["token"], g["invites"][0]["invite_code"]


def _assert_clean(*insts: Instance) -> None:
    for inst in insts:
        assert log_problems(inst) == [], inst.log.read_text()


def test_three_instances_join_move_spectate_resync(pg: str, tmp_path: Path) -> None:
    with instances(pg, tmp_path, 3) as (a, b, c):
        gid, token0, invite = _two_humans(a)
        assert _get(c, f"/api/games/{gid}")["status"] == "waiting"  # visible through any instance at once
        token1 = _post(b, f"/api/games/{gid}/join", {"invite_code": invite})["token"]  # joined through B
        # ... and seated through A at once (A learns the seat from the database, not "bad_token")
        seat1 = Reader(f"{a.ws_base}/ws/games/{gid}?token={token1}")
        seat0 = Reader(f"{c.ws_base}/ws/games/{gid}?token={token0}")
        watch_b = Reader(f"{b.ws_base}/ws/games/{gid}")
        watch_c = Reader(f"{c.ws_base}/ws/games/{gid}")
        clients = (seat0, seat1, watch_b, watch_c)
        try:
            for r in clients:
                assert r.until(lambda m: m["status"] == "playing")["version"] == 0
            for inst in (a, b, c):  # every instance knows the seat is taken
                eventually(lambda inst=inst: _get(inst, f"/api/games/{gid}")["status"] == "playing", what="playing")
            rng = random.Random(12)
            seats = (seat0, seat1)
            v = 0
            while True:
                msgs = [r.version(v) for r in clients]
                assert {m["version"] for m in msgs} == {v}
                assert msgs[2]["view"] == msgs[3]["view"]  # the spectators on B and C see the same table
                assert msgs[0]["to_act"] == msgs[1]["to_act"] == msgs[2]["to_act"]
                if msgs[0]["status"] == "over":
                    break
                seat = msgs[0]["to_act"]
                move = rng.choice(msgs[seat]["legal_moves"])["notation"]
                seats[seat].send({"type": "move", "version": v, "move": move})
                seats[seat].version(v + 1)  # acknowledged by the mover's instance
                if v % 7 == 3:  # a resync through another instance answers what the database holds
                    other = watch_b if seat == 0 else watch_c  # B or C, not the mover's instance
                    other.send({"type": "resync"})
                    assert other.next_state()["version"] == v + 1
                v += 1
            assert all(not r.errors for r in clients), [r.errors for r in clients]
            for inst in (a, b, c):
                eventually(lambda inst=inst: _get(inst, f"/api/games/{gid}")["version"] == v, what="version")
            records = [_get(inst, f"/api/games/{gid}/record") for inst in (a, b, c)]
            assert records[0] == records[1] == records[2] and len(records[0]["moves"]) == v
            final = replay_record(records[0])
            assert cribbage.SPEC.result(final).to_json() == msgs[0]["result"]
            assert max(msgs[0]["result"]["scores"]) >= 61
        finally:
            for r in clients:
                r.close()
        _assert_clean(a, b, c)


def test_concurrent_moves_through_two_instances_exactly_one_accepted(pg: str, tmp_path: Path) -> None:
    with instances(pg, tmp_path, 2) as (a, b):
        gid, token0, invite = _two_humans(a)
        token1 = _post(a, f"/api/games/{gid}/join", {"invite_code": invite})["token"]
        # seat 0 is connected twice: through A and through B
        s0a = Reader(f"{a.ws_base}/ws/games/{gid}?token={token0}")
        s0b = Reader(f"{b.ws_base}/ws/games/{gid}?token={token0}")
        s1 = Reader(f"{b.ws_base}/ws/games/{gid}?token={token1}")
        rng = random.Random(7)
        accepted: dict[int, str] = {}
        races = 0
        try:
            v = 0
            while True:
                msgs = [r.version(v) for r in (s0a, s0b, s1)]
                if msgs[0]["status"] == "over":
                    break
                if msgs[0]["to_act"] == 1:
                    s1.send({"type": "move", "version": v, "move": rng.choice(msgs[2]["legal_moves"])["notation"]})
                elif races < 12:
                    legal = [m["notation"] for m in msgs[0]["legal_moves"]]
                    mine = rng.sample(legal, 2) if len(legal) > 1 else legal * 2
                    before = (len(s0a.errors), len(s0b.errors))
                    s0a.send({"type": "move", "version": v, "move": mine[0]})
                    s0b.send({"type": "move", "version": v, "move": mine[1]})
                    for r in (s0a, s0b):
                        r.version(v + 1)
                        r.pong()  # every answer to the move has arrived
                    refused = [r.errors[n:] for r, n in zip((s0a, s0b), before, strict=True)]
                    assert sorted(len(e) for e in refused) == [0, 1], refused  # exactly one refused ...
                    loser = 0 if refused[0] else 1
                    assert refused[loser][0]["code"] == "stale_version"  # ... as made on an old version
                    accepted[v] = mine[1 - loser]
                    races += 1
                else:
                    s0a.send({"type": "move", "version": v, "move": rng.choice(msgs[0]["legal_moves"])["notation"]})
                v += 1
            assert races == 12 and s1.errors == []
            record = _get(b, f"/api/games/{gid}/record")
            assert len(record["moves"]) == v
            for ply, move in accepted.items():  # the move stored at each raced version is the accepted one
                assert record["moves"][ply] == move
            replay_record(record)
        finally:
            for r in (s0a, s0b, s1):
                r.close()
        _assert_clean(a, b)


def test_kill_the_instance_driving_a_bot_game(pg: str, tmp_path: Path) -> None:
    with instances(pg, tmp_path, 2, bot_delay=0.05) as both:
        seats = [{"kind": "bot", "level": "greedy"}] * 2
        g = _post(both[0], "/api/games", {"game": "cribbage", "rules": {"target": 61}, "seats": seats})
        gid = g["game_id"]
        watchers = [Reader(f"{inst.ws_base}/ws/games/{gid}") for inst in both]
        try:
            for w in watchers:
                w.version(5)
            eventually(lambda: sorted(i.health()["bot_leases"] for i in both) == [0, 1], what="one driver")
            driver = 0 if both[0].health()["bot_leases"] == 1 else 1
            other = 1 - driver
            watchers[driver].version(12)
            both[driver].kill()
            killed_at = time.monotonic()
            # what the killed instance acknowledged: every state its client received (read what is buffered)
            seen_at_kill = max(watchers[driver].states)
            with pytest.raises(Exception):  # noqa: B017 -- the connection is gone: any websockets error
                while True:
                    watchers[driver].recv(timeout=2.0)
            acked = dict(watchers[driver].states)
            assert max(acked) >= seen_at_kill >= 12
            w = watchers[other]
            w.version(max(acked))
            w.version(max(acked) + 1, timeout=5.0)  # the other instance carries on ...
            assert time.monotonic() - killed_at < 5.0  # ... within 5 s of the kill
            assert both[other].health()["bot_leases"] == 1
            last = w.until(lambda m: m["status"] == "over", timeout=120.0)
            record = _get(both[other], f"/api/games/{gid}/record")
            assert len(record["moves"]) == last["version"]
            # no acknowledged move lost: what the killed instance's client saw at each version is the stored game
            # replayed to that version
            for version, msg in acked.items():
                at = replay_record(dict(record, moves=record["moves"][:version]))
                assert cribbage.SPEC.view(at, None).to_json() == msg["view"], version
            assert cribbage.SPEC.result(replay_record(record)).to_json() == last["result"]
        finally:
            for r in watchers:
                r.close()
        _assert_clean(both[other])


def _nginx_conf(folder: Path, port: int, upstreams: list[int]) -> Path:
    """A top-level nginx.conf in ``folder`` (not a daemon; pid, logs and temp files in ``folder``) that includes
    ``deploy/nginx/kortbord.conf`` with its listen port and upstream servers replaced by the test's."""
    site = NGINX_SITE.read_text()
    assert "server 127.0.0.1:8001" in site and "listen 80;" in site
    lines = []
    for line in site.splitlines():
        if line.strip().startswith("server 127.0.0.1:800"):
            continue
        if line.strip() == "upstream kortbord {":
            lines.append(line)
            lines.extend(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstreams)
            continue
        if line.strip().startswith("listen "):
            if "[::]" in line:
                continue
            line = f"    listen 127.0.0.1:{port};"
        if line.strip().startswith("access_log /var/log/nginx/"):  # the site's own format, in the test's folder
            line = f"    access_log {folder / 'access.log'} kortbord;"
        lines.append(line)
    (folder / "site.conf").write_text("\n".join(lines) + "\n")
    tmp = folder / "tmp"
    tmp.mkdir()
    tmp.chmod(0o777)  # nginx's workers (another user when started as root) write their temp files there
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""daemon off;
master_process on;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log {folder / "access.log"};
    client_body_temp_path {tmp / "body"};
    proxy_temp_path {tmp / "proxy"};
    fastcgi_temp_path {tmp / "fastcgi"};
    uwsgi_temp_path {tmp / "uwsgi"};
    scgi_temp_path {tmp / "scgi"};
    include {folder / "site.conf"};
}}
"""
    )
    return conf


def test_a_whole_game_through_nginx_in_front_of_two_instances(pg: str, tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (on Debian: apt-get install nginx-light)")
    with instances(pg, tmp_path, 2) as both:
        port = free_port()
        conf = _nginx_conf(tmp_path, port, [i.port for i in both])
        check = subprocess.run([nginx, "-t", "-c", str(conf), "-e", str(tmp_path / "error.log")], capture_output=True)
        assert check.returncode == 0, check.stderr.decode()
        proc = subprocess.Popen([nginx, "-c", str(conf), "-e", str(tmp_path / "error.log")], stderr=subprocess.PIPE)
        try:
            base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            eventually(lambda: _ok(f"{base}/api/health"), what="nginx answering")
            served = {_get(base, "/api/health")["instance"] for _ in range(6)}
            assert len(served) == 2  # requests go to both instances (no stickiness)
            g = _post(
                base, "/api/games", {"game": "cribbage", "rules": {"target": 61}, "seats": [{"kind": "human"}] * 2}
            )
            gid = g["game_id"]
            token1 = _post(base, f"/api/games/{gid}/join", {"invite_code": g["invites"][0]["invite_code"]})["token"]
            # a browser's WebSocket: same-origin page (the Origin check sees nginx's Host with its port)
            origin = {"origin": f"http://127.0.0.1:{port}"}
            seats = (
                Reader(f"{ws_base}/ws/games/{gid}?token={g['token']}", additional_headers=origin),
                Reader(f"{ws_base}/ws/games/{gid}?token={token1}", additional_headers=origin),
            )
            watch = Reader(f"{ws_base}/ws/games/{gid}")
            try:
                rng = random.Random(3)
                v = 0
                while True:
                    msgs = [r.until(lambda m, v=v: m["version"] >= v and m["status"] != "waiting") for r in seats]
                    watch.version(v)
                    assert msgs[0]["version"] == msgs[1]["version"] == v
                    if msgs[0]["status"] == "over":
                        break
                    seat = msgs[0]["to_act"]
                    seats[seat].send(
                        {"type": "move", "version": v, "move": rng.choice(msgs[seat]["legal_moves"])["notation"]}
                    )
                    v += 1
                assert all(not r.errors for r in (*seats, watch))
                record = _get(base, f"/api/games/{gid}/record")
                assert len(record["moves"]) == v
                assert cribbage.SPEC.result(replay_record(record)).to_json() == msgs[0]["result"]
                # both instances served this game (it is live in both memories)
                assert all(inst.health()["games_live"] >= 1 for inst in both)
            finally:
                for r in (*seats, watch):
                    r.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        errors = (tmp_path / "error.log").read_text() if (tmp_path / "error.log").exists() else ""
        assert "[emerg]" not in errors and "[crit]" not in errors, errors
        # the site's access log names every request (the WebSockets' and the join's) but no seat's secret
        logged = (tmp_path / "access.log").read_text()
        assert f"/ws/games/{gid}" in logged and f"/api/games/{gid}/join" in logged
        for secret in (g["token"], token1, g["invites"][0]["invite_code"]):
            assert secret not in logged
        assert "token=" not in logged
        _assert_clean(*both)


def _ok(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
