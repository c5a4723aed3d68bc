"""``kortbord play mulle|cribbage --resume``: a resumed game's computers decide as the unbroken game's would have
(issue #14 item 1: the same seed gives the same decisions).  A computer's generator comes from the game's seed, its
seat and the moves made (``SpecGame.bot_rng``), not from a generator that a resume would start again; the random
level draws at every decision, so any restarted generator would show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kortbord.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["play", "cribbage", "--auto", "--bot", "random", "--target", "61"],
        ["play", "mulle", "--auto", "--bot", "random", "--length", "round"],
        # the expert reads the table (a TableReader told the record before each decision)
        ["play", "cribbage", "--auto", "--bot", "expert", "--target", "61"],
    ],
)
def test_a_resumed_game_ends_as_the_unbroken_one(tmp_path: Path, args: list[str]) -> None:
    full = tmp_path / "full.json"
    result = runner.invoke(app, [*args, "--seed", "31", "--record", str(full)])
    assert result.exit_code == 0, result.output
    record = json.loads(full.read_text(encoding="utf-8"))
    moves = record["moves"]
    for cut in (len(moves) // 3, 2 * len(moves) // 3):
        part = tmp_path / f"part-{cut}.json"
        part.write_text(json.dumps({**record, "moves": moves[:cut]}), encoding="utf-8")
        resumed = runner.invoke(app, [*args[:2], "--auto", "--bot", args[4], "--resume", str(part)])
        assert resumed.exit_code == 0, resumed.output
        assert json.loads(part.read_text(encoding="utf-8"))["moves"] == moves


@pytest.mark.parametrize("game", ["cribbage", "mulle"])
@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("rules", None, '"rules" must be an object'),
        ("rules", 5, '"rules" must be an object'),
        ("seats", 5, '"seats" must be a list'),
        ("seats", ["Only"], '"seats" must be a list'),
        ("seats", ["A", "B", "C", "D", "E"], '"seats" must be a list'),
        ("seats", "AB", '"seats" must be a list'),
        ("seats", ["x" * 101, "B"], "at most 100 characters"),
        ("seats", [["x"], {"y": 1}], '"seats" must be a list'),
        ("teams", "no", '"teams" must be true or false'),
        ("players", "2", '"players" must be a whole number'),
    ],
)
def test_a_record_with_a_bad_header_is_refused_before_the_game_starts(
    tmp_path: Path, game: str, field: str, value: object, says: str
) -> None:
    path = tmp_path / "game.json"
    extra = ["--target", "61"] if game == "cribbage" else ["--length", "round"]
    made = runner.invoke(app, ["play", game, "--auto", "--bot", "random", "--seed", "3", "--record", str(path), *extra])
    assert made.exit_code == 0, made.output
    record = json.loads(path.read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:5]
    record[field] = value
    text = json.dumps(record)
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["play", game, "--bot", "random", "--resume", str(path)], input="quit\ny\n")
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split()) and "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == text  # unchanged
