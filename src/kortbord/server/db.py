"""Storage: every game as rules + seed + move list (+ a small snapshot), SQLAlchemy 2 async Core.

SQLite (``sqlite+aiosqlite:///path``) by default, PostgreSQL by URL (``postgresql+asyncpg://...``).  Tables:

* ``games``: id, game, name, rules (JSON), rules_version, players, teams, seed (64 hex digits, secret until the
  game is over), seed_commitment (SHA-256 of the seed, public), rng (generator name), version (moves applied),
  snapshot (JSON: phase, to_act, scores -- a consistency check on resume), status, created_at, updated_at;
* ``seats``: game_id, seat, kind (``human``/``bot``), level, name, token_hash and invite_hash (SHA-256 of the
  secrets; the tokens themselves are never stored), claimed;
* ``moves``: game_id, ply (1-based), seat, move (notation), created_at -- append only;
* ``aids_agreements``: game_id, seat -- the person seats that agreed to aids in a game between people (kept with
  the game, so the agreement survives everyone leaving and a restart);
* ``rematches``: game_id (the finished game), new_game_id, by_seat, created_at -- the rematch offered after a game
  (one per game: the database decides between two seats asking at once);
* ``bot_leases``: game_id, owner (a server instance's id), expires_at -- which instance drives a game's computer
  players (PostgreSQL only, see :meth:`Store.acquire_lease`).

A move is written before it is acknowledged: :meth:`Store.append_move` returns once the row is committed.
Concurrent moves of different games share one transaction (group commit), so many tables cost few commits.

The database decides each move: move number N is stored only by the conditional update
``UPDATE games SET version = N ... WHERE id = ? AND version = N - 1``; a server whose memory is behind (another
instance on the same PostgreSQL stored move N first) gets :class:`VersionConflict` and reloads instead of acting.
On PostgreSQL every stored change is announced with ``NOTIFY kortbord_games`` in the same transaction (delivered
at commit); the payload is only ``m:<game id>:<version>:<instance>`` (a move) or ``s:<game id>:<instance>`` (seats or
status) -- never a card: each instance reloads the moves and derives every seat's view itself
(:meth:`Store.listen`).

The tables are described (and created) with SQLAlchemy Core; what runs per move or per join is plain SQL (issue
#12: the server's CPU per move): on PostgreSQL one prepared statement per call on the driver's own connection
(asyncpg, from SQLAlchemy's pool; a batch of moves -- advance, insert, notify -- is one statement and one round
trip), on SQLite plain SQL on the driver's cursor in the writer thread, storing values exactly as SQLAlchemy's
types do.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from kortbord.server.rng import RNG_NAME, seed_commitment

__all__ = [
    "CHANNEL",
    "DRIVER_EXTRAS",
    "GameRow",
    "MissingDriverError",
    "SeatRow",
    "Store",
    "Update",
    "VersionConflict",
    "aids_agreements",
    "bot_leases",
    "games",
    "metadata",
    "moves",
    "rematches",
    "seats",
]

log = logging.getLogger("kortbord.server.db")

#: The database drivers kortbord's extras provide: driver module -> the extra that installs it.
DRIVER_EXTRAS: Final = {"aiosqlite": "server", "asyncpg": "postgres"}
#: The PostgreSQL notification channel every instance listens on.
CHANNEL: Final = "kortbord_games"
#: The advisory lock key under which an instance creates the tables (``"kortbord"`` as a big-endian int64).
_SCHEMA_LOCK: Final = int.from_bytes(b"kortbord", "big") & 0x7FFFFFFFFFFFFFFF


class VersionConflict(Exception):
    """The database holds another version of the game than the move was made at (another server instance on the
    same database stored a move first): nothing was written; reload the game and try nothing on the old state."""


class MissingDriverError(RuntimeError):
    """The database URL names a driver that is not installed; the message says which extra installs it."""


def _missing_driver(url: str, exc: ModuleNotFoundError) -> MissingDriverError:
    """The error for ``url`` whose driver module failed to import (``exc``), with the install hint."""
    module = (exc.name or "").partition(".")[0] or "its driver"
    scheme = url.partition("://")[0] or url
    extra = DRIVER_EXTRAS.get(module)
    hint = (
        f"pip install 'kortbord[{extra}]' (in a clone of kortbord: pip install -e '.[{extra}]')"
        if extra
        else f"pip install {module}"
    )
    return MissingDriverError(
        f"the database URL {scheme}://… needs the {module} driver, which is not installed: {hint}"
    )


metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("name", String(80)),
    Column("rules", JSON, nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("teams", Boolean, nullable=False, default=False),
    Column("seed", String(64), nullable=False),
    Column("seed_commitment", String(64), nullable=False),
    Column("rng", String(32), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("snapshot", JSON),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
Index("ix_games_status", games.c.status)
Index("ix_games_created", games.c.created_at)

seats = Table(
    "seats",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16)),
    Column("name", String(40)),
    Column("token_hash", String(64)),
    Column("invite_hash", String(64)),
    Column("claimed", Boolean, nullable=False, default=False),
    UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(400), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


aids_agreements = Table(
    "aids_agreements",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
)

rematches = Table(
    "rematches",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("new_game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("by_seat", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


bot_leases = Table(
    "bot_leases",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class SeatRow:
    """One seat as stored (``token_hash``/``invite_hash``: SHA-256 hex of the secret, or None)."""

    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None
    invite_hash: str | None
    claimed: bool


@dataclass
class GameRow:
    """One game as stored, with its seats and its moves (notation, in order)."""

    id: str
    game: str
    name: str | None
    rules: dict[str, Any]
    rules_version: str
    players: int
    teams: bool
    seed: str
    seed_commitment: str
    rng: str
    version: int
    snapshot: dict[str, Any] | None
    status: str
    created_at: dt.datetime
    seats: list[SeatRow]
    moves: list[str]
    #: the person seats that agreed to aids (``aids_agreements``)
    aids_agreed: list[int] = field(default_factory=list)
    #: the rematch offered after the game, ``{"game_id": the new game, "by": seat}``, or None (``rematches``)
    rematch: dict[str, Any] | None = None

    @classmethod
    def new(
        cls,
        *,
        id: str,
        game: str,
        rules: dict[str, Any],
        rules_version: str,
        players: int,
        teams: bool,
        seed: str,
        seats: list[SeatRow],
        name: str | None = None,
        first_dealer: int | None = None,
    ) -> GameRow:
        """A new table's row, not stored yet: version 0, no moves, the seed's commitment and the server's RNG
        (:mod:`kortbord.server.rng`), created now (UTC); ``status`` "playing" when every seat is claimed, else
        "waiting"; ``first_dealer`` (a seat, or None: chance draws him) goes into the snapshot as the server's
        table builder keeps it.  ``seed`` is 64 hex digits; nothing is checked here (``build_session`` does)."""
        return cls(
            id=id,
            game=game,
            name=name,
            rules=rules,
            rules_version=rules_version,
            players=players,
            teams=teams,
            seed=seed,
            seed_commitment=seed_commitment(seed),
            rng=RNG_NAME,
            version=0,
            snapshot=None if first_dealer is None else {"first_dealer": first_dealer},
            status="playing" if all(s.claimed for s in seats) else "waiting",
            created_at=dt.datetime.now(dt.UTC),
            seats=seats,
            moves=[],
        )


@dataclass
class Update:
    """What the database holds of a game beyond a version (:meth:`Store.load_since`): its stored ``version``,
    ``status``, every seat, and the moves after the asked version (notation, in order)."""

    version: int
    status: str
    seats: list[SeatRow]
    moves: list[str]
    #: with the seats: the seats that agreed to aids and the rematch offer (None: not loaded)
    aids_agreed: list[int] | None = None
    rematch: dict[str, Any] | None = None


@dataclass
class _Pending:
    game_id: str
    ply: int
    seat: int
    move: str
    status: str
    snapshot: dict[str, Any]
    done: asyncio.Future[bool]


class Store:
    """The database behind the table.

    Args:
        url: an SQLAlchemy async URL: ``sqlite+aiosqlite:///path/to/kortbord.db`` or
            ``postgresql+asyncpg://user:pass@host:port/db``.  A SQLite file's folder is created.

    Attributes:
        shared: True on PostgreSQL, where any number of server instances may share the database (moves are
            announced with NOTIFY, bots are driven under a lease); False on SQLite (one server).
        instance: this server's random id (lease owner, notification sender).

    Raises:
        MissingDriverError: the URL's driver (``aiosqlite``, ``asyncpg`` …) is not installed.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.shared = parsed.get_backend_name() == "postgresql"
        self.instance = secrets.token_hex(8)
        self._listen_url = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        self._listener: asyncio.Task[None] | None = None
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            db = parsed.database
            if db and db != ":memory:":
                Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 30}
        else:
            # ten connections kept open and no overflow: a connection opened for a burst and closed after it costs
            # both sides far more CPU than waiting a moment for a pooled one (statements take about a millisecond)
            kwargs.update(pool_size=10, max_overflow=0)
        try:
            self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        except ModuleNotFoundError as exc:
            raise _missing_driver(url, exc) from exc
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._pending: list[_Pending] = []
        #: group-commit statistics: batches written, moves written, seconds spent writing, the slowest batch
        self.stats = {"batches": 0, "moves": 0, "seconds": 0.0, "max_seconds": 0.0}
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._sync_engine: Engine | None = None
        self._sqlite_path: str | None = None
        self._sqlite_thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            self._sqlite_path = str(Path(parsed.database).expanduser())
            self._sqlite_thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kortbord-db-writer")
            self._sync_engine = create_engine(
                f"sqlite:///{self._sqlite_path}", connect_args={"timeout": 30, "check_same_thread": False}
            )
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)

    async def start(self) -> None:
        """Create the tables if needed and start the group-commit writer."""
        async with self.engine.begin() as conn:
            if self.shared:  # instances starting together: one creates the tables, the others wait and find them
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            await conn.run_sync(metadata.create_all)
        self._wake = asyncio.Event()
        self._writer = asyncio.create_task(self._write_loop(), name="kortbord-db-writer")
        if self._sqlite_path is not None:
            self._checkpointer = asyncio.create_task(self._checkpoints(), name="kortbord-db-checkpoint")

    async def close(self) -> None:
        """Write what is pending, stop the writer and the listener and close the connections."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        if self._writer is not None:
            while self._pending:
                self._wake.set()
                await asyncio.sleep(0.01)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._sqlite_thread is not None:
            self._sqlite_thread.shutdown(wait=True)
        if self._sync_engine is not None:
            self._sync_engine.dispose()
        await self.engine.dispose()

    # -- games --------------------------------------------------------------------------------------------------
    async def _run_write(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(sync_connection, *args)`` in one transaction.  SQLite: in the single writer thread on a plain
        (synchronous) SQLAlchemy engine -- one thread hop per transaction, and every write serialised there, so
        writers never wait on each other's locks; other databases: on an async connection (``run_sync``)."""
        if self._sync_engine is not None:
            engine = self._sync_engine

            def call() -> Any:
                with engine.begin() as conn:
                    return fn(conn, *args)

            return await asyncio.get_running_loop().run_in_executor(self._sqlite_thread, call)
        async with self.engine.begin() as conn:
            return await conn.run_sync(fn, *args)

    async def create_game(self, row: GameRow) -> None:
        """Insert a new game with its seats (one transaction; on PostgreSQL one statement)."""
        if self.shared:
            st = row.seats
            await self._pg_fetch(
                _CREATE_GAME_PG,
                row.id, row.game, row.name, json.dumps(row.rules), row.rules_version, row.players, row.teams,
                row.seed, row.seed_commitment, row.rng, json.dumps(row.snapshot), row.status, row.created_at, _now(),
                [s.seat for s in st], [s.kind for s in st], [s.level for s in st], [s.name for s in st],
                [s.token_hash for s in st], [s.invite_hash for s in st], [s.claimed for s in st],
            )  # fmt: skip
            return
        await self._run_write(_create_game, row, _now())

    async def claim_seat(self, game_id: str, invite_hash: str, token_hash: str, name: str | None) -> int | None:
        """Claim the seat whose unused invite has ``invite_hash``: store the new token's hash and spend the
        invite (single use; the database decides between concurrent joins).  Returns the seat, or None when no
        unused invite matches.  Announced to the other instances (``s:`` notification)."""
        if self.shared:  # one statement: the conditional update decides between concurrent joins
            rows = await self._pg_fetch(_CLAIM_SEAT_PG, game_id, invite_hash, token_hash, name, self._tag(game_id))
            return int(rows[0][0]) if len(rows) == 1 else None
        seat: int | None = await self._run_write(
            _claim_seat, game_id, invite_hash, token_hash, name, self._tag(game_id)
        )
        return seat

    async def invite_seat(self, game_id: str, invite_hash: str) -> int | None:
        """The seat whose still unused invite has ``invite_hash``, or None (a wrong or spent code); changes
        nothing."""
        seat: int | None = await self._run_write(_invite_seat, game_id, invite_hash)
        return seat

    async def set_status(self, game_id: str, status: str) -> None:
        """Change a game's status (e.g. ``waiting`` -> ``playing`` once every seat is taken)."""
        if self.shared:
            await self._pg_fetch(_SET_STATUS_PG, game_id, status, _now(), self._tag(game_id))
            return
        await self._run_write(_set_status, game_id, status, _now(), self._tag(game_id))

    async def set_aids(self, game_id: str, seat: int, agree: bool) -> None:
        """Store whether ``seat`` agrees to aids in the game (idempotent); announced to the other instances."""
        await self._run_write(_set_aids, game_id, seat, agree, self._tag(game_id))

    async def create_rematch(self, row: GameRow, game_id: str, by: int) -> dict[str, Any]:
        """Offer ``row`` (a new game, inserted with its seats) as the rematch of the finished game ``game_id``,
        asked for by seat ``by`` -- unless a rematch of it is stored already (asked for at the same moment through
        another instance, say): then nothing is written.  One transaction.  Returns the offer that holds,
        ``{"game_id", "by"}`` (``row``'s, or the one stored first).  Announced to the other instances."""
        try:
            got: dict[str, Any] = await self._run_write(_create_rematch, row, game_id, by, _now(), self._tag(game_id))
            return got
        except IntegrityError:  # another instance stored a rematch of the game between the look and the write
            found = await self.load_rematch(game_id)
            if found is None:
                raise
            return found

    async def load_rematch(self, game_id: str) -> dict[str, Any] | None:
        """The rematch offered after ``game_id``: ``{"game_id": the new game, "by": seat}``, or None."""
        async with self.engine.connect() as conn:
            found: dict[str, Any] | None = await conn.run_sync(_rematch_of, game_id)
            return found

    async def take_rematch_seat(self, game_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """A person's seat of a rematch ``game_id`` taken by its player with the token ``token_hash``: True if
        the seat is now that token's -- it was free, or that token took it before (asking twice is one answer);
        False if another token holds it or it is not a person's seat.  Announced to the other instances."""
        done: bool = await self._run_write(_take_rematch_seat, game_id, seat, token_hash, name, self._tag(game_id))
        return done

    def _tag(self, game_id: str) -> str | None:
        """The ``s:`` notification payload of a seat/status change (None on SQLite: nobody else listens)."""
        return f"s:{game_id}:{self.instance}" if self.shared else None

    async def append_move(
        self, game_id: str, ply: int, seat: int, move: str, status: str, snapshot: dict[str, Any]
    ) -> None:
        """Store move number ``ply`` (1-based) of a game and its new version/status/snapshot; returns once
        committed.

        Raises:
            VersionConflict: the stored game is not at version ``ply - 1`` (another instance stored a move
                first); nothing was written.
            Exception: the database error if the write failed (the caller then changes nothing).
        """
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(game_id, ply, seat, move, status, snapshot, fut))
        self._wake.set()
        if not await fut:
            raise VersionConflict(f"game {game_id} is not at version {ply - 1} in the database")

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            accepted: set[int] = set()
            try:
                t0 = time.perf_counter()
                accepted = await self._write_batch(batch)
                took = time.perf_counter() - t0
                st = self.stats
                st["batches"] += 1
                st["moves"] += len(batch)
                st["seconds"] += took
                st["max_seconds"] = max(st["max_seconds"], took)
            except Exception:  # one bad row must not fail the others: retry one by one, on a new connection
                log.exception("group commit of %d moves failed; retrying one by one", len(batch))
                for i, item in enumerate(batch):
                    try:
                        if await self._write_batch([item]):
                            accepted.add(i)
                    except Exception as exc:
                        if not item.done.done():
                            item.done.set_exception(exc)
            for i, item in enumerate(batch):
                if not item.done.done():
                    item.done.set_result(i in accepted)

    async def _checkpoints(self, every: float = 1.0) -> None:
        """Copy the SQLite write-ahead log into the database file in the background, off the writer's thread (the
        writer never waits for a checkpoint's fsync).  PASSIVE: never blocks readers or the writer."""
        path = self._sqlite_path
        assert path is not None
        loop = asyncio.get_running_loop()
        pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kortbord-db-checkpoint")

        def checkpoint() -> None:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()

        try:
            while True:
                await asyncio.sleep(every)
                try:
                    await loop.run_in_executor(pool, checkpoint)
                except Exception:
                    log.exception("WAL checkpoint failed")
        finally:
            pool.shutdown(wait=False)

    async def _write_batch(self, batch: Sequence[_Pending]) -> set[int]:
        """One transaction for the whole batch of moves; the indexes (in ``batch``) of the moves the database
        accepted (the others' games were not at the version the move was made at)."""
        if self.shared:
            return await self._write_moves_pg(batch, _now())
        accepted: set[int] = await self._run_write(_write_moves, batch, _now())
        return accepted

    async def _pg_fetch(self, sql: str, *args: Any) -> list[Any]:
        """PostgreSQL's hot path: one statement on the driver's own connection (asyncpg, from SQLAlchemy's pool),
        prepared once per connection and cached by asyncpg -- no statement building or result wrapping per call.
        Outside a transaction block the statement is its own transaction.  Returns asyncpg records."""
        async with self.engine.connect() as conn:
            driver: Any = (await conn.get_raw_connection()).driver_connection
            rows: list[Any] = await driver.fetch(sql, *args)
            return rows

    async def _write_moves_pg(self, batch: Sequence[_Pending], now: dt.datetime) -> set[int]:
        """PostgreSQL: the whole batch in one statement (:data:`_WRITE_MOVES_PG`, one round trip): each game
        advanced only from the version its move was made at, the accepted moves inserted, one notification per
        accepted move (game id and version only: no card ever travels in a notification)."""
        rows = await self._pg_fetch(
            _WRITE_MOVES_PG,
            [p.game_id for p in batch],
            [p.ply for p in batch],
            [p.seat for p in batch],
            [p.move for p in batch],
            [p.status for p in batch],
            [json.dumps(p.snapshot, separators=(",", ":")) for p in batch],
            now,
            self.instance,
        )
        advanced = {(r[0], r[1]) for r in rows}
        return {i for i, p in enumerate(batch) if (p.game_id, p.ply) in advanced}

    # -- many instances (PostgreSQL) ----------------------------------------------------------------------------
    def listen(self, on_message: Callable[[str], None], on_reconnect: Callable[[], None]) -> None:
        """Start listening to :data:`CHANNEL` on a connection of its own: ``on_message(payload)`` for every
        notification (on the event loop).  If that connection is lost it is opened again a second later and
        ``on_reconnect()`` is called (notifications may have been missed meanwhile).  PostgreSQL only."""
        if self.shared and self._listener is None:
            self._listener = asyncio.create_task(self._listen(on_message, on_reconnect), name="kortbord-db-listen")

    async def _listen(self, on_message: Callable[[str], None], on_reconnect: Callable[[], None]) -> None:
        import asyncpg

        first = True
        while True:
            lost = asyncio.Event()
            try:
                conn = await asyncpg.connect(self._listen_url)
            except (OSError, asyncpg.PostgresError) as exc:
                log.warning("cannot open the notification connection (%s); again in 1 s", exc)
                await asyncio.sleep(1.0)
                continue
            try:
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, lambda _c, _pid, _ch, payload: on_message(payload))
                if not first:
                    on_reconnect()
                first = False
                await lost.wait()
                log.warning("the notification connection was lost; reopening it")
            finally:
                with contextlib.suppress(Exception):
                    await conn.close(timeout=2)
            await asyncio.sleep(1.0)

    async def acquire_lease(self, game_id: str, seconds: float) -> bool:
        """Take (or keep) the lease to drive ``game_id``'s computer players for ``seconds``: True if this instance
        holds it now -- it was free, expired (its holder died) or already ours.  The database's clock decides
        expiry.  PostgreSQL only."""
        stmt = postgresql.insert(bot_leases).values(
            game_id=game_id, owner=self.instance, expires_at=func.now() + dt.timedelta(seconds=seconds)
        )
        take = stmt.on_conflict_do_update(
            index_elements=[bot_leases.c.game_id],
            set_={"owner": stmt.excluded.owner, "expires_at": stmt.excluded.expires_at},
            where=(bot_leases.c.owner == self.instance) | (bot_leases.c.expires_at < func.now()),
        ).returning(bot_leases.c.game_id)
        async with self.engine.begin() as conn:
            return (await conn.execute(take)).first() is not None

    async def renew_leases(self, seconds: float) -> set[str]:
        """Extend every lease this instance holds by ``seconds``; the games whose lease it still holds."""
        stmt = (
            update(bot_leases)
            .where(bot_leases.c.owner == self.instance)
            .values(expires_at=func.now() + dt.timedelta(seconds=seconds))
            .returning(bot_leases.c.game_id)
        )
        async with self.engine.begin() as conn:
            return {r[0] for r in await conn.execute(stmt)}

    async def release_leases(self, game_ids: Sequence[str] | None = None) -> None:
        """Give up this instance's leases on ``game_ids`` (None: all), so another instance may drive at once."""
        stmt = bot_leases.delete().where(bot_leases.c.owner == self.instance)
        if game_ids is not None:
            stmt = stmt.where(bot_leases.c.game_id.in_(list(game_ids)))
        async with self.engine.begin() as conn:
            await conn.execute(stmt)

    async def driverless_bot_games(self, limit: int = 50) -> list[str]:
        """Games being played by computer players only whose bots nobody drives (no lease, or an expired one):
        the ones an instance should pick up.  On SQLite (one server, no leases): every such game."""
        if self.shared:  # every LEASE_RENEW seconds on every instance
            return [r[0] for r in await self._pg_fetch(_DRIVERLESS_PG, limit)]
        humans = select(seats.c.game_id).where(seats.c.game_id == games.c.id, seats.c.kind == "human").exists()
        q = select(games.c.id).where(games.c.status == "playing", ~humans)
        if self.shared:
            q = q.outerjoin(bot_leases, bot_leases.c.game_id == games.c.id).where(
                (bot_leases.c.game_id.is_(None)) | (bot_leases.c.expires_at < func.now())
            )
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(q.order_by(games.c.created_at).limit(limit))]

    # -- reading ------------------------------------------------------------------------------------------------
    async def load_game(self, game_id: str) -> GameRow | None:
        """One game with its seats and moves, or None."""
        if self.shared:  # one statement (a game opened on another instance loads on first access here)
            found = await self._pg_fetch(_LOAD_GAME_PG, game_id)
            if not found:
                return None
            g = found[0]
            return GameRow(
                id=g[0], game=g[1], name=g[2], rules=json.loads(g[3]), rules_version=g[4], players=g[5],
                teams=bool(g[6]), seed=g[7], seed_commitment=g[8], rng=g[9], version=g[10],
                snapshot=None if g[11] is None else json.loads(g[11]), status=g[12], created_at=g[13],
                seats=[SeatRow(*s) for s in json.loads(g[14] or "[]")], moves=list(g[15] or []),
                aids_agreed=list(g[16] or []), rematch=_offer(g[17]),
            )  # fmt: skip
        rows = await self._load(games.c.id == game_id)
        return rows[0] if rows else None

    async def load_since(self, game_id: str, version: int, with_seats: bool = True) -> Update | None:
        """The stored version, status and seats of a game and its moves after ``version``; None if there is no
        such game.  (How an instance catches up with moves another instance stored.)  ``with_seats=False``: only
        the moves (one query; ``seats`` is empty and ``status`` blank) -- enough after a move's notification."""
        if self.shared and not with_seats:  # after every move another instance stored: the hot path
            only = [r[0] for r in await self._pg_fetch(_MOVES_SINCE_PG, game_id, version)]
            return Update(version + len(only), "", [], only)
        if self.shared:  # one statement: the game's version and status, its seats, the later moves
            found = await self._pg_fetch(_LOAD_SINCE_PG, game_id, version)
            if not found:
                return None
            stored, status, seat_json, after, agreed, offer = found[0]
            seat_rows = [SeatRow(*s) for s in json.loads(seat_json or "[]")]
            return Update(int(stored), str(status), seat_rows, list(after or []), list(agreed or []), _offer(offer))
        async with self.engine.connect() as conn:
            if not with_seats:
                rows = await conn.execute(
                    select(moves.c.move).where(moves.c.game_id == game_id, moves.c.ply > version).order_by(moves.c.ply)
                )
                only = [r[0] for r in rows]
                return Update(version + len(only), "", [], only)
            g = (await conn.execute(select(games.c.version, games.c.status).where(games.c.id == game_id))).first()
            if g is None:
                return None
            seat_rows = [
                SeatRow(s.seat, s.kind, s.level, s.name, s.token_hash, s.invite_hash, s.claimed)
                for s in await conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))
            ]
            agreed = [
                int(r[0])
                for r in await conn.execute(
                    select(aids_agreements.c.seat)
                    .where(aids_agreements.c.game_id == game_id)
                    .order_by(aids_agreements.c.seat)
                )
            ]
            offer = await conn.run_sync(_rematch_of, game_id)
            later: list[str] = []
            if g[0] > version:
                later = [
                    r[0]
                    for r in await conn.execute(
                        select(moves.c.move)
                        .where(moves.c.game_id == game_id, moves.c.ply > version)
                        .order_by(moves.c.ply)
                    )
                ]
            return Update(int(g[0]), str(g[1]), seat_rows, later, agreed, offer)

    async def moves_since_many(self, versions: dict[str, int]) -> dict[str, list[str]]:
        """The moves stored after a version of each of many games (``{game id: version}``), in order, in one
        query: ``{game id: moves}`` (a game with none is left out).  How an instance catches up with the moves
        other instances announced (PostgreSQL; on SQLite one query per game)."""
        if not versions:
            return {}
        if self.shared:
            rows = await self._pg_fetch(_MOVES_SINCE_MANY_PG, list(versions), list(versions.values()))
            return {r[0]: list(r[1]) for r in rows}
        out: dict[str, list[str]] = {}
        for game_id, version in versions.items():
            got = await self.load_since(game_id, version, with_seats=False)
            if got is not None and got.moves:
                out[game_id] = got.moves
        return out

    async def load_unfinished(self) -> list[GameRow]:
        """Every game that is not over (to resume after a restart)."""
        return await self._load(games.c.status != "over")

    async def _load(self, where: Any, with_moves: bool = True) -> list[GameRow]:
        async with self.engine.connect() as conn:
            grows = (await conn.execute(select(games).where(where).order_by(games.c.created_at))).mappings().all()
            if not grows:
                return []
            ids = [g["id"] for g in grows]
            out: dict[str, GameRow] = {}
            for g in grows:
                out[g["id"]] = GameRow(
                    id=g["id"],
                    game=g["game"],
                    name=g["name"],
                    rules=g["rules"],
                    rules_version=g["rules_version"],
                    players=g["players"],
                    teams=bool(g["teams"]),
                    seed=g["seed"],
                    seed_commitment=g["seed_commitment"],
                    rng=g["rng"],
                    version=g["version"],
                    snapshot=g["snapshot"],
                    status=g["status"],
                    created_at=g["created_at"],
                    seats=[],
                    moves=[],
                )
            for chunk in _chunks(ids, 500):
                for s in (
                    await conn.execute(select(seats).where(seats.c.game_id.in_(chunk)).order_by(seats.c.seat))
                ).mappings():
                    out[s["game_id"]].seats.append(
                        SeatRow(
                            s["seat"], s["kind"], s["level"], s["name"], s["token_hash"], s["invite_hash"], s["claimed"]
                        )
                    )
                for a in await conn.execute(
                    select(aids_agreements.c.game_id, aids_agreements.c.seat)
                    .where(aids_agreements.c.game_id.in_(chunk))
                    .order_by(aids_agreements.c.seat)
                ):
                    out[a[0]].aids_agreed.append(int(a[1]))
                for r in await conn.execute(
                    select(rematches.c.game_id, rematches.c.new_game_id, rematches.c.by_seat).where(
                        rematches.c.game_id.in_(chunk)
                    )
                ):
                    out[r[0]].rematch = {"game_id": r[1], "by": int(r[2])}
                if not with_moves:
                    continue
                for m in await conn.execute(
                    select(moves.c.game_id, moves.c.move).where(moves.c.game_id.in_(chunk)).order_by(moves.c.ply)
                ):
                    out[m[0]].moves.append(m[1])
            return list(out.values())

    async def list_games(self, limit: int = 100) -> list[GameRow]:
        """The most recent games (without their moves), newest first."""
        async with self.engine.connect() as conn:
            ids = [
                r[0] for r in await conn.execute(select(games.c.id).order_by(games.c.created_at.desc()).limit(limit))
            ]
        if not ids:
            return []
        rows = await self._load(games.c.id.in_(ids), with_moves=False)
        rows.sort(key=lambda r: r.created_at, reverse=True)
        return rows

    async def count_games(self) -> int:
        """Number of stored games."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(games))).scalar_one())


def _offer(text: str | None) -> dict[str, Any] | None:
    """A rematch offer read back from PostgreSQL's ``[new game id, by seat]`` JSON text (None: no offer)."""
    if text is None:
        return None
    new_game_id, by = json.loads(text)
    return {"game_id": str(new_game_id), "by": int(by)}


