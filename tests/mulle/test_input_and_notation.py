"""Notation (spec §5.2), rules dictionaries (§3, §4), and bad input: clear errors, nothing changed."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from kortbord.cards import Card
from kortbord.cli import app
from kortbord.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    NotYourTurnError,
    SeatError,
)
from kortbord.mulle import (
    PROFILES,
    Build,
    BuildDown,
    Capture,
    LayOn,
    Package,
    Raise,
    Rules,
    Trail,
    apply,
    legal_moves,
    load_position,
    new_game,
    parse_move,
    parse_move_text,
    view,
)

C = Card.parse


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("C 8C x {2D,2H,4S,8S}", Capture(C("8C"), (C("2H"), C("2D"), C("4S"), C("8S")))),
        ("c 8c x { 8S , 4s 2D,2h }", Capture(C("8C"), (C("2H"), C("2D"), C("4S"), C("8S")))),
        ("C 8H x {8S,[B1]}", Capture(C("8H"), (C("8S"),), ("B1",))),
        ("C 10♦ x {[B10],[B2]}", Capture(C("TD"), (), ("B2", "B10"))),
        ("T 5C", Trail(C("5C"))),
        ("T 10♠", Trail(C("TS"))),
        ("B 3C on 5H =8 +pkg{6S+2D}", Build(C("3C"), (C("5H"),), 8, ((C("2D"), C("6S")),))),
        ("B 2C on 5S+3H =10", Build(C("2C"), (C("3H"), C("5S")), 10)),
        ("R 2D -> [B1] =10", Raise(C("2D"), "B1", 10)),
        ("D 3D->[B1]=6", BuildDown(C("3D"), "B1", 6)),
        ("P 6D+2H -> [B1]", Package(C("6D"), (C("2H"),), "B1")),
        ("L 9D -> [B1]", LayOn(C("9D"), "B1")),
    ],
)
def test_parse_notation(text: str, move: Any) -> None:
    assert parse_move_text(text) == move
    assert parse_move_text(str(move)) == move


def test_canonical_form_orders_cards_and_builds() -> None:
    # Spec §5.2: rank order A..K, then suit S,H,D,C; loose before builds; builds by id.
    m = parse_move_text("C AC x {KD,[B10],9S,AH,5H,[B2]}")
    assert str(m) == "C AC x {AH,5H,9S,KD,[B2],[B10]}"
    assert str(parse_move_text("B 3C on 5H =8 +pkg{6S+2D,7H+AS}")) == "B 3C on 5H =8 +pkg{AS+7H,2D+6S}"


@pytest.mark.parametrize(
    "text",
    [
        *("", "X 5C", "T 1C", "T 5X", "C 8C x {}", "C 8C {8S}", "B 3C on =8", "R 2D -> B1 =10", "L 9D", "T 11H"),
        # numbers in notation are a few ASCII digits (a build's value is 2..16, spec §2.5): a 5000-digit value
        # or Arabic-Indic digits are malformed notation, not a crash and not a value
        "B 9H on 5H =" + "9" * 5000,
        "R 2D -> [B1] =" + "9" * 5000,
        "D 2D -> [B1] =" + "9" * 5000,
        "B 9H on 5H =\u0661\u0664",
        "L 9D -> [B" + "9" * 5000 + "]",
        "C 8C x {[B" + "9" * 5000 + "]}",
        "shuffle dealer=" + "9" * 5000,
    ],
)
def test_malformed_moves(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move_text(text)


def test_a_huge_number_in_a_move_is_malformed_in_a_position() -> None:
    state = load_position(_pos(table=["5H"], hands={"P1": ["9H", "5C"]}))
    with pytest.raises(InvalidMoveError):
        parse_move(state, "B 9H on 5H =" + "9" * 5000)


def _pos(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"table": [], "builds": [], "hands": {"P1": []}, "to_move": "P1"}
    base.update(kw)
    return base


@pytest.mark.parametrize(
    ("pos", "move", "reason"),
    [
        # a build of 8 on the table, no 8 in hand (spec M1.1)
        (
            _pos(builds=[{"id": "B1", "cards": ["5H", "3C"], "value": 8, "owner": "P2"}], hands={"P1": ["7C", "2D"]}),
            "C 7C x {[B1]}",
            "you hold no 8 to take a build of 8",
        ),
        # D3: no trailing while owning a build
        (
            _pos(
                builds=[{"id": "B1", "cards": ["4H", "2C"], "value": 6, "owner": "P1"}],
                hands={"P1": ["6D", "3S", "9H"]},
            ),
            "T 9H",
            "you own a build ([B1] of 6), so you may not trail",
        ),
        # D2: a capture takes every card it can
        (_pos(table=["8S", "4S", "4H", "5C"], hands={"P1": ["8C"]}), "C 8C x {8S}", "also 4S+4H"),
        # D1: capture duty
        (_pos(table=["6H"], hands={"P1": ["6C", "KD"]}), "T KD", "so you may not trail"),
        # D5: building only to a value you hold
        (_pos(table=["5H"], hands={"P1": ["3D", "7C"]}), "B 3D on 5H =8", "you hold no 8 to take a build of 8"),
        # D6: scoring cards may not build from the hand
        (_pos(table=["6H"], hands={"P1": ["2S", "8D"]}), "B 2S on 6H =8", "scoring card"),
        # D8: locked builds
        (
            _pos(
                builds=[{"id": "B1", "cards": ["4H", "5C", "9D"], "value": 9, "owner": "P2", "locked": True}],
                hands={"P1": ["3H", "QC"]},
            ),
            "R 3H -> [B1] =12",
            "locked",
        ),
        # pure mulle
        (_pos(table=["9H", "4C", "5S"], hands={"P1": ["9H", "6D"]}), "C 9H x {4C,5S,9H}", "pure mulle"),
        # card not in hand
        (_pos(table=["9H"], hands={"P1": ["9C"]}), "C 9D x {9H}", "you hold no 9D"),
    ],
)
def test_illegal_moves_say_why(pos: dict[str, Any], move: str, reason: str) -> None:
    state = load_position(pos)
    before = dataclasses.replace(state)
    with pytest.raises(IllegalMoveError) as info:
        parse_move(state, move)
    assert reason in str(info.value)
    with pytest.raises(IllegalMoveError):
        apply(state, parse_move_text(move))
    assert state == before


def test_ambiguous_short_capture() -> None:
    state = load_position(_pos(table=["3H", "5D", "4C", "4S", "AH"], hands={"P1": ["8C"]}))
    with pytest.raises(AmbiguousMoveError):
        parse_move(state, "C 8C")
    state = load_position(_pos(table=["8S"], hands={"P1": ["8C"]}))
    assert parse_move(state, "C 8C") == Capture(C("8C"), (C("8S"),))


@pytest.mark.parametrize(
    ("pos", "error"),
    [
        ("not an object", InvalidPositionError),
        (_pos(table=["9X"], hands={"P1": ["9C"]}), InvalidPositionError),
        (_pos(hands={"P2": ["9C"]}), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, to_move="P5"), InvalidPositionError),
        (_pos(table=["9C", "9C"], hands={"P1": ["9C"]}), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, colour="red"), InvalidPositionError),
        # wrong JSON types and absurd values: a clear InvalidPositionError, never TypeError/ValueError
        (_pos(hands={"P1": ["9C"]}, to_move=[]), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, to_move={}), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, last_capturer=[]), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, players=2.0), InvalidPositionError),
        (_pos(hands={"P1": ["9C"]}, rules={"profile": []}), InvalidRulesError),
        (
            _pos(hands={"P1": ["9C"]}, builds=[{"id": "B1", "cards": ["5H", "3C"], "value": 8, "owner": ["P2"]}]),
            InvalidPositionError,
        ),
        (
            _pos(
                hands={"P1": ["9C"]},
                builds=[{"id": "B1", "cards": ["5H", "3C"], "value": 8, "owner": "P2", "co_owners": 5}],
            ),
            InvalidPositionError,
        ),
        (
            _pos(
                hands={"P1": ["9C"]},
                builds=[{"id": "B" + "9" * 5000, "cards": ["5H", "3C"], "value": 8, "owner": "P2"}],
            ),
            InvalidPositionError,
        ),
        # build ids are ASCII: "B1" and "B\u0661" (an Arabic-Indic one) are not two different builds
        (
            _pos(hands={"P1": ["9C"]}, builds=[{"id": "B\u0661", "cards": ["5H", "3C"], "value": 8, "owner": "P2"}]),
            InvalidPositionError,
        ),
        # a build of 12 made of 5+3: raising adds, building down subtracts, so a build is worth at most the sum of
        # its cards' table values (spec §2.5)
        (
            _pos(hands={"P1": ["9C"]}, builds=[{"id": "B1", "cards": ["5H", "3C"], "value": 12, "owner": "P2"}]),
            InvalidPositionError,
        ),
        # a deal number past the round's last deal
        (_pos(hands={"P1": ["9C"]}, deal_no=7, deals_total=6), InvalidPositionError),
        (
            _pos(hands={"P1": ["9C"]}, builds=[{"id": "X", "cards": ["2H", "3H"], "value": 5, "owner": "P1"}]),
            InvalidPositionError,
        ),
        (
            _pos(hands={"P1": ["9C"]}, builds=[{"id": "B1", "cards": ["2H", "3H"], "value": 17, "owner": "P1"}]),
            InvalidPositionError,
        ),
        (_pos(hands={"P1": ["9C"]}, rules={"no_such_rule": True}), InvalidRulesError),
        (_pos(hands={"P1": ["9C"]}, rules={"capture_duty": "sometimes"}), InvalidRulesError),
    ],
)
def test_bad_positions(pos: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        load_position(pos)


def test_rules_profiles_and_dicts() -> None:
    assert Rules() == PROFILES["standard"]
    cz = Rules.from_dict({"profile": "cardgames.zone"})
    # spec §3: the cardgames.zone profile
    assert (cz.pure_mulle, cz.capture_duty, cz.locking, cz.build_down, cz.mulle_value) == (
        False,
        "strict",
        False,
        False,
        "hand",
    )
    r = Rules.from_dict({"profile": "cardgames.zone", "target": 200, "locking": "on", "table_packaging": False})
    assert r.game_length == "target:200" and r.locking and r.table_packaging == "off" and r.target == 200
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict({"profile": "kryp"}).kryp
    with pytest.raises(InvalidRulesError, match="not implemented"):
        Rules.from_dict({"jokers": True})
    for bad in ({"profile": "nope"}, {"hand_size": 0}, {"game_length": "target:x"}, {"max_found_cards": 1}):
        with pytest.raises(InvalidRulesError):
            Rules.from_dict(bad)
    # integer options are bounded (a target of 1..10000 points, max_found_cards 2..16: a build is worth <= 16),
    # and a profile is a name: absurd values get an InvalidRulesError naming the option, never a plain error
    assert Rules.from_dict({"target": 10000}).target == 10000
    assert Rules.from_dict({"max_found_cards": 16}).max_found_cards == 16
    for bad, words in (
        ({"game_length": "target:" + "9" * 5000}, "game_length"),
        ({"game_length": "target:10001"}, "game_length"),
        ({"game_length": "target:\u0661\u0662"}, "game_length"),  # Arabic-Indic digits are not a number here
        ({"target": 10001}, "target"),
        ({"target": 10**40}, "target"),
        ({"max_found_cards": 17}, "max_found_cards"),
        ({"max_found_cards": "9" * 5000}, "max_found_cards"),
        ({"profile": []}, "profile"),
        ({"profile": {}}, "profile"),
    ):
        with pytest.raises(InvalidRulesError, match=words):
            Rules.from_dict(bad)
    with pytest.raises(InvalidRulesError):
        new_game(Rules(), players=5)
    with pytest.raises(InvalidRulesError):
        new_game(Rules(), players=3, teams=True)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"piles": {"P1": []}}, "the pile of P1 must be an object"),
        ({"builds": [{"id": "B1", "cards": ["5H", "3C"], "value": 8, "owner": "P2", "co_owners": "P1"}]},
         "co_owners must be a list of seat names"),
        ({"players": "2"}, "players must be the number 2, 3 or 4, not '2'"),
    ],
)  # fmt: skip
def test_bad_position_messages_say_what_is_wrong(change: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        load_position({**_pos(hands={"P1": ["9C"]}), **change})
    assert says in str(info.value)


def test_seat_errors_and_turns() -> None:
    state = new_game(Rules())
    with pytest.raises(SeatError):
        view(state, 2)
    with pytest.raises(SeatError):
        view(state, -1)
    with pytest.raises(NotYourTurnError):
        apply(state, Trail(C("5C")))
    assert legal_moves(state) == []


def test_cli_errors_go_to_stderr(tmp_path: Any) -> None:
    runner = CliRunner()
    good = tmp_path / "pos.json"
    good.write_text(json.dumps(_pos(table=["6H"], hands={"P1": ["6C", "KD"]})), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for args in (
        ["mulle", "apply", str(good), "T KD", "--json"],
        ["mulle", "apply", str(good), "Q 5C", "--json"],
        ["mulle", "legal", str(bad)],
        ["mulle", "legal", str(tmp_path / "missing.json")],
        ["mulle", "score", str(bad), "--json"],
        ["mulle", "replay", str(good)],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code != 0, args
        assert res.stdout == "", args
        assert "error:" in res.stderr
    res = runner.invoke(app, ["mulle", "apply", str(good), "T KD", "--json"])
    assert "you can capture (C 6C x {6H}), so you may not trail" in res.stderr


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"table": [], "to_move": ' + b"9" * 5000 + b"}", "digits"),
        ('{"table": ["5H"], "seats": ["Åsa"]}'.encode("latin-1"), "not UTF-8"),
    ],
)
@pytest.mark.parametrize("command", [["legal"], ["apply", "-", "T 5C"], ["score"], ["replay"]])
def test_cli_unreadable_json_files_are_errors_not_crashes(
    tmp_path: Any, content: bytes, says: str, command: list[str]
) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(content)
    args = ["mulle", *[str(path) if a == "-" else a for a in command]]
    if len(command) == 1:
        args.append(str(path))
    res = CliRunner().invoke(app, args)
    assert res.exit_code != 0 and isinstance(res.exception, SystemExit), res.exception
    assert res.stdout == ""
    assert res.stderr.startswith("error:") and says in res.stderr and str(path) in res.stderr


def test_cli_rules_option_is_read_safely(tmp_path: Any) -> None:
    pile = tmp_path / "pile.json"
    pile.write_text(json.dumps({"cards": ["AS"]}))
    for rules, says in (("[" * 5000 + "]" * 5000, "nested too deeply"), ('{"target": ' + "9" * 5000 + "}", "digits")):
        res = CliRunner().invoke(app, ["mulle", "score", str(pile), "--rules", rules])
        assert res.exit_code != 0 and isinstance(res.exception, SystemExit), res.exception
        assert res.stdout == "" and "--rules" in res.stderr and says in res.stderr


def test_cli_score_record_replay(tmp_path: Any) -> None:
    runner = CliRunner()
    pile = tmp_path / "pile.json"
    # spec §2.11: spade 1, A♠ 2, 2♠ 2, 10♦ 2, other ace 1; mulle 9H = 9; tabbe 1 each
    # (a mulle puts both copies in the pile, spec §2.8: 9H twice; 9H scores no card points)
    pile.write_text(json.dumps({"cards": ["AS", "2S", "TD", "AH", "3S", "9H", "9H"], "mulle": ["9H"], "tabbe": 2}))
    res = runner.invoke(app, ["mulle", "score", str(pile), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["card_points"], out["mulle_points"], out["tabbe"], out["total"]) == (8, 9, 2, 19)
    rec = tmp_path / "rec.json"
    res = runner.invoke(app, ["mulle", "record", "--seed", "4", "-o", str(rec)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["mulle", "replay", str(rec)])
    assert res.exit_code == 0, res.output
    assert "round 1 over" in res.stdout and "game over" in res.stdout
    assert len(json.loads(rec.read_text())["moves"]) == 96  # 104 cards - 8 on the table, one per move


def test_cli_replay_of_an_unfinished_record_does_not_claim_a_result(tmp_path: Any) -> None:
    runner = CliRunner()
    rec = tmp_path / "rec.json"
    assert runner.invoke(app, ["mulle", "record", "--seed", "4", "-o", str(rec)]).exit_code == 0
    data = json.loads(rec.read_text())
    data["moves"] = data["moves"][:5]  # a game quit after five moves
    rec.write_text(json.dumps(data))
    res = runner.invoke(app, ["mulle", "replay", str(rec)])
    assert res.exit_code == 0, res.output
    assert "game over" not in res.stdout and "draw" not in res.stdout
    assert "before the game is over (5 moves)" in res.stdout


def test_engine_input_of_the_wrong_type_gets_a_kortbord_error() -> None:
    from kortbord.errors import KortbordError
    from kortbord.mulle import Game, Shuffle, chance_outcome

    s0 = new_game(Rules())
    deck = chance_outcome(s0, random.Random(1)).deck
    # a shuffle holds the 104 cards of two packs, each exactly twice (spec §2.1)
    with pytest.raises(IllegalMoveError):
        apply(s0, Shuffle(tuple(C("AS") for _ in range(104)), 0))
    with pytest.raises(KortbordError):
        apply(s0, Shuffle(("AS",) * 104, 0))  # type: ignore[arg-type]
    with pytest.raises(KortbordError):
        apply(s0, Shuffle((1.5,) * 104, 0))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        apply(s0, Shuffle(deck, True))  # a dealer is a seat number, not a truth value
    for bad in ({"players": 2.0}, {"players": "2"}, {"teams": 1}, {"dealer": True}):
        with pytest.raises(InvalidRulesError):
            new_game(Rules(), **bad)  # type: ignore[arg-type]
    record = Game(Rules(), seed=3).to_record()
    for key, value, says in (
        ("seed", True, "integer seed"),
        ("seats", 5, "list of 2 names"),
        ("seats", [{"x": 1}, [1]], "list of 2 names"),
        ("seats", ["a", "b", "c"], "got 3 names"),
        ("players", "2", "2, 3 or 4 players"),
    ):
        with pytest.raises(InvalidPositionError, match=says):
            Game.from_record({**record, key: value})


def test_a_states_repr_names_no_hidden_card() -> None:
    from kortbord.mulle import chance_outcome, step

    state, _ = step(new_game(Rules()), chance_outcome(new_game(Rules()), random.Random(2)))
    text = repr(state)
    hidden = {str(c) for c in state._hands[0] + state._hands[1] + state._stock}
    shown = {str(c) for c in state.table}
    assert not {c for c in hidden - shown if re.search(rf"\b{c}\b", text)}, text
    assert "hand_sizes=[8, 8]" in text and "stock_size=80" in text  # 104 - 8 table - 2*8 hands (spec §2.3)


@pytest.mark.parametrize(
    ("pile", "says"),
    [
        ({"cards": ["AS"] * 3}, "more of AS"),  # two packs: at most two copies of a card (spec §2.1)
        ({"cards": ["AS"] * 200}, "more of AS"),
        ({"cards": ["9H", "3C"], "mulle": ["9H"]}, "both copies"),  # a mulle is a captured pair (spec §2.8)
        ({"cards": ["KD"], "mulle": ["9H"]}, "both copies"),
        ({"cards": ["9H", "9H"], "mulle": ["9H", "9H"]}, "at most one mulle"),
        ({"cards": ["9H", "9H"], "mulle": [{"card": "9H", "points": -5}]}, "0..16"),
        ({"cards": ["9H", "9H"], "mulle": [{"card": "9H", "points": 10**30}]}, "0..16"),
        ({"cards": ["9H", "9H"], "tabbe": 10**30}, "tabbe"),
        ({"cards": ["9H", "9H"], "tabbe": 1e30}, "tabbe"),
        ({"cards": ["9H", "9H"], "tabbe": -1}, "tabbe"),
        ({"cards": ["9H", "9H"], "tabbe": 2}, "tabbe"),  # each tabbe captures at least two cards (spec §2.9)
        ({"cards": ["9H"], "colour": "red"}, "unknown field"),
    ],
)
def test_cli_score_refuses_impossible_piles(tmp_path: Any, pile: dict[str, Any], says: str) -> None:
    path = tmp_path / "pile.json"
    path.write_text(json.dumps(pile))
    res = CliRunner().invoke(app, ["mulle", "score", str(path), "--json"])
    assert res.exit_code == 2 and res.stdout == "", res.stdout
    assert res.stderr.startswith("error:") and says in res.stderr, res.stderr


def test_a_malformed_capture_is_named_as_written() -> None:
    """'C 9H x' is malformed (spec §5.2: the captured set is written in braces); the error quotes what was typed,
    not the trail the card-only shorthand tries first."""
    from kortbord.core import get

    spec = get("mulle")
    state = spec.new_game(spec.make_rules({}))
    rng = random.Random(1)
    while spec.is_chance(state):
        state = spec.apply(state, spec.chance_outcome(state, rng))
    with pytest.raises(InvalidMoveError, match=r"malformed move 'C 9H x'"):
        spec.parse_move(state, "C 9H x")
