"""The web table: FastAPI app factory :func:`create_app` (REST under ``/api``, play over ``/ws/games/{id}``, the
page at ``/``).  The protocol is specified in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final, Literal

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kortbord import __version__, core
from kortbord.bots import registry
from kortbord.errors import KortbordError
from kortbord.server.bots import BotPool
from kortbord.server.collector import Collector
from kortbord.server.db import GameRow, SeatRow, Store
from kortbord.server.echo import bounded, echo
from kortbord.server.options import options_for, table_limit_error
from kortbord.server.rng import new_seed
from kortbord.server.sessions import (
    Session,
    SessionManager,
    build_session,
    hash_secret,
    rematch_token,
    table_rules,
    warm_up,
)
from kortbord.server.stats import OptionalName
from kortbord.server.stats import router as stats_router
from kortbord.server.ws import game_socket

__all__ = ["STATIC_DIR", "AddressLimits", "ApiError", "create_app"]

log = logging.getLogger("kortbord.server")

#: Where the page engineer's built assets live (``index.html``, ``assets/``, ``cards/``).
STATIC_DIR: Final = Path(__file__).parent / "static"
#: Largest REST request body, in bytes.
MAX_BODY: Final = 16 * 1024
#: The methods a route may answer (probed to fill the ``Allow`` header of a 405).
_HTTP_METHODS: Final = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
#: Client addresses whose POST rate buckets are kept (least recently used beyond this are forgotten).
MAX_ADDRESSES: Final = 10_000

#: A field name of the request schemas (anything else in an error's location is the client's input).
_FIELD = re.compile(r"[a-z_]{1,20}")
_HASHED = re.compile(r"[.-][A-Za-z0-9_-]{8,}\.(?:js|mjs|css|woff2?|png|svg|webp|jpg)$")


#: A query parameter in a logged path (its name may be percent-encoded: the server and the page decode it).
_QUERY_PARAM = re.compile(r"(^|[?&;\s])([^=&;\s\"'?]+)=([^&;\s\"']*)")
#: The parameters that carry a secret, by their decoded, lower-cased name.
_SECRET_NAMES: Final = frozenset({"token", "invite", "invite_code"})


def _redact(text: str) -> str:
    """``text`` with the value of every ``token``/``invite``/``invite_code`` query parameter blanked (``***``),
    however its name is written (``%74oken=``, ``Token=``: Starlette and the page's ``URLSearchParams`` decode
    names, so such a link works and must not show its secret either)."""

    def blank(m: re.Match[str]) -> str:
        name = urllib.parse.unquote_plus(m.group(2)).lower()
        return f"{m.group(1)}{m.group(2)}=***" if name in _SECRET_NAMES else m.group(0)

    return _QUERY_PARAM.sub(blank, text) if "=" in text else text


class RedactSecrets(logging.Filter):
    """Blanks seat tokens and invite codes in log lines (uvicorn logs each WebSocket's path with its query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) if isinstance(a, str) else a for a in record.args)
        return True


REDACT: Final = RedactSecrets()


class ApiError(Exception):
    """A REST error: HTTP ``status``, a stable ``code``, a plain-words English ``message`` and, when an engine
    refused the request with a :class:`kortbord.contract.Reason`, that ``reason`` as JSON (``{"code", **data}``)."""

    def __init__(self, status: int, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason

    @classmethod
    def from_engine(cls, status: int, code: str, exc: Exception) -> ApiError:
        """The error for an engine's exception: its English message and, if it carries one, its reason."""
        why = getattr(exc, "reason", None)
        return cls(status, code, bounded(str(exc)), None if why is None else dict(why.to_json()))


def _error_response(
    status: int,
    code: str,
    message: str,
    reason: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if reason is not None:
        error["reason"] = reason
    return JSONResponse({"error": error}, status_code=status, headers=headers)


class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code``, the English ``message`` and, for an engine's refusal, its ``reason``."""

    code: str
    message: str
    reason: dict[str, Any] | None = Field(default=None, description='the engine\'s reason: {"code", ...data}')


class ErrorBody(BaseModel):
    """Every error answer's body: ``{"error": {"code", "message", "reason"?}}`` (``docs/protocol.md``)."""

    error: ErrorDetail


#: The error answers of the OpenAPI schema, by status: what each means and the codes it carries.
_ERRORS: Final[dict[int, str]] = {
    400: "bad_request: JSON the server will not parse (nested too deeply, a number with thousands of digits)",
    403: "bad_invite: the invite code is not valid for this game, or was used already",
    404: "not_found (no such game) or unknown_game",
    409: "game_over (join) or not_over (record)",
    413: "too_large: a request body over 16 KiB",
    422: "bad_request (the body or a parameter does not fit the schema) or bad_rules (the rules refuse it)",
    429: "rate_limited: too many POST requests from this address",
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each of ``statuses`` with its description and the :class:`ErrorBody` model."""
    return {status: {"model": ErrorBody, "description": _ERRORS[status]} for status in statuses}


#: Every POST can be refused before its route runs: a body too large or unreadable, or too many requests.
_POST_ERRORS: Final = (400, 413, 422, 429)


#: The request field each game's lobby asks for partners with, in the game's own word (default ``"teams"``).
_TOGETHER: Final[dict[str, str]] = {"mulle": "teams", "cribbage": "partnership"}


class BodyLimit:
    """ASGI middleware: a POST/PUT/PATCH body is read here, as it streams in, and refused with 413 ``too_large``
    the moment it passes ``limit`` bytes -- whether or not it declared a Content-Length (a chunked upload does not).
    A JSON body the parser cannot read safely -- nested too deeply, or a number with thousands of digits -- gets
    400 ``bad_request`` saying so.  The app then sees the buffered body as one message."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _error_response(413, "too_large", f"a request body may be at most {self.limit} bytes")(
                    scope, receive, send
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = _unreadable_json(body)
        if problem is not None:
            await _error_response(400, "bad_request", problem)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class PostLimits:
    """ASGI middleware (plain: no task or stream per request, as Starlette's ``BaseHTTPMiddleware`` would add): a
    POST/PUT/PATCH whose declared Content-Length is not a number or passes ``max_body`` gets 413 ``too_large``, and
    one past its address's budget (``limits``, :class:`AddressLimits`) 429 ``rate_limited``; anything else passes."""

    def __init__(self, app: ASGIApp, limits: AddressLimits, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.limits = limits
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            length = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"content-length"), None)
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                response = _error_response(413, "too_large", f"a request body may be at most {self.max_body} bytes")
                await response(scope, receive, send)
                return
            client = scope.get("client")
            if not self.limits.allow(client[0] if client else "?"):
                await _error_response(429, "rate_limited", "too many requests; wait a moment")(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _unreadable_json(body: bytes) -> str | None:
    """Why ``body`` is JSON that cannot be read safely (too deep, a huge number), or None (fine, or not JSON at all:
    the route's own validation explains malformed JSON)."""
    if not body.strip():
        return None
    try:
        json.loads(body)
    except RecursionError:
        return "the request body is nested too deeply to read"
    except json.JSONDecodeError:
        return None
    except ValueError as exc:  # e.g. an integer with more than 4300 digits
        return f"the request body cannot be read: {str(exc).split(';')[0]}"
    return None


class AddressLimits:
    """Per-address token buckets (``burst`` requests at once, refilled at ``rate`` a second) in a bounded
    least-recently-used table: at most ``size`` addresses are kept; when a new address arrives at a full table only
    the address seen longest ago is forgotten -- never every bucket at once, so filling the table with fresh
    addresses does not reset anybody else's limit.  (An address idle for ``burst / rate`` seconds has a full bucket
    anyway; forgetting it loses nothing.)"""

    def __init__(self, rate: float, burst: float, size: int = MAX_ADDRESSES) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.rate = rate
        self.burst = burst
        self.size = size
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, address: object) -> bool:
        return address in self._buckets

    def allow(self, address: str, now: float | None = None) -> bool:
        """Take one token from ``address``'s bucket (``now``: ``time.monotonic()`` seconds); False if it is empty."""
        if now is None:
            now = time.monotonic()
        buckets = self._buckets
        entry = buckets.get(address)
        if entry is None:
            tokens = self.burst
            if len(buckets) >= self.size:
                buckets.popitem(last=False)
        else:
            tokens = min(self.burst, entry[0] + (now - entry[1]) * self.rate)
            buckets.move_to_end(address)
        if tokens < 1.0:
            buckets[address] = (tokens, now)
            return False
        buckets[address] = (tokens - 1.0, now)
        return True


# -- request bodies ---------------------------------------------------------------------------------------------
class SeatSpec(BaseModel):
    """One seat of a new game: a person (``human``) or a computer player (``bot`` with a ``level``)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=32)
    name: OptionalName = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    """``POST /api/games``.  Strict: ``players`` only a JSON integer, ``teams``/``partnership`` only JSON booleans
    (never ``0``, ``1`` or ``"yes"``), and ``seats``, ``players``, ``teams``, ``partnership`` and ``rules`` either
    absent or given (``null`` is refused, not read as absent); that ``seats`` has one entry per player is checked
    by the route."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    rules: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt = Field(default=2, ge=2, le=4)
    teams: StrictBool | None = Field(default=None, description="Mulle, 4 players: partners (absent: not asked)")
    partnership: StrictBool | None = Field(default=None, description="Cribbage, 4 players: partners")
    seats: list[SeatSpec] | None = Field(default=None, max_length=4, description="one entry per player, or absent")
    name: OptionalName = Field(default=None, max_length=80)

    @field_validator("rules", "players", "teams", "partnership", "seats", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may be left out but not null")
        return value


class InviteCheck(BaseModel):
    """``POST /api/games/{id}/invite``: is this invite code still good (and for which seat)?"""

    model_config = ConfigDict(extra="forbid")
    invite_code: str = Field(min_length=1, max_length=128)


class Rematch(BaseModel):
    """``POST /api/games/{id}/rematch``: the asking seat's token."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=128)


class JoinGame(BaseModel):
    """``POST /api/games/{id}/join``."""

    model_config = ConfigDict(extra="forbid")
    invite_code: str = Field(min_length=1, max_length=128)
    name: OptionalName = Field(default=None, max_length=40)


# -- static files -----------------------------------------------------------------------------------------------
class CachedStatic(StaticFiles):
    """Static files with caching headers: content-hashed names are immutable for a year, card images a day,
    everything else revalidated (``no-cache`` + ETag)."""

    def __init__(self, *, directory: Path, max_age: int | None = None) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.max_age = max_age

    def file_response(self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        name = str(full_path)
        if _HASHED.search(name):
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        elif self.max_age is not None:
            response.headers["Cache-Control"] = f"public, max-age={self.max_age}"
        else:
            response.headers["Cache-Control"] = "no-cache"
        return response


PLACEHOLDER: Final = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kortbord</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>kortbord</h1>
<p>The server is running, but the page is missing: its built files are not in
<code>src/kortbord/server/static/</code> yet.</p>
<p>The API is up: <a href="/api/health">/api/health</a>, <a href="/api/games">/api/games</a>,
<a href="/docs">/docs</a>.</p>
</body></html>
"""


# -- the app ----------------------------------------------------------------------------------------------------
def create_app(
    database_url: str,
    *,
    bot_workers: int | None = None,
    bot_mode: str = "process",
    bot_delay: float = 0.0,
    allowed_origins: tuple[str, ...] = (),
    ws_rate: float = 10.0,
    ws_burst: float = 20.0,
    rest_rate: float = 5.0,
    rest_burst: float = 30.0,
    rest_addresses: int = MAX_ADDRESSES,
    static_dir: Path | None = None,
    seed_factory: Callable[[], str] = new_seed,
) -> FastAPI:
    """The kortbord web app.

    Args:
        database_url: SQLAlchemy async URL (``sqlite+aiosqlite:///file.db`` or ``postgresql+asyncpg://...``).
        bot_workers: bot processes (default: CPUs, at most 4).  bot_mode: ``"process"`` or ``"thread"``.
        bot_delay: seconds a bot waits before its move, so people can follow the play (0: none).
        allowed_origins: browser origins besides the server's own that may open WebSockets (``"*"``: any).
        ws_rate, ws_burst: per-connection message rate limit (messages a second, messages at once).
        rest_rate, rest_burst: per-client limit on POST requests.
        rest_addresses: client addresses whose POST limits are remembered (an :class:`AddressLimits` table).
        static_dir: the page's built files (default :data:`STATIC_DIR`).
        seed_factory: where game seeds come from (default :func:`~kortbord.server.rng.new_seed`, the OS CSPRNG;
            tests pass a fixed sequence to make deals reproducible).
    Returns:
        A FastAPI app; its lifespan opens the database, starts the bot pool and resumes every unfinished game.
    """
    static = static_dir or STATIC_DIR
    store = Store(database_url)
    bots = BotPool(bot_workers, bot_mode)
    manager = SessionManager(store, bots, bot_delay)
    origins = frozenset(allowed_origins)
    post_limits = AddressLimits(rest_rate, rest_burst, rest_addresses)

    collector = Collector()
    lag = {"samples": 0, "over_50ms": 0, "max_ms": 0.0, "max_cpu_ms": 0.0}

    async def watch_loop_lag(period: float = 0.05) -> None:
        """How late the event loop wakes up (a blocked loop or a starved process delays every table)."""
        loop = asyncio.get_running_loop()
        while True:
            t0, c0 = loop.time(), time.thread_time()
            await asyncio.sleep(period)
            late = (loop.time() - t0 - period) * 1000.0
            lag["samples"] += 1
            lag["over_50ms"] += late > 50.0
            if late > lag["max_ms"]:  # and how much of it the loop spent computing (the rest: not scheduled)
                lag["max_ms"] = round(late, 1)
                lag["max_cpu_ms"] = round((time.thread_time() - c0) * 1000.0, 1)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for name in ("uvicorn.error", "uvicorn.access", "uvicorn"):
            if REDACT not in logging.getLogger(name).filters:
                logging.getLogger(name).addFilter(REDACT)
        await store.start()
        await bots.start()
        # every lazily built table (rules, lobby options, scoring tables) now, before serving
        await asyncio.to_thread(_warm_tables)
        # no game is loaded here (a restart answers at once however many are stored): each loads on first access,
        # games of computer players only in the background
        await manager.start()
        # the objects alive now (modules, engine tables) never die: out of the collector's scans, and from now on
        # each tick collects only what was allocated since the last and freezes the survivors (kortbord.server.collector)
        collector.start()
        watcher = asyncio.create_task(watch_loop_lag())
        try:
            yield
        finally:
            watcher.cancel()
            await collector.stop()
            await manager.close()
            await bots.close()
            await store.close()

    app = FastAPI(title="kortbord", version=__version__, lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.state.manager = manager
    app.state.store = store
    app.state.post_limits = post_limits

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error_response(exc.status, exc.code, exc.message, exc.reason)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:5]:
            # a field's name is the schema's, or (an extra field) the client's: that one only as a short prefix
            where = ".".join(
                str(x) if isinstance(x, int) or _FIELD.fullmatch(str(x)) else echo(x)
                for x in err.get("loc", ())
                if x != "body"
            )
            msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
            parts.append(f"{where or 'body'}: {msg}")
        return _error_response(422, "bad_request", "; ".join(parts) or "invalid request")

    def _methods_for(path: str) -> set[str]:
        """The methods the API routes answer at ``path`` (empty: no API route has that path).  Each method is
        probed through every route's own matching -- a route of the app, or one of an included router (FastAPI
        wraps those in a route of its own) -- and counts when a route matches the path with it in full; the
        page's mounts (which match every path) are not asked."""
        methods: set[str] = set()
        for method in _HTTP_METHODS:
            probe: Scope = {
                "type": "http",
                "path": path,
                "root_path": "",
                "method": method,
                "headers": [],
                "query_string": b"",
            }
            for route in app.router.routes:
                if isinstance(route, Mount | WebSocketRoute) or (isinstance(route, Route) and not route.methods):
                    continue
                if route.matches(probe)[0] == Match.FULL:
                    methods.add(method)
                    break
        return methods

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status, headers = exc.status_code, dict(exc.headers or {})
        if status in (404, 405):
            path = request.scope["path"]
            methods = _methods_for(path)
            if methods and request.method not in methods:  # an API path asked with the wrong method
                status, headers = 405, {"Allow": ", ".join(sorted(methods))}
            elif status == 405 and path.startswith("/api/"):  # no such API path (the page's files answer 405)
                status, headers = 404, {}
            elif status == 405 and "Allow" not in headers:
                headers["Allow"] = "GET, HEAD"
        code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
        message = (
            str(exc.detail) if status == exc.status_code else {404: "Not Found", 405: "Method Not Allowed"}[status]
        )
        return _error_response(status, code, message, headers=headers or None)

    app.add_middleware(PostLimits, limits=post_limits, max_body=MAX_BODY)
    # The page's script and style sheet are ~240 KiB as built; gzipped they are about a third of that on the wire
    # (a phone's first visit: bench/page_load.py).  Starlette's middleware compresses responses of 1 KiB and more
    # for clients that accept gzip (not WebSocket frames); level 6 keeps the CPU per request small.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)

    # -- REST -----------------------------------------------------------------------------------------------
    app.include_router(stats_router)  # /api/stats, /api/levels/{game} (kortbord.server.stats)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """``{"ok": true, "version"}``."""
        st = store.stats
        db = {
            "batches": st["batches"],
            "moves": st["moves"],
            "mean_batch_ms": round(1000 * st["seconds"] / max(1, st["batches"]), 2),
            "max_batch_ms": round(1000 * st["max_seconds"], 2),
        }
        return {
            "ok": True,
            "version": __version__,
            "instance": store.instance,
            "shared": store.shared,
            "games_live": len(manager.sessions),
            "bot_leases": len(manager.leases),
            "db": db,
            "loop_lag": lag,
            "gc": collector.summary(),
        }

    @app.get("/api/options/{game}", responses=_errors(404, 422))
    async def options(game: str) -> dict[str, Any]:
        """Everything the lobby needs to offer a game's rule options and bot levels."""
        out = options_for(game)
        if out is None:
            raise ApiError(404, "unknown_game", f"unknown game {echo(game)}; the games are {', '.join(core.GAMES)}")
        return out

    @app.post("/api/games", status_code=201, responses=_errors(*_POST_ERRORS))
    async def create_game(body: CreateGame) -> dict[str, Any]:
        """Create a game; the creator gets seat 0's token and an invite for each other person's seat."""
        if body.game not in core.GAMES:
            raise ApiError(
                422, "bad_request", f"game: unknown game {echo(body.game)}; the games are {', '.join(core.GAMES)}"
            )
        game = core.get(body.game)
        levels = tuple(registry.available_levels(game.name))
        if body.seats is None:
            specs = [SeatSpec(kind="human")] + [SeatSpec(kind="bot", level="greedy") for _ in range(body.players - 1)]
        else:
            specs = body.seats
        if len(specs) != body.players:
            raise ApiError(422, "bad_request", f"{body.players} players need {body.players} seats, got {len(specs)}")
        for i, spec in enumerate(specs):
            if spec.kind == "bot":
                if spec.level is None:
                    raise ApiError(422, "bad_request", f"seat {i}: a bot needs a level ({', '.join(levels)})")
                if spec.level not in levels:
                    raise ApiError(
                        422,
                        "bad_request",
                        f"seat {i}: unknown bot level {echo(spec.level)}; choose {', '.join(levels)}",
                    )
            elif spec.level is not None:
                raise ApiError(422, "bad_request", f"seat {i}: a person's seat has no bot level")
        field = _TOGETHER.get(game.name, "teams")
        other = "partnership" if field == "teams" else "teams"
        asked: bool | None = getattr(body, field)
        if getattr(body, other) is not None:
            raise ApiError(422, "bad_request", f'{game.name.capitalize()} sets partners with "{field}", not "{other}"')
        try:
            _rules, rules_dict, teams, notices = table_rules(game, dict(body.rules), body.players, bool(asked))
        except KortbordError as exc:
            raise ApiError.from_engine(422, "bad_rules", exc) from None
        except Exception as exc:  # the engines raise KortbordError; anything else is still the client's input
            log.warning("rules %r were refused with %s", body.rules, type(exc).__name__, exc_info=True)
            raise ApiError(422, "bad_rules", f"these rules cannot be used ({type(exc).__name__})") from None
        refused = table_limit_error(game.name, rules_dict)
        if refused is not None:
            raise ApiError(422, "bad_rules", refused)
        if asked is False and teams:
            raise ApiError(
                422,
                "bad_rules",
                f"with these rules {body.players} players always play as partners, partners opposite "
                "(seats 0+2 against 1+3)",
            )
        seats: list[tuple[str, str | None, str | None]] = [(spec.kind, spec.level, spec.name) for spec in specs]
        out = await _open_table(game.name, rules_dict, body.players, teams, seats, 0, None, body.name)
        out["notices"] = notices
        return out

    def _new_table(
        game: str,
        rules_dict: dict[str, Any],
        players: int,
        teams: bool,
        seats: list[tuple[str, str | None, str | None]],
        owner: int | None,
        dealer: int | None,
        name: str | None,
    ) -> tuple[GameRow, Session, str | None, list[dict[str, Any]]]:
        """A new table, not stored yet: ``seats`` as ``(kind, level, name)``; the person at seat ``owner`` gets a
        token and every other person's seat an invite (``owner`` None: no token and no invite -- a rematch, whose
        seats are taken by asking); ``dealer`` fixes the first dealer (None: chance draws him).  Returns the row
        (``row.token`` and ``row.invites`` hold the secrets to hand out) and the session, its first hand dealt."""
        spec = core.get(game)
        game_id = secrets.token_urlsafe(9)
        seed = seed_factory()
        token: str | None = None
        invites: list[dict[str, Any]] = []
        seat_rows: list[SeatRow] = []
        for i, (kind, level, seat_name) in enumerate(seats):
            if kind == "bot":
                seat_rows.append(SeatRow(i, "bot", level, seat_name, None, None, True))
            elif i == owner:
                token = secrets.token_urlsafe(32)
                seat_rows.append(SeatRow(i, "human", None, seat_name, hash_secret(token), None, True))
            elif owner is None:
                seat_rows.append(SeatRow(i, "human", None, seat_name, None, None, False))
            else:
                code = secrets.token_urlsafe(16)
                seat_rows.append(SeatRow(i, "human", None, seat_name, None, hash_secret(code), False))
                invites.append({"seat": i, "invite_code": code, "url": f"/?join={game_id}&invite={code}"})
        row = GameRow.new(
            id=game_id,
            game=spec.name,
            name=name,
            rules=rules_dict,
            rules_version=spec.rules_version,
            players=players,
            teams=teams,
            seed=seed,
            seats=seat_rows,
            first_dealer=dealer,
        )
        session = build_session(row)  # deals the first hand with the secret seed (validates everything)
        row.snapshot = session.snapshot(session.state, 0)
        return row, session, token, invites

    async def _open_table(
        game: str,
        rules_dict: dict[str, Any],
        players: int,
        teams: bool,
        seats: list[tuple[str, str | None, str | None]],
        owner: int,
        dealer: int | None,
        name: str | None,
    ) -> dict[str, Any]:
        """Store and start a new table (:func:`_new_table`).  Returns ``{"game_id", "seat", "token", "invites",
        "seed_commitment", "ws_url"}``."""
        row, session, token, invites = _new_table(game, rules_dict, players, teams, seats, owner, dealer, name)
        await store.create_game(row)
        manager.add(session)
        session.kick_bots()
        return {
            "game_id": row.id,
            "seat": owner if token is not None else None,
            "token": token,
            "invites": invites,
            "seed_commitment": row.seed_commitment,
            "ws_url": f"/ws/games/{row.id}",
        }

    @app.get("/api/games", responses=_errors(422))
    async def list_games(limit: int = 100) -> list[dict[str, Any]]:
        """The most recent games (public facts only), newest first."""
        limit = max(1, min(limit, 500))
        out = []
        for row in await store.list_games(limit):
            live = manager.sessions.get(row.id)
            out.append(live.summary() if live is not None else _row_summary(row))
        return out

    async def _session(game_id: str) -> Session:
        if len(game_id) > 64:
            raise ApiError(404, "not_found", "no such game")
        session = await manager.get(game_id)
        if session is None:
            raise ApiError(404, "not_found", "there is no such game")
        if manager.shared:  # answer what the database holds, not what this instance has heard so far
            await session.catch_up()
        return session

    @app.get("/api/games/{game_id}", responses=_errors(404, 422))
    async def get_game(game_id: str) -> dict[str, Any]:
        """One game's public summary."""
        return (await _session(game_id)).summary()

    @app.post("/api/games/{game_id}/join", responses=_errors(403, 404, 409, *_POST_ERRORS))
    async def join_game(game_id: str, body: JoinGame) -> dict[str, Any]:
        """Take the seat an invite code belongs to (single use): returns the seat and its token."""
        session = await _session(game_id)
        if session.over:
            raise ApiError(409, "game_over", "the game is over")
        token = secrets.token_urlsafe(32)
        seat = await store.claim_seat(game_id, hash_secret(body.invite_code), hash_secret(token), body.name)
        if seat is None:
            raise ApiError(403, "bad_invite", "this invite code is not valid for this game (or was used already)")
        before = session.status
        if manager.shared:  # other seats may have been taken through other instances: the database knows
            await session.catch_up()
        s = session.seats[seat]
        s.claimed, s.token_hash, s.name = True, hash_secret(token), body.name
        if session.status != before:
            await store.set_status(game_id, session.status)
        session.broadcast([])
        session.kick_bots()
        return {"game_id": game_id, "seat": seat, "token": token}

    @app.post("/api/games/{game_id}/invite", responses=_errors(403, 404, *_POST_ERRORS))
    async def check_invite(game_id: str, body: InviteCheck) -> dict[str, Any]:
        """Whether an invite code is still good, for the join page (changes nothing): ``{"seat", "status"}``;
        403 ``bad_invite`` for a wrong or spent code, 409 ``game_over`` once the game has ended."""
        session = await _session(game_id)
        if session.over:
            raise ApiError(409, "game_over", "the game is over")
        seat = await store.invite_seat(game_id, hash_secret(body.invite_code))
        if seat is None:
            raise ApiError(403, "bad_invite", "this invite code is not valid for this game (or was used already)")
        return {"game_id": game_id, "seat": seat, "status": session.status}

    @app.post("/api/games/{game_id}/rematch", status_code=201, responses=_errors(403, 404, 409, *_POST_ERRORS))
    async def rematch(game_id: str, body: Rematch) -> dict[str, Any]:
        """After a game, the same table again: the same rules and seats, the first deal passing to the seat after
        the last game's first dealer.  The first seat to ask opens it; every other person is offered it in their
        state message (``rematch``: the new game and who asked) and takes their seat of it by asking too, with
        their own token of this game -- no invite code is made or sent.  Each seat's token of the rematch is
        derived from its token of this game, so asking again is the same answer (the same game, seat and token).
        The offer is stored with the game (a restart or another instance sees it; the database decides between
        two seats asking at once).  403 ``bad_token``, 409 ``not_over``."""
        session = await _session(game_id)
        seat = session.seat_for_token(body.token)
        if seat is None:
            raise ApiError(403, "bad_token", "this seat token is not valid for this game")
        if not session.over:
            raise ApiError(409, "not_over", "a rematch can be asked for once the game is over")
        async with session.lock:
            offer = await store.load_rematch(session.id)  # the database knows (another instance may have opened it)
            if offer is None:
                first = session.first_dealer
                if first is None:
                    first = next((e["seat"] for e in session.history() if e.get("kind") == "dealer"), 0)
                row, new_session, _, _ = _new_table(
                    session.spec.name,
                    session.rules_dict,
                    session.players,
                    session.teams,
                    [(s.kind, s.level, s.name) for s in session.seats],
                    None,
                    (first + 1) % session.players,
                    session.name,
                )
                offer = await store.create_rematch(row, session.id, seat)
                if offer["game_id"] == row.id:
                    manager.add(new_session)
            if offer != session.rematch_offer:
                session.rematch_offer = offer
                session.broadcast([])
        new = await _session(offer["game_id"])
        token = rematch_token(body.token, new.id)
        name = session.seats[seat].name
        if not await store.take_rematch_seat(new.id, seat, hash_secret(token), name):
            raise ApiError(403, "bad_token", "this seat of the rematch is held by another token")
        async with new.lock:
            s = new.seats[seat]
            if (s.claimed, s.token_hash, s.name) != (True, hash_secret(token), name):
                before = new.status
                s.claimed, s.token_hash, s.name = True, hash_secret(token), name
                if new.status != before:
                    await store.set_status(new.id, new.status)
                new.broadcast([])
        new.kick_bots()
        return {"game_id": new.id, "seat": seat, "token": token, "invites": []}

    @app.get("/api/games/{game_id}/record", responses=_errors(404, 409, 422))
    async def record(game_id: str) -> dict[str, Any]:
        """The game record with the revealed seed, once the game is over (409 before)."""
        session = await _session(game_id)
        if not session.over:
            raise ApiError(409, "not_over", "the record (with the seed) is given out only when the game is over")
        return session.record()

    # -- play ---------------------------------------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        await game_socket(ws, manager, game_id, token, origins, ws_rate, ws_burst)

    # -- the page ---------------------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER, headers={"Cache-Control": "no-cache"})

    app.mount("/static", CachedStatic(directory=static), name="static")
    app.mount("/cards", CachedStatic(directory=static / "cards", max_age=86400), name="cards")
    app.mount("/", CachedStatic(directory=static), name="page")
    return app


def _warm_tables() -> None:
    """:func:`~kortbord.server.sessions.warm_up` and every game's lobby options (built once, cached)."""
    warm_up()
    for game in core.GAMES:
        options_for(game)
        registry.available_levels(game)


def _row_summary(row: GameRow) -> dict[str, Any]:
    return {
        "game_id": row.id,
        "game": row.game,
        "name": row.name,
        "rules": row.rules,
        "players": row.players,
        "teams": row.teams,
        "seats": [
            {
                k: v
                for k, v in {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "claimed": s.claimed,
                    "name": s.name,
                }.items()
                if v is not None
            }
            for s in row.seats
        ],
        "status": row.status,
        "version": row.version,
        "seed_commitment": row.seed_commitment,
        "created_at": row.created_at.isoformat(),
    }
