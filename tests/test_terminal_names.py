"""Both terminal games show a player's name as typed text: Rich markup and control characters in ``--name`` are
neither interpreted nor sent to the terminal, and the game record keeps the name exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kortbord.cli import app

runner = CliRunner()


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_a_name_with_markup_or_control_characters_is_shown_as_text(game: str, tmp_path: Path) -> None:
    record = tmp_path / "name.json"
    args = ["play", game, "--bot", "greedy", "--name", "[/]\x1b[2J", "--seed", "1", "--record", str(record)]
    result = runner.invoke(app, args, input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output  # no escape sequence reaches the terminal (it would clear the screen)
    assert "[/]\\x1b[2J" in result.output  # the name, visible as typed
    assert json.loads(record.read_text())["seats"][0] == "[/]\x1b[2J"  # the record keeps it exactly
    shown = runner.invoke(app, [game, "replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.output
