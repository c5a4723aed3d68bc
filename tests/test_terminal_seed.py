"""The terminal games keep a seed they drew to themselves while a person plays: the seed deals the whole game, so
printing it (or naming the record file by it) would let the person deal the game out in another terminal and see
the stock order and the computers' cards before the rules show them.  A seed the person chose, or a game of
computers only, is printed as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kortbord.cli import app

runner = CliRunner()


@pytest.mark.parametrize("game", ["cribbage", "mulle"])
def test_a_drawn_seed_is_not_shown_to_the_person(tmp_path: Path, game: str) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path)}
    result = runner.invoke(app, ["play", game, "--bot", "greedy"], input="quit\ny\n", env=env)
    assert result.exit_code == 0, result.output
    (record_path,) = (tmp_path / "kortbord" / "games").iterdir()
    seed = json.loads(record_path.read_text(encoding="utf-8"))["seed"]
    assert str(seed) not in result.output and str(seed) not in record_path.name
    assert "The game record is saved to" in " ".join(result.output.split())
    # chosen by the person: shown; computers only: shown
    chosen = runner.invoke(app, ["play", game, "--bot", "greedy", "--seed", "4321"], input="quit\ny\n", env=env)
    assert "Seed 4321" in chosen.output
    auto = runner.invoke(app, ["play", game, "--bot", "random", "--auto", "--record", str(tmp_path / "a.json")])
    assert auto.exit_code == 0, auto.output
    assert f"Seed {json.loads((tmp_path / 'a.json').read_text(encoding='utf-8'))['seed']}" in auto.output
