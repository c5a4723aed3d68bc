"""``kortbord cribbage record`` and ``kortbord cribbage replay`` (game records, docs/engine-api.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kortbord.cli import app
from kortbord.cribbage import Game, engine

runner = CliRunner()


@pytest.mark.parametrize("options", [["--players", "2"], ["--players", "3", "--target", "61"], ["--players", "4"],
                                     ["--muggins"], ["--lowball", "--players", "3"]])  # fmt: skip
def test_record_then_replay(tmp_path: Path, options: list[str]) -> None:
    path = tmp_path / "game.json"
    made = runner.invoke(app, ["cribbage", "record", "--seed", "3", *options, "-o", str(path)])
    assert made.exit_code == 0, made.output
    record = json.loads(path.read_text())
    assert record["game"] == "cribbage" and record["seed"] == 3 and record["moves"]
    game = Game.from_record(record)
    assert engine.is_over(game.state)
    shown = runner.invoke(app, ["cribbage", "replay", str(path)])
    assert shown.exit_code == 0, shown.output
    winners = ", ".join(game.seats[s] for s in engine.result(game.state).winners)
    assert f"Winner: {winners}" in shown.output
    assert f"{len(record['moves'])}. " in shown.output  # every move is printed


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"game": "cribbage", "seed": ' + b"9" * 5000 + b"}", "digits"),
        ('{"game": "cribbage", "seats": ["Åsa", "Ulf"]}'.encode("latin-1"), "not UTF-8"),
    ],
)
def test_replay_of_an_unreadable_file_is_an_error_not_a_crash(tmp_path: Path, content: bytes, says: str) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(content)
    result = runner.invoke(app, ["cribbage", "replay", str(path)])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    assert "error:" in result.stderr and says in result.stderr


def test_replay_of_a_bad_record_fails_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    good = runner.invoke(app, ["cribbage", "record", "--seed", "1", "-o", "-"])
    record = json.loads(good.output)
    record["moves"][0] = "go"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["cribbage", "replay", str(path)])
    assert result.exit_code != 0
    assert "move 1" in result.output
    assert result.stdout == ""  # validated before anything is printed
    # an illegal move in the middle, a move after the end, a tampered seed: an error and nothing on stdout
    for name, change in (
        ("middle", lambda r: r["moves"].__setitem__(len(r["moves"]) // 2, "discard ZZ 9Q")),
        ("extra", lambda r: r["moves"].append("go")),
        ("seed", lambda r: r.__setitem__("seed", r["seed"] + 1)),
    ):
        bad = json.loads(good.output)
        change(bad)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(bad))
        result = runner.invoke(app, ["cribbage", "replay", str(path)])
        assert result.exit_code != 0 and result.stdout == "", (name, result.stdout[:300])
        assert "error:" in result.stderr and "move" in result.stderr, name
    missing = runner.invoke(app, ["cribbage", "replay", str(tmp_path / "none.json")])
    assert missing.exit_code != 0 and "cannot read" in missing.output


def test_bad_input_exits_2_in_both_games_tools(tmp_path: Path) -> None:
    """Every kortbord tool reports bad input the same way: ``error: ...`` on stderr and exit status 2."""
    missing = str(tmp_path / "none.json")
    for args in (
        ["cribbage", "replay", missing],
        ["cribbage", "score", "5H", "5D", "5S", "1X", "--starter", "5C"],
        ["cribbage", "play-score", "KS", "QS", "JS", "2S"],
        ["mulle", "replay", missing],
        ["mulle", "legal", missing],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == "" and "error:" in result.stderr, args


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("seats", 5, "list of 2 names"),
        ("seats", [{"x": 1}, [1]], "list of 2 names"),
        ("seats", "ab", "list of 2 names"),
        ("players", "2", "whole number"),
    ],
)
def test_a_malformed_record_header_is_refused(key: str, value: Any, says: str) -> None:
    from kortbord.errors import InvalidPositionError

    record = Game(seed=3).to_record()
    with pytest.raises(InvalidPositionError, match=says):
        Game.from_record({**record, key: value})


def test_the_replay_of_an_unfinished_record_keeps_what_the_rules_keep_hidden(tmp_path: Path) -> None:
    # a game saved to be resumed: the cards laid away in the deal in progress are shown only at the crib's count
    # (spec §2.6), and the seed would deal every card to come -- neither is printed before the game's end
    made = runner.invoke(app, ["cribbage", "record", "--seed", "7", "-o", "-"])
    record = json.loads(made.output)
    game = Game.from_record(record)
    discards = [n for n, m in enumerate(record["moves"]) if m.startswith("discard")]
    assert len(discards) >= 4  # two deals at least
    cut = discards[3] + 2  # the second deal's discards made, one card laid
    path = tmp_path / "part.json"
    path.write_text(json.dumps({**record, "moves": record["moves"][:cut]}))
    shown = runner.invoke(app, ["cribbage", "replay", str(path)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    for n in discards[2:4]:  # this deal's: hidden
        assert record["moves"][n] not in text and f"{n + 1}. " in text
    for n in discards[:2]:  # the first deal's, counted at its crib's show: printed
        assert record["moves"][n] in text
    assert "seed 7" not in text and "seed not shown" in text
    assert game.seed == 7 and "the record ends before the game does" in text
