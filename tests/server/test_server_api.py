"""REST API of the web table (docs/protocol.md): lobby options, creating, listing and joining games, records,
and every kind of bad request -- each a clear error that changes nothing."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import make_client, new_game

from kortbord import cribbage, mulle
from kortbord.server.sessions import replay_record


def test_health_and_options(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        assert c.get("/api/health").json()["ok"] is True
        for game, rules_cls in (("mulle", mulle.Rules), ("cribbage", cribbage.Rules)):
            doc = c.get(f"/api/options/{game}").json()
            assert doc["game"] == game and "greedy" in doc["bot_levels"] and "random" in doc["bot_levels"]
            std = rules_cls()
            for opt in doc["options"]:
                assert opt["label_en"] and opt["label_sv"] and opt["help_en"] and opt["help_sv"]
                assert opt["default"] == getattr(std, opt["key"])  # the rules module's default
                # every offered choice is a value the rules module accepts
                for choice in opt.get("choices", [opt["default"]]):
                    rules_cls.from_dict({opt["key"]: choice})
        mulle_keys = {o["key"] for o in c.get("/api/options/mulle").json()["options"]}
        # every Mulle option except the ones the table fixes (profile; jokers are not implemented)
        assert mulle_keys == {f.name for f in dataclasses.fields(mulle.Rules)} - {"profile", "jokers"}
        r = c.get("/api/options/poker")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


def test_create_list_join(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(
            c,
            game="cribbage",
            players=3,
            rules={"target": 61},
            seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
        )
        assert g["seat"] == 0 and len(g["token"]) >= 40
        assert [i["seat"] for i in g["invites"]] == [1]
        inv = g["invites"][0]
        assert inv["url"] == f"/?join={g['game_id']}&invite={inv['invite_code']}"
        summary = c.get(f"/api/games/{g['game_id']}").json()
        assert summary["status"] == "waiting" and summary["rules"]["target"] == 61 and summary["players"] == 3
        assert [s["claimed"] for s in summary["seats"]] == [True, False, True]
        listing = c.get("/api/games")
        assert [x["game_id"] for x in listing.json()] == [g["game_id"]]
        text = listing.text + c.get(f"/api/games/{g['game_id']}").text
        for secret in (g["token"], inv["invite_code"]):
            assert secret not in text
        assert '"seed"' not in text
        # a wrong invite, then the right one, then the right one again (single use)
        bad = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": "nope"})
        assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_invite"
        ok = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": inv["invite_code"], "name": "Bo"})
        assert ok.status_code == 200 and ok.json()["seat"] == 1 and ok.json()["token"] != g["token"]
        again = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": inv["invite_code"]})
        assert again.status_code == 403
        summary = c.get(f"/api/games/{g['game_id']}").json()
        assert summary["status"] == "playing" and summary["seats"][1] == {
            "seat": 1,
            "kind": "human",
            "claimed": True,
            "name": "Bo",
        }
        assert c.post("/api/games/nosuchgame/join", json={"invite_code": "x"}).status_code == 404


def test_notices_and_default_seats(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game="cribbage", rules={"muggins": True, "lowball": True})
        assert any("Lowball" in n for n in g["notices"])
        s = c.get(f"/api/games/{g['game_id']}").json()
        assert s["rules"]["muggins"] is False and s["rules"]["lowball"] is True
        assert [x["kind"] for x in s["seats"]] == ["human", "bot"]
        g4 = new_game(c, game="mulle", players=4, teams=True, rules={"profile": "kryp"})
        s4 = c.get(f"/api/games/{g4['game_id']}").json()
        assert s4["teams"] is True and s4["rules"]["kryp"] is True and s4["rules"]["profile"] == "kryp"


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"game": "poker"}, 422, "bad_request", "game"),
        ({"game": "mulle", "players": 5}, 422, "bad_request", "players"),
        ({"game": "mulle", "players": 1}, 422, "bad_request", "players"),
        ({"game": "mulle", "players": 3, "seats": [{"kind": "human"}]}, 422, "bad_request", "3 seats"),
        (
            {"game": "mulle", "seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}]},
            422,
            "bad_request",
            "genius",
        ),
        ({"game": "mulle", "seats": [{"kind": "human"}, {"kind": "bot"}]}, 422, "bad_request", "level"),
        (  # an unknown level is refused with the game's levels named
            {"game": "cribbage", "seats": [{"kind": "human"}, {"kind": "bot", "level": "master"}]},
            422,
            "bad_request",
            "unknown bot level 'master'; choose random, beginner, casual, greedy, strong, expert",
        ),
        ({"game": "mulle", "seats": [{"kind": "human"}, {"kind": "alien"}]}, 422, "bad_request", "kind"),
        ({"game": "mulle", "rules": {"colour": "red"}}, 422, "bad_rules", "colour"),
        ({"game": "mulle", "rules": {"capture_duty": "sometimes"}}, 422, "bad_rules", "capture_duty"),
        ({"game": "mulle", "rules": {"jokers": True}}, 422, "bad_rules", "jokers"),
        ({"game": "mulle", "rules": {"profile": "nope"}}, 422, "bad_rules", "profile"),
        ({"game": "mulle", "rules": {"game_length": "target:" + "9" * 5000}}, 422, "bad_rules", "game_length"),
        ({"game": "mulle", "rules": {"profile": []}}, 422, "bad_rules", "profile name"),
        ({"game": "mulle", "rules": {"max_found_cards": 99}}, 422, "bad_rules", "max_found_cards"),
        ({"game": "cribbage", "rules": {"profile": []}}, 422, "bad_rules", "profile name"),
        ({"game": "cribbage", "rules": {"skunk_line": 90, "double_skunk_line": 100}}, 422, "bad_rules", "below"),
        ({"game": "cribbage", "rules": {"profile": {}}}, 422, "bad_rules", "profile name"),
        ({"game": "mulle", "players": 3, "teams": True}, 422, "bad_rules", "teams"),
        ({"game": "cribbage", "rules": {"target": 100}}, 422, "bad_rules", "target"),
        ({"game": "cribbage", "players": 4, "partnership": False}, 422, "bad_rules", "partners"),
        ({"game": "cribbage", "teams": True}, 422, "bad_request", "partnership"),
        ({"game": "mulle", "cheat": True}, 422, "bad_request", "cheat"),
        ({"game": "mulle", "rules": "standard"}, 422, "bad_request", "rules"),
    ],
)
def test_create_bad_input(tmp_path: Path, body: dict, status: int, code: str, words: str) -> None:
    with make_client(tmp_path) as c:
        r = c.post("/api/games", json=body)
        assert r.status_code == status, r.text
        err = r.json()["error"]
        assert err["code"] == code and words in err["message"], err
        assert c.get("/api/games").json() == []  # nothing was created


def test_malformed_and_oversized_bodies(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        r = c.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
        r = c.post("/api/games", content=b"[" + b"1," * 20000 + b"1]", headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        # a chunked upload declares no Content-Length: the limit holds on the bytes as they stream in
        rules = "{" + ",".join(f'"k{i}":{i}' for i in range(5000)) + "}"

        def chunked() -> Iterator[bytes]:
            body = ('{"game":"mulle","rules":' + rules + "}").encode()
            for i in range(0, len(body), 1024):
                yield body[i : i + 1024]

        r = c.post("/api/games", content=chunked(), headers={"content-type": "application/json"})
        assert "content-length" not in r.request.headers
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
        # JSON the parser cannot read safely: 400 bad_request saying why
        deep = '{"game":"mulle","rules":{"x":' + "[" * 5000 + "]" * 5000 + "}}"
        r = c.post("/api/games", content=deep.encode(), headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert "nested too deeply" in r.json()["error"]["message"]
        huge = '{"game":"mulle","rules":{"target":' + "9" * 5000 + "}}"
        r = c.post("/api/games", content=huge.encode(), headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert "digits" in r.json()["error"]["message"]
        assert c.get("/api/games/nosuch").status_code == 404
        assert c.get("/api/games/nosuch").json()["error"]["code"] == "not_found"
        assert c.get("/api/games").json() == []


def test_post_rate_limit(tmp_path: Path) -> None:
    with make_client(tmp_path, rest_rate=1.0, rest_burst=5.0) as c:
        codes = [c.post("/api/games", json={"game": "cribbage"}).status_code for _ in range(8)]
        assert codes[:5] == [201] * 5 and 429 in codes[5:]
        r = c.post("/api/games", json={"game": "cribbage"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert len(c.get("/api/games").json()) == codes.count(201)


def test_record_only_after_the_end_and_it_verifies(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(
            c,
            game="cribbage",
            rules={"target": 61},
            seats=[{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}],
        )
        assert g["seat"] is None and g["token"] is None  # the creator of a bot game watches
        r = c.get(f"/api/games/{g['game_id']}/record")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
        deadline = time.monotonic() + 120
        while c.get(f"/api/games/{g['game_id']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bot game did not finish"
            time.sleep(0.05)
        rec = c.get(f"/api/games/{g['game_id']}/record").json()
        assert hashlib.sha256(bytes.fromhex(rec["seed"])).hexdigest() == g["seed_commitment"]
        assert rec["rng"] == "sha256-ctr-v1" and rec["rules_version"] == cribbage.RULES_VERSION
        final = replay_record(rec)  # the revealed seed and the moves give the very game played
        assert cribbage.is_over(final)
        assert cribbage.SPEC.result(final).to_json() == rec["result"]  # the contract's result (per side)
        assert max(rec["result"]["scores"]) >= 61


def test_page_and_static_caching(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with make_client(tmp_path, static_dir=empty) as c:
        r = c.get("/")
        assert r.status_code == 200 and "page is missing" in r.text
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "cards").mkdir()
    (site / "index.html").write_text("<!doctype html><title>kortbord page</title>")
    (site / "assets" / "index-Ab12Cd34.js").write_text("console.log(1)")
    (site / "cards" / "9H.svg").write_text("<svg/>")
    with make_client(tmp_path, static_dir=site) as c:
        r = c.get("/")
        assert "kortbord page" in r.text and r.headers["cache-control"] == "no-cache"
        r = c.get("/assets/index-Ab12Cd34.js")
        assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
        assert "immutable" in c.get("/static/assets/index-Ab12Cd34.js").headers["cache-control"]
        r = c.get("/cards/9H.svg")
        assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=86400"
        assert c.get("/cards/nope.svg").status_code == 404


def test_the_page_travels_compressed_to_clients_that_accept_gzip(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "cards").mkdir()
    (site / "index.html").write_text("<!doctype html><title>kortbord page</title>")
    script = "".join(f"console.log('line {i}');\n" for i in range(400)).encode()  # 9.6 kB of script
    (site / "assets" / "index-Ab12Cd34.js").write_bytes(script)
    with make_client(tmp_path, static_dir=site) as c:
        r = c.get("/assets/index-Ab12Cd34.js", headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert int(r.headers["content-length"]) < len(script) // 4  # the wire size, before httpx unpacks it
        assert r.content == script and "immutable" in r.headers["cache-control"]
        plain = c.get("/assets/index-Ab12Cd34.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == script
        small = c.get("/", headers={"Accept-Encoding": "gzip"})  # under 1 KiB: not worth compressing
        assert "content-encoding" not in small.headers and "kortbord page" in small.text


def test_logs_never_show_seat_tokens(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """uvicorn logs every WebSocket's path with its query string: the token must not reach the log."""
    with make_client(tmp_path) as c, caplog.at_level(logging.INFO):
        logging.getLogger("uvicorn.error").info(
            '%s - "WebSocket %s" [accepted]', "127.0.0.1:5555", "/ws/games/abc?token=SECRETtoken123&x=1"
        )
        logging.getLogger("uvicorn.access").info("GET /?join=abc&invite=SECRETinvite HTTP/1.1")
        assert c.get("/api/health").status_code == 200
    text = caplog.text
    assert "SECRET" not in text and "token=***&x=1" in text and "invite=***" in text


