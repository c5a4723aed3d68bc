"""``kortbord play cribbage``: whole games through the command line with piped input, and a scripted person.

What is checked comes from the rules and the engine, never from what the client printed: the game ends when a
side reaches the target (spec §2.6; Lowball §2.8), the printed winner and final score are the engine's result,
the record replays to the same game, every Muggins count moves the scores as M2 and M5-M8 say (computed here
from the rules text), the true count is never shown before a count is settled (M9), and bad input is answered
with a reason and asked again without changing the game.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from kortbord.bots.cribbage_simple import GreedyBot
from kortbord.cli import app
from kortbord.cli.cribbage_terminal import CribbageTable, Options
from kortbord.cribbage import Game, Rules, engine
from kortbord.cribbage.moves import Accept, Announce, Go, MugginsCall, Overcount
from kortbord.cribbage.scoring import card_value, score_show

runner = CliRunner()


def _play(args: list[str], lines: list[str]) -> Any:
    # --bot greedy unless the test names a level: these tests are about the client, and the greedy player keeps
    # them fast and reproducible (the default level, strong, thinks for a fixed time)
    level = [] if "--bot" in args else ["--bot", "greedy"]
    return runner.invoke(app, ["play", "cribbage", *level, *args], input="".join(line + "\n" for line in lines))


def _replay(path: Path) -> Game:
    return Game.from_record(json.loads(path.read_text(encoding="utf-8")))


def _check_end(game: Game, output: str) -> None:
    """The game is over by the rules and the client printed the engine's winner and final score."""
    res = game.result()
    res = getattr(res, "detail", res)  # a SpecGame gives the spec's result, the engine's inside
    rules = game.rules
    assert game.is_over()
    side_of_winner = rules.side_of(res.winners[0])
    if rules.lowball:  # spec §2.8: the side that reached the target loses
        assert res.side_scores[rules.side_of(res.reached)] >= rules.target
        assert rules.side_of(res.reached) != side_of_winner
    else:  # spec §2.6: the side that reached the target wins; nobody else got there
        assert res.side_scores[side_of_winner] >= rules.target
        assert all(s < rules.target for i, s in enumerate(res.side_scores) if i != side_of_winner)
    flat = " ".join(output.split())
    names = game.seats
    side_names = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"] if rules.partnership else list(names)
    final = "   ".join(f"{side_names[s]} {res.side_scores[s]}" for s in range(len(res.side_scores)))
    assert f"Final score: {' '.join(final.split())}" in flat
    assert f"{side_names[side_of_winner]} win" in flat


