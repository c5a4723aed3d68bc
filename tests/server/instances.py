"""Helpers of the many-instance tests: real ``kortbord serve`` processes (uvicorn) on one PostgreSQL, each in its
own process group (killed with SIGKILL, bot workers included), and a WebSocket reader that keeps what it saw."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from pg_cluster import free_port
from websockets.sync.client import ClientConnection, connect


class Instance:
    """One ``kortbord serve`` on ``database_url`` at ``127.0.0.1:port`` (log in ``log``)."""

    def __init__(self, database_url: str, log: Path, bot_delay: float = 0.05) -> None:
        self.port = free_port()
        self.log = log
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        cmd = [
            sys.executable, "-c", "from kortbord.cli import main; main()", "serve",
            "--port", str(self.port), "--database-url", database_url, "--bot-delay", str(bot_delay),
            "--bot-workers", "1", "--ws-rate", "1000", "--ws-burst", "1000", "--rest-rate", "1000",
            "--rest-burst", "1000", "--log-level", "warning",
        ]  # fmt: skip
        with log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Wait until ``/api/health`` answers; the seconds it took from now."""
        t0 = time.monotonic()
        while True:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() - t0 < timeout, "the server did not start: " + self.log.read_text()
            time.sleep(0.05)

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = httpx.get(f"{self.base}/api/health", timeout=10).json()
        return out

    def kill(self) -> None:
        """SIGKILL the whole process group (the server and its bot workers)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@contextlib.contextmanager
def instances(database_url: str, folder: Path, n: int, **kwargs: Any) -> Iterator[list[Instance]]:
    """``n`` instances on one database, started together; all killed on exit."""
    started = [Instance(database_url, folder / f"instance{i}.log", **kwargs) for i in range(n)]
    try:
        for inst in started:
            inst.wait_ready()
        yield started
    finally:
        for inst in started:
            inst.kill()


def log_problems(inst: Instance) -> list[str]:
    """Lines of an instance's log that show a fault: tracebacks, duplicate keys, moves that were not stored."""
    bad = ("Traceback", "duplicate key", "could not store move", "UniqueViolation", "IntegrityError")
    return [line for line in inst.log.read_text(errors="replace").splitlines() if any(b in line for b in bad)]


class Reader:
    """A WebSocket client that keeps every message: ``states`` by version (the last one of each), ``errors``."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        self.ws: ClientConnection = connect(url, **kwargs).__enter__()
        self.states: dict[int, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None

    def close(self) -> None:
        self.ws.close()

    def recv(self, timeout: float = 15.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if msg["type"] == "state":
            self.states[msg["version"]] = msg
            self.last = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        """Read until a state message satisfies ``pred`` (the last state already read counts); that message."""
        if self.last is not None and pred(self.last):
            return self.last
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no such state within {timeout} s; last: {self.last and self.last['version']}"
            msg = self.recv(left)
            if msg["type"] == "state" and pred(msg):
                return msg

    def next_state(self, timeout: float = 15.0) -> dict[str, Any]:
        """The next state message to arrive (not one already read)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no state within {timeout} s"
            msg = self.recv(left)
            if msg["type"] == "state":
                return msg

    def version(self, v: int, timeout: float = 15.0) -> dict[str, Any]:
        """Read until the state of version ``v`` or later."""
        return self.until(lambda m: m["version"] >= v, timeout)

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def pong(self, timeout: float = 15.0) -> None:
        """Send a ping and read until its pong: every answer to what was sent before has arrived by then."""
        self.send({"type": "ping"})
        deadline = time.monotonic() + timeout
        while self.recv(max(0.01, deadline - time.monotonic()))["type"] != "pong":
            pass


def eventually(check: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``check`` until it holds (at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} did not hold within {timeout} s"
        time.sleep(0.05)
