"""Live games in memory: one :class:`Session` per game, rebuilt from the database by replaying rules + seed +
moves, driving the game's :class:`~kortbord.contract.GameSpec` (``kortbord.core.get(name)``, the only way the server
touches an engine) with the game's :class:`~kortbord.server.rng.DeterministicCSPRNG`.

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
import random
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from kortbord import core
from kortbord.contract import GameSpec
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
from kortbord.server.rng import RNG_NAME, DeterministicCSPRNG
from kortbord.server.stats import record_result

__all__ = ["MoveError", "Session", "SessionManager", "hash_secret", "replay_record", "run_chance", "table_rules"]

log = logging.getLogger("kortbord.server.sessions")

#: Versions whose events are kept for clients that missed messages.
EVENT_LOG: Final = 256


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a seat token or invite code (only hashes are stored)."""
    return hashlib.sha256(secret.encode()).hexdigest()


class MoveError(Exception):
    """A refused message: ``code`` (protocol error code), a plain-words English ``message`` and, when an engine
    refused the move, its ``reason`` as JSON (``{"code": "must_capture", **data}``, :class:`kortbord.contract.Reason`)
    for the client to word in its player's language."""

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


def _reason(exc: Exception) -> dict[str, Any] | None:
    """The engine's reason an error carries, as JSON, or None (``IllegalMoveError.reason``)."""
    why = getattr(exc, "reason", None)
    return None if why is None else dict(why.to_json())


def run_chance(spec: GameSpec, state: Any, rng: random.Random) -> tuple[Any, list[dict[str, Any]]]:
    """Resolve every chance step due at ``state`` with ``rng`` (``spec.chance_outcome``/``spec.step``):
    ``(state, the public events as JSON)``."""
    events: list[dict[str, Any]] = []
    while spec.is_chance(state):
        state, evs = spec.step(state, spec.chance_outcome(state, rng))
        events.extend(e.to_json() for e in evs)
    return state, events


def table_rules(
    spec: GameSpec, options: dict[str, Any], players: int, teams: bool
) -> tuple[Any, dict[str, Any], bool, list[str]]:
    """The rules of a table from the lobby's option overrides (``spec.make_rules``):
    ``(rules, rules as JSON, whether the seats play as teams, notices)``.

    ``teams`` is what the game makes of the request (``spec.sides`` of the new game is smaller than its seats: a
    game may seat partners whether or not they were asked for, as four-hand Cribbage does, spec §2.2).  The
    notices say how options were combined (a rules object's ``notices``, if the game has any).

    Raises:
        InvalidRulesError: an unknown option, a bad value, a player count or teams the rules refuse.
    """
    rules = spec.make_rules(options, players=players, teams=teams)
    state = spec.new_game(rules, players=players, teams=teams)
    together = spec.sides(state) < spec.players(state)
    return rules, spec.rules_to_dict(rules), together, [str(n) for n in getattr(rules, "notices", ())]


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


