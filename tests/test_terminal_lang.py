"""``kortbord play mulle|cribbage --lang sv``: every event, reason, prompt and help line in Swedish, worded by
:mod:`kortbord.i18n` from the events' and reasons' codes (the terminal's own words in ``i18n/terminal.json``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kortbord import i18n
from kortbord.cli import app

runner = CliRunner()

#: English words the engines' old prose and the English terminal use; none may reach a Swedish table.
_ENGLISH = re.compile(
    r"\b(deals|plays|captures|takes|points|calls|wins|round over|game over|your move|lays|count|says go|"
    r"starter|crib|fifteen|pair|last card|Game record|Seats|Seed)\b"
)


@pytest.mark.parametrize(
    ("game", "args", "swedish"),
    [
        ("mulle", ["--length", "round"], ("ger först", "spelar", "tar in", "omgång 1 slut", "vinner spelet")),
        ("cribbage", ["--target", "61"], ("dragning om given", "startkortet är", "summa", "vinner spelet")),
    ],
)
def test_a_swedish_auto_game_speaks_swedish(
    game: str, args: list[str], swedish: tuple[str, ...], tmp_path: Path
) -> None:
    result = runner.invoke(
        app,
        [
            "play",
            game,
            "--auto",
            "--bot",
            "greedy",
            "--seed",
            "3",
            "--lang",
            "sv",
            "--record",
            str(tmp_path / "r.json"),
            *args,
        ],
    )
    assert result.exit_code == 0, result.output
    for words in swedish:
        assert words in result.output, words
    assert "Spelprotokollet sparades" in result.output
    english = _ENGLISH.findall(result.output.replace(str(tmp_path), ""))
    assert not english, english


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_swedish_prompts_help_and_reasons(game: str, tmp_path: Path) -> None:
    """A person's turn: the prompt, the help, a refused move number (the terminal's reason code) and quitting."""
    args = ["play", game, "--bot", "greedy", "--seed", "1", "--lang", "sv", "--record", str(tmp_path / "r.json")]
    result = runner.invoke(app, args, input="?\nrules\n999\nquit\nj\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Att ange ett drag" in out and "i korthet" in out  # help and rules
    assert "det finns inget drag 999" in out  # Reason("no_such_number", game="terminal") in Swedish
    assert "Avsluta spelet?" in out and "Spelet avbröts (du avslutade)" in out
    assert "Entering a move" not in out and "there is no move" not in out


def test_the_terminal_catalogue_has_both_languages_and_english_matches_the_old_words() -> None:
    words = i18n.catalogue("terminal")
    assert all(set(i18n.LANGS) <= set(entry) for entry in words.values())
    assert i18n.render("reason.no_such_number", {"number": "9", "moves": 3}, game="terminal") == (
        "there is no move 9: choose a number from 1 to 3"
    )


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "mulle", "--auto", "--lang", "fi", "--record", str(tmp_path / "r.json")])
    assert result.exit_code == 2
