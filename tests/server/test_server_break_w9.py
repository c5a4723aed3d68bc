"""The breaker pass of w9 (a hostile or clumsy person at the web table), server side: each bad input gets a clear
error and changes nothing, and what a person types means what the page shows.

* Names with a text-direction control (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates) are refused
  like control characters: left open in a name, an override turns the text the page shows after the name around
  (``"\\u202etxt.exe"`` shows as ``exe.txt``, and the score beside it is reversed: "0 :exe.txt").
* A name of white space only is no name (the page says "Player 2", not an empty name), and the white space
  around a name is left out, so ``" Anna "`` is Anna's statistics.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from server_helpers import make_client, new_game

#: RLO (the "exe.txt" spoof), LRO, RLE, PDF, and the isolates RLI / FSI / PDI.
DIRECTION = ["\u202etxt.exe", "Anna\u202d", "\u202bx", "a\u202cb", "\u2067Bob", "\u2068Eve\u2069", "x\u2066"]


@pytest.mark.parametrize("name", DIRECTION)
def test_a_name_with_a_text_direction_control_is_refused_everywhere_and_changes_nothing(
    tmp_path: Path, name: str
) -> None:
    with make_client(tmp_path) as c:
        for body in (
            {"game": "mulle", "name": name},
            {"game": "mulle", "seats": [{"kind": "human", "name": name}, {"kind": "bot", "level": "greedy"}]},
        ):
            r = c.post("/api/games", json=body)
            assert r.status_code == 422, r.text
            err = r.json()["error"]
            assert err["code"] == "bad_request" and "text-direction" in err["message"], err
        assert c.get("/api/games").json() == []  # nothing was created
        g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human"}])
        code = g["invites"][0]["invite_code"]
        r = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code, "name": name})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", r.text
        assert "text-direction" in r.json()["error"]["message"]
        # the invite was not spent and the seat is still free
        assert c.post(f"/api/games/{g['game_id']}/invite", json={"invite_code": code}).json()["seat"] == 1
        summary = c.get(f"/api/games/{g['game_id']}").json()
        assert summary["status"] == "waiting" and "name" not in summary["seats"][1]
        r = c.get("/api/stats", params={"name": name})
        assert r.status_code == 422 and "text-direction" in r.json()["error"]["message"], r.text


#: White space a person may type (spaces, a tab is a control and refused), a no-break space, an ideographic space,
#: a zero-width space.
BLANKS = [" ", "   ", "\u00a0", "\u3000 ", "\u200b", " \u200b "]


@pytest.mark.parametrize("blank", BLANKS)
def test_a_name_of_white_space_only_is_no_name(tmp_path: Path, blank: str) -> None:
    with make_client(tmp_path) as c:
        g = new_game(
            c,
            game="cribbage",
            name=blank,
            seats=[{"kind": "human", "name": blank}, {"kind": "human"}],
        )
        code = g["invites"][0]["invite_code"]
        r = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code, "name": blank})
        assert r.status_code == 200, r.text
        summary = c.get(f"/api/games/{g['game_id']}").json()
        assert summary["name"] is None
        assert [s.get("name") for s in summary["seats"]] == [None, None]
        assert summary["seats"][1]["claimed"] is True  # the seat was taken all the same
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={g['token']}") as ws:
            state = ws.receive_json()
        assert state["type"] == "state" and all("name" not in s for s in state["seats"])
        r = c.get("/api/stats", params={"name": blank})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", r.text


def test_the_white_space_around_a_name_is_left_out(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(
            c,
            game="mulle",
            name="  Friday game ",
            seats=[{"kind": "human", "name": " Anna\u00a0"}, {"kind": "human"}],
        )
        code = g["invites"][0]["invite_code"]
        assert (
            c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code, "name": "\u200bBo b "}).status_code
            == 200
        )
        summary = c.get(f"/api/games/{g['game_id']}").json()
        assert summary["name"] == "Friday game"
        assert [s["name"] for s in summary["seats"]] == ["Anna", "Bo b"]  # inside a name, spaces stay
        assert c.get("/api/stats", params={"name": "  Anna "}).json() == {"name": "Anna", "rows": []}
        # still no more than 40 characters as typed
        r = c.post(
            "/api/games",
            json={"game": "mulle", "seats": [{"kind": "human", "name": "a" * 41}, {"kind": "bot", "level": "greedy"}]},
        )
        assert r.status_code == 422, r.text


#: Numbers Python's ``int`` reads but move notation does not write: an underscore, a plus sign, Arabic-Indic and
#: full-width digits (the count was taken as 12 and stored as "count 12").
ODD_NUMBERS = ["1_2", "+12", "\u0661\u0662", "\uff11\uff12", "12.0", "1e1", "0x0c"]


def test_a_muggins_count_in_odd_digits_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with make_client(tmp_path, label="odd-digits") as c:
        g = new_game(c, game="cribbage", rules={"muggins": True}, seats=[{"kind": "human"}, {"kind": "human"}])
        code = g["invites"][0]["invite_code"]
        other = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code}).json()["token"]
        url = f"/ws/games/{g['game_id']}?token="
        with c.websocket_connect(url + g["token"]) as a, c.websocket_connect(url + other) as b:
            socks = [a, b]
            last = [a.receive_json(), b.receive_json()]
            for _ in range(200):  # first legal moves (both seats) to the first count of the show
                mover = next(i for i in (0, 1) if last[i]["legal_moves"])
                kinds = {m["kind"] for m in last[mover]["legal_moves"]}
                if "announce" in kinds:
                    break
                ws = socks[mover]
                ws.send_json(
                    {
                        "type": "move",
                        "version": last[mover]["version"],
                        "move": last[mover]["legal_moves"][0]["notation"],
                    }
                )
                last = [a.receive_json(), b.receive_json()]
            else:
                raise AssertionError("the show did not come")
            ws, state = socks[mover], last[mover]
            assert state["view"]["phase"] == "show"
            for word in ODD_NUMBERS:
                ws.send_json({"type": "move", "version": state["version"], "move": f"count {word}"})
                err = ws.receive_json()
                assert err["type"] == "error" and err["code"] == "malformed", (word, err)
                assert "whole number" in err["message"] and err["version"] == state["version"], err
            ws.send_json({"type": "resync"})
            again = ws.receive_json()
            assert again["version"] == state["version"] and again["view"] == state["view"]  # nothing changed
            ws.send_json({"type": "move", "version": state["version"], "move": "count 012"})  # ASCII digits: taken
            after = ws.receive_json()
            assert after["type"] == "state" and after["version"] == state["version"] + 1, after
            assert after["view"]["announced"] == 12
            assert c.get(f"/api/games/{g['game_id']}").json()["version"] == state["version"] + 1