def _create_game(conn: Connection, row: GameRow, now: dt.datetime) -> None:
    conn.execute(
        insert(games).values(
            id=row.id,
            game=row.game,
            name=row.name,
            rules=row.rules,
            rules_version=row.rules_version,
            players=row.players,
            teams=row.teams,
            seed=row.seed,
            seed_commitment=row.seed_commitment,
            rng=row.rng,
            version=0,
            snapshot=row.snapshot,
            status=row.status,
            created_at=row.created_at,
            updated_at=now,
        )
    )
    conn.execute(
        insert(seats),
        [
            {
                "game_id": row.id,
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "token_hash": s.token_hash,
                "invite_hash": s.invite_hash,
                "claimed": s.claimed,
            }
            for s in row.seats
        ],
    )


def _notify(conn: Connection, payloads: Sequence[str]) -> None:
    """Queue PostgreSQL notifications on :data:`CHANNEL` (sent when the transaction commits, never before)."""
    if payloads:
        conn.execute(
            text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:ps AS text[])) AS p"), {"ps": list(payloads)}
        )


def _invite_seat(conn: Connection, game_id: str, invite_hash: str) -> int | None:
    found = conn.execute(
        select(seats.c.seat).where(
            seats.c.game_id == game_id, seats.c.invite_hash == invite_hash, seats.c.claimed.is_(False)
        )
    ).first()
    return None if found is None else int(found[0])


