"""The WebSocket play protocol (``docs/protocol.md``): ``/ws/games/{id}?token=<seat token>``.

Each connection has an outgoing queue drained by its own task (messages reach a client in version order, and a
slow client never holds up the table), a token-bucket rate limit (a seat's move and advice request at each version are free) and a message-size limit.  Every error message
says why, carries the current version, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from kortbord.server import aids
from kortbord.server.sessions import MoveError, Session, SessionManager, _dumps

__all__ = [
    "MAX_MESSAGE",
    "MAX_QUEUE",
    "MAX_QUEUE_BYTES",
    "Connection",
    "RateLimit",
    "game_socket",
    "origin_allowed",
    "origin_key",
]

log = logging.getLogger("kortbord.server.ws")

#: Largest message a client may send, in bytes (UTF-8).
MAX_MESSAGE: Final = 4096
#: Messages queued for one client before it is considered gone.
MAX_QUEUE: Final = 256
#: Characters queued for one client before it is considered gone (a client that asks for a long game's history
#: again and again and reads nothing would otherwise hold MAX_QUEUE copies of it: tens of megabytes each).
MAX_QUEUE_BYTES: Final = 4 * 1024 * 1024
#: Close codes (application range 4000-4999).
CLOSE_NOT_FOUND: Final = 4404
CLOSE_BAD_TOKEN: Final = 4403
CLOSE_ORIGIN: Final = 4401
CLOSE_FLOOD: Final = 4429
CLOSE_SLOW: Final = 4408


class RateLimit:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` messages a second."""

    def __init__(self, rate: float = 10.0, burst: float = 20.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket has refilled to ``burst``: the client has kept under the rate for a while."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


def _may_be_free(raw: str) -> bool:
    """Whether the text ``raw`` could be a message :func:`_free` lets through (a cheap test before parsing)."""
    return '"move"' in raw or '"advice"' in raw or '"review"' in raw


def _free(conn: Connection, msg: Any, version: int) -> bool:
    """Whether ``msg`` (parsed JSON) passes although the bucket is empty: one ``move`` and one ``advice`` request
    of the connection at each ``version`` of the game, and its first ``review`` request (the page asks once, when
    the game is over, just after its last moves and advice: ignored, the review never came).  The game's pace bounds them (the version grows only by moves), and a page
    asks for the aids' advice after every state: so a quick player's move is never refused by the rate limit,
    even at a table of four where three computers answer at once."""
    if not isinstance(msg, dict):
        return False
    kind = msg.get("type")
    if kind == "move" and conn.free_move != version:
        conn.free_move = version
        return True
    if kind == "advice" and conn.free_advice != version:
        conn.free_advice = version
        return True
    if kind == "review" and not conn.free_review:
        conn.free_review = True
        return True
    return False


class Connection:
    """One client: its seat (None: spectator), the last version sent, an outgoing queue."""

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.last_version = -1
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        #: characters of the messages queued and not yet sent
        self.queued = 0
        self.closed = False
        self.overflow = False
        #: the versions at which this connection last sent its free move and advice request (:func:`_free`)
        self.free_move = -1
        self.free_advice = -1
        self.free_review = False  # its first review request passed an empty bucket

    def push(self, text: str, version: int) -> None:
        """Queue a state message (non-blocking) through :meth:`_put`."""
        if self._put(text):
            self.last_version = max(self.last_version, version)

    def send_json(self, msg: dict[str, Any]) -> None:
        """Queue a message that is not a state (an error, a pong, an aid's answer) through the same bounded queue
        as the states (:meth:`_put`)."""
        if not self.closed:
            self._put(_dumps(msg))

    def _put(self, text: str) -> bool:
        """Queue ``text`` unless the connection is closed; a client with :data:`MAX_QUEUE` messages or
        :data:`MAX_QUEUE_BYTES` characters unread (one message, however long, is always queued) is too far behind
        and is disconnected (the queue then ends with the pump's stop mark).  True if queued."""
        if self.closed:
            return False
        if self.queue.qsize() >= MAX_QUEUE or (self.queued and self.queued + len(text) > MAX_QUEUE_BYTES):
            self.closed = True
            self.overflow = True
            self.queue.put_nowait(None)
            return False
        self.queued += len(text)
        self.queue.put_nowait(text)
        return True

    async def pump(self) -> None:
        """Send queued messages until the queue yields None or the socket fails."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                self.queued -= len(text)
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            self.closed = True
            if self.overflow and self.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await self.ws.close(code=CLOSE_SLOW, reason="too far behind")


#: The port an origin means when it names none, by scheme.
_DEFAULT_PORT: Final = {"http": 80, "https": 443}
#: The page's scheme for the WebSocket's scheme (``ws`` is opened by an ``http`` page, ``wss`` by ``https``).
_PAGE_SCHEME: Final = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a browser origin such as ``"https://example.org"`` (host lower-cased, the
    scheme's default port filled in), or None if it is not a plain ``http``/``https`` origin (``"null"``, a path,
    a user name, a bad port)."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORT or not parts.hostname or parts.username is not None or parts.password is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORT[scheme]


def own_origin(ws: WebSocket) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of the page this server serves, from the connection's scheme (``ws``: ``http``,
    ``wss``: ``https``; behind a proxy, what uvicorn's proxy headers made it) and its ``Host`` header."""
    host = ws.headers.get("host", "")
    scheme = _PAGE_SCHEME.get(ws.url.scheme.lower())
    if not host or scheme is None:
        return None
    return origin_key(f"{scheme}://{host}")


def origin_allowed(ws: WebSocket, allowed: frozenset[str]) -> bool:
    """A browser's ``Origin`` must be this server itself or one of ``allowed`` (``"*"`` allows any), compared by
    scheme, host and port (``https://host:PORT`` is not the ``http`` server on that port).  Clients that send no
    Origin (scripts, tests) are allowed -- the seat token is what authorises play."""
    origin = ws.headers.get("origin")
    if origin is None or "*" in allowed:
        return True
    key = origin_key(origin)
    if key is None:
        return False
    if key == own_origin(ws):
        return True
    return any(origin_key(a) == key for a in allowed)


def _error(code: str, message: str, version: int, reason: dict[str, Any] | None = None) -> dict[str, Any]:
    """An ``error`` message: the protocol ``code``, the English ``message``, the current ``version`` and, for a
    move the engine refused, its ``reason`` (``{"code": <the engine's reason code>, **data}``) for the client to
    word in its player's language (``docs/protocol.md``)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "version": version}
    if reason is not None:
        out["reason"] = reason
    return out


async def game_socket(
    ws: WebSocket,
    manager: SessionManager,
    game_id: str,
    token: str | None,
    allowed_origins: frozenset[str],
    rate: float,
    burst: float,
) -> None:
    """Serve one WebSocket client of game ``game_id`` (seat from ``token``; no token: spectator)."""
    if not origin_allowed(ws, allowed_origins):
        await ws.close(code=CLOSE_ORIGIN, reason="origin not allowed")
        return
    session = await manager.get(game_id)
    await ws.accept()
    if session is None:
        await ws.send_text(json.dumps(_error("not_found", "there is no such game", 0)))
        await ws.close(code=CLOSE_NOT_FOUND)
        return
    seat: int | None = None
    if token:
        seat = session.seat_for_token(token)
        if seat is None and manager.shared:  # the seat may have been taken through another instance just now
            await session.catch_up()
            seat = session.seat_for_token(token)
        if seat is None:
            await ws.send_text(
                json.dumps(_error("bad_token", "this seat token is not valid for this game", session.version))
            )
            await ws.close(code=CLOSE_BAD_TOKEN)
            return
    conn = Connection(ws, seat)
    pump = asyncio.create_task(conn.pump())
    session.attach(conn)
    limit = RateLimit(rate, burst)
    refused = 0
    last_notice = 0.0
    flooded = False
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                data = msg.get("bytes") or b""
                size = len(data)
            else:
                size = len(raw.encode("utf-8")) if len(raw) * 4 > MAX_MESSAGE else len(raw)
            parsed: Any = None
            problem: str | None = None
            if size > MAX_MESSAGE:
                problem = "too_large"
            elif raw is None:
                try:
                    raw = (msg.get("bytes") or b"").decode("utf-8")
                except UnicodeDecodeError:
                    problem = "messages are JSON text (UTF-8)"
            allowed = limit.allow()
            if problem is None and (allowed or _may_be_free(raw or "")):  # a flood's pings are never parsed
                parsed, problem = _parse(raw or "")
            if not (allowed or _free(conn, parsed, session.version)):
                refused += 1
                if refused > 10 * burst:
                    conn.send_json(_error("rate_limited", "too many messages: disconnected", session.version))
                    flooded = True
                    break
                now = time.monotonic()
                if now - last_notice >= 1.0:
                    last_notice = now
                    conn.send_json(
                        _error(
                            "rate_limited",
                            f"too many messages: at most {burst:g} at once and {rate:g} a second; this one was ignored",
                            session.version,
                        )
                    )
                continue
            if refused and limit.full():  # kept under the rate long enough to fill the bucket: not a flood
                refused = 0
            if problem == "too_large":
                conn.send_json(
                    _error("too_large", f"a message may be at most {MAX_MESSAGE} bytes; got {size}", session.version)
                )
            elif problem is not None:
                conn.send_json(_error("bad_message", problem, session.version))
            else:
                await _handle(session, conn, parsed)
    except WebSocketDisconnect:
        pass
    finally:
        session.detach(conn)
        conn.closed = True
        conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, timeout=2.0)
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(code=CLOSE_FLOOD if flooded else 1000)


def _parse(raw: str) -> tuple[Any, str | None]:
    """A message's JSON: ``(msg, None)``, or ``(None, why)`` -- not JSON, nested too deeply, not an object with a
    string ``"type"``."""
    try:
        msg = json.loads(raw)
    except RecursionError:
        return None, "not valid JSON: nested too deeply"
    except ValueError as exc:  # malformed JSON, or a number with too many digits
        return None, f"not valid JSON: {exc}"
    if not isinstance(msg, dict):
        return None, 'a message is a JSON object with a "type"'
    if not isinstance(msg.get("type"), str):
        return None, 'a message needs "type": a string such as "move"'
    return msg, None


async def _handle(session: Session, conn: Connection, msg: dict[str, Any]) -> None:
    """Answer one well-formed message ``msg`` (:func:`_parse`) of ``conn``'s client."""
    kind = msg["type"]
    if kind == "ping":
        conn.send_json({"type": "pong", "version": session.version})
    elif kind == "resync":
        if session.manager is not None and session.manager.shared:  # the database is the authority
            await session.catch_up()
        since = msg.get("since")
        events = session.events_since(since) if type(since) is int and since >= 0 else []
        # {"type": "resync", "history": true}: with every event so far, as on connecting
        history = msg.get("history") is True  # a page's first resync: with the aids too, as on connecting
        session.send_state(conn, events or [], history=history, with_aids=history)
    elif kind == "move":
        try:
            await session.submit(conn.seat, msg.get("version"), msg.get("move"))
        except MoveError as exc:
            conn.send_json(_error(exc.code, exc.message, session.version, exc.reason))
            if exc.code == "stale_version":
                session.send_state(conn, [])
    elif kind in aids.MESSAGES:
        await aids.handle(session, conn, msg)
    else:
        conn.send_json(
            _error(
                "bad_message",
                "unknown message type; the types are move, resync, ping, aids, hint, advice and review",
                session.version,
            )
        )
