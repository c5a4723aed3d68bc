"""Statistics per player name (issue #11 item 8) and the levels that miscount (item 9).

When a game ends, each person's seat that has a name gets one row in the ``results`` table (game, opponents'
level, rules in a few words, won or not); ``GET /api/stats?name=<name>`` sums them per game, level and rules
with the current and the best winning streak.  Names are what players typed at the table (no accounts): the
statistics of a name are public, like the games list.  ``GET /api/levels/{game}`` lists the game's computer
levels with the chance that each overlooks a scoring group in its own Muggins count
(:func:`kortbord.bots.registry.miscounts` where the registry has it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
from typing import TYPE_CHECKING, Annotated, Any, Final

from fastapi import APIRouter, Query, Request
from pydantic import AfterValidator
from sqlalchemy import Boolean, Column, Connection, DateTime, Integer, String, Table, insert, select

from kortbord import core
from kortbord.server.db import metadata

if TYPE_CHECKING:  # pragma: no cover
    from kortbord.server.sessions import Session

__all__ = [
    "MISCOUNTING",
    "OptionalName",
    "PlainName",
    "levels",
    "plain_name",
    "record_result",
    "results",
    "router",
    "summarise",
    "variant",
]

log = logging.getLogger("kortbord.server.stats")

results = Table(
    "results",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("name", String(40), nullable=False, index=True),
    Column("game", String(16), nullable=False),
    Column("level", String(40), nullable=False),
    Column("variant", String(80), nullable=False),
    Column("won", Boolean, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
)

#: The levels that miscount like people when the registry cannot say (the project's agreed names).
MISCOUNTING: Final = frozenset({"beginner", "casual"})

#: Result writes under way (a reference keeps each task alive).
_TASKS: set[asyncio.Task[None]] = set()

router = APIRouter()

#: A control character (C0, DEL, C1): never part of a name a person types, and PostgreSQL refuses NUL in text.
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: A text-direction embedding, override or isolate (U+202A-U+202E, U+2066-U+2069): left open in a name it turns
#: the text shown after the name around ("\u202etxt.exe" shows as "exe.txt" and reverses the score beside it).
_DIRECTION: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: What is left out around a name: white space and the invisible zero-width characters.
_AROUND: Final = re.compile(r"^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$")


def plain_name(value: str) -> str:
    """A player's or a table's name without the white space (and zero-width characters) around it, if it holds no
    control character (U+0000-U+001F, U+007F-U+009F: NUL, a line break, a terminal escape ...) and no
    text-direction control (U+202A-U+202E, U+2066-U+2069).  A name of white space only comes back empty: the
    request fields read it as no name (:data:`OptionalName`).

    Raises:
        ValueError: the name holds one of them (the request is answered 422 ``bad_request`` and nothing is stored).
    """
    if _CONTROL.search(value):
        raise ValueError("a name may not contain control characters (U+0000-U+001F, U+007F-U+009F)")
    if _DIRECTION.search(value):
        raise ValueError("a name may not contain text-direction control characters (U+202A-U+202E, U+2066-U+2069)")
    return _AROUND.sub("", value)


def _blank_is_none(value: str | None) -> str | None:
    return value or None


#: A name field of a request: a string without control characters, the white space around it left out
#: (:func:`plain_name`).
PlainName = Annotated[str, AfterValidator(plain_name)]
#: An optional name field: a :data:`PlainName`, and one of white space only is no name (None), as if left out --
#: the page then says "Player 2", never an empty name.
OptionalName = Annotated[PlainName | None, AfterValidator(_blank_is_none)]


def variant(game: str, rules: dict[str, Any]) -> str:
    """The rules of a game in a few words: Cribbage ``"121"``, ``"61 muggins"``; Mulle ``"standard target:100"``."""
    if game == "cribbage":
        parts = [
            str(rules.get("target", "")),
            "muggins" if rules.get("muggins") else "",
            "lowball" if rules.get("lowball") else "",
        ]
        if int(rules.get("players", 2)) > 2:
            parts.append(f"{rules['players']}p")
    else:
        parts = [str(rules.get("profile", "")), str(rules.get("game_length", ""))]
    return " ".join(p for p in parts if p)


def _rows(session: Session) -> list[dict[str, Any]]:
    spec = session.spec
    winners = set(spec.result(session.state).to_json().get("winners", []))
    bots = sorted({s.level or "?" for s in session.seats if s.kind == "bot"})
    level = "+".join(bots) if bots else "people"
    now = dt.datetime.now(dt.UTC)
    out = []
    for s in session.seats:
        if s.kind != "human" or not s.name:
            continue
        side = spec.side_of(session.state, s.seat)
        out.append(
            {
                "game_id": session.id,
                "name": s.name,
                "game": spec.name,
                "level": level,
                "variant": variant(spec.name, session.rules_dict),
                "won": side in winners,
                "finished_at": now,
            }
        )
    return out


def _insert(conn: Connection, rows: list[dict[str, Any]]) -> None:
    conn.execute(insert(results), rows)


def record_result(session: Session) -> None:
    """Write the finished game's result for every named person's seat (in the background; a failure is logged)."""
    manager = session.manager
    if manager is None or not session.over:
        return
    rows = _rows(session)
    if not rows:
        return

    async def write() -> None:
        try:
            async with manager.store.engine.begin() as conn:
                await conn.run_sync(_insert, rows)
        except Exception:
            log.exception("could not store the result of game %s", session.id)

    task = asyncio.create_task(write())
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def summarise(rows: list[tuple[str, str, str, bool]]) -> list[dict[str, Any]]:
    """Played, won, the current and the best winning streak per (game, level, variant) from ``(game, level,
    variant, won)`` rows in the order the games ended."""
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for game, level, var, won in rows:
        row = out.setdefault(
            (game, level, var),
            {"game": game, "level": level, "variant": var, "played": 0, "won": 0, "streak": 0, "best": 0},
        )
        row["played"] += 1
        if won:
            row["won"] += 1
            row["streak"] += 1
            row["best"] = max(row["best"], row["streak"])
        else:
            row["streak"] = 0
    return list(out.values())


def levels(game: str) -> list[dict[str, Any]]:
    """The game's computer levels: ``[{"level", "miscounts": bool, "miss_rate"}]``, the rate being the chance 0..1
    that the level overlooks one scoring group in its own Muggins count (None: not stated).  Raises ValueError for
    an unknown game."""
    from kortbord.bots import registry

    if game not in core.GAMES:
        from kortbord.server.echo import echo

        raise ValueError(f"unknown game {echo(game)}; the games are {', '.join(core.GAMES)}")
    fn = getattr(registry, "miscounts", None)
    out = []
    for level in registry.available_levels(game):
        miss: float | None = 0.0
        if fn is not None:
            rates = fn(game, level)
            miss = float(rates["miss_rate"]) if rates else 0.0
        elif game == "cribbage" and level in MISCOUNTING:
            miss = None  # it miscounts, at a rate this registry does not state
        out.append({"level": level, "miscounts": miss is None or miss > 0, "miss_rate": miss})
    return out


@router.get("/api/stats")
async def stats(
    request: Request, name: Annotated[str, Query(min_length=1, max_length=40), AfterValidator(plain_name)]
) -> dict[str, Any]:
    """``{"name", "rows": [{"game", "level", "variant", "played", "won", "streak", "best"}]}`` for a player name
    (the white space around it left out, as when the name was taken: :func:`plain_name`)."""
    if not name:
        from kortbord.server.app import ApiError

        raise ApiError(422, "bad_request", "query.name: a name needs a character that is not white space")
    store = request.app.state.store
    async with store.engine.connect() as conn:
        found = await conn.execute(
            select(results.c.game, results.c.level, results.c.variant, results.c.won)
            .where(results.c.name == name)
            .order_by(results.c.finished_at, results.c.id)
        )
        rows = [(r[0], r[1], r[2], bool(r[3])) for r in found]
    return {"name": name, "rows": summarise(rows)}


@router.get("/api/levels/{game}", responses={404: {"description": "unknown_game"}})
async def game_levels(game: str) -> dict[str, Any]:
    """``{"game", "levels": [{"level", "miss_rate"}]}`` (see :func:`levels`); 404 for an unknown game."""
    from kortbord.server.app import ApiError

    try:
        return {"game": game, "levels": levels(game)}
    except ValueError as exc:  # the asked name only as a short prefix
        raise ApiError(404, "unknown_game", str(exc)) from None