def _claim_seat(
    conn: Connection, game_id: str, invite_hash: str, token_hash: str, name: str | None, tag: str | None
) -> int | None:
    found = conn.execute(
        select(seats.c.seat).where(
            seats.c.game_id == game_id, seats.c.invite_hash == invite_hash, seats.c.claimed.is_(False)
        )
    ).first()
    if found is None:
        return None
    seat = int(found[0])
    done = conn.execute(
        update(seats)
        .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.invite_hash == invite_hash)
        .values(token_hash=token_hash, invite_hash=None, claimed=True, name=name)
    )
    if done.rowcount != 1:
        return None  # 0: a concurrent join took it first
    if tag is not None:
        _notify(conn, [tag])
    return seat


def _set_aids(conn: Connection, game_id: str, seat: int, agree: bool, tag: str | None) -> None:
    conn.execute(delete(aids_agreements).where(aids_agreements.c.game_id == game_id, aids_agreements.c.seat == seat))
    if agree:
        conn.execute(insert(aids_agreements).values(game_id=game_id, seat=seat))
    if tag is not None:
        _notify(conn, [tag])


def _rematch_of(conn: Connection, game_id: str) -> dict[str, Any] | None:
    found = conn.execute(
        select(rematches.c.new_game_id, rematches.c.by_seat).where(rematches.c.game_id == game_id)
    ).first()
    return None if found is None else {"game_id": found[0], "by": int(found[1])}


