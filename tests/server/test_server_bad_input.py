"""A hostile client's input the web table must refuse with a clear error, changing nothing (issue #11/#12, server
side; ``docs/protocol.md``): names with control characters (PostgreSQL cannot store NUL; a line break or an
escape sequence in a name would reach logs and terminals), and the aids' heavy work bounded server-wide."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from server_helpers import make_client, new_game

from kortbord.server import aids
from kortbord.server.ws import MAX_QUEUE, MAX_QUEUE_BYTES, Connection

#: NUL, a line break, a tab, ESC (a terminal escape), DEL and a C1 control: none is part of a typed name.
CONTROLS = ["a\x00b", "Anna\nINFO: forged", "a\tb", "\x1b[31mred", "x\x7f", "x\x85"]


@pytest.mark.parametrize("name", CONTROLS)
def test_a_name_with_a_control_character_is_refused_everywhere_and_changes_nothing(tmp_path: Path, name: str) -> None:
    with make_client(tmp_path) as c:
        for body in (
            {"game": "mulle", "name": name},
            {"game": "mulle", "seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "greedy"}]},
        ):
            r = c.post("/api/games", json=body)
            assert r.status_code == 422, r.text
            err = r.json()["error"]
            assert err["code"] == "bad_request" and "control characters" in err["message"], err
        assert c.get("/api/games").json() == []  # nothing was created
        g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human"}])
        code = g["invites"][0]["invite_code"]
        r = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code, "name": name})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", r.text
        # the invite was not spent and the seat is still free
        assert c.post(f"/api/games/{g['game_id']}/invite", json={"invite_code": code}).json()["seat"] == 1
        assert c.get(f"/api/games/{g['game_id']}").json()["status"] == "waiting"
        r = c.get("/api/stats", params={"name": name})
        assert r.status_code == 422 and "control characters" in r.json()["error"]["message"], r.text


def test_names_people_type_are_still_taken(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        names = ["Anna", "Åsa Öberg", "李雷", "O'Brien-Smith", "👨‍👩‍👧 family", "a" * 40]
        for name in names:
            g = new_game(
                c, game="mulle", name=name, seats=[{"kind": "human", "name": name}, {"kind": "bot", "level": "random"}]
            )
            s = c.get(f"/api/games/{g['game_id']}").json()
            assert s["name"] == name and s["seats"][0]["name"] == name
            assert c.get("/api/stats", params={"name": name}).json() == {"name": name, "rows": []}


class _Conn:
    """A connection that keeps what it is sent."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.sent: list[dict[str, Any]] = []

    def send_json(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


def _finished_table(i: int) -> Any:
    """What :func:`kortbord.server.aids.handle` reads of a finished game with one person (aids allowed)."""
    seats = [SimpleNamespace(seat=0, kind="human"), SimpleNamespace(seat=1, kind="bot")]
    return SimpleNamespace(
        id=f"g{i}",
        seats=seats,
        aids_agreed=set(),
        over=True,
        version=7,
        aids_busy=set(),
        reviews={},
        spec=None,
        state=None,
    )


def test_reviews_of_many_games_at_once_run_at_most_review_slots_at_a_time_and_all_are_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client with many finished games asks each for its review at once: the reviews (seconds of CPU each, in the
    default thread pool the server loads games with) run at most ``REVIEW_SLOTS`` at a time, and every one is
    still answered."""
    running = 0
    most = 0
    lock = threading.Lock()

    def slow_review(session: Any, seat: int) -> dict[str, Any]:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return {"checked": 0, "items": [], "game": session.id}

    monkeypatch.setattr(aids, "review", slow_review)
    tables = [_finished_table(i) for i in range(12)]
    conns = [_Conn(0) for _ in tables]

    async def ask_all() -> None:
        for table, conn in zip(tables, conns, strict=True):
            await aids.handle(table, conn, {"type": "review"})
        while aids._TASKS:
            await asyncio.sleep(0.01)

    asyncio.run(ask_all())
    assert most == aids.REVIEW_SLOTS
    for table, conn in zip(tables, conns, strict=True):
        assert conn.sent == [{"type": "review", "version": 7, "checked": 0, "items": [], "game": table.id}]


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ('"WebSocket /ws/games/abc?%74oken=SECRETa" [accepted]', "%74oken=***"),  # Starlette decodes the name
        ("GET /?join=abc&%69nvite=SECRETb HTTP/1.1", "%69nvite=***"),  # so does the page's URLSearchParams
        ("GET /?join=abc&invite%5Fcode=SECRETc HTTP/1.1", "invite%5Fcode=***"),
        ("GET /?join=abc&Invite=SECRETd&x=1 HTTP/1.1", "Invite=***&x=1"),
        ("GET /?join=abc&invite=SECRETe HTTP/1.1", "join=abc&invite=***"),
        ("token=SECRETf at the start", "token=***"),
    ],
)
def test_logs_blank_secrets_however_the_query_names_them(line: str, kept: str) -> None:
    from kortbord.server.app import REDACT

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    assert REDACT.filter(record)
    text = record.getMessage()
    assert "SECRET" not in text and kept in text, text


class _Unread:
    """A socket whose client reads nothing: what the server queues for it stays queued."""


class _Reader:
    """A socket whose client reads everything at once."""

    def __init__(self) -> None:
        self.got: list[str] = []

    async def send_text(self, text: str) -> None:
        self.got.append(text)


def test_a_client_that_asks_for_long_histories_and_reads_nothing_is_disconnected_by_size() -> None:
    """A page asking ``resync`` with ``history`` of a long game (tens of kilobytes each, ten a second) and never
    reading held MAX_QUEUE copies of it before it was dropped; now the queue is bounded by size too."""
    history = "x" * 100_000  # a long game's history message
    conn = Connection(_Unread(), None)  # type: ignore[arg-type]
    fits = MAX_QUEUE_BYTES // len(history)
    for _ in range(fits):
        conn.push(history, 1)
    assert not conn.closed and conn.queue.qsize() == fits < MAX_QUEUE
    conn.push(history, 1)  # one more passes the bound: disconnected (closed 4408 by the pump), nothing more queued
    assert conn.closed and conn.overflow
    conn.push(history, 1)
    assert conn.queue.qsize() == fits + 1  # the messages, then the pump's stop mark


def test_one_long_message_is_always_sent_and_sent_messages_free_the_queue() -> None:
    reader = _Reader()
    conn = Connection(reader, 0)  # type: ignore[arg-type]
    huge = "y" * (MAX_QUEUE_BYTES + 1)  # longer than the bound on its own: still queued when nothing waits

    async def run() -> None:
        pump = asyncio.create_task(conn.pump())
        for _ in range(3):
            conn.push(huge, 1)
            await asyncio.sleep(0)  # the pump sends it: the queue is empty again
            await asyncio.sleep(0)
        assert not conn.closed and conn.queued == 0
        conn.queue.put_nowait(None)
        await pump

    asyncio.run(run())
    assert reader.got == [huge] * 3


@pytest.mark.parametrize(
    ("rules", "option"),
    [
        ({"table_size": 22}, "table_size"),
        ({"table_size": 13, "hand_size": 4}, "table_size"),
        ({"capture_duty": "none"}, "capture_duty"),
    ],
)
def test_mulle_rules_that_would_stall_the_server_are_refused(
    tmp_path: Path, rules: dict[str, Any], option: str
) -> None:
    # A bots-only game with 22 cards on the table froze the whole server (tens of thousands of legal moves, seconds
    # of CPU each); a free capture duty lets a player who only trails grow the table without bound.
    with make_client(tmp_path) as c:
        body = {"game": "mulle", "rules": rules, "seats": [{"kind": "bot", "level": "random"}] * 2}
        r = c.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "bad_rules" and option in err["message"], err
        assert c.get("/api/games").json() == []  # nothing was created
        lobby = {o["key"]: o for o in c.get("/api/options/mulle").json()["options"]}
        assert lobby["table_size"]["max"] == 12 and "none" not in lobby["capture_duty"]["choices"]
        # the seeds' formats are still taken (8+8, 5+5, 4+8: rules spec §4 A17)
        for hand, table in ((8, 8), (5, 5), (4, 8)):
            ok = c.post("/api/games", json={**body, "rules": {"hand_size": hand, "table_size": table}})
            assert ok.status_code == 201, ok.text
