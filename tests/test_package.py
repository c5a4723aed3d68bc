"""kortbord as a package people install (issue 15, item 1).

Fast checks read ``pyproject.toml`` and run the command line from this checkout: one version, ``--version`` and
``python -m kortbord``, the base install's dependencies are the ones the engines and the command line import,
the web table's stack is the ``server`` extra and is imported only by ``kortbord serve``, a missing extra or
database driver is a message with the install hint (not a traceback), options with a few values list them in
``--help`` and complete them in the shell.

The slow test does what a new user does: build the wheel, install it into a new virtualenv (the base install,
then ``[server]``), run ``kortbord --version``, ``python -m kortbord --version`` and a scoring command, and start
``kortbord serve`` and fetch the page and an asset over HTTP.  It needs the package registry (for the build
backend and the dependencies; pip's cache makes a second run quicker) and skips, saying so, without it.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kortbord
from kortbord.cli import app

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "kortbord"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
#: The import name of each distribution kortbord depends on.
IMPORT_NAME = {
    "typer": "typer",
    "rich": "rich",
    "numpy": "numpy",
    "prompt_toolkit": "prompt_toolkit",
    "fastapi": "fastapi",
    "uvicorn": "uvicorn",
    "sqlalchemy": "sqlalchemy",
    "aiosqlite": "aiosqlite",
    "orjson": "orjson",
    "asyncpg": "asyncpg",
}
SERVER_STACK = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "aiosqlite", "orjson")

runner = CliRunner()


def _name(requirement: str) -> str:
    """``"uvicorn[standard]>=0.29"`` -> ``"uvicorn"``."""
    match = re.match(r"[A-Za-z0-9_.-]+", requirement)
    assert match, requirement
    return match.group(0).lower()


def _imports(path: Path) -> set[str]:
    """The top-level modules a source file imports (anywhere in it, lazily or not)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.partition(".")[0])
    return found


def _run(
    args: list[str], *, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, check=False)


# -- metadata and the one version ------------------------------------------------------------------------------


def test_metadata_is_complete() -> None:
    assert PROJECT["license"] == "MIT AND CC0-1.0"  # the code MIT; the card faces CC0 (web/CARDS-LICENSE.md)
    assert set(PROJECT["license-files"]) == {"LICENSE", "web/CARDS-LICENSE.md"}
    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "Permission is hereby granted, free of charge" in license_text
    assert "License ::" not in " ".join(PROJECT["classifiers"])  # the expression replaces licence classifiers
    assert "Topic :: Games/Entertainment" in PROJECT["classifiers"]
    assert {"mulle", "cribbage"} <= set(PROJECT["keywords"])
    # No Project-URLs: kortbord has no public address yet, and a placeholder would send people nowhere.
    assert "urls" not in PROJECT
    assert PYPROJECT["build-system"]["requires"][0] == "setuptools>=77"  # SPDX license expressions (PEP 639)


def test_the_version_is_written_once() -> None:
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kortbord.__version__"}
    written = [
        p.relative_to(REPO)
        for p in [*SRC.rglob("*.py"), REPO / "pyproject.toml"]
        if re.search(r"""^\s*(__version__|version)\s*=\s*["']\d""", p.read_text(encoding="utf-8"), re.M)
    ]
    assert written == [Path("src/kortbord/__init__.py")]