def _create_rematch(
    conn: Connection, row: GameRow, game_id: str, by: int, now: dt.datetime, tag: str | None
) -> dict[str, Any]:
    found = _rematch_of(conn, game_id)
    if found is not None:
        return found
    _create_game(conn, row, now)
    conn.execute(insert(rematches).values(game_id=game_id, new_game_id=row.id, by_seat=by, created_at=now))
    if tag is not None:
        _notify(conn, [tag])
    return {"game_id": row.id, "by": by}


def _take_rematch_seat(
    conn: Connection, game_id: str, seat: int, token_hash: str, name: str | None, tag: str | None
) -> bool:
    done = conn.execute(
        update(seats)
        .where(
            seats.c.game_id == game_id,
            seats.c.seat == seat,
            seats.c.kind == "human",
            seats.c.invite_hash.is_(None),
            (seats.c.claimed.is_(False)) | (seats.c.token_hash == token_hash),
        )
        .values(token_hash=token_hash, claimed=True, name=name)
    )
    if done.rowcount != 1:
        return False
    if tag is not None:
        _notify(conn, [tag])
    return True


def _set_status(conn: Connection, game_id: str, status: str, now: dt.datetime, tag: str | None) -> None:
    conn.execute(update(games).where(games.c.id == game_id).values(status=status, updated_at=now))
    if tag is not None:
        _notify(conn, [tag])


