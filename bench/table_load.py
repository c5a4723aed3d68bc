"""Web table load benchmark: N concurrent two-seat games played over WebSocket against a real ``kortbord serve``.

The server runs in a subprocess (uvicorn, a temporary SQLite file, every move written before it is
acknowledged).  For each game this client opens both seats' WebSockets and plays random legal moves for both, as
two computer players would; the time a player "thinks" before moving (``--think-ms``, uniformly 0.5x..1.5x) is
*not* measured.  The round trip measured is: send a move -> receive the state message of the next version on the
same connection (the move validated by the engine, stored, and every seat's view built and sent).  Games alternate
Mulle (one round) and Cribbage (to 61); a finished game is replaced by a new one so N stay in play.

The peer named by the target: p99 under 100 ms with 200 concurrent games on this 2-core machine (the bench client
shares those two cores with the server).  Reproduce with:

    .venv/bin/python bench/table_load.py                      # N = 50, 100, 200 with the default think time
    .venv/bin/python bench/table_load.py --games 200 --think-ms 0 --seconds 20   # saturation: no think time
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

TARGET_P99_MS = 100.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``kortbord serve`` on ``port`` with a SQLite file (no rate limit: the bench client is one address)."""
    cmd = [
        sys.executable, "-c", "from kortbord.cli import main; main()", "serve",
        "--port", str(port), "--database-url", f"sqlite+aiosqlite:///{db}",
        "--ws-rate", "100000", "--ws-burst", "100000", "--rest-rate", "100000", "--rest-burst", "100000", "--bot-delay", "0", "--log-level", "warning",
    ]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not start:\n" + log.read_text())
        time.sleep(0.1)


class Stats:
    """Round trips (seconds) and errors collected while measuring."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.games_done = 0
        self.client_cpu = 0.0


async def seat_player(url: str, seat: int, think: float, stats: Stats, rng: random.Random, stop: asyncio.Event) -> None:
    """Play one seat until the game is over (or the run stops)."""
    async with websockets.connect(url, max_size=2**22, compression=None) as ws:
        sent_version: int | None = None
        sent_at = 0.0
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                sent_version = None
                await ws.send('{"type":"resync"}')
                continue
            if msg["type"] != "state":
                continue
            if sent_version is not None and msg["version"] == sent_version + 1:
                if stats.measuring:
                    stats.rtts.append(now - sent_at)
                sent_version = None
            if msg["status"] == "over":
                if seat == 0:
                    stats.games_done += 1
                return
            if msg["to_act"] == seat and msg["legal_moves"] and sent_version is None:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                move = rng.choice(msg["legal_moves"])["notation"]
                sent_version = msg["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": msg["version"], "move": move}))


async def table(base: str, ws_base: str, k: int, think: float, stats: Stats, stop: asyncio.Event) -> None:
    """Keep one table busy: create a two-person game, play it with both seats, start the next."""
    rng = random.Random(k)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        n = 0
        while not stop.is_set():
            body: dict[str, Any] = (
                {"game": "mulle", "rules": {"game_length": "single_round"}}
                if (k + n) % 2 == 0
                else {"game": "cribbage", "rules": {"target": 61}}
            )
            body["seats"] = [{"kind": "human"}, {"kind": "human"}]
            n += 1
            r = await http.post("/api/games", json=body)
            r.raise_for_status()
            g = r.json()
            code = g["invites"][0]["invite_code"]
            t1 = (await http.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code})).json()["token"]
            url = f"{ws_base}/ws/games/{g['game_id']}?token="
            await asyncio.gather(
                seat_player(url + g["token"], 0, think, stats, rng, stop),
                seat_player(url + t1, 1, think, stats, random.Random(rng.random()), stop),
            )


async def run(port: int, games: int, think: float, warmup: float, seconds: float) -> Stats:
    """Run ``games`` tables for ``warmup + seconds``; measure during the last ``seconds``."""
    stats = Stats()
    stop = asyncio.Event()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    tasks = [asyncio.create_task(table(base, ws_base, k, think, stats, stop)) for k in range(games)]
    await asyncio.sleep(warmup)
    stats.measuring = True
    c0 = time.process_time()
    await asyncio.sleep(seconds)
    stats.client_cpu = (time.process_time() - c0) / seconds
    stats.measuring = False
    stop.set()
    for t in tasks:
        t.cancel()
    for t in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await t
            except Exception as exc:  # a table that failed is reported, not hidden
                stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1
    return stats


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by the server process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _db_batch(port: int) -> str:
    """The server's group-commit figures: mean / max milliseconds per batch so far."""
    health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json()
    db, lag = health["db"], health["loop_lag"]
    late = 100.0 * lag["over_50ms"] / max(1, lag["samples"])
    return f"{db['mean_batch_ms']:.1f}/{db['max_batch_ms']:.0f}  loop late>50ms {late:.1f}% max {lag['max_ms']:.0f} (cpu {lag['max_cpu_ms']:.0f})"


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games", type=int, nargs="*", default=[50, 100, 200], help="concurrent games (default 50 100 200)"
    )
    ap.add_argument("--think-ms", type=float, default=500.0, help="mean think time per move, not measured (ms)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds per N")
    ap.add_argument("--warmup", type=float, default=5.0, help="unmeasured seconds before measuring")
    ap.add_argument("--db-dir", default=None, help="folder for the SQLite file (default: the system temp folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kortbord-bench-", dir=args.db_dir) as tmp:
        port = _free_port()
        proc = start_server(Path(tmp) / "bench.db", port, Path(tmp) / "server.log")
        try:
            print(f"kortbord web table load: {os.cpu_count()} CPUs, SQLite in {tmp}, think {args.think_ms:g} ms (excluded), "
                  f"{args.seconds:g} s measured per run; target p99 < {TARGET_P99_MS:g} ms at 200 games")  # fmt: skip
            print(f"{'games':>6} {'moves':>7} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
                  f"{'p99/target':>10} {'server CPU':>10} {'client CPU':>10} {'DB batch ms':>11}  errors")  # fmt: skip
            for n in args.games:
                cpu0 = _cpu_seconds(proc.pid)
                stats = asyncio.run(run(port, n, args.think_ms / 1000.0, args.warmup, args.seconds))
                cpu = (_cpu_seconds(proc.pid) - cpu0) / (args.warmup + args.seconds + 1.0)
                if not stats.rtts:
                    print(f"{n:>6} no moves measured; errors {stats.errors}")
                    continue
                p99 = _pct(stats.rtts, 0.99)
                print(
                    f"{n:>6} {len(stats.rtts):>7} {len(stats.rtts) / args.seconds:>8.0f} "
                    f"{statistics.median(stats.rtts) * 1000:>8.1f} {p99:>8.1f} {max(stats.rtts) * 1000:>8.1f} "
                    f"{p99 / TARGET_P99_MS:>10.2f} {cpu * 100:>9.0f}% {stats.client_cpu * 100:>9.0f}% "
                    f"{_db_batch(port):>11}  {stats.errors or '-'}"
                )
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
