"""Live games in memory: one :class:`Session` per game, rebuilt from the database by replaying rules + seed +
moves, driving the pure engine functions with the game's :class:`~kortbord.server.rng.DeterministicCSPRNG`.

A move (a person's or a bot's) goes through :meth:`Session.submit`: under the game's lock the version is
checked, the engine parses and validates the move (``parse_move``/``step``: any error changes nothing), the chance
steps that follow are drawn, the move is written to the database, and only then is the new state kept and every
connection sent its seat's view.  Bots think in the :class:`~kortbord.server.bots.BotPool`, outside the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from kortbord.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    KortbordError,
    NotYourTurnError,
)
from kortbord.server.bots import BotPool
from kortbord.server.db import GameRow, SeatRow, Store
from kortbord.server.games import GAMES, GameKind, move_json, run_chance
from kortbord.server.rng import RNG_NAME, DeterministicCSPRNG

__all__ = ["MoveError", "Session", "SessionManager", "hash_secret", "replay_record"]

log = logging.getLogger("kortbord.server.sessions")

#: Versions whose events are kept for clients that missed messages.
EVENT_LOG: Final = 256


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a seat token or invite code (only hashes are stored)."""
    return hashlib.sha256(secret.encode()).hexdigest()


class MoveError(Exception):
    """A refused message: ``code`` (protocol error code) and a plain-words ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Outbox(Protocol):
    """A connection as the session sees it: its seat (None: spectator) and a non-blocking send."""

    seat: int | None
    last_version: int

    def push(self, text: str, version: int) -> None: ...


@dataclass
class Seat:
    """A seat at the table (in memory)."""

    seat: int
    kind: str
    level: str | None
    name: str | None
    claimed: bool
    token_hash: str | None

    def summary(self) -> dict[str, Any]:
        """Public facts of the seat: ``{"seat", "kind", "level"?, "claimed", "name"?}``."""
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "claimed": self.claimed}
        if self.level is not None:
            out["level"] = self.level
        if self.name is not None:
            out["name"] = self.name
        return out


def _seat_name(kind: GameKind, seat: int) -> str:
    return f"P{seat + 1}" if kind.name == "mulle" else f"P{seat}"


@dataclass
class Session:
    """One live game: the engine state, its generator, its seats, its connections."""

    id: str
    kind: GameKind
    name: str | None
    rules: Any
    rules_dict: dict[str, Any]
    players: int
    teams: bool
    seed: str
    seed_commitment: str
    created_at: dt.datetime
    seats: list[Seat]
    state: Any
    rng: DeterministicCSPRNG
    moves: list[str] = field(default_factory=list)
    events: deque[tuple[int, list[dict[str, Any]]]] = field(default_factory=lambda: deque(maxlen=EVENT_LOG))
    conns: set[Outbox] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    manager: SessionManager | None = None
    #: a person at the table has connected (bots wait for that, so nobody finds a game begun without them);
    #: games without people start at once
    present: bool = False

    # -- facts --------------------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Moves applied so far (chance steps not counted)."""
        return len(self.moves)

    @property
    def over(self) -> bool:
        """The game has ended."""
        return bool(self.kind.engine.is_over(self.state))

    @property
    def status(self) -> str:
        """``waiting`` (a person's seat is not taken yet), ``playing`` or ``over``."""
        return self._status_of(self.state)

    def _status_of(self, state: Any) -> str:
        if self.kind.engine.is_over(state):
            return "over"
        return "waiting" if any(not s.claimed for s in self.seats) else "playing"

    def to_act(self) -> int | None:
        """The seat to move, or None."""
        result: int | None = self.kind.engine.to_act(self.state)
        return result

    def seat_for_token(self, token: str) -> int | None:
        """The seat a token belongs to, or None (constant-time comparison of the hashes)."""
        h = hash_secret(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    def summary(self) -> dict[str, Any]:
        """The public summary (``GET /api/games/{id}``)."""
        return {
            "game_id": self.id,
            "game": self.kind.name,
            "name": self.name,
            "rules": self.rules_dict,
            "players": self.players,
            "teams": self.teams,
            "seats": [s.summary() for s in self.seats],
            "status": self.status,
            "version": self.version,
            "seed_commitment": self.seed_commitment,
            "created_at": self.created_at.isoformat(),
        }

    def snapshot(self, state: Any, version: int) -> dict[str, Any]:
        """A small consistency record stored with each move: version, phase, seat to act, scores (public facts;
        compared with the replayed game when a server resumes it)."""
        v = self.kind.engine.view(state, 0).to_json()
        return {
            "version": version,
            "phase": v.get("phase"),
            "to_act": self.kind.engine.to_act(state),
            "scores": v.get("scores"),
        }

    def record(self) -> dict[str, Any]:
        """The game record: rules, seed, generator and moves (only to be given out once the game is over)."""
        rec: dict[str, Any] = {
            "game": self.kind.name,
            "rules_version": self.kind.rules_version,
            "rules": self.rules_dict,
            "players": self.players,
            "teams": self.teams,
            "seats": [s.name or _seat_name(self.kind, s.seat) for s in self.seats],
            "seed": self.seed,
            "seed_commitment": self.seed_commitment,
            "rng": RNG_NAME,
            "moves": list(self.moves),
        }
        if self.kind.name == "mulle":
            rec["dealer"] = None
        result = self.kind.result_json(self.state)
        if result is not None:
            rec["result"] = result
        return rec

    # -- messages -----------------------------------------------------------------------------------------------
    def state_message(self, seat: int | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator), built from ``view(state, seat)`` only."""
        eng = self.kind.engine
        status = self.status
        if seat is None:
            view_json = self.kind.view_json(self.state, None)
            legal: list[dict[str, Any]] = []
        else:
            v = eng.view(self.state, seat)
            view_json = v.to_json()
            legal = [move_json(m) for m in v.legal_moves] if status == "playing" else []
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "game_id": self.id,
            "game": self.kind.name,
            "seat": seat,
            "status": status,
            "to_act": self.to_act(),
            "view": view_json,
            "legal_moves": legal,
            "events": events,
            "rules": self.rules_dict,
            "seats": [s.summary() for s in self.seats],
        }
        if status == "over":
            msg["result"] = self.kind.result_json(self.state)
            msg["seed"] = self.seed
            msg["rng"] = RNG_NAME
        return msg

    def events_since(self, version: int) -> list[dict[str, Any]] | None:
        """Events of the moves after ``version``, or None if they are no longer kept."""
        if version >= self.version:
            return []
        out: list[dict[str, Any]] = []
        wanted = range(version + 1, self.version + 1)
        got = [evs for v, evs in self.events if v in wanted]
        if len(got) != len(wanted):
            return None
        for evs in got:
            out.extend(evs)
        return out

    def attach(self, conn: Outbox) -> None:
        """Add a connection and queue its first state message (no events); a seated connection lets the bots
        start (see :attr:`present`)."""
        self.conns.add(conn)
        self.send_state(conn, [])
        if conn.seat is not None and not self.present:
            self.present = True
            self.kick_bots()

    def detach(self, conn: Outbox) -> None:
        """Forget a connection."""
        self.conns.discard(conn)
        if not self.conns and self.over and self.manager is not None:
            self.manager.forget(self.id)

    def send_state(self, conn: Outbox, events: list[dict[str, Any]]) -> None:
        """Queue a fresh state message for one connection."""
        conn.push(_dumps(self.state_message(conn.seat, events)), self.version)

    def broadcast(self, events: list[dict[str, Any]]) -> None:
        """Queue the new state for every connection, each built from its own seat's view (one encoding per seat)."""
        cache: dict[int | None, str] = {}
        for conn in list(self.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = _dumps(self.state_message(conn.seat, events))
            conn.push(text, self.version)

    # -- moves --------------------------------------------------------------------------------------------------
    async def submit(self, seat: int | None, version: object, text: object) -> None:
        """Play ``text`` (move notation) for ``seat`` if ``version`` is the current version.

        Writes the move before the new state is kept or sent.  Raises :class:`MoveError` (nothing changed) with
        code ``spectator``, ``waiting``, ``game_over``, ``stale_version``, ``not_your_turn``, ``malformed``,
        ``illegal_move``, ``ambiguous`` or ``server_error``.
        """
        if seat is None:
            raise MoveError("spectator", "you are watching this game: join with an invite to take a seat")
        if not isinstance(text, str) or not text.strip():
            raise MoveError("bad_message", 'a move message needs "move": the move in notation, e.g. "T 9H"')
        if len(text) > 300:
            raise MoveError("malformed", "a move is at most 300 characters of notation")
        if type(version) is not int:
            raise MoveError("bad_message", 'a move message needs "version": the version of the state you saw')
        async with self.lock:
            if self.over:
                raise MoveError("game_over", "the game is over: no more moves")
            if self.status == "waiting":
                raise MoveError("waiting", "the game starts when every seat is taken")
            if version != self.version:
                raise MoveError(
                    "stale_version",
                    f"your move was made at version {version} but the game is at version {self.version}; "
                    "here is the current state",
                )
            to_act = self.to_act()
            if to_act != seat:
                who = "nobody" if to_act is None else self._who(to_act)
                raise MoveError("not_your_turn", f"it is not your turn: {who} is to move")
            eng = self.kind.engine
            try:
                move = eng.parse_move(self.state, text)
                new_state, evs = eng.step(self.state, move)
            except AmbiguousMoveError as exc:
                raise MoveError("ambiguous", str(exc)) from None
            except NotYourTurnError as exc:
                raise MoveError("not_your_turn", str(exc)) from None
            except IllegalMoveError as exc:
                raise MoveError("illegal_move", str(exc)) from None
            except (InvalidMoveError, InvalidCardError) as exc:
                raise MoveError("malformed", str(exc)) from None
            except KortbordError as exc:
                raise MoveError("malformed", str(exc)) from None
            events = [e.to_json() for e in evs]
            rng_state = self.rng.getstate()
            new_state, chance_events = run_chance(self.kind, new_state, self.rng)
            events.extend(chance_events)
            notation = str(move)
            ply = self.version + 1
            try:
                assert self.manager is not None
                await self.manager.store.append_move(
                    self.id, ply, seat, notation, self._status_of(new_state), self.snapshot(new_state, ply)
                )
            except Exception:
                log.exception("could not store move %d of game %s", ply, self.id)
                self.rng.setstate(rng_state)
                raise MoveError("server_error", "the move could not be saved; nothing changed, try again") from None
            # written: now (and only now) the move is part of the game
            self.state = new_state
            self.moves.append(notation)
            self.events.append((ply, events))
            self.broadcast(events)
        self.kick_bots()

    def _who(self, seat: int) -> str:
        s = self.seats[seat]
        label = s.name or _seat_name(self.kind, seat)
        return f"{label} (seat {seat})"

    # -- bots ---------------------------------------------------------------------------------------------------
    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to move and none is thinking already."""
        if self.manager is None or self.status != "playing":
            return
        if not self.present and any(s.kind == "human" for s in self.seats):
            return
        to_act = self.to_act()
        if to_act is None or self.seats[to_act].kind != "bot":
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        self.bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{self.id}")

    async def _bot_loop(self) -> None:
        manager = self.manager
        assert manager is not None
        try:
            while self.status == "playing":
                seat = self.to_act()
                if seat is None or self.seats[seat].kind != "bot":
                    return
                version = self.version
                eng = self.kind.engine
                view = eng.view(self.state, seat)
                legal = list(view.legal_moves) or eng.legal_moves(self.state)
                if manager.bot_delay > 0:
                    await asyncio.sleep(manager.bot_delay)
                index = await manager.bots.choose(
                    self.kind.name, self.seats[seat].level or "random", self.rules, view, legal
                )
                if self.version != version:
                    continue
                try:
                    await self.submit(seat, version, str(legal[index]))
                except MoveError as exc:
                    log.error("bot move refused in game %s: %s %s", self.id, exc.code, exc.message)
                    if exc.code == "server_error":
                        await asyncio.sleep(1.0)
                    else:
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s failed", self.id)


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def build_session(row: GameRow) -> Session:
    """Rebuild a session from its stored record by replaying rules + seed + moves.

    Raises:
        KortbordError: the stored game does not replay (a stored move is illegal, a rules version changed).
    """
    kind = GAMES[row.game]
    if row.rules_version != kind.rules_version:
        raise KortbordError(
            f"game {row.id} was played under rules version {row.rules_version}; this server runs {kind.rules_version}"
        )
    if row.rng != RNG_NAME:
        raise KortbordError(f"game {row.id} uses generator {row.rng!r}; this server knows {RNG_NAME}")
    rules, rules_dict, teams, _ = kind.make_rules(dict(row.rules), row.players, row.teams)
    rng = DeterministicCSPRNG(row.seed)
    state, _ = run_chance(kind, kind.new_state(rules, row.players, teams), rng)
    session = Session(
        id=row.id,
        kind=kind,
        name=row.name,
        rules=rules,
        rules_dict=rules_dict,
        players=row.players,
        teams=teams,
        seed=row.seed,
        seed_commitment=row.seed_commitment,
        created_at=row.created_at,
        seats=[Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash) for s in row.seats],
        state=state,
        rng=rng,
    )
    eng = kind.engine
    for i, text in enumerate(row.moves, 1):
        move = eng.parse_move(session.state, text)
        state, evs = eng.step(session.state, move)
        events = [e.to_json() for e in evs]
        state, more = run_chance(kind, state, rng)
        events.extend(more)
        session.state = state
        session.moves.append(str(move))
        session.events.append((i, events))
    snap = row.snapshot
    if snap and snap.get("version") == session.version and snap != session.snapshot(session.state, session.version):
        raise KortbordError(f"game {row.id} replays to another position than the one stored with its last move")
    return session


def replay_record(record: dict[str, Any]) -> Any:
    """Replay a finished game's record (``GET /api/games/{id}/record``) with the revealed seed and return the
    final engine state: anyone can check the deal and every move this way.

    Raises:
        KortbordError: the record does not replay.  KeyError: a record key is missing.
    """
    row = GameRow(
        id="record",
        game=record["game"],
        name=None,
        rules=record["rules"],
        rules_version=record["rules_version"],
        players=record["players"],
        teams=bool(record.get("teams", False)),
        seed=record["seed"],
        seed_commitment=record.get("seed_commitment", ""),
        rng=record["rng"],
        version=len(record["moves"]),
        snapshot=None,
        status="over",
        created_at=dt.datetime.now(dt.UTC),
        seats=[],
        moves=list(record["moves"]),
    )
    return build_session(row).state


class SessionManager:
    """Every live session, the store and the bot pool.

    Args:
        store: the database.  bots: the bot pool.  bot_delay: seconds a bot waits before moving (0: none).
    """

    def __init__(self, store: Store, bots: BotPool, bot_delay: float = 0.0) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self.sessions: dict[str, Session] = {}
        self._loading: dict[str, asyncio.Future[Session | None]] = {}

    async def resume_all(self) -> int:
        """Load every unfinished game from the database (after a start or restart) and let its bots play on.
        Returns the number of games resumed; a game that fails to replay is logged and skipped."""
        count = 0
        for row in await self.store.load_unfinished():
            try:
                session = build_session(row)
            except Exception:
                log.exception("game %s could not be resumed", row.id)
                continue
            self.add(session)
            count += 1
        for session in self.sessions.values():
            session.kick_bots()
        return count

    def add(self, session: Session) -> Session:
        """Register a session (and its bots)."""
        session.manager = self
        self.sessions[session.id] = session
        return session

    def forget(self, game_id: str) -> None:
        """Drop a finished session from memory (it stays in the database)."""
        self.sessions.pop(game_id, None)

    async def get(self, game_id: str) -> Session | None:
        """The session of a game, loading it from the database if needed; None if there is no such game."""
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        pending = self._loading.get(game_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Session | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = fut
        try:
            row = await self.store.load_game(game_id)
            session = None if row is None else self.add(build_session(row))
            fut.set_result(session)
            if session is not None:
                session.kick_bots()
            return session
        except Exception as exc:
            fut.set_exception(exc)
            raise
        finally:
            del self._loading[game_id]

    async def close(self) -> None:
        """Stop every bot loop."""
        tasks = [s.bot_task for s in self.sessions.values() if s.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    def seat_rows(self, seats: Iterable[SeatRow]) -> list[Seat]:
        """In-memory seats from stored rows."""
        return [Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash) for s in seats]