#: One statement (one round trip, its own transaction) for a whole batch of moves on PostgreSQL: advance every
#: game that is at the move's previous version (the row lock makes a concurrent writer of the same game wait, then
#: find the version moved on and match nothing), insert the moves of the games it advanced, and queue one
#: notification per stored move -- ``m:<game id>:<version>:<instance>``, sent at commit.  Returns (game id, ply) of
#: every stored move.  Parameters: game ids, plys, seats, moves, statuses, snapshots (JSON text), now, instance.
_WRITE_MOVES_PG: Final = (
    "WITH b AS (SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[]) "
    "AS b(gid, ply, seat, mv, st, snap)), "
    "adv AS (UPDATE games SET version = b.ply, status = b.st, snapshot = CAST(b.snap AS json), updated_at = $7 "
    "FROM b WHERE games.id = b.gid AND games.version = b.ply - 1 RETURNING games.id, b.ply, b.seat, b.mv), "
    "ins AS (INSERT INTO moves (game_id, ply, seat, move, created_at) SELECT id, ply, seat, mv, $7 FROM adv) "
    f"SELECT id, ply, pg_notify('{CHANNEL}', 'm:' || id || ':' || ply || ':' || $8) FROM adv"
)
#: The moves of a game after a version, in order (PostgreSQL; parameters: game id, version).
_MOVES_SINCE_PG: Final = "SELECT move FROM moves WHERE game_id = $1 AND ply > $2 ORDER BY ply"
#: The moves of many games after a version each, in order (PostgreSQL; parameters: game ids, versions).
_MOVES_SINCE_MANY_PG: Final = (
    "SELECT m.game_id, array_agg(m.move ORDER BY m.ply) FROM moves m "
    "JOIN unnest($1::text[], $2::int[]) AS b(gid, v) ON m.game_id = b.gid AND m.ply > b.v GROUP BY m.game_id"
)
#: A game's stored version and status, its seats (JSON text: ``[[seat, kind, level, name, token_hash, invite_hash,
#: claimed], ...]`` by seat) and its moves after a version (PostgreSQL; parameters: game id, version).
_LOAD_SINCE_PG: Final = (
    "SELECT g.version, g.status, "
    "(SELECT CAST(json_agg(json_build_array(s.seat, s.kind, s.level, s.name, s.token_hash, s.invite_hash, "
    "s.claimed) ORDER BY s.seat) AS text) FROM seats s WHERE s.game_id = g.id), "
    "(SELECT array_agg(m.move ORDER BY m.ply) FROM moves m WHERE m.game_id = g.id AND m.ply > $2), "
    "(SELECT array_agg(a.seat ORDER BY a.seat) FROM aids_agreements a WHERE a.game_id = g.id), "
    "(SELECT json_build_array(r.new_game_id, r.by_seat)::text FROM rematches r WHERE r.game_id = g.id) "
    "FROM games g WHERE g.id = $1"
)
#: One game, its seats (as in :data:`_LOAD_SINCE_PG`), all its moves in order, the seats that agreed to aids and its
#: rematch offer (PostgreSQL; parameter: game id).
_LOAD_GAME_PG: Final = (
    "SELECT g.id, g.game, g.name, CAST(g.rules AS text), g.rules_version, g.players, g.teams, g.seed, "
    "g.seed_commitment, g.rng, g.version, CAST(g.snapshot AS text), g.status, g.created_at, "
    "(SELECT CAST(json_agg(json_build_array(s.seat, s.kind, s.level, s.name, s.token_hash, s.invite_hash, "
    "s.claimed) ORDER BY s.seat) AS text) FROM seats s WHERE s.game_id = g.id), "
    "(SELECT array_agg(m.move ORDER BY m.ply) FROM moves m WHERE m.game_id = g.id), "
    "(SELECT array_agg(a.seat ORDER BY a.seat) FROM aids_agreements a WHERE a.game_id = g.id), "
    "(SELECT json_build_array(r.new_game_id, r.by_seat)::text FROM rematches r WHERE r.game_id = g.id) "
    "FROM games g WHERE g.id = $1"
)
#: Claim the seat of an unused invite (PostgreSQL; parameters: game id, invite hash, token hash, name, the ``s:``
#: notification): one conditional update -- of two concurrent joins with one invite the second waits for the
#: first's row lock, then finds the invite spent and matches nothing; the notification only if a seat was taken.
_CLAIM_SEAT_PG: Final = (
    "WITH c AS (UPDATE seats SET token_hash = $3, invite_hash = NULL, claimed = true, name = $4 "
    "WHERE game_id = $1 AND invite_hash = $2 AND NOT claimed RETURNING seat) "
    f"SELECT seat, pg_notify('{CHANNEL}', $5) FROM c"
)
#: Set a game's status and announce it (PostgreSQL; parameters: game id, status, now, the ``s:`` notification).
_SET_STATUS_PG: Final = (
    f"WITH u AS (UPDATE games SET status = $2, updated_at = $3 WHERE id = $1) SELECT pg_notify('{CHANNEL}', $4)"
)
#: A new game and its seats (PostgreSQL, one statement; the seats' foreign key is checked at its end).
_CREATE_GAME_PG: Final = (
    "WITH g AS (INSERT INTO games (id, game, name, rules, rules_version, players, teams, seed, seed_commitment, "
    "rng, version, snapshot, status, created_at, updated_at) VALUES ($1, $2, $3, CAST($4::text AS json), $5, $6, "
    "$7, $8, $9, $10, 0, CAST($11::text AS json), $12, $13, $14) RETURNING id) "
    "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, invite_hash, claimed) "
    "SELECT g.id, s.* FROM g, unnest($15::int[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], "
    "$21::bool[]) AS s"
)
#: Games of computer players only whose bots nobody drives (PostgreSQL; parameter: how many at most).
_DRIVERLESS_PG: Final = (
    "SELECT g.id FROM games g LEFT JOIN bot_leases l ON l.game_id = g.id WHERE g.status = 'playing' "
    "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'human') "
    "AND (l.game_id IS NULL OR l.expires_at < now()) ORDER BY g.created_at LIMIT $1"
)


