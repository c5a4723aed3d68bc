"""Hardening of the web table (issue #12, item 4): per-address POST limits in a bounded least-recently-used table
(never a global reset), the WebSocket Origin check by scheme, host and port, a strict create schema that lists
every error answer in the OpenAPI schema, and ``Allow`` on 405 answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import make_client, new_game, receive_state, seeds
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from kortbord.server import create_app
from kortbord.server.app import MAX_ADDRESSES, AddressLimits
from kortbord.server.ws import origin_key


# -- per-address limits ------------------------------------------------------------------------------------------
def test_address_table_is_bounded_and_forgets_only_the_least_recently_used() -> None:
    limits = AddressLimits(rate=0.0, burst=2.0, size=3)
    assert limits.allow("a", 0.0) and limits.allow("a", 0.0) and not limits.allow("a", 0.0)  # a is limited
    assert limits.allow("b", 1.0) and limits.allow("c", 2.0)  # the table is full: a, b, c
    assert not limits.allow("a", 3.0)  # a is still limited, and now the most recently seen
    assert limits.allow("d", 4.0)  # a new address forgets only b, the one seen longest ago
    assert len(limits) == 3 and "b" not in limits and "a" in limits and "c" in limits
    assert not limits.allow("a", 5.0)  # a's limit survived the table filling up
    assert limits.allow("c", 6.0) and not limits.allow("c", 6.0)  # c's bucket was kept too (1 of 2 left)


def test_a_flood_of_addresses_never_resets_a_limited_address() -> None:
    # the old table cleared every bucket once it held 10,000 addresses; this one never holds more than its size
    limits = AddressLimits(rate=0.0, burst=1.0)
    assert limits.size == MAX_ADDRESSES
    assert limits.allow("10.0.0.1", 0.0) and not limits.allow("10.0.0.1", 0.0)
    for i in range(3 * MAX_ADDRESSES):
        assert limits.allow(f"fresh-{i}", 1.0)
        if i % 1000 == 0:  # the limited client keeps trying, and stays limited
            assert not limits.allow("10.0.0.1", 1.0)
        assert len(limits) <= MAX_ADDRESSES
    assert not limits.allow("10.0.0.1", 2.0)
    assert len(limits) == MAX_ADDRESSES


def test_address_limits_refill_at_the_rate() -> None:
    limits = AddressLimits(rate=2.0, burst=3.0, size=10)
    assert all(limits.allow("x", 0.0) for _ in range(3)) and not limits.allow("x", 0.0)
    assert limits.allow("x", 0.5) and not limits.allow("x", 0.5)  # 0.5 s at 2/s: one token
    assert all(limits.allow("x", 100.0) for _ in range(3)) and not limits.allow("x", 100.0)  # never above burst
    with pytest.raises(ValueError, match="size"):
        AddressLimits(1.0, 1.0, size=0)


def _client_from_header(app: ASGIApp) -> ASGIApp:
    """The app seen from the address in the request's ``x-addr`` header (as if from many machines)."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            addr = dict(scope["headers"]).get(b"x-addr")
            if addr is not None:
                scope = dict(scope, client=(addr.decode(), 40000))
        await app(scope, receive, send)

    return wrapped


def test_post_limits_per_address_over_http(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite+aiosqlite:///{tmp_path / 'k.db'}",
        bot_mode="thread",
        bot_workers=1,
        rest_rate=0.001,
        rest_burst=2.0,
        rest_addresses=3,
        seed_factory=seeds("limits"),
    )
    with TestClient(_client_from_header(app)) as c:

        def post(addr: str) -> int:
            return c.post("/api/games", json={"game": "cribbage"}, headers={"x-addr": addr}).status_code

        assert [post("1.1.1.1") for _ in range(3)] == [201, 201, 429]
        assert post("2.2.2.2") == 201  # another address has its own bucket
        for i in range(10):  # more new addresses than the table holds, while 1.1.1.1 keeps knocking
            assert post(f"3.3.3.{i}") == 201
            assert post("1.1.1.1") == 429
        assert len(app.state.post_limits) == 3


# -- the Origin check --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("origin", "key"),
    [
        ("http://127.0.0.1:8000", ("http", "127.0.0.1", 8000)),
        ("HTTPS://Example.ORG", ("https", "example.org", 443)),
        ("http://example.org", ("http", "example.org", 80)),
        ("http://[::1]:5173", ("http", "::1", 5173)),
        ("null", None),
        ("file://", None),
        ("http://a@example.org", None),
        ("http://example.org/page", None),
        ("http://example.org:99999", None),
        ("ws://example.org", None),
    ],
)
def test_origin_key(origin: str, key: tuple[str, str, int] | None) -> None:
    assert origin_key(origin) == key