def test_a_whole_game_with_piped_input_ends_with_the_engines_winner(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = _play(["--seed", "3", "--target", "61", "--record", str(record)], ["1"] * 400)
    assert result.exit_code == 0, result.output
    game = _replay(record)
    _check_end(game, result.output)
    # the person typed "1" every time: each of the person's decisions is the engine's first legal move
    again = Game(game.rules, seed=3, seats=game.seats)
    for text in json.loads(record.read_text())["moves"]:
        if again.to_act == 0 and again.legal_moves() != [Go()]:
            assert text == str(again.legal_moves()[0])
        again.play(text)
    assert "Cut for deal" in result.output and "Starter" in result.output


def test_a_muggins_game_with_piped_input_counts_and_answers(tmp_path: Path) -> None:
    """The person announces 1 for every count and answers every computer count with ``accept``; lines that do
    not fit a prompt ("accept" at a discard, "1" at an answer) are explained and asked again."""
    record = tmp_path / "muggins.json"
    result = _play(["--muggins", "--seed", "5", "--target", "61", "--record", str(record)], ["1", "accept"] * 600)
    assert result.exit_code == 0, result.output
    game = _replay(record)
    _check_end(game, result.output)
    moves = json.loads(record.read_text())["moves"]
    # replay, checking the person's Muggins decisions are the ones typed
    again = Game(game.rules, seed=5, seats=game.seats)
    counted = answered = 0
    for text in moves:
        if again.to_act == 0 and again.view(0).phase == "show":
            if again.view(0).announced is None:
                assert text == "count 1"
                counted += 1
            else:
                assert text == "accept"
                answered += 1
        again.play(text)
    assert counted and answered
    assert "True count of" in result.output
    assert "✗" in result.output  # the misplaced lines were answered with a reason


def test_muggins_rules_the_client_shows_and_the_scores_follow(tmp_path: Path) -> None:
    """A scripted person: counts some hands short and some long, answers the computer's counts correctly.
    Every count moves the scores as the rules say (computed here from M2, M5-M8), and the true count of a hand
    is never printed before its count is settled (M9)."""
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None, highlight=False)
    person = _Person()
    table = CribbageTable(
        Options(muggins=True, target=121, seed=9, record=tmp_path / "m.json", delay=0), console, person.read_line
    )
    table.bots[1] = GreedyBot(miss_rate=0.5, catch_rate=1.0)
    person.table, person.out = table, out
    assert table.run() == 0
    game = table.game
    _check_end(game, out.getvalue())
    assert person.counts >= 4 and person.answers >= 4
    # replay and check every Muggins count against the rules text
    record = json.loads((tmp_path / "m.json").read_text())
    again = Game(game.rules, seed=record["seed"], seats=game.seats)
    checked = 0
    pending: tuple[int, int, int, list[int]] | None = None  # counter, announced, true, scores before
    for text in record["moves"]:
        view = again.view(again.to_act or 0)
        before = list(again.state.scores)
        move = engine.parse_move(again.state, text)
        if isinstance(move, Announce):
            assert view.starter is not None
            true = score_show(view.counting_cards, view.starter, crib=view.counting_crib).total
            assert view.counting is not None
            pending = (view.counting, move.points, true, before)
        again.play(text)
        if pending is not None and not isinstance(move, Announce) and not isinstance(move, Accept):
            counter, announced, true, start = pending
            caller = 1 - counter
            delta = [a - b for a, b in zip(again.state.scores, start, strict=True)]
            if isinstance(move, MugginsCall):
                if announced < true:  # M5
                    assert delta[counter] == announced and delta[caller] == min(true - announced, move.points)
                else:  # M6
                    assert delta[counter] == announced + move.points and delta[caller] == 0
            elif isinstance(move, Overcount):
                if announced > true:  # M7
                    assert delta[counter] == true and delta[caller] == announced - true
                else:  # M8
                    assert delta[counter] == announced and delta[caller] == 0
            checked += 1
            pending = None
        elif pending is not None and isinstance(move, Accept):
            counter, announced, _, start = pending
            assert again.state.scores[counter] - start[counter] == announced  # M2, M4: the count stands
            pending = None
    assert checked >= 2
    assert not person.leaks, person.leaks


def test_bad_input_is_explained_and_asked_again(tmp_path: Path) -> None:
    """Every kind of bad input of the brief gets a reason and a new prompt, and changes nothing."""
    person = _Person(bad=True)
    for seed in range(1, 12):  # a few games until every kind has come up (an over-31 card needs the right hand)
        out = io.StringIO()
        console = Console(file=out, width=140, color_system=None, highlight=False)
        table = CribbageTable(
            Options(muggins=True, target=61, seed=seed, record=tmp_path / "b.json", delay=0), console, person.read_line
        )
        person.table, person.out = table, out
        assert table.run() == 0
        _check_end(table.game, out.getvalue())
        if len(person._tried) == 7:
            break
    kinds = {kind for kind, _ in person.rejected}
    assert {"malformed card", "not held", "over 31", "go while able", "count 30", "muggins 0", "nonsense"} <= kinds
    for kind, reply in person.rejected:
        assert reply.startswith("✗"), (kind, reply)
    texts = dict(person.rejected)
    assert "malformed card" in texts["malformed card"]
    assert "does not hold" in texts["not held"]
    assert "past 31" in texts["over 31"]
    assert "cannot say go" in texts["go while able"]
    assert "0 to 29" in texts["count 30"]
    assert "1 to 29" in texts["muggins 0"]


def test_quit_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    result = _play(["--seed", "8", "--record", str(record)], ["1", "quit", "n", "1", "quit", "y"])
    assert result.exit_code == 0, result.output
    assert "Game stopped" in result.output and record.exists()
    game = _replay(record)
    assert not game.is_over() and len(game.moves) >= 2
    replayed = runner.invoke(app, ["cribbage", "replay", str(record)])
    assert replayed.exit_code == 0, replayed.output


