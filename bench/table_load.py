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

Many instances (issue #12): ``--instances 2 --via-nginx`` runs the same load (default 500 games, 1 s mean think
time) twice on a throw-away PostgreSQL cluster (``tests/server/pg_cluster.py``): against one instance and against
two, each time through Debian's nginx with ``deploy/nginx/kortbord.conf`` (no sticky sessions), side by side.
Printed per configuration: moves/s, p50/p99 move round trip (goal p99 < 100 ms), each instance's longest event-loop
block (the worst wake-up delay of its loop-lag monitor, with the CPU ms the loop spent in it: a high CPU share is a
blocked loop, a low one a busy host; then the garbage collector's longest tick and its thorough passes, count x
longest ms, ``kortbord.server.collector``), memory per live game (resident memory growth / games in memory), and how long
a restart (kill -9) of one instance takes to answer ``/api/health`` with every unfinished game still stored.
Then a CPU table (issue #12: less sensitive than latency to whatever else runs on a shared machine): CPU ms per
move served over the measured seconds of the instances (together and each), this bench client, nginx and
PostgreSQL (its backends, closed ones included), with the 1-minute load average at the end of the run.

    nice -n 5 .venv/bin/python bench/table_load.py --instances 2 --via-nginx
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
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
import orjson
import websockets

TARGET_P99_MS = 100.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path | str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``kortbord serve`` on ``port`` with a SQLite file (a path) or a database URL (no rate limit: the bench client
    is one address)."""
    url = db if isinstance(db, str) else f"sqlite+aiosqlite:///{db}"
    cmd = [
        sys.executable, "-c", "from kortbord.cli import main; main()", "serve",
        "--port", str(port), "--database-url", url, "--bot-workers", "1",
        "--ws-rate", "100000", "--ws-burst", "100000", "--rest-rate", "100000", "--rest-burst", "100000", "--bot-delay", "0", "--log-level", "warning",
    ]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    _wait_health(port, proc, log)
    return proc


class Stats:
    """Round trips (seconds) and errors collected while measuring."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.games_done = 0
        self.games_started = 0
        self.client_cpu = 0.0
        #: CPU seconds per process of interest over the measured seconds (``cpu_probe``), by label
        self.cpu: dict[str, float] = {}
        #: the 1-minute load average at the end of the measured seconds
        self.load = 0.0


async def seat_player(url: str, seat: int, think: float, stats: Stats, rng: random.Random, stop: asyncio.Event) -> None:
    """Play one seat until the game is over (or the run stops: the task is cancelled).  As light as a browser's
    page: one read per message (no timer per read), each state parsed in full (orjson, as a browser's native
    ``JSON.parse``)."""
    async with websockets.connect(url, max_size=2**22, compression=None) as ws:
        sent_version: int | None = None
        sent_at = 0.0
        while not stop.is_set():
            raw = await ws.recv()
            now = time.perf_counter()
            msg = orjson.loads(raw)
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
                await ws.send(orjson.dumps({"type": "move", "version": msg["version"], "move": move}).decode())


async def table(
    base: str, ws_base: str, k: int, think: float, stats: Stats, stop: asyncio.Event, delay: float = 0.0
) -> None:
    """Keep one table busy: create a two-person game, play it with both seats, start the next (first waiting
    ``delay`` seconds, so many tables do not all open at the same instant)."""
    rng = random.Random(k)
    await asyncio.sleep(delay)
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
            stats.games_started += 1
            code = g["invites"][0]["invite_code"]
            t1 = (await http.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code})).json()["token"]
            url = f"{ws_base}/ws/games/{g['game_id']}?token="
            await asyncio.gather(
                seat_player(url + g["token"], 0, think, stats, rng, stop),
                seat_player(url + t1, 1, think, stats, random.Random(rng.random()), stop),
            )


