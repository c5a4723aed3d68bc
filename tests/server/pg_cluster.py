"""A throw-away PostgreSQL cluster for the server tests: ``initdb`` in a temporary folder, ``pg_ctl start`` on a
free port (fsync off), stopped and removed afterwards.  Skips the test, saying why, when the PostgreSQL server
binaries are not installed (Debian package ``postgresql``) or cannot be run."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name))
    return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "initdb").exists() else None


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_cluster(max_connections: int = 100) -> Iterator[str]:
    """Start a cluster; yields its ``postgresql+asyncpg://`` URL (user ``kortbord``, trust auth, database
    ``postgres``)."""
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
    port = free_port()
    run = lambda *cmd: subprocess.run([*prefix, *cmd], check=True, capture_output=True, timeout=120)
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "kortbord", "--auth=trust", "-E", "UTF8", "--no-sync")
        opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections={max_connections}"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(log), "-w", "-t", "60", "start")
        yield f"postgresql+asyncpg://kortbord@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=120)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
