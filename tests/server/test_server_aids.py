"""The table's aids (kortbord.server.aids) and statistics (kortbord.server.stats), issue #11 items 7-9.

* the discard advisor's hand averages equal a brute force over the unseen starters, scored by the show rules of
  ``spec/rules/cribbage.md`` §2.5 written out again here (checked on the 29 hand, the rules' best hand);
* a hint is a legal move of the seat to act and its reason names no card the seat cannot see;
* in a game between people the aids wait until every person agrees;
* a finished game counts in the statistics of its named players.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from brute_cribbage import RANKS, show_by_the_rules
from server_helpers import card_strings, make_client, new_game, receive_state

from kortbord import core
from kortbord.server.aids import discard_advice, hint_reason, mulle_advice
from kortbord.server.rng import DeterministicCSPRNG
from kortbord.server.sessions import run_chance
from kortbord.server.stats import summarise


def test_the_brute_force_scorer_knows_the_rules_hands() -> None:
    assert show_by_the_rules(["5H", "5D", "5S", "JC"], "5C") == 29  # the best hand (spec §2.5)
    assert (
        show_by_the_rules(["4H", "5H", "6H", "7H"], "8C") == 4 + 5 + 4
    )  # fifteens 4+5+6 and 7+8, a run of five, a four-card flush
    assert show_by_the_rules(["AS", "3D", "7C", "9H"], "KD") == 0  # a nineteen


def _discard_view(seed: int) -> Any:
    spec = core.get("cribbage")
    rules = spec.make_rules({}, players=2, teams=False)
    state = spec.new_game(rules, players=2, teams=False)
    rng = random.Random(seed)
    while spec.is_chance(state):
        state, _ = spec.step(state, spec.chance_outcome(state, rng))
    return spec.view(state, spec.to_act(state))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_discard_advice_hand_points_are_exact_averages_over_the_46_starters(seed: int) -> None:
    view = _discard_view(seed)
    hand = [str(c) for c in view.hand]
    assert len(hand) == 6
    unseen = [r + s for r in RANKS for s in "SHDC" if r + s not in hand]
    assert len(unseen) == 46
    advice = discard_advice(view)
    assert len(advice) == 15  # every pair of the six cards
    for row in advice:
        kept = [c for c in hand if c not in row["discard"]]
        assert sorted(kept) == sorted(row["keep"])
        exact = Fraction(sum(show_by_the_rules(kept, s) for s in unseen), 46)
        assert row["hand"] == pytest.approx(float(exact), abs=1e-4)
        assert row["net"] == pytest.approx(row["hand"] + (row["crib"] if row["own_crib"] else -row["crib"]), abs=2e-4)
    assert [r["net"] for r in advice] == sorted((r["net"] for r in advice), reverse=True)


def _visible(view_json: dict[str, Any]) -> set[str]:
    """Every card a seat's view shows it (its hand, the table, piles, the play, the starter...)."""
    return card_strings({k: v for k, v in view_json.items() if k not in ("legal_moves",)})


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_hint_reasons_name_only_cards_the_seat_sees(game: str) -> None:
    spec = core.get(game)
    opts = {"muggins": True} if game == "cribbage" else {}
    rules = spec.make_rules(opts, players=2, teams=False)
    state = spec.new_game(rules, players=2, teams=False)
    rng = random.Random(11)
    checked = 0
    for _ in range(20000):
        if checked >= 150:
            break
        if spec.is_over(state):  # random counts under Muggins end games fast: another game
            state = spec.new_game(rules, players=2, teams=False)
        if spec.is_chance(state):
            state, _ = spec.step(state, spec.chance_outcome(state, rng))
            continue
        seat = spec.to_act(state)
        view = spec.view(state, seat)
        legal = spec.legal_moves(state)
        move = rng.choice(legal)
        reason = hint_reason(spec, view, move, random.Random(checked))
        assert reason["code"]
        if game == "cribbage":
            # what a card pegs depends only on the cards played (public), never on the sampled hidden cards: the
            # same reason in another sampled world (the last card must not count a sampled show)
            assert hint_reason(spec, view, move, random.Random(checked + 10_000)) == reason, str(move)
        assert card_strings(reason) <= _visible(view.to_json()), (reason, str(move))
        if game == "mulle":
            adv = mulle_advice(view)
            assert card_strings(adv) <= _visible(view.to_json())
            assert set(adv["unseen"].values()) <= {0, 1}
        checked += 1
        state, _ = spec.step(state, move)
    assert checked >= 150


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        if msg["type"] == "error":
            return msg
    raise AssertionError(f"no {kind} message")


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_a_hint_is_a_legal_move_from_the_strong_computer(tmp_path: Path, game: str) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game=game, seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={g['token']}") as ws:
            msg = receive_state(ws)
            while not msg["legal_moves"]:
                msg = receive_state(ws)
            ws.send_json({"type": "hint"})
            hint = _until(ws, "hint")
            assert hint["type"] == "hint", hint
            assert hint["version"] == msg["version"]
            assert hint["move"] in [m["notation"] for m in msg["legal_moves"]]
            assert card_strings(hint["reason"]) <= _visible(msg["view"])
            ws.send_json({"type": "advice"})
            advice = _until(ws, "advice")
            assert advice["type"] == "advice" and advice["version"] == msg["version"]
            if game == "cribbage":
                assert len(advice["discards"]) == 15
            else:
                assert set(advice["unseen"]) <= _visible(msg["view"])