def _ws_outcome(c: TestClient, url: str, origin: str, **kwargs: Any) -> int | None:
    """None if the socket was accepted (a state arrived), else the close code."""
    try:
        with c.websocket_connect(url, headers={"origin": origin}, **kwargs) as ws:
            receive_state(ws)
            return None
    except WebSocketDisconnect as exc:
        return exc.code


def test_origin_check_compares_scheme_host_and_port(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite+aiosqlite:///{tmp_path / 'k.db'}",
        bot_mode="thread",
        bot_workers=1,
        allowed_origins=("http://localhost:5173",),
        seed_factory=seeds("origin"),
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        url = f"ws://127.0.0.1:8000/ws/games/{new_game(c, game='cribbage')['game_id']}"
        assert _ws_outcome(c, url, "http://127.0.0.1:8000") is None  # the server's own page
        assert _ws_outcome(c, url, "http://127.0.0.1:8000/") is None
        assert _ws_outcome(c, url, "http://localhost:5173") is None  # allowed
        for wrong in (
            "https://127.0.0.1:8000",  # same host and port, other scheme: was accepted by an http server
            "http://127.0.0.1:8001",  # other port
            "http://127.0.0.1",  # port 80
            "http://localhost:8000",  # other host
            "https://localhost:5173",  # the allowed origin's host and port with another scheme
            "http://localhost:5174",
            "null",
        ):
            assert _ws_outcome(c, url, wrong) == 4401, wrong
    app2 = create_app(f"sqlite+aiosqlite:///{tmp_path / 'k2.db'}", bot_mode="thread", bot_workers=1)
    with TestClient(app2, base_url="https://kortbord.example") as c:
        url = f"wss://kortbord.example/ws/games/{new_game(c, game='cribbage')['game_id']}"
        assert _ws_outcome(c, url, "https://kortbord.example") is None  # wss:// from an https page, port 443
        assert _ws_outcome(c, url, "https://kortbord.example:443") is None
        assert _ws_outcome(c, url, "http://kortbord.example") == 4401
        assert _ws_outcome(c, url, "https://kortbord.example:8443") == 4401


# -- a strict create schema --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "mulle", "seats": []}, "2 seats, got 0"),  # was turned into the default seats
        ({"game": "mulle", "players": 3, "seats": []}, "3 seats, got 0"),
        ({"game": "mulle", "seats": [{"kind": "human"}]}, "2 seats, got 1"),
        ({"game": "mulle", "seats": [{"kind": "human"}] * 3}, "2 seats, got 3"),
        ({"game": "mulle", "seats": [{"kind": "human"}] * 5}, "seats"),
        ({"game": "mulle", "seats": None}, "seats"),
        ({"game": "mulle", "players": 4, "teams": 0}, "teams"),  # was accepted
        ({"game": "mulle", "players": 4, "teams": 1}, "teams"),
        ({"game": "mulle", "players": 4, "teams": "yes"}, "teams"),
        ({"game": "mulle", "players": 4, "teams": "true"}, "teams"),
        ({"game": "mulle", "players": 4, "teams": None}, "teams"),
        ({"game": "cribbage", "players": 4, "partnership": 1}, "partnership"),
        ({"game": "cribbage", "players": 4, "partnership": "false"}, "partnership"),
        ({"game": "mulle", "players": "2"}, "players"),
        ({"game": "mulle", "players": 2.0}, "players"),
        ({"game": "mulle", "players": True}, "players"),
        ({"game": "mulle", "players": None}, "players"),
        ({"game": "mulle", "rules": None}, "rules"),
    ],
)
def test_create_schema_is_strict(tmp_path: Path, body: dict[str, Any], words: str) -> None:
    with make_client(tmp_path) as c:
        r = c.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "bad_request" and words in err["message"], err
        assert c.get("/api/games").json() == []  # nothing was created