async def run(
    port: int,
    games: int,
    think: float,
    warmup: float,
    seconds: float,
    during: Any = None,
    cpu_probe: Any = None,
) -> tuple[Stats, Any]:
    """Run ``games`` tables for ``warmup + seconds``; measure during the last ``seconds`` (the tables open spread
    over the first half of the warm-up).  ``during()``, if given, is called at the end of the measured seconds
    (while every table is still playing); returns the stats and what ``during()`` returned.  ``cpu_probe()``, if
    given, returns ``{label: CPU seconds so far}`` of the processes to account (servers, nginx, PostgreSQL): read
    at the start and the end of the measured seconds into ``stats.cpu``."""
    stats = Stats()
    stop = asyncio.Event()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    spread = warmup / 2 / max(1, games)
    tasks = [asyncio.create_task(table(base, ws_base, k, think, stats, stop, k * spread)) for k in range(games)]
    await asyncio.sleep(warmup)
    cpu0 = cpu_probe() if cpu_probe is not None else {}
    stats.measuring = True
    c0 = time.process_time()
    await asyncio.sleep(seconds)
    stats.client_cpu = (time.process_time() - c0) / seconds
    stats.measuring = False
    if cpu_probe is not None:
        cpu1 = cpu_probe()
        stats.cpu = {k: cpu1[k] - cpu0.get(k, 0.0) for k in cpu1}
    stats.load = os.getloadavg()[0]
    seen = await asyncio.to_thread(during) if during is not None else None
    stop.set()
    for t in tasks:
        t.cancel()
    for t in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await t
            except Exception as exc:  # a table that failed is reported, not hidden
                stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1
    return stats, seen


def _cpu_seconds(pid: int, reaped: bool = False) -> float:
    """CPU seconds (user + system) used so far by a process (Linux ``/proc``; 0 elsewhere), with ``reaped`` also
    those of its children that have exited and been waited for."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if reaped else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def _proc_children() -> dict[int, list[int]]:
    """Every process's children (Linux ``/proc``; empty elsewhere)."""
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        out.setdefault(ppid, []).append(int(entry.name))
    return out


def _postmaster_pid(url: str) -> int | None:
    """The PostgreSQL server process listening on ``url``'s port (its command line says ``-p PORT``), or None."""
    port = url.rsplit(":", 1)[1].split("/", 1)[0]
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].endswith(b"postgres") and b"-p" in cmd and port.encode() in cmd:
                return int(entry.name)
    return None


def _tree_cpu(pid: int | None) -> float:
    """CPU seconds used so far by a process, its live children and the children it has reaped (PostgreSQL: the
    postmaster, its backends, and the backends of connections already closed)."""
    if pid is None:
        return 0.0
    kids = _proc_children().get(pid, [])
    return _cpu_seconds(pid, reaped=True) + sum(_cpu_seconds(k) for k in kids)


def _per_move(stats: Stats, label: str) -> str:
    """CPU ms per measured move of the processes labelled ``label`` (a prefix: ``server`` sums every instance)."""
    moves = max(1, len(stats.rtts))
    return f"{1000.0 * sum(v for k, v in stats.cpu.items() if k.startswith(label)) / moves:.2f}"


def _db_batch(port: int) -> str:
    """The server's group-commit figures: mean / max milliseconds per batch so far."""
    health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json()
    db, lag = health["db"], health["loop_lag"]
    late = 100.0 * lag["over_50ms"] / max(1, lag["samples"])
    return f"{db['mean_batch_ms']:.1f}/{db['max_batch_ms']:.0f}  loop late>50ms {late:.1f}% max {lag['max_ms']:.0f} (cpu {lag['max_cpu_ms']:.0f})"


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


# -- many instances on PostgreSQL, behind nginx ------------------------------------------------------------------
NGINX_SITE = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "kortbord.conf"


def _rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux ``/proc``; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _health(port: int) -> dict[str, Any]:
    out: dict[str, Any] = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=30).json()
    return out


