"""``kortbord play mulle``: whole games through the command line with piped input.

What is checked comes from the rules and the engine, never from what the client printed: the game ends by the
rules of spec §2.12 (the highest total wins once someone reaches the target), the card points of every round add
up to 40 (§2.11), the record replays to the same game, and the person's "1" is the engine's first legal move.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kortbord.bots.mulle_simple import make_bot
from kortbord.cli import app, mulle_terminal
from kortbord.mulle import Capture, Game, Rules, State, Trail, View, explain_illegal

runner = CliRunner()


def _level(args: list[str]) -> list[str]:
    """``--bot greedy`` unless ``args`` name a level: these tests are about the client, and the greedy player
    keeps them fast and reproducible (the default level, strong, thinks for a fixed time)."""
    return [] if "--bot" in args else ["--bot", "greedy"]


def _play(args: list[str], lines: list[str]) -> Any:
    return runner.invoke(app, ["play", "mulle", *_level(args), *args], input="".join(line + "\n" for line in lines))


def _replay(record_path: Path) -> Game:
    return Game.from_record(json.loads(record_path.read_text(encoding="utf-8")))


def _first_human_turn(seed: int, tmp_path: Path) -> Game:
    """The game of ``--seed seed`` at the person's first turn: quit there at once and replay the saved record."""
    record = tmp_path / f"first-{seed}.json"
    result = _play(["--seed", str(seed), "--record", str(record)], ["quit", "y"])
    assert result.exit_code == 0, result.output
    game = _replay(record)
    assert game.to_act() == 0
    return game