def test_strict_schema_still_takes_what_it_should(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        s = c.get(f"/api/games/{new_game(c, game='mulle')['game_id']}").json()  # seats absent: you and a bot
        assert [x["kind"] for x in s["seats"]] == ["human", "bot"]
        g = new_game(c, game="mulle", players=4, teams=True, seats=[{"kind": "human"}] * 4)
        s = c.get(f"/api/games/{g['game_id']}").json()
        assert s["teams"] is True and len(s["seats"]) == 4 and len(g["invites"]) == 3
        s = c.get(f"/api/games/{new_game(c, game='mulle', players=4, teams=False)['game_id']}").json()
        assert s["teams"] is False and [x["kind"] for x in s["seats"]] == ["human", "bot", "bot", "bot"]
        assert new_game(c, game="cribbage", players=4, partnership=True)["seat"] == 0


# -- every error answer in the OpenAPI schema --------------------------------------------------------------------
def test_openapi_lists_every_error_answer(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        schema = c.get("/openapi.json").json()
    paths = schema["paths"]
    expected = {
        ("get", "/api/options/{game}"): {"404", "422"},
        ("post", "/api/games"): {"400", "413", "422", "429"},
        ("get", "/api/games"): {"422"},
        ("get", "/api/games/{game_id}"): {"404", "422"},
        ("post", "/api/games/{game_id}/join"): {"400", "403", "404", "409", "413", "422", "429"},
        ("get", "/api/games/{game_id}/record"): {"404", "409", "422"},
    }
    for (method, path), errors in expected.items():
        responses = paths[path][method]["responses"]
        assert {s for s in responses if s.startswith(("4", "5"))} == errors, (method, path, sorted(responses))
        for status in errors:  # each with the one error body, never FastAPI's default validation shape
            ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/ErrorBody", (method, path, status, ref)
    body = schema["components"]["schemas"]["ErrorBody"]
    assert body["required"] == ["error"]
    assert set(schema["components"]["schemas"]["ErrorDetail"]["required"]) == {"code", "message"}
    create = schema["components"]["schemas"]["CreateGame"]["properties"]
    assert {"type": "boolean"} in create["teams"]["anyOf"]
    assert create["players"]["type"] == "integer"


def test_error_answers_match_the_schema(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human"}])
        answers = [
            c.get("/api/options/poker"),  # 404
            c.get("/api/games/nosuch"),  # 404
            c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": "wrong"}),  # 403
            c.get(f"/api/games/{g['game_id']}/record"),  # 409
            c.get("/api/games", params={"limit": "many"}),  # 422
            c.post("/api/games", json={"game": "mulle", "teams": 0}),  # 422
        ]
        assert [r.status_code for r in answers] == [404, 404, 403, 409, 422, 422]
        for r in answers:
            err = r.json()["error"]
            assert set(err) <= {"code", "message", "reason"} and {"code", "message"} <= set(err), r.text


# -- Allow on 405 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("POST", "/api/health", "GET"),
        ("DELETE", "/api/games", "GET, POST"),
        ("PUT", "/api/games", "GET, POST"),
        ("PUT", "/api/games/abc/join", "POST"),
        ("GET", "/api/games/abc/join", "POST"),  # was a 404 from the page's files
        ("POST", "/api/games/abc", "GET"),
        ("DELETE", "/api/games/abc/record", "GET"),
        ("POST", "/api/options/mulle", "GET"),
        ("POST", "/index.html", "GET, HEAD"),  # the page's files
        ("DELETE", "/cards/x.png", "GET, HEAD"),
    ],
)
def test_405_says_which_methods_are_allowed(tmp_path: Path, method: str, path: str, allow: str) -> None:
    with make_client(tmp_path) as c:
        r = c.request(method, path)
        assert r.status_code == 405, r.text
        assert r.headers["allow"] == allow
        assert r.json()["error"]["code"] == "method_not_allowed"


def test_an_unknown_api_path_is_404_not_405(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        for method in ("GET", "POST", "DELETE"):
            r = c.request(method, "/api/nothing")
            assert r.status_code == 404 and "allow" not in r.headers, (method, r.text)
            assert r.json()["error"]["code"] == "not_found"


# every route of the API, from its own OpenAPI schema: each path asked with each method it does not answer
_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def test_every_api_route_answers_405_with_allow_to_a_method_it_does_not_take(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        paths = c.get("/openapi.json").json()["paths"]
        assert "/api/stats" in paths and "/api/levels/{game}" in paths  # the routes of the included router too
        asked = 0
        for template, ops in paths.items():
            path = template.replace("{game}", "mulle").replace("{game_id}", "abc")
            allowed = sorted(m.upper() for m in ops)
            for method in _METHODS:
                if method in allowed:
                    continue
                r = c.request(method, path)
                assert r.status_code == 405, (method, path, r.status_code, r.text)
                assert r.headers["allow"] == ", ".join(allowed), (method, path)
                assert r.json()["error"]["code"] == "method_not_allowed"
                asked += 1
        assert asked >= 30