@pytest.mark.parametrize(
    ("game", "level"), [("mulle", "strong"), ("mulle", "expert"), ("cribbage", "strong"), ("cribbage", "expert")]
)
def test_the_strong_computer_plays_at_the_table(tmp_path: Path, game: str, level: str) -> None:
    # The table offers the same levels as the terminal games and the arena (kortbord.bots.registry), strong
    # included (and both experts), and a search computer really moves: the game runs to its end.
    import random

    from server_helpers import play_random

    rules = {"game_length": "single_round"} if game == "mulle" else {"target": 61}
    with make_client(tmp_path) as c:
        levels = ["random", "beginner", "casual", "greedy", "strong", "expert"]
        assert c.get(f"/api/options/{game}").json()["bot_levels"] == levels
        created = new_game(
            c, game=game, rules=rules, players=2, seats=[{"kind": "human"}, {"kind": "bot", "level": level}]
        )
        with c.websocket_connect(f"/ws/games/{created['game_id']}?token={created['token']}") as ws:
            last = play_random(ws, random.Random(1))
        assert last["status"] == "over"
        if level == "expert" and game == "cribbage":  # it learns from the table: this game's own bot, told its record
            from kortbord.server import bots as server_bots

            assert any(key[0] == created["game_id"] for key in server_bots._READERS)
