"""The terminal games played in a real terminal: tmux at 80x24, keys sent with ``send-keys``, the screen read with
``capture-pane`` (issue #15, "Terminal").

Each test starts its own tmux server (a socket of its own) running ``kortbord play ...`` with this checkout's
sources, and stops it at the end.  Skipped when tmux is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.text import Text

from kortbord import i18n
from kortbord.contract import Reason
from kortbord.mulle.game import Game

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")

SRC = Path(__file__).resolve().parents[2] / "src"
WIDTH, HEIGHT = 80, 24
#: A Mulle seed whose first decision has 63 legal moves (33 of them with 2♥) under the greedy computer.
MANY_MOVES_SEED = 35


class Screen:
    """One tmux server with one 80x24 window running a command."""

    def __init__(self, argv: list[str], tmp: Path) -> None:
        self.socket = f"kortbord-test-{uuid.uuid4().hex[:10]}"
        self.status = tmp / f"status-{self.socket}"
        env = f"PYTHONPATH={SRC} XDG_DATA_HOME={tmp} TERM=xterm-256color"
        command = " ".join(_quote(a) for a in [sys.executable, "-m", "kortbord", *argv])
        shell = f"env {env} {command} 2> {self.status}.err; echo $? > {self.status}; sleep 30"
        subprocess.run(
            [*self._tmux(), "new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), shell],
            check=True,
            env={**os.environ, "TMUX": ""},
        )

    def _tmux(self) -> list[str]:
        return ["tmux", "-L", self.socket, "-f", "/dev/null"]

    def keys(self, *keys: str) -> None:
        """``send-keys``: tmux key names (``Enter``, ``Up``, ``C-c``) or literal text."""
        subprocess.run([*self._tmux(), "send-keys", *keys], check=True)

    def text(self) -> str:
        """The screen as it is now: 24 lines of at most 80 columns."""
        return subprocess.run([*self._tmux(), "capture-pane", "-p"], check=True, capture_output=True, text=True).stdout

    def history(self) -> str:
        """The screen with the lines scrolled off above it."""
        return subprocess.run(
            [*self._tmux(), "capture-pane", "-p", "-S", "-300"], check=True, capture_output=True, text=True
        ).stdout

    def wait(self, ready: Callable[[str], bool], timeout: float = 30.0) -> str:
        """The screen once ``ready(screen)`` holds (fails after ``timeout`` seconds with the screen shown)."""
        end = time.monotonic() + timeout
        screen = self.text()
        while not ready(screen):
            if time.monotonic() > end:
                pytest.fail(f"the screen never got there:\n{screen}")
            time.sleep(0.2)
            screen = self.text()
        return screen

    def exit_status(self, timeout: float = 20.0) -> int:
        """The command's exit status, once it has exited."""
        end = time.monotonic() + timeout
        while not self.status.exists() or not self.status.read_text().strip():
            if time.monotonic() > end:
                pytest.fail(f"the game did not exit:\n{self.text()}")
            time.sleep(0.2)
        return int(self.status.read_text())

    def game_pids(self) -> list[int]:
        """The game's process: the child of the window's shell (``env`` execs Python)."""
        shell = subprocess.run(
            [*self._tmux(), "display-message", "-p", "#{pane_pid}"], check=True, capture_output=True, text=True
        ).stdout.strip()
        found = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True, check=False).stdout.split()
        assert found, "the game's process"
        return [int(p) for p in found]

    def hang_up(self) -> None:
        """Close the terminal: kill the tmux session (its processes get SIGHUP)."""
        subprocess.run([*self._tmux(), "kill-session"], check=False, capture_output=True)

    def close(self) -> None:
        subprocess.run([*self._tmux(), "kill-server"], check=False, capture_output=True)


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Callable[..., Screen]]:
    started: list[Screen] = []

    def start(*argv: str) -> Screen:
        s = Screen(list(argv), tmp_path)
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


def _prompting(screen: str) -> bool:
    return bool(re.search(r"(your move|ditt drag|your card|choose \d|ditt kort|välj \d).*:\s*$", screen.rstrip()))


