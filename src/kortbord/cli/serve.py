"""``kortbord serve``: run the web table (FastAPI + Uvicorn) at http://127.0.0.1:8000 on SQLite by default.

The database is ``sqlite+aiosqlite:///<user data dir>/kortbord.db`` (``$XDG_DATA_HOME/kortbord`` or
``~/.local/share/kortbord``) unless ``--database-url`` or the environment variable ``KORTBORD_DATABASE_URL``
names another (``postgresql+asyncpg://user:password@host:5432/kortbord`` for PostgreSQL).

The web table's packages are the ``server`` extra (``pip install 'kortbord[server]'``) and PostgreSQL's driver the
``postgres`` extra; this module imports none of them until the command runs, and says which extra to install
(exit status 1) when one is missing, instead of a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

__all__ = ["SERVER_HINT", "default_database_url", "serve"]

#: How to install the web table's packages.
SERVER_HINT = "pip install 'kortbord[server]'"
#: The top-level modules the ``server`` extra provides (what ``kortbord serve`` imports).
_SERVER_MODULES = frozenset(
    {"fastapi", "starlette", "uvicorn", "sqlalchemy", "pydantic", "anyio", "aiosqlite", "orjson"}
)
#: Uvicorn's log levels (``--log-level``).
LogLevel = Literal["critical", "error", "warning", "info", "debug", "trace"]


def default_database_url() -> str:
    """``KORTBORD_DATABASE_URL`` if set, else SQLite in the user's data folder."""
    env = os.environ.get("KORTBORD_DATABASE_URL")
    if env:
        return env
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "kortbord"
    return f"sqlite+aiosqlite:///{base / 'kortbord.db'}"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="SQLAlchemy async URL (default: $KORTBORD_DATABASE_URL or SQLite in ~/.local/share/kortbord).",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a computer player waits before moving.", min=0)] = 0.6,
    bot_workers: Annotated[int | None, typer.Option(help="Processes the computer players think in.", min=1)] = None,
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="Another browser origin allowed to connect (e.g. a dev server).")
    ] = None,
    ws_rate: Annotated[float, typer.Option(help="WebSocket messages a second per connection.", min=0.1)] = 10.0,
    ws_burst: Annotated[float, typer.Option(help="WebSocket messages at once per connection.", min=1)] = 20.0,
    rest_rate: Annotated[float, typer.Option(help="POST requests a second per client address.", min=0.1)] = 5.0,
    rest_burst: Annotated[float, typer.Option(help="POST requests at once per client address.", min=1)] = 30.0,
    ws_compress: Annotated[
        bool, typer.Option(help="Compress WebSocket messages (permessage-deflate): less traffic, more CPU.")
    ] = False,
    log_level: Annotated[LogLevel, typer.Option(help="Uvicorn log level.")] = "info",
) -> None:
    """Run the web table: open http://HOST:PORT in a browser to play Mulle or Cribbage.

    Needs the server extra (pip install "kortbord\\[server]"); a postgresql+asyncpg:// URL also the postgres
    extra (pip install "kortbord\\[postgres]").  Without them: a message naming the extra, exit status 1.
    """
    uvicorn, create_app, missing_driver = _server_stack()
    url = database_url or default_database_url()
    try:
        app = create_app(
            url,
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            allowed_origins=tuple(allow_origin or ()),
            ws_rate=ws_rate,
            ws_burst=ws_burst,
            rest_rate=rest_rate,
            rest_burst=rest_burst,
        )
    except missing_driver as exc:
        typer.echo(f"kortbord serve: {exc}", err=True)
        raise typer.Exit(1) from None
    shown = url.split("@")[-1] if "@" in url else url
    typer.echo(f"kortbord: the table is at http://{host}:{port}  (database: {shown})")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=64 * 1024,
        ws_ping_interval=20.0,
        ws_per_message_deflate=ws_compress,
    )
    # a graceful stop on SIGTERM or SIGINT is a success (status 0, as gunicorn's; systemd's unit and `make run`'s
    # Ctrl-C see a clean stop), reached by a normal exit: the bot pool's semaphores are released on the way out
    _server_class(uvicorn)(config).run()


def _server_class(uvicorn: Any) -> Any:
    """Uvicorn's ``Server`` that, once a SIGINT or SIGTERM has shut it down gracefully, returns instead of raising
    the signal again (uvicorn >= 0.29 re-raises it, and SIGTERM's default action then ends the process without
    running its exit handlers, so multiprocessing's resource tracker warned of the bot pool's leaked semaphores).
    Arguments and behaviour otherwise as ``uvicorn.Server``."""
    import contextlib
    import signal
    import threading
    from collections.abc import Iterator

    handled = getattr(uvicorn.server, "HANDLED_SIGNALS", (signal.SIGINT, signal.SIGTERM))

    class _Server(uvicorn.Server):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
                yield
                return
            original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in original.items():
                    signal.signal(sig, handler)

    return _Server


def _server_stack() -> tuple[Any, Any, type[Exception]]:
    """Import the web table: ``(uvicorn, kortbord.server.create_app, MissingDriverError)``.

    Raises:
        typer.Exit: (status 1, after a message with :data:`SERVER_HINT`) when a package of the ``server`` extra
            is not installed.  Any other import error is a bug and propagates.
    """
    try:
        import uvicorn

        from kortbord.server import create_app
        from kortbord.server.db import MissingDriverError
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in _SERVER_MODULES:
            raise
        typer.echo(
            f"kortbord serve: the web table needs packages that are not installed ({top} is missing).\n"
            f"Install them with:  {SERVER_HINT}   (in a clone of kortbord: pip install -e '.[server]')",
            err=True,
        )
        raise typer.Exit(1) from None
    return uvicorn, create_app, MissingDriverError