def test_a_whole_game_to_100_with_piped_input_ends_by_the_rules(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = _play(["--seed", "7", "--record", str(record)], ["1"] * 600)
    assert result.exit_code == 0, result.output
    game = _replay(record)
    res = game.result()
    # spec §2.12: the game ends after the round in which someone reaches 100; the highest total wins
    assert res.over and game.is_over()
    assert max(res.scores) >= 100
    assert len(res.winners) == 1 and res.scores[res.winners[0]] == max(res.scores)
    # ... and not earlier, unless the best totals were equal then (GAME-01: equal totals play another round)
    for k in range(1, len(res.rounds)):
        totals = [sum(r[s]["total"] for r in res.rounds[:k]) for s in range(2)]
        assert max(totals) < 100 or totals[0] == totals[1]
    # spec §2.11: every round's card points add up to 40; the totals are the sums of the rounds
    for round_ in res.rounds:
        assert sum(side["card_points"] for side in round_) == 40
    assert list(res.scores) == [sum(r[s]["total"] for r in res.rounds) for s in range(2)]
    # the person typed "1" every time: each of the person's moves is the engine's first legal move then
    again = Game(game.rules, players=2, seed=7, seats=game.seats)
    for text in json.loads(record.read_text())["moves"]:
        if again.to_act() == 0:
            assert text == str(again.legal_moves()[0])
        again.play(text)
    # the final score printed is the engine's
    names = game.seats
    assert f"Final score: {names[0]} {res.scores[0]}   {names[1]} {res.scores[1]}" in result.output
    assert f"{names[res.winners[0]]} win" in result.output


def test_bad_input_is_explained_and_asked_again_without_changing_the_game(tmp_path: Path) -> None:
    seed = next(
        s for s in range(1, 200) if any(isinstance(m, Capture) for m in _first_human_turn(s, tmp_path).legal_moves())
    )
    game = _first_human_turn(seed, tmp_path)
    hand = game.view(0).hand
    missing = next(f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC" if f"{r}{s}" not in {str(c) for c in hand})
    trail = Trail(hand[0])
    reason = explain_illegal(game.state, trail)  # the engine's reason: a capture exists, so no trail (spec §2.6 M7)
    record = tmp_path / "bad.json"
    bad = ["9Z", "hello", "99", f"T {missing}", str(trail), "C 8C x {2D", "0"]
    result = _play(["--seed", str(seed), "--record", str(record)], [*bad, "1", "quit", "y"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    assert "malformed card '9Z'" in out
    assert "'hello' is neither a move nor a command" in out
    assert "there is no move 99" in out and "there is no move 0" in out
    assert f"you hold no {missing}" in out
    # the duty's code (standard: capture_duty="player"), and its English words are what the player read
    assert reason.code == "must_capture" and str(reason) in out and "may not trail" in str(reason)
    assert "malformed move" in out
    # one prompt per line typed until the move was accepted
    prompts = len(re.findall(r"your move \(", out))
    assert prompts == len(bad) + 2  # the bad lines, then "1", then "quit"
    moves = json.loads(record.read_text())["moves"]
    assert moves[: len(game.moves) + 1] == [*map(str, game.moves), str(game.legal_moves()[0])]


def test_shorthand_and_full_notation_resolve_to_the_same_legal_move(tmp_path: Path) -> None:
    game = _first_human_turn(3, tmp_path)
    legal = game.legal_moves()
    for i, move in enumerate(legal, 1):
        assert mulle_terminal.resolve_input(str(i), game, legal) == move
        assert mulle_terminal.resolve_input(str(move), game, legal) == move
        unique = [m for m in legal if m.card == move.card]
        if len(unique) == 1:
            assert mulle_terminal.resolve_input(str(move.card), game, legal) == move
            assert mulle_terminal.resolve_input(str(move.card).lower(), game, legal) == move


def test_absurd_numbers_in_input_are_explained_not_a_crash(tmp_path: Path) -> None:
    record = tmp_path / "huge.json"
    lines = ["B 9H on 5H =" + "9" * 5000, "9" * 5000, "\u0661\u0662", "quit", "y"]
    result = _play(["--seed", "5", "--record", str(record)], lines)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "malformed move" in result.output and "there is no move 999999999..." in result.output
    assert json.loads(record.read_text())["seed"] == 5  # the record was saved


def test_quit_asks_for_confirmation_and_saves_a_replayable_record(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    result = _play(["--seed", "2", "--record", str(record)], ["1", "quit", "n", "1", "quit", "y"])
    assert result.exit_code == 0, result.output
    assert "Game stopped" in result.output and str(record) in result.output
    data = json.loads(record.read_text())
    game = Game.from_record(data)
    assert not game.is_over()
    assert sum(1 for m in data["moves"]) >= 2
    replay = runner.invoke(app, ["mulle", "replay", str(record)])
    assert replay.exit_code == 0, replay.output


def test_end_of_input_stops_the_game_and_saves_it(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    result = _play(["--seed", "4", "--record", str(record)], [])
    assert result.exit_code == 0
    assert "end of input" in result.output
    assert json.loads(record.read_text())["game"] == "mulle"


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "3"],
        ["--players", "4", "--teams", "--deal", "5+5"],
        ["--players", "4", "--deal", "4+8", "--profile", "cardgames.zone"],
        ["--kryp", "--bot", "random"],
        ["--length", "each-deals", "--deal", "5+5"],
    ],
)
def test_auto_games_of_every_kind_finish_and_replay(tmp_path: Path, args: list[str]) -> None:
    record = tmp_path / "auto.json"
    length = [] if "--length" in args else ["--length", "round"]
    result = runner.invoke(
        app, ["play", "mulle", "--auto", "--seed", "9", "--record", str(record), *length, *_level(args), *args]
    )
    assert result.exit_code == 0, result.output
    game = _replay(record)
    res = game.result()
    assert res.over
    for round_ in res.rounds:
        assert sum(side["card_points"] for side in round_) == 40
    if "each-deals" in args:
        assert len(res.rounds) >= game.players  # spec §2.12: every player deals once
    if "--kryp" in args and res.winners:
        assert res.scores[res.winners[0]] == min(res.scores)  # Kryp-mulle: the lowest total wins (spec §3)
    assert "Game over" in result.output


def test_computers_receive_only_their_seats_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, int]] = []

    class Spy:
        name = "spy"

        def __init__(self, level: str, rules: Rules | None = None) -> None:
            self.inner = make_bot(level, rules)

        def choose(self, view: Any, legal_moves: Any, rng: random.Random) -> Any:
            seen.append((view, len(legal_moves)))
            assert isinstance(view, View) and not isinstance(view, State)
            assert view.to_move == view.seat  # its own seat's view, with its legal moves
            assert list(view.legal_moves) == list(legal_moves)
            return self.inner.choose(view, legal_moves, rng)

    monkeypatch.setattr(mulle_terminal, "make_bot", Spy)
    result = runner.invoke(
        app,
        [
            "play",
            "mulle",
            "--auto",
            "--bot",
            "greedy",
            "--players",
            "3",
            "--seed",
            "1",
            "--length",
            "round",
            "--record",
            str(tmp_path / "r.json"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert len(seen) == 104 - 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deal", "9+9"], "unknown deal format"),
        (["--length", "forever"], "unknown game length"),
        (["--profile", "casino"], "unknown rules profile"),
        (["--bot", "deep"], "unknown computer level"),
        (["--bot", ""], "unknown computer level"),  # not quietly the default level
        (["--teams"], "teams need 4 players"),
    ],
)
def test_bad_options_are_refused_with_the_choices(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "mulle", *args], input="")
    assert result.exit_code == 2
    assert message in result.output