def _wait_health(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> float:
    """Seconds until ``/api/health`` answers on ``port``."""
    t0 = time.monotonic()
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return time.monotonic() - t0
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() - t0 > timeout:
            raise SystemExit("the server did not start:\n" + log.read_text())
        time.sleep(0.02)


def start_nginx(folder: Path, port: int, upstreams: list[int]) -> subprocess.Popen[bytes]:
    """Debian's nginx, not a daemon, on ``port`` with ``deploy/nginx/kortbord.conf`` (its upstream servers and
    listen port replaced), pid, logs and temp files in ``folder``."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("nginx is not installed (on Debian: apt-get install nginx-light)")
    lines = []
    for line in NGINX_SITE.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("server 127.0.0.1:800") or (stripped.startswith("listen ") and "[::]" in line):
            continue
        if stripped.startswith("access_log /var/log/nginx/"):  # the bench logs nothing (http: access_log off)
            continue
        if stripped.startswith("listen "):
            line = f"    listen 127.0.0.1:{port} backlog=4096;"
        lines.append(line)
        if stripped == "upstream kortbord {":
            lines.extend(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstreams)
    (folder / "site.conf").write_text("\n".join(lines) + "\n")
    tmp = folder / "tmp"
    tmp.mkdir(exist_ok=True)
    tmp.chmod(0o777)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\nworker_rlimit_nofile 16384;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'nginx-error.log'} warn;\nevents {{ worker_connections 8192; }}\n"
        f"http {{ access_log off; client_body_temp_path {tmp / 'body'}; proxy_temp_path {tmp / 'proxy'};\n"
        f"fastcgi_temp_path {tmp / 'fcgi'}; uwsgi_temp_path {tmp / 'uwsgi'}; scgi_temp_path {tmp / 'scgi'};\n"
        f"include {folder / 'site.conf'}; }}\n"
    )
    proc = subprocess.Popen([nginx, "-c", str(conf), "-e", str(folder / "nginx-error.log")])
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("nginx did not start: " + (folder / "nginx-error.log").read_text()) from None
            time.sleep(0.05)


def _postgres(stack: contextlib.ExitStack) -> str:
    """A throw-away PostgreSQL cluster (the tests' ``pg_cluster.postgres_cluster``); its URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
    from pg_cluster import postgres_cluster

    try:
        url: str = stack.enter_context(postgres_cluster(max_connections=200))
    except BaseException as exc:  # pytest.skip outside pytest: PostgreSQL is not installed
        if type(exc).__name__ == "Skipped":
            raise SystemExit(f"PostgreSQL is needed for --instances/--via-nginx: {exc}") from None
        raise
    return url


def _create_database(url: str, name: str) -> str:
    import asyncpg

    async def create() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    asyncio.run(create())
    return url.rsplit("/", 1)[0] + "/" + name


def _cpu_row(stats: Stats, n: int, games: int, seconds: float, instances: int) -> str:
    """One line of the CPU table: CPU ms per move of the servers (each instance, their sum), the bench client,
    nginx and PostgreSQL over the measured seconds, and the load average."""
    each = " ".join(_per_move(stats, f"server{i}") for i in range(instances))
    client = 1000.0 * stats.client_cpu * seconds / max(1, len(stats.rtts))
    return (
        f"{n:>9} {games:>6} {len(stats.rtts):>7} {_per_move(stats, 'server'):>10} {client:>9.2f} "
        f"{_per_move(stats, 'nginx'):>7} {_per_move(stats, 'postgres'):>9} {stats.load:>6.2f}  {each}"
    )


def _print_cpu(rows: list[str]) -> None:
    """The CPU table (:func:`_cpu_row`): less sensitive than latency to what else runs on the machine."""
    if not rows:
        return
    print("CPU ms per move over the measured seconds (process CPU / moves served; load: 1-minute load average)")
    print(f"{'instances':>9} {'games':>6} {'moves':>7} {'server ms':>10} {'client ms':>9} {'nginx':>7} "
          f"{'postgres':>9} {'load':>6}  per instance")  # fmt: skip
    for row in rows:
        print(row)


def run_instances(args: argparse.Namespace) -> None:
    """The many-instance comparison: the same load against 1 and ``args.instances`` instances on PostgreSQL."""
    configs = sorted({1, args.instances})
    games = args.games or [500]
    think = 1000.0 if args.think_ms is None else args.think_ms
    with tempfile.TemporaryDirectory(prefix="kortbord-bench-") as tmp, contextlib.ExitStack() as stack:
        pg = _postgres(stack)
        print(f"kortbord web table load, many instances: {os.cpu_count()} CPUs shared by the bench client, the "
              f"instances, nginx and PostgreSQL; think {think:g} ms (excluded), {args.warmup:g} s warm-up, "
              f"{args.seconds:g} s measured; goal p99 < {TARGET_P99_MS:g} ms")  # fmt: skip
        print(f"{'instances':>9} {'via':>6} {'games':>6} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'max ms':>7} {'p99/goal':>8} {'KiB/game':>8} {'restart s':>9}  longest loop block ms (cpu ms) per "
              "instance; errors")  # fmt: skip
        cpu_rows: list[str] = []
        for n_games in games:
            for n in configs:
                folder = Path(tmp) / f"i{n}-g{n_games}"
                folder.mkdir()
                url = _create_database(pg, f"bench_{n}_{n_games}")
                ports = [_free_port() for _ in range(n)]
                logs = [folder / f"instance{i}.log" for i in range(n)]
                procs = [start_server(url, p, log) for p, log in zip(ports, logs, strict=True)]
                nginx = None
                try:
                    base_rss = [_rss_kib(proc.pid) for proc in procs]
                    port = ports[0]
                    if args.via_nginx:
                        port = _free_port()
                        nginx = start_nginx(folder, port, ports)

                    def during(procs: list[subprocess.Popen[bytes]] = procs, ports: list[int] = ports) -> Any:
                        return [(_rss_kib(pr.pid), _health(p)) for pr, p in zip(procs, ports, strict=True)]

                    pg_pid = _postmaster_pid(pg)

                    def probe(
                        procs: list[subprocess.Popen[bytes]] = procs,
                        nginx: subprocess.Popen[bytes] | None = nginx,
                        pg_pid: int | None = pg_pid,
                    ) -> dict[str, float]:
                        out = {f"server{i}": _cpu_seconds(pr.pid) for i, pr in enumerate(procs)}
                        out["nginx"] = _tree_cpu(nginx.pid) if nginx is not None else 0.0
                        out["postgres"] = _tree_cpu(pg_pid)
                        return out

                    stats, seen = asyncio.run(
                        run(port, n_games, think / 1000.0, args.warmup, args.seconds, during, probe)
                    )
                    grown = sum(rss for rss, _ in seen) - sum(base_rss)
                    live = sum(h["games_live"] for _, h in seen)
                    blocks = " ".join(
                        f"{h['loop_lag']['max_ms']:.0f} ({h['loop_lag']['max_cpu_ms']:.0f})" for _, h in seen
                    )
                    # the collector's schedule per instance: its longest tick, thorough passes and the longest one
                    collector = " ".join(
                        f"{g['max_tick_ms']:.0f}/{g['thorough']}x{g['max_thorough_ms']:.0f}"
                        f" (freed {g.get('last_freed', 0)})"
                        for g in (h.get("gc") for _, h in seen)
                        if g
                    )
                    if collector:
                        blocks += f" gc tick ms/thorough passes x ms {collector}"
                    # restart one instance (kill -9) with every unfinished game still stored
                    os.killpg(procs[0].pid, signal.SIGKILL)
                    procs[0].wait(timeout=30)
                    t0 = time.monotonic()
                    procs[0] = start_server(url, ports[0], logs[0])  # returns once /api/health answers
                    restart = time.monotonic() - t0
                    unfinished = stats.games_started - stats.games_done
                    if not stats.rtts:
                        print(f"{n:>9} no moves measured; errors {stats.errors}")
                        continue
                    p99 = _pct(stats.rtts, 0.99)
                    print(
                        f"{n:>9} {'nginx' if nginx else 'direct':>6} {n_games:>6} {len(stats.rtts):>7} "
                        f"{len(stats.rtts) / args.seconds:>8.0f} {statistics.median(stats.rtts) * 1000:>7.1f} "
                        f"{p99:>7.1f} {max(stats.rtts) * 1000:>7.1f} {p99 / TARGET_P99_MS:>8.2f} "
                        f"{grown / max(1, live):>8.0f} {restart:>9.2f}  {blocks}; {stats.errors or '-'}"
                        f"  (restart with {unfinished} unfinished games stored; client CPU {stats.client_cpu:.0%})"
                    )
                    cpu_rows.append(_cpu_row(stats, n, n_games, args.seconds, len(procs)))
                finally:
                    if nginx is not None:
                        nginx.terminate()
                        nginx.wait(timeout=30)
                    for proc in procs:
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(proc.pid, signal.SIGTERM)
                    for proc in procs:
                        proc.wait(timeout=30)
                    if args.logs:
                        Path(args.logs).mkdir(parents=True, exist_ok=True)
                        for f in folder.glob("*.log"):
                            shutil.copy(f, Path(args.logs) / f"{folder.name}-{f.name}")
        _print_cpu(cpu_rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games",
        type=int,
        nargs="*",
        default=None,
        help="concurrent games (default 50 100 200; with --instances/--via-nginx: 500)",
    )
    ap.add_argument(
        "--think-ms",
        type=float,
        default=None,
        help="mean think time per move, not measured (ms; default 500, with --instances/--via-nginx 1000)",
    )
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds per N")
    ap.add_argument("--warmup", type=float, default=None, help="unmeasured seconds before measuring (default 5; 10)")
    ap.add_argument("--db-dir", default=None, help="folder for the SQLite file (default: the system temp folder)")
    ap.add_argument(
        "--instances",
        type=int,
        default=1,
        help="compare 1 and this many instances on a throw-away PostgreSQL (side by side)",
    )
    ap.add_argument("--via-nginx", action="store_true", help="through nginx with deploy/nginx/kortbord.conf")
    ap.add_argument("--logs", default=None, help="copy the instances' and nginx's logs into this folder")
    args = ap.parse_args()
    if args.instances > 1 or args.via_nginx:
        args.warmup = 10.0 if args.warmup is None else args.warmup
        run_instances(args)
        return
    args.games = args.games or [50, 100, 200]
    args.think_ms = 500.0 if args.think_ms is None else args.think_ms
    args.warmup = 5.0 if args.warmup is None else args.warmup
    with tempfile.TemporaryDirectory(prefix="kortbord-bench-", dir=args.db_dir) as tmp:
        port = _free_port()
        proc = start_server(Path(tmp) / "bench.db", port, Path(tmp) / "server.log")
        try:
            print(f"kortbord web table load: {os.cpu_count()} CPUs, SQLite in {tmp}, think {args.think_ms:g} ms (excluded), "
                  f"{args.seconds:g} s measured per run; target p99 < {TARGET_P99_MS:g} ms at 200 games")  # fmt: skip
            print(f"{'games':>6} {'moves':>7} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
                  f"{'p99/target':>10} {'server CPU':>10} {'client CPU':>10} {'server ms/mv':>12} {'client ms/mv':>12} "
                  f"{'load':>5} {'DB batch ms':>11}  errors")  # fmt: skip
            for n in args.games:
                stats, _ = asyncio.run(
                    run(port, n, args.think_ms / 1000.0, args.warmup, args.seconds, None,
                        lambda: {"server0": _cpu_seconds(proc.pid)})
                )  # fmt: skip
                cpu = stats.cpu.get("server0", 0.0) / args.seconds
                if not stats.rtts:
                    print(f"{n:>6} no moves measured; errors {stats.errors}")
                    continue
                p99 = _pct(stats.rtts, 0.99)
                print(
                    f"{n:>6} {len(stats.rtts):>7} {len(stats.rtts) / args.seconds:>8.0f} "
                    f"{statistics.median(stats.rtts) * 1000:>8.1f} {p99:>8.1f} {max(stats.rtts) * 1000:>8.1f} "
                    f"{p99 / TARGET_P99_MS:>10.2f} {cpu * 100:>9.0f}% {stats.client_cpu * 100:>9.0f}% "
                    f"{_per_move(stats, 'server'):>12} "
                    f"{1000.0 * stats.client_cpu * args.seconds / len(stats.rtts):>12.2f} {stats.load:>5.2f} "
                    f"{_db_batch(port):>11}  {stats.errors or '-'}"
                )
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
