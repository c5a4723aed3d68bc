"""The bot pool's worker processes end with their server (issue #12's deployment: a kill -9 of an instance must
not leave its computer players' processes behind under a supervisor that does not stop the process group)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SERVER = textwrap.dedent(
    """
    import asyncio, sys, time
    from kortbord.server.bots import BotPool

    async def main():
        pool = BotPool(workers=2)
        await pool.start()
        await asyncio.gather(*pool._warming)
        print(" ".join(str(pid) for pid in pool._executor._processes), flush=True)
        await asyncio.sleep(120)

    asyncio.run(main())
    """
)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie nobody reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_bot_workers_end_when_the_server_is_killed() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True, env=env)
    workers: list[int] = []
    try:
        assert server.stdout is not None
        workers.extend(int(pid) for pid in server.stdout.readline().split())
        assert len(workers) == 2 and all(_alive(pid) for pid in workers)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), f"workers {workers} outlived the killed server"
    finally:
        server.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