@dataclass
class Session:
    """One live game: the engine state, its generator, its seats, its connections."""

    id: str
    spec: GameSpec
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
    #: the person seats that agreed to aids in a game between people (:mod:`kortbord.server.aids`)
    aids_agreed: set[int] = field(default_factory=set)

    # -- facts --------------------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Moves applied so far (chance steps not counted)."""
        return len(self.moves)

    @property
    def over(self) -> bool:
        """The game has ended."""
        return self.spec.is_over(self.state)

    @property
    def status(self) -> str:
        """``waiting`` (a person's seat is not taken yet), ``playing`` or ``over``."""
        return self._status_of(self.state)

    def _status_of(self, state: Any) -> str:
        if self.spec.is_over(state):
            return "over"
        return "waiting" if any(not s.claimed for s in self.seats) else "playing"

    def to_act(self) -> int | None:
        """The seat to move, or None."""
        return self.spec.to_act(self.state)

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
            "game": self.spec.name,
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
        compared with the replayed game when a server resumes it), from the spectator's view."""
        v = self.spec.view(state, None).to_json()
        return {
            "version": version,
            "phase": v.get("phase"),
            "to_act": self.spec.to_act(state),
            "scores": v.get("scores"),
        }

    def seat_label(self, seat: int) -> str:
        """A seat's name: the name its player chose, else the game's (``spec.seat_name``, ``P0``...)."""
        return self.seats[seat].name or self.spec.seat_name(seat)

    def result_json(self, state: Any) -> dict[str, Any] | None:
        """``spec.result(state).to_json()`` once the game is over (``winners`` and ``scores`` per side), else
        None."""
        if not self.spec.is_over(state):
            return None
        out: dict[str, Any] = self.spec.result(state).to_json()
        return out

    def record(self) -> dict[str, Any]:
        """The game record: rules, seed, generator and moves (only to be given out once the game is over).
        ``dealer`` is null: the server never fixes the first dealer (chance draws it)."""
        rec: dict[str, Any] = {
            "game": self.spec.name,
            "rules_version": self.spec.rules_version,
            "rules": self.rules_dict,
            "players": self.players,
            "teams": self.teams,
            "seats": [self.seat_label(s.seat) for s in self.seats],
            "seed": self.seed,
            "seed_commitment": self.seed_commitment,
            "rng": RNG_NAME,
            "moves": list(self.moves),
            "dealer": None,
        }
        result = self.result_json(self.state)
        if result is not None:
            rec["result"] = result
        return rec

    # -- messages -----------------------------------------------------------------------------------------------
    def state_message(self, seat: int | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator), built from ``spec.view(state, seat)`` only (the
        spectator's: ``spec.view(state, None)``, built by the engine from what is public)."""
        spec = self.spec
        status = self.status
        to_act = self.to_act()
        view_json = spec.view(self.state, seat).to_json()
        legal: list[dict[str, Any]] = []
        if seat is not None and seat == to_act and status == "playing":
            legal = [spec.move_json(m) for m in spec.legal_moves(self.state)]
        msg: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "game_id": self.id,
            "game": spec.name,
            "seat": seat,
            "status": status,
            "to_act": to_act,
            "view": view_json,
            "legal_moves": legal,
            "events": events,
            "rules": self.rules_dict,
            "seats": [s.summary() for s in self.seats],
        }
        if status == "over":
            msg["result"] = self.result_json(self.state)
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
            spec = self.spec
            try:
                move = spec.parse_move(self.state, text)
                new_state, evs = spec.step(self.state, move)
            except AmbiguousMoveError as exc:
                raise MoveError("ambiguous", str(exc)) from None
            except NotYourTurnError as exc:
                raise MoveError("not_your_turn", str(exc), _reason(exc)) from None
            except IllegalMoveError as exc:
                raise MoveError("illegal_move", str(exc), _reason(exc)) from None
            except (InvalidMoveError, InvalidCardError) as exc:
                raise MoveError("malformed", str(exc)) from None
            except KortbordError as exc:
                raise MoveError("malformed", str(exc)) from None
            events = [e.to_json() for e in evs]
            rng_state = self.rng.getstate()
            new_state, chance_events = run_chance(spec, new_state, self.rng)
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
            if self.over:
                record_result(self)  # the statistics per player name (kortbord.server.stats)
        self.kick_bots()

    def _who(self, seat: int) -> str:
        return f"{self.seat_label(seat)} (seat {seat})"

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
                view = self.spec.view(self.state, seat)
                legal = self.spec.legal_moves(self.state)
                if manager.bot_delay > 0:
                    await asyncio.sleep(manager.bot_delay)
                index = await manager.bots.choose(
                    self.spec.name, self.seats[seat].level or "random", self.rules, view, legal
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
    spec = core.get(row.game)
    if row.rules_version != spec.rules_version:
        raise KortbordError(
            f"game {row.id} was played under rules version {row.rules_version}; this server runs {spec.rules_version}"
        )
    if row.rng != RNG_NAME:
        raise KortbordError(f"game {row.id} uses generator {row.rng!r}; this server knows {RNG_NAME}")
    rules, rules_dict, teams, _ = table_rules(spec, dict(row.rules), row.players, row.teams)
    rng = DeterministicCSPRNG(row.seed)
    state, _ = run_chance(spec, spec.new_game(rules, players=row.players, teams=teams), rng)
    session = Session(
        id=row.id,
        spec=spec,
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
    for i, text in enumerate(row.moves, 1):
        move = spec.parse_move(session.state, text)
        state, evs = spec.step(session.state, move)
        events = [e.to_json() for e in evs]
        state, more = run_chance(spec, state, rng)
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
