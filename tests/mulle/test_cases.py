"""Every worked case of the rules spec (``../shared/rules/mulle_cases.json``, spec §6) as a test.

Expected values are the cases' own (legal-move sets, ``after`` facts); nothing here is copied from engine output.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mulle_helpers import case_position, load_cases
from typer.testing import CliRunner

from kortbord.cards import Card, full_deck
from kortbord.cli import app
from kortbord.mulle import (
    Rules,
    apply,
    apply_position,
    card_points,
    deal_plan,
    legal_moves,
    load_position,
    parse_move,
    parse_move_text,
    score_pile,
    step,
)
from kortbord.mulle.position import dump_position

CASES = load_cases()
MOVE_CASES = [c for c in CASES if "legal_moves" in c["expected"]]
AFTER_CASES = [c for c in MOVE_CASES if "after" in c["expected"]]
BY_ID = {c["id"]: c for c in CASES}
# Cases also run through the command-line contract (spec §5.4).
CLI_IDS = {"VAL-01", "MUL-01", "MUL-02", "MUL-07", "OBL-03", "END-01", "BLD-03b", "CAP-07"}


def test_every_case_is_covered() -> None:
    assert len(CASES) >= 30
    handled = {c["id"] for c in MOVE_CASES} | {"MUL-10", "SCO-02", "SCO-03", "DEAL-01", "GAME-01"}
    assert {c["id"] for c in CASES} == handled


@pytest.mark.parametrize("case", MOVE_CASES, ids=[c["id"] for c in MOVE_CASES])
def test_legal_move_set(case: dict[str, Any]) -> None:
    state = load_position(case_position(case))
    got = legal_moves(state)
    assert len(got) == len(set(got)), "legal moves must be deduplicated"
    expected = {parse_move_text(m) for m in case["expected"]["legal_moves"]}
    assert set(got) == expected


def _check_after(case: dict[str, Any], out: dict[str, Any]) -> None:
    after = case["expected"]["after"]
    for key, want in after.items():
        if key.startswith("captured_by_"):
            assert out["last_capturer"] == key.removeprefix("captured_by_")
            assert sorted(out["captured"]) == sorted(want)
        elif key == "table":
            assert sorted(out["position"]["table"]) == sorted(want)
        else:
            assert out[key] == want, key


@pytest.mark.parametrize("case", AFTER_CASES, ids=[c["id"] for c in AFTER_CASES])
def test_after_facts(case: dict[str, Any]) -> None:
    move = case["expected"]["legal_moves"][0]
    _check_after(case, apply_position(case_position(case), move))


@pytest.mark.parametrize("cid", sorted(CLI_IDS))
def test_cases_through_cli(cid: str, tmp_path: Any) -> None:
    case = BY_ID[cid]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(case_position(case)), encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["mulle", "legal", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert {parse_move_text(m) for m in json.loads(res.stdout)} == {
        parse_move_text(m) for m in case["expected"]["legal_moves"]
    }
    if "after" in case["expected"]:
        res = runner.invoke(app, ["mulle", "apply", str(path), case["expected"]["legal_moves"][0], "--json"])
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert set(out) == {
            "position",
            "captured",
            "mulle",
            "mulle_points",
            "tabbe",
            "last_capturer",
            "round_over",
            "leftover_to",
        }
        _check_after(case, out)


def test_mul_10_mulle_needs_one_play() -> None:
    # P1 takes 9H with 4C+5S, P2 trails the other 9H, P1 takes it with 9S: the twins came in different plays.
    pos = {
        "table": ["4C", "5S"],
        "hands": {"P1": ["9H", "9S"], "P2": ["9H", "KC"]},
        "to_move": "P1",
    }
    state = load_position(pos)
    for text in ("C 9H x {4C,5S}", "T 9H", "C 9S x {9H}"):
        state = apply(state, parse_move(state, text))
    pile = state.piles[0]
    assert sorted(map(str, pile.cards)) == ["4C", "5S", "9H", "9H", "9S"]
    assert BY_ID["MUL-10"]["expected"]["mulle_points"] == 0
    assert sum(p for _, p in pile.mulles) == 0


def test_sco_02_card_points_total() -> None:
    want = BY_ID["SCO-02"]["expected"]
    deck = full_deck(2)
    assert sum(card_points(c, Rules()) for c in deck) == want["default_total"]
    assert sum(card_points(c, Rules(spade_points="additive")) for c in deck) == want["additive_option_total"]


def _pile_worth(points: int, pool: list[Card], rules: Rules) -> list[Card]:
    out: list[Card] = []
    for c in list(pool):
        p = card_points(c, rules)
        if p and sum(card_points(x, rules) for x in out) + p <= points:
            out.append(c)
            pool.remove(c)
    assert sum(card_points(x, rules) for x in out) == points
    return out


def test_sco_03_surplus_scoring() -> None:
    rules = Rules.from_dict({"scoring": "surplus"})
    pool = full_deck(2)
    p1 = _pile_worth(24, pool, rules)
    p2 = _pile_worth(16, pool, rules)
    nine_h = Card.parse("9H")
    s1 = score_pile(p1, [(nine_h, 9)], 1, rules)
    s2 = score_pile(p2, [], 2, rules)
    want = BY_ID["SCO-03"]["expected"]
    assert (s1["total"], s2["total"]) == (want["P1"], want["P2"])


@pytest.mark.parametrize("fmt", ["8+8", "5+5", "4+8"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_01_deals_per_format(fmt: str, players: int) -> None:
    want = BY_ID["DEAL-01"]["expected"][fmt][f"{players}p"]
    hand, table = map(int, fmt.split("+"))
    rules = Rules(hand_size=hand, table_size=table)
    plan = deal_plan(rules, players)
    assert len(plan) == want["deals"]
    assert list(plan[-1]) == want["last"]


def _full_last_play_position(scores: dict[str, int]) -> dict[str, Any]:
    """Last card of a round: P1 holds 5C; P1's pile is one pack minus 5C (20 card points), P2's the other
    pack (20); P2 captured last and gets the trailed 5C (0 points)."""
    pack = [str(Card(i)) for i in range(52)]
    return {
        "rules": {"game_length": "target:100"},
        "table": [],
        "hands": {"P1": ["5C"], "P2": []},
        "stock": [],
        "to_move": "P1",
        "last_capturer": "P2",
        "piles": {"P1": {"cards": [c for c in pack if c != "5C"]}, "P2": {"cards": pack}},
        "scores": scores,
    }


def test_game_01_tie_on_target_plays_another_round() -> None:
    # 84 + 20 = 104 for both (GAME-01): equal highest totals play another round.
    state = load_position(_full_last_play_position({"P1": 84, "P2": 84}))
    assert not state.partial
    new, events = step(state, parse_move(state, "T 5C"))
    assert new.scores == (104, 104)
    assert BY_ID["GAME-01"]["expected"]["winner"] is None
    assert new.phase == "deal" and new.winners is None
    assert [e.kind for e in events][-1] == "round_over"
    assert dump_position(new)["last_play"] is False


def test_game_target_single_winner() -> None:
    state = load_position(_full_last_play_position({"P1": 84, "P2": 83}))
    new, events = step(state, parse_move(state, "T 5C"))
    assert new.phase == "over" and new.winners == (0,)
    assert events[-1].kind == "game_over"