def _mulle(record: Path, *more: str) -> list[str]:
    return ["play", "mulle", "--bot", "greedy", "--record", str(record), *more]


def test_the_first_mulle_decision_fits_on_the_screen_with_the_table(
    screen: Callable[..., Screen], tmp_path: Path
) -> None:
    s = screen(*_mulle(tmp_path / "r.json", "--seed", str(MANY_MOVES_SEED)))
    shown = s.wait(_prompting)
    lines = shown.splitlines()
    # the whole table panel is on the screen, and the prompt under it
    assert any(line.startswith("╭─ Round 1 · deal 1 of 6") for line in lines), shown
    assert any(line.startswith("╰") for line in lines) and "Your hand" in shown and "Table" in shown
    assert "your move (1-63" in lines[-1] or "your move (1-63" in shown.rstrip().splitlines()[-1]
    # the moves by card: every hand card's line, not 63 numbered lines
    assert "Your legal moves by card" in shown and "33 moves" in shown
    # a card with many moves: its moves a page at a time, the table still above them
    s.keys("2h", "Enter")
    shown = s.wait(lambda t: "Moves with 2♥ (33)" in t and _prompting(t))
    assert "╭─ Round 1" in shown and "Your hand" in shown and "more: press Enter" in shown
    first_page = re.findall(r"^\s*(\d+)  ", shown, re.M)
    s.keys("Enter")
    shown = s.wait(lambda t: re.findall(r"^\s*(\d+)  ", t, re.M) != first_page and _prompting(t))
    assert "╭─ Round 1" in shown and "Moves with 2♥" in shown
    # a number from the page plays that move
    number = re.findall(r"^\s*(\d+)  build", shown, re.M)[0]
    s.keys(number, "Enter")
    s.wait(lambda t: "You ▸ build 2♥" in t or "You ▸" in t)


def test_arrows_edit_the_line_and_walk_the_history(screen: Callable[..., Screen], tmp_path: Path) -> None:
    s = screen(*_mulle(tmp_path / "r.json", "--seed", "3"))
    s.wait(_prompting)
    s.keys("ruls", "Left", "e", "End", "Enter")  # edit inside the line: "rules"
    shown = s.wait(lambda t: "Mulle in short" in t and _prompting(t))
    s.keys("Up")  # the line typed before comes back
    shown = s.wait(lambda t: t.rstrip().endswith("rules"))
    assert "^[" not in shown and "\x1b" not in shown
    s.keys("C-u", "Left", "Right", "Up", "Down")
    shown = s.text()
    assert "^[[" not in shown and "[A" not in shown.splitlines()[-1]


def test_help_and_errors_wrap_at_80_columns_between_words(screen: Callable[..., Screen], tmp_path: Path) -> None:
    s = screen(*_mulle(tmp_path / "r.json", "--seed", "3"))
    s.wait(_prompting)
    s.keys("rules", "Enter")
    shown = s.wait(lambda t: "mulles and tabbar" in t and _prompting(t))
    lines = shown.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    # the words on the screen are the rules' words in order: a word is never cut at the edge
    rules = Text.from_markup(i18n.render("mulle.rules", {}, "en", game="terminal")).plain
    start = next(i for i, line in enumerate(lines) if line.startswith("Mulle in short"))
    end = next(i for i, line in enumerate(lines) if "mulles and tabbar" in line)
    assert " ".join(lines[start : end + 1]).split() == rules.split()
    assert any(line.startswith("  ") and len(line) > 60 for line in lines[start:end])  # wrapped under the bullet
    s.keys("hello", "Enter")
    shown = s.wait(lambda t: "neither a move nor a command" in t and _prompting(t))
    lines = shown.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("✗ 'hello' is neither"))
    said = " ".join(lines[first : first + 2]).split()[1:]
    assert " ".join(said).startswith(str(Reason("not_a_move", {"text": "hello"}, game="terminal")))
    assert 60 < len(lines[first]) <= WIDTH