#: SQLite's hot path in plain SQL on the driver's cursor, its values stored exactly as SQLAlchemy's own types store
#: them (the JSON text, the date-time format), so every other query reads them back the same.
_SQLITE: Final = sqlite_dialect.dialect()
_SQLITE_JSON: Final = JSON().dialect_impl(_SQLITE).bind_processor(_SQLITE)
_SQLITE_TIME: Final = DateTime(timezone=True).dialect_impl(_SQLITE).bind_processor(_SQLITE)
_ADVANCE_GAME_SQLITE: Final = (
    "UPDATE games SET version = ?, status = ?, snapshot = ?, updated_at = ? WHERE id = ? AND version = ?"
)
_INSERT_MOVE_SQLITE: Final = "INSERT INTO moves (game_id, ply, seat, move, created_at) VALUES (?, ?, ?, ?, ?)"


def _write_moves(conn: Connection, batch: Sequence[_Pending], now: dt.datetime) -> set[int]:
    """SQLite: each move advances its game only from the version it was made at (in the one writer thread, in
    the caller's transaction), then the accepted moves are inserted."""
    assert _SQLITE_JSON is not None and _SQLITE_TIME is not None
    when = _SQLITE_TIME(now)
    cur = conn.connection.cursor()
    try:
        accepted: set[int] = set()
        for i, p in enumerate(batch):
            cur.execute(_ADVANCE_GAME_SQLITE, (p.ply, p.status, _SQLITE_JSON(p.snapshot), when, p.game_id, p.ply - 1))
            if cur.rowcount == 1:
                accepted.add(i)
        won = [batch[i] for i in sorted(accepted)]
        if won:
            cur.executemany(_INSERT_MOVE_SQLITE, [(p.game_id, p.ply, p.seat, p.move, when) for p in won])
    finally:
        cur.close()
    return accepted


def _chunks(items: list[str], n: int) -> list[list[str]]:
    return [items[i : i + n] for i in range(0, len(items), n)]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never block the writer) and synchronous=NORMAL: a commit survives a killed server process."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in the background (Store._checkpoints)
    cur.close()
