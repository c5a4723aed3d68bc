"""``kortbord serve`` ends cleanly on SIGTERM (how systemd, Docker and a test harness stop it) and on SIGINT
(Ctrl-C): the graceful shutdown, then a normal exit with status 0 (a clean stop for systemd's unit, whose
KillSignal is SIGTERM, and for ``make run``), and no warning of leaked semaphores from the computer players' process pool (the w9 fresh report's finding 16:
uvicorn raised SIGTERM again after shutting down, which ended the process before its exit handlers ran).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

KORTBORD = Path(sys.executable).parent / "kortbord"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(shutil.which(str(KORTBORD)) is None, reason="the kortbord command is not installed")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_stops_cleanly_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    port = _free_port()
    cmd = [str(KORTBORD), "serve", "--port", str(port), "--database-url", f"sqlite+aiosqlite:///{tmp_path}/k.db"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        # a game with the computer, so that its process pool (and the pool's semaphores) exist
        body = {"game": "cribbage", "players": 2, "seats": [{"kind": "bot", "level": "strong"}, {"kind": "human"}]}
        req = urllib.request.Request(
            base + "/api/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 201
        time.sleep(2)  # the computer's first decisions in its pool
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, (proc.returncode, err[-2000:])
    assert "Application shutdown complete" in err, err[-2000:]
    assert "leaked" not in err and "Traceback" not in err, err[-2000:]