def test_sighup_saves_the_record_and_resume_continues_it(screen: Callable[..., Screen], tmp_path: Path) -> None:
    record = tmp_path / "saved.json"
    s = screen(*_mulle(record, "--seed", "3"))
    s.wait(_prompting)
    s.keys("1", "Enter")
    s.wait(lambda t: _prompting(t) and "You ▸" in s.history())
    s.hang_up()  # the terminal closes: SIGHUP
    end = time.monotonic() + 20
    while not record.exists() and time.monotonic() < end:
        time.sleep(0.2)
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["game"] == "mulle" and saved["seed"] == 3 and len(saved["moves"]) >= 2
    game = Game.from_record(saved)  # the record is whole: it replays
    assert not game.is_over() and game.to_act() == 0
    # --resume continues it: the same table, the person to move, and the record grows from there
    r = screen("play", "mulle", "--bot", "greedy", "--resume", str(record))
    shown = r.wait(_prompting)
    assert f"{len(saved['moves'])} moves replayed" in " ".join(r.history().split())
    hand = " ".join(_face(c) for c in game.view(0).hand)
    assert re.sub(r"\s+", " ", hand) in re.sub(r"\s+", " ", shown), (hand, shown)
    r.keys("1", "Enter")
    r.wait(lambda t: _prompting(t) and r.history().count("You ▸") >= 1)
    r.keys("quit", "Enter", "y", "Enter")
    assert r.exit_status() == 0
    again = json.loads(record.read_text(encoding="utf-8"))
    assert again["moves"][: len(saved["moves"])] == saved["moves"] and len(again["moves"]) > len(saved["moves"])
    assert Game.from_record(again).to_record() == again


def _face(card: object) -> str:
    from kortbord.cli.card_faces import card_plain

    return card_plain(card)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_ctrl_c_exits_130_and_saves_the_record(screen: Callable[..., Screen], tmp_path: Path, game: str) -> None:
    record = tmp_path / "r.json"
    s = screen("play", game, "--bot", "greedy", "--seed", "3", "--record", str(record))
    s.wait(_prompting)
    s.keys("C-c")
    assert s.exit_status() == 130
    assert json.loads(record.read_text(encoding="utf-8"))["game"] == game


def test_sigterm_saves_the_cribbage_record_and_resume_continues(screen: Callable[..., Screen], tmp_path: Path) -> None:
    record = tmp_path / "c.json"
    s = screen("play", "cribbage", "--bot", "greedy", "--seed", "4", "--record", str(record))
    s.wait(_prompting)
    for pid in s.game_pids():
        os.kill(pid, signal.SIGTERM)
    assert s.exit_status() == 128 + 15
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["game"] == "cribbage" and saved["seed"] == 4
    r = screen("play", "cribbage", "--bot", "greedy", "--resume", str(record))
    shown = r.wait(_prompting)
    assert "moves replayed" in " ".join(r.history().split()) and "Board" in shown


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_a_swedish_game_shows_no_english_panel_words(screen: Callable[..., Screen], tmp_path: Path, game: str) -> None:
    seed = str(MANY_MOVES_SEED) if game == "mulle" else "3"
    s = screen("play", game, "--bot", "greedy", "--seed", seed, "--lang", "sv", "--record", str(tmp_path / "r.json"))
    shown = s.wait(_prompting)
    s.keys("xyz", "Enter")
    shown = s.wait(lambda t: "✗" in t and _prompting(t))
    if game == "mulle":
        s.keys("8C x {2D", "Enter")
        shown += s.wait(lambda t: t.count("✗") >= 2 and _prompting(t))
        s.keys("2h", "Enter")
        shown += s.wait(lambda t: "Drag med 2♥" in t and _prompting(t))
        assert "Ställning" in shown and "Bordet" in shown and "Din hand" in shown and "Omgång 1" in shown
    else:
        assert "Brädet" in shown and "Din hand" in shown and "Giv 1" in shown
    english = re.findall(
        r"\b(Round|Score|Table|Builds|Your hand|in hand|pile|card pts|Board|Starter|Cards held|Count|Deal|"
        r"locked|open|more|is not|neither|malformed|your move|the crib)\b",
        shown,
    )
    assert not english, (english, shown)
