"""A hostile client's input the web table must refuse with a clear error, changing nothing (issue #11/#12, server
side; ``docs/protocol.md``): names with control characters (PostgreSQL cannot store NUL; a line break or an
escape sequence in a name would reach logs and terminals), and the aids' heavy work bounded server-wide."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_helpers import make_client, new_game

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
