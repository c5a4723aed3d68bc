"""Shared helpers of the web-table tests: an app on a temporary SQLite file, reproducible seeds, a random
player over the WebSocket, and the card strings of a message."""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from kortbord.server import create_app  # noqa: E402


def seeds(label: str) -> Callable[[], str]:
    """A reproducible sequence of 256-bit seeds (hex) for ``create_app(seed_factory=...)``."""
    counter = itertools.count()
    return lambda: hashlib.sha256(f"{label}-{next(counter)}".encode()).hexdigest()


def make_client(tmp_path: Path, label: str = "t", **kwargs: Any) -> TestClient:
    """A TestClient (use as a context manager) on a fresh SQLite file; bots in threads, no bot delay."""
    opts: dict[str, Any] = {
        "bot_mode": "thread",
        "bot_workers": 1,
        "ws_rate": 10000.0,
        "ws_burst": 10000.0,
        "rest_rate": 10000.0,
        "rest_burst": 10000.0,
        "seed_factory": seeds(label),
    }
    opts.update(kwargs)
    url = opts.pop("database_url", f"sqlite+aiosqlite:///{tmp_path / 'kortbord.db'}")
    return TestClient(create_app(url, **opts))


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST /api/games and return the response (asserting 201)."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def receive_state(ws: Any) -> dict[str, Any]:
    """The next message, which must be a state message."""
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def play_random(
    ws: Any, rng: random.Random, on_message: Callable[[dict[str, Any]], None] | None = None, max_messages: int = 20000
) -> dict[str, Any]:
    """Play random legal moves on ``ws`` whenever it is this seat's turn, until the game is over.  Every message
    received is passed to ``on_message``.  Returns the last state message."""
    for _ in range(max_messages):
        msg = ws.receive_json()
        if on_message is not None:
            on_message(msg)
        assert msg["type"] == "state", msg
        if msg["status"] == "over":
            return msg
        if msg["legal_moves"]:
            move = rng.choice(msg["legal_moves"])["notation"]
            ws.send_json({"type": "move", "version": msg["version"], "move": move})
    raise AssertionError("the game did not end")


_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([SHDC♠♥♦♣])(?![0-9A-Za-z])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: keys whose values are identifiers or secrets made of random letters, not cards
_NOT_CARDS = {"game_id", "seed", "seed_commitment", "token", "invite_code", "url", "ws_url", "rng"}


def card_strings(msg: Any) -> set[str]:
    """Every card named anywhere in a JSON message (in any string: card lists, move notation, event texts)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in _NOT_CARDS:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            for rank, suit in _CARD.findall(x):
                found.add(("T" if rank == "10" else rank) + _SUIT.get(suit, suit))

    walk(msg)
    return found