def test_auto_plays_every_option_to_the_end(tmp_path: Path) -> None:
    for i, args in enumerate(
        (
            ["--players", "3", "--target", "61"],
            ["--players", "4", "--partnership", "--target", "61", "--muggins"],
            ["--lowball", "--muggins", "--target", "61"],
            ["--bot", "random", "--target", "61", "--muggins"],
        )
    ):
        record = tmp_path / f"auto{i}.json"
        result = _play(["--auto", "--seed", str(20 + i), "--record", str(record), *args], [])
        assert result.exit_code == 0, result.output
        game = _replay(record)
        _check_end(game, result.output)
        if "--lowball" in args:  # spec §2.9, M15: Lowball without Muggins, and the engine's notice is printed
            (notice,) = Rules(muggins=True, lowball=True).notices
            assert " ".join(notice.split()) in " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
            assert game.rules.lowball and not game.rules.muggins


def test_bad_options_exit_2_with_a_reason() -> None:
    result = runner.invoke(app, ["play", "cribbage", "--partnership"])
    assert result.exit_code == 2 and "4 players" in result.output
    result = runner.invoke(app, ["play", "cribbage", "--target", "100"])
    assert result.exit_code == 2 and "61 or 121" in result.output
    result = runner.invoke(app, ["play", "cribbage", "--bot", "perfect"])
    assert result.exit_code == 2 and "random, beginner, casual, greedy, strong, expert" in result.output


@dataclass
class _Person:
    """A scripted person at seat 0.  It reads the table's View (its own seat only) and answers each prompt:
    discards and plays the first legal move, counts hands true/short/long in turn, answers computer counts
    correctly.  With ``bad`` it first tries each kind of bad input once and records the reply printed."""

    bad: bool = False
    table: CribbageTable | None = None
    out: io.StringIO | None = None
    counts: int = 0
    answers: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    _tried: set[str] = field(default_factory=set)
    _pending: str | None = None
    _mark: int = 0
    _moves: int = 0

    def read_line(self, prompt: str) -> str:
        assert self.table is not None and self.out is not None
        text = self.out.getvalue()
        if self._pending is not None:  # the reply to the bad line just sent
            reply = text[self._mark :].strip().splitlines()
            self.rejected.append((self._pending, reply[0] if reply else ""))
            self._pending = None
            assert len(self.table.game.moves) == self._moves  # the bad line changed nothing
        if "Press Enter" in prompt or "Quit this game" in prompt:
            return ""
        game = self.table.game
        view = game.view(0)
        assert game.to_act == 0
        line = self._bad_line(view) if self.bad else None
        if line is not None:
            kind, bad = line
            self._tried.add(kind)
            self._pending = kind
            self._mark = len(text)
            self._moves = len(game.moves)
            return bad
        if view.phase == "show":
            assert view.starter is not None
            true = score_show(view.counting_cards, view.starter, crib=view.counting_crib).total
            if view.announced is None:
                self.counts += 1
                return str(max(0, min(29, true + (0, -2, 3)[self.counts % 3])))
            self.answers += 1
            # M9: the true count of this hand has not been printed since it was announced
            last_announce = text.rfind("announces")
            if "True count" in text[last_announce:]:
                self.leaks.append(text[last_announce:])
            if view.announced < true:
                return f"muggins {true - view.announced}"
            return "overcount" if view.announced > true else "accept"
        return "1"

    def _bad_line(self, view: Any) -> tuple[str, str] | None:
        held = {str(c) for c in view.hand}
        if view.phase == "discard":
            if "malformed card" not in self._tried:
                return "malformed card", "5X 9Z"
            if "nonsense" not in self._tried:
                return "nonsense", "please deal again"
            missing = next(f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC" if f"{r}{s}" not in held)
            if "not held" not in self._tried:
                return "not held", f"{missing} {sorted(held)[0]}"
        elif view.phase == "play":
            room = 31 - view.count
            too_big = [c for c in view.hand if card_value(c) > room]
            fits = [c for c in view.hand if card_value(c) <= room]
            if too_big and "over 31" not in self._tried:
                return "over 31", str(too_big[0])
            if fits and "go while able" not in self._tried:
                return "go while able", "go"
        elif view.phase == "show":
            if view.announced is None and "count 30" not in self._tried:
                return "count 30", "30"
            if view.announced is not None and "muggins 0" not in self._tried:
                return "muggins 0", "muggins 0"
        return None
