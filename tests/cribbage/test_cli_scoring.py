"""``kortbord cribbage score`` and ``kortbord cribbage play-score`` (spec cribbage.md §3a): the JSON contract,
the worked cases through the command line, and bad input (non-zero exit, a reason, nothing on stdout)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kortbord.cli import app

RULES = Path(os.environ["KORTBORD_RULES_DIR"])
CASES: list[dict[str, Any]] = json.loads((RULES / "cribbage_cases.json").read_text(encoding="utf-8"))
SHOW_CASES = [c for c in CASES if c["kind"] in ("hand", "crib")]
COUNT_CASES = [c for c in CASES if c["kind"] == "pegging" and "sequence_ranks" in c["input"]]

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, ["cribbage", *args])


@pytest.mark.parametrize("case", SHOW_CASES, ids=[c["id"] for c in SHOW_CASES])
def test_score_json(case: dict[str, Any]) -> None:
    crib = ["--crib"] if case["kind"] == "crib" else []
    result = run("score", *case["input"]["hand"], "--starter", case["input"]["starter"], *crib, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["total"] == case["expected"]["total"]
    assert document["breakdown"] == case["expected"]["breakdown"]
    assert set(document) <= {"total", "breakdown", "groups"}
    assert sum(g["points"] for g in document["groups"]) == document["total"]


@pytest.mark.parametrize("case", COUNT_CASES, ids=[c["id"] for c in COUNT_CASES])
def test_play_score_json(case: dict[str, Any]) -> None:
    used: dict[str, int] = {}
    cards = []
    for rank in case["input"]["sequence_ranks"]:  # ranks only in the case: give repeats different suits
        cards.append(rank + "SHDC"[used.get(rank, 0)])
        used[rank] = used.get(rank, 0) + 1
    result = run("play-score", *cards, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"points_per_card": case["expected"]["points_per_card"]}


def test_score_readable_output_has_the_spoken_count() -> None:
    result = run("score", "5H", "5D", "5S", "JC", "--starter", "5C")
    assert result.exit_code == 0
    assert "fifteen two" in result.stdout
    assert "nobs is twenty-nine" in result.stdout.replace("\n", " ")
    assert "Total 29" in result.stdout


def test_score_accepts_other_notation() -> None:
    # DEVELOPERS.md: parsers also accept 10 for ten and the suit symbols.
    result = run("score", "10♦", "J♦", "Q♦", "K♦", "--starter", "9♦", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["breakdown"] == {"fifteens": 0, "pairs": 0, "runs": 5, "flush": 5, "nobs": 1}


def test_play_score_readable_output() -> None:
    result = run("play-score", "4S", "6H", "5D")
    assert result.exit_code == 0
    assert "fifteen for 2, run of 3 for 3" in result.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["score", "5H", "5D", "5S", "--starter", "5C", "--json"], "exactly 4 cards"),
        (["score", "5H", "5D", "5S", "JC", "2C", "--starter", "5C", "--json"], "exactly 4 cards"),
        (["score", "5H", "5D", "5S", "5S", "--starter", "5C", "--json"], "duplicate card"),
        (["score", "5H", "5D", "5S", "JC", "--starter", "5H", "--json"], "also in the hand"),
        (["score", "5H", "5D", "5S", "1X", "--starter", "5C", "--json"], "malformed card '1X'"),
        (["score", "5H", "5D", "5S", "JC", "--starter", "11C"], "malformed card '11C'"),
        (["play-score", "KS", "QS", "JS", "2S", "--json"], "past 31"),
        (["play-score", "KS", "KS", "--json"], "duplicate card"),
        (["play-score", "KS", "K"], "malformed card 'K'"),
        # user text is shown as typed: Rich markup in it is neither interpreted nor a crash
        (["score", "[/]", "5D", "5S", "JC", "--starter", "5C"], "malformed card '[/]'"),
        (["score", "[bold]x[/]", "5D", "5S", "JC", "--starter", "5C"], "malformed card '[bold]x[/]'"),
        (["score", "5H", "5D", "5S", "JC", "--starter", "[/]"], "malformed card '[/]'"),
        (["score", "5H", "5D", "5S", "JC", "--starter", "5C", "--lang", "[/]"], "'[/]'"),
        (["play-score", "[/]"], "malformed card '[/]'"),
    ],
)
def test_bad_input(args: list[str], says: str) -> None:
    result = run(*args)
    assert result.exit_code != 0
    assert result.stdout == ""
    assert says in result.stderr


def test_missing_starter_is_a_usage_error() -> None:
    result = run("score", "5H", "5D", "5S", "JC")
    assert result.exit_code != 0
    assert result.stdout == ""
    assert "--starter" in result.stderr


def test_installed_command() -> None:
    # The real entry point, as a user runs it: JSON on stdout, errors on stderr only.
    command = [str(Path(sys.executable).with_name("kortbord")), "cribbage"]
    good = subprocess.run([*command, "play-score", "5S", "TH", "TD", "--json"], capture_output=True, text=True)
    assert good.returncode == 0
    assert json.loads(good.stdout) == {"points_per_card": [0, 2, 2]}  # 15 for 2, then a pair of tens (count 25)
    bad = subprocess.run([*command, "score", "5H", "5D", "5S", "--starter", "5C"], capture_output=True, text=True)
    assert bad.returncode != 0
    assert bad.stdout == ""
    assert "exactly 4 cards" in bad.stderr