def test_aids_between_people_wait_until_every_person_agrees(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game="cribbage", seats=[{"kind": "human"}, {"kind": "human"}])
        code = g["invites"][0]["invite_code"]
        joined = c.post(f"/api/games/{g['game_id']}/join", json={"invite_code": code}).json()
        with (
            c.websocket_connect(f"/ws/games/{g['game_id']}?token={g['token']}") as a,
            c.websocket_connect(f"/ws/games/{g['game_id']}?token={joined['token']}") as b,
        ):
            receive_state(a)
            receive_state(b)
            a.send_json({"type": "advice"})
            assert _until(a, "advice")["code"] == "aids_off"
            a.send_json({"type": "aids", "agree": True})
            status = _until(a, "aids")
            assert status["allowed"] is False and status["agreed"] == [0]
            assert _until(b, "aids") == status  # every player hears who agreed
            b.send_json({"type": "aids", "agree": True})
            status = _until(b, "aids")
            assert status["allowed"] is True and status["agreed"] == [0, 1]
            a.send_json({"type": "advice"})
            assert _until(a, "advice")["type"] == "advice"


def test_statistics_count_a_finished_game_of_a_named_player(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(
            c,
            game="cribbage",
            rules={"target": 61},
            seats=[{"kind": "human", "name": "Anna"}, {"kind": "bot", "level": "greedy"}],
        )
        rng = random.Random(5)
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={g['token']}") as ws:
            for _ in range(5000):
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg["status"] == "over":
                    break
                if msg["legal_moves"]:
                    move = rng.choice(msg["legal_moves"])["notation"]
                    ws.send_json({"type": "move", "version": msg["version"], "move": move})
            ws.send_json({"type": "review"})
            review = _until(ws, "review")
        won = 0 in msg["result"]["winners"]
        # The review: decisions of seat 0 where the strong computer would have played another legal move.
        assert review["type"] == "review" and review["checked"] > 0, review
        record = c.get(f"/api/games/{g['game_id']}/record").json()
        plies = {it["ply"]: it for it in review["items"]}
        assert plies, "random play is never the strong computer's choice at every decision"
        spec = core.get("cribbage")
        rules = spec.make_rules(record["rules"], players=2)
        rng = DeterministicCSPRNG(record["seed"])
        state, _ = run_chance(spec, spec.new_game(rules, players=2), rng)
        for ply, text in enumerate(record["moves"], 1):
            if ply in plies:
                item = plies[ply]
                legal = [str(m) for m in spec.legal_moves(state)]
                assert spec.to_act(state) == 0 and text == item["played"]
                assert item["best"] in legal and item["best"] != item["played"]
                # a cost in game points, or (a play the strong computer makes to win) a chance of winning given away
                assert item["cost"] > 0 or item.get("chance", 0) >= 1, item
                assert abs(item["cost"]) < 61  # points of a deal at most, never the search's bonus for the game
                assert item["kind"] == ("discard" if text.startswith("discard") else "play"), item
            state, _ = spec.step(state, spec.parse_move(state, text))
            state, _ = run_chance(spec, state, rng)
        rows: list[dict[str, Any]] = []
        for _ in range(50):
            rows = c.get("/api/stats", params={"name": "Anna"}).json()["rows"]
            if rows:
                break
            time.sleep(0.1)
        assert rows == [
            {
                "game": "cribbage",
                "level": "greedy",
                "variant": "61",
                "played": 1,
                "won": int(won),
                "streak": int(won),
                "best": int(won),
            }
        ]
        assert c.get("/api/stats", params={"name": "Nobody"}).json()["rows"] == []
        levels = c.get("/api/levels/cribbage").json()["levels"]
        assert {lv["level"] for lv in levels} >= {"random", "greedy", "strong"}
        assert not next(lv for lv in levels if lv["level"] == "strong")["miscounts"]
        assert c.get("/api/levels/chess").status_code == 404


def test_streaks() -> None:
    rows = [("mulle", "strong", "x", w) for w in (True, True, False, True)]
    assert summarise(rows) == [
        {"game": "mulle", "level": "strong", "variant": "x", "played": 4, "won": 3, "streak": 1, "best": 2}
    ]


def test_a_burst_of_hints_is_answered_once_at_a_time_and_odd_types_are_refused(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        g = new_game(c, game="mulle", seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with c.websocket_connect(f"/ws/games/{g['game_id']}?token={g['token']}") as ws:
            msg = receive_state(ws)
            while not msg["legal_moves"]:
                msg = receive_state(ws)
            for bad in ([], {}, ["hint"], 3, None):
                ws.send_json({"type": bad})
                err = _until(ws, "error")
                assert err["type"] == "error" and err["code"] == "bad_message", err
            for _ in range(5):  # one hint is thought about at a time per seat: the others are told to wait
                ws.send_json({"type": "hint"})
            answers = [_until(ws, "hint") for _ in range(5)]
            hints = [a for a in answers if a["type"] == "hint"]
            busy = [a for a in answers if a["type"] == "error" and a["code"] == "busy"]
            assert len(hints) + len(busy) == 5 and len(hints) >= 1 and len(busy) >= 1, answers
            ws.send_json({"type": "ping"})  # the connection is still served
            assert _until(ws, "pong")["type"] == "pong"
