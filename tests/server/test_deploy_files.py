"""The deploy files (``deploy/``, ``docs/deploy.md``): the systemd units pass ``systemd-analyze verify`` (with the
install paths pointed at this checkout's ``kortbord`` and PostgreSQL), the nginx site passes ``nginx -t``, and
every environment variable the server reads is documented.  (The nginx site is also run, in front of two real
instances, by ``test_server_instances.py``.)"""

from __future__ import annotations

import glob
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def test_systemd_units_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    kortbord = Path(sys.executable).parent / "kortbord"
    if not kortbord.exists():
        pytest.skip(f"no kortbord command next to {sys.executable}")
    pg = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    units = []
    for unit in sorted((DEPLOY / "systemd").iterdir()):
        text = unit.read_text().replace("/opt/kortbord/venv/bin/kortbord", str(kortbord))
        if pg:
            text = re.sub(r"/usr/lib/postgresql/\d+/bin/postgres", pg[-1], text)
        elif "postgres -D" in text:
            continue
        name = unit.name.replace("@.service", "@1.service")
        (tmp_path / name).write_text(text)
        units.append(str(tmp_path / name))
    assert any(u.endswith("kortbord@1.service") for u in units)
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=120)
    problems = [line for line in (done.stdout + done.stderr).splitlines() if "kortbord" in line]
    assert done.returncode == 0 and problems == [], done.stdout + done.stderr


def test_nginx_site_is_valid(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (on Debian: apt-get install nginx-light)")
    site = (DEPLOY / "nginx" / "kortbord.conf").read_text()
    assert "access_log /var/log/nginx/kortbord.access.log kortbord;" in site  # the format without secrets
    (tmp_path / "site.conf").write_text(site.replace("/var/log/nginx/", f"{tmp_path}/"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\nevents {{}}\n"
        f"http {{ access_log off; include {tmp_path / 'site.conf'}; }}\n"
    )
    done = subprocess.run([nginx, "-t", "-c", str(conf), "-e", str(tmp_path / "error.log")], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_every_environment_variable_is_documented() -> None:
    read = set()
    for path in (ROOT / "src" / "kortbord").rglob("*.py"):
        if path.parts[-2] in ("server", "cli") or path.name == "serve.py":
            read |= set(re.findall(r"os\.environ\.get\(\s*\"([A-Z_]+)\"", path.read_text()))
            read |= set(re.findall(r"os\.environ\[\s*\"([A-Z_]+)\"", path.read_text()))
    assert "KORTBORD_DATABASE_URL" in read
    doc = (ROOT / "docs" / "deploy.md").read_text()
    assert [v for v in sorted(read | {"FORWARDED_ALLOW_IPS"}) if f"`{v}`" not in doc] == []
