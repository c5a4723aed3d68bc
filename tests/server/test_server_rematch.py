"""The table after a game and across reconnects: a page that (re)connects gets the game's whole history (the
first deal's events included) with ``{"type": "resync", "history": true}``, the join page can check an invite without spending it, and a finished game offers a
rematch with the same rules and seats, the first deal passing to the next seat (docs/protocol.md)."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

from server_helpers import card_strings, make_client, new_game, play_random, receive_state


def _with_history(ws: Any) -> dict[str, Any]:
    """The first state message, then the one a page asks for on connecting: the same state with the history."""
    first = receive_state(ws)
    assert "history" not in first
    ws.send_json({"type": "resync", "history": True})
    again = receive_state(ws)
    assert {k: v for k, v in again.items() if k != "history"} == first
    return again


def _two_humans(c: Any, game: str, **body: Any) -> tuple[dict[str, Any], str]:
    g = new_game(c, game=game, seats=[{"kind": "human", "name": "Anna"}, {"kind": "human"}], **body)
    joined = c.post(
        f"/api/games/{g['game_id']}/join", json={"invite_code": g["invites"][0]["invite_code"], "name": "Bo"}
    )
    assert joined.status_code == 200, joined.text
    return g, joined.json()["token"]


def test_history_on_connect_holds_every_event_and_no_hidden_card(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g, token1 = _two_humans(c, "cribbage", rules={"target": 61})
        url = f"/ws/games/{g['game_id']}"
        with c.websocket_connect(f"{url}?token={g['token']}") as ws0:
            first = _with_history(ws0)
            # the first deal is part of the game's story: the cut for deal, the dealer, the deal (spec §2.3)
            kinds = [e["kind"] for e in first["history"]]
            assert kinds[:3] == ["cut", "dealer", "deal"], kinds
            assert first["events"] == []
            mover = first["to_act"]
            token = g["token"] if mover == 0 else token1
        with c.websocket_connect(f"{url}?token={token}") as ws:
            msg = receive_state(ws)
            ws.send_json({"type": "move", "version": 0, "move": msg["legal_moves"][0]["notation"]})
            moved = receive_state(ws)
            assert moved["events"] == [{"kind": "discard", "seat": mover, "count": 2}]
            assert "history" not in moved  # only on connecting and on a resync that asks for it
            ws.send_json({"type": "resync", "history": True})
            again = receive_state(ws)
            assert again["history"] == first["history"] + moved["events"]
        # a reconnecting seat, and a spectator, get the same public history; it names no card of a hand
        with c.websocket_connect(url) as spectator:
            seen = _with_history(spectator)
            assert seen["history"] == again["history"]
            # so far only the two cards cut for the deal are named (shuffled back: no hand card, no discard)
            cut = next(e["cards"] for e in seen["history"] if e["kind"] == "cut")
            assert card_strings(seen["history"]) == set(cut)


def test_invite_check_does_not_spend_the_code(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game="mulle", seats=[{"kind": "human", "name": "Anna"}, {"kind": "human"}])
        gid, code = g["game_id"], g["invites"][0]["invite_code"]
        for _ in range(2):
            r = c.post(f"/api/games/{gid}/invite", json={"invite_code": code})
            assert r.status_code == 200 and r.json()["seat"] == 1
        assert c.post(f"/api/games/{gid}/invite", json={"invite_code": "nope"}).json()["error"]["code"] == "bad_invite"
        assert c.post(f"/api/games/{gid}/join", json={"invite_code": code}).status_code == 200
        used = c.post(f"/api/games/{gid}/invite", json={"invite_code": code})
        assert used.status_code == 403 and used.json()["error"]["code"] == "bad_invite"


def _finish(c: Any, url: str, tokens: list[str], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        opened = [stack.enter_context(c.websocket_connect(f"{url}?token={t}")) for t in tokens]
        msgs = [receive_state(w) for w in opened]
        while msgs[0]["status"] != "over":
            to_act = msgs[0]["to_act"]
            m = msgs[to_act]
            move = rng.choice(m["legal_moves"])["notation"]
            opened[to_act].send_json({"type": "move", "version": m["version"], "move": move})
            msgs = [receive_state(w) for w in opened]
        return msgs[0]


def test_rematch_same_rules_next_dealer_and_the_other_person_is_asked(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g, token1 = _two_humans(c, "cribbage", rules={"target": 61, "muggins": False})
        gid = g["game_id"]
        url = f"/ws/games/{gid}"
        early = c.post(f"/api/games/{gid}/rematch", json={"token": g["token"]})
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
        assert _finish(c, url, [g["token"], token1], 7)["status"] == "over"
        with c.websocket_connect(url) as spectator:
            hist = _with_history(spectator)["history"]
        first_dealer = next(e["seat"] for e in hist if e["kind"] == "dealer")
        assert c.post(f"/api/games/{gid}/rematch", json={"token": "bad"}).status_code == 403
        # Bo (seat 1) asks: a new game, same rules and seats, Bo's seat taken, Anna's waiting for her -- with no
        # invite code: she takes it by asking with her own token of this game
        r = c.post(f"/api/games/{gid}/rematch", json={"token": token1})
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["seat"] == 1 and new["token"] and new["invites"] == []
        summary = c.get(f"/api/games/{new['game_id']}").json()
        old = c.get(f"/api/games/{gid}").json()
        assert summary["rules"] == old["rules"] and summary["status"] == "waiting"
        assert [s["name"] for s in summary["seats"]] == ["Anna", "Bo"]
        assert [s["claimed"] for s in summary["seats"]] == [False, True]
        # Anna's page is told, and Bo's: the new game and who asked, never a secret
        with (
            c.websocket_connect(f"{url}?token={g['token']}") as anna,
            c.websocket_connect(f"{url}?token={token1}") as bo,
        ):
            offer_a = receive_state(anna)["rematch"]
            offer_b = receive_state(bo)["rematch"]
        assert offer_a == offer_b == {"game_id": new["game_id"], "by": 1}
        # asking again is the same answer: the same game, seat and token
        again = c.post(f"/api/games/{gid}/rematch", json={"token": token1})
        assert again.status_code == 201 and again.json() == new
        took = c.post(f"/api/games/{gid}/rematch", json={"token": g["token"]})
        assert took.status_code == 201 and took.json()["seat"] == 0 and took.json()["game_id"] == new["game_id"]
        assert took.json()["token"] not in (g["token"], new["token"]) and took.json()["invites"] == []
        twice = c.post(f"/api/games/{gid}/rematch", json={"token": g["token"]})
        assert twice.status_code == 201 and twice.json() == took.json()  # Anna asking twice: no 403
        assert c.get(f"/api/games/{new['game_id']}").json()["status"] == "playing"
        with c.websocket_connect(f"/ws/games/{new['game_id']}?token={took.json()['token']}") as ws:
            msg = _with_history(ws)
            assert msg["status"] == "playing"
            # the next dealer: the seat after the last game's first dealer, no cut for deal (spec §2.3)
            assert msg["view"]["dealer"] == (first_dealer + 1) % 2
            assert [e["kind"] for e in msg["history"]][:1] == ["deal"]


def test_rematch_against_the_computer_replays_after_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path, label="rm") as c:
        g = new_game(
            c,
            game="mulle",
            rules={"game_length": "single_round"},
            seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
        )
        url = f"/ws/games/{g['game_id']}"
        with c.websocket_connect(f"{url}?token={g['token']}") as ws:
            play_random(ws, random.Random(3))
        r = c.post(f"/api/games/{g['game_id']}/rematch", json={"token": g["token"]}).json()
        assert r["invites"] == []
        with c.websocket_connect(f"/ws/games/{r['game_id']}?token={r['token']}") as ws:
            dealer = receive_state(ws)["view"]["dealer"]
    # a restarted server replays the rematch with the same fixed first dealer
    with (
        make_client(tmp_path, label="rm2") as c,
        c.websocket_connect(f"/ws/games/{r['game_id']}?token={r['token']}") as ws,
    ):
        assert receive_state(ws)["view"]["dealer"] == dealer


def test_a_rematch_offer_is_stored_and_no_invite_code_reaches_a_client(tmp_path: Path) -> None:
    with make_client(tmp_path, label="rs") as c:
        g, token1 = _two_humans(c, "mulle", rules={"game_length": "single_round"})
        gid = g["game_id"]
        url = f"/ws/games/{gid}"
        _finish(c, url, [g["token"], token1], 11)
        asked = c.post(f"/api/games/{gid}/rematch", json={"token": g["token"]})
        assert asked.status_code == 201
        new = asked.json()
    # a restarted server knows the offer: Bo's page is told, and his asking takes his seat (and again: the same)
    seen: list[dict[str, Any]] = []
    with make_client(tmp_path, label="rs2") as c:
        with c.websocket_connect(f"{url}?token={token1}") as bo:
            msg = receive_state(bo)
            seen.append(msg)
            assert msg["rematch"] == {"game_id": new["game_id"], "by": 0}
        answers = [c.post(f"/api/games/{gid}/rematch", json={"token": token1}) for _ in range(2)]
        assert [a.status_code for a in answers] == [201, 201] and answers[0].json() == answers[1].json()
        assert answers[0].json()["game_id"] == new["game_id"] and answers[0].json()["seat"] == 1
        # Anna asking again after the restart: the same game and token as before it
        assert c.post(f"/api/games/{gid}/rematch", json={"token": g["token"]}).json() == new
        for token in (g["token"], token1):
            with c.websocket_connect(f"{url}?token={token}") as ws:
                seen.append(receive_state(ws))
                ws.send_json({"type": "resync", "history": True})
                seen.append(receive_state(ws))
        seen.append(c.get(f"/api/games/{gid}").json())
        seen.append(c.get(f"/api/games/{new['game_id']}").json())
    assert all("invite_code" not in str(m) and "invite" not in str(m.get("rematch", "")) for m in seen), seen
