"""Live games in memory: one :class:`Session` per game, rebuilt from the database by replaying rules + seed +
moves, driving the game's :class:`~kortbord.contract.GameSpec` (``kortbord.core.get(name)``, the only way the server
touches an engine) with the game's :class:`~kortbord.server.rng.DeterministicCSPRNG`.

A move (a person's or a bot's) goes through :meth:`Session.submit`: under the game's lock the version is
checked, the engine parses and validates the move (``parse_move``/``step``: any error changes nothing), the chance
steps that follow are drawn, the move is written to the database, and only then is the new state kept and every
connection sent its seat's view.  Bots think in the :class:`~kortbord.server.bots.BotPool`, outside the loop.

Many instances on one PostgreSQL: the database decides each move (:class:`~kortbord.server.db.VersionConflict`:
another instance stored that move number first -- this one reloads the game and answers ``stale_version``); every
stored change is announced by NOTIFY with the game id and version only, and each instance that holds the game
in memory reloads the new moves from the database and replays them (the games announced together in one query:
:meth:`SessionManager._reload_notified`; else :meth:`Session.catch_up`), building every seat's view itself.
Exactly one instance drives a game's computer players: the one holding the game's lease in the database (renewed
every :data:`LEASE_RENEW` seconds, valid :data:`LEASE_SECONDS`); when it dies, another instance takes the lease
over once it expires.  Games are loaded lazily, on first access (and games of computer
players only in the background), so a restart answers at once however many games are stored.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import hashlib
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import orjson

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
from kortbord.server.db import GameRow, SeatRow, Store, Update, VersionConflict
from kortbord.server.echo import bounded
from kortbord.server.rng import RNG_NAME, DeterministicCSPRNG
from kortbord.server.stats import record_result

__all__ = [
    "MoveError",
    "Session",
    "SessionManager",
    "hash_secret",
    "rematch_token",
    "replay_record",
    "run_chance",
    "table_rules",
    "warm_up",
]

log = logging.getLogger("kortbord.server.sessions")

#: Versions whose events are kept (every version of a game: the history a reconnecting page rebuilds its log, its
#: panels and its pegboard from; a game has a few hundred moves).
EVENT_LOG: Final = 100_000
#: Seconds a bot lease is valid (PostgreSQL): how long after its holder dies another instance takes over.
LEASE_SECONDS: Final = 2.5
#: Seconds between two renewals of an instance's leases (and looks for games whose bots nobody drives).
LEASE_RENEW: Final = 0.5


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a seat token or invite code (only hashes are stored)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def rematch_token(token: str, game_id: str) -> str:
    """A seat's token of the rematch ``game_id``, derived from its ``token`` of the finished game (SHA-256 of
    both, URL-safe base64): whoever holds the old token gets the same new one however often they ask (the
    answer is idempotent), nobody else can make it, and only its hash is stored, like every token's."""
    digest = hashlib.sha256(f"kortbord-rematch\0{game_id}\0{token}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


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
    #: each version's public events, encoded as a JSON array (:func:`_encode_events`): ``(version, bytes)``; bytes
    #: are not tracked by the garbage collector, as the dicts and lists of hundreds of live games would be
    events: deque[tuple[int, bytes]] = field(default_factory=lambda: deque(maxlen=EVENT_LOG))
    conns: set[Outbox] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    manager: SessionManager | None = None
    #: a person at the table has connected (bots wait for that, so nobody finds a game begun without them);
    #: games without people start at once
    present: bool = False
    #: a catch-up with the database is running / another one was asked for meanwhile
    catching: asyncio.Task[None] | None = None
    catch_again: bool = False
    catch_seats: bool = False
    #: the bot loop stopped because a move could not be stored (the lease sweeper starts it again)
    bot_stalled: bool = False
    #: the seat that dealt first (drawn by chance, or fixed for a rematch: the seat after the last game's first
    #: dealer); kept in the stored snapshot and the record so the game replays
    first_dealer: int | None = None
    #: the person seats that agreed to aids in a game between people (:mod:`kortbord.server.aids`); stored with
    #: the game (``aids_agreements``), loaded with it and on every catch-up
    aids_agreed: set[int] = field(default_factory=set)
    #: the rematch offered after the game (:attr:`rematch`)
    rematch_offer: dict[str, Any] | None = None
    #: the aids being answered, (kind, seat): one hint and one review in flight per seat (kortbord.server.aids)
    aids_busy: set[tuple[str, int]] = field(default_factory=set)
    #: the review of the finished game per seat (it never changes)
    reviews: dict[int, dict[str, Any]] = field(default_factory=dict)

    # -- facts --------------------------------------------------------------------------------------------------
    @property
    def rematch(self) -> dict[str, Any] | None:
        """The rematch offered after this game: ``{"game_id", "by": seat}``, or None (stored with the game,
        ``rematches``: a restart or another instance sees it; loaded with the game and on every catch-up)."""
        return self.rematch_offer

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
        out = {
            "version": version,
            "phase": v.get("phase"),
            "to_act": self.spec.to_act(state),
            "scores": v.get("scores"),
        }
        if self.first_dealer is not None:
            out["first_dealer"] = self.first_dealer
        return out

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
        ``dealer`` is the first dealer when the table fixed it (a rematch), else null (chance drew it)."""
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
            "dealer": self.first_dealer,
        }
        result = self.result_json(self.state)
        if result is not None:
            rec["result"] = result
        return rec

    # -- messages -----------------------------------------------------------------------------------------------
    def history(self) -> list[dict[str, Any]]:
        """Every event of the game so far, the first deal's included, in order (events are public: no hidden card,
        ``docs/engine-api.md``), for a page that (re)connects to rebuild its log, panels and pegboard."""
        out: list[dict[str, Any]] = orjson.loads(self.history_json())
        return out

    def history_json(self) -> bytes:
        """:meth:`history` as one JSON array (the kept encodings joined: nothing decoded)."""
        return _join_events(evs for _, evs in self.events)

    def state_message(self, seat: int | None, events: list[dict[str, Any]], *, history: bool = False) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: spectator), built from ``spec.view(state, seat)`` only (the
        spectator's: ``spec.view(state, None)``, built by the engine from what is public); with ``history`` it
        carries every event so far (:meth:`history`), and after the game a rematch offer (``rematch``: the new
        game's id and who asked; every person's seat takes its seat of it by asking too, with its own token --
        no invite code is ever sent)."""
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
        if history:
            msg["history"] = orjson.Fragment(self.history_json())
        if status == "over":
            msg["result"] = self.result_json(self.state)
            msg["seed"] = self.seed
            msg["rng"] = RNG_NAME
            if self.rematch is not None:
                msg["rematch"] = {"game_id": self.rematch["game_id"], "by": self.rematch["by"]}
        return msg

    def events_since(self, version: int) -> list[dict[str, Any]] | None:
        """Events of the moves after ``version``, or None if they are no longer kept."""
        if version >= self.version:
            return []
        wanted = range(version + 1, self.version + 1)
        got = [evs for v, evs in self.events if v in wanted]
        if len(got) != len(wanted):
            return None
        out: list[dict[str, Any]] = orjson.loads(_join_events(got))
        return out

    def attach(self, conn: Outbox) -> None:
        """Add a connection and queue its first state message (no events; a page asks for the game's
        :meth:`history` with a ``resync``), with the aids' status and numbers (:meth:`aids_parts`); a seated
        connection lets the bots start (see :attr:`present`)."""
        self.conns.add(conn)
        self.send_state(conn, [], with_aids=True)
        if conn.seat is not None and not self.present:
            self.present = True
            self.kick_bots()

    def detach(self, conn: Outbox) -> None:
        """Forget a connection."""
        self.conns.discard(conn)
        if not self.conns and self.over and self.manager is not None:
            self.manager.forget(self.id)

    def send_state(
        self, conn: Outbox, events: list[dict[str, Any]], *, history: bool = False, with_aids: bool = False
    ) -> None:
        """Queue a fresh state message for one connection (with the game's history if asked; ``with_aids``: with
        the aids' status and numbers, :meth:`aids_parts`, as on connecting)."""
        msg = self.state_message(conn.seat, events, history=history)
        if with_aids:
            msg.update(self.aids_parts(conn.seat))
        conn.push(_dumps(msg), self.version)

    def aids_parts(self, seat: int | None) -> dict[str, Any]:
        """What a page needs to draw the aids' line with its first state (issue #11: the line is there at once,
        not a round trip or two later, moving the table down): ``{"aids": <the aids message>}``
        (:func:`kortbord.server.aids.status_message`) and, for a seat of a Mulle game being played while aids are
        allowed, ``"advice": <the advice message>`` (:func:`kortbord.server.aids.mulle_advice`, from the seat's
        own view only).  The Cribbage discard advice takes a thread's time: it is asked for as before."""
        from kortbord.server import aids  # the aids import the sessions only for their types

        out: dict[str, Any] = {"aids": aids.status_message(self)}
        if seat is not None and self.spec.name == "mulle" and self.status == "playing" and aids.aids_allowed(self):
            view = self.spec.view(self.state, seat)
            out["advice"] = {"type": "advice", "version": self.version, "game": "mulle", **aids.mulle_advice(view)}
        return out

    def broadcast(self, events: list[dict[str, Any]]) -> None:
        """Queue the new state for every connection, each built from its own seat's view (one encoding per seat)."""
        cache: dict[int | None, str] = {}
        for conn in list(self.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = _dumps(self.state_message(conn.seat, events))
            conn.push(text, self.version)

    # -- many instances -----------------------------------------------------------------------------------------
    async def catch_up(self, seats: bool = True) -> None:
        """Bring this session up to what the database holds (seats and status unless ``seats`` is False, and the
        moves another instance stored) and send every connection the new state; then let the bots move if it is
        their turn.  Errors are logged."""
        async with self.lock:
            await self._catch_up(seats)
        self.kick_bots()

    def request_catch_up(self, seats: bool = True) -> None:
        """Catch up in the background (one catch-up at a time per game; a request during one runs once more;
        ``seats``: the seats may have changed too -- a move's notification needs only the moves)."""
        self.catch_seats = self.catch_seats or seats
        if self.catching is not None and not self.catching.done():
            self.catch_again = True
            return

        async def run() -> None:
            while True:
                self.catch_again = False
                with_seats, self.catch_seats = self.catch_seats, False
                await self.catch_up(with_seats)
                if not self.catch_again:
                    return

        self.catching = asyncio.create_task(run(), name=f"catch-up-{self.id}")

    async def _catch_up(self, seats: bool = True) -> bool:
        """:meth:`catch_up` under the lock held by the caller; True if anything changed."""
        assert self.manager is not None
        try:
            got = await self.manager.store.load_since(self.id, self.version, with_seats=seats)
        except Exception:
            log.exception("could not reload game %s from the database", self.id)
            return False
        if got is None:
            return False
        try:
            return self._apply_update(got)
        except Exception:
            log.exception("game %s: the moves stored by another instance do not replay here", self.id)
            return False

    def _apply_update(self, got: Update) -> bool:
        """Take the stored seats and replay the stored moves after this session's version (with the game's own
        generator: the same deal and draws as on the instance that stored them); broadcast if anything changed."""
        changed = False
        for row in got.seats:
            if row.seat < len(self.seats):
                s = self.seats[row.seat]
                if (s.claimed, s.token_hash, s.name) != (row.claimed, row.token_hash, row.name):
                    s.claimed, s.token_hash, s.name = row.claimed, row.token_hash, row.name
                    changed = True
        if got.aids_agreed is not None and set(got.aids_agreed) != self.aids_agreed:
            from kortbord.server.aids import status_message

            self.aids_agreed = set(got.aids_agreed)
            text = _dumps(status_message(self))
            for conn in list(self.conns):
                conn.push(text, self.version)
        if got.seats and got.rematch != self.rematch_offer:
            self.rematch_offer = got.rematch
            changed = True
        events: list[dict[str, Any]] = []
        spec = self.spec
        for text in got.moves:
            move = spec.parse_move(self.state, text)
            state, evs = spec.step(self.state, move)
            evjson = [e.to_json() for e in evs]
            state, more = run_chance(spec, state, self.rng)
            evjson.extend(more)
            self.state = state
            self.moves.append(str(move))
            self.events.append((self.version, _encode_events(evjson)))
            events.extend(evjson)
            changed = True
        if changed:
            self.broadcast(events)
        return changed

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
            if version > self.version and self.manager is not None and self.manager.shared:
                await self._catch_up()  # the client saw a version another instance stored: this memory is behind
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
                raise MoveError("ambiguous", bounded(str(exc))) from None
            except NotYourTurnError as exc:
                raise MoveError("not_your_turn", bounded(str(exc)), _reason(exc)) from None
            except IllegalMoveError as exc:
                raise MoveError("illegal_move", bounded(str(exc)), _reason(exc)) from None
            except (InvalidMoveError, InvalidCardError) as exc:
                raise MoveError("malformed", bounded(str(exc))) from None
            except KortbordError as exc:
                raise MoveError("malformed", bounded(str(exc))) from None
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
            except VersionConflict:
                # another instance stored move ``ply`` first: the database is ahead of this memory -- reload
                self.rng.setstate(rng_state)
                await self._catch_up()
                raise MoveError(
                    "stale_version",
                    f"your move was made at version {version} but the game is at version {self.version}; "
                    "here is the current state",
                ) from None
            except Exception:
                log.exception("could not store move %d of game %s", ply, self.id)
                self.rng.setstate(rng_state)
                raise MoveError("server_error", "the move could not be saved; nothing changed, try again") from None
            # written: now (and only now) the move is part of the game
            self.state = new_state
            self.moves.append(notation)
            self.events.append((ply, _encode_events(events)))
            self.broadcast(events)
            if self.over:
                record_result(self)  # the statistics per player name (kortbord.server.stats)
        self.kick_bots()

    def _who(self, seat: int) -> str:
        return f"{self.seat_label(seat)} (seat {seat})"

    # -- bots ---------------------------------------------------------------------------------------------------
    def wants_bots(self) -> bool:
        """A bot is to move and may (the game is being played, and a person is at the table here or there is
        nobody to wait for)."""
        if self.manager is None or self.status != "playing":
            return False
        if not self.present and any(s.kind == "human" for s in self.seats):
            return False
        to_act = self.to_act()
        return to_act is not None and self.seats[to_act].kind == "bot"

    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to move and none is thinking already (on PostgreSQL the loop first
        takes the game's bot lease; without it, it leaves the bots to the instance that holds it)."""
        if not self.wants_bots():
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        self.bot_stalled = False
        self.bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{self.id}")

    async def _bot_loop(self) -> None:
        manager = self.manager
        assert manager is not None
        try:
            if not await manager.may_drive(self.id):
                return
            while self.status == "playing":
                seat = self.to_act()
                if seat is None or self.seats[seat].kind != "bot":
                    return
                if not manager.drives(self.id):  # the lease went to another instance
                    return
                version = self.version
                view = self.spec.view(self.state, seat)
                legal = self.spec.legal_moves(self.state)
                if manager.bot_delay > 0:
                    await asyncio.sleep(manager.bot_delay)
                level = self.seats[seat].level or "random"
                # a level that learns from the table is told the game's public record (its bot is this game's)
                watches = _observes(self.spec.name, level)
                index = await manager.bots.choose(
                    self.spec.name,
                    level,
                    self.rules,
                    view,
                    legal,
                    events=self.history_json() if watches else None,
                    table=self.id if watches else None,
                )
                if self.version != version:
                    continue
                try:
                    await self.submit(seat, version, str(legal[index]))
                except MoveError as exc:
                    if exc.code == "stale_version":  # the game moved on (caught up): think again on the new state
                        continue
                    log.error("bot move refused in game %s: %s %s", self.id, exc.code, exc.message)
                    self.bot_stalled = exc.code == "server_error"  # the sweeper tries again later
                    return
            if self.over:
                manager.release(self.id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of game %s failed", self.id)


def _observes(game: str, level: str) -> bool:
    """Whether the bot level watches the table (:func:`kortbord.bots.registry.observes`); False for a level this
    installation does not know (the pool then plays a random move and logs why)."""
    from kortbord.bots import registry

    try:
        return registry.observes(game, level)
    except ValueError:
        return False


def _encode_events(events: list[dict[str, Any]]) -> bytes:
    """One version's events (JSON-ready dicts) as a JSON array, the form :attr:`Session.events` keeps them in."""
    return orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS)


def _join_events(chunks: Iterable[bytes]) -> bytes:
    """The events of several versions (JSON arrays from :func:`_encode_events`) as one JSON array, in order."""
    return b"[" + b",".join(c[1:-1] for c in chunks if c != b"[]") + b"]"


def _dumps(msg: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: several times faster than the standard library on state messages,
    the same JSON; keys that are not strings are written as strings, as ``json.dumps`` does)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


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
    fixed = (row.snapshot or {}).get("first_dealer")
    dealer = fixed if type(fixed) is int and 0 <= fixed < row.players else None
    state, first = run_chance(spec, spec.new_game(rules, players=row.players, teams=teams, dealer=dealer), rng)
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
        first_dealer=dealer,
        aids_agreed=set(row.aids_agreed),
        rematch_offer=row.rematch,
    )
    session.events.append((0, _encode_events(first)))
    for i, text in enumerate(row.moves, 1):
        move = spec.parse_move(session.state, text)
        state, evs = spec.step(session.state, move)
        events = [e.to_json() for e in evs]
        state, more = run_chance(spec, state, rng)
        events.extend(more)
        session.state = state
        session.moves.append(str(move))
        session.events.append((i, _encode_events(events)))
    snap = row.snapshot
    if snap and snap.get("version") == session.version and snap != session.snapshot(session.state, session.version):
        raise KortbordError(f"game {row.id} replays to another position than the one stored with its last move")
    return session


def warm_up() -> None:
    """Load every table the engines build lazily (rules, options, scoring tables, views, notation) by playing a
    short random game of each game with a fixed seed: run once when the server starts, before it serves, so no
    player's first move pays for it on the event loop."""
    rng = random.Random(0)
    for name in core.GAMES:
        spec = core.get(name)
        rules, _, teams, _ = table_rules(spec, {}, 2, False)
        state, _ = run_chance(spec, spec.new_game(rules, players=2, teams=teams), rng)
        for _ in range(200):
            if spec.is_over(state):
                break
            legal = spec.legal_moves(state)
            move = spec.parse_move(state, str(rng.choice(legal)))
            state, evs = spec.step(state, move)
            for e in evs:
                e.to_json()
            state, _ = run_chance(spec, state, rng)
            for seat in (0, 1, None):
                spec.view(state, seat).to_json()
            if not spec.is_over(state):
                for m in spec.legal_moves(state):
                    spec.move_json(m)
        if spec.is_over(state):
            spec.result(state).to_json()


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
        snapshot=None if record.get("dealer") is None else {"first_dealer": record["dealer"]},
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
        #: many instances may share the database (PostgreSQL): bots under leases, changes by notification
        self.shared = store.shared
        #: games whose bot lease this instance holds (PostgreSQL)
        self.leases: set[str] = set()
        self._tried: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._broken: set[str] = set()
        #: games announced behind since the last batched reload (:meth:`_reload_notified`), and its task
        self._notified: dict[str, Session] = {}
        self._reloader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Begin serving: listen to the other instances' changes (PostgreSQL) and start the background task that
        renews this instance's bot leases and picks up games of computer players nobody drives (after a restart,
        or when the instance driving them died).  Nothing is loaded here: games load on first access."""
        self.store.listen(self.on_notify, self.on_reconnect)
        self._sweeper = asyncio.create_task(self._sweep(), name="kortbord-bot-leases")

    # -- notifications ------------------------------------------------------------------------------------------
    def on_notify(self, payload: str) -> None:
        """A change another instance stored (``m:<game>:<version>:<instance>`` or ``s:<game>:<instance>``): if the
        game is in memory here and behind, reload it.  Unknown or own payloads are ignored."""
        parts = payload.split(":")
        if len(parts) < 3 or parts[-1] == self.store.instance:
            return
        session = self.sessions.get(parts[1])
        if session is None:
            return
        if parts[0] == "m":
            if parts[2].isdigit() and int(parts[2]) <= session.version:
                return
            self._notified[session.id] = session
            if self._reloader is None or self._reloader.done():
                self._reloader = asyncio.create_task(self._reload_notified(), name="kortbord-reload-notified")
        else:
            session.request_catch_up()

    async def _reload_notified(self) -> None:
        """Catch up every game announced behind (a move another instance stored) with one query for all of them
        (:meth:`~kortbord.server.db.Store.moves_since_many`) instead of one per game, and replay their new moves
        (:meth:`Session._apply_update`: the same replay and broadcast as :meth:`Session.catch_up`).  A game that
        moved meanwhile here (its lock is held, a catch-up of its own runs, its version changed) or whose moves
        could not be read falls back to its own :meth:`Session.request_catch_up`."""
        while self._notified:
            batch, self._notified = self._notified, {}
            asked = {gid: s.version for gid, s in batch.items()}
            try:
                later = await self.store.moves_since_many(asked)
            except Exception:
                log.exception("could not reload %d games from the database; one by one", len(batch))
                for session in batch.values():
                    session.request_catch_up(seats=False)
                continue
            for gid, session in batch.items():
                moves = later.get(gid)
                if not moves:
                    continue
                busy = session.catching is not None and not session.catching.done()
                if busy or session.lock.locked() or session.version != asked[gid]:
                    session.request_catch_up(seats=False)
                    continue
                try:  # synchronous: nothing else runs on the loop while the moves are replayed
                    session._apply_update(Update(asked[gid] + len(moves), "", [], moves))
                except Exception:
                    log.exception("game %s: the moves stored by another instance do not replay here", gid)
                    continue
                session.kick_bots()

    def on_reconnect(self) -> None:
        """The notification connection was lost and is back: catch up every game in memory."""
        for session in list(self.sessions.values()):
            session.request_catch_up()

    # -- bot leases ---------------------------------------------------------------------------------------------
    def drives(self, game_id: str) -> bool:
        """This instance may move the game's bots (SQLite: always; PostgreSQL: it holds the lease)."""
        return not self.shared or game_id in self.leases

    async def may_drive(self, game_id: str) -> bool:
        """Take the game's bot lease if it is free or expired (PostgreSQL; at most one try every
        :data:`LEASE_RENEW` seconds per game); True if this instance drives the game's bots now."""
        if self.drives(game_id):
            return True
        now = time.monotonic()
        if now - self._tried.get(game_id, -1e9) < LEASE_RENEW:
            return False
        self._tried[game_id] = now
        try:
            got = await self.store.acquire_lease(game_id, LEASE_SECONDS)
        except Exception:
            log.exception("could not take the bot lease of game %s", game_id)
            return False
        if got:
            self.leases.add(game_id)
            self._tried.pop(game_id, None)
        return got

    def release(self, game_id: str) -> None:
        """Give the game's bot lease back (its game is over)."""
        if game_id in self.leases:
            self.leases.discard(game_id)
            task = asyncio.create_task(self.store.release_leases([game_id]))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _sweep(self) -> None:
        """Every :data:`LEASE_RENEW` seconds: renew the leases (a lost one stops its bot loop before its next move;
        should it still store one, the database refuses it if the new driver moved first), start the bots of
        games in memory whose driver is gone (or whose bot could not store its move), and load games of computer
        players only that nobody drives (on SQLite only once, at the start: one server, nobody else drives)."""
        first = True
        while True:
            try:
                if self.shared and self.leases:
                    held = set(self.leases)  # (a lease taken while this renewal runs is not in question)
                    kept = await self.store.renew_leases(LEASE_SECONDS)
                    for lost in held - kept:  # its bot loop stops before its next move (never cut mid-write)
                        log.warning("the bot lease of game %s went to another instance", lost)
                        self.leases.discard(lost)
                for session in list(self.sessions.values()):
                    if session.wants_bots() and (session.bot_stalled or not self.drives(session.id)):
                        session.kick_bots()
                pick_up = (
                    await self.store.driverless_bot_games(50 if self.shared else 1_000_000)
                    if self.shared or first
                    else []
                )
                first = False
                for game_id in pick_up:
                    if game_id in self.sessions or game_id in self._broken:
                        continue
                    try:
                        loaded = await self.get(game_id)
                    except Exception:  # a stored game that does not replay here: logged once, left alone
                        log.exception("game %s could not be resumed", game_id)
                        self._broken.add(game_id)
                        continue
                    if loaded is not None:
                        loaded.kick_bots()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the bot lease sweeper failed; trying again")
            await asyncio.sleep(LEASE_RENEW)

    def add(self, session: Session) -> Session:
        """Register a session (and its bots)."""
        session.manager = self
        self.sessions[session.id] = session
        return session

    def forget(self, game_id: str) -> None:
        """Drop a finished session from memory (it stays in the database)."""
        self.sessions.pop(game_id, None)
        self._tried.pop(game_id, None)

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
            # the replay runs in a thread: a long game never holds up the other tables' event loop
            session = None if row is None else self.add(await asyncio.to_thread(build_session, row))
            fut.set_result(session)
            if session is not None:
                if self.shared:  # a change stored while the game loaded was announced before it was in memory
                    session.request_catch_up()
                session.kick_bots()
            return session
        except Exception as exc:
            fut.set_exception(exc)
            raise
        finally:
            del self._loading[game_id]

    async def close(self) -> None:
        """Stop the sweeper and every bot loop, and give this instance's bot leases back (another instance takes
        the games over at once)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        tasks = [s.bot_task for s in self.sessions.values() if s.bot_task is not None]
        tasks += [s.catching for s in self.sessions.values() if s.catching is not None]
        tasks += [self._reloader] if self._reloader is not None else []
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if self.shared and self.leases:
            with contextlib.suppress(Exception):
                await self.store.release_leases()
            self.leases.clear()

    def seat_rows(self, seats: Iterable[SeatRow]) -> list[Seat]:
        """In-memory seats from stored rows."""
        return [Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash) for s in seats]