def test_kortbord_version_option_and_python_m() -> None:
    for args in (["--version"], ["-V"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and result.output == f"kortbord {kortbord.__version__}\n"
    shown = _run([sys.executable, "-m", "kortbord", "--version"])
    assert shown.returncode == 0 and shown.stdout == f"kortbord {kortbord.__version__}\n", shown.stderr
    scored = _run([sys.executable, "-m", "kortbord", "cribbage", "score", "5H", "5D", "5S", "JC", "--starter", "5C"])
    assert scored.returncode == 0 and "Total 29" in scored.stdout  # the highest hand (rules spec cribbage.md §2.5)


# -- dependencies: the base install, the server extra, nothing unused -------------------------------------------


def test_the_base_install_is_what_the_engines_and_the_command_line_import() -> None:
    base = {_name(r) for r in PROJECT["dependencies"]}
    server = {_name(r) for r in PROJECT["optional-dependencies"]["server"]}
    assert base == {"typer", "rich", "numpy", "prompt_toolkit"}
    assert {"fastapi", "uvicorn", "sqlalchemy", "aiosqlite"} <= server
    everything = {_name(r) for extra in PROJECT["optional-dependencies"].values() for r in extra}
    assert "httpx" not in base | server  # imported by no kortbord module: a test dependency (dev)
    assert "httpx" in everything and not any("httpx" in _imports(p) for p in SRC.rglob("*.py"))
    # Every base and server dependency is imported by kortbord's own code; the server's only by the server and
    # `kortbord serve` (which imports them when it runs).
    outside_server = [p for p in SRC.rglob("*.py") if "server" not in p.relative_to(SRC).parts]
    used_outside = set().union(*(_imports(p) for p in outside_server if p.name != "serve.py"))
    used_by_server = set().union(*(_imports(p) for p in [*(SRC / "server").rglob("*.py"), SRC / "cli" / "serve.py"]))
    for dist in base:
        assert IMPORT_NAME[dist] in used_outside, f"{dist} is a base dependency that nothing outside the server uses"
    for dist in server:
        assert IMPORT_NAME[dist] in used_by_server | {"aiosqlite"}, dist  # aiosqlite: SQLAlchemy loads the driver
        assert IMPORT_NAME[dist] not in used_outside, f"{dist} is imported outside the server: the base needs it"
    # NumPy: the strong Cribbage bot (the terminal game's default opponent) imports it at module level.
    assert "numpy" in _imports(SRC / "bots" / "cribbage_board.py")


def test_make_installs_the_server_extra() -> None:
    install = [line for line in (REPO / "Makefile").read_text(encoding="utf-8").splitlines() if "pip install" in line]
    project = [line for line in install if "-e '.[" in line]  # the project's own install (others add bench tools)
    assert len(project) == 1, install
    extras = re.search(r"-e '\.\[([a-z,]+)\]'", project[0])
    assert extras, install
    assert {"server", "postgres", "dev"} <= set(extras.group(1).split(","))


def test_the_command_line_does_not_import_the_web_table_or_numpy() -> None:
    code = "import sys, kortbord.cli; print(sorted(m for m in sys.modules if m.partition('.')[0] in {!r}))".format(
        {*SERVER_STACK, "numpy"}
    )
    shown = _run([sys.executable, "-c", code])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "[]"


def _without(modules: list[str], argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``kortbord ARGV`` in a Python where importing ``modules`` fails as if they were not installed."""
    code = (
        "import sys\n"
        f"for m in {modules!r}: sys.modules[m] = None\n"
        "from kortbord.cli import main\n"
        f"sys.argv = ['kortbord', *{argv!r}]\n"
        "main()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "KORTBORD_DATABASE_URL"}
    return _run([sys.executable, "-c", code], env=env)


def test_serve_without_the_server_extra_says_how_to_install_it() -> None:
    shown = _without(["fastapi", "uvicorn", "starlette", "sqlalchemy", "aiosqlite"], ["serve", "--port", "1"])
    assert shown.returncode == 1
    assert "pip install 'kortbord[server]'" in shown.stderr
    assert "Traceback" not in shown.stderr + shown.stdout


def test_a_postgres_url_without_asyncpg_says_how_to_install_it() -> None:
    url = "postgresql+asyncpg://kortbord:secret-word@localhost:5432/kortbord"
    shown = _without(["asyncpg"], ["serve", "--port", "1", "--database-url", url])
    assert shown.returncode == 1
    assert "asyncpg" in shown.stderr and "pip install 'kortbord[postgres]'" in shown.stderr
    assert "Traceback" not in shown.stderr + shown.stdout
    assert "secret-word" not in shown.stderr + shown.stdout  # the password is not printed


def test_a_sqlite_url_without_aiosqlite_says_how_to_install_it(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    shown = _without(["aiosqlite"], ["serve", "--port", "1", "--database-url", url])
    assert shown.returncode == 1 and "pip install 'kortbord[server]'" in shown.stderr, shown.stderr
    assert "Traceback" not in shown.stderr


# -- choices in --help and shell completion ---------------------------------------------------------------------


def test_options_with_a_few_values_list_them_and_agree_with_the_games() -> None:
    from kortbord.bots import registry
    from kortbord.cli import mulle_terminal, play

    assert tuple(mulle_terminal.DEALS) == play.DEALS
    assert tuple(mulle_terminal.LENGTHS) == play.LENGTHS
    assert tuple(mulle_terminal.PROFILES) == play.PROFILES
    assert registry.LEVELS["mulle"] == play.LEVELS == registry.LEVELS["cribbage"]  # both have the expert level
    assert set(play.TARGETS) == {61, 121}  # rules spec cribbage.md §2.6
    wide = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
    mulle_help = runner.invoke(app, ["play", "mulle", "--help"], env=wide).output
    for values in (play.DEALS, play.LENGTHS, play.PROFILES, play.LEVELS):
        assert "<" + "|".join(values) + ">" in mulle_help
    cribbage_help = runner.invoke(app, ["play", "cribbage", "--help"], env=wide).output
    assert "<121|61>" in cribbage_help and "<" + "|".join(play.LEVELS) + ">" in cribbage_help
    serve_help = runner.invoke(app, ["serve", "--help"], env=wide).output
    assert "<critical|error|warning|info|debug|trace>" in serve_help


def _complete(words: str) -> list[str]:
    """What bash completion offers after ``words`` (typer's completion protocol, as the installed script asks)."""
    current = len(words.split()) - (0 if words.endswith(" ") else 1)  # the index of the word being typed
    env = dict(os.environ, _KORTBORD_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(current))
    shown = _run([sys.executable, "-c", "from kortbord.cli import app; app(prog_name='kortbord')"], env=env)
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.split()


def test_shell_completion_is_on_and_completes_the_choices() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    assert _complete("kortbord play mulle --deal ") == ["8+8", "5+5", "4+8"]
    assert _complete("kortbord play mulle --profile c") == ["cardgames.zone"]
    assert _complete("kortbord play cribbage --bot s") == ["strong"]
    assert _complete("kortbord play cribbage --bot e") == ["expert"]
    assert _complete("kortbord arena c") == ["cribbage"]
    assert _complete("kortbord arena mulle --bots strong,g") == ["strong,greedy"]
    assert _complete("kortbord serve --log-level w") == ["warning"]


def test_a_value_outside_the_choices_keeps_the_games_message() -> None:
    result = runner.invoke(app, ["play", "mulle", "--deal", "9+9"], input="")
    assert result.exit_code == 2 and "unknown deal format" in result.output and "8+8, 5+5, 4+8" in result.output


# -- the wheel in a new virtualenv -------------------------------------------------------------------------------


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without this checkout on the path (the new venv must use its installed kortbord)."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "KORTBORD_DATABASE_URL", "VIRTUAL_ENV"}}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def _registry_reachable(tmp: Path) -> str | None:
    """None if pip can fetch from the package registry, else pip's complaint."""
    probe = _run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", str(tmp), "setuptools>=77"],
        env=_clean_env(),
    )
    return None if probe.returncode == 0 else (probe.stderr.strip().splitlines() or ["pip failed"])[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


@pytest.mark.slow
def test_the_wheel_installs_into_a_new_venv_and_runs(tmp_path: Path) -> None:
    problem = _registry_reachable(tmp_path / "probe")
    if problem is not None:
        pytest.skip(f"no network to the package registry (pip download failed: {problem})")
    env = _clean_env()
    # Build from a copy of what an sdist holds, so the checkout gets no build/ or egg-info (whose leftovers could
    # slip into a later wheel).
    source = tmp_path / "source"
    shutil.copytree(REPO / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "web/CARDS-LICENSE.md"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    wheel_dir = tmp_path / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(wheel_dir), str(source)]
    built = _run(build, env=env, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("kortbord-*.whl")
    assert wheel.name.startswith(f"kortbord-{kortbord.__version__}-")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        dist_info = f"kortbord-{kortbord.__version__}.dist-info"
        assert f"{dist_info}/licenses/LICENSE" in names
        assert zf.read(f"{dist_info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()
        assert "kortbord/__main__.py" in names and "kortbord/server/static/index.html" in names
        metadata = zf.read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT AND CC0-1.0" in metadata
    assert f"Version: {kortbord.__version__}" in metadata

    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], env=env)
    assert made.returncode == 0, made.stderr
    py, exe = venv / "bin" / "python", venv / "bin" / "kortbord"
    installed = _run([str(py), "-m", "pip", "install", "--quiet", "--no-compile", str(wheel)], env=env, timeout=300)
    assert installed.returncode == 0, installed.stderr

    def kortbord_(*args: str, program: list[str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*(program or [str(exe)]), *args], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
        )

    version = f"kortbord {kortbord.__version__}\n"
    assert kortbord_("--version").stdout == version
    assert kortbord_("--version", program=[str(py), "-m", "kortbord"]).stdout == version
    scored = kortbord_("cribbage", "score", "5H", "5D", "5S", "JC", "--starter", "5C", "--json")
    assert scored.returncode == 0 and '"total": 29' in scored.stdout, scored.stderr
    where = kortbord_("-c", "import kortbord; print(kortbord.__file__)", program=[str(py)])
    assert str(venv) in where.stdout  # the installed copy, not this checkout
    # The base install has no web table: no FastAPI, and `kortbord serve` says what to install.
    assert kortbord_("-c", "import fastapi", program=[str(py)]).returncode != 0
    serve = kortbord_("serve")
    assert serve.returncode == 1 and "pip install 'kortbord[server]'" in serve.stderr
    assert "Traceback" not in serve.stderr

    installed = _run(
        [str(py), "-m", "pip", "install", "--quiet", "--no-compile", f"{wheel}[server]"], env=env, timeout=300
    )
    assert installed.returncode == 0, installed.stderr
    port = _free_port()
    server = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--log-level", "warning", "--bot-workers", "1"],
        env=_clean_env(XDG_DATA_HOME=str(tmp_path / "data")),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, kind, page = _get(f"{base}/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.stdout.read() if server.stdout else "the server exited"
                assert time.monotonic() < deadline, "kortbord serve did not answer within 60 s"
                time.sleep(0.3)
        assert status == 200 and kind.startswith("text/html")
        assets = re.findall(r'(?:src|href)="(/assets/[^"]+\.js)"', page.decode())
        assert assets, page[:500]
        status, kind, script = _get(base + assets[0])
        assert status == 200 and "javascript" in kind and len(script) > 1000
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert (tmp_path / "data" / "kortbord" / "kortbord.db").is_file()  # the default SQLite in the user's data dir
