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
